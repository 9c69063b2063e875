/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NO_QUEUE_DISC_H
#define NO_QUEUE_DISC_H

#include "ns3/queue-disc.h"

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief Linux's noqueue: no queue in front of the device. A packet goes straight to the
 * driver when its TX queue is running and is dropped when the driver (or BQL) has stopped
 * it, as __dev_queue_xmit() does for a device without a qdisc.
 *
 * This is what a device gets with `ip link set DEV txqueuelen 0`: Linux's default qdisc
 * (pfifo_fast) cannot be made with a zero-length queue, so the device falls back to
 * noqueue (attach_default_qdiscs()); the 2.6.32 kernel of the wifi seed kept pfifo_fast with
 * a limit of 0, which with TCQ_F_CAN_BYPASS behaves the same.
 *
 * ns-3 sends a packet to a device without a root queue disc only if its queue runs, and
 * loses it without a trace otherwise; this queue disc counts each such packet as dropped
 * ("Device queue stopped"), and holds nothing: every packet is sent within its own enqueue.
 *
 * Deviation from Linux: Linux's TCP keeps a segment the stack refused (tcp_transmit_skb()
 * returns NET_XMIT_DROP, the segment stays at the head of the write queue and TCP enters
 * CWR); ns-3's TCP does not see the refusal and recovers the segment as a loss.
 */
class NoQueueDisc : public QueueDisc
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NoQueueDisc();
    ~NoQueueDisc() override;

    /// Drop reason of a packet whose TX queue is stopped.
    static constexpr const char* STOPPED_DROP = "Device queue stopped";

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;
};

} // namespace debloat
} // namespace ns3

#endif /* NO_QUEUE_DISC_H */
