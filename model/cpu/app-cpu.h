/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef APP_CPU_H
#define APP_CPU_H

#include "host-cpu.h"

#include "ns3/node.h"
#include "ns3/ptr.h"

#include <functional>
#include <memory>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief A socket application's process on its node's HostCpu: reading waits for the
 * process to be woken and scheduled, and its system calls take its core's time.
 *
 * Without a HostCpu on the node it does nothing and the application runs at once, as
 * before. With one, a socket that becomes readable or writable wakes the process
 * (HostCpu::WakeTask(): SchedulingLatency, then WakeupCost and a recvmsg() of the bytes waiting);
 * the application reads, and answers, when that work completes. Readiness while a wake-up is
 * pending does not wake it again (the task is already runnable). Each send costs a
 * sendmsg() of its bytes on the same core.
 *
 * Deviation from Linux: a sendmsg()'s cost delays what the core does next, not the data it
 * sends (the socket has the data at once); a process stays on the core it was given
 * (HostCpu::NextTaskCore()), with no migration; the transmit path below the socket
 * (tcp_write_xmit() to the driver) is not charged to the process.
 */
class AppCpu
{
  public:
    AppCpu() = default;
    /// Detaches: a wake-up still pending then does nothing.
    ~AppCpu();
    AppCpu(const AppCpu&) = delete;
    AppCpu& operator=(const AppCpu&) = delete;

    /**
     * Finds the node's HostCpu, if any, and takes the next task core.
     * @param node the application's node
     */
    void Attach(Ptr<Node> node);
    /// Forgets the HostCpu (on the application's dispose); a pending wake-up does nothing.
    void Detach();
    /// @return whether the node has a HostCpu
    bool IsOn() const;
    /**
     * The socket became readable or writable: wakes the process, unless a wake-up is
     * pending; without a HostCpu runs it at once.
     * @param bytes the data waiting to be read
     * @param run what the woken process does (read, then answer)
     */
    void Wake(uint32_t bytes, std::function<void()> run);
    /**
     * The process sent data.
     * @param bytes its size
     */
    void Sent(uint32_t bytes);

  private:
    Ptr<HostCpu> m_cpu;            ///< the node's CPU, or nullptr
    uint32_t m_core{0};            ///< the process's core
    bool m_waking{false};          ///< a wake-up is pending
    std::shared_ptr<bool> m_alive; ///< false once detached: pending wake-ups do nothing
};

} // namespace debloat
} // namespace ns3

#endif /* APP_CPU_H */
