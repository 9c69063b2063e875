/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "htb-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/psched.h"
#include "ns3/queue-disc-streams.h"
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

NS_LOG_COMPONENT_DEFINE("HtbQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(HtbQueueDisc);

TypeId
HtbQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::HtbQueueDisc")
            .SetParent<QueueDisc>()
            .SetGroupName("Debloat")
            .AddConstructor<HtbQueueDisc>()
            .AddAttribute("Default",
                          "default: minor id of the class for unclassified packets (0: the "
                          "direct queue)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&HtbQueueDisc::m_defaultClass),
                          MakeUintegerChecker<uint32_t>(0, 0xFFFF))
            .AddAttribute("R2q",
                          "r2q: a class's default quantum is its rate / r2q",
                          UintegerValue(10),
                          MakeUintegerAccessor(&HtbQueueDisc::m_r2q),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DirectQlen",
                          "direct_qlen: packets the direct queue holds",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&HtbQueueDisc::m_directQlen),
                          MakeUintegerChecker<uint32_t>(1))
            // After Default, R2q and DirectQlen: ns-3 sets attributes in this order, so a
            // qdisc line given at construction wins over them, as it did when it overrode
            // them at initialization.
            .AddAttribute("Options",
                          "the tc-htb qdisc line, e.g. \"default 12 r2q 10\": sets Default "
                          "and R2q (tc's defaults 0 and 10 when not named) and DirectQlen "
                          "(when named); reads back as the effective line",
                          StringValue(""),
                          MakeStringAccessor(&HtbQueueDisc::SetOptions, &HtbQueueDisc::GetOptions),
                          MakeStringChecker())
            .AddAttribute("Classes",
                          "tc class lines separated by ';' or newlines, e.g. \"parent 1: "
                          "classid 1:1 rate 92Mbit; parent 1:1 classid 1:10 rate 92Mbit\"",
                          StringValue(""),
                          MakeStringAccessor(&HtbQueueDisc::m_classes),
                          MakeStringChecker())
            .AddTraceSource("ClassModeChange",
                            "a class's mode changed (htb_change_class_mode()): its minor id, "
                            "the old and the new mode (HTB_CANT_SEND, HTB_MAY_BORROW, "
                            "HTB_CAN_SEND)",
                            MakeTraceSourceAccessor(&HtbQueueDisc::m_classModeChangeTrace),
                            "ns3::debloat::HtbQueueDisc::ClassModeTracedCallback");
    return tid;
}

HtbQueueDisc::HtbQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS),
      m_watchdog(this)
{
    NS_LOG_FUNCTION(this);
}

HtbQueueDisc::~HtbQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

void
HtbQueueDisc::DoDispose()
{
    m_watchdog.Cancel();
    m_scheduler.reset();
    m_leafQdiscs.clear();
    m_pendingLeaves.clear();
    m_pulled = nullptr;
    QueueDisc::DoDispose();
}

void
HtbQueueDisc::SetOptions(const std::string& options)
{
    NS_LOG_FUNCTION(this << options);
    if (options.find_first_not_of(" \t\n") == std::string::npos)
    {
        return; // the default value, set at construction: the attributes stay
    }
    NS_ABORT_MSG_IF(m_scheduler, "HtbQueueDisc: Options set after initialization");
    HtbQdiscOptions parsed;
    try
    {
        parsed = ParseHtbQdiscOptions(options);
    }
    catch (const std::invalid_argument& error)
    {
        NS_ABORT_MSG("HtbQueueDisc: Options \"" << options << "\": " << error.what());
    }
    m_defaultClass = parsed.defaultClass;
    m_r2q = parsed.r2q;
    if (parsed.directQlen)
    {
        m_directQlen = parsed.directQlen;
    }
}

std::string
HtbQueueDisc::GetOptions() const
{
    std::ostringstream line;
    line << "default " << std::hex << m_defaultClass << std::dec << " r2q " << m_r2q
         << " direct_qlen " << m_directQlen;
    return line.str();
}

void
HtbQueueDisc::AddClass(const std::string& line)
{
    NS_ABORT_MSG_IF(m_scheduler, "HtbQueueDisc: AddClass() after initialization");
    m_classLines.push_back(line);
}

