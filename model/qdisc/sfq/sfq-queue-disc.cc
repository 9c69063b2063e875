/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sfq-queue-disc.h"

#include "red-core.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/flow-dissector.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/psched.h"
#include "ns3/queue-disc-item-keys.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tc-options.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("SfqQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(SfqQueueDisc);

namespace
{

// The attributes' defaults (tc-sfq's), which GetOptions() leaves out.
constexpr uint32_t DEFAULT_LIMIT = 127;      ///< limit
constexpr uint32_t DEFAULT_DEPTH = 127;      ///< depth
constexpr uint32_t DEFAULT_FLOWS = 128;      ///< flows
constexpr uint32_t DEFAULT_DIVISOR = 1024;   ///< divisor
constexpr uint32_t DEFAULT_AVPKT = 1000;     ///< avpkt
constexpr double DEFAULT_PROBABILITY = 0.02; ///< probability

} // namespace

TypeId
SfqQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::SfqQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Debloat")
            .AddConstructor<SfqQueueDisc>()
            .AddAttribute("Limit",
                          "limit: packets in the queue disc (2..; at most depth x flows)",
                          UintegerValue(DEFAULT_LIMIT),
                          MakeUintegerAccessor(&SfqQueueDisc::m_limit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Depth",
                          "depth: packets per flow (1..127)",
                          UintegerValue(DEFAULT_DEPTH),
                          MakeUintegerAccessor(&SfqQueueDisc::m_depth),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "Flows",
                "flows: flow slots (1 or more; as sfq_change(), at most 65408 and divisor)",
                UintegerValue(DEFAULT_FLOWS),
                MakeUintegerAccessor(&SfqQueueDisc::m_flows),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("Divisor",
                          "divisor: hash buckets (a power of two up to 65536)",
                          UintegerValue(DEFAULT_DIVISOR),
                          MakeUintegerAccessor(&SfqQueueDisc::m_divisor),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Quantum",
                          "quantum: bytes a flow sends per round, counted with a 14-byte "
                          "Ethernet header as Linux counts skb->len; 0 is the device MTU + 14 "
                          "(psched_mtu)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SfqQueueDisc::m_quantum),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Perturb",
                          "perturb: period of the hash key's renewal (0: never)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SfqQueueDisc::m_perturb),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Headdrop",
                          "headdrop: drop a flow's oldest packet instead of the new one",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SfqQueueDisc::m_headdrop),
                          MakeBooleanChecker())
            .AddAttribute("Classic",
                          "Run SFQ as Linux ~3.1-3.2 did (128 slots, total limit 127, new "
                          "flows served next, perturbation without rehash)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SfqQueueDisc::m_classic),
                          MakeBooleanChecker())
            .AddAttribute("RedFlowLimit",
                          "redflowlimit: enables per-flow RED; bounds max (bytes; 0: no RED)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SfqQueueDisc::m_redFlowLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RedMin",
                          "min: RED's lower threshold in bytes (0: max / 3)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SfqQueueDisc::m_redMin),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RedMax",
                          "max: RED's upper threshold in bytes (0: redflowlimit / 4)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SfqQueueDisc::m_redMax),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RedAvpkt",
                          "avpkt: RED's average packet size in bytes",
                          UintegerValue(DEFAULT_AVPKT),
                          MakeUintegerAccessor(&SfqQueueDisc::m_redAvpkt),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RedBurst",
                          "burst: RED's burst in packets (0: (2 min + max) / (3 avpkt))",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SfqQueueDisc::m_redBurst),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RedProbability",
                          "probability: RED's marking probability at max",
                          DoubleValue(DEFAULT_PROBABILITY),
                          MakeDoubleAccessor(&SfqQueueDisc::m_redProbability),
                          MakeDoubleChecker<double>())
            .AddAttribute("UseEcn",
                          "ecn: RED marks ECN-capable packets instead of dropping them",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SfqQueueDisc::m_ecn),
                          MakeBooleanChecker())
            .AddAttribute("UseHardDrop",
                          "harddrop: with ecn, still drop above max",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SfqQueueDisc::m_harddrop),
                          MakeBooleanChecker())
            .AddAttribute("Options",
                          "tc-sfq options as one string, e.g. \"limit 127 quantum 1514 "
                          "perturb 10 headdrop\": setting it sets the attributes its words "
                          "name; getting it gives the words that reproduce the attributes",
                          StringValue(""),
                          MakeStringAccessor(&SfqQueueDisc::SetOptions, &SfqQueueDisc::GetOptions),
                          MakeStringChecker())
            .AddTraceSource("FlowDrop",
                            "A packet dropped, with its bucket, its slot (NO_SLOT: none was "
                            "free) and the reason",
                            MakeTraceSourceAccessor(&SfqQueueDisc::m_flowDropTrace),
                            "ns3::debloat::SfqQueueDisc::FlowEventTracedCallback")
            .AddTraceSource("FlowMark",
                            "A packet CE-marked by per-flow RED, with its bucket, its slot and "
                            "the tc_sfqred_stats counter",
                            MakeTraceSourceAccessor(&SfqQueueDisc::m_flowMarkTrace),
                            "ns3::debloat::SfqQueueDisc::FlowEventTracedCallback")
            .AddTraceSource("Perturbation",
                            "The hash key renewed: whether the queued packets were rehashed, "
                            "how many moved and how many were dropped",
                            MakeTraceSourceAccessor(&SfqQueueDisc::m_perturbTrace),
                            "ns3::debloat::SfqQueueDisc::PerturbationTracedCallback");
    return tid;
}

