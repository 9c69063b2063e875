/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_netem.c of Linux 6.x.
 */

#include "netem-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/arp-queue-disc-item.h"
#include "ns3/boolean.h"
#include "ns3/debloat-compat.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/integer.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/psched.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tsq-tag.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <typeinfo>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NetemQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(NetemQueueDisc);

namespace
{

/// @return a checker of a percentage attribute (0 to 100)
Ptr<const AttributeChecker>
PercentChecker()
{
    return MakeDoubleChecker<double>(0, 100);
}

/// @return a checker of a percentage attribute whose -1 means tc's derived default
Ptr<const AttributeChecker>
DerivedPercentChecker()
{
    return MakeDoubleChecker<double>(-1, 100);
}

/// @return the checker of the two distribution attributes
Ptr<const AttributeChecker>
DistributionChecker()
{
    return MakeEnumChecker(NetemQueueDisc::UNIFORM,
                           "uniform",
                           NetemQueueDisc::NORMAL,
                           "normal",
                           NetemQueueDisc::PARETO,
                           "pareto",
                           NetemQueueDisc::PARETONORMAL,
                           "paretonormal");
}

/// @param time a non-negative time @return it in ns
uint64_t
Ns(const Time& time)
{
    return static_cast<uint64_t>(time.GetNanoSeconds());
}

} // namespace

