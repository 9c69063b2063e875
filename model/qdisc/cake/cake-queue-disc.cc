/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cake-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/debloat-compat.h"
#include "ns3/enum.h"
#include "ns3/flow-dissector.h"
#include "ns3/gso-tag.h"
#include "ns3/integer.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/packet-mark-tag.h"
#include "ns3/psched.h"
#include "ns3/queue-disc-item-keys.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tc-options.h"
#include "ns3/tsq-tag.h"
#include "ns3/uinteger.h"

#include <iomanip>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("CakeQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(CakeQueueDisc);

/// EtherType of ARP.
static constexpr uint16_t ETHER_TYPE_ARP = 0x0806;

TypeId
CakeQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::CakeQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Debloat")
            .AddConstructor<CakeQueueDisc>()
            .AddAttribute("Bandwidth",
                          "bandwidth: the shaper's rate; 0 is unlimited (no shaping)",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&CakeQueueDisc::m_bandwidth),
                          MakeDataRateChecker())
            .AddAttribute("AutorateIngress",
                          "autorate-ingress: estimate the rate from the arrival pattern",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CakeQueueDisc::m_autorateIngress),
                          MakeBooleanChecker())
            .AddAttribute("Rtt",
                          "rtt: COBALT's interval; the target is rtt / 20",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&CakeQueueDisc::m_rtt),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("Diffserv",
                          "The tin preset",
                          EnumValue(DIFFSERV3),
                          compat::MakeEnumAccessor<Diffserv>(&CakeQueueDisc::m_diffserv),
                          MakeEnumChecker(DIFFSERV3,
                                          "diffserv3",
                                          DIFFSERV4,
                                          "diffserv4",
                                          DIFFSERV8,
                                          "diffserv8",
                                          BESTEFFORT,
                                          "besteffort",
                                          PRECEDENCE,
                                          "precedence"))
            .AddAttribute("FlowMode",
                          "The flow isolation mode",
                          EnumValue(TRIPLE_ISOLATE),
                          compat::MakeEnumAccessor<FlowMode>(&CakeQueueDisc::m_flowMode),
                          MakeEnumChecker(FLOWBLIND,
                                          "flowblind",
                                          SRCHOST,
                                          "srchost",
                                          DSTHOST,
                                          "dsthost",
                                          HOSTS,
                                          "hosts",
                                          FLOWS,
                                          "flows",
                                          DUAL_SRCHOST,
                                          "dual-srchost",
                                          DUAL_DSTHOST,
                                          "dual-dsthost",
                                          TRIPLE_ISOLATE,
                                          "triple-isolate"))
            .AddAttribute("Nat",
                          "nat: look up pre-NAT addresses (no effect in ns-3: no conntrack)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CakeQueueDisc::m_nat),
                          MakeBooleanChecker())
            .AddAttribute("Wash",
                          "wash: clear the DSCP of packets after classifying them",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CakeQueueDisc::m_wash),
                          MakeBooleanChecker())
            .AddAttribute("Ingress",
                          "ingress: dropped packets count against the rate",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CakeQueueDisc::m_ingress),
                          MakeBooleanChecker())
            .AddAttribute("AckFilter",
                          "The ACK filter mode",
                          EnumValue(NO_ACK_FILTER),
                          compat::MakeEnumAccessor<AckFilter>(&CakeQueueDisc::m_ackFilter),
                          MakeEnumChecker(NO_ACK_FILTER,
                                          "no-ack-filter",
                                          ACK_FILTER,
                                          "ack-filter",
                                          ACK_FILTER_AGGRESSIVE,
                                          "ack-filter-aggressive"))
            .AddAttribute("SplitGso",
                          "split-gso: split GSO super-packets into their segments",
                          BooleanValue(true),
                          MakeBooleanAccessor(&CakeQueueDisc::m_splitGso),
                          MakeBooleanChecker())
            .AddAttribute("MemLimit",
                          "memlimit: bytes of packet memory; 0 derives it from the rate",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CakeQueueDisc::m_memlimit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FwMark",
                          "fwmark: mask of the PacketMarkTag that selects the tin; 0 is off",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CakeQueueDisc::m_fwmark),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Overhead",
                          "overhead: bytes added to each packet's length (-64..256), as tc's "
                          "overhead N: with MacHeader auto a non-zero value first removes the "
                          "14-byte Ethernet header (overhead 18: 1514 -> 1518 bytes)",
                          IntegerValue(0),
                          MakeIntegerAccessor(&CakeQueueDisc::m_overhead),
                          MakeIntegerChecker<int32_t>(-64, 256))
            .AddAttribute("MacHeader",
                          "whether the Ethernet header is removed before Overhead is added "
                          "(the kernel's CAKE_FLAG_OVERHEAD): auto (as tc sets it: when "
                          "Overhead is not 0), strip (tc: overhead 0) or keep (tc: raw)",
                          EnumValue(MAC_HEADER_AUTO),
                          compat::MakeEnumAccessor<MacHeader>(&CakeQueueDisc::m_macHeader),
                          MakeEnumChecker(MAC_HEADER_AUTO,
                                          "auto",
                                          MAC_HEADER_STRIP,
                                          "strip",
                                          MAC_HEADER_KEEP,
                                          "keep"))
            .AddAttribute("Mpu",
                          "mpu: minimum accounted packet size after the overhead (0..256)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&CakeQueueDisc::m_mpu),
                          MakeUintegerChecker<uint32_t>(0, 256))
            .AddAttribute("Atm",
                          "Cell framing compensation",
                          EnumValue(NOATM),
                          compat::MakeEnumAccessor<Atm>(&CakeQueueDisc::m_atm),
                          MakeEnumChecker(NOATM, "noatm", ATM, "atm", PTM, "ptm"))
            .AddAttribute(
                "Options",
                "tc-cake options as one string, e.g. \"bandwidth 50Mbit diffserv4 "
                "dual-srchost nat ack-filter overhead 38 mpu 84\": setting it "
                "parses the words over the current attributes and sets the "
                "attributes they name; getting it gives the effective options as "
                "tc prints them",
                StringValue(""),
                MakeStringAccessor(&CakeQueueDisc::SetOptions, &CakeQueueDisc::GetOptions),
                MakeStringChecker())
            .AddTraceSource("FlowDrop",
                            "A packet dropped from a flow queue: the packet, its tin, its "
                            "queue (0..1023) and the drop reason",
                            MakeTraceSourceAccessor(&CakeQueueDisc::m_flowDropTrace),
                            "ns3::debloat::CakeQueueDisc::FlowDropTracedCallback")
            .AddTraceSource("FlowMark",
                            "A packet CE-marked by COBALT: the packet, its tin and its queue",
                            MakeTraceSourceAccessor(&CakeQueueDisc::m_flowMarkTrace),
                            "ns3::debloat::CakeQueueDisc::FlowMarkTracedCallback")
            .AddTraceSource("CobaltDropState",
                            "A flow queue's COBALT state entered or left the dropping state: "
                            "tin, queue, dropping (true: entered) and count after the change",
                            MakeTraceSourceAccessor(&CakeQueueDisc::m_dropStateTrace),
                            "ns3::debloat::CakeQueueDisc::DropStateTracedCallback");
    return tid;
}