SfqQueueDisc::SfqQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS)
{
    NS_LOG_FUNCTION(this);
    m_uniform = CreateObject<UniformRandomVariable>();
}

SfqQueueDisc::~SfqQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

int64_t
SfqQueueDisc::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

void
SfqQueueDisc::DoDispose()
{
    m_perturbEvent.Cancel();
    m_scheduler.reset();
    m_list = nullptr;
    m_uniform = nullptr;
    QueueDisc::DoDispose();
}

void
SfqQueueDisc::ParseOptions(const std::string& text)
{
    const TcOptions options = SfqParameters::Grammar().Parse(text);
    const bool redWords = options.Has("min") || options.Has("max") || options.Has("avpkt") ||
                          options.Has("burst") || options.Has("probability") ||
                          options.Has("ecn") || options.Has("harddrop");
    if (redWords && !options.Has("redflowlimit") && m_redFlowLimit == 0)
    {
        // tc-sfq: the RED words need redflowlimit.
        options.Reject("redflowlimit",
                       "is required with min, max, avpkt, burst, probability, "
                       "ecn and harddrop");
    }
    auto set = [](uint32_t& field, std::optional<uint64_t> value) {
        if (value)
        {
            field = static_cast<uint32_t>(*value);
        }
    };
    set(m_limit, options.GetUnsigned("limit"));
    set(m_depth, options.GetUnsigned("depth"));
    set(m_flows, options.GetUnsigned("flows"));
    set(m_divisor, options.GetUnsigned("divisor"));
    set(m_quantum, options.GetSize("quantum"));
    set(m_redFlowLimit, options.GetUnsigned("redflowlimit"));
    set(m_redMin, options.GetUnsigned("min"));
    set(m_redMax, options.GetUnsigned("max"));
    set(m_redAvpkt, options.GetSize("avpkt"));
    set(m_redBurst, options.GetUnsigned("burst"));
    if (const auto perturb = options.GetUnsigned("perturb"))
    {
        m_perturb = Seconds(static_cast<double>(*perturb));
    }
    if (const auto probability = options.GetDouble("probability"))
    {
        m_redProbability = *probability;
    }
    // A flag turns its attribute on; its absence leaves the attribute as it was.
    m_headdrop = m_headdrop || options.Has("headdrop");
    m_ecn = m_ecn || options.Has("ecn");
    m_harddrop = m_harddrop || options.Has("harddrop");
}

void
SfqQueueDisc::SetOptions(std::string options)
{
    NS_LOG_FUNCTION(this << options);
    try
    {
        ParseOptions(options);
    }
    catch (const std::invalid_argument& error)
    {
        NS_ABORT_MSG("SfqQueueDisc: " << error.what());
    }
}