TypeId
NetemQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::NetemQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Debloat")
            .AddConstructor<NetemQueueDisc>()
            .AddAttribute("Limit",
                          "limit: packets held at most (tc's default 1000)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&NetemQueueDisc::m_limit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Delay",
                          "delay TIME: the added delay (latency)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NetemQueueDisc::m_delay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Jitter",
                          "delay's JITTER: the delay's deviation (uniform: +-jitter; with a "
                          "table, its standard deviation); at most 2147483647 ns",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NetemQueueDisc::m_jitter),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("DelayCorrelation",
                          "delay's CORRELATION, percent: weight of the previous draw",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_delayCorrelation),
                          PercentChecker())
            .AddAttribute("Distribution",
                          "distribution: the jitter's table (uniform: none, the kernel's "
                          "default; normal, pareto, paretonormal: iproute2's)",
                          EnumValue(UNIFORM),
                          compat::MakeEnumAccessor<Distribution>(&NetemQueueDisc::m_distribution),
                          DistributionChecker())
            .AddAttribute("LossModel",
                          "loss MODEL: random (Loss, LossCorrelation), state (LossP13 ... "
                          "LossP14) or gemodel (GemodelP ... Gemodel1MinusK)",
                          EnumValue(LOSS_RANDOM),
                          compat::MakeEnumAccessor<LossModel>(&NetemQueueDisc::m_lossModel),
                          MakeEnumChecker(LOSS_RANDOM,
                                          "random",
                                          LOSS_STATE,
                                          "state",
                                          LOSS_GEMODEL,
                                          "gemodel"))
            .AddAttribute("Loss",
                          "loss random PERCENT: probability of losing a packet",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_loss),
                          PercentChecker())
            .AddAttribute("LossCorrelation",
                          "loss random's CORRELATION, percent",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_lossCorrelation),
                          PercentChecker())
            .AddAttribute("LossP13",
                          "loss state P13, percent: gap (delivering) to burst loss",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_p13),
                          PercentChecker())
            .AddAttribute("LossP31",
                          "loss state P31, percent: burst loss back to gap (-1: 100 - P13, "
                          "tc's default)",
                          DoubleValue(-1),
                          MakeDoubleAccessor(&NetemQueueDisc::m_p31),
                          DerivedPercentChecker())
            .AddAttribute("LossP32",
                          "loss state P32, percent: burst loss to burst delivery",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_p32),
                          PercentChecker())
            .AddAttribute("LossP23",
                          "loss state P23, percent: burst delivery to burst loss",
                          DoubleValue(100),
                          MakeDoubleAccessor(&NetemQueueDisc::m_p23),
                          PercentChecker())
            .AddAttribute("LossP14",
                          "loss state P14, percent: gap to an isolated loss",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_p14),
                          PercentChecker())
            .AddAttribute("GemodelP",
                          "loss gemodel PERCENT, percent: good to bad",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_geP),
                          PercentChecker())
            .AddAttribute("GemodelR",
                          "loss gemodel R, percent: bad to good (-1: 100 - P, tc's default)",
                          DoubleValue(-1),
                          MakeDoubleAccessor(&NetemQueueDisc::m_geR),
                          DerivedPercentChecker())
            .AddAttribute("Gemodel1MinusH",
                          "loss gemodel 1-H, percent: loss probability in the bad state",
                          DoubleValue(100),
                          MakeDoubleAccessor(&NetemQueueDisc::m_ge1MinusH),
                          PercentChecker())
            .AddAttribute("Gemodel1MinusK",
                          "loss gemodel 1-K, percent: loss probability in the good state",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_ge1MinusK),
                          PercentChecker())
            .AddAttribute("Ecn",
                          "ecn: CE-mark an ECN-capable packet the loss model picks instead of "
                          "dropping it (needs a loss model)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&NetemQueueDisc::m_ecn),
                          MakeBooleanChecker())
            .AddAttribute("Duplicate",
                          "duplicate PERCENT: probability of sending a packet twice",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_duplicate),
                          PercentChecker())
            .AddAttribute("DuplicateCorrelation",
                          "duplicate's CORRELATION, percent",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_duplicateCorrelation),
                          PercentChecker())
            .AddAttribute("Reorder",
                          "reorder PERCENT: probability that a gap-th packet is sent at once "
                          "(needs a Delay)",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_reorder),
                          PercentChecker())
            .AddAttribute("ReorderCorrelation",
                          "reorder's CORRELATION, percent",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_reorderCorrelation),
                          PercentChecker())
            .AddAttribute("Gap",
                          "gap DISTANCE: packets delayed before one may be reordered (0 with a "
                          "Reorder above 0 is 1, as tc sends it)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NetemQueueDisc::m_gap),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Corrupt",
                          "corrupt PERCENT: probability of flipping one random bit",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_corrupt),
                          PercentChecker())
            .AddAttribute("CorruptCorrelation",
                          "corrupt's CORRELATION, percent",
                          DoubleValue(0),
                          MakeDoubleAccessor(&NetemQueueDisc::m_corruptCorrelation),
                          PercentChecker())
            .AddAttribute("Rate",
                          "rate RATE: each packet leaves after the previous one plus its time "
                          "at this rate (0: no rate; tc keeps whole bytes per second)",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&NetemQueueDisc::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("PacketOverhead",
                          "rate's PACKETOVERHEAD: bytes added to each packet (may be negative)",
                          IntegerValue(0),
                          MakeIntegerAccessor(&NetemQueueDisc::m_packetOverhead),
                          MakeIntegerChecker<int32_t>())
            .AddAttribute("CellSize",
                          "rate's CELLSIZE: the packet is sent in cells of this many bytes "
                          "(0: no cells)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NetemQueueDisc::m_cellSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CellOverhead",
                          "rate's CELLOVERHEAD: bytes added to each cell (may be negative)",
                          IntegerValue(0),
                          MakeIntegerAccessor(&NetemQueueDisc::m_cellOverhead),
                          MakeIntegerChecker<int32_t>())
            .AddAttribute("SlotMinDelay",
                          "slot MIN_DELAY: shortest time between slots (0 with SlotMaxDelay 0 "
                          "and SlotJitter 0: no slots)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NetemQueueDisc::m_slotMin),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SlotMaxDelay",
                          "slot MAX_DELAY: longest time between slots (uniform in between)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NetemQueueDisc::m_slotMax),
                          MakeTimeChecker(Time(0)))
            .AddAttribute(
                "SlotDistribution",
                "slot distribution NAME: slot times from a table (normal, pareto, "
                "paretonormal) with SlotDelay and SlotJitter; uniform: MIN..MAX",
                EnumValue(UNIFORM),
                compat::MakeEnumAccessor<Distribution>(&NetemQueueDisc::m_slotDistribution),
                DistributionChecker())
            .AddAttribute("SlotDelay",
                          "slot distribution's DELAY: mean time between slots",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NetemQueueDisc::m_slotDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SlotJitter",
                          "slot distribution's JITTER (above 0 with a SlotDistribution)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&NetemQueueDisc::m_slotJitter),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SlotPackets",
                          "slot packets N: packets per slot (0: unlimited)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NetemQueueDisc::m_slotPackets),
                          MakeUintegerChecker<uint32_t>(0, INT32_MAX))
            .AddAttribute("SlotBytes",
                          "slot bytes N: bytes per slot, the last packet may overrun it (0: "
                          "unlimited)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NetemQueueDisc::m_slotBytes),
                          MakeUintegerChecker<uint32_t>(0, INT32_MAX))
            .AddAttribute("Seed",
                          "seed SEED: the kernel's prng seed (TCA_NETEM_PRNG_SEED); 0 draws "
                          "one from the queue disc's random stream, as netem_init() draws "
                          "get_random_u64()",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NetemQueueDisc::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "Options",
                "tc-netem options as one string, e.g. \"delay 40ms 4ms 25% "
                "distribution normal loss random 1%\": setting it sets the attributes "
                "of the word groups it names; getting it gives tc's line",
                StringValue(""),
                MakeStringAccessor(&NetemQueueDisc::SetOptions, &NetemQueueDisc::GetOptions),
                MakeStringChecker())
            .AddTraceSource("Schedule",
                            "A packet accepted, with the time it may leave (time_to_send)",
                            MakeTraceSourceAccessor(&NetemQueueDisc::m_scheduleTrace),
                            "ns3::debloat::NetemQueueDisc::ScheduleTracedCallback")
            .AddTraceSource("Duplicate",
                            "A packet about to be sent twice (its copy is enqueued next)",
                            MakeTraceSourceAccessor(&NetemQueueDisc::m_duplicateTrace),
                            "ns3::QueueDiscItem::TracedCallback")
            .AddTraceSource("Corrupt",
                            "A packet with one bit flipped: the byte and the bit",
                            MakeTraceSourceAccessor(&NetemQueueDisc::m_corruptTrace),
                            "ns3::debloat::NetemQueueDisc::CorruptTracedCallback");
    return tid;
}

