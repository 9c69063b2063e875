/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "linux-tcp-defaults.h"

#include "ns3/config.h"
#include "ns3/string.h"

namespace ns3
{
namespace debloat
{

std::vector<std::pair<std::string, std::string>>
LinuxTcpDefaults::Settings()
{
    return {
        {"ns3::TcpSocket::SegmentSize", "1448"},
        {"ns3::TcpSocket::InitialCwnd", "10"},
        {"ns3::TcpSocket::SndBufSize", "4194304"},
        {"ns3::TcpSocket::RcvBufSize", "6291456"},
        {"ns3::TcpSocket::DelAckTimeout", "40ms"},
        {"ns3::TcpSocket::DelAckCount", "2"},
        {"ns3::TcpSocket::ConnTimeout", "1s"},
        {"ns3::TcpSocket::TcpNoDelay", "false"},
        {"ns3::TcpSocketBase::MinRto", "200ms"},
        {"ns3::TcpSocketBase::Timestamp", "true"},
        {"ns3::TcpSocketBase::Sack", "true"},
        {"ns3::TcpSocketBase::WindowScaling", "true"},
        {"ns3::TcpL4Protocol::SocketType", "ns3::TcpCubic"},
        {"ns3::TcpL4Protocol::RecoveryType", "ns3::TcpPrrRecovery"},
        {"ns3::ArpCache::PendingQueueSize", "101"},
    };
}

void
LinuxTcpDefaults::Apply()
{
    for (const auto& [path, value] : Settings())
    {
        Config::SetDefault(path, StringValue(value));
    }
}

} // namespace debloat
} // namespace ns3