std::string
SfqQueueDisc::GetOptions() const
{
    std::ostringstream words;
    auto word = [&words](const char* name, auto value) {
        words << (words.tellp() > 0 ? " " : "") << name << " " << value;
    };
    auto flag = [&words](const char* name, bool on) {
        if (on)
        {
            words << (words.tellp() > 0 ? " " : "") << name;
        }
    };
    auto unlessDefault = [&word](const char* name, uint32_t value, uint32_t defaultValue) {
        if (value != defaultValue)
        {
            word(name, value);
        }
    };
    unlessDefault("limit", m_limit, DEFAULT_LIMIT);
    unlessDefault("depth", m_depth, DEFAULT_DEPTH);
    unlessDefault("flows", m_flows, DEFAULT_FLOWS);
    unlessDefault("divisor", m_divisor, DEFAULT_DIVISOR);
    unlessDefault("quantum", m_quantum, 0);
    if (m_perturb.IsStrictlyPositive())
    {
        // tc takes whole seconds; a finer Perturb prints as a decimal that tc would refuse.
        word("perturb", m_perturb.GetSeconds());
    }
    flag("headdrop", m_headdrop);
    if (m_redFlowLimit > 0)
    {
        // Without redflowlimit the RED attributes do nothing, and tc refuses their words.
        word("redflowlimit", m_redFlowLimit);
        unlessDefault("min", m_redMin, 0);
        unlessDefault("max", m_redMax, 0);
        unlessDefault("avpkt", m_redAvpkt, DEFAULT_AVPKT);
        unlessDefault("burst", m_redBurst, 0);
        if (m_redProbability != DEFAULT_PROBABILITY)
        {
            word("probability", m_redProbability);
        }
        flag("ecn", m_ecn);
        flag("harddrop", m_harddrop);
    }
    return words.str();
}

SfqParameters
SfqQueueDisc::BuildParameters() const
{
    uint32_t quantum = m_quantum;
    if (quantum == 0)
    {
        Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface();
        Ptr<NetDevice> device = ndqi ? ndqi->GetObject<NetDevice>() : nullptr;
        quantum = PschedMtu(device);
    }
    SfqParameters params;
    params.limit = m_limit;
    params.depth = m_depth;
    // sfq_change(): maxflows = min(flows, SFQ_MAX_FLOWS), then at most divisor, so `sfq
    // divisor 32` runs 32 slots instead of refusing the default 128. Flows 0 stays refused
    // (tc's "unchanged", which an attribute cannot express).
    params.flows = std::min({m_flows, SfqParameters::MAX_FLOWS, m_divisor});
    params.divisor = m_divisor;
    params.quantum = quantum;
    params.headdrop = m_headdrop;
    params.classic = m_classic;
    if (m_redFlowLimit > 0)
    {
        TcSfqRedOptions red;
        red.redflowlimit = m_redFlowLimit;
        red.min = m_redMin;
        red.max = m_redMax;
        red.avpkt = m_redAvpkt;
        red.burst = m_redBurst;
        red.probability = m_redProbability;
        red.ecn = m_ecn;
        red.harddrop = m_harddrop;
        params.red = TcSfqRedParameters(red);
    }
    params.Validate();
    return params;
}

void
SfqQueueDisc::ValidateOptions(const std::string& options)
{
    // Options "" here: a user's default Options is part of what is validated, not applied.
    Ptr<SfqQueueDisc> sfq = CreateObjectWithAttributes<SfqQueueDisc>("Options", StringValue(""));
    sfq->ParseOptions(options);
    sfq->BuildParameters();
}

bool
SfqQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0, "SfqQueueDisc: cannot have classes");
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "SfqQueueDisc: keeps its own internal queue; do not add one");
    try
    {
        const SfqParameters params = BuildParameters();
        auto random = [this] {
            return static_cast<uint32_t>(m_uniform->GetInteger(0, UINT32_MAX));
        };
        auto mark = [this](Item item, SfqMarkReason) { return Mark(ItemOf(item), RED_MARK); };
        m_scheduler = std::make_unique<SfqScheduler>(params, random, mark);
    }
    catch (const std::invalid_argument& error)
    {
        NS_ABORT_MSG("SfqQueueDisc: " << error.what());
    }
    ObserveScheduler();
    const uint32_t limit = m_scheduler->GetLimit();
    NS_LOG_INFO("limit " << limit << " flows " << m_scheduler->GetFlows() << " depth "
                         << m_scheduler->GetDepth() << " divisor " << m_divisor << " quantum "
                         << m_scheduler->GetParameters().quantum << (m_classic ? " classic" : ""));
    m_list = CreateObject<QueueDiscItemList>();
    m_list->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, limit + 1));
    AddInternalQueue(m_list);
    return true;
}

