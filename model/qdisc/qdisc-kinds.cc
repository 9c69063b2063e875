/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "qdisc-kinds.h"

namespace ns3
{
namespace debloat
{

const std::vector<QdiscKind>&
GetQdiscKinds()
{
    static const std::vector<QdiscKind> kinds{
        {"pfifo_fast", "ns3::PfifoFastQueueDisc", false},
        {"pfifo", "ns3::FifoQueueDisc", false},
        {"noqueue", "ns3::debloat::NoQueueDisc", false},
        {"prio", "ns3::PrioQueueDisc", true},
        {"fq_codel", "ns3::FqCoDelQueueDisc", false},
        {"codel", "ns3::CoDelQueueDisc", false},
        {"pie", "ns3::PieQueueDisc", false},
        {"sfq", "ns3::debloat::SfqQueueDisc", false},
        {"cake", "ns3::debloat::CakeQueueDisc", false},
        {"htb", "ns3::debloat::HtbQueueDisc", true},
        {"netem", "ns3::debloat::NetemQueueDisc", false},
    };
    return kinds;
}

const QdiscKind*
FindQdiscKind(const std::string& name)
{
    for (const QdiscKind& kind : GetQdiscKinds())
    {
        if (name == kind.name)
        {
            return &kind;
        }
    }
    return nullptr;
}

const QdiscKind*
FindQdiscKindOfType(const std::string& type)
{
    for (const QdiscKind& kind : GetQdiscKinds())
    {
        if (type == kind.type)
        {
            return &kind;
        }
    }
    return nullptr;
}

std::string
QdiscKindNames()
{
    std::string names;
    for (const QdiscKind& kind : GetQdiscKinds())
    {
        names += std::string(names.empty() ? "" : ", ") + kind.name;
    }
    return names;
}

} // namespace debloat
} // namespace ns3