NetemQueueDisc::NetemQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS),
      m_watchdog(this)
{
    NS_LOG_FUNCTION(this);
    m_uniform = CreateObject<UniformRandomVariable>();
}

NetemQueueDisc::~NetemQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

int64_t
NetemQueueDisc::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

void
NetemQueueDisc::DoDispose()
{
    m_watchdog.Cancel();
    m_scheduler.reset();
    m_list = nullptr;
    m_uniform = nullptr;
    QueueDisc::DoDispose();
}

NetemConfig
NetemQueueDisc::BuildConfig() const
{
    NetemConfig c;
    c.limit = m_limit;
    c.latencyNs = Ns(m_delay);
    c.jitterNs = Ns(m_jitter);
    c.delayCorr = NetemPercentToU32(m_delayCorrelation);
    c.distribution = static_cast<NetemDistribution>(m_distribution);
    c.lossModel = static_cast<NetemLossModel>(m_lossModel);
    if (c.lossModel == NetemLossModel::RANDOM)
    {
        c.loss = NetemPercentToU32(m_loss);
        c.lossCorr = NetemPercentToU32(m_lossCorrelation);
    }
    c.p13 = NetemPercentToU32(m_p13);
    c.p31 = NetemPercentToU32(m_p31 < 0 ? 100 - m_p13 : m_p31);
    c.p32 = NetemPercentToU32(m_p32);
    c.p23 = NetemPercentToU32(m_p23);
    c.p14 = NetemPercentToU32(m_p14);
    c.geP = NetemPercentToU32(m_geP);
    c.geR = NetemPercentToU32(m_geR < 0 ? 100 - m_geP : m_geR);
    c.geH = UINT32_MAX - NetemPercentToU32(m_ge1MinusH);
    c.geK1 = NetemPercentToU32(m_ge1MinusK);
    c.ecn = m_ecn;
    c.duplicate = NetemPercentToU32(m_duplicate);
    c.dupCorr = NetemPercentToU32(m_duplicateCorrelation);
    c.reorder = NetemPercentToU32(m_reorder);
    c.reorderCorr = NetemPercentToU32(m_reorderCorrelation);
    c.gap = m_gap;
    c.corrupt = NetemPercentToU32(m_corrupt);
    c.corruptCorr = NetemPercentToU32(m_corruptCorrelation);
    c.rate = m_rate.GetBitRate() / 8;
    c.packetOverhead = m_packetOverhead;
    c.cellSize = m_cellSize;
    c.cellOverhead = m_cellOverhead;
    c.slotMinNs = Ns(m_slotMin);
    c.slotMaxNs = Ns(m_slotMax);
    c.slotDistribution = static_cast<NetemDistribution>(m_slotDistribution);
    c.slotDelayNs = Ns(m_slotDelay);
    c.slotJitterNs = Ns(m_slotJitter);
    c.slotPackets = m_slotPackets;
    c.slotBytes = m_slotBytes;
    if (m_seed != 0)
    {
        c.seed = m_seed;
    }
    return c;
}

