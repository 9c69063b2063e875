/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "app-cpu.h"

#include "host-cpu.h"

namespace ns3
{
namespace debloat
{

AppCpu::~AppCpu()
{
    Detach();
}

void
AppCpu::Attach(Ptr<Node> node)
{
    Detach();
    m_cpu = node ? node->GetObject<HostCpu>() : nullptr;
    m_core = m_cpu ? m_cpu->NextTaskCore() : 0;
    m_alive = std::make_shared<bool>(true);
}

void
AppCpu::Detach()
{
    if (m_alive)
    {
        *m_alive = false;
        m_alive = nullptr;
    }
    m_cpu = nullptr;
    m_waking = false;
}

bool
AppCpu::IsOn() const
{
    return m_cpu != nullptr;
}

void
AppCpu::Wake(uint32_t bytes, std::function<void()> run)
{
    if (!m_cpu)
    {
        run();
        return;
    }
    if (m_waking)
    {
        return; // runnable already: it reads everything when it runs
    }
    m_waking = true;
    m_cpu->WakeTask(m_core,
                    m_cpu->GetSyscallCost(bytes),
                    [this, alive = m_alive, run = std::move(run)]() {
                        if (*alive)
                        {
                            m_waking = false;
                            run();
                        }
                    });
}

void
AppCpu::Sent(uint32_t bytes)
{
    if (m_cpu)
    {
        m_cpu->RunTask(m_core, m_cpu->GetSyscallCost(bytes), nullptr);
    }
}

} // namespace debloat
} // namespace ns3
