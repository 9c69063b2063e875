/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * Cost per packet of queue discs, the module's next to ns-3's own, on the same packets in
 * one process.
 *
 * Each queue disc is created alone (no device, no simulation time passing) and fed what
 * ns-3's TCP sends over IPv4: 1500-byte IP packets, a 1448-byte payload under a 32-byte TCP
 * header (the ACK flag and the timestamp option of every ns-3 TCP data segment, which ns-3's
 * FqCoDel and FqCobalt deserialise to hash), a port and address pair per flow. Every one of
 * the --flows flows is active: the queue disc is filled round-robin with --perFlow packets per
 * flow (or --backlog packets spread evenly, when that is more); then each step dequeues a
 * packet and enqueues the next packet of its flow, as an ACK clock would, so that each flow
 * keeps its packets queued whatever the queue disc's order and hash collisions (with
 * --perFlow=1 a flow is empty between its packet leaving and the next arriving). The output
 * prints the active flows and the packets each keeps queued, and after each measurement the
 * queue is drained and checked to hold them still, each packet once. Limits are raised where
 * a default would drop (a drop prints "drops" instead of a figure): pfifo_fast's 1000
 * packets, FqCoDel's and FqCobalt's 10240, TBF's and the HTB leaf's 10000 when the backlog
 * exceeds them, SFQ's limit of 127 and its 128 slots (1024 here, a slot per bucket, as
 * fq_codel has 1024 queues), and CAKE's memlimit when the backlog's truesize exceeds its
 * default. Packets are made beforehand and reused once dequeued (each flow cycles through one
 * more than it keeps queued), so their allocation is not measured.
 *
 * Measured: the process's CPU time (getrusage: unlike wall-clock time it does not count what
 * other processes take) and, where perf_event_open is allowed, instructions, each per packet
 * (dequeue + enqueue, classification included). The table is measured --rounds times, each
 * cell keeping its least CPU time. Then the ratio of each of the module's queue discs to
 * ns-3's closest component in the same run, by instructions when counted, else by CPU time:
 * sfq to fq_codel, cake and cake-flows to fq_cobalt, htb to tbf. Where perf_event_open is
 * refused (as on the development machine), callgrind counts one configuration's
 * instructions; the measured steps are QdiscBenchmarkSteps(), never inlined, so that only
 * they are counted:
 *
 *     valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*QdiscBenchmarkSteps*'
 *         build/examples/qdisc-benchmark --qdisc=cake --flows=64 --packets=200000 --rounds=1
 *
 * and divide "Collected" in its output by --packets (here 2426365495 / 200000: 12132 per packet).
 *
 * Compared: ns-3's FqCoDelQueueDisc, FqCobaltQueueDisc, PfifoFastQueueDisc and TbfQueueDisc,
 * and the module's SfqQueueDisc, CakeQueueDisc and HtbQueueDisc (one class at 100 Gbit/s
 * with a 4 GB bucket, a pfifo leaf, next to TBF with the same rate and bucket: the frozen
 * clock does not run them out of tokens within 2.6 million packets, so this is the cost of
 * their token arithmetic and classification; beyond, they print "stalls"). Targets (set
 * with SFQ and CAKE): SFQ below FqCoDel, about 300 ns per packet at 1024 flows; CAKE about
 * 400 ns and never above FqCobalt. Measured in CPU time on the 2-core development machine (a
 * virtual machine; standalone build against Debian's ns-3.37), default options:
 *
 *     qdisc                      1 flows    64 flows  1024 flows
 *     active flows                     1          64        1024
 *     queued per flow                  4           4           4
 *     pfifo_fast                     327         360         382
 *     fq_codel                      1554        1717        2693
 *     fq_cobalt                     1713        1721        2626
 *     sfq                            425         632         757
 *     cake                           804        1238        7369
 *     tbf                            982         954        1029
 *     htb                            579         627         661
 *     cake-flows                     598         577         671
 *
 *     ratio to ns-3's closest, by CPU time
 *     sfq / fq_codel                0.27        0.37        0.28
 *     cake / fq_cobalt              0.47        0.72        2.81
 *     cake-flows / fq_cobalt        0.35        0.34        0.26
 *     htb / tbf                     0.59        0.66        0.64
 *
 * and in instructions per packet, counted with callgrind as above (--packets=50000
 * --rounds=1 for each cell), which unlike CPU time do not vary from run to run:
 *
 *     instructions               1 flows    64 flows  1024 flows
 *     pfifo_fast                    3392        3392        3392
 *     fq_codel                     13033       13134       13190
 *     fq_cobalt                    13152       13234       13289
 *     sfq                           4344        4340        4340
 *     cake                          5503       12124       95778
 *     tbf                           9053        9052        9052
 *     htb                           6116        6116        6116
 *     cake-flows                    5479        5491        5528
 *
 *     ratio to ns-3's closest, by instructions
 *     sfq / fq_codel                0.33        0.33        0.33
 *     cake / fq_cobalt              0.42        0.92        7.21
 *     cake-flows / fq_cobalt        0.42        0.41        0.42
 *     htb / tbf                     0.68        0.68        0.68
 *
 * SFQ costs a third of FqCoDel's instructions at every flow count and 0.27 to 0.37 of its CPU time;
 * at 1024 flows it takes 757 ns, not the 300 ns targeted (pfifo_fast, ns-3's queue disc accounting
 * around a FIFO, takes 382). CAKE as tc sets it up (triple-isolate) costs less than FqCobalt at 1
 * and 64 flows but 7.21x its instructions (2.81x its CPU time) at 1024 flows: all flows run between
 * one pair of hosts, so triple-isolate divides each flow's DRR quantum by the host's bulk flow
 * count and a packet takes about as many deficit refills as there are active flows, as in the
 * kernel. Isolating flows only, as FqCobalt does, cake-flows costs 0.41 to 0.42 of FqCobalt's
 * instructions at every flow count, 577 to 671 ns, above the 400 ns targeted. HTB costs 0.68 of
 * TBF's instructions; the instructions of neither, nor of pfifo_fast, depend on the flows. In three
 * runs of the default options on that machine, whose other core ran other jobs at times, a cell's
 * CPU time varied by up to 1.74x and a ratio by CPU time by up to 1.61x: comparisons should rest on
 * the instruction counts.
 *
 * Options: --flows (comma-separated, default 1,64,1024), --packets (per cell and round,
 * default 1000000), --perFlow (packets each flow keeps queued, default 4), --backlog (packets
 * kept queued when more than flows x perFlow), --rounds (default 3), --qdisc (comma-separated
 * names from the candidates table in main(), default all).
 */

#include "benchmark-meter.h"

#include "ns3/cake-queue-disc.h"
#include "ns3/cake-tins.h"
#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/htb-queue-disc.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/psched.h"
#include "ns3/sfq-queue-disc.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unordered_set>
#include <vector>

using namespace ns3;

namespace
{

/// A queue disc to measure: tc's name, ns-3's type and its attributes.
struct Candidate
{
    std::string name; ///< tc's name
    std::string type; ///< ns-3 TypeId name
    /// settings, after creation; the argument is the packets it must hold without a drop
    std::function<void(Ptr<QueueDisc>, uint32_t)> configure;
};

/// One of the module's queue discs and ns-3's closest component, compared in the ratios.
struct Pair
{
    std::string module; ///< the module's candidate
    std::string ns3;    ///< ns-3's candidate
};

/// The load of one measurement: flows, each with its packets kept queued.
struct Load
{
    uint32_t flows;   ///< flows, all active
    uint32_t backlog; ///< packets kept queued, spread evenly over the flows

    /**
     * @param flow a flow
     * @return the packets it keeps queued (the first backlog % flows flows keep one more)
     */
    uint32_t Queued(uint32_t flow) const
    {
        return backlog / flows + (flow < backlog % flows ? 1 : 0);
    }

    /// @return the most packets a flow keeps queued
    uint32_t MostQueued() const
    {
        return Queued(0);
    }

    /// @return "4", or "4-5" when the flows keep unequal numbers
    std::string QueuedText() const
    {
        const uint32_t least = backlog / flows;
        return backlog % flows == 0 ? std::to_string(least)
                                    : std::to_string(least) + "-" + std::to_string(least + 1);
    }
};

/// What one measurement gave.
struct Result
{
    debloat_benchmark::Cost cost; ///< of the measured steps
    uint32_t packets{0};          ///< measured steps
    std::string failure;          ///< "" when valid, else what went wrong ("drops", "stalls")

    /// @return CPU time per packet, ns
    double CpuNs() const
    {
        return cost.cpuSeconds * 1e9 / packets;
    }

    /// @return instructions per packet (0: not counted)
    double Instructions() const
    {
        return static_cast<double>(cost.instructions) / packets;
    }
};

/**
 * @param text comma-separated items
 * @return the items
 */
std::vector<std::string>
Split(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ','))
    {
        items.push_back(item);
    }
    return items;
}