void
HtbQueueDisc::SetLeafQueueDisc(uint32_t id, Ptr<QueueDisc> qdisc)
{
    NS_ABORT_MSG_IF(m_scheduler, "HtbQueueDisc: SetLeafQueueDisc() after initialization");
    NS_ABORT_MSG_IF(!qdisc, "HtbQueueDisc: class " << FormatHtbClassId(id) << ": no queue disc");
    m_pendingLeaves[id] = qdisc;
}

bool
HtbQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    try
    {
        m_scheduler = std::make_unique<HtbScheduler>(m_r2q);
        std::vector<std::string> lines = SplitHtbClassLines(m_classes);
        lines.insert(lines.end(), m_classLines.begin(), m_classLines.end());
        for (const std::string& line : lines)
        {
            m_scheduler->AddClass(ParseHtbClass(line));
        }
    }
    catch (const std::invalid_argument& error)
    {
        NS_ABORT_MSG("HtbQueueDisc: " << error.what());
    }
    m_scheduler->SetModeChangeObserver([this](uint32_t id, HtbMode oldMode, HtbMode newMode) {
        NotifyModeChange(id, oldMode, newMode);
    });
    m_leaves = m_scheduler->GetLeaves();
    std::sort(m_leaves.begin(), m_leaves.end());
    NS_ABORT_MSG_IF(m_leaves.empty(), "HtbQueueDisc: no classes (give \"Classes\")");

    if (!m_pendingLeaves.empty())
    {
        NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0,
                        "HtbQueueDisc: leaf queue discs given both with SetLeafQueueDisc() "
                        "and as QueueDiscClasses");
        for (const auto& [id, qdisc] : m_pendingLeaves)
        {
            NS_ABORT_MSG_IF(!m_scheduler->HasClass(id),
                            "HtbQueueDisc: class " << FormatHtbClassId(id)
                                                   << " has a queue disc but does not exist");
            NS_ABORT_MSG_IF(!m_scheduler->IsLeaf(id),
                            "HtbQueueDisc: class " << FormatHtbClassId(id)
                                                   << " has children: only leaves have a queue "
                                                      "disc");
        }
        for (uint32_t id : m_leaves)
        {
            const auto it = m_pendingLeaves.find(id);
            NS_ABORT_MSG_IF(it == m_pendingLeaves.end(),
                            "HtbQueueDisc: leaf class "
                                << FormatHtbClassId(id)
                                << " has no queue disc (Linux would give it pfifo)");
            Ptr<QueueDiscClass> qdClass = CreateObject<QueueDiscClass>();
            qdClass->SetQueueDisc(it->second);
            AddQueueDiscClass(qdClass);
        }
    }
    if (GetNQueueDiscClasses() < m_leaves.size())
    {
        NS_ABORT_MSG("HtbQueueDisc: leaf class "
                     << FormatHtbClassId(m_leaves[GetNQueueDiscClasses()])
                     << " has no queue disc (one QueueDiscClass per leaf, in classid order; "
                        "Linux would give it pfifo)");
    }
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > m_leaves.size(),
                    "HtbQueueDisc: " << GetNQueueDiscClasses() << " QueueDiscClasses for "
                                     << m_leaves.size() << " leaf classes");
    // The leaves see the device as their parent does: ns-3 gives the NetDeviceQueueInterface
    // only to the root, and a leaf such as FqCoDel takes its quantum from the device's MTU
    // (without it, its configuration is refused). The leaves initialize after this.
    Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface();
    for (size_t i = 0; i < m_leaves.size(); ++i)
    {
        m_leafQdiscs.push_back(GetQueueDiscClass(i)->GetQueueDisc());
        if (ndqi && !m_leafQdiscs.back()->GetNetDeviceQueueInterface())
        {
            m_leafQdiscs.back()->SetNetDeviceQueueInterface(ndqi);
        }
    }
    if (m_defaultClass)
    {
        NS_ABORT_MSG_IF(!m_scheduler->HasClass(m_defaultClass),
                        "HtbQueueDisc: default class " << FormatHtbClassId(m_defaultClass)
                                                       << " does not exist");
        NS_ABORT_MSG_IF(!m_scheduler->IsLeaf(m_defaultClass),
                        "HtbQueueDisc: default class " << FormatHtbClassId(m_defaultClass)
                                                       << " is not a leaf");
    }
    // The direct queue.
    NS_ABORT_MSG_IF(GetNInternalQueues() > 0,
                    "HtbQueueDisc: keeps its own direct queue; do not add internal queues");
    Ptr<DropTailQueue<QueueDiscItem>> direct = CreateObject<DropTailQueue<QueueDiscItem>>();
    direct->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, m_directQlen));
    AddInternalQueue(direct);
    NS_LOG_INFO("htb " << GetOptions() << ": " << m_leaves.size() << " leaves, first "
                       << FormatHtbClassId(m_leaves.front()));
    return true;
}

