/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An Ethernet NIC and its Linux driver: TX descriptor rings with BQL, the driver's stop and
 * wake thresholds, TX completion through interrupt moderation and NAPI, and an RX ring.
 */

#include "nic-net-device.h"

#include "nic-channel.h"
#include "nic-device-queue.h"
#include "nic-rx-queue-tag.h"
#include "nic-tx-queue-tag.h"
#include "rss-hash.h"
#include "tx-queue-select.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/debloat-compat.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/flow-dissector.h"
#include "ns3/gso-tag.h"
#include "ns3/gso-traffic-control-layer.h"
#include "ns3/host-cpu.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-header.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nic-gro.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/psched.h"
#include "ns3/queue-disc-item-keys.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-item.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tc-options.h"
#include "ns3/tcp-header.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NicNetDevice");

NS_OBJECT_ENSURE_REGISTERED(NicNetDevice);

bool NicNetDevice::s_rxQueueRecording = false;

namespace
{

/// The CPU whose NET_RX softirq runs now (smp_processor_id() inside a NAPI poll), if any.
std::optional<uint32_t> g_softirqCpu;

/// Marks a NAPI poll's work as running on a CPU while in scope (scopes nest).
class SoftirqCpuScope
{
  public:
    /// @param cpu the CPU the poll runs on
    explicit SoftirqCpuScope(uint32_t cpu)
        : m_outer(g_softirqCpu)
    {
        g_softirqCpu = cpu;
    }

    ~SoftirqCpuScope()
    {
        g_softirqCpu = m_outer;
    }

    SoftirqCpuScope(const SoftirqCpuScope&) = delete;
    SoftirqCpuScope& operator=(const SoftirqCpuScope&) = delete;

  private:
    std::optional<uint32_t> m_outer; ///< the CPU of an enclosing poll
};

} // namespace

