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
#include "tx-queue-select.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/debloat-compat.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/queue-item.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tag.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NicNetDevice");

NS_OBJECT_ENSURE_REGISTERED(NicNetDevice);

/**
 * @ingroup debloat-nic
 * @brief Carries the TX queue the stack chose (skb->queue_mapping) from the select-queue
 * callback to Send(), which ns-3 calls without it.
 */
class NicTxQueueTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::debloat::NicTxQueueTag")
                                .SetParent<Tag>()
                                .SetGroupName("Debloat")
                                .AddConstructor<NicTxQueueTag>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 2;
    }

    void Serialize(TagBuffer buffer) const override
    {
        buffer.WriteU16(queue);
    }

    void Deserialize(TagBuffer buffer) override
    {
        queue = buffer.ReadU16();
    }

    void Print(std::ostream& os) const override
    {
        os << "txq=" << queue;
    }

    uint16_t queue{0}; ///< the TX queue index
};

NS_OBJECT_ENSURE_REGISTERED(NicTxQueueTag);

/**
 * Marks the driver as running for the NicDeviceQueues, so that queue-disc wakes raised
 * inside it are deferred to an event of their own on every ns-3 release.
 */
class NicNetDevice::DriverContext
{
  public:
    /// @param device the device whose driver runs
    explicit DriverContext(NicNetDevice* device)
        : m_device(device)
    {
        if (m_device->m_driverDepth++ == 0)
        {
            SetActive(true);
        }
    }

    ~DriverContext()
    {
        if (--m_device->m_driverDepth == 0)
        {
            SetActive(false);
        }
    }

    DriverContext(const DriverContext&) = delete;
    DriverContext& operator=(const DriverContext&) = delete;

  private:
    /// @param active the driver flag for every NicDeviceQueue of the device
    void SetActive(bool active)
    {
        for (auto& txq : m_device->m_txQueues)
        {
            if (auto queue = DynamicCast<NicDeviceQueue>(txq.queue))
            {
                queue->SetDriverActive(active);
            }
        }
    }

    NicNetDevice* m_device; ///< the device
};

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
                          "RX descriptors (ethtool -G rx)",
                          UintegerValue(256),
                          MakeUintegerAccessor(&NicNetDevice::m_rxRingSize),
                          MakeUintegerChecker<uint32_t>())
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
                          "descriptors than this (room for a worst-case packet: e1000e 19, "
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
                          "igb-conservative (itr_setting 1 or 3)",
                          StringValue("none"),
                          MakeStringAccessor(&NicNetDevice::m_dynamicItr),
                          MakeStringChecker())
            .AddAttribute("CompletionAtTxStart",
                          "Reclaim a frame when it starts on the wire, without an interrupt, "
                          "as ns-3's PointToPointNetDevice reports it (the ideal profile)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NicNetDevice::m_completionAtTxStart),
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
                            "ns3::debloat::NicNetDevice::PollTracedCallback");
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
    NetDevice::DoInitialize();
}

void
NicNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& vector : m_vectors)
    {
        vector.irqEvent.Cancel();
        vector.pollEvent.Cancel();
    }
    m_txQueues.clear();
    m_vectors.clear();
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
    NetDevice::NotifyNewAggregate();
}

