/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The host's CPU cores as Linux spends them: hard interrupts, softirqs (NET_RX within
 * net_rx_action()'s budgets, then ksoftirqd) and tasks. Follows net/core/dev.c
 * (net_rx_action, napi_poll) and kernel/softirq.c (handle_softirqs, invoke_softirq) of
 * current kernels.
 */

#ifndef CPU_CORE_MODEL_H
#define CPU_CORE_MODEL_H

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/// The execution contexts of a Linux CPU, highest priority first.
enum class CpuClass : uint8_t
{
    HARDIRQ = 0, ///< a hard interrupt handler: preempts everything, never preempted
    SOFTIRQ = 1, ///< softirq processing (NET_RX, NET_TX) on irq_exit(): preempts tasks
    TASK = 2,    ///< a thread: an application, a socket's process context, ksoftirqd
};

/**
 * @ingroup debloat-nic
 * @brief One or more CPU cores executing hard-IRQ, softirq and task work, free of ns-3.
 *
 * Each core runs its released work by priority: a hard IRQ preempts a softirq and a task, a
 * softirq preempts a task; within a class work runs first come, first served and is not
 * preempted by its own class (hard IRQs do not nest; softirqs do not nest on a CPU; tasks
 * are simplified to FIFO). Work is given as a cost in nanoseconds; Submit() returns an id
 * whose completion time GetCompletion() projects from the work known so far (later
 * higher-class work can still push it back). AdvanceTo() moves the cores to a time, retiring
 * what finished and recording each core's state changes, and accumulates busy time per class
 * and idle time as /proc/stat does (mpstat's %irq, %soft, %usr + %sys, %idle; netperf -c
 * takes its utilisation from the same deltas).
 *
 * NapiPoll() places one napi->poll() the way net_rx_action() and handle_softirqs() run it:
 * - a poll raised while the core runs no softirq starts a softirq invocation (irq_exit() ->
 *   invoke_softirq() -> __do_softirq()) and its first net_rx_action() run;
 * - polls of other NAPI instances join the current run; a NAPI instance polled again (the
 *   poll used its whole weight: napi_poll() puts it on the repoll list) is polled in the next
 *   run, as is everything once the run broke;
 * - a run breaks after a poll that leaves the budget (netdev_budget, 300) at or below zero or
 *   ends netdev_budget_usecs (2000 us) or more after the run started; that counts time_squeeze
 *   (/proc/net/softnet_stat, third column);
 * - the next run is a restart of the softirq loop while less than MAX_SOFTIRQ_TIME (2 ms) has
 *   passed since the invocation started and fewer than MAX_SOFTIRQ_RESTART (10) runs were
 *   made; otherwise the invocation wakes ksoftirqd and the poll runs there: as a task,
 *   released a scheduling latency (the injected generator) after the invocation ends;
 * - a task woken on the core during an invocation (WakeTask()) sets need_resched: the
 *   invocation restarts no more (handle_softirqs() restarts only while !need_resched()),
 *   so what is still pending goes to ksoftirqd, which runs after the woken task;
 * - while ksoftirqd has work, new polls go to it as well (invoke_softirq() leaves pending
 *   softirqs to a running ksoftirqd), and a poll raised as ksoftirqd's last one ends (a
 *   repoll) stays in ksoftirqd (run_ksoftirqd() handles softirqs while they are pending).
 *
 * NetTx() places net_tx_action() (a TX queue woken from a poll: netif_tx_wake_queue() ->
 * __netif_schedule() raises NET_TX_SOFTIRQ) by the same rules: it runs in the restart of the
 * invocation that raised it, which also opens the next net_rx_action() run (NET_TX_SOFTIRQ
 * runs before NET_RX_SOFTIRQ in one pass of handle_softirqs()), or in ksoftirqd.
 *
 * Deviation from Linux: time is continuous where the kernel compares jiffies (its 2 ms
 * limits are 1 to 2 jiffies at HZ 1000); a woken task always sets need_resched (CFS's
 * wakeup_preempt() would let a running task with little vruntime lag keep the CPU); a run's
 * limits are checked with the times projected when a poll is placed, so a hard IRQ that
 * arrives later delays the poll but does not move it into another run; ksoftirqd runs its
 * polls back to back without its own restart limits; tasks are FIFO, not CFS-fair.
 */
