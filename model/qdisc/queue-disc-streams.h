/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QUEUE_DISC_STREAMS_H
#define QUEUE_DISC_STREAMS_H

#include "ns3/ptr.h"
#include "ns3/queue-disc.h"

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * Assigns fixed random streams to a queue disc and the queue discs below it, for the types
 * that draw random numbers and have AssignStreams(int64_t): debloat's CakeQueueDisc and
 * SfqQueueDisc (their hash keys and perturbation), NetemQueueDisc (jitter, loss,
 * duplication, reordering, corruption), HtbQueueDisc (its leaves, in classid order), and
 * ns-3's PieQueueDisc, RedQueueDisc and CobaltQueueDisc (the ones with
 * AssignStreams in ns-3.35 and 3.37). Any other classful queue disc (prio, ...) is
 * searched through its QueueDiscClasses in order. QueueDisc has no virtual
 * AssignStreams, hence one place that knows the types.
 *
 * Limitation: children that a queue disc makes while it runs (FqPie's and FqCobalt's
 * per-flow queue discs) are not reached; TcQdiscHelper installs neither.
 *
 * @param qdisc the queue disc (nullptr: none)
 * @param stream the first stream
 * @return the number of streams used
 */
int64_t AssignQueueDiscStreams(Ptr<QueueDisc> qdisc, int64_t stream);

} // namespace debloat
} // namespace ns3

#endif /* QUEUE_DISC_STREAMS_H */
