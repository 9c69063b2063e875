/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NODE_EVENT_H
#define NODE_EVENT_H

#include "ns3/make-event.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief A cancellable event that runs in a node's context, whatever event schedules it.
 *
 * Simulator::Schedule() gives an event the context of the event that schedules it. A
 * device's own timers (interrupts, polls, a core's next completion) belong to its node,
 * whichever event set them: a frame sent from the main context (a packet sent before
 * Simulator::Run(), IPv6's duplicate address detection in ns-3.35) must not make the poll
 * that later passes received frames up run outside the node (Node::ReceiveFromDevice()
 * asserts the context). Simulator::ScheduleWithContext() returns no EventId, so this keeps
 * the event to cancel it; whether it is still pending is for its owner to track (its
 * handler runs when it fires). It queues the event as Simulator::Schedule() would, in the
 * same order, so only the context differs.
 */
class NodeEvent
{
  public:
    /**
     * Cancels the event held, if any, and schedules a member function call.
     * @param context the node's id
     * @param delay from now
     * @param method the member function
     * @param object the object
     * @param args its arguments
     * @tparam MEM the member function's type
     * @tparam OBJ the object's type
     * @tparam Ts the arguments' types
     */
    template <typename MEM, typename OBJ, typename... Ts>
    void Schedule(uint32_t context, const Time& delay, MEM method, OBJ object, Ts... args)
    {
        Cancel();
        // MakeEvent's reference goes to the simulator, which drops it once the event ran.
        m_event = Ptr<EventImpl>(MakeEvent(method, object, args...));
        Simulator::ScheduleWithContext(context, delay, PeekPointer(m_event));
    }

    /// Cancels the event held (harmless if it ran or none is held), as EventId::Cancel().
    void Cancel()
    {
        if (m_event)
        {
            m_event->Cancel();
            m_event = nullptr;
        }
    }

  private:
    Ptr<EventImpl> m_event; ///< the last event scheduled
};

} // namespace debloat
} // namespace ns3

#endif /* NODE_EVENT_H */
