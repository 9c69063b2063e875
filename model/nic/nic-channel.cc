/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-channel.h"

#include "nic-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NicChannel");

NS_OBJECT_ENSURE_REGISTERED(NicChannel);

TypeId
NicChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::NicChannel")
            .SetParent<Channel>()
            .SetGroupName("Debloat")
            .AddConstructor<NicChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of each direction",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&NicChannel::m_delay),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("TxRxNic",
                            "A frame crosses the link: frame, sender, receiver, wire time, "
                            "wire time plus propagation delay",
                            MakeTraceSourceAccessor(&NicChannel::m_txrxTrace),
                            "ns3::PointToPointChannel::TxRxAnimationCallback");
    return tid;
}

NicChannel::NicChannel()
{
    NS_LOG_FUNCTION(this);
}

NicChannel::~NicChannel()
{
    NS_LOG_FUNCTION(this);
}

void
NicChannel::DoDispose()
{
    m_devices = {};
    Channel::DoDispose();
}

void
NicChannel::Attach(Ptr<NicNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices >= 2, "NicChannel: a link joins exactly two devices");
    m_devices[m_nDevices++] = device;
}

void
NicChannel::Transmit(Ptr<const Packet> frame, Ptr<NicNetDevice> src, Time wireTime)
{
    NS_LOG_FUNCTION(this << frame << src << wireTime);
    NS_ABORT_MSG_IF(m_nDevices != 2, "NicChannel: transmit on a link with one end");
    Ptr<NicNetDevice> dst = src == m_devices[0] ? m_devices[1] : m_devices[0];
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   wireTime + m_delay,
                                   &NicNetDevice::Receive,
                                   dst,
                                   frame->Copy());
    m_txrxTrace(frame, src, dst, wireTime, wireTime + m_delay);
}

Time
NicChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
NicChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
NicChannel::GetDevice(std::size_t i) const
{
    return i < m_nDevices ? m_devices[i] : nullptr;
}

} // namespace debloat
} // namespace ns3