CakeQueueDisc::CakeQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS),
      m_watchdog(this)
{
    NS_LOG_FUNCTION(this);
    m_uniform = CreateObject<UniformRandomVariable>();
}

CakeQueueDisc::~CakeQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

int64_t
CakeQueueDisc::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

void
CakeQueueDisc::DoDispose()
{
    m_watchdog.Cancel();
    m_scheduler.reset();
    m_list = nullptr;
    m_uniform = nullptr;
    QueueDisc::DoDispose();
}

uint32_t
CakeQueueDisc::GetTruesize(uint32_t len)
{
    // __alloc_skb() of a linear skb: data (NET_SKB_PAD headroom + len) and skb_shared_info,
    // each SKB_DATA_ALIGN()ed to the 64-byte cache line, plus the sk_buff itself.
    auto align = [](uint32_t bytes) { return (bytes + 63) & ~63U; };
    constexpr uint32_t NET_SKB_PAD = 64;
    constexpr uint32_t SHARED_INFO = 320;
    constexpr uint32_t SK_BUFF = 256;
    return align(NET_SKB_PAD + len) + SHARED_INFO + SK_BUFF;
}

CakeConfig
CakeQueueDisc::BuildConfig() const
{
    CakeConfig config;
    config.rate = m_bandwidth.GetBitRate() / 8;
    config.autorateIngress = m_autorateIngress;
    config.intervalNs = static_cast<uint64_t>(m_rtt.GetNanoSeconds());
    // tc: target = rtt / 20, at least 1 us.
    config.targetNs = std::max<uint64_t>(config.intervalNs / 20, 1000);
    config.diffserv = static_cast<CakeDiffservMode>(m_diffserv);
    config.flowMode = static_cast<CakeFlowMode>(m_flowMode);
    config.nat = m_nat;
    config.wash = m_wash;
    config.ingress = m_ingress;
    config.ackFilter = static_cast<CakeAckFilterMode>(m_ackFilter);
    config.splitGso = m_splitGso;
    config.memlimit = m_memlimit;
    config.fwmark = m_fwmark;
    config.linkLayer.overhead = m_overhead;
    config.linkLayer.mpu = m_mpu;
    config.linkLayer.atm = static_cast<CakeAtmMode>(m_atm);
    // CAKE_FLAG_OVERHEAD: tc sets it with any overhead value; auto reads "given" as non-zero.
    const bool strip =
        m_macHeader == MAC_HEADER_STRIP || (m_macHeader == MAC_HEADER_AUTO && m_overhead != 0);
    config.linkLayer.overheadSet = strip;
    config.linkLayer.raw = !strip;
    return config;
}