void
HtbQueueDisc::NotifyModeChange(uint32_t classId, HtbMode oldMode, HtbMode newMode)
{
    NS_LOG_LOGIC("class " << FormatHtbClassId(classId) << ": " << HtbModeName(oldMode) << " -> "
                          << HtbModeName(newMode));
    m_classModeChangeTrace(classId, oldMode, newMode);
}

int64_t
HtbQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    // The leaves in classid order: known once initialized; before, the SetLeafQueueDisc()
    // map (ordered by id) or the QueueDiscClasses (in classid order, as required).
    std::vector<Ptr<QueueDisc>> leaves = m_leafQdiscs;
    if (leaves.empty())
    {
        for (const auto& [id, qdisc] : m_pendingLeaves)
        {
            leaves.push_back(qdisc);
        }
        for (size_t i = 0; m_pendingLeaves.empty() && i < GetNQueueDiscClasses(); ++i)
        {
            leaves.push_back(GetQueueDiscClass(i)->GetQueueDisc());
        }
    }
    int64_t current = stream;
    for (const Ptr<QueueDisc>& leaf : leaves)
    {
        current += AssignQueueDiscStreams(leaf, current);
    }
    return current - stream;
}

void
HtbQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
}

QueueDisc*
HtbQueueDisc::LeafQdisc(uint32_t id) const
{
    // A binary search of the few leaves: no map lookup per packet.
    const auto it = std::lower_bound(m_leaves.begin(), m_leaves.end(), id);
    if (it == m_leaves.end() || *it != id || m_leafQdiscs.empty())
    {
        return nullptr;
    }
    return PeekPointer(m_leafQdiscs[it - m_leaves.begin()]);
}

const HtbScheduler&
HtbQueueDisc::GetScheduler() const
{
    NS_ABORT_MSG_IF(!m_scheduler, "HtbQueueDisc: not initialized yet");
    return *m_scheduler;
}

const std::vector<uint32_t>&
HtbQueueDisc::GetLeaves() const
{
    return m_leaves;
}

bool
HtbQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    // htb_classify(): the filters, else the default class, else the direct queue.
    uint32_t leaf = m_defaultClass;
    if (GetNPacketFilters() > 0)
    {
        const int32_t result = Classify(item);
        if (result > 0 && LeafQdisc(static_cast<uint32_t>(result)))
        {
            leaf = static_cast<uint32_t>(result);
            NS_LOG_LOGIC("filter: class " << FormatHtbClassId(leaf));
        }
        else
        {
            NS_LOG_LOGIC("filter result " << result << " is no leaf: the default class");
        }
    }
    if (leaf == 0)
    {
        // The internal queue drops (and reports) when full.
        const bool queued = GetInternalQueue(0)->Enqueue(item);
        if (queued)
        {
            m_directPackets++;
            NS_LOG_LOGIC("direct queue: " << GetInternalQueue(0)->GetNPackets() << " packets");
        }
        else
        {
            NS_LOG_LOGIC("dropped: " << DIRECT_QUEUE_FULL << " (" << m_directQlen << " packets)");
        }
        return queued;
    }
    QueueDisc* qdisc = LeafQdisc(leaf);
    // A child's drop is reported to this queue disc by ns-3 (ChildQueueDiscDropped).
    if (!qdisc->Enqueue(item))
    {
        NS_LOG_LOGIC("dropped by the queue disc of leaf " << FormatHtbClassId(leaf));
        return false;
    }
    NS_LOG_LOGIC("class " << FormatHtbClassId(leaf) << ": " << qdisc->GetNPackets() << " packets");
    m_scheduler->Activate(leaf, Simulator::Now().GetNanoSeconds());
    return true;
}