void
NicNetDevice::CheckConfig() const
{
    NS_ABORT_MSG_IF(m_dataRate.GetBitRate() == 0,
                    "NicNetDevice: DataRate (ethtool speed) must be positive");
    NS_ABORT_MSG_IF(m_mtu < 68, "NicNetDevice: Mtu=" << m_mtu << " is below 68, the IPv4 minimum");
    NS_ABORT_MSG_IF(m_nTxQueues < 1 || m_nTxQueues > 64,
                    "NicNetDevice: TxQueues=" << m_nTxQueues
                                              << " is out of range; accepted 1 to 64");
    NS_ABORT_MSG_IF(m_txMaxDataPerDesc == 0,
                    "NicNetDevice: TxMaxDataPerDescriptor must be at least 1 byte");
    const uint32_t worst = GetTxDescriptors(m_mtu + EthernetHeader(false).GetSerializedSize());
    NS_ABORT_MSG_IF(m_txStopThreshold < worst,
                    "NicNetDevice: TxStopThreshold="
                        << m_txStopThreshold << " is below the " << worst
                        << " descriptors of a worst-case packet; accepted " << worst << " to "
                        << "TxWakeThreshold");
    NS_ABORT_MSG_IF(m_txWakeThreshold < m_txStopThreshold,
                    "NicNetDevice: TxWakeThreshold="
                        << m_txWakeThreshold << " is below TxStopThreshold=" << m_txStopThreshold
                        << "; accepted "
                        << "TxStopThreshold to TxRingSize");
    NS_ABORT_MSG_IF(m_txRingSize < m_txStopThreshold + worst || m_txWakeThreshold > m_txRingSize,
                    "NicNetDevice: TxRingSize="
                        << m_txRingSize << " cannot hold a worst-case packet (" << worst
                        << " descriptors) above the stop threshold (" << m_txStopThreshold
                        << ") and reach the wake threshold (" << m_txWakeThreshold << "); accepted "
                        << std::max(m_txStopThreshold + worst, m_txWakeThreshold) << " or more");
    NS_ABORT_MSG_IF(m_rxRingSize == 0, "NicNetDevice: RxRingSize must be at least 1");
    NS_ABORT_MSG_IF(m_txWorkLimit == 0, "NicNetDevice: TxWorkLimit must be at least 1");
    NS_ABORT_MSG_IF(m_napiWeight == 0, "NicNetDevice: NapiWeight must be at least 1");
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

void
NicNetDevice::CreateRings()
{
    if (!m_txQueues.empty())
    {
        return;
    }
    NS_LOG_FUNCTION(this);
    CheckConfig();
    DynamicItr::Mode itrMode;
    NS_ABORT_MSG_UNLESS(DynamicItr::Parse(m_dynamicItr, itrMode),
                        "NicNetDevice: DynamicItr=" << m_dynamicItr
                                                    << " is unknown; accepted: none, e1000e, "
                                                       "e1000e-conservative, igb, "
                                                       "igb-conservative");
    const bool slowLink = m_dataRate.GetBitRate() < 1000000000;
    const uint32_t rate =
        slowLink && m_slowLinkInterruptRate != 0 ? m_slowLinkInterruptRate : m_interruptRate;
    const int64_t minInterval = rate == 0 ? 0 : static_cast<int64_t>(1000000000 / rate);
    m_txQueues.reserve(m_nTxQueues);
    m_vectors.resize(m_nTxQueues);
    for (uint32_t i = 0; i < m_nTxQueues; i++)
    {
        m_txQueues.emplace_back(m_txRingSize);
        if (m_queueInterface)
        {
            m_txQueues[i].queue = m_queueInterface->GetTxQueue(i);
        }
        m_vectors[i].txIrq.SetConfig({m_txFrames, Ns(m_txPacketDelay), Ns(m_txUsecs), minInterval});
        m_vectors[i].rxIrq.SetConfig({m_rxFrames, Ns(m_rxPacketDelay), Ns(m_rxUsecs), minInterval});
        m_vectors[i].itr = DynamicItr(itrMode, !slowLink);
        ApplyItr(i);
    }
    m_rxRing = DescriptorRing<Ptr<Packet>>(m_rxRingSize);
    m_hashSalt = m_hashKey->GetInteger(0, UINT32_MAX);
}

int64_t
NicNetDevice::Ns(Time t)
{
    return t.GetNanoSeconds();
}

uint32_t
NicNetDevice::GetTxDescriptors(uint32_t length) const
{
    const uint32_t data = (length + m_txMaxDataPerDesc - 1) / m_txMaxDataPerDesc;
    return std::max(data, 1U) + (m_txContextDescriptor ? 1 : 0);
}

Time
NicNetDevice::GetWireTime(uint32_t length) const
{
    const uint64_t bits =
        8 * (static_cast<uint64_t>(std::max(length, m_minFrameSize)) + m_l1Overhead);
    const uint64_t rate = m_dataRate.GetBitRate();
    // Nanoseconds rounded to nearest: exact at 10 Mbit/s to 1 Gbit/s.
    const auto ns = static_cast<int64_t>((bits * 1000000000 + rate / 2) / rate);
    return NanoSeconds(ns) + m_perFrameOverhead;
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
    const uint32_t hash = discItem->Hash(m_hashSalt);
    const auto queue = static_cast<uint16_t>(ReciprocalScale(hash, m_nTxQueues));
    NicTxQueueTag tag;
    tag.queue = queue;
    Ptr<Packet> packet = item->GetPacket();
    NicTxQueueTag old;
    if (packet->PeekPacketTag(old))
    {
        packet->ReplacePacketTag(tag);
    }
    else
    {
        packet->AddPacketTag(tag);
    }
    return queue;
}

void
NicNetDevice::Drop(Ptr<const Packet> packet, DropReason reason)
{
    NS_LOG_DEBUG("drop " << packet << " reason " << reason);
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
    return Transmit(packet, m_address, Mac48Address::ConvertFrom(dest), protocolNumber);
}

bool
NicNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << source << dest << protocolNumber);
    return Transmit(packet,
                    Mac48Address::ConvertFrom(source),
                    Mac48Address::ConvertFrom(dest),
                    protocolNumber);
}