void
CakeQueueDisc::ApplyConfig(const CakeConfig& config)
{
    m_bandwidth = DataRate(config.rate * 8);
    m_autorateIngress = config.autorateIngress;
    m_rtt = NanoSeconds(static_cast<int64_t>(config.intervalNs));
    m_diffserv = static_cast<Diffserv>(config.diffserv);
    m_flowMode = static_cast<FlowMode>(config.flowMode);
    m_nat = config.nat;
    m_wash = config.wash;
    m_ingress = config.ingress;
    m_ackFilter = static_cast<AckFilter>(config.ackFilter);
    m_splitGso = config.splitGso;
    m_memlimit = config.memlimit;
    m_fwmark = config.fwmark;
    m_overhead = config.linkLayer.overhead;
    m_mpu = config.linkLayer.mpu;
    m_atm = static_cast<Atm>(config.linkLayer.atm);
    // Only whether the overhead applies from the network header on has an effect
    // (UsesNetworkOffset()); auto when that is what Overhead alone gives.
    const bool strip = UsesNetworkOffset(config.linkLayer);
    if (strip == (config.linkLayer.overhead != 0))
    {
        m_macHeader = MAC_HEADER_AUTO;
    }
    else
    {
        m_macHeader = strip ? MAC_HEADER_STRIP : MAC_HEADER_KEEP;
    }
}