class CpuCoreModel
{
  public:
    /// No completion: the item is unknown or already finished.
    static constexpr int64_t NEVER = std::numeric_limits<int64_t>::max();
    /// The state of a core that runs nothing (the classes are 0, 1 and 2).
    static constexpr uint32_t IDLE = 3;

    /// The settings: sysctl values and per-work costs. Times in nanoseconds.
    struct Config
    {
        uint32_t cores{1};                  ///< CPU cores
        uint32_t netdevBudget{300};         ///< net.core.netdev_budget, packets per run
        int64_t netdevBudgetUsecs{2000000}; ///< net.core.netdev_budget_usecs, as ns
        int64_t maxSoftirqTime{2000000};    ///< MAX_SOFTIRQ_TIME, 2 ms, as ns
        uint32_t maxSoftirqRestart{10};     ///< MAX_SOFTIRQ_RESTART
        int64_t hardIrqCost{0};             ///< one hard interrupt handler, ns
        int64_t pollCost{0};                ///< one napi->poll() call besides its packets, ns
        int64_t rxPacketCost{0};            ///< one received packet up the stack, ns
        int64_t txPacketCost{0};            ///< one reclaimed TX packet, ns
        int64_t forwardCost{0};             ///< one frame forwarded (ip_forward() on), ns
    };

    /// Draws a scheduling latency (a wake-up to running), ns, at least 0.
    using LatencyGenerator = std::function<int64_t()>;

    /// Cumulative time of a core, ns, as /proc/stat counts it.
    struct Usage
    {
        std::array<int64_t, 3> busy{}; ///< per CpuClass: irq, softirq, task
        int64_t idle{0};               ///< idle
    };

    /// A finished item.
    struct Finished
    {
        uint64_t id;   ///< the item
        uint32_t core; ///< its core
        int64_t time;  ///< when it finished, ns
    };

    /// A core's state change.
    struct Transition
    {
        int64_t time;  ///< when, ns
        uint32_t core; ///< the core
        uint32_t from; ///< the class it ran (IDLE: none)
        uint32_t to;   ///< the class it runs now (IDLE: none)
    };

    /// Where a NAPI poll was placed.
    struct PollPlacement
    {
        uint64_t id{0};          ///< the work item
        int64_t completion{0};   ///< projected completion, ns
        bool ksoftirqd{false};   ///< runs in ksoftirqd (as a task)
        uint32_t run{0};         ///< net_rx_action() run of its softirq invocation (1..10)
        bool timeSqueeze{false}; ///< the run broke after this poll
    };

    /**
     * @param config the settings
     * @param latency draws the scheduling latency of ksoftirqd and of woken tasks
     * @throw std::invalid_argument naming the setting when one is out of range
     */
    CpuCoreModel(const Config& config, LatencyGenerator latency);

    /**
     * Checks settings.
     * @param config the settings
     * @return "" when valid, else a message naming the setting and its accepted range
     */
    static std::string CheckConfig(const Config& config);