/**
 * Makes one TCP/IPv4 data segment of a flow as ns-3's TCP hands it to IP: a 1448-byte
 * payload under a 32-byte TCP header (ACK flag and the timestamp option every ns-3 TCP data
 * segment carries), in a 1500-byte IP packet.
 * @param flow the flow number (its source port and address)
 * @return the queue disc item
 */
Ptr<QueueDiscItem>
MakeItem(uint32_t flow)
{
    Ptr<Packet> packet = Create<Packet>(1448);
    TcpHeader tcp;
    tcp.SetSourcePort(static_cast<uint16_t>(10000 + flow % 50000));
    tcp.SetDestinationPort(5001);
    tcp.SetFlags(TcpHeader::ACK);
    tcp.SetWindowSize(502);
    Ptr<TcpOptionTS> timestamp = CreateObject<TcpOptionTS>();
    timestamp->SetTimestamp(1000 + flow);
    timestamp->SetEcho(900 + flow);
    tcp.AppendOption(timestamp);
    packet->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(0x0a000000 + 1 + flow / 50000));
    ip.SetDestination(Ipv4Address("10.1.0.1"));
    ip.SetProtocol(6);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTtl(64);
    NS_ABORT_MSG_UNLESS(tcp.GetSerializedSize() == 32 &&
                            packet->GetSize() + ip.GetSerializedSize() == 1500,
                        "qdisc-benchmark: the packets are not 1500-byte TCP/IPv4 with timestamps");
    return Create<Ipv4QueueDiscItem>(packet, Address(), 0x0800, ip);
}

