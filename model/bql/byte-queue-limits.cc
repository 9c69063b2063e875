/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Byte Queue Limits as Linux 6.9 and later run them (lib/dynamic_queue_limits.c with stall
 * detection; sysfs in net/core/net-sysfs.c).
 */

#include "byte-queue-limits.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iomanip>
#include <sstream>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("ByteQueueLimits");

NS_OBJECT_ENSURE_REGISTERED(ByteQueueLimits);

namespace
{
/// Nanoseconds per second.
constexpr int64_t NS_PER_S = 1000000000;

/**
 * Formats a duration in milliseconds, as sysfs shows BQL times: "128 ms", "2.500 ms".
 * @param duration the duration
 * @return the text
 */
std::string
Ms(Time duration)
{
    const int64_t ns = duration.GetNanoSeconds();
    std::ostringstream os;
    if (ns % 1000000 == 0)
    {
        os << ns / 1000000;
    }
    else
    {
        os << std::fixed << std::setprecision(3) << static_cast<double>(ns) / 1e6;
    }
    os << " ms";
    return os.str();
}

} // namespace

TypeId
ByteQueueLimits::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::ByteQueueLimits")
            .SetParent<QueueLimits>()
            .SetGroupName("Debloat")
            .AddConstructor<ByteQueueLimits>()
            .AddAttribute("Hz",
                          "CONFIG_HZ, the kernel tick rate the hold time and the stall history "
                          "count in: 100, 250, 300 or 1000 ticks per second. Set it before "
                          "traffic starts.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&ByteQueueLimits::SetHz, &ByteQueueLimits::GetHz),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "HoldTime",
                "sysfs hold_time: how long the smallest slack must persist before the "
                "limit shrinks by it (Linux default HZ jiffies, one second).",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&ByteQueueLimits::SetHoldTime, &ByteQueueLimits::GetHoldTime),
                MakeTimeChecker())
            .AddAttribute("StallThreshold",
                          "sysfs stall_thrs: a completion at least this long after the previous "
                          "one, with bytes queued in the first half of the gap, is a stall. "
                          "Zero disables detection; otherwise 4 to 128 jiffies (4 to 128 ms at "
                          "Hz 1000).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&ByteQueueLimits::SetStallThreshold,
                                           &ByteQueueLimits::GetStallThreshold),
                          MakeTimeChecker())
            .AddAttribute(
                "LimitMin",
                "sysfs limit_min, bytes: the limit never falls below it "
                "(0 to LimitMax).",
                UintegerValue(0),
                MakeUintegerAccessor(&ByteQueueLimits::SetLimitMin, &ByteQueueLimits::GetLimitMin),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "LimitMax",
                "sysfs limit_max, bytes: the limit never rises above it "
                "(LimitMin to DQL_MAX_LIMIT = 1879048192, the default).",
                UintegerValue(Dql::MAX_LIMIT),
                MakeUintegerAccessor(&ByteQueueLimits::SetLimitMax, &ByteQueueLimits::GetLimitMax),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("StallCount",
                          "sysfs stall_cnt: stalls detected so far (read-only).",
                          TypeId::ATTR_GET,
                          UintegerValue(0),
                          MakeUintegerAccessor(&ByteQueueLimits::GetStallCount),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("StallMax",
                          "sysfs stall_max: the longest stall detected (read-only).",
                          TypeId::ATTR_GET,
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&ByteQueueLimits::GetStallMax),
                          MakeTimeChecker())
            .AddTraceSource("Limit",
                            "sysfs limit: the byte limit computed at each completion",
                            MakeTraceSourceAccessor(&ByteQueueLimits::m_limit),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Inflight",
                            "sysfs inflight: bytes queued to the hardware and not completed",
                            MakeTraceSourceAccessor(&ByteQueueLimits::m_inflight),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Stall",
                            "A stall was detected (tracepoint dql_stall_detected); the argument "
                            "is its length",
                            MakeTraceSourceAccessor(&ByteQueueLimits::m_stallTrace),
                            "ns3::debloat::ByteQueueLimits::StallTracedCallback");
    return tid;
}