    /**
     * Releases work on a core now.
     * @param core the core
     * @param cls its class
     * @param cost its cost, ns (0 or more)
     * @param now the time, ns (not before the last call)
     * @return its id
     */
    uint64_t Submit(uint32_t core, CpuClass cls, int64_t cost, int64_t now);
    /**
     * Submits work released later (a task waking after its scheduling latency).
     * @param core the core
     * @param cls its class
     * @param cost its cost, ns
     * @param now the time, ns
     * @param release when it becomes runnable, ns (not before now)
     * @return its id
     */
    uint64_t SubmitAt(uint32_t core, CpuClass cls, int64_t cost, int64_t now, int64_t release);
    /**
     * A hard interrupt handler of cost hardIrqCost.
     * @param core the core the interrupt is routed to
     * @param now the time, ns
     * @return its id
     */
    uint64_t HardIrq(uint32_t core, int64_t now);
    /**
     * Wakes a task: it runs after a scheduling-latency draw (try_to_wake_up() to running).
     * Woken during a softirq invocation on the core, it sets need_resched.
     * @param core the core
     * @param cost its cost, ns
     * @param now the time, ns
     * @return its id
     */
    uint64_t WakeTask(uint32_t core, int64_t cost, int64_t now);
    /**
     * The cost of one poll: pollCost + rx x rxPacketCost + tx x txPacketCost + forwarded x
     * forwardCost. A forwarded frame is one of the rx: netif_receive_skb() -> ip_rcv() ->
     * ip_forward() -> dev_queue_xmit() -> __qdisc_run() run inside the poll (its qdiscs'
     * cost depends on the egress: the caller adds it).
     * @param rx received packets passed up
     * @param tx TX packets reclaimed
     * @param forwarded of the rx, the frames the node forwards
     * @return ns
     */
    int64_t NapiPollCost(uint32_t rx, uint32_t tx, uint32_t forwarded = 0) const;
    /**
     * Places one napi->poll() in net_rx_action()'s runs (see the class description).
     * @param core the core the NAPI instance is scheduled on
     * @param napi identifies the NAPI instance (any value, unique per instance)
     * @param work what the poll returns: packets counted against netdev_budget
     * @param cost its cost, ns
     * @param now the time it is raised, ns
     * @return where it runs and its projected completion
     */
    PollPlacement NapiPoll(uint32_t core, uint64_t napi, uint32_t work, int64_t cost, int64_t now);
    /**
     * Places one net_tx_action() raised on a core (see the class description).
     * @param core the core
     * @param cost its cost, ns
     * @param now the time it is raised, ns
     * @return where it runs and its projected completion (timeSqueeze is never set)
     */
    PollPlacement NetTx(uint32_t core, int64_t cost, int64_t now);

    /**
     * Runs every core up to a time: retires finished items and records state changes
     * (collected by TakeFinished() and TakeTransitions()).
     * @param now the time, ns
     */
    void AdvanceTo(int64_t now);
    /** @return the items finished since the last call, in completion order per core */
    std::vector<Finished> TakeFinished();
    /** @return the state changes since the last call, in time order per core */
    std::vector<Transition> TakeTransitions();
    /**
     * Moves the items finished since the last call to the end of a vector, without
     * allocating once both vectors have grown (for callers on a hot path).
     * @param[in,out] out where they go
     */
    void TakeFinished(std::vector<Finished>& out);
    /**
     * Moves the state changes since the last call to the end of a vector, without
     * allocating once both vectors have grown.
     * @param[in,out] out where they go
     */
    void TakeTransitions(std::vector<Transition>& out);
    /// Drops the state changes since the last call (when nobody follows them).
    void DiscardTransitions();

    /** @return whether items finished since the last TakeFinished() */
    bool HasFinished() const
    {
        return !m_finished.empty();
    }

    /**
     * @param id an item
     * @return its projected completion, ns, or NEVER when it is unknown or finished
     */
    int64_t GetCompletion(uint64_t id) const;
    /**
     * @param core a core
     * @return the earliest projected completion on it, ns, or NEVER
     */
    int64_t GetNextCompletion(uint32_t core) const;
    /**
     * @param core a core
     * @return its cumulative usage up to the last AdvanceTo() or submission
     */
    const Usage& GetUsage(uint32_t core) const;
    /**
     * @param core a core
     * @return the class it runs (IDLE: none)
     */
    uint32_t GetState(uint32_t core) const;
    /**
     * @param core a core
     * @return net_rx_action() runs that broke on the budget or the time limit
     */
    uint64_t GetTimeSqueeze(uint32_t core) const;
    /**
     * @param core a core
     * @return softirq invocations that woke ksoftirqd
     */
    uint64_t GetKsoftirqdWakeups(uint32_t core) const;
    /** @return the settings */
    const Config& GetConfig() const;