void
SfqQueueDisc::ObserveScheduler()
{
    // The scheduler calls these before the adapter takes a dropped packet out of its list,
    // so ItemOf() still finds it.
    SfqObserver observer;
    observer.onDrop = [this](const SfqDropEvent& drop) {
        const char* reason = ReasonString(drop.reason);
        NS_LOG_LOGIC("drop " << (drop.isNew ? "new" : "queued") << " packet of bucket "
                             << drop.bucket << " slot " << drop.slot << ": " << reason);
        m_flowDropTrace(ItemOf(drop.handle), drop.bucket, drop.slot, reason);
    };
    observer.onMark = [this](const SfqMarkEvent& mark) {
        const char* reason = MarkReasonString(mark.reason);
        NS_LOG_LOGIC("RED " << reason << " in bucket " << mark.bucket << " slot " << mark.slot);
        m_flowMarkTrace(ItemOf(mark.handle), mark.bucket, mark.slot, reason);
    };
    observer.onRehash = [this](const SfqRehashEvent& rehash) {
        m_rehashRequeued = rehash.requeued;
        m_rehashDropped = rehash.dropped;
    };
    observer.onSlotAllocated = [](uint32_t bucket, uint32_t slot) {
        NS_LOG_LOGIC("bucket " << bucket << " takes slot " << slot);
    };
    m_scheduler->SetObserver(std::move(observer));
}

void
SfqQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    Perturb();
}

uint32_t
SfqQueueDisc::Hash(const QueueDiscItem* item) const
{
    FlowKeys keys;
    QueueDiscItemFlowKeys(item, keys);
    return FlowHash(keys, m_key0, m_key1);
}

void
SfqQueueDisc::Perturb()
{
    // sfq_perturbation(): a new key; since Linux 3.3 the queued packets move to their new
    // buckets. The first call, at initialization, only draws the key.
    auto draw = [this] {
        return (static_cast<uint64_t>(m_uniform->GetInteger(0, UINT32_MAX)) << 32) |
               m_uniform->GetInteger(0, UINT32_MAX);
    };
    const bool initial = m_key0 == 0 && m_key1 == 0;
    m_key0 = draw();
    m_key1 = draw();
    const bool rehash =
        !initial && !m_classic && GetNPacketFilters() == 0 && m_scheduler->GetQlen() > 0;
    m_rehashRequeued = 0;
    m_rehashDropped = 0;
    if (rehash)
    {
        m_scheduler->Rehash([this](Item item) { return Hash(PeekPointer(m_list->Get(item))); },
                            [this](Item item, uint32_t, SfqDropReason reason) {
                                DropQueued(item, ReasonString(reason));
                            });
    }
    if (!initial)
    {
        NS_LOG_INFO("perturbation: new hash key, " << (rehash ? "rehashed: " : "no rehash: ")
                                                   << m_rehashRequeued << " packets moved, "
                                                   << m_rehashDropped << " dropped");
        m_perturbTrace(rehash, m_rehashRequeued, m_rehashDropped);
    }
    if (m_perturb.IsStrictlyPositive())
    {
        m_perturbEvent = Simulator::Schedule(m_perturb, &SfqQueueDisc::Perturb, this);
    }
}

const char*
SfqQueueDisc::ReasonString(SfqDropReason reason)
{
    switch (reason)
    {
    case SfqDropReason::NO_FREE_SLOT:
        return NO_FREE_SLOT;
    case SfqDropReason::FLOW_DEPTH:
        return FLOW_DEPTH;
    case SfqDropReason::RED_PROB_DROP:
        return RED_PROB_DROP;
    case SfqDropReason::RED_FORCED_DROP:
        return RED_FORCED_DROP;
    case SfqDropReason::OVERLIMIT:
        return OVERLIMIT;
    }
    return OVERLIMIT;
}

const char*
SfqQueueDisc::MarkReasonString(SfqMarkReason reason)
{
    switch (reason)
    {
    case SfqMarkReason::PROB_MARK:
        return "prob_mark";
    case SfqMarkReason::PROB_MARK_HEAD:
        return "prob_mark_head";
    case SfqMarkReason::FORCED_MARK:
        return "forced_mark";
    case SfqMarkReason::FORCED_MARK_HEAD:
        return "forced_mark_head";
    }
    return "forced_mark";
}

void
SfqQueueDisc::DropQueued(Item item, const char* reason)
{
    // As FqCoDel does for a queued packet: out of the internal queue, then dropped.
    DropAfterDequeue(m_list->Take(item), reason);
}