TypeId
NicNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::NicNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Debloat")
            .AddConstructor<NicNetDevice>()
            .AddAttribute("Address",
                          "The MAC address of this device",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&NicNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute("DataRate",
                          "Line rate (ethtool speed), e.g. 100Mbps or 1Gbps",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&NicNetDevice::m_dataRate),
                          MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "MTU in bytes: the largest packet without the Ethernet header",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&NicNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("MinFrameSize",
                          "Frames (without FCS) shorter than this are padded on the wire: "
                          "ETH_ZLEN 60 for Ethernet, 0 for the ideal profile",
                          UintegerValue(60),
                          MakeUintegerAccessor(&NicNetDevice::m_minFrameSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("L1Overhead",
                          "Bytes a frame holds the wire beyond its length: preamble and SFD 8 "
                          "+ FCS 4 + inter-frame gap 12 = 24 for Ethernet",
                          UintegerValue(24),
                          MakeUintegerAccessor(&NicNetDevice::m_l1Overhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AtmCells",
                          "The line carries ATM cells (ADSL): a frame plus L1Overhead fills "
                          "whole cells of 48 payload bytes, each 53 bytes on the line (set "
                          "L1Overhead to the encapsulation's bytes beyond the Ethernet header "
                          "and MinFrameSize to 0)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_atmCells),
                          MakeBooleanChecker())
            .AddAttribute("PerFrameOverhead",
                          "Wire time added to every frame, e.g. a wifi card's contention and "
                          "acknowledgement airtime",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&NicNetDevice::m_perFrameOverhead),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("TxQueues",
                          "Hardware TX queues, each with its ring, BQL and vector (1 to 64)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NicNetDevice::m_nTxQueues),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxRingSize",
                          "TX descriptors per queue (ethtool -G tx)",
                          UintegerValue(256),
                          MakeUintegerAccessor(&NicNetDevice::m_txRingSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxRingSize",
                          "RX descriptors per queue (ethtool -G rx)",
                          UintegerValue(256),
                          MakeUintegerAccessor(&NicNetDevice::m_rxRingSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxQueues",
                          "Hardware RX queues (ethtool -L rx, or combined with TxQueues), "
                          "each with its ring and its vector (RX queue i shares vector i with "
                          "TX queue i); RSS spreads the flows over them (1 to 64)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NicNetDevice::m_nRxQueues),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RssKey",
                          "The RSS hash key (ethtool -X hkey), 40 bytes as hex pairs "
                          "separated by colons; empty: drawn at random when the rings are "
                          "made, as netdev_rss_key_fill() does once per boot",
                          StringValue(""),
                          MakeStringAccessor(&NicNetDevice::m_rssKeyText),
                          MakeStringChecker())
            .AddAttribute("RecordRxQueue",
                          "The driver records each received frame's RX queue "
                          "(skb_record_rx_queue(), as igb and ixgbe do), so that a packet the "
                          "node forwards leaves on the TX queue of the same index "
                          "(skb_tx_hash()) instead of by its flow hash. Off by default, so "
                          "that earlier results stay as they were",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_recordRxQueue),
                          MakeBooleanChecker())
            .AddAttribute("XpsCpus",
                          "Transmit packet steering: for each TX queue, in order, the CPUs "
                          "that send on it as a hex mask (sysfs queues/tx-N/xps_cpus), "
                          "separated by commas, e.g. \"1,2,4,8\"; a packet sent on a CPU of "
                          "some mask takes that queue (one of them by its flow hash), before "
                          "skb_tx_hash(). Empty: no XPS",
                          StringValue(""),
                          MakeStringAccessor(&NicNetDevice::m_xpsCpusText),
                          MakeStringChecker())
            .AddAttribute("RssIndirection",
                          "The RSS indirection table as ethtool -X sets it: \"equal N\" "
                          "(entry i on queue i mod N), \"weight W0 W1 ...\" (runs of entries "
                          "in proportion to the weights) or \"default\"; empty: the default "
                          "(entry i on queue i mod RxQueues)",
                          StringValue(""),
                          MakeStringAccessor(&NicNetDevice::m_rssIndirectionText),
                          MakeStringChecker())
            .AddAttribute("RssUdpPorts",
                          "RSS hashes UDP ports too (ethtool -N rx-flow-hash udp4 sdfn); off "
                          "by default in igb and ixgbe, which hash UDP by addresses only",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_rssUdpPorts),
                          MakeBooleanChecker())
            .AddAttribute("TxMaxDataPerDescriptor",
                          "Data bytes one TX descriptor carries (e1000e 24 KiB, igb 32 KiB, "
                          "forcedeth 16 KiB, ag71xx on AR7100 512)",
                          UintegerValue(32768),
                          MakeUintegerAccessor(&NicNetDevice::m_txMaxDataPerDesc),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxContextDescriptor",
                          "Every packet also takes a context (checksum offload) descriptor",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_txContextDescriptor),
                          MakeBooleanChecker())
            .AddAttribute("TxStopThreshold",
                          "The driver stops the TX queue after a post that leaves fewer free "
                          "descriptors than this (room for a worst-case packet: e1000e 22, "
                          "igb 21)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NicNetDevice::m_txStopThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxWakeThreshold",
                          "TX completion wakes a stopped queue once at least this many "
                          "descriptors are free (e1000e 32, igb 42)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NicNetDevice::m_txWakeThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxWakeAtHalfStop",
                          "Wake a stopped queue once the used descriptors fall to half the "
                          "count at which it stops, recomputed for TxRingSize (mvneta: "
                          "tx_wake_threshold = tx_stop_threshold / 2); TxWakeThreshold is "
                          "then not used",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_txWakeAtHalfStop),
                          MakeBooleanChecker())
            .AddAttribute("TxRingGap",
                          "TX descriptors the driver never fills, so the tail never meets the "
                          "head: e1000_desc_unused() and igb_desc_unused() count size - used - 1 "
                          "free (1); 0 for drivers that fill every slot",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NicNetDevice::m_txRingGap),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxWorkLimit",
                          "TX packets one NAPI poll reclaims at most (igb 128)",
                          UintegerValue(256),
                          MakeUintegerAccessor(&NicNetDevice::m_txWorkLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("NapiWeight",
                          "RX packets one NAPI poll passes up at most (NAPI_POLL_WEIGHT 64)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&NicNetDevice::m_napiWeight),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxUsecs",
                          "ethtool -C tx-usecs: the TX interrupt fires this long after the "
                          "first completion it carries (0: off)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&NicNetDevice::m_txUsecs),
                          MakeTimeChecker())
            .AddAttribute("TxFrames",
                          "ethtool -C tx-frames: the TX interrupt fires once this many "
                          "completions are pending (0: off)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NicNetDevice::m_txFrames),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TxPacketDelay",
                          "A TX interrupt timer restarted by every completion (e1000e "
                          "TxIntDelay; 0: off)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&NicNetDevice::m_txPacketDelay),
                          MakeTimeChecker())
            .AddAttribute("RxUsecs",
                          "ethtool -C rx-usecs (0: off)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&NicNetDevice::m_rxUsecs),
                          MakeTimeChecker())
            .AddAttribute("RxFrames",
                          "ethtool -C rx-frames (0: off)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NicNetDevice::m_rxFrames),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RxPacketDelay",
                          "An RX interrupt timer restarted by every frame (e1000e RxIntDelay; "
                          "0: off)",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&NicNetDevice::m_rxPacketDelay),
                          MakeTimeChecker())
            .AddAttribute("InterruptRate",
                          "Maximum interrupts per second per vector (e1000e "
                          "InterruptThrottleRate, igb EITR); 0: unlimited",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NicNetDevice::m_interruptRate),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("SlowLinkInterruptRate",
                          "InterruptRate below 1 Gbit/s (e1000e and igb drop to 4000 ints/s "
                          "at 10 and 100 Mbit/s); 0: InterruptRate at every speed",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NicNetDevice::m_slowLinkInterruptRate),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DynamicItr",
                          "Adaptive interrupt throttle: none (InterruptRate applies), e1000e "
                          "or e1000e-conservative (InterruptThrottleRate 1 or 3), igb or "
                          "igb-conservative (itr_setting 1 or 3: igb_set_itr with one TX "
                          "queue, igb_update_ring_itr with more), ixgbe (rx-usecs 1: "
                          "ixgbe_set_itr at each poll's end)",
                          StringValue("none"),
                          MakeStringAccessor(&NicNetDevice::m_dynamicItr),
                          MakeStringChecker())
            .AddAttribute("CompletionAtTxStart",
                          "Reclaim a frame when it starts on the wire, without an interrupt, "
                          "as ns-3's PointToPointNetDevice reports it (the ideal profile)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_completionAtTxStart),
                          MakeBooleanChecker())
            .AddAttribute("NeedsArp",
                          "Whether IPv4 and IPv6 resolve the peer's address (ARP, NDP) before "
                          "sending (NetDevice::NeedsArp). Off: they send every packet to the "
                          "broadcast address, as over ns-3's PointToPointNetDevice, and the "
                          "peer takes it as a broadcast frame (the ideal profile).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&NicNetDevice::m_needsArp),
                          MakeBooleanChecker())
            .AddAttribute("RxAtArrival",
                          "Pass each frame up the stack when its last bit arrives, without an "
                          "RX ring, interrupt or NAPI poll, as ns-3's PointToPointNetDevice "
                          "does (the ideal profile). Frames take the NAPI path all the same "
                          "when GRO is on or a HostCpu runs the device's polls.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_rxAtArrival),
                          MakeBooleanChecker())
            .AddAttribute(
                "TsoSupport",
                "How the driver does TSO: none (software GSO only, the wifi card), "
                "hardware (a context descriptor, the NIC cuts the frames: e1000e, "
                "igb) or driver (the driver cuts it into per-segment descriptors: "
                "mvneta_tx_tso)",
                EnumValue(Offloads::TSO_NONE),
                compat::MakeEnumAccessor<Offloads::TsoSupport>(&NicNetDevice::m_tsoSupport),
                MakeEnumChecker(Offloads::TSO_NONE,
                                "none",
                                Offloads::TSO_HARDWARE,
                                "hardware",
                                Offloads::TSO_DRIVER,
                                "driver"))
            .AddAttribute("Tso",
                          "ethtool -K tso: the device takes TCP super-packets (needs "
                          "TsoSupport hardware or driver)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_tso),
                          MakeBooleanChecker())
            .AddAttribute("Gso",
                          "ethtool -K gso: the stack builds super-packets for this device and "
                          "segments them after the queue disc when Tso is off",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_gso),
                          MakeBooleanChecker())
            .AddAttribute("Gro",
                          "ethtool -K gro: the NAPI poll merges a flow's received segments",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_gro),
                          MakeBooleanChecker())
            .AddAttribute("GsoMaxSize",
                          "ip link gso_max_size: the largest super-packet the stack builds, "
                          "bytes (GSO_LEGACY_MAX_SIZE 65536)",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&NicNetDevice::m_gsoMaxSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("GsoMaxSegs",
                          "ip link gso_max_segs: the most segments in one super-packet "
                          "(GSO_MAX_SEGS 65535; mvneta MVNETA_MAX_TSO_SEGS 100)",
                          UintegerValue(65535),
                          MakeUintegerAccessor(&NicNetDevice::m_gsoMaxSegs),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("GroMaxSize",
                          "ip link gro_max_size: the largest packet GRO builds, bytes "
                          "(GRO_LEGACY_MAX_SIZE 65536)",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&NicNetDevice::m_groMaxSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TsoBqlPerFrame",
                          "A TSO super-packet counts for BQL (and the ring's bytes) as the bytes "
                          "of all its frames, each with its headers (igb_tso's bytecount), "
                          "rather than as skb->len",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_tsoBqlPerFrame),
                          MakeBooleanChecker())
            .AddAttribute("SoftirqDelay",
                          "Seconds from an interrupt to its NAPI poll (softirq scheduling)",
                          StringValue("ns3::ConstantRandomVariable[Constant=0.0]"),
                          MakePointerAccessor(&NicNetDevice::m_softirqDelay),
                          MakePointerChecker<RandomVariableStream>())
            .AddTraceSource("MacTx",
                            "A packet accepted by Send() for transmission",
                            MakeTraceSourceAccessor(&NicNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A packet Send() dropped",
                            MakeTraceSourceAccessor(&NicNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A packet passed up the stack",
                            MakeTraceSourceAccessor(&NicNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacPromiscRx",
                            "A packet passed to the promiscuous callback",
                            MakeTraceSourceAccessor(&NicNetDevice::m_macPromiscRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame starts on the wire",
                            MakeTraceSourceAccessor(&NicNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A frame's last bit left",
                            MakeTraceSourceAccessor(&NicNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame's last bit arrived",
                            MakeTraceSourceAccessor(&NicNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxDrop",
                            "A received frame was dropped (RX ring full or too big)",
                            MakeTraceSourceAccessor(&NicNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Frames sent and received, for pcap",
                            MakeTraceSourceAccessor(&NicNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Frames sent and received, promiscuously, for pcap",
                            MakeTraceSourceAccessor(&NicNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Drop",
                            "Every packet the device dropped, with the reason",
                            MakeTraceSourceAccessor(&NicNetDevice::m_dropTrace),
                            "ns3::debloat::NicNetDevice::DropTracedCallback")
            .AddTraceSource("TxRing",
                            "TX ring occupancy after each post and each clean: queue, "
                            "descriptors in use, bytes",
                            MakeTraceSourceAccessor(&NicNetDevice::m_txRingTrace),
                            "ns3::debloat::NicNetDevice::RingTracedCallback")
            .AddTraceSource("Interrupt",
                            "An interrupt: vector, TX completions and RX frames it carries",
                            MakeTraceSourceAccessor(&NicNetDevice::m_interruptTrace),
                            "ns3::debloat::NicNetDevice::InterruptTracedCallback")
            .AddTraceSource("Poll",
                            "A NAPI poll: vector, TX packets and bytes reclaimed, RX packets",
                            MakeTraceSourceAccessor(&NicNetDevice::m_pollTrace),
                            "ns3::debloat::NicNetDevice::PollTracedCallback")
            .AddTraceSource("GroReceive",
                            "GRO passed a held packet up: its segments and length (IP and TCP "
                            "headers once plus the payloads), bytes",
                            MakeTraceSourceAccessor(&NicNetDevice::m_groReceiveTrace),
                            "ns3::debloat::NicNetDevice::GroTracedCallback");
    return tid;
}

NicNetDevice::NicNetDevice()
{
    NS_LOG_FUNCTION(this);
    m_hashKey = CreateObject<UniformRandomVariable>();
}

NicNetDevice::~NicNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
NicNetDevice::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    CreateRings();
    // The node's CPU, when one is aggregated: polls then take its time (off by default).
    m_hostCpu = m_node ? m_node->GetObject<HostCpu>() : nullptr;
    if (m_hostCpu)
    {
        m_cpuPolls.assign(m_vectors.size(), CpuPoll());
        for (uint32_t queue = 0; queue < m_deviceQueues.size(); ++queue)
        {
            if (NicDeviceQueue* deviceQueue = m_nicQueues[queue])
            {
                deviceQueue->SetNetTxHook([this, queue]() { RaiseNetTx(queue); });
            }
        }
    }
    NetDevice::DoInitialize();
}

void
NicNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& vector : m_vectors)
    {
        vector.irqEvent.Cancel();
        vector.irqAt = VectorEvents::NONE;
        vector.pollEvent.Cancel();
        vector.pollPending = false;
    }
    m_driver = NicDriver();
    for (NicDeviceQueue* queue : m_nicQueues)
    {
        if (queue)
        {
            queue->SetNetTxHook(nullptr);
        }
    }
    m_deviceQueues.clear();
    m_nicQueues.clear();
    m_txSlots.clear();
    m_requeued.clear();
    m_wireTrain.clear();
    m_rxSlots.clear();
    m_vectors.clear();
    m_hostCpu = nullptr;
    m_cpuPolls.clear();
    m_ipv4 = nullptr;
    m_ipv4Interface = -1;
    m_nicGro.clear();
    m_tsqLayer = nullptr;
    m_node = nullptr;
    m_channel = nullptr;
    m_queueInterface = nullptr;
    m_softirqDelay = nullptr;
    m_hashKey = nullptr;
    NetDevice::DoDispose();
}

void
NicNetDevice::NotifyNewAggregate()
{
    NS_LOG_FUNCTION(this);
    if (!m_queueInterface)
    {
        m_queueInterface = GetObject<NetDeviceQueueInterface>();
    }
    if (!m_tsqLayer)
    {
        // A layer with TCP small queues gets the skbs the driver frees back.
        Ptr<GsoTrafficControlLayer> layer = GetObject<GsoTrafficControlLayer>();
        if (layer && layer->IsTsqEnabled())
        {
            m_tsqLayer = layer;
        }
    }
    NetDevice::NotifyNewAggregate();
}

void
NicNetDevice::CheckConfig() const
{
    NS_ABORT_MSG_IF(m_dataRate.GetBitRate() == 0,
                    "NicNetDevice: DataRate (ethtool speed) must be positive");
    NS_ABORT_MSG_IF(m_mtu < 68, "NicNetDevice: Mtu=" << m_mtu << " is below 68, the IPv4 minimum");
    NS_ABORT_MSG_IF(m_groMaxSize == 0 || m_groMaxSize > 65536,
                    "NicNetDevice: GroMaxSize=" << m_groMaxSize
                                                << " is out of range; accepted: 1 to 65536 "
                                                   "(BIG TCP is not modelled)");
    NS_ABORT_MSG_IF(m_tso && m_tsoSupport == Offloads::TSO_NONE,
                    "NicNetDevice: Tso=true needs TsoSupport hardware or driver; this "
                    "driver has none (ethtool -K tso: off [fixed])");
    NS_ABORT_MSG_IF((m_tso || m_gso) && (m_gsoMaxSize < 2 * m_mtu || m_gsoMaxSize > 65536),
                    "NicNetDevice: GsoMaxSize=" << m_gsoMaxSize
                                                << " is out of range; accepted: 2 x Mtu ("
                                                << 2 * m_mtu << ") to 65536");
    NS_ABORT_MSG_IF(m_gsoMaxSegs < 2 || m_gsoMaxSegs > 65535,
                    "NicNetDevice: GsoMaxSegs=" << m_gsoMaxSegs
                                                << " is out of range; accepted: 2 to 65535");
    const uint32_t ethernet = EthernetHeader(false).GetSerializedSize();
    const std::string rings = NicDriver::Validate(GetDriverConfig(),
                                                  m_mtu + ethernet,
                                                  m_tso ? m_gsoMaxSize + ethernet : 0,
                                                  m_gsoMaxSegs);
    NS_ABORT_MSG_IF(!rings.empty(), "NicNetDevice: " << rings);
    const std::string tx =
        InterruptModeration::Validate({m_txFrames, Ns(m_txPacketDelay), Ns(m_txUsecs), 0});
    NS_ABORT_MSG_IF(!tx.empty(),
                    "NicNetDevice: TxFrames="
                        << m_txFrames << ", TxUsecs=" << m_txUsecs.As(Time::US)
                        << ", TxPacketDelay=" << m_txPacketDelay.As(Time::US) << ": " << tx);
    const std::string rx =
        InterruptModeration::Validate({m_rxFrames, Ns(m_rxPacketDelay), Ns(m_rxUsecs), 0});
    NS_ABORT_MSG_IF(!rx.empty(),
                    "NicNetDevice: RxFrames="
                        << m_rxFrames << ", RxUsecs=" << m_rxUsecs.As(Time::US)
                        << ", RxPacketDelay=" << m_rxPacketDelay.As(Time::US) << ": " << rx);
    if (m_queueInterface)
    {
        NS_ABORT_MSG_IF(m_queueInterface->GetNTxQueues() != m_nTxQueues,
                        "NicNetDevice: TxQueues=" << m_nTxQueues
                                                  << " but the NetDeviceQueueInterface has "
                                                  << m_queueInterface->GetNTxQueues()
                                                  << " queues; install with NicHelper");
    }
}

NicDriver::Config
NicNetDevice::GetDriverConfig() const
{
    NicDriver::Config config;
    const bool slowLink = m_dataRate.GetBitRate() < 1000000000;
    config.txQueues = m_nTxQueues;
    config.rxQueues = m_nRxQueues;
    config.txRingSize = m_txRingSize;
    config.rxRingSize = m_rxRingSize;
    config.txMaxDataPerDescriptor = m_txMaxDataPerDesc;
    config.txContextDescriptor = m_txContextDescriptor;
    config.txStopThreshold = m_txStopThreshold;
    config.txWakeThreshold =
        m_txWakeAtHalfStop
            ? NicDriver::HalfStopWakeThreshold(m_txRingSize, m_txRingGap, m_txStopThreshold)
            : m_txWakeThreshold;
    config.txRingGap = m_txRingGap;
    config.txWorkLimit = m_txWorkLimit;
    config.napiWeight = m_napiWeight;
    config.txIrq = {m_txFrames, Ns(m_txPacketDelay), Ns(m_txUsecs), 0};
    config.rxIrq = {m_rxFrames, Ns(m_rxPacketDelay), Ns(m_rxUsecs), 0};
    config.interruptRate =
        slowLink && m_slowLinkInterruptRate != 0 ? m_slowLinkInterruptRate : m_interruptRate;
    config.linkBps = m_dataRate.GetBitRate();
    config.completionAtTxStart = m_completionAtTxStart;
    if (m_tso)
    {
        config.tso = m_tsoSupport == Offloads::TSO_HARDWARE ? NicDriver::Tso::HARDWARE
                     : m_tsoSupport == Offloads::TSO_DRIVER ? NicDriver::Tso::DRIVER
                                                            : NicDriver::Tso::NONE;
    }
    config.tsoBytesPerFrame = m_tsoBqlPerFrame;
    return config;
}

void
NicNetDevice::CreateRings()
{
    if (m_driver.GetNTxQueues() > 0)
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    CheckConfig();
    NicDriver::Config config = GetDriverConfig();
    NS_ABORT_MSG_UNLESS(DynamicItr::Parse(m_dynamicItr, config.itrMode),
                        "NicNetDevice: DynamicItr=" << m_dynamicItr
                                                    << " is unknown; accepted: none, e1000e, "
                                                       "e1000e-conservative, igb, "
                                                       "igb-conservative, ixgbe");
    m_driver.Configure(config);
    m_deviceQueues.assign(m_nTxQueues, nullptr);
    m_nicQueues.assign(m_nTxQueues, nullptr);
    for (uint32_t i = 0; m_queueInterface && i < m_nTxQueues; i++)
    {
        m_deviceQueues[i] = m_queueInterface->GetTxQueue(i);
        m_nicQueues[i] = PeekPointer(DynamicCast<NicDeviceQueue>(m_deviceQueues[i]));
    }
    m_txSlots.assign(m_nTxQueues, std::vector<TxSlot>(m_txRingSize));
    m_requeued.assign(m_nTxQueues, std::deque<PendingSegment>());
    m_rxSlots.assign(m_nRxQueues, std::vector<Ptr<Packet>>(m_rxRingSize));
    m_vectors.assign(m_driver.GetNVectors(), VectorEvents());
    for (uint32_t v = 0; v < m_vectors.size(); v++)
    {
        m_vectors[v].irqEvent.Bind(&NicNetDevice::Interrupt, this, v);
        m_vectors[v].pollEvent.Bind(&NicNetDevice::Poll, this, v);
    }
    m_hashSalt = m_hashKey->GetInteger(0, UINT32_MAX);
    s_rxQueueRecording = s_rxQueueRecording || m_recordRxQueue;
    ConfigureRss();
    ConfigureXps();
    m_nicGro.clear();
    for (uint32_t i = 0; m_gro && i < m_nRxQueues; i++)
    {
        m_nicGro.push_back(std::make_unique<NicGro>(*this, m_groMaxSize));
    }
}

void
NicNetDevice::ConfigureRss()
{
    std::vector<uint8_t> key = RssHash::DefaultKey();
    if (m_rssKeyText.empty())
    {
        if (m_nRxQueues <= 1 && m_rssIndirectionText.empty())
        {
            return; // no RSS: nothing drawn, so the streams give what they gave before RSS
        }
        key.clear();
        // netdev_rss_key_fill(): random bytes, drawn after the flow-hash key.
        for (std::size_t i = 0; i < RssHash::MIN_KEY_BYTES; i++)
        {
            key.push_back(static_cast<uint8_t>(m_hashKey->GetInteger(0, 255)));
        }
    }
    else
    {
        key.clear();
        std::istringstream words(m_rssKeyText);
        std::string byte;
        while (std::getline(words, byte, ':'))
        {
            const std::optional<uint64_t> value = ParseHexDigits(byte, 2);
            NS_ABORT_MSG_IF(!value,
                            "NicNetDevice: RssKey="
                                << m_rssKeyText << ": \"" << byte << "\" is not a byte; accepted: "
                                << RssHash::MIN_KEY_BYTES << " hex pairs separated by colons");
            key.push_back(static_cast<uint8_t>(*value));
        }
        NS_ABORT_MSG_IF(key.size() != RssHash::MIN_KEY_BYTES,
                        "NicNetDevice: RssKey=" << m_rssKeyText << " has " << key.size()
                                                << " bytes; accepted: " << RssHash::MIN_KEY_BYTES
                                                << " hex pairs separated by colons");
    }
    m_rss.Configure(m_nRxQueues, key);
    if (!m_rssIndirectionText.empty())
    {
        std::string error;
        try
        {
            m_rss.SetIndirection(
                RssHash::ParseIndirection(m_rssIndirectionText, m_rss.GetTableSize(), m_nRxQueues));
        }
        catch (const std::invalid_argument& invalid)
        {
            error = invalid.what();
        }
        NS_ABORT_MSG_IF(!error.empty(), "NicNetDevice: RssIndirection: " << error);
    }
}

void
NicNetDevice::ConfigureXps()
{
    m_xpsQueues.clear();
    if (m_xpsCpusText.empty())
    {
        return;
    }
    const std::string accepted =
        "one hex CPU mask per TX queue (at most TxQueues=" + std::to_string(m_nTxQueues) +
        "), separated by commas, such as 1,2,4,8";
    std::istringstream masks(m_xpsCpusText);
    std::string mask;
    for (uint32_t queue = 0; std::getline(masks, mask, ','); ++queue)
    {
        const std::optional<uint64_t> cpus = ParseHexDigits(mask, 16);
        NS_ABORT_MSG_IF(!cpus,
                        "NicNetDevice: XpsCpus=" << m_xpsCpusText << ": \"" << mask
                                                 << "\" is not a CPU mask; accepted: " << accepted);
        NS_ABORT_MSG_IF(queue >= m_nTxQueues,
                        "NicNetDevice: XpsCpus=" << m_xpsCpusText << " has more masks than TX "
                                                 << "queues; accepted: " << accepted);
        for (uint32_t cpu = 0; cpu < 64; ++cpu)
        {
            if (*cpus >> cpu & 1)
            {
                m_xpsQueues.resize(std::max<std::size_t>(m_xpsQueues.size(), cpu + 1));
                m_xpsQueues[cpu].push_back(static_cast<uint16_t>(queue));
            }
        }
    }
}

uint32_t
NicNetDevice::TransmitCpu(Ptr<const QueueDiscItem> item)
{
    // Inside a poll the transmit runs in that CPU's softirq: a forwarded packet, or a TCP
    // segment an ACK released. Otherwise the sending process's CPU, which the model picks
    // by the flow's hash as ChargeLocalXmit() does (CPU 0 without a HostCpu).
    if (g_softirqCpu)
    {
        return *g_softirqCpu;
    }
    auto ipv4 = DynamicCast<const Ipv4QueueDiscItem>(item);
    if (!m_hostCpu || !ipv4)
    {
        return 0;
    }
    uint8_t head[24] = {};
    const Ipv4Header& header = ipv4->GetHeader();
    head[9] = header.GetProtocol();
    header.GetSource().Serialize(head + 12);
    header.GetDestination().Serialize(head + 16);
    item->GetPacket()->CopyData(head + 20, 4);
    return ProcessCore(head);
}

uint32_t
NicNetDevice::ProcessCore(const uint8_t* head) const
{
    const uint32_t cores = m_hostCpu->GetNCores();
    if (cores == 1)
    {
        return 0; // what ReciprocalScale() gives for one core, without the hash
    }
    uint32_t hash = 2166136261U; // FNV-1a over the addresses, protocol and ports
    for (const uint32_t i : {9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})
    {
        hash = (hash ^ head[i]) * 16777619U;
    }
    return ReciprocalScale(hash, cores);
}

uint32_t
NicNetDevice::SelectRxQueue(Ptr<const Packet> frame)
{
    CreateRings();
    if (m_nRxQueues <= 1)
    {
        return 0;
    }
    // The hardware's RSS: the Toeplitz hash of the addresses, and of the ports for TCP (and
    // UDP when configured), not of fragments; other frames go to queue 0.
    uint8_t head[14 + 128] = {};
    const uint32_t copied = frame->CopyData(head, sizeof(head));
    FlowKeys keys;
    if (copied < 14)
    {
        return 0;
    }
    keys.etherType = ReadBe16(head + 12);
    if (!Dissect(head + 14, copied - 14, keys))
    {
        return 0;
    }
    const bool ports =
        !keys.fragment && (keys.protocol == 6 || (keys.protocol == 17 && m_rssUdpPorts));
    uint32_t hash = 0;
    if (keys.family == FlowKeys::Family::IPV4)
    {
        const uint32_t source = ReadBe32(keys.source.data());
        const uint32_t destination = ReadBe32(keys.destination.data());
        hash = ports ? m_rss.HashIpv4(source, destination, keys.sourcePort, keys.destinationPort)
                     : m_rss.HashIpv4(source, destination);
    }
    else if (keys.family == FlowKeys::Family::IPV6)
    {
        hash = ports ? m_rss.HashIpv6(keys.source,
                                      keys.destination,
                                      keys.sourcePort,
                                      keys.destinationPort)
                     : m_rss.HashIpv6(keys.source, keys.destination);
    }
    else
    {
        return 0;
    }
    return m_rss.SelectQueue(hash);
}

int64_t
NicNetDevice::Ns(Time t)
{
    return t.GetNanoSeconds();
}

uint32_t
NicNetDevice::GetTxDescriptors(uint32_t length) const
{
    return NicDriver::CountTxDescriptors(length, m_txMaxDataPerDesc, m_txContextDescriptor);
}

Time
NicNetDevice::GetWireTime(uint32_t length) const
{
    return NanoSeconds(NicDriver::GetWireTime(length,
                                              m_minFrameSize,
                                              m_l1Overhead,
                                              m_dataRate.GetBitRate(),
                                              m_atmCells)) +
           m_perFrameOverhead;
}

std::size_t
NicNetDevice::SelectTxQueue(Ptr<QueueItem> item)
{
    CreateRings(); // the flow-hash key is drawn with the rings
    Ptr<QueueDiscItem> discItem = DynamicCast<QueueDiscItem>(item);
    if (!discItem || m_nTxQueues <= 1)
    {
        return 0;
    }
    // netdev_pick_tx(): get_xps_queue() first, the queues the sending CPU's mask names (one of
    // several by reciprocal_scale() of the flow hash), then skb_tx_hash().
    if (!m_xpsQueues.empty())
    {
        const uint32_t cpu = TransmitCpu(discItem);
        if (cpu < m_xpsQueues.size() && !m_xpsQueues[cpu].empty())
        {
            const std::vector<uint16_t>& queues = m_xpsQueues[cpu];
            const uint16_t queue =
                queues.size() == 1 ? queues.front()
                                   : queues[ReciprocalScale(
                                         QueueDiscItemTupleHash(PeekPointer(discItem), m_hashSalt),
                                         static_cast<uint32_t>(queues.size()))];
            NicTxQueueTag::Set(item->GetPacket(), queue);
            return queue;
        }
    }
    // skb_tx_hash(): a packet whose RX queue was recorded (a forwarded one) leaves on that
    // queue, folded into the TX queues; otherwise reciprocal_scale() of the flow hash.
    uint16_t rxQueue = 0;
    if (s_rxQueueRecording && NicRxQueueTag::Get(item->GetPacket(), rxQueue) &&
        IsForwarded(discItem))
    {
        const auto queue = static_cast<uint16_t>(rxQueue % m_nTxQueues);
        NicTxQueueTag::Set(item->GetPacket(), queue);
        return queue;
    }
    // ns-3's flow hash (Ipv4QueueDiscItem::Hash()), read as the flow dissector reads ports.
    const uint32_t hash = QueueDiscItemTupleHash(PeekPointer(discItem), m_hashSalt);
    const auto queue = static_cast<uint16_t>(ReciprocalScale(hash, m_nTxQueues));
    NicTxQueueTag::Set(item->GetPacket(), queue);
    return queue;
}

bool
NicNetDevice::IsForwarded(Ptr<const QueueDiscItem> item)
{
    // A packet the node made (a reply of a local application included) is a new skb with
    // no record; only a received packet on its way out again keeps it.
    auto ipv4 = DynamicCast<const Ipv4QueueDiscItem>(item);
    return !ipv4 || !Ipv4Stack() || !IsLocalSource(ipv4->GetHeader().GetSource());
}

void
NicNetDevice::Drop(Ptr<const Packet> packet, DropReason reason)
{
    NS_LOG_DEBUG("drop " << packet << " reason " << reason);
    if (m_tsqLayer)
    {
        m_tsqLayer->ReleaseTsq(packet);
    }
    switch (reason)
    {
    case TX_RING_FULL:
    case TX_TOO_BIG:
    case TX_LINK_DOWN:
        m_stats.txDropped++;
        m_macTxDropTrace(packet);
        break;
    case RX_MISSED:
        m_stats.rxMissed++;
        m_phyRxDropTrace(packet);
        break;
    case RX_TOO_BIG:
        m_stats.rxDropped++;
        m_phyRxDropTrace(packet);
        break;
    }
    m_dropTrace(packet, reason);
}

bool
NicNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    const bool sent = Transmit(packet, m_address, Mac48Address::ConvertFrom(dest), protocolNumber);
    SpendNetTxQuota();
    return sent;
}

bool
NicNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    const bool sent = Transmit(packet,
                               Mac48Address::ConvertFrom(source),
                               Mac48Address::ConvertFrom(dest),
                               protocolNumber);
    SpendNetTxQuota();
    return sent;
}

void
NicNetDevice::SpendNetTxQuota()
{
    // __qdisc_run(): quota -= packets after each qdisc_restart(); at zero the run ends.
    if (m_netTxQuota && *m_netTxQuota > 0 && --*m_netTxQuota == 0)
    {
        SetQuotaExhausted(true);
    }
}

void
NicNetDevice::SetQuotaExhausted(bool exhausted)
{
    for (NicDeviceQueue* queue : m_nicQueues)
    {
        if (queue)
        {
            queue->SetQuotaExhausted(exhausted);
        }
    }
}

bool
NicNetDevice::Transmit(Ptr<Packet> packet,
                       Mac48Address source,
                       Mac48Address dest,
                       uint16_t protocolNumber)
{
    CreateRings();
    if (s_rxQueueRecording)
    {
        // The skb ends here: the next node's driver records its own queue, or none.
        NicRxQueueTag tag;
        packet->RemovePacketTag(tag);
    }
    // SelectQueue() tags a packet only on a device of several TX queues: with one, there is
    // no tag to look for (a search of the packet's tags per frame).
    uint16_t chosen = 0;
    const uint32_t queue = m_nTxQueues > 1 && NicTxQueueTag::Take(packet, chosen)
                               ? std::min<uint32_t>(chosen, m_nTxQueues - 1)
                               : 0;
    if (m_hostCpu)
    {
        ChargeLocalXmit(packet, protocolNumber);
    }
    if (!m_channel)
    {
        Drop(packet, TX_LINK_DOWN);
        return false;
    }
    // Segments requeued earlier leave first (qdisc_restart() takes q->gso_skb first).
    if (!m_requeued[queue].empty() && !DrainRequeued(queue))
    {
        // Only a sender that ignores the stopped queue gets here.
        Drop(packet, TX_RING_FULL);
        return false;
    }
    NicDriver::TxPacket tx{packet->GetSize() + ETH_HLEN, 1, 0, 0};
    GsoTag gso;
    if (packet->PeekPacketTag(gso) && gso.GetGsoSegs() > 1)
    {
        if (m_driver.GetConfig().tso == NicDriver::Tso::NONE)
        {
            // validate_xmit_skb(): netif_needs_gso(), so skb_gso_segment() in software.
            const std::vector<Ptr<Packet>> segments = GsoSegmentPacket(packet, protocolNumber);
            if (segments.empty() || segments.front()->GetSize() > m_mtu)
            {
                Drop(packet, TX_TOO_BIG); // not TCP over IP, or segments above the MTU
                return false;
            }
            m_macTxTrace(packet);
            m_stats.gsoPackets++;
            m_stats.gsoSegments += segments.size();
            TransmitSegments(queue, segments, source, dest, protocolNumber);
            return true;
        }
        if (!GetTsoFrame(packet, protocolNumber, gso, tx))
        {
            Drop(packet, TX_TOO_BIG);
            return false;
        }
    }
    else if (packet->GetSize() > m_mtu)
    {
        Drop(packet, TX_TOO_BIG);
        return false;
    }
    m_macTxTrace(packet);
    if (tx.segs > 1)
    {
        m_stats.tsoPackets++;
        m_stats.tsoSegments += tx.segs;
    }
    return PostFrame(queue, packet, source, dest, protocolNumber, tx);
}

bool
NicNetDevice::GetTsoFrame(Ptr<const Packet> packet,
                          uint16_t protocolNumber,
                          const GsoTag& gso,
                          NicDriver::TxPacket& tx) const
{
    // hdr_len: the Ethernet, IP and TCP headers each frame carries (igb_tso, e1000_tso),
    // read from the header bytes (ns-3's TcpHeader would build an object per option).
    uint8_t bytes[60 + 60];
    const uint32_t n = packet->CopyData(bytes, sizeof(bytes));
    FlowKeys keys;
    // Only TCP super-packets (NETIF_F_TSO, NETIF_F_TSO6), IPv6 without extension headers.
    if ((protocolNumber != 0x0800 && protocolNumber != 0x86DD) || !Dissect(bytes, n, keys) ||
        keys.etherType != protocolNumber || keys.protocol != 6 || keys.tcpHeaderLength == 0 ||
        (protocolNumber == 0x86DD && keys.l4Offset != 40))
    {
        return false;
    }
    const uint32_t headers = keys.l4Offset + keys.tcpHeaderLength;
    if (headers >= packet->GetSize())
    {
        return false;
    }
    const uint32_t payload = packet->GetSize() - headers;
    // Each frame must fit the MTU; the frame count is what the payload makes of gso_size.
    if (headers + gso.GetGsoSize() > m_mtu || gso.GetGsoSize() == 0 || payload == 0)
    {
        return false;
    }
    tx.segs = (payload + gso.GetGsoSize() - 1) / gso.GetGsoSize();
    tx.headerLength = ETH_HLEN + headers;
    tx.gsoSize = gso.GetGsoSize();
    return true;
}

void
NicNetDevice::TransmitSegments(uint32_t queue,
                               const std::vector<Ptr<Packet>>& segments,
                               Mac48Address source,
                               Mac48Address dest,
                               uint16_t protocolNumber)
{
    // dev_hard_start_xmit(): the list goes to the driver one segment at a time; once the
    // driver has stopped the queue (netif_tx_queue_stopped(): DRV_XOFF only, BQL's
    // STACK_XOFF does not break the loop) the rest is requeued (dev_requeue_skb()) and
    // sent first when the queue runs again (dequeue_skb() takes q->gso_skb first).
    for (std::size_t i = 0; i < segments.size(); i++)
    {
        if (i > 0 && m_driver.IsStopped(queue))
        {
            for (; i < segments.size(); i++)
            {
                m_requeued[queue].push_back({segments[i], source, dest, protocolNumber});
            }
            NS_LOG_LOGIC("txq " << queue << " stopped: " << m_requeued[queue].size()
                                << " GSO segments requeued");
            return;
        }
        PostFrame(queue,
                  segments[i],
                  source,
                  dest,
                  protocolNumber,
                  {segments[i]->GetSize() + ETH_HLEN, 1, 0, 0});
    }
}

bool
NicNetDevice::IsTxQueueStopped(uint32_t queue) const
{
    const Ptr<NetDeviceQueue>& deviceQueue = m_deviceQueues[queue];
    return deviceQueue ? deviceQueue->IsStopped() : m_driver.IsStopped(queue);
}

bool
NicNetDevice::DrainRequeued(uint32_t queue)
{
    std::deque<PendingSegment>& pending = m_requeued[queue];
    while (!pending.empty())
    {
        if (IsTxQueueStopped(queue))
        {
            return false;
        }
        const PendingSegment segment = pending.front();
        pending.pop_front();
        PostFrame(queue,
                  segment.packet,
                  segment.source,
                  segment.dest,
                  segment.protocol,
                  {segment.packet->GetSize() + ETH_HLEN, 1, 0, 0});
    }
    return true;
}

bool
NicNetDevice::PostFrame(uint32_t queue,
                        Ptr<Packet> packet,
                        Mac48Address source,
                        Mac48Address dest,
                        uint16_t protocolNumber,
                        const NicDriver::TxPacket& tx)
{
    EthernetHeader header(false);
    header.SetSource(source);
    header.SetDestination(dest);
    header.SetLengthType(protocolNumber);
    packet->AddHeader(header);

    // ndo_start_xmit: post the descriptors, tell BQL, stop if a worst-case packet won't fit.
    uint32_t slot = 0;
    if (!m_driver.PostTx(queue, tx, slot))
    {
        // Only a sender that ignores the stopped queue gets here.
        Drop(packet, TX_RING_FULL);
        return false;
    }
    m_txSlots[queue][slot] = {packet, tx.segs};
    Ptr<NetDeviceQueue> deviceQueue = m_deviceQueues[queue];
    if (deviceQueue)
    {
        deviceQueue->NotifyQueuedBytes(NicDriver::GetTxBytes(m_driver.GetConfig(), tx));
    }
    TraceRing(queue);
    if (m_driver.MaybeStop(queue))
    {
        NS_LOG_LOGIC("txq " << queue << " stopped with " << m_driver.GetTxUnused(queue) << " free");
        if (deviceQueue)
        {
            deviceQueue->Stop();
        }
    }
    StartNextFrame();
    return true;
}

void
NicNetDevice::StartNextFrame()
{
    const NicDriver::Frame next = m_driver.StartFrame();
    if (!next.started)
    {
        return;
    }
    const TxSlot& slot = m_txSlots[next.queue][next.slot];
    if (slot.segs > 1)
    {
        // TSO: the NIC (or, for driver TSO, the driver's descriptors) sends each segment
        // as a frame with its own headers, back to back.
        Ptr<Packet> copy = slot.packet->Copy();
        EthernetHeader ethernet(false);
        copy->RemoveHeader(ethernet);
        m_wireTrain = GsoSegmentPacket(copy, ethernet.GetLengthType());
        for (Ptr<Packet>& frame : m_wireTrain)
        {
            frame->AddHeader(ethernet);
        }
        std::reverse(m_wireTrain.begin(), m_wireTrain.end()); // taken from the back
        Ptr<Packet> first = m_wireTrain.back();
        m_wireTrain.pop_back();
        SendWireFrame(next.queue, first);
    }
    else
    {
        SendWireFrame(next.queue, slot.packet);
    }
    if (m_driver.GetConfig().completionAtTxStart)
    {
        NicDriverScope driver(m_nicQueues, m_driverDepth);
        m_driver.CompleteAtTxStart(next.queue, *this);
    }
}

void
NicNetDevice::SendWireFrame(uint32_t queue, Ptr<const Packet> frame)
{
    m_phyTxBeginTrace(frame);
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    const Time wireTime = GetWireTime(frame->GetSize());
    m_channel->Transmit(frame, this, wireTime);
    Simulator::ScheduleWithContext(m_node->GetId(),
                                   wireTime,
                                   &NicNetDevice::FrameSent,
                                   this,
                                   queue,
                                   frame);
}

void
NicNetDevice::FrameSent(uint32_t queue, Ptr<const Packet> frame)
{
    NS_LOG_FUNCTION(this << queue);
    if (!m_wireTrain.empty())
    {
        // The next frame of a TSO train follows at once; the packet is done at its last.
        m_stats.txPackets++;
        m_stats.txBytes += frame->GetSize();
        m_phyTxEndTrace(frame);
        Ptr<Packet> next = m_wireTrain.back();
        m_wireTrain.pop_back();
        SendWireFrame(queue, next);
        return;
    }
    m_driver.WireIdle();
    m_stats.txPackets++;
    m_stats.txBytes += frame->GetSize();
    m_phyTxEndTrace(frame);
    if (m_driver.TxDone(queue, Ns(Simulator::Now())))
    {
        ScheduleInterrupt(queue);
    }
    StartNextFrame();
}

void
NicNetDevice::TxCompleted(uint32_t queue, const NicDriver::Ring::Cleaned& cleaned)
{
    if (m_deferTo)
    {
        m_deferTo->effects.push_back({PollEffect::COMPLETED, queue, nullptr, cleaned});
        return;
    }
    m_stats.txCompletions++;
    // netdev_tx_completed_queue(): one BQL completion per clean.
    if (m_deviceQueues[queue])
    {
        m_deviceQueues[queue]->NotifyTransmittedBytes(static_cast<uint32_t>(cleaned.bytes));
    }
    TraceRing(queue);
    // Requeued GSO segments go before anything the queue disc sends on the wake (deferred
    // to its own event while the driver runs).
    if (!m_requeued[queue].empty())
    {
        DrainRequeued(queue);
    }
}

void
NicNetDevice::TxReclaimed(uint32_t queue, uint32_t slot)
{
    TxSlot& freed = m_txSlots[queue][slot];
    if (m_deferTo)
    {
        m_deferTo->effects.push_back({PollEffect::RECLAIMED, queue, freed.packet, {}});
        freed.packet = nullptr;
        return;
    }
    ReleaseTxPacket(freed.packet);
    freed.packet = nullptr; // the driver frees the skb
}

void
NicNetDevice::ReleaseTxPacket(Ptr<Packet> packet)
{
    if (m_tsqLayer)
    {
        m_tsqLayer->ReleaseTsq(packet); // tcp_wfree()
    }
}

void
NicNetDevice::RxDeliver(uint32_t queue, uint32_t slot)
{
    Ptr<Packet> frame = m_rxSlots[queue][slot];
    m_rxSlots[queue][slot] = nullptr;
    if (m_deferTo)
    {
        m_deferTo->effects.push_back({PollEffect::DELIVER, queue, frame, {}});
        return;
    }
    DeliverRxFrame(queue, frame);
}

void
NicNetDevice::DeliverRxFrame(uint32_t queue, Ptr<Packet> frame)
{
    if (!m_nicGro.empty())
    {
        m_nicGro[queue]->Receive(frame, Ns(Simulator::Now())); // napi_gro_receive()
        return;
    }
    DeliverUp(frame);
}

void
NicNetDevice::FlushGro(uint32_t vector, bool repoll)
{
    // GRO state is per NAPI instance: the vector's RX queue, if it has one.
    if (vector < m_nicGro.size())
    {
        m_nicGro[vector]->Flush(repoll, Ns(Simulator::Now()));
    }
}

void
NicNetDevice::TxWake(uint32_t queue)
{
    if (m_deferTo)
    {
        m_deferTo->effects.push_back({PollEffect::WAKE, queue, nullptr, {}});
        return;
    }
    NS_LOG_LOGIC("txq " << queue << " woken with " << m_driver.GetTxUnused(queue) << " free");
    if (m_deviceQueues[queue])
    {
        m_deviceQueues[queue]->Wake();
    }
    if (!m_requeued[queue].empty())
    {
        DrainRequeued(queue);
    }
}

void
NicNetDevice::ScheduleInterrupt(uint32_t vector)
{
    VectorEvents& v = m_vectors[vector];
    const int64_t due = m_driver.GetInterruptDue(vector);
    if (due == InterruptModeration::NEVER)
    {
        if (v.irqAt != VectorEvents::NONE)
        {
            v.irqEvent.Cancel();
            v.irqAt = VectorEvents::NONE;
        }
        return;
    }
    // Called for every frame done or received: the pending interrupt's time is kept here
    // rather than asked of the simulator (EventId::IsPending() costs a lookup).
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const int64_t at = std::max(due, now);
    if (v.irqAt == at)
    {
        return;
    }
    v.irqEvent.Schedule(m_node->GetId(), NanoSeconds(at - now));
    v.irqAt = at;
}

void
NicNetDevice::Interrupt(uint32_t vector)
{
    NS_LOG_FUNCTION(this << vector);
    m_vectors[vector].irqAt = VectorEvents::NONE; // this event has run
    const auto events = m_driver.Interrupt(vector, Ns(Simulator::Now()));
    m_stats.interrupts++;
    m_interruptTrace(vector, events.tx, events.rx);
    if (m_hostCpu)
    {
        m_hostCpu->RunHardIrq(m_hostCpu->GetIrqCore(vector));
    }
    if (!m_vectors[vector].pollPending && !m_vectors[vector].onCpu)
    {
        SchedulePoll(vector);
    }
}

void
NicNetDevice::SchedulePoll(uint32_t vector)
{
    const double delay = m_softirqDelay->GetValue();
    NS_ABORT_MSG_IF(delay < 0, "NicNetDevice: SoftirqDelay drew a negative delay " << delay);
    VectorEvents& v = m_vectors[vector];
    v.pollEvent.Schedule(m_node->GetId(), Seconds(delay));
    v.pollPending = true;
}

void
NicNetDevice::Poll(uint32_t vector)
{
    NS_LOG_FUNCTION(this << vector);
    m_vectors[vector].pollPending = false; // this event has run
    if (m_hostCpu)
    {
        PollOnCpu(vector);
        return;
    }
    NicDriverScope driver(m_nicQueues, m_driverDepth);
    // Without a HostCpu each vector's softirq runs on a CPU of its own, numbered as it.
    SoftirqCpuScope cpu(vector);
    m_stats.polls++;
    const auto result = m_driver.Poll(vector, *this);
    m_pollTrace(vector, result.tx.packets, result.tx.bytes, result.rx);
    if (result.workLeft)
    {
        // Work left: stay scheduled. The poll returned its budget without
        // napi_complete_done(), so __napi_poll() asks for a repoll (flushing only GRO packets
        // older than a jiffy, HZ 1000) and net_rx_action() puts the instance back on the poll
        // list and raises NET_RX_SOFTIRQ: the next softirq run polls it again, the interrupt
        // still masked, even if the poll used its budget exactly and nothing is left.
        FlushGro(vector, true);
        SchedulePoll(vector);
        return;
    }
    FlushGro(vector, false); // napi_complete_done()
    m_driver.CompletePoll(vector, Ns(Simulator::Now()));
    ScheduleInterrupt(vector);
}

void
NicNetDevice::PollOnCpu(uint32_t vector)
{
    CpuPoll& poll = m_cpuPolls[vector];
    {
        NicDriverScope driver(m_nicQueues, m_driverDepth);
        m_stats.polls++;
        m_deferTo = &poll;
        poll.result = m_driver.Poll(vector, *this);
        m_deferTo = nullptr;
    }
    m_vectors[vector].onCpu = true;
    // napi_poll() counts what the poll returns against netdev_budget: the frames passed up,
    // or the whole weight when the driver asks to be polled again (igb_poll(), e1000e_poll()
    // return the budget when a clean did not complete).
    const uint32_t work = poll.result.workLeft ? m_napiWeight : poll.result.rx;
    // The instance: this device's vector (unique while both live).
    const uint64_t napi = (static_cast<uint64_t>(reinterpret_cast<uintptr_t>(this)) << 8) + vector;
    // A forwarded frame goes ip_rcv() -> ip_forward() -> dev_queue_xmit() -> __qdisc_run()
    // within this NET_RX softirq: its cost is part of the poll.
    const Forwarding forwarded = CountForwarded(poll);
    const Time done = m_hostCpu->RunNapiPoll(m_hostCpu->GetIrqCore(vector),
                                             napi,
                                             poll.result.rx,
                                             poll.result.tx.packets,
                                             forwarded.frames,
                                             forwarded.qdiscWork,
                                             work,
                                             [this, vector]() { PollOnCpuDone(vector); });
    NS_LOG_DEBUG("vector " << vector << ": poll of " << poll.result.rx << " rx ("
                           << forwarded.frames << " forwarded), " << poll.result.tx.packets
                           << " tx completes at " << done);
}

NicNetDevice::Forwarding
NicNetDevice::CountForwarded(const CpuPoll& poll)
{
    Forwarding forwarded;
    if (poll.result.rx == 0)
    {
        return forwarded;
    }
    if (!Ipv4Stack())
    {
        return forwarded;
    }
    if (m_ipv4Interface < 0)
    {
        // Known once added: ns-3 removes no interface from a node.
        m_ipv4Interface = m_ipv4->GetInterfaceForDevice(this);
    }
    const int32_t iif = m_ipv4Interface;
    if (iif < 0 || !m_ipv4->IsForwarding(iif))
    {
        return forwarded;
    }
    for (const PollEffect& effect : poll.effects)
    {
        if (effect.kind != PollEffect::DELIVER)
        {
            continue;
        }
        // The destination MAC (bytes 0-5), the EtherType (12-13) and the IPv4 destination
        // (the IP header's bytes 16-19, the frame's 30-33), read without copying the packet.
        uint8_t head[34];
        if (effect.packet->CopyData(head, sizeof(head)) != sizeof(head))
        {
            continue;
        }
        Mac48Address destination;
        destination.CopyFrom(head);
        if (head[12] != 0x08 || head[13] != 0x00 || destination != m_address)
        {
            continue; // not IPv4, or PACKET_BROADCAST/MULTICAST/OTHERHOST: not forwarded
        }
        const Ipv4Address ipDestination = Ipv4Address::Deserialize(head + 30);
        const ForwardMemo& memo = ForwardLookup(ipDestination, iif);
        if (memo.forwarded)
        {
            forwarded.frames++;
            forwarded.qdiscWork += memo.qdiscCost;
        }
    }
    return forwarded;
}

void
NicNetDevice::ChargeLocalXmit(Ptr<const Packet> packet, uint16_t protocolNumber)
{
    if (protocolNumber != 0x0800 || !Ipv4Stack())
    {
        return;
    }
    // The IPv4 header's protocol (byte 9), addresses (12-19) and, past a 20-byte header, the
    // transport's ports (20-23), read without copying the packet.
    uint8_t head[24] = {};
    if (packet->CopyData(head, sizeof(head)) < 20)
    {
        return;
    }
    const Ipv4Address source = Ipv4Address::Deserialize(head + 12);
    if (!IsLocalSource(source))
    {
        return; // forwarded: its cost is in the poll that received it
    }
    if (!m_xmitCost)
    {
        Ptr<TrafficControlLayer> tc = m_node->GetObject<TrafficControlLayer>();
        m_xmitCost = m_hostCpu->GetXmitCost(tc ? tc->GetRootQueueDiscOnDevice(this) : nullptr);
    }
    // Deviation from Linux: the transmit path runs in the sending process (sendmsg() ->
    // tcp_push()) or in the softirq that took the ACK releasing the segment; the model
    // charges it as task work on a core chosen by the flow's hash, standing for the
    // process's core (processes are spread over the cores), so it takes a core's time
    // without delaying the softirqs.
    m_hostCpu->RunTask(ProcessCore(head), *m_xmitCost, nullptr);
}

bool
NicNetDevice::Ipv4Stack()
{
    if (!m_ipv4)
    {
        m_ipv4 = m_node->GetObject<Ipv4>(); // the stack may be installed after the device
    }
    return m_ipv4 != nullptr;
}

// The node's addresses and routes are looked up once per new address asked about, not per
// frame (a host's frames share their source; a router forwards runs of frames to one
// destination). Deviation from a lookup per frame: an address added to or removed from the
// node, or a route changed, after an address was last asked about is not seen until another
// address is asked about; nodes whose addresses or routes change while traffic flows should
// not rely on the CPU model's split between sent and forwarded frames and their qdisc costs.
bool
NicNetDevice::IsLocalSource(Ipv4Address source)
{
    if (!m_sourceMemo.known || m_sourceMemo.address != source)
    {
        m_sourceMemo = {source, true, m_ipv4->GetInterfaceForAddress(source) >= 0};
    }
    return m_sourceMemo.local;
}

const NicNetDevice::ForwardMemo&
NicNetDevice::ForwardLookup(Ipv4Address destination, int32_t iif)
{
    ForwardMemo& memo = m_forwardMemo;
    if (memo.known && memo.destination == destination && memo.iif == iif)
    {
        return memo;
    }
    memo = {destination, iif, true, false, Time(0)};
    memo.forwarded = !m_ipv4->IsDestinationAddress(destination, static_cast<uint32_t>(iif));
    Ptr<Ipv4RoutingProtocol> routing = m_ipv4->GetRoutingProtocol();
    Ptr<TrafficControlLayer> tc = m_node->GetObject<TrafficControlLayer>();
    if (!memo.forwarded || !routing || !tc)
    {
        return memo;
    }
    Ipv4Header header;
    header.SetDestination(destination);
    Socket::SocketErrno error = Socket::ERROR_NOTERROR;
    Ptr<Ipv4Route> route = routing->RouteOutput(nullptr, header, nullptr, error);
    if (route && route->GetOutputDevice())
    {
        memo.qdiscCost =
            m_hostCpu->GetQdiscCost(tc->GetRootQueueDiscOnDevice(route->GetOutputDevice()));
    }
    return memo;
}

void
NicNetDevice::RaiseNetTx(uint32_t queue)
{
    // __netif_schedule(): a qdisc goes on the CPU's output queue once (__QDISC_STATE_SCHED),
    // the CPU of the vector that cleans the queue (vector i cleans TX queue i).
    const uint32_t vector = queue;
    std::vector<uint32_t>& raised = m_cpuPolls[vector].netTx;
    if (std::find(raised.begin(), raised.end(), queue) == raised.end())
    {
        raised.push_back(queue);
    }
    if (m_pollDoneVector != vector)
    {
        PlaceNetTx(vector);
    }
}

void
NicNetDevice::PlaceNetTx(uint32_t vector)
{
    CpuPoll& poll = m_cpuPolls[vector];
    if (poll.netTx.empty() || poll.netTxRaised)
    {
        return;
    }
    poll.netTxRaised = true;
    m_hostCpu->RunNetTx(m_hostCpu->GetIrqCore(vector), [this, vector]() { NetTxAction(vector); });
}

void
NicNetDevice::NetTxAction(uint32_t vector)
{
    NS_LOG_FUNCTION(this << vector);
    CpuPoll& poll = m_cpuPolls[vector];
    poll.netTxRaised = false;
    std::vector<uint32_t> queues;
    queues.swap(poll.netTx);
    // net_tx_action() -> qdisc_run() for each listed queue. A run that uses its quota
    // (dev_tx_weight packets) ends and __netif_schedule()s the qdisc again: another
    // net_tx_action() carries on (a restart of this invocation, or ksoftirqd).
    for (const uint32_t queue : queues)
    {
        if (NicDeviceQueue* deviceQueue = m_nicQueues[queue])
        {
            m_netTxQuota = m_hostCpu->GetDevTxWeight();
            deviceQueue->RunWake();
            const bool exhausted = *m_netTxQuota == 0;
            m_netTxQuota.reset();
            if (exhausted)
            {
                SetQuotaExhausted(false);
                RaiseNetTx(queue);
            }
        }
    }
}

void
NicNetDevice::PollOnCpuDone(uint32_t vector)
{
    SoftirqCpuScope cpu(m_hostCpu->GetIrqCore(vector));
    NS_LOG_FUNCTION(this << vector);
    m_vectors[vector].onCpu = false;
    CpuPoll& poll = m_cpuPolls[vector];
    m_pollDoneVector = vector;
    {
        NicDriverScope driver(m_nicQueues, m_driverDepth);
        std::vector<PollEffect> effects;
        effects.swap(poll.effects);
        for (PollEffect& effect : effects)
        {
            switch (effect.kind)
            {
            case PollEffect::RECLAIMED:
                ReleaseTxPacket(effect.packet);
                break;
            case PollEffect::COMPLETED:
                TxCompleted(effect.queue, effect.cleaned);
                break;
            case PollEffect::WAKE:
                TxWake(effect.queue);
                break;
            case PollEffect::DELIVER:
                DeliverRxFrame(effect.queue, effect.packet);
                break;
            }
        }
        // The vector keeps its buffer for the next poll.
        effects.clear();
        poll.effects.swap(effects);
    }
    m_pollDoneVector.reset();
    // NET_TX_SOFTIRQ raised by the poll is placed once its packets are up (a task they woke
    // has set need_resched by then), as handle_softirqs() tests for a restart after
    // net_rx_action() returns.
    PlaceNetTx(vector);
    const NicDriver::PollResult& result = poll.result;
    m_pollTrace(vector, result.tx.packets, result.tx.bytes, result.rx);
    if (result.workLeft)
    {
        // napi_poll() put the instance on the repoll list; net_rx_action() raises
        // NET_RX_SOFTIRQ again and the HostCpu places the next poll (a restart, or
        // ksoftirqd). It is raised after what the wake scheduled now: NET_TX_SOFTIRQ runs
        // before NET_RX_SOFTIRQ in handle_softirqs().
        FlushGro(vector, true);
        VectorEvents& v = m_vectors[vector];
        v.pollEvent.Schedule(m_node->GetId(), Time(0));
        v.pollPending = true;
        return;
    }
    FlushGro(vector, false); // napi_complete_done()
    m_driver.CompletePoll(vector, Ns(Simulator::Now()));
    ScheduleInterrupt(vector);
}

void
NicNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    CreateRings();
    m_phyRxEndTrace(frame);
    if (frame->GetSize() > m_mtu + ETH_HLEN)
    {
        Drop(frame, RX_TOO_BIG);
        return;
    }
    if (m_rxAtArrival && m_nicGro.empty() && !m_hostCpu)
    {
        if (m_recordRxQueue)
        {
            NicRxQueueTag::Record(frame, static_cast<uint16_t>(SelectRxQueue(frame)));
        }
        m_snifferTrace(frame);
        m_promiscSnifferTrace(frame);
        DeliverUp(frame);
        return;
    }
    const uint32_t queue = SelectRxQueue(frame);
    uint32_t slot = 0;
    if (!m_driver.PostRx(queue, frame->GetSize(), Ns(Simulator::Now()), slot))
    {
        Drop(frame, RX_MISSED);
        return;
    }
    if (m_recordRxQueue)
    {
        NicRxQueueTag::Record(frame, static_cast<uint16_t>(queue));
    }
    m_rxSlots[queue][slot] = frame;
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    ScheduleInterrupt(queue);
}

void
NicNetDevice::DeliverUp(Ptr<Packet> frame)
{
    DeliverUp(frame, 1, frame->GetSize());
}

void
NicNetDevice::DeliverUp(Ptr<Packet> frame, uint32_t frames, uint64_t bytes)
{
    // The frame is this device's own (the channel copies what it carries): its header comes
    // off in place, unless the promiscuous trace is to see the whole frame.
    Ptr<Packet> packet = m_promiscCallback.IsNull() ? frame : frame->Copy();
    // The header read as bytes (destination, source, EtherType: eth_type_trans()), not
    // deserialised into an EthernetHeader: 4 frames per TCP segment over a router, and the
    // object, its deserialiser and its accessors cost a few hundred instructions each time.
    uint8_t head[ETH_HLEN];
    const uint32_t copied = packet->CopyData(head, ETH_HLEN);
    NS_ASSERT_MSG(copied == ETH_HLEN, "a frame shorter than its Ethernet header");
    packet->RemoveAtStart(ETH_HLEN);
    Mac48Address destination;
    destination.CopyFrom(head);
    Mac48Address source;
    source.CopyFrom(head + 6);
    const uint16_t protocol = static_cast<uint16_t>((head[12] << 8) | head[13]);
    PacketType type;
    if (destination.IsBroadcast())
    {
        type = PACKET_BROADCAST;
    }
    else if (destination.IsGroup())
    {
        type = PACKET_MULTICAST;
    }
    else if (destination == m_address)
    {
        type = PACKET_HOST;
    }
    else
    {
        type = PACKET_OTHERHOST;
    }
    if (!m_promiscCallback.IsNull())
    {
        m_macPromiscRxTrace(frame);
        m_promiscCallback(this, packet, protocol, source, destination, type);
    }
    if (type != PACKET_OTHERHOST)
    {
        m_stats.rxPackets += frames;
        m_stats.rxBytes += bytes;
        m_macRxTrace(packet);
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, packet, protocol, source);
        }
    }
}

void
NicNetDevice::TraceRing(uint32_t queue)
{
    const NicDriver::Ring& ring = m_driver.GetTxRing(queue);
    m_txRingTrace(queue, ring.GetUsed(), ring.GetBytes());
}

void
NicNetDevice::Attach(Ptr<NicChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    m_linkChangeCallbacks();
}

const NicNetDevice::Stats&
NicNetDevice::GetStats() const
{
    return m_stats;
}

NicNetDevice::Offloads
NicNetDevice::GetOffloads() const
{
    return {m_tsoSupport, m_tso, m_gso, m_gro, m_gsoMaxSize, m_gsoMaxSegs, m_groMaxSize};
}

const NicDriver::Ring&
NicNetDevice::GetTxRing(std::size_t queue) const
{
    NS_ABORT_MSG_IF(queue >= m_driver.GetNTxQueues(),
                    "NicNetDevice: TX queue " << queue << " does not exist (rings are made at "
                                              << "initialization)");
    return m_driver.GetTxRing(static_cast<uint32_t>(queue));
}

const NicDriver::Ring&
NicNetDevice::GetRxRing(std::size_t queue) const
{
    NS_ABORT_MSG_IF(queue >= m_driver.GetNRxQueues(),
                    "NicNetDevice: RX queue " << queue << " does not exist (rings are made at "
                                              << "initialization)");
    return m_driver.GetRxRing(static_cast<uint32_t>(queue));
}

std::size_t
NicNetDevice::GetNRxQueues() const
{
    return m_nRxQueues;
}

std::size_t
NicNetDevice::GetNTxQueues() const
{
    return m_nTxQueues;
}

uint32_t
NicNetDevice::GetFlowHashKey()
{
    CreateRings();
    return m_hashSalt;
}

int64_t
NicNetDevice::AssignStreams(int64_t stream)
{
    m_softirqDelay->SetStream(stream);
    m_hashKey->SetStream(stream + 1);
    return 2;
}

void
NicNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
NicNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
NicNetDevice::GetChannel() const
{
    return m_channel;
}

void
NicNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
NicNetDevice::GetAddress() const
{
    return m_address;
}

bool
NicNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
NicNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
NicNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
NicNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
NicNetDevice::IsBroadcast() const
{
    return true;
}

Address
NicNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
NicNetDevice::IsMulticast() const
{
    return true;
}

Address
NicNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
NicNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
NicNetDevice::IsPointToPoint() const
{
    return false;
}

bool
NicNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
NicNetDevice::GetNode() const
{
    return m_node;
}

void
NicNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
NicNetDevice::NeedsArp() const
{
    return m_needsArp;
}

void
NicNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
NicNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
NicNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace debloat
} // namespace ns3
