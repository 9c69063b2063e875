/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "interrupt-moderation.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

std::string
InterruptModeration::Validate(const Config& config)
{
    if (config.delay < 0 || config.absDelay < 0 || config.minInterval < 0)
    {
        return "delays and the minimum interval must not be negative";
    }
    if (config.frames > 1 && config.delay == 0 && config.absDelay == 0)
    {
        return "a frame count above 1 needs a timer (usecs), or the last frames of a burst "
               "would never raise an interrupt";
    }
    return "";
}

void
InterruptModeration::SetConfig(const Config& config)
{
    m_config = config;
}

const InterruptModeration::Config&
InterruptModeration::GetConfig() const
{
    return m_config;
}

void
InterruptModeration::SetMinInterval(int64_t minInterval)
{
    m_config.minInterval = minInterval;
}

void
InterruptModeration::OnEvent(int64_t now)
{
    if (m_pending == 0)
    {
        m_firstEvent = now;
    }
    m_pending++;
    m_lastEvent = now;
}

int64_t
InterruptModeration::GetDueTime() const
{
    if (m_pending == 0 || m_masked)
    {
        return NEVER;
    }
    const bool anyTrigger = m_config.frames != 0 || m_config.delay != 0 || m_config.absDelay != 0;
    int64_t due = NEVER;
    if (!anyTrigger || (m_config.frames != 0 && m_pending >= m_config.frames))
    {
        // The event that completed the count (or any event without triggers) asserts now.
        due = m_lastEvent;
    }
    if (m_config.delay != 0)
    {
        due = std::min(due, m_lastEvent + m_config.delay);
    }
    if (m_config.absDelay != 0)
    {
        due = std::min(due, m_firstEvent + m_config.absDelay);
    }
    // Events latched while masked assert no earlier than the re-enable.
    due = std::max(due, m_unmasked);
    if (m_lastAssert != NEVER)
    {
        due = std::max(due, m_lastAssert + m_config.minInterval);
    }
    return due;
}

uint32_t
InterruptModeration::Assert(int64_t now)
{
    const uint32_t events = m_pending;
    m_pending = 0;
    m_lastAssert = now;
    m_masked = true;
    return events;
}

void
InterruptModeration::Unmask(int64_t now)
{
    m_masked = false;
    m_unmasked = now;
}

bool
InterruptModeration::IsMasked() const
{
    return m_masked;
}

uint32_t
InterruptModeration::GetPending() const
{
    return m_pending;
}

} // namespace debloat
} // namespace ns3
