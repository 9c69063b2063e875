/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gso-traffic-control-layer.h"

#include "gro-segment-tag.h"
#include "gso-tag.h"
#include "tcp-socket-lookup.h"
#include "tsq-tag.h"

#include "ns3/boolean.h"
#include "ns3/debloat-compat.h"
#include "ns3/flow-dissector.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-interface.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/nic-net-device.h"
#include "ns3/node.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/tcp-option-ts.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("GsoTrafficControlLayer");

NS_OBJECT_ENSURE_REGISTERED(GsoTrafficControlLayer);

namespace
{

/// TCP's protocol number.
constexpr uint8_t IPPROTO_TCP_NUMBER = 6;

/// @name Trace sinks that keep a flow's congestion state
/// @{
void
SetCwnd(uint32_t* field, uint32_t, uint32_t value)
{
    *field = value;
}

void
SetRtt(int64_t* srttUs, int64_t* minRttUs, Time, Time value)
{
    *srttUs = value.GetMicroSeconds();
    if (*srttUs > 0)
    {
        *minRttUs = std::min(*minRttUs, *srttUs);
    }
}

/// @}

} // namespace

TypeId
GsoTrafficControlLayer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::GsoTrafficControlLayer")
            .SetParent<TrafficControlLayer>()
            .SetGroupName("Debloat")
            .AddConstructor<GsoTrafficControlLayer>()
            .AddAttribute("PacingShift",
                          "sk_pacing_shift: a super-packet holds pacing rate >> shift bytes "
                          "(10: about 1 ms)",
                          UintegerValue(10),
                          MakeUintegerAccessor(&GsoTrafficControlLayer::m_pacingShift),
                          MakeUintegerChecker<uint32_t>(0, 63))
            .AddAttribute("MinTsoSegs",
                          "net.ipv4.tcp_min_tso_segs: segments per super-packet at least",
                          UintegerValue(2),
                          MakeUintegerAccessor(&GsoTrafficControlLayer::m_minTsoSegs),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("TsoRttAllowance",
                          "Add gso_max_size >> (min_rtt_us >> TsoRttLog) to a close peer's "
                          "super-packets (Linux 5.18 and later; off for older kernels)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GsoTrafficControlLayer::m_rttAllowance),
                          MakeBooleanChecker())
            .AddAttribute("TsoRttLog",
                          "net.ipv4.tcp_tso_rtt_log: the allowance halves every 2^N us of "
                          "min_rtt",
                          UintegerValue(9),
                          MakeUintegerAccessor(&GsoTrafficControlLayer::m_tsoRttLog),
                          MakeUintegerChecker<uint32_t>(0, 63))
            .AddAttribute("PacingSsRatio",
                          "net.ipv4.tcp_pacing_ss_ratio, per cent (while cwnd < ssthresh / 2)",
                          UintegerValue(200),
                          MakeUintegerAccessor(&GsoTrafficControlLayer::m_pacingSsRatio),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("PacingCaRatio",
                          "net.ipv4.tcp_pacing_ca_ratio, per cent",
                          UintegerValue(120),
                          MakeUintegerAccessor(&GsoTrafficControlLayer::m_pacingCaRatio),
                          MakeUintegerChecker<uint32_t>(0, 1000))
            .AddAttribute("TcpSmallQueues",
                          "TCP small queues (Linux 3.6 and later): a local socket may have at "
                          "most max(2 x truesize, pacing rate >> PacingShift) bytes, capped by "
                          "LimitOutputBytes, in the queue disc and the device (off: Linux 3.5 "
                          "and older)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GsoTrafficControlLayer::m_tsq),
                          MakeBooleanChecker())
            .AddAttribute("LimitOutputBytes",
                          "net.ipv4.tcp_limit_output_bytes: 131072 in Linux 3.6, 262144 from "
                          "4.2, 1048576 from 4.20",
                          UintegerValue(1048576),
                          MakeUintegerAccessor(&GsoTrafficControlLayer::m_limitOutputBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddTraceSource("TsqBytes",
                            "A local socket's bytes below it (sk_wmem_alloc) changed: the "
                            "flow's index and the bytes of truesize",
                            MakeTraceSourceAccessor(&GsoTrafficControlLayer::m_tsqBytesTrace),
                            "ns3::debloat::GsoTrafficControlLayer::TsqBytesTracedCallback")
            .AddTraceSource("SuperPacket",
                            "A super-packet handed to the queue disc, with its segments",
                            MakeTraceSourceAccessor(&GsoTrafficControlLayer::m_superPacketTrace),
                            "ns3::debloat::GsoTrafficControlLayer::SuperPacketTracedCallback");
    return tid;
}

GsoTrafficControlLayer::GsoTrafficControlLayer()
{
    static uint32_t layers = 0;
    m_layerId = ++layers;
    NS_LOG_FUNCTION(this);
}

GsoTrafficControlLayer::~GsoTrafficControlLayer()
{
    NS_LOG_FUNCTION(this);
}

void
GsoTrafficControlLayer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_flushEvent.Cancel();
    m_trains.clear();
    m_flowsByIndex.clear();
    m_flows.clear();
    m_next = nullptr;
    m_device = nullptr;
    TrafficControlLayer::DoDispose();
}

void
GsoTrafficControlLayer::DoInitialize()
{
    // TrafficControlLayer::DoInitialize() would scan a node's devices and set up their
    // queue discs: that is the node's own layer's work.
    Object::DoInitialize();
}

void
GsoTrafficControlLayer::NotifyNewAggregate()
{
    Object::NotifyNewAggregate();
}

void
GsoTrafficControlLayer::Attach(Ptr<NetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    Ptr<Node> node = device->GetNode();
    NS_ABORT_MSG_IF(!node, "GsoTrafficControlLayer: the device is on no node");
    NS_ABORT_MSG_IF(device->GetObject<GsoTrafficControlLayer>(),
                    "GsoTrafficControlLayer: the device has a layer already");
    m_next = node->GetObject<TrafficControlLayer>();
    NS_ABORT_MSG_IF(!m_next, "GsoTrafficControlLayer: the node has no Internet stack");
    m_device = device;
    bool attached = false;
    if (Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol>())
    {
        const int32_t i = ipv4->GetInterfaceForDevice(device);
        if (i >= 0)
        {
            ipv4->GetInterface(i)->SetTrafficControl(this);
            attached = true;
        }
    }
    if (Ptr<Ipv6L3Protocol> ipv6 = node->GetObject<Ipv6L3Protocol>())
    {
        const int32_t i = ipv6->GetInterfaceForDevice(device);
        if (i >= 0)
        {
            ipv6->GetInterface(i)->SetTrafficControl(this);
            attached = true;
        }
    }
    NS_ABORT_MSG_UNLESS(attached,
                        "GsoTrafficControlLayer: the device has no IPv4 or IPv6 interface; "
                        "attach after assigning addresses");
    device->AggregateObject(this);
}

const GsoTrafficControlLayer::Stats&
GsoTrafficControlLayer::GetStats() const
{
    return m_stats;
}

TcpTsoAutosize::Config
GsoTrafficControlLayer::GetAutosizeConfig() const
{
    TcpTsoAutosize::Config config;
    config.pacingShift = m_pacingShift;
    config.minTsoSegs = m_minTsoSegs;
    config.rttAllowance = m_rttAllowance;
    config.tsoRttLog = m_tsoRttLog;
    config.pacingSsRatio = m_pacingSsRatio;
    config.pacingCaRatio = m_pacingCaRatio;
    if (Ptr<NicNetDevice> nic = DynamicCast<NicNetDevice>(m_device))
    {
        const NicNetDevice::Offloads offloads = nic->GetOffloads();
        config.gsoMaxSize = offloads.gsoMaxSize;
        config.gsoMaxSegs = offloads.gsoMaxSegs;
    }
    return config;
}

bool
GsoTrafficControlLayer::FlowKey::operator==(const FlowKey& other) const
{
    return source == other.source && destination == other.destination &&
           sourcePort == other.sourcePort && destinationPort == other.destinationPort &&
           ipv6 == other.ipv6;
}

std::size_t
GsoTrafficControlLayer::FlowKeyHash::operator()(const FlowKey& key) const
{
    // FNV-1a over the tuple: only the layer's own table uses it.
    uint64_t hash = 1469598103934665603ULL;
    auto mix = [&hash](const uint8_t* data, std::size_t n) {
        for (std::size_t i = 0; i < n; i++)
        {
            hash = (hash ^ data[i]) * 1099511628211ULL;
        }
    };
    mix(key.source.data(), key.ipv6 ? 16 : 4);
    mix(key.destination.data(), key.ipv6 ? 16 : 4);
    const uint8_t ports[4] = {static_cast<uint8_t>(key.sourcePort >> 8),
                              static_cast<uint8_t>(key.sourcePort),
                              static_cast<uint8_t>(key.destinationPort >> 8),
                              static_cast<uint8_t>(key.destinationPort)};
    mix(ports, 4);
    return static_cast<std::size_t>(hash);
}

GsoTrafficControlLayer::Flow&
GsoTrafficControlLayer::GetFlow(const FlowKey& key)
{
    auto [it, inserted] = m_flows.try_emplace(key);
    Flow& flow = it->second;
    if (!inserted)
    {
        return flow;
    }
    flow.index = static_cast<uint32_t>(m_flowsByIndex.size());
    m_flowsByIndex.push_back(&flow);
    Address local;
    Address peer;
    if (key.ipv6)
    {
        std::array<uint8_t, 16> source = key.source;
        std::array<uint8_t, 16> destination = key.destination;
        local = Inet6SocketAddress(Ipv6Address(source.data()), key.sourcePort);
        peer = Inet6SocketAddress(Ipv6Address(destination.data()), key.destinationPort);
    }
    else
    {
        local = InetSocketAddress(Ipv4Address::Deserialize(key.source.data()), key.sourcePort);
        peer = InetSocketAddress(Ipv4Address::Deserialize(key.destination.data()),
                                 key.destinationPort);
    }
    flow.socket = FindTcpSocket(m_device->GetNode(), local, peer);
    if (!flow.socket)
    {
        NS_LOG_LOGIC("no local socket for the flow: its segments pass unchanged");
        return flow;
    }
    // The state when the flow first sends data: the initial window and threshold; the
    // traces keep it from here on.
    UintegerValue value;
    flow.socket->GetAttribute("SegmentSize", value);
    flow.mss = static_cast<uint32_t>(value.Get());
    flow.socket->GetAttribute("InitialCwnd", value);
    flow.cwnd = static_cast<uint32_t>(value.Get()) * flow.mss;
    flow.socket->GetAttribute("InitialSlowStartThreshold", value);
    flow.ssthresh = static_cast<uint32_t>(value.Get());
    flow.socket->TraceConnectWithoutContext("CongestionWindow",
                                            MakeBoundCallback(&SetCwnd, &flow.cwnd));
    flow.socket->TraceConnectWithoutContext("SlowStartThreshold",
                                            MakeBoundCallback(&SetCwnd, &flow.ssthresh));
    flow.socket->TraceConnectWithoutContext("BytesInFlight",
                                            MakeBoundCallback(&SetCwnd, &flow.inFlight));
    flow.socket->TraceConnectWithoutContext(
        "RTT",
        MakeBoundCallback(&SetRtt, &flow.srttUs, &flow.minRttUs));
    return flow;
}

uint64_t
GsoTrafficControlLayer::GetPacingRate(const TcpTsoAutosize::Config& config, const Flow& flow)
{
    const uint32_t mss = std::max(flow.mss, 1U);
    return TcpTsoAutosize::PacingRate(config,
                                      mss,
                                      flow.cwnd / mss,
                                      flow.inFlight / mss,
                                      flow.ssthresh / mss,
                                      static_cast<uint64_t>(flow.srttUs));
}

uint32_t
GsoTrafficControlLayer::GetTsoSegs(const Flow& flow) const
{
    const TcpTsoAutosize::Config config = GetAutosizeConfig();
    const uint32_t mss = std::max(flow.mss, 1U);
    const uint64_t rate = GetPacingRate(config, flow);
    // No RTT sample yet: tcp_min_rtt() is ~0U, no allowance.
    const uint64_t minRtt =
        flow.minRttUs == INT64_MAX ? UINT64_MAX : static_cast<uint64_t>(flow.minRttUs);
    return TcpTsoAutosize::Segments(config, rate, mss, minRtt);
}

void
GsoTrafficControlLayer::Send(Ptr<NetDevice> device, Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << device << item);
    if (Hold(item))
    {
        return;
    }
    // Held segments were sent first on this interface: they leave first.
    FlushAll();
    m_stats.passed++;
    m_next->Send(device, item);
}

bool
GsoTrafficControlLayer::TcpFields::Read(const Packet& packet)
{
    uint8_t bytes[60];
    const uint32_t n = packet.CopyData(bytes, sizeof(bytes));
    FlowKeys keys;
    if (!DissectL4(IPPROTO_TCP_NUMBER, bytes, n, keys))
    {
        return false; // no whole TCP header
    }
    headerLength = keys.tcpHeaderLength;
    sourcePort = keys.sourcePort;
    destinationPort = keys.destinationPort;
    sequence = keys.tcpSequence;
    ack = keys.tcpAck;
    flags = static_cast<uint8_t>(keys.tcpFlags & 0xff);
    window = static_cast<uint16_t>(bytes[14] << 8 | bytes[15]);
    options.fill(0);
    std::copy(bytes + keys.TcpOptionsOffset(),
              bytes + keys.TcpOptionsOffset() + keys.TcpOptionsLength(),
              options.begin());
    return true;
}

bool
GsoTrafficControlLayer::Hold(Ptr<QueueDiscItem> item)
{
    auto ip4 = DynamicCast<Ipv4QueueDiscItem>(item);
    auto ip6 = ip4 ? nullptr : DynamicCast<Ipv6QueueDiscItem>(item);
    FlowKey key;
    uint8_t protocol = 0;
    if (ip4)
    {
        protocol = ip4->GetHeader().GetProtocol();
        ip4->GetHeader().GetSource().Serialize(key.source.data());
        ip4->GetHeader().GetDestination().Serialize(key.destination.data());
    }
    else if (ip6)
    {
        protocol = ip6->GetHeader().GetNextHeader();
        ip6->GetHeader().GetSource().GetBytes(key.source.data());
        ip6->GetHeader().GetDestination().GetBytes(key.destination.data());
        key.ipv6 = true;
    }
    if (protocol != IPPROTO_TCP_NUMBER)
    {
        return false;
    }
    Ptr<Packet> packet = item->GetPacket();
    GroSegmentTag gro;
    const bool fromGro = packet->RemovePacketTag(gro) && gro.GetCount() > 1;
    TcpFields tcp;
    if (!tcp.Read(*packet))
    {
        return false;
    }
    const uint32_t payload = packet->GetSize() - tcp.headerLength;
    const uint8_t flags = tcp.flags;
    // tcp_gro_receive() and tcp_write_xmit() never join these: they go on alone.
    if (payload == 0 || (flags & (TcpHeader::SYN | TcpHeader::RST | TcpHeader::URG)) != 0)
    {
        if (payload == 0 && (flags & ~(TcpHeader::ECE | TcpHeader::CWR)) == TcpHeader::ACK)
        {
            m_stats.pureAcks++; // GRO's effect on the receiver shows here
        }
        return false;
    }
    key.sourcePort = tcp.sourcePort;
    key.destinationPort = tcp.destinationPort;
    uint32_t limit = 0;
    Flow* socketFlow = nullptr;
    if (fromGro)
    {
        limit = gro.GetCount();
    }
    else
    {
        Ptr<NicNetDevice> nic = DynamicCast<NicNetDevice>(m_device);
        if (!nic)
        {
            return false;
        }
        const NicNetDevice::Offloads offloads = nic->GetOffloads();
        // sk_can_gso() false: the socket sends MSS-sized skbs, through TSQ if it is on.
        const bool canGso = offloads.gso || offloads.tso;
        if (!canGso && !m_tsq)
        {
            return false;
        }
        Flow& flow = GetFlow(key);
        if (!flow.socket)
        {
            return false;
        }
        limit = canGso ? GetTsoSegs(flow) : 1;
        socketFlow = &flow;
    }

    auto held = std::find_if(m_trains.begin(), m_trains.end(), [&key](const Train& t) {
        return t.key == key;
    });
    bool joins = false;
    if (held != m_trains.end() && !held->closed && held->items.size() < held->limit &&
        (!fromGro || (held->groCount == gro.GetCount() && gro.GetIndex() == held->items.size())))
    {
        const TcpFields& first = held->first;
        // The segments of one skb share everything but the sequence number: ACK, window,
        // flags (CWR only on the first) and the option bytes (tcp_gro_receive()'s tests).
        joins = tcp.sequence == held->nextSeq && tcp.ack == first.ack &&
                tcp.window == first.window &&
                (flags & ~(TcpHeader::PSH | TcpHeader::FIN)) ==
                    (first.flags & ~TcpHeader::CWR & ~(TcpHeader::PSH | TcpHeader::FIN)) &&
                (flags & TcpHeader::CWR) == 0 && payload <= held->gsoSize &&
                item->GetAddress() == held->items.front()->GetAddress() &&
                tcp.headerLength == first.headerLength && tcp.options == first.options;
        if (joins && ip4)
        {
            auto front = StaticCast<Ipv4QueueDiscItem>(held->items.front());
            joins = ip4->GetHeader().GetTos() == front->GetHeader().GetTos() &&
                    ip4->GetHeader().GetTtl() == front->GetHeader().GetTtl();
        }
        else if (joins)
        {
            auto front = StaticCast<Ipv6QueueDiscItem>(held->items.front());
            joins = ip6->GetHeader().GetTrafficClass() == front->GetHeader().GetTrafficClass() &&
                    ip6->GetHeader().GetHopLimit() == front->GetHeader().GetHopLimit();
        }
    }
    if (held != m_trains.end() && !joins)
    {
        // The flow's earlier segments, and everything held before them, go first.
        const auto n = static_cast<std::size_t>(held - m_trains.begin()) + 1;
        std::vector<Train> older(std::make_move_iterator(m_trains.begin()),
                                 std::make_move_iterator(m_trains.begin() + n));
        m_trains.erase(m_trains.begin(), m_trains.begin() + n);
        for (Train& train : older)
        {
            SendTrain(train);
        }
        held = m_trains.end();
    }
    if (fromGro && held == m_trains.end() && gro.GetIndex() != 0)
    {
        return false; // the start of this GRO packet went elsewhere: no train to join
    }
    if (held == m_trains.end())
    {
        Train train;
        train.key = key;
        train.first = tcp;
        train.gsoSize = payload;
        train.limit = limit;
        train.groCount = fromGro ? gro.GetCount() : 0;
        train.flow = socketFlow;
        m_trains.push_back(std::move(train));
        held = m_trains.end() - 1;
    }
    if (!held->items.empty())
    {
        held->laterFlags |= flags & (TcpHeader::PSH | TcpHeader::FIN);
    }
    held->items.push_back(item);
    held->nextSeq = tcp.sequence + payload;
    held->closed = payload < held->gsoSize || (flags & (TcpHeader::PSH | TcpHeader::FIN)) != 0;
    if (held->closed || held->items.size() >= held->limit)
    {
        const auto n = static_cast<std::size_t>(held - m_trains.begin()) + 1;
        std::vector<Train> ready(std::make_move_iterator(m_trains.begin()),
                                 std::make_move_iterator(m_trains.begin() + n));
        m_trains.erase(m_trains.begin(), m_trains.begin() + n);
        for (Train& train : ready)
        {
            SendTrain(train);
        }
    }
    if (!m_trains.empty())
    {
        ScheduleFlush();
    }
    return true;
}

void
GsoTrafficControlLayer::SendTrain(Train& train)
{
    const auto segments = static_cast<uint32_t>(train.items.size());
    const uint32_t payload = train.nextSeq - train.first.sequence;
    if (segments == 1)
    {
        Forward(train.flow, train.items.front(), payload);
        return;
    }
    // tcp_write_xmit()'s skb, or the GRO skb: the first segment's headers, every payload,
    // the FIN and PSH of the last (tcp_gro_receive() ORs them in). The first header is
    // written again only if a flag changes, or to clear its checksum as AddHeader() does for
    // a header read back (with checksums on); otherwise its bytes stay as they are.
    Ptr<Packet> packet = train.items.front()->GetPacket()->Copy();
    const bool rewrite = (train.laterFlags & ~train.first.flags) != 0 || Node::ChecksumEnabled();
    TcpHeader tcp;
    if (rewrite)
    {
        packet->RemoveHeader(tcp);
    }
    // Every segment of a train has the first one's header length (its options are equal).
    const uint32_t headerLength = train.first.headerLength;
    for (uint32_t i = 1; i < segments; i++)
    {
        Ptr<const Packet> segment = train.items[i]->GetPacket();
        packet->AddAtEnd(segment->CreateFragment(headerLength, segment->GetSize() - headerLength));
    }
    if (rewrite)
    {
        tcp.SetFlags(tcp.GetFlags() | train.laterFlags);
        packet->AddHeader(tcp);
    }
    GsoTag gso(static_cast<uint16_t>(train.gsoSize), static_cast<uint16_t>(segments));
    packet->ReplacePacketTag(gso);
    Ptr<QueueDiscItem> front = train.items.front();
    Ptr<QueueDiscItem> super;
    if (auto ip4 = DynamicCast<Ipv4QueueDiscItem>(front))
    {
        Ipv4Header header = ip4->GetHeader();
        header.SetPayloadSize(static_cast<uint16_t>(packet->GetSize()));
        super =
            Create<Ipv4QueueDiscItem>(packet, front->GetAddress(), front->GetProtocol(), header);
    }
    else
    {
        Ipv6Header header = StaticCast<Ipv6QueueDiscItem>(front)->GetHeader();
        header.SetPayloadLength(static_cast<uint16_t>(packet->GetSize()));
        super =
            Create<Ipv6QueueDiscItem>(packet, front->GetAddress(), front->GetProtocol(), header);
    }
    if (train.groCount > 0)
    {
        m_stats.groPackets++;
        m_stats.groSegments += segments;
    }
    else
    {
        m_stats.superPackets++;
        m_stats.segmentsJoined += segments;
    }
    NS_LOG_LOGIC((train.groCount > 0 ? "GRO packet " : "super-packet ")
                 << segments << " x " << train.gsoSize << " bytes, " << super->GetSize());
    m_superPacketTrace(super, segments);
    Forward(train.flow, super, payload);
}

bool
GsoTrafficControlLayer::IsTsqEnabled() const
{
    return m_tsq;
}

void
GsoTrafficControlLayer::Forward(Flow* flow, Ptr<QueueDiscItem> item, uint32_t payload)
{
    if (!m_tsq || !flow)
    {
        m_next->Send(m_device, item);
        return;
    }
    if (!flow->throttled.empty() || IsTsqThrottled(*flow, payload))
    {
        // TSQ_THROTTLED: tcp_write_xmit() stops; the data stays in the socket.
        NS_LOG_LOGIC("TSQ: flow " << flow->index << " holds " << payload << " bytes with "
                                  << flow->wmem << " below it");
        m_stats.tsqThrottled++;
        flow->throttled.push_back(item);
        flow->throttledPayloads.push_back(payload);
        flow->throttledPayload += payload;
        return;
    }
    ChargeAndSend(*flow, item, payload);
}

bool
GsoTrafficControlLayer::IsTsqThrottled(const Flow& flow, uint32_t payload) const
{
    const uint64_t rate = GetPacingRate(GetAutosizeConfig(), flow);
    const TcpSmallQueues::Config config{m_pacingShift, m_limitOutputBytes};
    const uint64_t limit = TcpSmallQueues::Limit(config, TcpSmallQueues::Truesize(payload), rate);
    // The retransmit queue: what ns-3's TCP counts in flight less what the layer still
    // holds (this packet included).
    const uint64_t held = flow.throttledPayload + payload;
    const uint64_t sent = flow.inFlight > held ? flow.inFlight - held : 0;
    return TcpSmallQueues::Throttled(flow.wmem, limit, sent <= flow.lastPayload);
}

void
GsoTrafficControlLayer::ChargeAndSend(Flow& flow, Ptr<QueueDiscItem> item, uint32_t payload)
{
    if (!m_qdiscWatched)
    {
        // Every skb a queue disc drops is freed: tcp_wfree() gives its charge back.
        m_qdiscWatched = true;
        if (Ptr<QueueDisc> root = m_next->GetRootQueueDiscOnDevice(m_device))
        {
            root->TraceConnectWithoutContext(
                "DropBeforeEnqueue",
                MakeCallback(&GsoTrafficControlLayer::QueueDiscDrop, this));
            root->TraceConnectWithoutContext(
                "DropAfterDequeue",
                MakeCallback(&GsoTrafficControlLayer::QueueDiscDrop, this));
        }
    }
    const uint64_t truesize = TcpSmallQueues::Truesize(payload);
    TsqTag charge(m_layerId, flow.index, static_cast<uint32_t>(truesize));
    item->GetPacket()->ReplacePacketTag(charge);
    flow.wmem += truesize;
    flow.lastPayload = payload;
    m_tsqBytesTrace(flow.index, flow.wmem);
    m_next->Send(m_device, item);
}

void
GsoTrafficControlLayer::ReleaseTsq(Ptr<const Packet> packet)
{
    TsqTag tag;
    if (!packet->PeekPacketTag(tag) || tag.GetLayer() != m_layerId ||
        tag.GetFlow() >= m_flowsByIndex.size())
    {
        return;
    }
    Flow& flow = *m_flowsByIndex[tag.GetFlow()];
    flow.wmem -= std::min<uint64_t>(flow.wmem, tag.GetBytes());
    m_stats.tsqReleased++;
    m_tsqBytesTrace(flow.index, flow.wmem);
    if (!flow.throttled.empty() && !flow.handlerScheduled)
    {
        // tcp_wfree() queues the socket for the TSQ tasklet; it runs after the driver.
        flow.handlerScheduled = true;
        Simulator::ScheduleNow(&GsoTrafficControlLayer::TsqHandler, this, flow.index);
    }
}

void
GsoTrafficControlLayer::TsqHandler(uint32_t index)
{
    Flow& flow = *m_flowsByIndex[index];
    flow.handlerScheduled = false;
    while (!flow.throttled.empty())
    {
        const uint32_t payload = flow.throttledPayloads.front();
        flow.throttledPayload -= payload;
        if (IsTsqThrottled(flow, payload))
        {
            flow.throttledPayload += payload;
            return;
        }
        Ptr<QueueDiscItem> item = flow.throttled.front();
        flow.throttled.pop_front();
        flow.throttledPayloads.pop_front();
        // tcp_transmit_skb() stamps the segment when it really leaves the socket.
        TcpHeader tcp;
        Ptr<Packet> packet = item->GetPacket();
        packet->RemoveHeader(tcp);
        if (Ptr<const TcpOptionTS> ts =
                DynamicCast<const TcpOptionTS>(tcp.GetOption(TcpOption::TS)))
        {
            TcpHeader stamped;
            stamped.SetSourcePort(tcp.GetSourcePort());
            stamped.SetDestinationPort(tcp.GetDestinationPort());
            stamped.SetSequenceNumber(tcp.GetSequenceNumber());
            stamped.SetAckNumber(tcp.GetAckNumber());
            stamped.SetFlags(tcp.GetFlags());
            stamped.SetWindowSize(tcp.GetWindowSize());
            stamped.SetUrgentPointer(tcp.GetUrgentPointer());
            for (const Ptr<const TcpOption>& option : tcp.GetOptionList())
            {
                if (option->GetKind() != TcpOption::TS)
                {
                    stamped.AppendOption(option);
                }
            }
            Ptr<TcpOptionTS> now = CreateObject<TcpOptionTS>();
            now->SetTimestamp(TcpOptionTS::NowToTsValue());
            now->SetEcho(ts->GetEcho());
            stamped.AppendOption(now);
            tcp = stamped;
        }
        packet->AddHeader(tcp);
        ChargeAndSend(flow, item, payload);
    }
}

void
GsoTrafficControlLayer::QueueDiscDrop(Ptr<const QueueDiscItem> item, const char* /* reason */)
{
    ReleaseTsq(item->GetPacket());
}

void
GsoTrafficControlLayer::FlushAll()
{
    m_flushEvent.Cancel();
    // Moved out first: sending may, through the queue disc and the device, never re-enter
    // this layer, but the list must not change under the loop if it did.
    std::vector<Train> trains;
    trains.swap(m_trains);
    for (Train& train : trains)
    {
        SendTrain(train);
    }
}

void
GsoTrafficControlLayer::ScheduleFlush()
{
    if (!compat::IsPending(m_flushEvent))
    {
        m_flushEvent = Simulator::ScheduleNow(&GsoTrafficControlLayer::FlushAll, this);
    }
}

} // namespace debloat
} // namespace ns3
