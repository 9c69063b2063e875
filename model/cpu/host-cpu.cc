/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A node's CPU cores for the simulation: the ns-3 adapter of CpuCoreModel.
 */

#include "host-cpu.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/debloat-compat.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/qdisc-kinds.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("HostCpu");

NS_OBJECT_ENSURE_REGISTERED(HostCpu);

TypeId
HostCpu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::HostCpu")
            .SetParent<Object>()
            .SetGroupName("Debloat")
            .AddConstructor<HostCpu>()
            .AddAttribute("Cores",
                          "CPU cores; a device's interrupt vector v is served by core v mod Cores",
                          UintegerValue(1),
                          MakeUintegerAccessor(&HostCpu::m_nCores),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("IrqCores",
                          "The cores interrupt vectors are spread over: vector v is served by "
                          "core v mod IrqCores; 0: all Cores (irqbalance-like). 1: every "
                          "interrupt on CPU0, as Linux delivers them without irqbalance "
                          "(the default smp_affinity, an ARM GIC's first CPU)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HostCpu::m_irqCores),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NetdevBudget",
                          "Packets per net_rx_action() run (sysctl net.core.netdev_budget)",
                          UintegerValue(300),
                          MakeUintegerAccessor(&HostCpu::m_netdevBudget),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NetdevBudgetUsecs",
                          "Time limit of a net_rx_action() run (sysctl "
                          "net.core.netdev_budget_usecs, 2000 us)",
                          TimeValue(MicroSeconds(2000)),
                          MakeTimeAccessor(&HostCpu::m_netdevBudgetUsecs),
                          MakeTimeChecker())
            .AddAttribute("HardIrqCost",
                          "CPU time of one hard interrupt: entry, the driver's handler "
                          "(napi_schedule()) and exit",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&HostCpu::m_hardIrqCost),
                          MakeTimeChecker())
            .AddAttribute("PollCost",
                          "CPU time of one napi->poll() call besides its packets: "
                          "napi_poll(), the driver's register reads and interrupt re-enable",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&HostCpu::m_pollCost),
                          MakeTimeChecker())
            .AddAttribute("NetTxCost",
                          "CPU time of one net_tx_action() run besides the packets it sends "
                          "(their transmit path is XmitCost's and the qdisc's): a TX queue "
                          "woken by a poll raises NET_TX_SOFTIRQ, and the queue is refilled "
                          "when this work completes",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&HostCpu::m_netTxCost),
                          MakeTimeChecker())
            .AddAttribute("DevTxWeight",
                          "Packets one qdisc run in net_tx_action() sends before it "
                          "reschedules itself (__qdisc_run()'s quota: sysctl "
                          "net.core.dev_weight x dev_weight_tx_bias, 64)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&HostCpu::m_devTxWeight),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RxPacketCost",
                          "CPU time of one received frame: the driver's RX clean, "
                          "netif_receive_skb() and the IP and transport layers",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&HostCpu::m_rxPacketCost),
                          MakeTimeChecker())
            .AddAttribute("TxPacketCost",
                          "CPU time of one TX packet reclaimed by the poll (unmap and free)",
                          TimeValue(NanoSeconds(250)),
                          MakeTimeAccessor(&HostCpu::m_txPacketCost),
                          MakeTimeChecker())
            .AddAttribute("ForwardCost",
                          "CPU time of one forwarded frame besides RxPacketCost, in the NET_RX "
                          "softirq: ip_rcv() and its route lookup, ip_forward(), "
                          "ip_output() and the neighbour output to dev_queue_xmit(), and the "
                          "driver's ndo_start_xmit()",
                          TimeValue(NanoSeconds(300)),
                          MakeTimeAccessor(&HostCpu::m_forwardCost),
                          MakeTimeChecker())
            .AddAttribute("QdiscCost",
                          "CPU time of one forwarded frame's enqueue and dequeue in a qdisc "
                          "of a kind QdiscCosts does not list (__dev_xmit_skb(), "
                          "__qdisc_run(), the qdisc lock), per qdisc on its path",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&HostCpu::m_qdiscCost),
                          MakeTimeChecker())
            .AddAttribute("QdiscCosts",
                          "Per-kind qdisc costs that replace QdiscCost, as tc kinds and "
                          "times: \"cake:2us,htb:1500ns\" (noqueue costs 0 unless listed)",
                          StringValue(""),
                          MakeStringAccessor(&HostCpu::m_qdiscCostsText),
                          MakeStringChecker())
            .AddAttribute("XmitCost",
                          "CPU time of sending one packet (or GSO super-packet) the node "
                          "made itself, besides its qdiscs: the transport's output "
                          "(tcp_transmit_skb(), udp_send_skb()), ip_output(), the neighbour "
                          "output, dev_queue_xmit() and the driver's ndo_start_xmit()",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&HostCpu::m_xmitCost),
                          MakeTimeChecker())
            .AddAttribute("WakeupCost",
                          "CPU time of waking a task asleep on a socket and switching to it "
                          "(try_to_wake_up(), the scheduler, the context switch)",
                          TimeValue(MicroSeconds(2)),
                          MakeTimeAccessor(&HostCpu::m_wakeupCost),
                          MakeTimeChecker())
            .AddAttribute("SyscallCost",
                          "CPU time of one sendmsg() or recvmsg() on a TCP socket besides "
                          "its copy: the system call, tcp_sendmsg() or tcp_recvmsg() and "
                          "the socket lock",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&HostCpu::m_syscallCost),
                          MakeTimeChecker())
            .AddAttribute("CopyRate",
                          "Rate of copying data between user and kernel "
                          "(copy_from_user/copy_to_user, cache misses included)",
                          DataRateValue(DataRate("40Gbps")),
                          MakeDataRateAccessor(&HostCpu::m_copyRate),
                          MakeDataRateChecker())
            .AddAttribute("SchedulingLatency",
                          "Seconds from waking ksoftirqd (or a task) to it running",
                          StringValue("ns3::ConstantRandomVariable[Constant=0.00005]"),
                          MakePointerAccessor(&HostCpu::m_schedLatency),
                          MakePointerChecker<RandomVariableStream>())
            .AddTraceSource("CoreState",
                            "A core changed what it runs (0 hardirq, 1 softirq, 2 task, 3 idle)",
                            MakeTraceSourceAccessor(&HostCpu::m_coreStateTrace),
                            "ns3::debloat::HostCpu::CoreStateTracedCallback")
            .AddTraceSource("TimeSqueeze",
                            "A net_rx_action() run broke on its budget or time limit "
                            "(time_squeeze in /proc/net/softnet_stat)",
                            MakeTraceSourceAccessor(&HostCpu::m_timeSqueezeTrace),
                            "ns3::debloat::HostCpu::SoftnetCounterTracedCallback")
            .AddTraceSource("KsoftirqdWakeup",
                            "A softirq invocation left the rest to ksoftirqd",
                            MakeTraceSourceAccessor(&HostCpu::m_ksoftirqdTrace),
                            "ns3::debloat::HostCpu::SoftnetCounterTracedCallback");
    return tid;
}