ByteQueueLimits::ByteQueueLimits()
    : m_dql(0, 0),
      m_hz(1000),
      m_holdTime(Seconds(1)),
      m_stallThreshold(Seconds(0))
{
    NS_LOG_FUNCTION(this);
    m_dql.Reset(Now());
    ApplyTimes();
}

ByteQueueLimits::~ByteQueueLimits()
{
    NS_LOG_FUNCTION(this);
}

void
ByteQueueLimits::Reset()
{
    NS_LOG_FUNCTION(this);
    m_dql.Reset(Now());
    UpdateTraces();
}

void
ByteQueueLimits::Queued(uint32_t count)
{
    NS_LOG_FUNCTION(this << count);
    NS_ABORT_MSG_UNLESS(m_dql.Queued(count, Now()),
                        "ByteQueueLimits: a single post of " << count << " bytes exceeds "
                                                             << "DQL_MAX_OBJECT ("
                                                             << Dql::MAX_OBJECT << " bytes)");
    m_used = true;
    UpdateTraces();
}

int32_t
ByteQueueLimits::Available() const
{
    return m_dql.Avail();
}

void
ByteQueueLimits::Completed(uint32_t count)
{
    NS_LOG_FUNCTION(this << count);
    Dql::Completion completion;
    NS_ABORT_MSG_UNLESS(m_dql.Completed(count, Now(), completion),
                        "ByteQueueLimits: the driver completed "
                            << count << " bytes but only " << m_dql.GetInflight()
                            << " are in flight (the kernel BUG()s here)");
    if (m_dql.GetLimit() != m_limit)
    {
        NS_LOG_DEBUG("limit " << m_limit << " -> " << m_dql.GetLimit() << " bytes");
    }
    UpdateTraces();
    if (completion.stall)
    {
        const Time length = FromJiffies(completion.stallJiffies);
        NS_LOG_WARN("TX stall of " << length.As(Time::MS) << " detected");
        m_stallTrace(length);
    }
}

uint32_t
ByteQueueLimits::GetLimit() const
{
    return m_dql.GetLimit();
}

uint32_t
ByteQueueLimits::GetInflight() const
{
    return m_dql.GetInflight();
}

uint64_t
ByteQueueLimits::GetStallCount() const
{
    return m_dql.GetStallCount();
}

Time
ByteQueueLimits::GetStallMax() const
{
    return FromJiffies(m_dql.GetStallMax());
}

void
ByteQueueLimits::ResetStallMax()
{
    NS_LOG_FUNCTION(this);
    m_dql.ResetStallMax();
}

uint32_t
ByteQueueLimits::GetLimitMin() const
{
    return m_dql.GetMinLimit();
}

uint32_t
ByteQueueLimits::GetLimitMax() const
{
    return m_dql.GetMaxLimit();
}

Time
ByteQueueLimits::GetHoldTime() const
{
    return m_holdTime;
}

Time
ByteQueueLimits::GetStallThreshold() const
{
    return m_stallThreshold;
}

void
ByteQueueLimits::SetHz(uint32_t hz)
{
    NS_LOG_FUNCTION(this << hz);
    NS_ABORT_MSG_UNLESS(hz == 100 || hz == 250 || hz == 300 || hz == 1000,
                        "ByteQueueLimits: Hz=" << hz
                                               << " is not a CONFIG_HZ choice; accepted values "
                                                  "are 100, 250, 300 and 1000");
    NS_ABORT_MSG_IF(m_used && hz != m_hz,
                    "ByteQueueLimits: Hz cannot change once bytes have been queued");
    m_hz = hz;
    m_dql.Reset(Now());
    ApplyTimes();
}

uint32_t
ByteQueueLimits::GetHz() const
{
    return m_hz;
}

