/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QDISC_KINDS_H
#define QDISC_KINDS_H

#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief A queue disc as tc names it (its kind, `tc qdisc show`'s first word) and the ns-3
 * type that models it.
 */
struct QdiscKind
{
    const char* name; ///< tc's kind
    const char* type; ///< the ns-3 TypeId name
    bool classful;    ///< its classes hold qdiscs of their own (tc's, not internal flows)
};

/**
 * @return the kinds the module's tc text and cost models know, in the order error messages
 * list them
 */
const std::vector<QdiscKind>& GetQdiscKinds();

/**
 * @param name a tc kind
 * @return its entry, or nullptr
 */
const QdiscKind* FindQdiscKind(const std::string& name);

/**
 * @param type an ns-3 TypeId name
 * @return the kind modelled by it, or nullptr
 */
const QdiscKind* FindQdiscKindOfType(const std::string& type);

/// @return the kinds' names, comma-separated, for error messages
std::string QdiscKindNames();

} // namespace debloat
} // namespace ns3

#endif /* QDISC_KINDS_H */