HostCpu::HostCpu()
{
    NS_LOG_FUNCTION(this);
}

HostCpu::~HostCpu()
{
    NS_LOG_FUNCTION(this);
}

int64_t
HostCpu::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_schedLatency->SetStream(stream);
    return 1;
}

void
HostCpu::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& event : m_events)
    {
        event.Cancel();
    }
    m_events.clear();
    m_eventAt.clear();
    m_done.clear();
    m_finished.clear();
    m_model.reset();
    m_schedLatency = nullptr;
    Object::DoDispose();
}

int64_t
HostCpu::DrawLatency()
{
    const double seconds = m_schedLatency->GetValue();
    NS_ABORT_MSG_IF(seconds < 0,
                    "HostCpu: SchedulingLatency drew " << seconds << " s; accepted: 0 or more");
    return static_cast<int64_t>(std::llround(seconds * 1e9));
}

CpuCoreModel&
HostCpu::Model()
{
    if (!m_model)
    {
        CpuCoreModel::Config config;
        config.cores = m_nCores;
        config.netdevBudget = m_netdevBudget;
        config.netdevBudgetUsecs = Ns(m_netdevBudgetUsecs);
        config.hardIrqCost = Ns(m_hardIrqCost);
        config.pollCost = Ns(m_pollCost);
        config.rxPacketCost = Ns(m_rxPacketCost);
        config.txPacketCost = Ns(m_txPacketCost);
        config.forwardCost = Ns(m_forwardCost);
        const std::string error = CpuCoreModel::CheckConfig(config);
        NS_ABORT_MSG_IF(!error.empty(), "HostCpu: " << error);
        // The costs the core does not take (the callers add them).
        for (const auto& [name, cost] : {std::pair<const char*, Time>{"QdiscCost", m_qdiscCost},
                                         {"XmitCost", m_xmitCost},
                                         {"NetTxCost", m_netTxCost},
                                         {"WakeupCost", m_wakeupCost},
                                         {"SyscallCost", m_syscallCost}})
        {
            NS_ABORT_MSG_IF(cost.IsStrictlyNegative(),
                            "HostCpu: " << name << " is " << cost << "; accepted: 0 or more");
        }
        NS_ABORT_MSG_IF(m_irqCores > config.cores,
                        "HostCpu: IrqCores " << m_irqCores << " is more than Cores " << config.cores
                                             << "; accepted: 0 (all) to " << config.cores);
        m_irqCoreCount = m_irqCores == 0 ? config.cores : m_irqCores;
        ParseQdiscCosts();
        m_model = std::make_unique<CpuCoreModel>(config, [this]() { return DrawLatency(); });
        m_events.resize(config.cores);
        for (uint32_t core = 0; core < config.cores; core++)
        {
            m_events[core].Bind(&HostCpu::Dispatch, this, core);
        }
        m_eventAt.assign(config.cores, CpuCoreModel::NEVER);
        Ptr<Node> node = GetObject<Node>();
        m_nodeId = node ? node->GetId() : Simulator::NO_CONTEXT;
        // Idle from time 0, as /proc/stat counts from boot.
        m_model->AdvanceTo(Ns(Simulator::Now()));
        m_model->TakeTransitions();
    }
    return *m_model;
}