bool
CakeQueueDisc::SameEffect(const CakeConfig& a, const CakeConfig& b)
{
    return a.rate == b.rate && a.autorateIngress == b.autorateIngress && a.targetNs == b.targetNs &&
           a.intervalNs == b.intervalNs && a.diffserv == b.diffserv && a.flowMode == b.flowMode &&
           a.nat == b.nat && a.wash == b.wash && a.ingress == b.ingress &&
           a.ackFilter == b.ackFilter && a.splitGso == b.splitGso && a.memlimit == b.memlimit &&
           a.fwmark == b.fwmark && a.linkLayer.overhead == b.linkLayer.overhead &&
           a.linkLayer.mpu == b.linkLayer.mpu && a.linkLayer.atm == b.linkLayer.atm &&
           UsesNetworkOffset(a.linkLayer) == UsesNetworkOffset(b.linkLayer);
}

void
CakeQueueDisc::SetOptions(std::string options)
{
    NS_LOG_FUNCTION(this << options);
    // cake_parse_opt() over the current settings, as `tc qdisc change` works on the kernel's.
    CakeConfig config = BuildConfig();
    try
    {
        ParseCakeOptions(config, options);
    }
    catch (const std::invalid_argument& error)
    {
        NS_ABORT_MSG("CakeQueueDisc: " << error.what());
    }
    ApplyConfig(config);
    NS_ABORT_MSG_UNLESS(SameEffect(BuildConfig(), config),
                        "CakeQueueDisc: options \"" << options
                                                    << "\" have no attribute equivalent");
    NS_LOG_INFO("Options \"" << options << "\" set the attributes to \""
                             << FormatCakeOptions(config) << "\"");
}

std::string
CakeQueueDisc::GetOptions() const
{
    // Only what differs from tc's defaults, so that an Options string of tc's words reads
    // back as given (in tc's order and spelling).
    return FormatCakeOptionChanges(BuildConfig());
}

bool
CakeQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, "CakeQueueDisc: cannot have classes");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "CakeQueueDisc: keeps its own internal queue; do not add one");
    NS_ABORT_MSG_IF(GetNPacketFilters() > 0,
                    "CakeQueueDisc: packet filters are not supported (tc filters that "
                    "override cake's flow or host are not modelled)");
    m_config = BuildConfig();
    NS_LOG_INFO("Configuration: " << FormatCakeOptions(m_config));
    Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface();
    Ptr<NetDevice> device = ndqi ? ndqi->GetObject<NetDevice>() : nullptr;
    const uint32_t mtu = PschedMtu(device);

    auto mark = [this](Item item) {
        const bool marked = Mark(m_list->Get(item), COBALT_MARK);
        NS_LOG_LOGIC("COBALT " << (marked ? "marked" : "could not mark") << " handle " << item);
        return marked;
    };
    auto drop = [this](Item item, uint32_t, CakeDropReason reason) { DropQueued(item, reason); };
    auto ackView = [this](Item item) -> const CakeAckPacket* {
        return m_isAck[item] ? &m_ackViews[item] : nullptr;
    };
    m_scheduler = std::make_unique<CakeScheduler>(m_config, mtu, 0, mark, drop, ackView);
    CakeObserver observer;
    observer.drop = [this](uint32_t tin, uint32_t queue, Item item, CakeDropReason reason) {
        NS_LOG_INFO("Drop from tin " << tin << " queue " << queue << ": " << ReasonString(reason));
        m_flowDropTrace(m_list->Get(item), tin, queue, ReasonString(reason));
    };
    observer.mark = [this](uint32_t tin, uint32_t queue, Item item) {
        NS_LOG_INFO("CE mark in tin " << tin << " queue " << queue);
        m_flowMarkTrace(m_list->Get(item), tin, queue);
    };
    observer.dropState = [this](uint32_t tin, uint32_t queue, bool dropping, uint32_t count) {
        NS_LOG_LOGIC("Tin " << tin << " queue " << queue << (dropping ? " enters" : " leaves")
                            << " the dropping state, count " << count);
        m_dropStateTrace(tin, queue, dropping, count);
    };
    m_scheduler->SetObserver(std::move(observer));

    m_list = CreateObject<QueueDiscItemList>();
    m_list->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, UINT32_MAX));
    AddInternalQueue(m_list);
    return true;
}

