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
 * Each queue disc is created alone (no device, no simulation time passing) and fed TCP/IPv4
 * packets (1448-byte payload, a 20-byte TCP header with ports per flow) round-robin over
 * --flows flows. The queue first fills to --backlog packets; then each step enqueues one
 * packet and dequeues one, --packets times, and the wall-clock time of those steps divided by
 * the packets is printed in ns per packet (enqueue + dequeue, classification included).
 * Packets are made beforehand and reused once dequeued, so their allocation is not measured.
 *
 * Compared: ns-3's FqCoDelQueueDisc, FqCobaltQueueDisc, PfifoFastQueueDisc and TbfQueueDisc,
 * and the module's SfqQueueDisc, CakeQueueDisc and HtbQueueDisc (one class at 100 Gbit/s
 * with a 4 GB bucket, a pfifo leaf, next to TBF with the same rate and bucket: the frozen
 * clock never runs them out of tokens, so this is the cost of their token arithmetic and
 * classification). Targets: SFQ
 * below FqCoDel, about 300 ns per packet at 1024 flows; CAKE about 400 ns and never above
 * FqCobalt. Measured on the 2-core development machine (standalone, Debian's ns-3.37):
 *
 *     qdisc        1 flows    64 flows  1024 flows
 *     pfifo_fast       270         279         307
 *     fq_codel         616         778         964
 *     fq_cobalt        628         800        1030
 *     sfq              343         357         368
 *     cake             450         765         615
 *     cake-flows       463         454         507
 *
 * All flows run between one pair of hosts: CAKE's default triple-isolate then divides each
 * flow's DRR quantum by the hosts' bulk flow count, and a packet takes as many deficit
 * refills as there are flows (as in the kernel). cake-flows isolates flows only, like
 * FqCobalt. CAKE costs less than FqCobalt at every flow count; the 400 ns goal at 1024
 * flows is not reached (pfifo_fast, ns-3's accounting alone, costs 307). HTB's and TBF's
 * figures do not depend on the flows: htb about 510, tbf about 820.
 *
 * Options: --flows (comma-separated, default 1,64,1024), --packets (default 1000000),
 * --backlog (packets kept queued, default 100), --qdisc (comma-separated names from the
 * table below, default all).
 */

#include "ns3/cake-queue-disc.h"
#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/htb-queue-disc.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/sfq-queue-disc.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/// A queue disc to measure: tc's name, ns-3's type and its attributes.
struct Candidate
{
    std::string name;                              ///< tc's name
    std::string type;                              ///< ns-3 TypeId name
    std::function<void(Ptr<QueueDisc>)> configure; ///< settings, after creation
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
 * Makes one TCP/IPv4 packet of a flow, as TCP would hand it to IP.
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
    packet->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(0x0a000000 + 1 + flow / 50000));
    ip.SetDestination(Ipv4Address("10.1.0.1"));
    ip.SetProtocol(6);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTtl(64);
    return Create<Ipv4QueueDiscItem>(packet, Address(), 0x0800, ip);
}

/**
 * Measures one queue disc.
 * @param candidate the queue disc
 * @param flows flows
 * @param packets measured enqueue+dequeue steps
 * @param backlog packets kept queued
 * @return ns per packet, or a negative number when a packet was dropped
 */
double
Measure(const Candidate& candidate, uint32_t flows, uint32_t packets, uint32_t backlog)
{
    ObjectFactory factory(candidate.type);
    Ptr<QueueDisc> qdisc = factory.Create<QueueDisc>();
    if (candidate.configure)
    {
        candidate.configure(qdisc);
    }
    qdisc->Initialize();
    // Each flow cycles through backlog + 1 items of its own: a flow never has more than
    // backlog + 1 packets queued, so the item it reuses has always left the queue.
    const uint32_t ring = backlog + 1;
    std::vector<Ptr<QueueDiscItem>> items;
    items.reserve(static_cast<std::size_t>(flows) * ring);
    for (uint32_t i = 0; i < flows * ring; ++i)
    {
        items.push_back(MakeItem(i % flows));
    }
    std::vector<uint32_t> position(flows, 0);
    uint64_t sent = 0;
    auto nextItem = [&]() {
        const uint32_t flow = sent++ % flows;
        const uint32_t index = position[flow];
        position[flow] = index + 1 == ring ? 0 : index + 1;
        return items[static_cast<std::size_t>(index) * flows + flow];
    };
    for (uint32_t i = 0; i < backlog; ++i)
    {
        qdisc->Enqueue(nextItem());
    }
    const auto start = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < packets; ++i)
    {
        qdisc->Enqueue(nextItem());
        qdisc->Dequeue();
    }
    const auto end = std::chrono::steady_clock::now();
    const bool dropped = qdisc->GetStats().nTotalDroppedPackets > 0;
    qdisc->Dispose();
    const double ns = std::chrono::duration<double, std::nano>(end - start).count();
    return dropped ? -1 : ns / packets;
}