void
HostCpu::RunHardIrq(uint32_t core)
{
    NS_LOG_FUNCTION(this << core);
    const int64_t now = Ns(Simulator::Now());
    const uint64_t id = Model().HardIrq(core, now);
    Submitted(core, id, nullptr, now);
}

Time
HostCpu::RunNapiPoll(uint32_t core,
                     uint64_t napi,
                     uint32_t rxPackets,
                     uint32_t txPackets,
                     uint32_t forwarded,
                     Time qdiscWork,
                     uint32_t work,
                     std::function<void()> done)
{
    NS_LOG_FUNCTION(this << core << napi << rxPackets << txPackets << forwarded << qdiscWork
                         << work);
    CpuCoreModel& model = Model();
    const int64_t now = Ns(Simulator::Now());
    const uint64_t wakeups = model.GetKsoftirqdWakeups(core);
    const auto placement =
        model.NapiPoll(core,
                       napi,
                       work,
                       model.NapiPollCost(rxPackets, txPackets, forwarded) + Ns(qdiscWork),
                       now);
    NS_LOG_DEBUG("core " << core << ": poll of " << rxPackets << " rx (" << forwarded
                         << " forwarded) + " << txPackets << " tx, "
                         << (placement.ksoftirqd ? "in ksoftirqd" : "softirq run ") << placement.run
                         << ", done at " << placement.completion << " ns"
                         << (placement.timeSqueeze ? ", time_squeeze" : ""));
    if (placement.timeSqueeze)
    {
        m_timeSqueezeTrace(core, model.GetTimeSqueeze(core));
    }
    TraceKsoftirqdWakeup(core, wakeups);
    Submitted(core, placement.id, std::move(done), now);
    return NanoSeconds(placement.completion);
}

