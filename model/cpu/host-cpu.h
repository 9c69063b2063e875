/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A node's CPU cores for the simulation: the ns-3 adapter of CpuCoreModel.
 */

#ifndef HOST_CPU_H
#define HOST_CPU_H

#include "cpu-core-model.h"

#include "ns3/data-rate.h"
#include "ns3/node-event.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/traced-callback.h"

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{
class QueueDisc;

namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief The CPU cores of a node, aggregated to it: hard interrupts, NAPI polls and tasks
 * take time on a core as CpuCoreModel places them.
 *
 * Off unless aggregated: without a HostCpu on its node a NicNetDevice's interrupts and polls
 * take no time, as before. With one, NicNetDevice charges each interrupt HardIrqCost on the
 * vector's core and runs each NAPI poll's work (PollCost + RxPacketCost per frame passed up
 * + TxPacketCost per TX packet reclaimed + ForwardCost and the egress qdisc tree's cost per
 * frame the node forwards) in softirq context within net_rx_action()'s budgets
 * (NetdevBudget, NetdevBudgetUsecs), or in ksoftirqd after a SchedulingLatency draw; what
 * the poll does (BQL completion, queue wake, packets up the stack) happens when that work
 * completes. A packet the node sends itself costs XmitCost and its qdisc tree as task work
 * (NicNetDevice), and applications (AppCpu) wake after SchedulingLatency and WakeupCost and
 * pay SyscallCost and the copy at CopyRate per recvmsg() and sendmsg().
 *
 * The default costs are order-of-magnitude figures for one core of a 2 to 3 GHz x86 host
 * (a hard interrupt's entry, handler and exit about 1 us; napi_poll() and the driver's
 * register work about 1 us; a received frame through the driver, IP and TCP about 1 us; a
 * reclaimed TX packet, unmapped and freed, about 0.25 us): CpuProfile's "generic". The
 * profiles of the seeds' machines (HostCpuHelper::SetProfile()) keep their proportions:
 * the x86 ones calibrated against a measured Linux forwarding rate (2.5 times cheaper
 * than the defaults at 3 GHz), the Armada 385's scaled and its qdisc costs calibrated
 * against seed 003 (cpu-profile.cc).
 *
 * A forwarded frame runs netif_receive_skb() -> ip_rcv() -> ip_forward() -> ip_output() ->
 * dev_queue_xmit() -> __qdisc_run() -> ndo_start_xmit() inside the NET_RX softirq that
 * received it, so its cost is part of the RX poll: ForwardCost (about 0.3 us: the route
 * lookup, the forward and output path, the neighbour output and the driver's xmit) and
 * QdiscCost (about 0.1 us: a simple qdisc's enqueue and dequeue under its lock, per qdisc
 * of a kind QdiscCosts does not price; GetQdiscCost()). With the
 * other defaults a forwarded 1500-byte packet costs 1 + 0.3 + 0.1 + 0.25 = 1.65 us, about
 * 600 kpps per core, where Linux forwards 1.74 Mpps on a 3.6 GHz Broadwell core (the
 * calibrated profiles; RxPacketCost includes a transport layer a forwarded frame skips).
 *
 * Usage is counted as /proc/stat counts it: GetUsage() gives a core's cumulative busy time
 * per class and idle time; the difference of two samples gives mpstat's %irq, %soft and %usr
 * and netperf -c's utilisation (CpuCoreModel::BusyFraction(), ClassFraction()).
 *
 * Deviation from Linux: a vector's interrupt is served by core (vector mod IrqCores), a fixed
 * smp_affinity, where irqbalance would move them with the load; the settings are read once, when
 * the first work arrives.
 */
class HostCpu : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    HostCpu();
    ~HostCpu() override;

    /**
     * TracedCallback signature for a core's state change.
     * @param core the core
     * @param from the class it ran (0 hardirq, 1 softirq, 2 task, 3 idle)
     * @param to the class it runs now
     */
    typedef void (*CoreStateTracedCallback)(uint32_t core, uint32_t from, uint32_t to);
    /**
     * TracedCallback signature for a softnet counter of a core.
     * @param core the core
     * @param count the counter's new value
     */
    typedef void (*SoftnetCounterTracedCallback)(uint32_t core, uint64_t count);

    /**
     * Assigns a fixed stream to SchedulingLatency.
     * @param stream the first stream index
     * @return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Runs a hard interrupt handler (HardIrqCost) on a core now.
     * @param core the core
     */
    void RunHardIrq(uint32_t core);
    /**
     * Runs one NAPI poll's work on a core: napi->poll() called by net_rx_action() now.
     * @param core the core the NAPI instance is scheduled on
     * @param napi identifies the NAPI instance (unique per instance)
     * @param rxPackets frames the poll passed up
     * @param txPackets TX packets it reclaimed
     * @param forwarded of the rxPackets, the frames the node forwards (ForwardCost each)
     * @param qdiscWork the forwarded frames' qdisc costs (GetQdiscCost() of each one's egress)
     * @param work what the poll returns (counted against NetdevBudget)
     * @param done called when the work completes
     * @return the completion projected now (hard interrupts arriving later push it back;
     * done is called at the actual time)
     */
    Time RunNapiPoll(uint32_t core,
                     uint64_t napi,
                     uint32_t rxPackets,
                     uint32_t txPackets,
                     uint32_t forwarded,
                     Time qdiscWork,
                     uint32_t work,
                     std::function<void()> done);
    /**
     * Runs net_tx_action() (NetTxCost) on a core, raised now: in the softirq invocation that
     * raised it if handle_softirqs() restarts, else in ksoftirqd (CpuCoreModel::NetTx()).
     * @param core the core that raised NET_TX_SOFTIRQ
     * @param done called when it completes: the qdisc runs then
     * @return the completion projected now
     */
    Time RunNetTx(uint32_t core, std::function<void()> done);
    /**
     * Runs task work on a core now (process context, released at once).
     * @param core the core
     * @param cost its cost
     * @param done called when it completes (may be empty)
     * @return the projected completion
     */
    Time RunTask(uint32_t core, Time cost, std::function<void()> done);

    /**
     * @param root the egress device's root qdisc (nullptr: none)
     * @return the cost of sending a packet the node made: XmitCost and the qdisc tree's
     */
    Time GetXmitCost(Ptr<QueueDisc> root);
    /**
     * Wakes a task asleep on a socket (try_to_wake_up()): after a SchedulingLatency draw it
     * runs WakeupCost plus its work on a core.
     * @param core the task's core
     * @param cost its work once running (GetSyscallCost() of what it reads, say)
     * @param done called when it completes
     * @return the completion projected now
     */
    Time WakeTask(uint32_t core, Time cost, std::function<void()> done);
    /**
     * @param bytes the data a sendmsg() or recvmsg() copies
     * @return its cost: SyscallCost plus the copy at CopyRate
     */
    Time GetSyscallCost(uint64_t bytes) const;
    /**
     * @return the core for the next task (a netperf process): the cores in turn, from 0
     */
    uint32_t NextTaskCore();
    /**
     * @param vector an interrupt vector of a device
     * @return the core that serves it
     */
    uint32_t GetIrqCore(uint32_t vector);
    /** @return the number of cores */
    uint32_t GetNCores() const;
    /** @return DevTxWeight: packets one qdisc run of net_tx_action() sends */
    uint32_t GetDevTxWeight() const;
    /**
     * @param rxPackets frames passed up
     * @param txPackets TX packets reclaimed
     * @param forwarded of the rxPackets, the frames forwarded
     * @param qdiscWork the forwarded frames' qdisc costs
     * @return the cost of a poll that does this work
     */
    Time GetPollCost(uint32_t rxPackets,
                     uint32_t txPackets,
                     uint32_t forwarded = 0,
                     Time qdiscWork = Time(0));
    /**
     * The CPU time a packet spends in a qdisc tree: each qdisc on its path (the root, then
     * the qdisc of its class, taken as the first class's) costs its kind's QdiscCosts entry,
     * or QdiscCost if the kind is not listed (noqueue: 0).
     * @param root the egress device's root qdisc (nullptr: none, 0)
     * @return the cost
     */
    Time GetQdiscCost(Ptr<QueueDisc> root);
    /**
     * A core's cumulative usage now (/proc/stat).
     * @param core the core
     * @return busy time per class and idle time, ns
     */
    CpuCoreModel::Usage GetUsage(uint32_t core);
    /**
     * @param core a core
     * @return time_squeeze of its softnet_data (/proc/net/softnet_stat, third column)
     */
    uint64_t GetTimeSqueeze(uint32_t core);
    /**
     * @param core a core
     * @return the softirq invocations on it that woke ksoftirqd
     */
    uint64_t GetKsoftirqdWakeups(uint32_t core);

  protected:
    void DoDispose() override;

  private:
    /** @return the core model, made from the attributes on first use */
    CpuCoreModel& Model();
    /// Reads QdiscCosts once; stops on a bad entry.
    void ParseQdiscCosts();
    /** @return a SchedulingLatency draw, ns */
    int64_t DrawLatency();
    /**
     * Registers a completion callback and brings the events up to date after a submission.
     * @param core the core
     * @param id the item
     * @param done its callback (may be empty)
     * @param now the time, ns
     */
    void Submitted(uint32_t core, uint64_t id, std::function<void()> done, int64_t now);
    /// Fires the state-change traces recorded by the core model.
    void FireTransitions();
    /**
     * Runs the cores to now, fires their state changes and keeps what finished for Dispatch().
     * @param now the time, ns
     */
    void Settle(int64_t now);
    /**
     * A completion is due: runs the cores to now and calls the finished items' callbacks.
     * @param core the core whose event this is
     */
    void Dispatch(uint32_t core);
    /**
     * Schedules each core's event at its next completion.
     * @param now the time, ns
     */
    void Reschedule(int64_t now);
    /**
     * Fires KsoftirqdWakeup if placing work on a core woke ksoftirqd.
     * @param core the core
     * @param before its ksoftirqd wake-ups before the placement
     */
    void TraceKsoftirqdWakeup(uint32_t core, uint64_t before);
    /**
     * Schedules one core's event at its next completion.
     * @param core the core
     * @param now the time, ns
     */
    void RescheduleCore(uint32_t core, int64_t now);

    /**
     * @param t a time
     * @return it in nanoseconds
     */
    static int64_t Ns(const Time& t)
    {
        return t.GetNanoSeconds();
    }

    // Configuration (attributes)
    uint32_t m_nCores;                        ///< cores
    uint32_t m_irqCores;                      ///< cores serving interrupts (0: all)
    uint32_t m_netdevBudget;                  ///< net.core.netdev_budget
    Time m_netdevBudgetUsecs;                 ///< net.core.netdev_budget_usecs
    Time m_hardIrqCost;                       ///< per hard interrupt
    Time m_pollCost;                          ///< per napi->poll() call
    Time m_netTxCost;                         ///< per net_tx_action() run
    uint32_t m_devTxWeight;                   ///< dev_tx_weight, __qdisc_run()'s quota
    Time m_rxPacketCost;                      ///< per frame passed up
    Time m_txPacketCost;                      ///< per TX packet reclaimed
    Time m_forwardCost;                       ///< per forwarded frame: ip_forward() path
    Time m_qdiscCost;                         ///< per qdisc of an unlisted kind
    std::string m_qdiscCostsText;             ///< QdiscCosts
    Time m_xmitCost;                          ///< per locally sent packet
    Time m_wakeupCost;                        ///< per task wake-up
    Time m_syscallCost;                       ///< per sendmsg()/recvmsg()
    DataRate m_copyRate;                      ///< user copy rate
    Ptr<RandomVariableStream> m_schedLatency; ///< ksoftirqd and task wake-up latency, s

    // State
    std::unique_ptr<CpuCoreModel> m_model;                ///< the cores
    uint32_t m_nextTaskCore{0};                           ///< NextTaskCore()'s turn
    uint32_t m_irqCoreCount{1};                           ///< IrqCores, 0 resolved to Cores
    bool m_qdiscCostsParsed{false};                       ///< m_kindCosts is read
    std::unordered_map<std::string, int64_t> m_kindCosts; ///< by TypeId name, ns

    /// An item whose completion calls back.
    struct Waiter
    {
        uint64_t id;                ///< the item
        uint32_t core;              ///< its core
        std::function<void()> done; ///< the callback
    };

    std::vector<Waiter> m_done; ///< callbacks by item (a few at a time: searched in order)
    std::vector<CpuCoreModel::Finished> m_finished;      ///< retired, not yet called
    std::vector<CpuCoreModel::Finished> m_batch;         ///< being called by Dispatch()
    std::vector<CpuCoreModel::Transition> m_transitions; ///< being fired
    std::vector<NodeEvent> m_events;                     ///< per core: next completion
    std::vector<int64_t> m_eventAt; ///< per core: when m_events fires, ns (NEVER: not pending)
    uint32_t m_nodeId{Simulator::NO_CONTEXT}; ///< the node's id: the events' context

    // Traces
    TracedCallback<uint32_t, uint32_t, uint32_t> m_coreStateTrace; ///< busy/idle changes
    TracedCallback<uint32_t, uint64_t> m_timeSqueezeTrace;         ///< time_squeeze grew
    TracedCallback<uint32_t, uint64_t> m_ksoftirqdTrace;           ///< ksoftirqd woken
};

} // namespace debloat
} // namespace ns3

#endif /* HOST_CPU_H */