void
CakeQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // The kernel's flow hash key (hashrnd) is random per boot.
    auto draw = [this] {
        return (static_cast<uint64_t>(m_uniform->GetInteger(0, UINT32_MAX)) << 32) |
               m_uniform->GetInteger(0, UINT32_MAX);
    };
    m_key0 = draw();
    m_key1 = draw();
    m_scheduler->Seed(draw());
}

void
CakeQueueDisc::ValidateOptions(const std::string& options)
{
    CakeConfig config;
    ParseCakeOptions(config, options);
}

const CakeConfig&
CakeQueueDisc::GetConfig() const
{
    return m_config;
}

const CakeScheduler&
CakeQueueDisc::GetScheduler() const
{
    NS_ABORT_MSG_IF(!m_scheduler, "CakeQueueDisc: not initialized yet");
    return *m_scheduler;
}

const char*
CakeQueueDisc::ReasonString(CakeDropReason reason)
{
    switch (reason)
    {
    case CakeDropReason::CONGESTED:
        return COBALT_DROP;
    case CakeDropReason::FLOOD:
        return BLUE_DROP;
    case CakeDropReason::OVERLIMIT:
        return OVERLIMIT_DROP;
    case CakeDropReason::ACK_FILTER:
        return ACK_FILTER_DROP;
    }
    return OVERLIMIT_DROP;
}

void
CakeQueueDisc::DropQueued(Item item, CakeDropReason reason)
{
    // As FqCoDel does for a queued packet: out of the internal queue, then dropped.
    DropAfterDequeue(m_list->Take(item), ReasonString(reason));
}

void
CakeQueueDisc::Wash(QueueDiscItem* item)
{
    // The headers are the items' own copies until the device adds them to the packet
    // (Ipv4QueueDiscItem::AddHeader() computes the checksum then), so rewriting them here
    // is what ipv4_change_dsfield() does to the skb.
    if (auto* ip = dynamic_cast<Ipv4QueueDiscItem*>(item))
    {
        auto& header = const_cast<Ipv4Header&>(ip->GetHeader());
        header.SetTos(header.GetTos() & 3);
    }
    else if (auto* ip6 = dynamic_cast<Ipv6QueueDiscItem*>(item))
    {
        auto& header = const_cast<Ipv6Header&>(ip6->GetHeader());
        header.SetTrafficClass(header.GetTrafficClass() & 3);
    }
}

CakeClassification
CakeQueueDisc::Classify(const QueueDiscItem* item, const FlowKeys& keys) const
{
    CakeClassification where;
    uint32_t mark = 0;
    if (m_config.fwmark)
    {
        PacketMarkTag tag;
        if (item->GetPacket()->PeekPacketTag(tag))
        {
            mark = tag.GetMark();
        }
    }
    where.tin = m_scheduler->SelectTin(keys.dscp, keys.etherType == ETHER_TYPE_ARP, mark);
    NS_LOG_LOGIC("Tin " << where.tin << " for DSCP " << +keys.dscp << " mark " << mark);
    if (m_scheduler->NeedsFlowHash())
    {
        where.flowHash = FlowHash(keys, m_key0, m_key1);
    }
    if (m_scheduler->NeedsHostHashes())
    {
        if (m_scheduler->NeedsFlowHash())
        {
            // Dual and triple modes: the scheduler hashes the hosts when it assigns them.
            where.keys = &keys;
            where.key0 = m_key0;
            where.key1 = m_key1;
        }
        else
        {
            where.srcHostHash = SourceHostHash(keys, m_key0, m_key1);
            where.dstHostHash = DestinationHostHash(keys, m_key0, m_key1);
        }
    }
    return where;
}