/**
 * Measures every candidate for every flow count and prints the table.
 * @param candidates the queue discs
 * @param flows the flow counts
 * @param packets measured enqueue+dequeue steps
 * @param backlog packets kept queued
 */
void
PrintTable(const std::vector<Candidate>* candidates,
           const std::vector<uint32_t>* flows,
           uint32_t packets,
           uint32_t backlog)
{
    std::cout << "ns per packet (enqueue + dequeue), " << packets << " packets, backlog " << backlog
              << "\n"
              << std::left << std::setw(12) << "qdisc";
    for (uint32_t count : *flows)
    {
        std::cout << std::right << std::setw(12) << (std::to_string(count) + " flows");
    }
    std::cout << "\n";
    for (const Candidate& candidate : *candidates)
    {
        std::cout << std::left << std::setw(12) << candidate.name << std::right << std::fixed
                  << std::setprecision(0);
        for (uint32_t count : *flows)
        {
            const double ns = Measure(candidate, count, packets, backlog);
            std::cout << std::setw(12);
            if (ns < 0)
            {
                std::cout << "drops";
            }
            else
            {
                std::cout << ns;
            }
        }
        std::cout << "\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::vector<uint32_t> flows{1, 64, 1024};
    uint32_t packets = 1000000;
    uint32_t backlog = 100;
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
                                             "measured enqueue+dequeue steps",
                                             packets,
                                             1,
                                             1000000000);
    debloat::CommandLineOptions::AddUnsigned(cmd,
                                             "backlog",
                                             "packets kept queued",
                                             backlog,
                                             1,
                                             100000);
    cmd.AddValue("qdisc", "queue discs to measure, comma-separated (default all)", only);
    cmd.Parse(argc, argv);

    const std::vector<Candidate> table = {
        {"pfifo_fast", "ns3::PfifoFastQueueDisc", {}},
        // Without a device the quantum cannot default to the MTU: set it, as tc would.
        {"fq_codel",
         "ns3::FqCoDelQueueDisc",
         [](Ptr<QueueDisc> q) { DynamicCast<FqCoDelQueueDisc>(q)->SetQuantum(1514); }},
        {"fq_cobalt",
         "ns3::FqCobaltQueueDisc",
         [](Ptr<QueueDisc> q) { DynamicCast<FqCobaltQueueDisc>(q)->SetQuantum(1514); }},
        {"sfq", "ns3::debloat::SfqQueueDisc", {}},
        // CAKE as tc sets it up (triple-isolate), and with flow isolation only, which is
        // what FqCobalt does: all flows here run between one host pair, so triple-isolate's
        // host fairness divides each flow's DRR quantum by the flow count.
        {"cake", "ns3::debloat::CakeQueueDisc", {}},
        // Shapers, at 100 Gbit/s with a 4 GB bucket so that the frozen clock of the
        // measurement never runs out of tokens: the cost of the token arithmetic.
        {"tbf",
         "ns3::TbfQueueDisc",
         [](Ptr<QueueDisc> q) {
             q->SetAttribute("Rate", DataRateValue(DataRate("100Gbps")));
             q->SetAttribute("Burst", UintegerValue(4000000000U));
             q->SetAttribute("MaxSize", QueueSizeValue(QueueSize("10000p")));
         }},
        {"htb",
         "ns3::debloat::HtbQueueDisc",
         [](Ptr<QueueDisc> q) {
             q->SetAttribute("Options", StringValue("default 10"));
             q->SetAttribute("Classes",
                             StringValue("parent 1: classid 1:1 rate 100Gbit burst 4000000000 "
                                         "cburst 4000000000; parent 1:1 classid 1:10 rate "
                                         "100Gbit burst 4000000000 cburst 4000000000"));
             Ptr<QueueDisc> leaf = CreateObject<FifoQueueDisc>();
             leaf->SetAttribute("MaxSize", QueueSizeValue(QueueSize("10000p")));
             DynamicCast<debloat::HtbQueueDisc>(q)->SetLeafQueueDisc(0x10, leaf);
         }},
        {"cake-flows",
         "ns3::debloat::CakeQueueDisc",
         [](Ptr<QueueDisc> q) { q->SetAttribute("Options", StringValue("flows")); }},
    };
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
    std::vector<Candidate> candidates;
    for (const Candidate& candidate : table)
    {
        TypeId tid;
        const bool exists = TypeId::LookupByNameFailSafe(candidate.type, &tid);
        const bool chosen = wanted.empty() ||
                            std::find(wanted.begin(), wanted.end(), candidate.name) != wanted.end();
        if (exists && chosen)
        {
            candidates.push_back(candidate);
        }
    }
    // Measured inside the simulator: before Simulator::Run() ns-3 registers every Time
    // object it creates (for a possible change of resolution), which would swamp the figures.
    Simulator::ScheduleNow(&PrintTable, &candidates, &flows, packets, backlog);
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