void
ByteQueueLimits::SetLimitMin(uint32_t limit)
{
    NS_LOG_FUNCTION(this << limit);
    NS_ABORT_MSG_IF(limit > m_dql.GetMaxLimit(),
                    "ByteQueueLimits: LimitMin=" << limit
                                                 << " is above LimitMax=" << m_dql.GetMaxLimit()
                                                 << "; accepted range is 0 to LimitMax bytes");
    m_dql.SetMinLimit(limit);
}

void
ByteQueueLimits::SetLimitMax(uint32_t limit)
{
    NS_LOG_FUNCTION(this << limit);
    NS_ABORT_MSG_IF(limit > Dql::MAX_LIMIT,
                    "ByteQueueLimits: LimitMax=" << limit << " is above DQL_MAX_LIMIT; accepted "
                                                 << "range is LimitMin to " << Dql::MAX_LIMIT
                                                 << " bytes");
    NS_ABORT_MSG_IF(limit < m_dql.GetMinLimit(),
                    "ByteQueueLimits: LimitMax=" << limit << " is below LimitMin="
                                                 << m_dql.GetMinLimit() << "; accepted range is "
                                                 << "LimitMin to " << Dql::MAX_LIMIT << " bytes");
    m_dql.SetMaxLimit(limit);
}

void
ByteQueueLimits::SetHoldTime(Time holdTime)
{
    NS_LOG_FUNCTION(this << holdTime);
    NS_ABORT_MSG_IF(holdTime.IsStrictlyNegative(),
                    "ByteQueueLimits: HoldTime=" << Ms(holdTime)
                                                 << " is negative; accepted values are >= 0");
    m_holdTime = holdTime;
    ApplyTimes();
}

void
ByteQueueLimits::SetStallThreshold(Time threshold)
{
    NS_LOG_FUNCTION(this << threshold);
    NS_ABORT_MSG_IF(threshold.IsStrictlyNegative(),
                    "ByteQueueLimits: StallThreshold=" << Ms(threshold)
                                                       << " is negative; accepted values are 0 "
                                                          "(off) or 4 to 128 jiffies");
    m_stallThreshold = threshold;
    ApplyTimes();
}

void
ByteQueueLimits::ApplyTimes()
{
    m_dql.SetHoldTime(ToJiffies(m_holdTime));
    const Dql::Jiffies stall = ToJiffies(m_stallThreshold);
    const bool accepted = stall <= Dql::STALL_THRESHOLD_MAX &&
                          m_dql.SetStallThreshold(static_cast<uint32_t>(stall), Now());
    NS_ABORT_MSG_UNLESS(accepted,
                        "ByteQueueLimits: StallThreshold="
                            << Ms(m_stallThreshold) << " is " << stall << " jiffies at Hz=" << m_hz
                            << "; accepted values are 0 (off) or " << Dql::STALL_THRESHOLD_MIN
                            << " to " << Dql::STALL_THRESHOLD_MAX << " jiffies, i.e. "
                            << Ms(FromJiffies(Dql::STALL_THRESHOLD_MIN)) << " to "
                            << Ms(FromJiffies(Dql::STALL_THRESHOLD_MAX)));
}

Dql::Jiffies
ByteQueueLimits::Now() const
{
    const int64_t ns = Simulator::Now().GetNanoSeconds();
    return static_cast<Dql::Jiffies>((ns / NS_PER_S) * m_hz + (ns % NS_PER_S) * m_hz / NS_PER_S);
}

Dql::Jiffies
ByteQueueLimits::ToJiffies(Time duration) const
{
    const int64_t ns = duration.GetNanoSeconds();
    return static_cast<Dql::Jiffies>((ns / NS_PER_S) * m_hz +
                                     ((ns % NS_PER_S) * m_hz + NS_PER_S - 1) / NS_PER_S);
}

Time
ByteQueueLimits::FromJiffies(Dql::Jiffies jiffies) const
{
    return NanoSeconds(static_cast<int64_t>(jiffies) * NS_PER_S / m_hz);
}

void
ByteQueueLimits::UpdateTraces()
{
    m_limit = m_dql.GetLimit();
    m_inflight = m_dql.GetInflight();
}

} // namespace debloat
} // namespace ns3