/**
 * Prepared packets, reused once dequeued so that their allocation is not measured. Each flow
 * cycles through one more item than it keeps queued: every queue disc here keeps a flow's
 * packets in order, so the item a flow reuses has always left the queue.
 */
class PacketRing
{
  public:
    /**
     * @param flows flows
     * @param slots items per flow
     */
    PacketRing(uint32_t flows, uint32_t slots)
        : m_slots(slots),
          m_position(flows, 0)
    {
        const std::size_t count = static_cast<std::size_t>(flows) * slots;
        m_items.reserve(count);
        m_flowOf.reserve(count);
        for (uint32_t flow = 0; flow < flows; ++flow)
        {
            for (uint32_t slot = 0; slot < slots; ++slot)
            {
                m_items.push_back(MakeItem(flow));
                m_flowOf.push_back(flow);
            }
        }
        // Packet uids are consecutive: a dequeued item's flow is then one look-up away.
        m_firstUid = m_items.front()->GetPacket()->GetUid();
        for (std::size_t i = 0; i < count; ++i)
        {
            NS_ABORT_MSG_UNLESS(m_items[i]->GetPacket()->GetUid() == m_firstUid + i,
                                "qdisc-benchmark: packet uids are not consecutive");
        }
    }

    /**
     * @param flow a flow
     * @return its next item
     */
    const Ptr<QueueDiscItem>& Next(uint32_t flow)
    {
        const uint32_t slot = m_position[flow];
        m_position[flow] = slot + 1 == m_slots ? 0 : slot + 1;
        return m_items[static_cast<std::size_t>(flow) * m_slots + slot];
    }

    /**
     * @param item an item of this ring, as a queue disc gave it back
     * @return its flow
     */
    uint32_t FlowOf(const Ptr<QueueDiscItem>& item) const
    {
        return m_flowOf[item->GetPacket()->GetUid() - m_firstUid];
    }