Time
HostCpu::RunNetTx(uint32_t core, std::function<void()> done)
{
    NS_LOG_FUNCTION(this << core);
    CpuCoreModel& model = Model();
    const uint64_t wakeups = model.GetKsoftirqdWakeups(core);
    const int64_t now = Ns(Simulator::Now());
    const auto placement = model.NetTx(core, Ns(m_netTxCost), now);
    NS_LOG_DEBUG("core " << core << ": net_tx_action "
                         << (placement.ksoftirqd ? "in ksoftirqd" : "softirq run ") << placement.run
                         << ", done at " << placement.completion << " ns");
    TraceKsoftirqdWakeup(core, wakeups);
    Submitted(core, placement.id, std::move(done), now);
    return NanoSeconds(placement.completion);
}

void
HostCpu::TraceKsoftirqdWakeup(uint32_t core, uint64_t before)
{
    const uint64_t wakeups = m_model->GetKsoftirqdWakeups(core);
    if (wakeups != before)
    {
        m_ksoftirqdTrace(core, wakeups);
    }
}

Time
HostCpu::RunTask(uint32_t core, Time cost, std::function<void()> done)
{
    NS_LOG_FUNCTION(this << core << cost);
    NS_ABORT_MSG_IF(cost.IsStrictlyNegative(), "HostCpu: task cost " << cost << " is negative");
    const int64_t now = Ns(Simulator::Now());
    const uint64_t id = Model().Submit(core, CpuClass::TASK, Ns(cost), now);
    Submitted(core, id, std::move(done), now);
    return NanoSeconds(m_model->GetCompletion(id));
}

Time
HostCpu::GetXmitCost(Ptr<QueueDisc> root)
{
    return m_xmitCost + GetQdiscCost(root);
}

Time
HostCpu::WakeTask(uint32_t core, Time cost, std::function<void()> done)
{
    NS_LOG_FUNCTION(this << core << cost);
    NS_ABORT_MSG_IF(cost.IsStrictlyNegative(), "HostCpu: task cost " << cost << " is negative");
    const int64_t now = Ns(Simulator::Now());
    const uint64_t id = Model().WakeTask(core, Ns(m_wakeupCost + cost), now);
    Submitted(core, id, std::move(done), now);
    return NanoSeconds(m_model->GetCompletion(id));
}

Time
HostCpu::GetSyscallCost(uint64_t bytes) const
{
    NS_ABORT_MSG_IF(m_copyRate.GetBitRate() == 0, "HostCpu: CopyRate is 0; accepted: above 0");
    return m_syscallCost + m_copyRate.CalculateBytesTxTime(bytes);
}

uint32_t
HostCpu::NextTaskCore()
{
    return m_nextTaskCore++ % Model().GetConfig().cores;
}

void
HostCpu::Submitted(uint32_t core, uint64_t id, std::function<void()> done, int64_t now)
{
    if (done)
    {
        m_done.push_back({id, core, std::move(done)});
    }
    // Items that ended exactly now, found while running the core to now, wait for their
    // own event at now: callbacks never run inside a submitter's call.
    Settle(now);
    NS_LOG_LOGIC("core " << core << " next completion " << m_model->GetNextCompletion(core));
    // Work on one core moves only that core's completions; an item of any core that ended
    // now is dispatched by this core's event at now (Dispatch() takes them all).
    RescheduleCore(core, now);
}