bool
NicNetDevice::Transmit(Ptr<Packet> packet,
                       Mac48Address source,
                       Mac48Address dest,
                       uint16_t protocolNumber)
{
    CreateRings();
    NicTxQueueTag tag;
    uint32_t queue = 0;
    if (packet->RemovePacketTag(tag))
    {
        queue = std::min<uint32_t>(tag.queue, m_nTxQueues - 1);
    }
    if (!m_channel)
    {
        Drop(packet, TX_LINK_DOWN);
        return false;
    }
    if (packet->GetSize() > m_mtu)
    {
        Drop(packet, TX_TOO_BIG);
        return false;
    }
    m_macTxTrace(packet);
    EthernetHeader header(false);
    header.SetSource(source);
    header.SetDestination(dest);
    header.SetLengthType(protocolNumber);
    packet->AddHeader(header);

    // ndo_start_xmit: post the descriptors, tell BQL, stop if a worst-case packet won't fit.
    TxQueue& txq = m_txQueues[queue];
    const uint32_t length = packet->GetSize();
    if (!txq.ring.Post(packet, GetTxDescriptors(length), length))
    {
        // Only a sender that ignores the stopped queue gets here.
        Drop(packet, TX_RING_FULL);
        return false;
    }
    if (txq.queue)
    {
        txq.queue->NotifyQueuedBytes(length);
    }
    TraceRing(queue);
    if (txq.ring.GetUnused() < m_txStopThreshold && !txq.stopped)
    {
        NS_LOG_LOGIC("txq " << queue << " stopped with " << txq.ring.GetUnused() << " free");
        txq.stopped = true;
        if (txq.queue)
        {
            txq.queue->Stop();
        }
    }
    StartNextFrame();
    return true;
}

void
NicNetDevice::StartNextFrame()
{
    if (m_wireBusy)
    {
        return;
    }
    for (uint32_t k = 0; k < m_nTxQueues; k++)
    {
        const uint32_t queue = (m_nextTxQueue + k) % m_nTxQueues;
        TxQueue& txq = m_txQueues[queue];
        if (txq.ring.GetPending() == 0)
        {
            continue;
        }
        m_nextTxQueue = (queue + 1) % m_nTxQueues;
        Ptr<const Packet> frame = txq.ring.Fetch();
        m_wireBusy = true;
        m_phyTxBeginTrace(frame);
        m_snifferTrace(frame);
        m_promiscSnifferTrace(frame);
        const Time wireTime = GetWireTime(frame->GetSize());
        m_channel->Transmit(frame, this, wireTime);
        Simulator::Schedule(wireTime, &NicNetDevice::FrameSent, this, queue, frame);
        if (m_completionAtTxStart)
        {
            DriverContext driver(this);
            txq.ring.MarkDone();
            CleanTx(queue, UINT32_MAX);
        }
        return;
    }
}

