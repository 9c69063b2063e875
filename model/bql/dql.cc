/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows lib/dynamic_queue_limits.c and include/linux/dynamic_queue_limits.h of Linux 6.9
 * and later (dynamic queue limits with stall detection).
 */

#include "dql.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

namespace
{

/// POSDIFF(a, b): a - b when positive as a signed 32-bit difference, else 0.
uint32_t
Posdiff(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) > 0 ? a - b : 0;
}

/// AFTER_EQ(a, b): a is at or after b on the wrapping 32-bit byte counter.
bool
AfterEq(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) >= 0;
}

/// time_after(a, b): jiffy a is strictly after jiffy b.
bool
TimeAfter(Dql::Jiffies a, Dql::Jiffies b)
{
    return static_cast<int64_t>(b - a) < 0;
}

/// time_after_eq(a, b): jiffy a is at or after jiffy b.
bool
TimeAfterEq(Dql::Jiffies a, Dql::Jiffies b)
{
    return static_cast<int64_t>(a - b) >= 0;
}

} // namespace

Dql::Dql(Jiffies holdTime, Jiffies now)
    : m_slackHoldTime(holdTime)
{
    Reset(now);
}

void
Dql::Reset(Jiffies now)
{
    m_limit = 0;
    m_numQueued = 0;
    m_numCompleted = 0;
    m_lastObjCnt = 0;
    m_prevNumQueued = 0;
    m_prevLastObjCnt = 0;
    m_prevOvlimit = 0;
    m_lowestSlack = UINT32_MAX;
    m_slackStartTime = now;
    m_lastReap = now;
    m_historyHead = now / BITS_PER_WORD;
    m_history.fill(0);
}

bool
Dql::Queued(uint32_t count, Jiffies now)
{
    if (count > MAX_OBJECT)
    {
        return false;
    }
    m_lastObjCnt = count;
    m_numQueued += count;
    if (m_stallThrs != 0)
    {
        RecordQueueTime(now);
    }
    return true;
}

void
Dql::RecordQueueTime(Jiffies now)
{
    const Jiffies nowHi = now / BITS_PER_WORD;
    if (nowHi != m_historyHead)
    {
        // Clear the words between the old head and the new one, at most the whole ring.
        for (Jiffies i = 0; i < HISTORY_WORDS; i++)
        {
            if (nowHi == m_historyHead + i)
            {
                break;
            }
            m_history[(m_historyHead + i + 1) % HISTORY_WORDS] = 0;
        }
        m_historyHead = nowHi;
    }
    m_history[nowHi % HISTORY_WORDS] |= uint64_t{1} << (now % BITS_PER_WORD);
}

int32_t
Dql::Avail() const
{
    return static_cast<int32_t>(m_adjLimit - m_numQueued);
}

bool
Dql::Completed(uint32_t count, Jiffies now, Completion& result)
{
    const uint32_t numQueued = m_numQueued;
    if (count > numQueued - m_numCompleted)
    {
        return false; // the kernel BUG()s here
    }

    const uint32_t completed = m_numCompleted + count;
    uint32_t limit = m_limit;
    uint32_t ovlimit = Posdiff(numQueued - m_numCompleted, limit);
    const uint32_t inprogress = numQueued - completed;
    const uint32_t prevInprogress = m_prevNumQueued - m_numCompleted;
    const bool allPrevCompleted = AfterEq(completed, m_prevNumQueued);

    if ((ovlimit != 0 && inprogress == 0) || (m_prevOvlimit != 0 && allPrevCompleted))
    {
        // Starved: the queue was over its limit and then ran dry (or could have, before the
        // producer ran again). Grow by what was both queued and completed in the last
        // interval, plus the previous over-limit.
        limit += Posdiff(completed, m_prevNumQueued) + m_prevOvlimit;
        m_slackStartTime = now;
        m_lowestSlack = UINT32_MAX;
    }
    else if (inprogress != 0 && prevInprogress != 0 && !allPrevCompleted)
    {
        // Busy for the whole interval: the slack is what was queued beyond what starvation
        // needed. Twice the bytes completed bounds the limit; the unneeded part of the last
        // object rounds down. Shrink by the smallest slack seen over a hold time.
        uint32_t slack = Posdiff(limit + m_prevOvlimit, 2 * (completed - m_numCompleted));
        const uint32_t slackLastObjs =
            m_prevOvlimit != 0 ? Posdiff(m_prevLastObjCnt, m_prevOvlimit) : 0;
        slack = std::max(slack, slackLastObjs);
        m_lowestSlack = std::min(m_lowestSlack, slack);
        if (TimeAfter(now, m_slackStartTime + m_slackHoldTime))
        {
            limit = Posdiff(limit, m_lowestSlack);
            m_slackStartTime = now;
            m_lowestSlack = UINT32_MAX;
        }
    }

    // clamp(): the maximum wins if the bounds cross, as min(max(limit, lo), hi) does.
    limit = std::min(std::max(limit, m_minLimit), m_maxLimit);
    if (limit != m_limit)
    {
        m_limit = limit;
        ovlimit = 0;
    }

    m_adjLimit = limit + completed;
    m_prevOvlimit = ovlimit;
    m_prevLastObjCnt = m_lastObjCnt;
    m_numCompleted = completed;
    m_prevNumQueued = numQueued;

    result = CheckStall(now);
    return true;
}