bool
CakeQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    FlowKeys keys;
    QueueDiscItemFlowKeys(PeekPointer(item), keys);
    // A segment of a split GSO packet keeps the super-packet's classification (the kernel
    // classifies once, before splitting and with the DSCP before any washing).
    const CakeClassification where =
        m_enqueuingSegments ? m_segmentWhere : Classify(PeekPointer(item), keys);
    if (m_config.wash && keys.dscp)
    {
        Wash(PeekPointer(item));
    }
    CakePacketSize size;
    size.len = item->GetSize() + ETH_HLEN;
    size.networkOffset = ETH_HLEN;
    size.truesize = GetTruesize(size.len);
    GsoTag gso;
    if (item->GetPacket()->PeekPacketTag(gso) && gso.GetGsoSize() > 0)
    {
        if (m_config.splitGso)
        {
            return EnqueueSegments(item, where);
        }
        // Not split: the super-packet is accounted as its segments (cake_overhead()), each
        // with the link-layer, IP and TCP headers (hdr_len).
        uint8_t bytes[40 + 60];
        FlowKeys headers;
        const size_t length = QueueDiscItemNetworkBytes(PeekPointer(item), bytes, sizeof(bytes));
        Dissect(bytes, length, headers);
        size.gsoSize = gso.GetGsoSize();
        size.gsoSegs = gso.GetGsoSegs();
        // skb_transport_header() - skb_mac_header() + the TCP header (8 for UDP).
        size.gsoHeaderLen =
            ETH_HLEN + headers.l4Offset + (headers.protocol == 6 ? headers.tcpHeaderLength : 8);
    }
    const Item handle = m_list->Insert(item);
    if (handle >= m_isAck.size())
    {
        m_ackViews.resize(handle + 1);
        m_isAck.resize(handle + 1, false);
    }
    m_isAck[handle] = false;
    if (m_config.ackFilter != CakeAckFilterMode::NONE && keys.family != FlowKeys::Family::NONE)
    {
        // Every TCP packet of a flow takes part (ECE/CWR changes reset the filter's
        // candidate), 6in4 too: CakeAckPacketFromL3() decides what is TCP. The IP header and
        // the largest TCP header are what cake_get_tcphdr() reads.
        uint8_t bytes[40 + 60];
        const size_t length = QueueDiscItemNetworkBytes(PeekPointer(item), bytes, sizeof(bytes));
        m_isAck[handle] = CakeAckPacketFromL3(bytes, length, m_ackViews[handle]);
        NS_LOG_LOGIC("ACK filter candidate: " << (m_isAck[handle] ? "TCP" : "not TCP"));
    }
    // Drops this causes (an ACK, overflow, even this packet) reach DropQueued() at once.
    m_scheduler->Enqueue(Simulator::Now().GetNanoSeconds(),
                         where,
                         handle,
                         size,
                         m_enqueuingSegments);
    ArmWatchdog();
    return true;
}

bool
CakeQueueDisc::EnqueueSegments(Ptr<QueueDiscItem> item, const CakeClassification& where)
{
    const std::vector<Ptr<QueueDiscItem>> segments = GsoSegment(item);
    if (segments.empty())
    {
        // Not TCP over IP: skb_gso_segment() fails and cake_enqueue() drops it.
        DropBeforeEnqueue(item, GSO_ERROR_DROP);
        return false;
    }
    NS_LOG_LOGIC("split-gso: " << item->GetSize() << " bytes into " << segments.size()
                               << " segments");
    m_scheduler->RecordMaxLen(where.tin, item->GetSize() + ETH_HLEN);
    // ns-3 counts every packet handed to Enqueue() as enqueued or dropped: the segments go
    // through Enqueue() themselves, and the super-packet is accounted as consumed by the split.
    // Its socket charge went to the segments (tcp_gso_segment() moves the destructor).
    TsqTag charge;
    item->GetPacket()->RemovePacketTag(charge);
    DropBeforeEnqueue(item, GSO_SPLIT);
    m_enqueuingSegments = true;
    m_segmentWhere = where;
    for (const Ptr<QueueDiscItem>& segment : segments)
    {
        Enqueue(segment);
    }
    m_enqueuingSegments = false;
    return false;
}

