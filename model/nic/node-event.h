/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NODE_EVENT_H
#define NODE_EVENT_H

#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <functional>
#include <utility>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief A cancellable event bound to one call, run in a node's context whatever event
 * schedules it.
 *
 * Simulator::Schedule() gives an event the context of the event that schedules it. A
 * device's own timers (interrupts, polls, a core's next completion) belong to its node,
 * whichever event set them: a frame sent from the main context (a packet sent before
 * Simulator::Run(), IPv6's duplicate address detection in ns-3.35) must not make the poll
 * that later passes received frames up run outside the node (Node::ReceiveFromDevice()
 * asserts the context). Simulator::ScheduleWithContext() returns no EventId, so this keeps
 * the event to cancel it. It queues the event as Simulator::Schedule() would, in the same
 * order, so only the context differs.
 *
 * The call is bound once (Bind()) and its event object is scheduled again once it has run,
 * as ns-3's Timer reuses its call: these timers fire once or more per packet, and a new
 * event object per firing (MakeEvent()) was an allocation and a free each time. An event
 * cancelled while pending keeps its cancelled flag in the simulator's queue, so the next
 * Schedule() makes a new one.
 */
class NodeEvent
{
  public:
    /**
     * Binds the call the event makes; cancels a pending one.
     * @param method the member function
     * @param object the object
     * @param args its arguments
     * @tparam MEM the member function's type
     * @tparam OBJ the object's type
     * @tparam Ts the arguments' types
     */
    template <typename MEM, typename OBJ, typename... Ts>
    void Bind(MEM method, OBJ object, Ts... args)
    {
        Cancel();
        m_event = nullptr; // a new call: the next Schedule() makes its event object
        m_call = [method, object, args...]() { (object->*method)(args...); };
    }

    /**
     * Cancels the pending event, if any, and schedules the bound call.
     * @param context the node's id
     * @param delay from now
     */
    void Schedule(uint32_t context, const Time& delay)
    {
        Cancel();
        if (!m_event)
        {
            NS_ASSERT_MSG(m_call, "NodeEvent scheduled before Bind()");
            m_event = Create<Impl>(m_call);
        }
        m_event->m_pending = true;
        // The simulator's reference, dropped once the event ran (EventImpl is reference
        // counted; the Ptr keeps ours for the next firing).
        m_event->Ref();
        Simulator::ScheduleWithContext(context, delay, PeekPointer(m_event));
    }

    /// Cancels the pending event (harmless if it ran or none was scheduled), as EventId::Cancel().
    void Cancel()
    {
        if (m_event && m_event->m_pending)
        {
            m_event->Cancel();
            m_event = nullptr; // stays cancelled in the queue until its time: not reusable
        }
    }

  private:
    /// The event object: calls the bound call and notes that it ran.
    class Impl : public EventImpl
    {
      public:
        /// @param call the call
        explicit Impl(std::function<void()> call)
            : m_call(std::move(call))
        {
        }

        bool m_pending{false}; ///< scheduled and not run

      protected:
        void Notify() override
        {
            m_pending = false; // first: the call may schedule the event again
            m_call();
        }

      private:
        std::function<void()> m_call; ///< the bound call
    };

    std::function<void()> m_call; ///< the bound call
    Ptr<Impl> m_event;            ///< the event object, pending or ready to schedule again
};

} // namespace debloat
} // namespace ns3

#endif /* NODE_EVENT_H */
