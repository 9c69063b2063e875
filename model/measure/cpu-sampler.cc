/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows flent 2.1.1's cpu_stats runner: flent/scripts/stat_iterate.sh (the load of the
 * "cpu" line of /proc/stat between two readings) and CpuStatsRunner in flent/runners.py.
 */

#include "cpu-sampler.h"

#include "ns3/abort.h"
#include "ns3/host-cpu.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("CpuSampler");

NS_OBJECT_ENSURE_REGISTERED(CpuSampler);

namespace
{

/// The classes in the order of the keys, with their key names.
const std::vector<std::pair<CpuClass, std::string>> CLASSES = {{CpuClass::HARDIRQ, "irq"},
                                                               {CpuClass::SOFTIRQ, "soft"},
                                                               {CpuClass::TASK, "task"}};

/**
 * Appends the load and the class fractions of one interval.
 * @param values where to append
 * @param from the earlier reading
 * @param to the later reading
 */
void
AppendFractions(std::vector<double>& values,
                const CpuCoreModel::Usage& from,
                const CpuCoreModel::Usage& to)
{
    values.push_back(CpuCoreModel::BusyFraction(from, to));
    for (const auto& [cls, name] : CLASSES)
    {
        values.push_back(CpuCoreModel::ClassFraction(from, to, cls));
    }
}

/**
 * @param usages one reading per core
 * @return their sum: /proc/stat's "cpu" line
 */
CpuCoreModel::Usage
Sum(const std::vector<CpuCoreModel::Usage>& usages)
{
    CpuCoreModel::Usage sum;
    for (const CpuCoreModel::Usage& usage : usages)
    {
        for (std::size_t c = 0; c < sum.busy.size(); ++c)
        {
            sum.busy[c] += usage.busy[c];
        }
        sum.idle += usage.idle;
    }
    return sum;
}

} // namespace

TypeId
CpuSampler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::CpuSampler")
                            .SetParent<Object>()
                            .SetGroupName("Debloat")
                            .AddConstructor<CpuSampler>()
                            .AddAttribute("Interval",
                                          "Time between samples (flent's STEP_SIZE)",
                                          TimeValue(MilliSeconds(200)),
                                          MakeTimeAccessor(&CpuSampler::m_interval),
                                          MakeTimeChecker(NanoSeconds(1)));
    return tid;
}

CpuSampler::CpuSampler()
{
    NS_LOG_FUNCTION(this);
}

CpuSampler::~CpuSampler()
{
    NS_LOG_FUNCTION(this);
}

void
CpuSampler::DoDispose()
{
    m_event.Cancel();
    m_cpu = nullptr;
    Object::DoDispose();
}

void
CpuSampler::SetHostCpu(Ptr<HostCpu> cpu)
{
    NS_ABORT_MSG_IF(!cpu, "CpuSampler: no HostCpu");
    m_cpu = cpu;
    m_keys = Keys(cpu->GetNCores());
}

std::vector<std::string>
CpuSampler::Keys(uint32_t cores)
{
    std::vector<std::string> keys = {"load"};
    for (const auto& cls : CLASSES)
    {
        keys.push_back(cls.second);
    }
    for (uint32_t core = 0; core < cores; ++core)
    {
        const std::string suffix = "_cpu" + std::to_string(core);
        keys.push_back("load" + suffix);
        for (const auto& cls : CLASSES)
        {
            keys.push_back(cls.second + suffix);
        }
    }
    return keys;
}

std::vector<double>
CpuSampler::Values(const std::vector<CpuCoreModel::Usage>& from,
                   const std::vector<CpuCoreModel::Usage>& to)
{
    NS_ABORT_MSG_IF(from.size() != to.size(), "CpuSampler: readings of different core counts");
    std::vector<double> values;
    values.reserve(4 * (to.size() + 1));
    // stat_iterate.sh: 1 - (idle delta) / (total delta) over the "cpu" line, the sum of the
    // cores; BusyFraction() is busy / (busy + idle), the same number.
    AppendFractions(values, Sum(from), Sum(to));
    for (std::size_t core = 0; core < to.size(); ++core)
    {
        AppendFractions(values, from[core], to[core]);
    }
    return values;
}

std::vector<CpuCoreModel::Usage>
CpuSampler::Read() const
{
    std::vector<CpuCoreModel::Usage> usages;
    for (uint32_t core = 0; core < m_cpu->GetNCores(); ++core)
    {
        usages.push_back(m_cpu->GetUsage(core));
    }
    return usages;
}

void
CpuSampler::Start(Time start, Time stop)
{
    NS_ABORT_MSG_IF(!m_cpu, "CpuSampler: call SetHostCpu() before Start()");
    NS_ABORT_MSG_IF(start < Simulator::Now(),
                    "CpuSampler: start " << start << " is before now " << Simulator::Now());
    m_origin = start;
    m_stop = stop;
    m_event = Simulator::Schedule(start - Simulator::Now(), &CpuSampler::TakeSample, this);
}

void
CpuSampler::TakeSample()
{
    std::vector<CpuCoreModel::Usage> now = Read();
    if (Simulator::Now() > m_origin)
    {
        Sample sample;
        sample.t = (Simulator::Now() - m_origin).GetSeconds();
        sample.values = Values(m_last, now);
        NS_LOG_DEBUG("load " << sample.values[0] << " at " << sample.t << " s");
        m_samples.push_back(std::move(sample));
    }
    m_last = std::move(now);
    if (Simulator::Now() + m_interval <= m_stop)
    {
        m_event = Simulator::Schedule(m_interval, &CpuSampler::TakeSample, this);
    }
}

Series
CpuSampler::GetSeries(const std::string& name) const
{
    Series series;
    series.name = name;
    series.runner = "CpuStatsRunner";
    series.units = "misc";
    series.keys = m_keys;
    series.samples = m_samples;
    return series;
}

} // namespace debloat
} // namespace ns3