Ptr<QueueDiscItem>
HtbQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    // htb_dequeue(): the direct queue first, unshaped.
    if (Ptr<QueueDiscItem> item = GetInternalQueue(0)->Dequeue())
    {
        return item;
    }
    auto pull = [this](uint32_t leaf) -> std::optional<uint32_t> {
        m_pulled = LeafQdisc(leaf)->Dequeue();
        if (!m_pulled)
        {
            return std::nullopt;
        }
        return m_pulled->GetSize() + ETH_HLEN;
    };
    auto empty = [this](uint32_t leaf) { return LeafQdisc(leaf)->GetNPackets() == 0; };
    const std::optional<uint32_t> leaf =
        m_scheduler->Dequeue(Simulator::Now().GetNanoSeconds(), pull, empty);
    if (!leaf)
    {
        ArmWatchdog();
        return nullptr;
    }
    NS_LOG_LOGIC("class " << FormatHtbClassId(*leaf) << " sends "
                          << (m_scheduler->GetLastSendLevel() == 0
                                  ? std::string("at its own rate")
                                  : "borrowing at level " +
                                        std::to_string(m_scheduler->GetLastSendLevel())));
    Ptr<QueueDiscItem> item = m_pulled;
    m_pulled = nullptr;
    return item;
}

void
HtbQueueDisc::ArmWatchdog()
{
    const std::optional<int64_t> next = m_scheduler->GetNextEvent();
    if (next && GetNPackets() > 0)
    {
        NS_LOG_LOGIC("no class may send: watchdog at " << *next << " ns");
        m_watchdog.Schedule(*next);
    }
}

void
HtbQueueDisc::PrintStats(std::ostream& os)
{
    const Stats& stats = GetStats();
    os << "qdisc htb 1: root r2q " << m_r2q << " default " << std::hex << "0x" << m_defaultClass
       << std::dec << " direct_packets_stat " << m_directPackets << " direct_qlen " << m_directQlen
       << "\n Sent " << stats.nTotalSentBytes << " bytes " << stats.nTotalSentPackets
       << " pkt (dropped " << stats.nTotalDroppedPackets << ", overlimits "
       << (m_scheduler ? m_scheduler->GetOverlimits() : 0) // htb_dump(): q->overlimits
       << " requeues " << stats.nTotalRequeuedPackets << ")\n backlog " << GetNBytes() << "b "
       << GetNPackets() << "p requeues " << stats.nTotalRequeuedPackets << "\n";
}

void
HtbQueueDisc::PrintClassStats(std::ostream& os) const
{
    if (!m_scheduler)
    {
        return;
    }
    std::vector<uint32_t> ids;
    for (uint32_t id = 1; id <= 0xFFFF; ++id)
    {
        if (m_scheduler->HasClass(id))
        {
            ids.push_back(id);
        }
    }
    for (uint32_t id : ids)
    {
        const HtbClassConfig& config = m_scheduler->GetClassConfig(id);
        const HtbClassStats stats = m_scheduler->GetClassStats(id);
        // htb_print_opt(): "class htb 1:10 parent 1:1 leaf 10: prio 0 rate ... ceil ... burst
        // ... cburst ...", then the counters and htb_print_xstats().
        os << "class htb " << FormatHtbClassId(id) << " ";
        if (config.parent)
        {
            os << "parent " << FormatHtbClassId(config.parent) << " ";
        }
        else
        {
            os << "root ";
        }
        if (stats.leaf)
        {
            os << "prio " << config.prio << " ";
        }
        os << "rate " << FormatTcRate(config.rate.bytesPerSecond * 8) << " ceil "
           << FormatTcRate(config.ceil.bytesPerSecond * 8) << " burst "
           << FormatTcSize(config.burst) << " cburst " << FormatTcSize(config.cburst) << "\n";
        uint32_t backlogPackets = 0;
        uint64_t backlogBytes = 0;
        uint64_t drops = 0;
        if (stats.leaf)
        {
            if (QueueDisc* leaf = LeafQdisc(id))
            {
                backlogPackets = leaf->GetNPackets();
                backlogBytes = leaf->GetNBytes();
                drops = leaf->GetStats().nTotalDroppedPackets;
            }
        }
        // tokens and ctokens as PSCHED_NS2TICKS(): ns >> 6.
        os << " Sent " << stats.bytes << " bytes " << stats.packets << " pkt (dropped " << drops
           << ", overlimits " << stats.overlimits << " requeues 0)\n backlog " << backlogBytes
           << "b " << backlogPackets << "p requeues 0\n lended: " << stats.lends
           << " borrowed: " << stats.borrows << " giants: " << stats.giants
           << "\n tokens: " << (stats.tokens >> 6) << " ctokens: " << (stats.ctokens >> 6)
           << "\n\n";
    }
}

} // namespace debloat
} // namespace ns3