void
NetemQueueDisc::ApplyConfig(const NetemConfig& c)
{
    m_limit = c.limit;
    m_delay = NanoSeconds(static_cast<int64_t>(c.latencyNs));
    m_jitter = NanoSeconds(static_cast<int64_t>(c.jitterNs));
    m_delayCorrelation = NetemU32ToPercent(c.delayCorr);
    m_distribution = static_cast<Distribution>(c.distribution);
    m_lossModel = static_cast<LossModel>(c.lossModel);
    m_loss = NetemU32ToPercent(c.loss);
    m_lossCorrelation = NetemU32ToPercent(c.lossCorr);
    m_p13 = NetemU32ToPercent(c.p13);
    m_p31 = NetemU32ToPercent(c.p31);
    m_p32 = NetemU32ToPercent(c.p32);
    m_p23 = NetemU32ToPercent(c.p23);
    m_p14 = NetemU32ToPercent(c.p14);
    m_geP = NetemU32ToPercent(c.geP);
    m_geR = NetemU32ToPercent(c.geR);
    m_ge1MinusH = NetemU32ToPercent(UINT32_MAX - c.geH);
    m_ge1MinusK = NetemU32ToPercent(c.geK1);
    m_ecn = c.ecn;
    m_duplicate = NetemU32ToPercent(c.duplicate);
    m_duplicateCorrelation = NetemU32ToPercent(c.dupCorr);
    m_reorder = NetemU32ToPercent(c.reorder);
    m_reorderCorrelation = NetemU32ToPercent(c.reorderCorr);
    m_gap = c.gap;
    m_corrupt = NetemU32ToPercent(c.corrupt);
    m_corruptCorrelation = NetemU32ToPercent(c.corruptCorr);
    m_rate = DataRate(c.rate * 8);
    m_packetOverhead = c.packetOverhead;
    m_cellSize = c.cellSize;
    m_cellOverhead = c.cellOverhead;
    m_slotMin = NanoSeconds(static_cast<int64_t>(c.slotMinNs));
    m_slotMax = NanoSeconds(static_cast<int64_t>(c.slotMaxNs));
    m_slotDistribution = static_cast<Distribution>(c.slotDistribution);
    m_slotDelay = NanoSeconds(static_cast<int64_t>(c.slotDelayNs));
    m_slotJitter = NanoSeconds(static_cast<int64_t>(c.slotJitterNs));
    m_slotPackets = c.slotPackets;
    m_slotBytes = c.slotBytes;
    m_seed = c.seed.value_or(0);
}

void
NetemQueueDisc::SetOptions(std::string options)
{
    NS_LOG_FUNCTION(this << options);
    NetemConfig config = BuildConfig();
    // The message is kept and the run stopped outside the handler, so that the abort is
    // not taken for an exception thrown while handling another.
    std::string problem;
    try
    {
        ParseNetemOptions(config, options);
    }
    catch (const std::invalid_argument& error)
    {
        problem = error.what();
    }
    NS_ABORT_MSG_IF(!problem.empty(), "NetemQueueDisc: " << problem);
    ApplyConfig(config);
    NS_LOG_INFO("Options \"" << options << "\" set the attributes to \""
                             << FormatNetemOptions(config) << "\"");
}

std::string
NetemQueueDisc::GetOptions() const
{
    return FormatNetemOptions(BuildConfig());
}

void
NetemQueueDisc::ValidateOptions(const std::string& options)
{
    NetemConfig config;
    ParseNetemOptions(config, options);
}