void
HostCpu::FireTransitions()
{
    if (m_coreStateTrace.IsEmpty() && !g_log.IsEnabled(LOG_LOGIC))
    {
        m_model->DiscardTransitions(); // nobody follows them: nothing to copy
        return;
    }
    m_transitions.clear();
    m_model->TakeTransitions(m_transitions);
    for (const auto& t : m_transitions)
    {
        NS_LOG_LOGIC("core " << t.core << ": " << t.from << " -> " << t.to << " at " << t.time);
        m_coreStateTrace(t.core, t.from, t.to);
    }
}

void
HostCpu::Settle(int64_t now)
{
    m_model->AdvanceTo(now);
    FireTransitions();
    if (!m_model->HasFinished())
    {
        return;
    }
    const std::size_t before = m_finished.size();
    m_model->TakeFinished(m_finished);
    // Only items that call back need a dispatch.
    m_finished.erase(
        std::remove_if(m_finished.begin() + static_cast<std::ptrdiff_t>(before),
                       m_finished.end(),
                       [this](const CpuCoreModel::Finished& f) {
                           return std::none_of(m_done.begin(), m_done.end(), [&](const Waiter& w) {
                               return w.id == f.id;
                           });
                       }),
        m_finished.end());
}

void
HostCpu::Dispatch(uint32_t core)
{
    NS_LOG_FUNCTION(this << core);
    m_eventAt[core] = CpuCoreModel::NEVER; // this event has fired
    const int64_t now = Ns(Simulator::Now());
    Settle(now);
    // Callbacks may submit work that ends now too (their submissions settle the cores and
    // add it to m_finished): drain until nothing is left.
    while (!m_finished.empty())
    {
        m_batch.clear();
        m_batch.swap(m_finished); // both keep their capacity
        for (const auto& finished : m_batch)
        {
            auto it = std::find_if(m_done.begin(), m_done.end(), [&](const Waiter& w) {
                return w.id == finished.id;
            });
            if (it == m_done.end())
            {
                continue;
            }
            std::function<void()> done = std::move(it->done);
            m_done.erase(it);
            done();
        }
    }
    Reschedule(now);
}

void
HostCpu::Reschedule(int64_t now)
{
    for (uint32_t core = 0; core < m_events.size(); ++core)
    {
        RescheduleCore(core, now);
    }
}

void
HostCpu::RescheduleCore(uint32_t core, int64_t now)
{
    NodeEvent& event = m_events[core];
    // With no CoreState sink, only completions that call back need an event.
    int64_t next = CpuCoreModel::NEVER;
    if (m_coreStateTrace.IsEmpty())
    {
        for (const Waiter& w : m_done)
        {
            if (w.core == core)
            {
                next = std::min(next, m_model->GetCompletion(w.id));
            }
        }
    }
    else
    {
        next = m_model->GetNextCompletion(core);
    }
    if (!m_finished.empty())
    {
        next = now; // retired items wait for a dispatch now
    }
    next = next == CpuCoreModel::NEVER ? next : std::max(next, now);
    if (next == m_eventAt[core])
    {
        return; // pending at that time already (or none needed, none pending)
    }
    if (m_eventAt[core] != CpuCoreModel::NEVER)
    {
        event.Cancel();
    }
    m_eventAt[core] = next;
    if (next != CpuCoreModel::NEVER)
    {
        // In the node's context whatever scheduled it: the completions pass frames up.
        event.Schedule(m_nodeId != Simulator::NO_CONTEXT ? m_nodeId : Simulator::GetContext(),
                       NanoSeconds(next - now));
    }
}

uint32_t
HostCpu::GetIrqCore(uint32_t vector)
{
    Model(); // checks IrqCores against Cores
    return vector % m_irqCoreCount;
}

uint32_t
HostCpu::GetDevTxWeight() const
{
    return m_devTxWeight;
}

uint32_t
HostCpu::GetNCores() const
{
    return m_nCores;
}

Time
HostCpu::GetPollCost(uint32_t rxPackets, uint32_t txPackets, uint32_t forwarded, Time qdiscWork)
{
    return NanoSeconds(Model().NapiPollCost(rxPackets, txPackets, forwarded)) + qdiscWork;
}