void
NicNetDevice::FrameSent(uint32_t queue, Ptr<const Packet> frame)
{
    NS_LOG_FUNCTION(this << queue);
    m_wireBusy = false;
    m_stats.txPackets++;
    m_stats.txBytes += frame->GetSize();
    m_phyTxEndTrace(frame);
    if (!m_completionAtTxStart)
    {
        m_txQueues[queue].ring.MarkDone();
        m_vectors[queue].txIrq.OnEvent(Ns(Simulator::Now()));
        ScheduleInterrupt(queue);
    }
    StartNextFrame();
}

DescriptorRing<Ptr<Packet>>::Cleaned
NicNetDevice::CleanTx(uint32_t queue, uint32_t limit)
{
    TxQueue& txq = m_txQueues[queue];
    const auto cleaned = txq.ring.Clean(limit, [](Ptr<Packet>) {});
    if (cleaned.packets == 0)
    {
        return cleaned;
    }
    m_stats.txCompletions++;
    m_vectors[queue].itr.CountTx(cleaned.packets, cleaned.bytes);
    // netdev_tx_completed_queue(): one BQL completion per clean.
    if (txq.queue)
    {
        txq.queue->NotifyTransmittedBytes(static_cast<uint32_t>(cleaned.bytes));
    }
    TraceRing(queue);
    if (txq.stopped && txq.ring.GetUnused() >= m_txWakeThreshold)
    {
        NS_LOG_LOGIC("txq " << queue << " woken with " << txq.ring.GetUnused() << " free");
        txq.stopped = false;
        if (txq.queue)
        {
            txq.queue->Wake();
        }
    }
    return cleaned;
}

void
NicNetDevice::ScheduleInterrupt(uint32_t vector)
{
    Vector& v = m_vectors[vector];
    const int64_t due = std::min(v.txIrq.GetDueTime(), v.rxIrq.GetDueTime());
    if (due == InterruptModeration::NEVER)
    {
        v.irqEvent.Cancel();
        return;
    }
    const Time now = Simulator::Now();
    const Time at = std::max(NanoSeconds(due), now);
    if (compat::IsPending(v.irqEvent) && TimeStep(v.irqEvent.GetTs()) == at)
    {
        return;
    }
    v.irqEvent.Cancel();
    v.irqEvent = Simulator::Schedule(at - now, &NicNetDevice::Interrupt, this, vector);
}

void
NicNetDevice::ApplyItr(uint32_t vector)
{
    Vector& v = m_vectors[vector];
    if (v.itr.GetMode() != DynamicItr::Mode::NONE)
    {
        v.txIrq.SetMinInterval(v.itr.GetInterval());
        v.rxIrq.SetMinInterval(v.itr.GetInterval());
    }
}

void
NicNetDevice::Interrupt(uint32_t vector)
{
    NS_LOG_FUNCTION(this << vector);
    Vector& v = m_vectors[vector];
    const int64_t now = Ns(Simulator::Now());
    const uint32_t txEvents = v.txIrq.Assert(now);
    const uint32_t rxEvents = v.rxIrq.Assert(now);
    m_stats.interrupts++;
    m_interruptTrace(vector, txEvents, rxEvents);
    v.itr.OnInterrupt();
    ApplyItr(vector);
    if (!compat::IsPending(v.pollEvent))
    {
        const double delay = m_softirqDelay->GetValue();
        NS_ABORT_MSG_IF(delay < 0, "NicNetDevice: SoftirqDelay drew a negative delay " << delay);
        v.pollEvent = Simulator::Schedule(Seconds(delay), &NicNetDevice::Poll, this, vector);
    }
}

