/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LINUX_TCP_DEFAULTS_H
#define LINUX_TCP_DEFAULTS_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief Makes ns-3's TCP (and ARP queue) start from Linux's defaults where ns-3's differ.
 *
 * | ns-3 attribute | ns-3 default | set to | Linux |
 * |---|---|---|---|
 * | TcpSocket::SegmentSize | 536 | 1448 | MSS of a 1500-byte MTU with timestamps |
 * | TcpSocket::SndBufSize | 131072 | 4194304 | net.ipv4.tcp_wmem max |
 * | TcpSocket::RcvBufSize | 131072 | 6291456 | net.ipv4.tcp_rmem max |
 * | TcpSocket::DelAckTimeout | 200 ms | 40 ms | TCP_DELACK_MIN |
 * | TcpSocket::ConnTimeout | 3 s | 1 s | TCP_TIMEOUT_INIT |
 * | TcpSocket::TcpNoDelay | true | false | Nagle is on unless TCP_NODELAY |
 * | TcpSocketBase::MinRto | 1 s | 200 ms | TCP_RTO_MIN |
 * | ArpCache::PendingQueueSize | 3 | 101 | neigh unres_qlen |
 *
 * The last is not TCP's but decides whether connections survive their start: with ns-3's 3
 * packets waiting for ARP, the fourth of many SYNs sent at once is dropped and retried a
 * second later.
 *
 * and, explicitly although ns-3's defaults already agree: InitialCwnd 10 (TCP_INIT_CWND),
 * DelAckCount 2, timestamps, SACK and window scaling on, CUBIC with PRR (Linux's default
 * congestion control and recovery), no ECN on connections the host opens (tcp_ecn = 2).
 *
 * Deviations from Linux that remain: the buffers are fixed at Linux's autotuning maxima
 * rather than grown from 16 KiB/128 KiB (so the window is never buffer-limited); the
 * delayed-ACK timeout is fixed at its minimum rather than adapted between 40 and 200 ms;
 * there is no quick-ACK mode, TSO autosizing or TCP small queues.
 *
 * ns-3 reads these when it creates the objects: call Apply() before installing the Internet
 * stack and creating sockets.
 */
class LinuxTcpDefaults
{
  public:
    /// @return the settings as (attribute path, value) pairs, in the order Apply() sets them
    static std::vector<std::pair<std::string, std::string>> Settings();

    /// Sets every default with Config::SetDefault.
    static void Apply();
};

} // namespace debloat
} // namespace ns3

#endif /* LINUX_TCP_DEFAULTS_H */