uint64_t
CakeQueueDisc::GetTcDroppedPackets(const QueueDisc::Stats& stats)
{
    return stats.nTotalDroppedPackets - stats.GetNDroppedPackets(GSO_SPLIT);
}

Ptr<QueueDiscItem>
CakeQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    std::optional<Item> item = m_scheduler->Dequeue(Simulator::Now().GetNanoSeconds());
    ArmWatchdog();
    if (!item)
    {
        NS_LOG_LOGIC((m_scheduler->GetQlen() ? "The shaper holds the queue" : "Nothing to send"));
        return nullptr;
    }
    return m_list->Take(*item);
}

void
CakeQueueDisc::ArmWatchdog()
{
    if (const std::optional<int64_t> at = m_scheduler->TakeWatchdog())
    {
        NS_LOG_LOGIC("Watchdog at " << *at << " ns");
        m_watchdog.Schedule(*at);
    }
}

void
CakeQueueDisc::PrintStats(std::ostream& os, const std::string& parent)
{
    const Stats& stats = GetStats();
    os << "qdisc cake " << parent << " " << FormatCakeOptions(m_config) << "\n Sent "
       << stats.nTotalSentBytes << " bytes " << stats.nTotalSentPackets << " pkt (dropped "
       << GetTcDroppedPackets(stats) << ", overlimits "
       << (m_scheduler ? m_scheduler->GetOverlimits() : 0) << " requeues "
       << stats.nTotalRequeuedPackets << ")\n backlog " << GetNBytes() << "b " << GetNPackets()
       << "p requeues " << stats.nTotalRequeuedPackets << "\n";
    if (!m_scheduler)
    {
        return;
    }
    const CakeScheduler& s = *m_scheduler;
    // cake_print_xstats(): global statistics (min values print as u16 ~0 before any packet).
    auto u16 = [](uint32_t v) { return std::min<uint32_t>(v, 65535); };
    os << " memory used: " << FormatTcSize(s.GetBufferMaxUsed()) << " of "
       << FormatTcSize(s.GetBufferLimit())
       << "\n capacity estimate: " << FormatTcRate(s.GetCapacityEstimate() * 8)
       << "\n min/max network layer size: " << std::setw(12) << u16(s.GetMinNetLen()) << " /"
       << std::setw(8) << s.GetMaxNetLen() << "\n min/max overhead-adjusted size: " << std::setw(8)
       << u16(s.GetMinAdjLen()) << " /" << std::setw(8) << s.GetMaxAdjLen()
       << "\n average network hdr offset: " << std::setw(12) << s.GetAvgNetOffset() << "\n\n";

    const CakeTinLayout& layout = s.GetLayout();
    const uint32_t n = layout.tinCount;
    if (n == 3)
    {
        os << "                   Bulk  Best Effort        Voice\n";
    }
    else if (n == 4)
    {
        os << "                   Bulk  Best Effort        Video        Voice\n";
    }
    else
    {
        os << "          ";
        for (uint32_t i = 0; i < n; ++i)
        {
            os << "        Tin " << i;
        }
        os << "\n";
    }
    // Columns in tin_order, as cake_dump_stats() emits them.
    auto row = [&](const char* name, auto value) {
        os << name;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t tin = layout.tinOrder[i];
            os << " " << std::setw(12) << value(tin, s.GetTinStats(tin));
        }
        os << "\n";
    };
    auto us = [](uint64_t ns) { return FormatTcTime(ns / 1000 * 1000); };
    row("  thresh  ",
        [&](uint32_t t, const CakeTinStats&) { return FormatTcRate(layout.tins[t].rate * 8); });
    row("  target  ",
        [&](uint32_t t, const CakeTinStats&) { return us(layout.tins[t].cparams.target); });
    row("  interval",
        [&](uint32_t t, const CakeTinStats&) { return us(layout.tins[t].cparams.interval); });
    row("  pk_delay", [&](uint32_t, const CakeTinStats& st) { return us(st.peakDelay); });
    row("  av_delay", [&](uint32_t, const CakeTinStats& st) { return us(st.avgDelay); });
    row("  sp_delay", [&](uint32_t, const CakeTinStats& st) { return us(st.baseDelay); });
    row("  backlog ", [&](uint32_t, const CakeTinStats& st) { return FormatTcSize(st.backlog); });
    row("  pkts    ", [&](uint32_t, const CakeTinStats& st) { return st.packets; });
    row("  bytes   ", [&](uint32_t, const CakeTinStats& st) { return st.bytes; });
    row("  way_inds", [&](uint32_t, const CakeTinStats& st) { return st.wayHits; });
    row("  way_miss", [&](uint32_t, const CakeTinStats& st) { return st.wayMisses; });
    row("  way_cols", [&](uint32_t, const CakeTinStats& st) { return st.wayCollisions; });
    row("  drops   ", [&](uint32_t, const CakeTinStats& st) { return st.dropped; });
    row("  marks   ", [&](uint32_t, const CakeTinStats& st) { return st.ecnMarked; });
    row("  ack_drop", [&](uint32_t, const CakeTinStats& st) { return st.ackDrops; });
    row("  sp_flows",
        [&](uint32_t, const CakeTinStats& st) { return st.sparseFlows + st.decayingFlows; });
    row("  bk_flows", [&](uint32_t, const CakeTinStats& st) { return st.bulkFlows; });
    row("  un_flows", [&](uint32_t, const CakeTinStats& st) { return st.unresponsiveFlows; });
    row("  max_len ", [&](uint32_t, const CakeTinStats& st) { return st.maxSkbLen; });
    row("  quantum ", [&](uint32_t t, const CakeTinStats&) { return layout.tins[t].flowQuantum; });
}

