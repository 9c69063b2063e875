/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATTRIBUTE_DEFAULTS_H
#define ATTRIBUTE_DEFAULTS_H

#include "ns3/type-id.h"

#include <optional>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat
 * @brief Tells a user's attribute default from the built-in one.
 *
 * Helpers that set attributes for the user (a NIC profile, a qdisc's tc text) must not
 * silently override what the user asked for with Config::SetDefault() or
 * --ns3::debloat::Class::Attribute=value on the command line: where a user's default exists,
 * the helpers apply it above the profile (and as the base the tc words parse over), so an
 * invalid value stops with the attribute's own message instead of being ignored.
 */
class AttributeDefaults
{
  public:
    /**
     * @param tid the type
     * @param name an attribute of the type or of one of its parents
     * @return the default as text if the user changed it (it differs from the value the
     * attribute was declared with), else nullopt
     */
    static std::optional<std::string> GetUserDefault(TypeId tid, const std::string& name);
};

} // namespace debloat
} // namespace ns3

#endif // ATTRIBUTE_DEFAULTS_H
