/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "attribute-defaults.h"

#include "ns3/abort.h"

namespace ns3
{
namespace debloat
{

std::optional<std::string>
AttributeDefaults::GetUserDefault(TypeId tid, const std::string& name)
{
    TypeId::AttributeInformation info;
    NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(name, &info),
                        tid.GetName() << " has no attribute " << name);
    // Config::SetDefault changes initialValue; originalInitialValue is what GetTypeId() said.
    const std::string current = info.initialValue->SerializeToString(info.checker);
    if (current == info.originalInitialValue->SerializeToString(info.checker))
    {
        return std::nullopt;
    }
    return current;
}

} // namespace debloat
} // namespace ns3
