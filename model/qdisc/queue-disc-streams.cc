/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "queue-disc-streams.h"

#include "ns3/cake-queue-disc.h"
#include "ns3/cobalt-queue-disc.h"
#include "ns3/htb-queue-disc.h"
#include "ns3/log.h"
#include "ns3/netem-queue-disc.h"
#include "ns3/pie-queue-disc.h"
#include "ns3/red-queue-disc.h"
#include "ns3/sfq-queue-disc.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("QueueDiscStreams");

namespace
{

/**
 * Calls AssignStreams() if the queue disc is a T.
 * @tparam T a queue disc type with int64_t AssignStreams(int64_t)
 * @param qdisc the queue disc
 * @param stream the first stream
 * @param[out] used the streams used, when it is a T
 * @return true if it is a T
 */
template <typename T>
bool
AssignIf(const Ptr<QueueDisc>& qdisc, int64_t stream, int64_t& used)
{
    Ptr<T> typed = DynamicCast<T>(qdisc);
    if (!typed)
    {
        return false;
    }
    used = typed->AssignStreams(stream);
    return true;
}

} // namespace

int64_t
AssignQueueDiscStreams(Ptr<QueueDisc> qdisc, int64_t stream)
{
    NS_LOG_FUNCTION(qdisc << stream);
    if (!qdisc)
    {
        return 0;
    }
    int64_t used = 0;
    if (AssignIf<CakeQueueDisc>(qdisc, stream, used) ||
        AssignIf<SfqQueueDisc>(qdisc, stream, used) ||
        AssignIf<HtbQueueDisc>(qdisc, stream, used) ||
        AssignIf<NetemQueueDisc>(qdisc, stream, used) ||
        AssignIf<PieQueueDisc>(qdisc, stream, used) ||
        AssignIf<RedQueueDisc>(qdisc, stream, used) ||
        AssignIf<CobaltQueueDisc>(qdisc, stream, used))
    {
        NS_LOG_LOGIC(qdisc->GetInstanceTypeId().GetName()
                     << ": streams " << stream << " to " << stream + used - 1);
        return used;
    }
    for (std::size_t i = 0; i < qdisc->GetNQueueDiscClasses(); ++i)
    {
        used += AssignQueueDiscStreams(qdisc->GetQueueDiscClass(i)->GetQueueDisc(), stream + used);
    }
    return used;
}

} // namespace debloat
} // namespace ns3