Dql::Completion
Dql::CheckStall(Jiffies now)
{
    Completion found;
    if (m_stallThrs == 0)
    {
        return found;
    }
    if (TimeAfterEq(now, m_lastReap + m_stallThrs))
    {
        // Look for a jiffy with a Queued() in [start, end]: after the last reap, and at least
        // half a threshold before now, so that nothing completed for at least half of it.
        Jiffies start = (m_historyHead - HISTORY_WORDS + 1) * BITS_PER_WORD;
        if (TimeAfter(m_lastReap + 1, start))
        {
            start = m_lastReap + 1;
        }
        Jiffies end = m_historyHead * BITS_PER_WORD + (BITS_PER_WORD - 1);
        if (TimeAfter(end + m_stallThrs / 2, now))
        {
            end = now - m_stallThrs / 2;
        }
        for (Jiffies t = start; TimeAfterEq(end, t); t++)
        {
            const Jiffies bit = t % (HISTORY_WORDS * BITS_PER_WORD);
            if ((m_history[bit / BITS_PER_WORD] >> (bit % BITS_PER_WORD)) & 1)
            {
                m_stallCnt++;
                const auto length = static_cast<uint16_t>(now - t);
                m_stallMax = std::max(m_stallMax, length);
                found.stall = true;
                found.stallJiffies = length;
                break;
            }
        }
    }
    m_lastReap = now;
    return found;
}

void
Dql::SetMinLimit(uint32_t limit)
{
    m_minLimit = limit;
}

void
Dql::SetMaxLimit(uint32_t limit)
{
    m_maxLimit = limit;
}

void
Dql::SetHoldTime(Jiffies holdTime)
{
    m_slackHoldTime = holdTime;
}

bool
Dql::SetStallThreshold(uint32_t threshold, Jiffies now)
{
    if (threshold != 0 && (threshold < STALL_THRESHOLD_MIN || threshold > STALL_THRESHOLD_MAX))
    {
        return false;
    }
    if (m_stallThrs == 0 && threshold != 0)
    {
        m_lastReap = now;
    }
    m_stallThrs = threshold;
    return true;
}

void
Dql::ResetStallMax()
{
    m_stallMax = 0;
}

uint32_t
Dql::GetLimit() const
{
    return m_limit;
}

uint32_t
Dql::GetInflight() const
{
    return m_numQueued - m_numCompleted;
}

uint32_t
Dql::GetNumQueued() const
{
    return m_numQueued;
}

uint32_t
Dql::GetNumCompleted() const
{
    return m_numCompleted;
}

uint32_t
Dql::GetMinLimit() const
{
    return m_minLimit;
}

uint32_t
Dql::GetMaxLimit() const
{
    return m_maxLimit;
}

Dql::Jiffies
Dql::GetHoldTime() const
{
    return m_slackHoldTime;
}

uint32_t
Dql::GetStallThreshold() const
{
    return m_stallThrs;
}

uint64_t
Dql::GetStallCount() const
{
    return m_stallCnt;
}

uint16_t
Dql::GetStallMax() const
{
    return m_stallMax;
}

uint32_t
Dql::GetLowestSlack() const
{
    return m_lowestSlack;
}

} // namespace debloat
} // namespace ns3
