/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "progress-log.h"

#include <iomanip>

namespace ns3
{
namespace debloat
{

ProgressLog::ProgressLog(std::ostream* os, std::size_t total)
    : m_os(os),
      m_total(total),
      m_start(total)
{
}

void
ProgressLog::Start(std::size_t index, const std::string& label)
{
    m_start.at(index) = std::chrono::steady_clock::now();
    if (m_os)
    {
        *m_os << "[" << index + 1 << "/" << m_total << "] " << label << ": running" << std::endl;
    }
}

void
ProgressLog::End(std::size_t index, const std::string& label, const std::string& failure)
{
    ++m_ended;
    if (m_os)
    {
        const std::chrono::duration<double> took =
            std::chrono::steady_clock::now() - m_start.at(index);
        *m_os << "[" << m_ended << "/" << m_total << "] " << label << ": "
              << (failure.empty() ? std::string("done") : "failed: " + failure) << " in "
              << std::fixed << std::setprecision(1) << took.count() << " s" << std::defaultfloat
              << std::endl;
    }
}

} // namespace debloat
} // namespace ns3