  private:
    uint32_t m_slots;                        ///< items per flow
    std::vector<Ptr<QueueDiscItem>> m_items; ///< flow f's slot s at f * m_slots + s
    std::vector<uint32_t> m_flowOf;          ///< the flow of each item, by uid - m_firstUid
    std::vector<uint32_t> m_position;        ///< each flow's next slot
    uint64_t m_firstUid{0};                  ///< the first item's packet uid
};

/**
 * The measured stretch, in a function of its own that is never inlined so that callgrind's
 * --toggle-collect can name it: each step dequeues a packet and enqueues the next packet of
 * its flow, as a TCP sender's ACK clock would, so every flow keeps its backlog whatever the
 * queue disc's order and hash collisions.
 * @param qdisc the queue disc, filled
 * @param ring the prepared packets
 * @param packets steps
 * @return the steps done: fewer than packets when a dequeue found nothing
 */
__attribute__((noinline)) uint32_t
QdiscBenchmarkSteps(QueueDisc* qdisc, PacketRing& ring, uint32_t packets)
{
    for (uint32_t i = 0; i < packets; ++i)
    {
        const Ptr<QueueDiscItem> item = qdisc->Dequeue();
        if (!item)
        {
            return i;
        }
        qdisc->Enqueue(ring.Next(ring.FlowOf(item)));
    }
    return packets;
}

/**
 * Measures one queue disc.
 * @param candidate the queue disc
 * @param load flows and backlog
 * @param packets measured dequeue+enqueue steps
 * @param meter measures CPU time and instructions
 * @return the result
 */
Result
Measure(const Candidate& candidate,
        const Load& load,
        uint32_t packets,
        debloat_benchmark::BenchmarkMeter& meter)
{
    ObjectFactory factory(candidate.type);
    Ptr<QueueDisc> qdisc = factory.Create<QueueDisc>();
    if (candidate.configure)
    {
        candidate.configure(qdisc, load.backlog);
    }
    qdisc->Initialize();
    PacketRing ring(load.flows, load.MostQueued() + 1);
    // Filled round-robin, as the flows' packets would arrive.
    for (uint32_t round = 0; round < load.MostQueued(); ++round)
    {
        for (uint32_t flow = 0; flow < load.flows; ++flow)
        {
            if (round < load.Queued(flow))
            {
                qdisc->Enqueue(ring.Next(flow));
            }
        }
    }
    Result result;
    result.packets = packets;
    meter.Start();
    const uint32_t done = QdiscBenchmarkSteps(PeekPointer(qdisc), ring, packets);
    result.cost = meter.Stop();
    // Every flow must still hold its backlog, each packet once.
    std::vector<uint32_t> left(load.flows, 0);
    std::unordered_set<const QueueDiscItem*> seen;
    uint32_t drained = 0;
    while (Ptr<QueueDiscItem> item = qdisc->Dequeue())
    {
        NS_ABORT_MSG_UNLESS(seen.insert(PeekPointer(item)).second,
                            "qdisc-benchmark: " << candidate.name << " held an item twice");
        ++left[ring.FlowOf(item)];
        ++drained;
    }
    const bool dropped = qdisc->GetStats().nTotalDroppedPackets > 0;
    qdisc->Dispose();
    if (dropped)
    {
        result.failure = "drops";
    }
    else if (done < packets || drained < load.backlog)
    {
        result.failure = "stalls";
    }
    else
    {
        for (uint32_t flow = 0; flow < load.flows; ++flow)
        {
            NS_ABORT_MSG_UNLESS(left[flow] == load.Queued(flow),
                                "qdisc-benchmark: "
                                    << candidate.name << " flow " << flow << " ends with "
                                    << left[flow] << " packets queued, not " << load.Queued(flow));
        }
    }
    return result;
}

/// What PrintTable() measures and prints.
struct Plan
{
    std::vector<Candidate> candidates; ///< the queue discs
    std::vector<Pair> pairs;           ///< the ratios to print
    std::vector<Load> loads;           ///< one per column
    uint32_t packets;                  ///< measured steps per cell and round
    uint32_t rounds;                   ///< rounds over the whole table
};

/**
 * Prints one row.
 * @param label the row's name
 * @param cells its cells
 */