    /**
     * The busy fraction between two samples of a core (netperf -c's utilisation).
     * @param from the earlier sample
     * @param to the later sample
     * @return (busy) / (busy + idle) over the interval, 0 when it is empty
     */
    static double BusyFraction(const Usage& from, const Usage& to);
    /**
     * The fraction of one class between two samples (mpstat's %irq, %soft, %usr).
     * @param from the earlier sample
     * @param to the later sample
     * @param cls the class
     * @return its time over the interval's, 0 when it is empty
     */
    static double ClassFraction(const Usage& from, const Usage& to, CpuClass cls);

  private:
    /// Work on a core.
    struct Item
    {
        uint64_t id;        ///< identifier
        CpuClass cls;       ///< class
        int64_t release;    ///< runnable from, ns
        int64_t remaining;  ///< cost left, ns
        int64_t completion; ///< projected, ns
        bool ksoftirqd;     ///< a poll run by ksoftirqd
    };

    /// One core's work, time and softirq state.
    struct Core
    {
        std::vector<Item> items;      ///< unfinished work, in submission order
        int64_t now{0};               ///< time the core has been run to, ns
        Usage usage;                  ///< cumulative time
        uint32_t state{IDLE};         ///< running class or IDLE
        int64_t lastSoftirqEnd{-1};   ///< when the last softirq item finished, ns
        int64_t lastKsoftirqdEnd{-1}; ///< when ksoftirqd's last poll finished, ns
        int64_t softirqStart{0};      ///< start of the softirq invocation, ns
        uint32_t runs{0};             ///< net_rx_action() runs in it
        bool runOpen{false};          ///< the current run takes more polls
        int64_t runStart{0};          ///< when the current run started, ns
        int64_t budget{0};            ///< netdev_budget left in the run
        std::vector<uint64_t> napis;  ///< NAPI instances polled in the run
        int64_t ksoftirqdRelease{0};  ///< when ksoftirqd runs, ns
        bool needResched{false};      ///< a task was woken during the invocation
        uint64_t timeSqueeze{0};      ///< runs that broke on a limit
        uint64_t ksoftirqdWakeups{0}; ///< invocations that woke ksoftirqd
        bool settled{true};           ///< Run() to now would change nothing
    };

    /// The softirq work already on a core when more is raised.
    struct Backlog
    {
        bool softirq{false};   ///< softirq items (not ksoftirqd's) are pending
        bool ksoftirqd{false}; ///< ksoftirqd has work
        int64_t end{0};        ///< when the pending softirq items are projected to end, ns
    };

