/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "device-sampler.h"

#include "ns3/abort.h"
#include "ns3/byte-queue-limits.h"
#include "ns3/cake-queue-disc.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nic-net-device.h"
#include "ns3/node.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("DeviceSampler");

NS_OBJECT_ENSURE_REGISTERED(DeviceSampler);

TypeId
DeviceSampler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::DeviceSampler")
                            .SetParent<Object>()
                            .SetGroupName("Debloat")
                            .AddConstructor<DeviceSampler>()
                            .AddAttribute("Interval",
                                          "Time between samples (flent's STEP_SIZE)",
                                          TimeValue(MilliSeconds(200)),
                                          MakeTimeAccessor(&DeviceSampler::m_interval),
                                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

DeviceSampler::DeviceSampler()
    : m_keys({"backlog_bytes",
              "backlog_pkts",
              "dropped",
              "ecn_mark",
              "sent_bytes",
              "sent_pkts",
              "delay",
              "bql_limit",
              "bql_inflight",
              "ring_used",
              "ring_bytes",
              "nic_dropped"})
{
    NS_LOG_FUNCTION(this);
}

DeviceSampler::~DeviceSampler()
{
    NS_LOG_FUNCTION(this);
}

void
DeviceSampler::DoDispose()
{
    m_event.Cancel();
    m_device = nullptr;
    m_qdisc = nullptr;
    Object::DoDispose();
}

void
DeviceSampler::SetDevice(Ptr<NetDevice> device)
{
    NS_ABORT_MSG_IF(!device, "DeviceSampler: no device");
    m_device = device;
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    m_qdisc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
    if (m_qdisc)
    {
        m_qdisc->TraceConnectWithoutContext("SojournTime",
                                            MakeCallback(&DeviceSampler::Sojourn, this));
    }
}

void
DeviceSampler::Start(Time start, Time stop)
{
    NS_ABORT_MSG_IF(!m_device, "DeviceSampler: call SetDevice() before Start()");
    m_origin = start;
    m_stop = stop;
    m_event = Simulator::Schedule(start - Simulator::Now(), &DeviceSampler::TakeSample, this);
}

void
DeviceSampler::Sojourn(Time sojourn)
{
    m_sojournSum += sojourn.GetSeconds();
    ++m_sojournCount;
}

void
DeviceSampler::TakeSample()
{
    Sample sample;
    sample.t = (Simulator::Now() - m_origin).GetSeconds();
    sample.values.assign(m_keys.size(), NO_VALUE);
    auto set = [&](std::size_t key, double value) { sample.values[key] = value; };
    // The first sample opens the series: no interval lies behind it, so its per-interval
    // counts are 0 and it has no delay (flent's tc runner does the same with its first
    // reading of tc's cumulative counters).
    Ptr<NicNetDevice> nic = DynamicCast<NicNetDevice>(m_device);
    if (m_samples.empty())
    {
        m_lastDropped = m_qdisc ? CakeQueueDisc::GetTcDroppedPackets(m_qdisc->GetStats()) : 0;
        m_lastMarked = m_qdisc ? m_qdisc->GetStats().nTotalMarkedPackets : 0;
        m_lastNicDropped = nic ? nic->GetStats().txDropped : 0;
        m_sojournSum = 0;
        m_sojournCount = 0;
    }
    if (m_qdisc)
    {
        const QueueDisc::Stats& stats = m_qdisc->GetStats();
        set(0, m_qdisc->GetNBytes());
        set(1, m_qdisc->GetNPackets());
        // tc's dropped counter: a GSO super-packet CAKE split is not a loss.
        const uint64_t dropped = CakeQueueDisc::GetTcDroppedPackets(stats);
        set(2, static_cast<double>(dropped - m_lastDropped));
        set(3, static_cast<double>(stats.nTotalMarkedPackets - m_lastMarked));
        set(4, static_cast<double>(stats.nTotalSentBytes));
        set(5, static_cast<double>(stats.nTotalSentPackets));
        if (m_sojournCount > 0)
        {
            set(6, 1e3 * m_sojournSum / static_cast<double>(m_sojournCount));
        }
        m_lastDropped = dropped;
        m_lastMarked = stats.nTotalMarkedPackets;
    }
    m_sojournSum = 0;
    m_sojournCount = 0;

    Ptr<NetDeviceQueueInterface> queues = m_device->GetObject<NetDeviceQueueInterface>();
    if (queues)
    {
        double limit = 0;
        double inflight = 0;
        bool bql = false;
        for (std::size_t i = 0; i < queues->GetNTxQueues(); ++i)
        {
            Ptr<ByteQueueLimits> limits =
                DynamicCast<ByteQueueLimits>(queues->GetTxQueue(i)->GetQueueLimits());
            if (limits)
            {
                bql = true;
                limit += limits->GetLimit();
                inflight += limits->GetInflight();
            }
        }
        if (bql)
        {
            set(7, limit);
            set(8, inflight);
        }
    }
    if (nic)
    {
        double used = 0;
        double bytes = 0;
        for (std::size_t i = 0; i < nic->GetNTxQueues(); ++i)
        {
            used += nic->GetTxRing(i).GetUsed();
            bytes += static_cast<double>(nic->GetTxRing(i).GetBytes());
        }
        set(9, used);
        set(10, bytes);
        const NicNetDevice::Stats& stats = nic->GetStats();
        const uint64_t dropped = stats.txDropped;
        set(11, static_cast<double>(dropped - m_lastNicDropped));
        m_lastNicDropped = dropped;
    }
    m_samples.push_back(std::move(sample));
    if (Simulator::Now() + m_interval < m_stop)
    {
        m_event = Simulator::Schedule(m_interval, &DeviceSampler::TakeSample, this);
    }
}

Series
DeviceSampler::GetSeries(const std::string& name) const
{
    Series series;
    series.name = name;
    series.runner = "TcRunner";
    series.units = "misc";
    series.keys = m_keys;
    series.samples = m_samples;
    return series;
}

} // namespace debloat
} // namespace ns3