void
PrintRow(const std::string& label, const std::vector<std::string>& cells)
{
    std::cout << std::left << std::setw(22) << label << std::right;
    for (const std::string& cell : cells)
    {
        std::cout << std::setw(12) << cell;
    }
    std::cout << std::endl;
}

/**
 * @param value a number
 * @param decimals digits after the point
 * @return the number as text
 */
std::string
Format(double value, int decimals)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(decimals) << value;
    return os.str();
}

/**
 * Measures every candidate for every load and prints the tables and the ratios.
 * @param plan what to measure
 */
void
PrintTable(const Plan* plan)
{
    debloat_benchmark::BenchmarkMeter meter;
    const bool counted = meter.CountsInstructions();
    std::cout << "CPU time per packet (enqueue + dequeue), ns: "
              << (plan->rounds == 1 ? std::string("one round")
                                    : "the least of " + std::to_string(plan->rounds) + " rounds")
              << " of " << plan->packets << " packets\n";
    // Rounds over the whole table, each cell keeping its least CPU time: another process
    // can only slow a round (caches, the core's frequency), and it slows one cell, not all.
    std::vector<std::vector<Result>> results(plan->candidates.size(),
                                             std::vector<Result>(plan->loads.size()));
    for (uint32_t round = 0; round < plan->rounds; ++round)
    {
        for (std::size_t c = 0; c < plan->candidates.size(); ++c)
        {
            for (std::size_t l = 0; l < plan->loads.size(); ++l)
            {
                const Result result =
                    Measure(plan->candidates[c], plan->loads[l], plan->packets, meter);
                Result& best = results[c][l];
                if (round == 0 || !result.failure.empty() ||
                    (best.failure.empty() && result.cost.cpuSeconds < best.cost.cpuSeconds))
                {
                    best = result;
                }
            }
        }
    }
    std::vector<std::string> cells;
    for (const Load& load : plan->loads)
    {
        cells.push_back(std::to_string(load.flows) + " flows");
    }
    PrintRow("qdisc", cells);
    cells.clear();
    for (const Load& load : plan->loads)
    {
        cells.push_back(std::to_string(load.flows));
    }
    PrintRow("active flows", cells);
    cells.clear();
    for (const Load& load : plan->loads)
    {
        cells.push_back(load.QueuedText());
    }
    PrintRow("queued per flow", cells);
    for (std::size_t c = 0; c < plan->candidates.size(); ++c)
    {
        cells.clear();
        for (const Result& result : results[c])
        {
            cells.push_back(result.failure.empty() ? Format(result.CpuNs(), 0) : result.failure);
        }
        PrintRow(plan->candidates[c].name, cells);
    }
    if (counted)
    {
        std::cout << "\ninstructions per packet\n";
        for (std::size_t c = 0; c < plan->candidates.size(); ++c)
        {
            cells.clear();
            for (const Result& result : results[c])
            {
                cells.push_back(result.failure.empty() ? Format(result.Instructions(), 0)
                                                       : result.failure);
            }
            PrintRow(plan->candidates[c].name, cells);
        }
    }
    else
    {
        std::cout << "(instructions not counted: perf_event_open refused; see the source's "
                     "header for callgrind)\n";
    }
    auto find = [plan](const std::string& name) {
        for (std::size_t c = 0; c < plan->candidates.size(); ++c)
        {
            if (plan->candidates[c].name == name)
            {
                return static_cast<int>(c);
            }
        }
        return -1;
    };
    bool header = false;
    for (const Pair& pair : plan->pairs)
    {
        const int module = find(pair.module);
        const int ns3 = find(pair.ns3);
        if (module < 0 || ns3 < 0)
        {
            continue;
        }
        if (!header)
        {
            std::cout << "\nratio to ns-3's closest, by " << (counted ? "instructions" : "CPU time")
                      << "\n";
            header = true;
        }
        cells.clear();
        for (std::size_t l = 0; l < plan->loads.size(); ++l)
        {
            const Result& a = results[module][l];
            const Result& b = results[ns3][l];
            if (!a.failure.empty() || !b.failure.empty())
            {
                cells.emplace_back("-");
            }
            else
            {
                cells.push_back(
                    Format(counted ? a.Instructions() / b.Instructions() : a.CpuNs() / b.CpuNs(),
                           2));
            }
        }
        PrintRow(pair.module + " / " + pair.ns3, cells);
    }
    // A stalled TBF leaves its wake-up scheduled: it must not fire on the disposed queue disc.
    Simulator::Stop();
}