bool
NetemQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0,
                    "NetemQueueDisc: cannot have classes (netem's child qdisc is not modelled)");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "NetemQueueDisc: keeps its own internal queue; do not add one");
    NS_ABORT_MSG_IF(GetNPacketFilters() > 0, "NetemQueueDisc: does not classify packets");
    m_config = BuildConfig();
    std::string problem;
    try
    {
        ValidateNetemConfig(m_config);
    }
    catch (const std::invalid_argument& error)
    {
        problem = error.what();
    }
    NS_ABORT_MSG_IF(!problem.empty(),
                    "NetemQueueDisc: the attributes are not a valid netem: " << problem);
    NS_LOG_INFO("Configuration: " << FormatNetemOptions(m_config));
    m_list = CreateObject<QueueDiscItemList>();
    m_list->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, UINT32_MAX));
    AddInternalQueue(m_list);
    return true;
}

void
NetemQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // netem_init(): the prng's seed from get_random_u64() (unless tc gave one), and here also
    // the seed of the get_random_u32() stand-in.
    auto draw = [this] {
        return (static_cast<uint64_t>(m_uniform->GetInteger(0, UINT32_MAX)) << 32) |
               m_uniform->GetInteger(0, UINT32_MAX);
    };
    const uint64_t seed = draw();
    const uint64_t entropy = draw();
    m_scheduler = std::make_unique<NetemScheduler>(m_config,
                                                   seed,
                                                   entropy,
                                                   Simulator::Now().GetNanoSeconds());
}

bool
NetemQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    NetemScheduler& netem = *m_scheduler;
    NetemStats& stats = netem.GetStats();
    // Random duplication (not of a copy: the kernel marks it with tc_depth).
    int count = 1;
    if (!m_enqueuingDuplicate && netem.DrawDuplicate())
    {
        ++count;
    }
    // Drop packet?
    if (netem.DrawLoss())
    {
        if (m_config.ecn && Mark(item, ECN_MARK))
        {
            stats.ecnMarked++;
            NS_LOG_DEBUG("loss model: CE-marked instead of dropped");
        }
        else
        {
            --count;
        }
    }
    if (count == 0)
    {
        stats.dropped++;
        NS_LOG_DEBUG("loss model: dropped");
        DropBeforeEnqueue(item, LOSS_DROP);
        return false;
    }
    // The copy is made before the original is corrupted.
    Ptr<QueueDiscItem> copy = count > 1 ? Copy(item) : nullptr;
    if (netem.DrawCorrupt())
    {
        Corrupt(item);
    }
    if (netem.IsFull(static_cast<uint32_t>(GetNPackets())))
    {
        NS_LOG_DEBUG("limit " << m_config.limit << " reached: dropped");
        DropBeforeEnqueue(item, LIMIT_DROP); // the copy, never enqueued, is freed
        return false;
    }
    const uint32_t len = item->GetSize() + ETH_HLEN;
    const QueueDiscItemList::Handle handle = m_list->Insert(item);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const int64_t timeToSend = netem.Insert(handle, len, now);
    NS_LOG_LOGIC("time_to_send " << timeToSend << " ns (in " << timeToSend - now << " ns), "
                                 << netem.GetQlen() << " packets queued");
    m_scheduleTrace(item, NanoSeconds(timeToSend));
    if (copy)
    {
        // Deviation from Linux (see the class): the copy follows the original, into this
        // queue disc.
        stats.duplicated++;
        NS_LOG_DEBUG("duplicate: enqueuing the copy");
        m_duplicateTrace(item);
        m_enqueuingDuplicate = true;
        Enqueue(copy);
        m_enqueuingDuplicate = false;
    }
    return true;
}

