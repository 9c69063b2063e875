/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A node's CPU cores for the simulation: the ns-3 adapter of CpuCoreModel.
 */

#include "host-cpu.h"

#include "ns3/abort.h"
#include "ns3/debloat-compat.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cmath>

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
                          "CPU time of one forwarded frame's qdisc enqueue and dequeue "
                          "(__dev_xmit_skb(), __qdisc_run(), the qdisc lock)",
                          TimeValue(NanoSeconds(100)),
                          MakeTimeAccessor(&HostCpu::m_qdiscCost),
                          MakeTimeChecker())
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
    m_done.clear();
    m_finished.clear();
    m_model.reset();
    m_schedLatency = nullptr;
    Object::DoDispose();
}

int64_t
HostCpu::Ns(Time t)
{
    return t.GetNanoSeconds();
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
        config.qdiscCost = Ns(m_qdiscCost);
        const std::string error = CpuCoreModel::CheckConfig(config);
        NS_ABORT_MSG_IF(!error.empty(), "HostCpu: " << error);
        m_model = std::make_unique<CpuCoreModel>(config, [this]() { return DrawLatency(); });
        m_events.resize(config.cores);
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
    const uint64_t id = Model().HardIrq(core, Ns(Simulator::Now()));
    Submitted(core, id, nullptr);
}

Time
HostCpu::RunNapiPoll(uint32_t core,
                     uint64_t napi,
                     uint32_t rxPackets,
                     uint32_t txPackets,
                     uint32_t forwarded,
                     uint32_t work,
                     std::function<void()> done)
{
    NS_LOG_FUNCTION(this << core << napi << rxPackets << txPackets << forwarded << work);
    CpuCoreModel& model = Model();
    const uint64_t wakeups = model.GetKsoftirqdWakeups(core);
    const auto placement = model.NapiPoll(core,
                                          napi,
                                          work,
                                          model.NapiPollCost(rxPackets, txPackets, forwarded),
                                          Ns(Simulator::Now()));
    NS_LOG_DEBUG("core " << core << ": poll of " << rxPackets << " rx (" << forwarded
                         << " forwarded) + " << txPackets << " tx, "
                         << (placement.ksoftirqd ? "in ksoftirqd" : "softirq run ") << placement.run
                         << ", done at " << placement.completion << " ns"
                         << (placement.timeSqueeze ? ", time_squeeze" : ""));
    if (placement.timeSqueeze)
    {
        m_timeSqueezeTrace(core, model.GetTimeSqueeze(core));
    }
    if (model.GetKsoftirqdWakeups(core) != wakeups)
    {
        m_ksoftirqdTrace(core, model.GetKsoftirqdWakeups(core));
    }
    Submitted(core, placement.id, std::move(done));
    return NanoSeconds(placement.completion);
}

Time
HostCpu::RunTask(uint32_t core, Time cost, std::function<void()> done)
{
    NS_LOG_FUNCTION(this << core << cost);
    NS_ABORT_MSG_IF(cost.IsStrictlyNegative(), "HostCpu: task cost " << cost << " is negative");
    const uint64_t id = Model().Submit(core, CpuClass::TASK, Ns(cost), Ns(Simulator::Now()));
    Submitted(core, id, std::move(done));
    return NanoSeconds(m_model->GetCompletion(id));
}

void
HostCpu::Submitted(uint32_t core, uint64_t id, std::function<void()> done)
{
    if (done)
    {
        m_done.emplace(id, std::move(done));
    }
    // Items that ended exactly now, found while running the core to now, wait for their
    // own event at now: callbacks never run inside a submitter's call.
    Settle();
    NS_LOG_LOGIC("core " << core << " next completion " << m_model->GetNextCompletion(core));
    Reschedule();
}

void
HostCpu::FireTransitions()
{
    for (const auto& t : m_model->TakeTransitions())
    {
        NS_LOG_LOGIC("core " << t.core << ": " << t.from << " -> " << t.to << " at " << t.time);
        m_coreStateTrace(t.core, t.from, t.to);
    }
}

void
HostCpu::Settle()
{
    m_model->AdvanceTo(Ns(Simulator::Now()));
    FireTransitions();
    for (const auto& finished : m_model->TakeFinished())
    {
        m_finished.push_back(finished);
    }
}

void
HostCpu::Dispatch()
{
    NS_LOG_FUNCTION(this);
    Settle();
    // Callbacks may submit work that ends now too: drain until nothing is left.
    while (!m_finished.empty())
    {
        std::vector<CpuCoreModel::Finished> batch;
        batch.swap(m_finished);
        for (const auto& finished : batch)
        {
            auto it = m_done.find(finished.id);
            if (it == m_done.end())
            {
                continue;
            }
            std::function<void()> done = std::move(it->second);
            m_done.erase(it);
            done();
        }
        Settle();
    }
    Reschedule();
}

void
HostCpu::Reschedule()
{
    const Time now = Simulator::Now();
    for (uint32_t core = 0; core < m_events.size(); ++core)
    {
        EventId& event = m_events[core];
        int64_t next = m_model->GetNextCompletion(core);
        if (!m_finished.empty())
        {
            next = Ns(now); // retired items wait for a dispatch now
        }
        if (next == CpuCoreModel::NEVER)
        {
            event.Cancel();
            continue;
        }
        const Time at = std::max(NanoSeconds(next), now);
        if (compat::IsPending(event) && TimeStep(event.GetTs()) == at)
        {
            continue;
        }
        event.Cancel();
        event = Simulator::Schedule(at - now, &HostCpu::Dispatch, this);
    }
}

uint32_t
HostCpu::GetIrqCore(uint32_t vector)
{
    return vector % Model().GetConfig().cores;
}

uint32_t
HostCpu::GetNCores() const
{
    return m_nCores;
}

Time
HostCpu::GetPollCost(uint32_t rxPackets, uint32_t txPackets, uint32_t forwarded)
{
    return NanoSeconds(Model().NapiPollCost(rxPackets, txPackets, forwarded));
}

CpuCoreModel::Usage
HostCpu::GetUsage(uint32_t core)
{
    CpuCoreModel& model = Model();
    NS_ABORT_MSG_IF(core >= model.GetConfig().cores,
                    "HostCpu: core " << core << " does not exist; accepted: 0 to "
                                     << model.GetConfig().cores - 1);
    Settle();
    Reschedule();
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