/**
 * @param defaultLimit the queue disc's default limit, packets
 * @param backlog packets it must hold
 * @return the larger, as a queue size
 */
QueueSizeValue
Packets(uint32_t defaultLimit, uint32_t backlog)
{
    return QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, std::max(defaultLimit, backlog)));
}

/**
 * Raises CAKE's memlimit when the backlog's truesize exceeds the default, which without a
 * rate is CAKE_PACKET_LIMIT MTUs of memory.
 * @param q a CakeQueueDisc
 * @param backlog 1500-byte packets it must hold
 */
void
FitCakeMemory(Ptr<QueueDisc> q, uint32_t backlog)
{
    const uint64_t memory =
        uint64_t{backlog} * debloat::CakeQueueDisc::GetTruesize(1500 + debloat::ETH_HLEN);
    if (memory > uint64_t{debloat::CAKE_PACKET_LIMIT} * (debloat::DEFAULT_MTU + debloat::ETH_HLEN))
    {
        q->SetAttribute("MemLimit", UintegerValue(memory));
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::vector<uint32_t> flows{1, 64, 1024};
    uint32_t packets = 1000000;
    uint32_t perFlow = 4;
    uint32_t backlog = 0;
    uint32_t rounds = 3;
    std::string only;
    CommandLine cmd(__FILE__);
    debloat::CommandLineOptions::AddUnsignedList(cmd,
                                                 "flows",
                                                 "flow counts, comma-separated",
                                                 flows,
                                                 1,
                                                 65536);
    debloat::CommandLineOptions::AddUnsigned(cmd,
                                             "packets",
                                             "measured dequeue+enqueue steps",
                                             packets,
                                             1,
                                             1000000000);
    debloat::CommandLineOptions::AddUnsigned(cmd,
                                             "perFlow",
                                             "packets each flow keeps queued",
                                             perFlow,
                                             1,
                                             1000);
    debloat::CommandLineOptions::AddUnsigned(cmd,
                                             "backlog",
                                             "packets kept queued, when more than flows x perFlow "
                                             "(the default, 0, keeps flows x perFlow)",
                                             backlog,
                                             1,
                                             100000);
    debloat::CommandLineOptions::AddUnsigned(cmd,
                                             "rounds",
                                             "rounds over the table; each cell keeps its least "
                                             "CPU time",
                                             rounds,
                                             1,
                                             100);
    cmd.AddValue("qdisc", "queue discs to measure, comma-separated (default all)", only);
    cmd.Parse(argc, argv);

    Plan plan;
    plan.packets = packets;
    plan.rounds = rounds;
    for (uint32_t count : flows)
    {
        const uint64_t queued = std::max<uint64_t>(uint64_t{count} * perFlow, backlog);
        NS_ABORT_MSG_IF(queued > 100000,
                        "qdisc-benchmark: --flows=" << count << " x --perFlow=" << perFlow << " is "
                                                    << queued
                                                    << " packets queued; accepted: at most 100000");
        plan.loads.push_back(Load{count, static_cast<uint32_t>(queued)});
    }
    const std::vector<Candidate> table = {
        {"pfifo_fast",
         "ns3::PfifoFastQueueDisc",
         [](Ptr<QueueDisc> q, uint32_t backlog) {
             q->SetAttribute("MaxSize", Packets(1000, backlog));
         }},
        // Without a device the quantum cannot default to the MTU: set it, as tc would.
        {"fq_codel",
         "ns3::FqCoDelQueueDisc",
         [](Ptr<QueueDisc> q, uint32_t backlog) {
             q->SetAttribute("MaxSize", Packets(10240, backlog));
             DynamicCast<FqCoDelQueueDisc>(q)->SetQuantum(1514);
         }},
        {"fq_cobalt",
         "ns3::FqCobaltQueueDisc",
         [](Ptr<QueueDisc> q, uint32_t backlog) {
             q->SetAttribute("MaxSize", Packets(10240, backlog));
             DynamicCast<FqCobaltQueueDisc>(q)->SetQuantum(1514);
         }},
        // As many slots as buckets, like fq_codel's 1024 queues: the default 128 slots run
        // out (and drop) once more than 128 buckets hold packets.
        {"sfq",
         "ns3::debloat::SfqQueueDisc",
         [](Ptr<QueueDisc> q, uint32_t backlog) {
             q->SetAttribute("Flows", UintegerValue(1024));
             q->SetAttribute("Limit", UintegerValue(std::max(127U, backlog)));
         }},
        // CAKE as tc sets it up (triple-isolate), and with flow isolation only, which is
        // what FqCobalt does: all flows here run between one host pair, so triple-isolate's
        // host fairness divides each flow's DRR quantum by the flow count.
        {"cake", "ns3::debloat::CakeQueueDisc", &FitCakeMemory},
        // Shapers, at 100 Gbit/s with a 4 GB bucket so that the frozen clock of the
        // measurement does not run out of tokens for about 2.6 million packets: the cost of
        // the token arithmetic.
        {"tbf",
         "ns3::TbfQueueDisc",
         [](Ptr<QueueDisc> q, uint32_t backlog) {
             q->SetAttribute("Rate", DataRateValue(DataRate("100Gbps")));
             q->SetAttribute("Burst", UintegerValue(4000000000U));
             q->SetAttribute("MaxSize", Packets(10000, backlog));
         }},
        {"htb",
         "ns3::debloat::HtbQueueDisc",
         [](Ptr<QueueDisc> q, uint32_t backlog) {
             q->SetAttribute("Options", StringValue("default 10"));
             q->SetAttribute("Classes",
                             StringValue("parent 1: classid 1:1 rate 100Gbit burst 4000000000 "
                                         "cburst 4000000000; parent 1:1 classid 1:10 rate "
                                         "100Gbit burst 4000000000 cburst 4000000000"));
             Ptr<QueueDisc> leaf = CreateObject<FifoQueueDisc>();
             leaf->SetAttribute("MaxSize", Packets(10000, backlog));
             DynamicCast<debloat::HtbQueueDisc>(q)->SetLeafQueueDisc(0x10, leaf);
         }},
        {"cake-flows",
         "ns3::debloat::CakeQueueDisc",
         [](Ptr<QueueDisc> q, uint32_t backlog) {
             q->SetAttribute("Options", StringValue("flows"));
             FitCakeMemory(q, backlog);
         }},
    };
    plan.pairs = {{"sfq", "fq_codel"},
                  {"cake", "fq_cobalt"},
                  {"cake-flows", "fq_cobalt"},
                  {"htb", "tbf"}};
    // Naming a module type keeps the linker from dropping the module (and its TypeIds).
    debloat::SfqQueueDisc::GetTypeId();
    debloat::CakeQueueDisc::GetTypeId();
    debloat::HtbQueueDisc::GetTypeId();
    const std::vector<std::string> wanted = Split(only);
    std::string names;
    for (const Candidate& candidate : table)
    {
        names += (names.empty() ? "" : ", ") + candidate.name;
    }
    for (const std::string& name : wanted)
    {
        const bool known = std::any_of(table.begin(), table.end(), [&name](const Candidate& c) {
            return c.name == name;
        });
        NS_ABORT_MSG_IF(!known,
                        "qdisc-benchmark: --qdisc=" << name << " is unknown; accepted: " << names);
    }
    for (const Candidate& candidate : table)
    {
        TypeId tid;
        const bool exists = TypeId::LookupByNameFailSafe(candidate.type, &tid);
        const bool chosen = wanted.empty() ||
                            std::find(wanted.begin(), wanted.end(), candidate.name) != wanted.end();
        if (exists && chosen)
        {
            plan.candidates.push_back(candidate);
        }
    }
    // Measured inside the simulator: before Simulator::Run() ns-3 registers every Time
    // object it creates (for a possible change of resolution), which would swamp the figures.
    Simulator::ScheduleNow(&PrintTable, &plan);
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