void
HostCpu::ParseQdiscCosts()
{
    if (m_qdiscCostsParsed)
    {
        return;
    }
    m_qdiscCostsParsed = true;
    std::istringstream entries(m_qdiscCostsText);
    for (std::string entry; std::getline(entries, entry, ',');)
    {
        const std::string::size_type colon = entry.find(':');
        const std::string kind = entry.substr(0, colon);
        const QdiscKind* known = FindQdiscKind(kind);
        NS_ABORT_MSG_IF(colon == std::string::npos || !known,
                        "HostCpu: QdiscCosts entry \""
                            << entry << "\" is not KIND:TIME with a tc kind; accepted kinds: "
                            << QdiscKindNames() << " (e.g. \"cake:2us,htb:1500ns\")");
        std::istringstream text(entry.substr(colon + 1));
        double value = -1;
        std::string unit;
        text >> value >> unit;
        static const std::pair<const char*, double> UNITS[] = {{"s", 1e9},
                                                               {"ms", 1e6},
                                                               {"us", 1e3},
                                                               {"ns", 1}};
        double scale = 0;
        for (const auto& [name, ns] : UNITS)
        {
            scale = unit == name ? ns : scale;
        }
        NS_ABORT_MSG_IF(text.fail() || !text.eof() || value < 0 || scale == 0,
                        "HostCpu: QdiscCosts cost of " << kind << " \"" << entry.substr(colon + 1)
                                                       << "\" is not a time of 0 or more "
                                                          "with a unit s, ms, us or ns");
        m_kindCosts[known->type] = static_cast<int64_t>(std::llround(value * scale));
    }
}

Time
HostCpu::GetQdiscCost(Ptr<QueueDisc> root)
{
    ParseQdiscCosts();
    int64_t cost = 0;
    // The packet's path: the root, then, in a classful qdisc, the qdisc of the class it is
    // classified to, taken as the first class's (each class of the seeds' trees has the
    // same leaf kind). ns-3's fq_codel keeps its flows as classes with a qdisc each: those
    // are one tc qdisc's internals, not a path.
    for (Ptr<QueueDisc> qdisc = root; qdisc;)
    {
        const std::string type = qdisc->GetInstanceTypeId().GetName();
        const QdiscKind* kind = FindQdiscKindOfType(type);
        const bool classful =
            kind ? kind->classful : type == "ns3::MqQueueDisc" || type == "ns3::TbfQueueDisc";
        const auto listed = m_kindCosts.find(type);
        if (listed != m_kindCosts.end())
        {
            cost += listed->second;
        }
        else if (type != FindQdiscKind("noqueue")->type)
        {
            cost += Ns(m_qdiscCost);
        }
        qdisc = classful && qdisc->GetNQueueDiscClasses() > 0
                    ? qdisc->GetQueueDiscClass(0)->GetQueueDisc()
                    : nullptr;
    }
    return NanoSeconds(cost);
}

CpuCoreModel::Usage
HostCpu::GetUsage(uint32_t core)
{
    CpuCoreModel& model = Model();
    NS_ABORT_MSG_IF(core >= model.GetConfig().cores,
                    "HostCpu: core " << core << " does not exist; accepted: 0 to "
                                     << model.GetConfig().cores - 1);
    // Reading changes no schedule: running the cores to now moves no completion, and an
    // item that ends now has its core's event pending now, which dispatches it. (A
    // Reschedule() here would move the other cores' events and reorder same-time events:
    // a sampler would perturb what it samples.)
    Settle(Ns(Simulator::Now()));
    return model.GetUsage(core);
}

uint64_t
HostCpu::GetTimeSqueeze(uint32_t core)
{
    return Model().GetTimeSqueeze(core);
}

uint64_t
HostCpu::GetKsoftirqdWakeups(uint32_t core)
{
    return Model().GetKsoftirqdWakeups(core);
}

} // namespace debloat
} // namespace ns3