void
NicNetDevice::Poll(uint32_t vector)
{
    NS_LOG_FUNCTION(this << vector);
    DriverContext driver(this);
    m_stats.polls++;
    const auto tx = CleanTx(vector, m_txWorkLimit);
    const bool txMore = m_txQueues[vector].ring.GetDone() > 0;
    uint32_t rx = 0;
    bool rxMore = false;
    if (vector == 0)
    {
        const auto cleaned =
            m_rxRing.Clean(m_napiWeight, [this](Ptr<Packet> frame) { DeliverUp(frame); });
        rx = cleaned.packets;
        m_vectors[vector].itr.CountRx(cleaned.packets, cleaned.bytes);
        rxMore = m_rxRing.GetDone() > 0;
    }
    m_pollTrace(vector, tx.packets, tx.bytes, rx);
    Vector& v = m_vectors[vector];
    if (txMore || rxMore)
    {
        // Work left: stay scheduled (the poll returned its budget).
        const double delay = m_softirqDelay->GetValue();
        NS_ABORT_MSG_IF(delay < 0, "NicNetDevice: SoftirqDelay drew a negative delay " << delay);
        v.pollEvent = Simulator::Schedule(Seconds(delay), &NicNetDevice::Poll, this, vector);
        return;
    }
    // napi_complete_done(): choose the next throttle and re-enable the interrupt.
    v.itr.OnPollComplete();
    ApplyItr(vector);
    const int64_t now = Ns(Simulator::Now());
    v.txIrq.Unmask(now);
    v.rxIrq.Unmask(now);
    ScheduleInterrupt(vector);
}

void
NicNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    CreateRings();
    m_phyRxEndTrace(frame);
    if (frame->GetSize() > m_mtu + EthernetHeader(false).GetSerializedSize())
    {
        Drop(frame, RX_TOO_BIG);
        return;
    }
    if (!m_rxRing.Post(frame, 1, frame->GetSize()))
    {
        Drop(frame, RX_MISSED);
        return;
    }
    // The frame is in host memory once its last bit is in: fetched and done at once.
    m_rxRing.Fetch();
    m_rxRing.MarkDone();
    m_snifferTrace(frame);
    m_promiscSnifferTrace(frame);
    m_vectors[0].rxIrq.OnEvent(Ns(Simulator::Now()));
    ScheduleInterrupt(0);
}

void
NicNetDevice::DeliverUp(Ptr<Packet> frame)
{
    Ptr<Packet> packet = frame->Copy();
    EthernetHeader header(false);
    packet->RemoveHeader(header);
    const uint16_t protocol = header.GetLengthType();
    PacketType type;
    if (header.GetDestination().IsBroadcast())
    {
        type = PACKET_BROADCAST;
    }
    else if (header.GetDestination().IsGroup())
    {
        type = PACKET_MULTICAST;
    }
    else if (header.GetDestination() == m_address)
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
        m_promiscCallback(this,
                          packet,
                          protocol,
                          header.GetSource(),
                          header.GetDestination(),
                          type);
    }
    if (type != PACKET_OTHERHOST)
    {
        m_stats.rxPackets++;
        m_stats.rxBytes += frame->GetSize();
        m_macRxTrace(packet);
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, packet, protocol, header.GetSource());
        }
    }
}

void
NicNetDevice::TraceRing(uint32_t queue)
{
    const TxQueue& txq = m_txQueues[queue];
    m_txRingTrace(queue, txq.ring.GetUsed(), txq.ring.GetBytes());
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

const DescriptorRing<Ptr<Packet>>&
NicNetDevice::GetTxRing(std::size_t queue) const
{
    NS_ABORT_MSG_IF(queue >= m_txQueues.size(),
                    "NicNetDevice: TX queue " << queue << " does not exist (rings are made at "
                                              << "initialization)");
    return m_txQueues[queue].ring;
}

const DescriptorRing<Ptr<Packet>>&
NicNetDevice::GetRxRing() const
{
    return m_rxRing;
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
    return true;
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