    /**
     * @param c a core, run to now
     * @param now the time, ns
     * @return its softirq backlog
     */
    static Backlog ScanBacklog(const Core& c, int64_t now);
    /**
     * Checks the cost of softirq work raised on a core, runs the core to now and scans it.
     * @param core the core
     * @param what the work's name, for the message
     * @param cost its cost, ns
     * @param now the time, ns
     * @param backlog set to the core's backlog
     * @return the core
     */
    Core& Raise(uint32_t core, const char* what, int64_t cost, int64_t now, Backlog& backlog);
    /**
     * @param c a core, run to now
     * @param backlog its backlog
     * @param now the time, ns
     * @return whether ksoftirqd takes softirq work raised now (it runs, or just ran)
     */
    static bool KsoftirqdRunning(const Core& c, const Backlog& backlog, int64_t now);
    /**
     * @param c a core, run to now
     * @param backlog its backlog
     * @param now the time, ns
     * @return whether work raised now belongs to the running invocation (a softirq is
     * pending, or the last one ends now)
     */
    static bool InInvocation(const Core& c, const Backlog& backlog, int64_t now);
    /**
     * Starts a softirq invocation at now (irq_exit() -> __do_softirq()).
     * @param c the core
     * @param now the time, ns
     */
    void StartInvocation(Core& c, int64_t now);
    /**
     * handle_softirqs()'s test for another pass: less than MAX_SOFTIRQ_TIME since the
     * invocation started, fewer than MAX_SOFTIRQ_RESTART passes, no need_resched. Passes
     * open a new net_rx_action() run at the backlog's end; otherwise wakes ksoftirqd.
     * @param c the core
     * @param backlogEnd when the invocation's pending work ends, ns
     * @return whether it restarted
     */
    bool Restart(Core& c, int64_t backlogEnd);
    /**
     * Adds work to the core's running softirq invocation, released now.
     * @param index the core
     * @param c the core
     * @param cost ns
     * @param now the time, ns
     * @return its placement (its net_rx_action() run)
     */
    PollPlacement InSoftirq(uint32_t index, const Core& c, int64_t cost, int64_t now);
    /**
     * Adds work to ksoftirqd.
     * @param index the core
     * @param cost ns
     * @param release when ksoftirqd runs it, ns
     * @return its placement
     */
    PollPlacement InKsoftirqd(uint32_t index, int64_t cost, int64_t release);
    /**
     * Runs a core's work up to a time, recording finished items and state changes.
     * @param index the core
     * @param c the core
     * @param until the time, ns
     */
    void Run(uint32_t index, Core& c, int64_t until);
    /**
     * @param c a core
     * @return the class that runs now, or IDLE
     */
    static uint32_t Runnable(const Core& c);
    /**
     * Records a state change at the core's time, if any.
     * @param index the core
     * @param c the core
     */
    void UpdateState(uint32_t index, Core& c);
    /**
     * Records a state change at the core's time, if the state differs.
     * @param index the core
     * @param c the core
     * @param state the class it runs now (IDLE: none)
     */
    void SetState(uint32_t index, Core& c, uint32_t state);
    /**
     * Sets every item's projected completion on a core: runs its work, as Run() would with
     * nothing more submitted, on a scratch list (no copy of the core, no allocation once the
     * list has grown).
     * @param c the core
     */
    void Project(Core& c);
    /**
     * Adds an item and projects the core.
     * @param index the core
     * @param cls class
     * @param cost ns
     * @param release ns
     * @param ksoftirqd a poll run by ksoftirqd
     * @return the item (its id and projected completion; valid until the core changes)
     */
    const Item& Add(uint32_t index, CpuClass cls, int64_t cost, int64_t release, bool ksoftirqd);
    /**
     * Checks a core index and the time, and runs the core to it.
     * @param core the core
     * @param now the time, ns
     * @return the core
     */
    Core& Reach(uint32_t core, int64_t now);
    /** @return a latency draw, checked */
    int64_t DrawLatency();

    Config m_config;                       ///< settings
    LatencyGenerator m_latency;            ///< scheduling latency draws
    std::vector<Core> m_cores;             ///< the cores
    uint64_t m_nextId{1};                  ///< next item id
    std::vector<Finished> m_finished;      ///< finished since TakeFinished()
    std::vector<Transition> m_transitions; ///< changes since TakeTransitions()

    /// An item's projection state.
    struct Pending
    {
        int64_t release;   ///< runnable from, ns
        int64_t remaining; ///< cost left, ns
        CpuClass cls;      ///< class
        std::size_t index; ///< the item in its core's list
    };

    std::vector<Pending> m_scratch; ///< Project()'s work list, kept for its capacity
};

} // namespace debloat
} // namespace ns3

#endif /* CPU_CORE_MODEL_H */