Ptr<QueueDiscItem>
NetemQueueDisc::Copy(Ptr<const QueueDiscItem> item)
{
    Ptr<Packet> packet = item->GetPacket()->Copy();
    // skb_clone() takes neither the socket nor its destructor: no TCP small queues charge.
    TsqTag charge;
    packet->RemovePacketTag(charge);
    Ptr<QueueDiscItem> copy;
    if (auto ipv4 = DynamicCast<const Ipv4QueueDiscItem>(item))
    {
        copy = Create<Ipv4QueueDiscItem>(packet,
                                         item->GetAddress(),
                                         item->GetProtocol(),
                                         ipv4->GetHeader());
    }
    else if (auto ipv6 = DynamicCast<const Ipv6QueueDiscItem>(item))
    {
        copy = Create<Ipv6QueueDiscItem>(packet,
                                         item->GetAddress(),
                                         item->GetProtocol(),
                                         ipv6->GetHeader());
    }
    else if (auto arp = DynamicCast<const ArpQueueDiscItem>(item))
    {
        copy = Create<ArpQueueDiscItem>(packet,
                                        item->GetAddress(),
                                        item->GetProtocol(),
                                        arp->GetHeader());
    }
    else
    {
        NS_LOG_DEBUG("duplicate: cannot copy an item of type " << typeid(*item).name());
        return nullptr;
    }
    copy->SetTxQueueIndex(item->GetTxQueueIndex());
    return copy;
}

void
NetemQueueDisc::Corrupt(Ptr<QueueDiscItem> item)
{
    Ptr<Packet> packet = item->GetPacket();
    const uint32_t size = packet->GetSize();
    if (size == 0)
    {
        return; // skb_headlen() 0: nothing to flip
    }
    // skb->data[get_random_u32_below(headlen)] ^= 1 << get_random_u32_below(8).
    Prandom& entropy = m_scheduler->GetEntropy();
    const uint32_t byte = NetemRandomBelow(size, entropy);
    const uint32_t bit = NetemRandomBelow(8, entropy);
    uint8_t value = 0;
    packet->CreateFragment(byte, 1)->CopyData(&value, 1);
    value ^= static_cast<uint8_t>(1U << bit);
    // ns-3 packets have no writable bytes: the packet is rebuilt in place around the byte,
    // keeping its uid and packet tags (and the byte tags of the bytes after it).
    Ptr<Packet> tail = packet->CreateFragment(byte + 1, size - byte - 1);
    packet->RemoveAtEnd(size - byte);
    packet->AddAtEnd(Create<Packet>(&value, 1));
    packet->AddAtEnd(tail);
    m_scheduler->GetStats().corrupted++;
    NS_LOG_DEBUG("corrupt: byte " << byte << " bit " << bit);
    m_corruptTrace(item, byte, bit);
}

Ptr<QueueDiscItem>
NetemQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    const std::optional<QueueDiscItemList::Handle> handle =
        m_scheduler->Dequeue(Simulator::Now().GetNanoSeconds());
    if (const std::optional<int64_t> at = m_scheduler->TakeWatchdog())
    {
        NS_LOG_LOGIC("holding " << m_scheduler->GetQlen() << " packets until " << *at << " ns");
        m_watchdog.Schedule(*at);
    }
    if (!handle)
    {
        return nullptr;
    }
    return m_list->Take(*handle);
}

const NetemConfig&
NetemQueueDisc::GetConfig() const
{
    return m_config;
}

const NetemStats&
NetemQueueDisc::GetNetemStats() const
{
    NS_ABORT_MSG_IF(!m_scheduler, "NetemQueueDisc: not initialized yet");
    return m_scheduler->GetStats();
}

void
NetemQueueDisc::PrintStats(std::ostream& os, const std::string& parent)
{
    // netem_print_opt(), tc's generic statistics, then netem_print_xstats().
    const Stats& stats = GetStats();
    const NetemConfig config = m_scheduler ? m_config : BuildConfig();
    const uint64_t reordered = m_scheduler ? m_scheduler->GetStats().reordered : 0;
    const uint64_t requeues = stats.nTotalRequeuedPackets + reordered;
    os << "qdisc netem " << parent << " " << FormatNetemOptions(config) << "\n Sent "
       << stats.nTotalSentBytes << " bytes " << stats.nTotalSentPackets << " pkt (dropped "
       << stats.nTotalDroppedPackets << ", overlimits 0 requeues " << requeues << ")\n backlog "
       << GetNBytes() << "b " << GetNPackets() << "p requeues " << requeues << "\n";
    if (m_scheduler)
    {
        const NetemStats& x = m_scheduler->GetStats();
        os << "  delayed " << x.delayed << " dropped " << x.dropped << " corrupted " << x.corrupted
           << " duplicated " << x.duplicated << " reordered " << x.reordered << " ecn_marked "
           << x.ecnMarked << "\n";
    }
}

} // namespace debloat
} // namespace ns3