void
CakeQueueDisc::PrintClassStats(std::ostream& os) const
{
    if (!m_scheduler)
    {
        return;
    }
    const CakeScheduler& s = *m_scheduler;
    const CakeTinLayout& layout = s.GetLayout();
    const int64_t now = Simulator::Now().GetNanoSeconds();
    // cake_walk(): classes are numbered in tin_order, 1024 per tin, from 1.
    for (uint32_t i = 0; i < layout.tinCount; ++i)
    {
        const uint32_t tin = layout.tinOrder[i];
        for (uint32_t q = 0; q < CAKE_QUEUES; ++q)
        {
            const auto flow = s.GetFlowStats(tin, q);
            if (flow.set == CakeFlowSet::NONE)
            {
                continue;
            }
            os << "class cake :" << std::hex << (i * CAKE_QUEUES + q + 1) << std::dec
               << " parent \n (dropped " << flow.dropped << ", overlimits 0 requeues 0)\n backlog "
               << flow.backlog << "b " << flow.qlen << "p requeues 0\n  deficit " << flow.deficit
               << " count " << flow.cvars.count;
            if (flow.cvars.dropping)
            {
                const int64_t next = (now - flow.cvars.dropNext) / 1000;
                os << " dropping drop_next " << (next < 0 ? "-" : "")
                   << FormatTcTime(static_cast<uint64_t>(next < 0 ? -next : next) * 1000);
            }
            os << " blue_prob " << flow.cvars.pDrop;
            if (flow.cvars.pDrop)
            {
                os << " blue_timer "
                   << FormatTcTime(static_cast<uint64_t>((now - flow.cvars.blueTimer) / 1000) *
                                   1000);
            }
            os << "\n";
        }
    }
}

} // namespace debloat
} // namespace ns3