Ptr<QueueDiscItem>
SfqQueueDisc::ItemOf(Item item) const
{
    // The scheduler sees the arriving packet (RED may mark it) before the list has it: it
    // carries the handle the list gives next, which no queued packet holds.
    return m_arriving && item == m_list->NextHandle() ? m_arriving : m_list->Get(item);
}

bool
SfqQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    uint32_t hash;
    if (GetNPacketFilters() > 0)
    {
        // sfq_classify() with filters: class minor 1..divisor is the bucket; else a drop.
        const int32_t minor = Classify(item);
        if (minor < 1 || static_cast<uint32_t>(minor) > m_divisor)
        {
            NS_LOG_LOGIC("no filter gives a class in 1.." << m_divisor << ": " << minor);
            DropBeforeEnqueue(item, UNCLASSIFIED);
            return false;
        }
        hash = static_cast<uint32_t>(minor - 1);
    }
    else
    {
        hash = Hash(PeekPointer(item));
    }
    const Item handle = m_list->NextHandle();
    m_arriving = item;
    const auto result = m_scheduler->Enqueue(handle, item->GetSize() + ETH_HLEN, hash);
    m_arriving = nullptr;
    if (result.accepted)
    {
        m_list->Insert(item);
    }
    if (result.drop)
    {
        if (result.drop->isNew)
        {
            DropBeforeEnqueue(item, ReasonString(result.drop->reason));
        }
        else
        {
            DropQueued(result.drop->handle, ReasonString(result.drop->reason));
        }
    }
    NS_ASSERT_MSG(result.accepted || (result.drop && result.drop->isNew),
                  "SfqQueueDisc: a packet neither queued nor dropped");
    return result.accepted;
}

Ptr<QueueDiscItem>
SfqQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    const std::optional<Item> item = m_scheduler->Dequeue();
    if (!item)
    {
        return nullptr;
    }
    return m_list->Take(*item);
}

const SfqScheduler&
SfqQueueDisc::GetScheduler() const
{
    NS_ABORT_MSG_IF(!m_scheduler, "SfqQueueDisc: not initialized yet");
    return *m_scheduler;
}

void
SfqQueueDisc::PrintStats(std::ostream& os, const std::string& parent)
{
    // tc/q_sfq.c's sfq_print_opt(), then tc's generic statistics.
    const Stats& stats = GetStats();
    os << "qdisc sfq " << parent << " limit " << (m_scheduler ? m_scheduler->GetLimit() : m_limit)
       << "p quantum " << (m_scheduler ? m_scheduler->GetParameters().quantum : m_quantum)
       << "b depth " << m_depth << " divisor " << m_divisor;
    if (m_perturb.IsStrictlyPositive())
    {
        os << " perturb " << m_perturb.GetSeconds() << "sec";
    }
    if (m_headdrop)
    {
        os << " headdrop";
    }
    if (m_classic)
    {
        os << " (classic)";
    }
    os << "\n Sent " << stats.nTotalSentBytes << " bytes " << stats.nTotalSentPackets
       << " pkt (dropped " << stats.nTotalDroppedPackets << ", overlimits "
       << (m_scheduler ? m_scheduler->GetOverlimits() : 0) << " requeues "
       << stats.nTotalRequeuedPackets << ")\n backlog " << GetNBytes() << "b " << GetNPackets()
       << "p requeues " << stats.nTotalRequeuedPackets << "\n";
    if (m_scheduler && m_redFlowLimit > 0)
    {
        const SfqRedStats& red = m_scheduler->GetRedStats();
        os << " prob_mark " << red.probMark << " prob_mark_head " << red.probMarkHead
           << " prob_drop " << red.probDrop << "\n forced_mark " << red.forcedMark
           << " forced_mark_head " << red.forcedMarkHead << " forced_drop " << red.forcedDrop
           << "\n";
    }
}

void
SfqQueueDisc::PrintClassStats(std::ostream& os) const
{
    if (!m_scheduler)
    {
        return;
    }
    m_scheduler->ForEachActiveFlow([&os](const SfqFlowStats& flow) {
        os << "class sfq :" << std::hex << flow.bucket + 1 << std::dec << " parent :\n"
           << " (dropped 0, overlimits 0 requeues 0)\n backlog " << flow.backlog << "b "
           << flow.qlen << "p requeues 0\n allot " << flow.allot << "\n";
    });
}

} // namespace debloat
} // namespace ns3
