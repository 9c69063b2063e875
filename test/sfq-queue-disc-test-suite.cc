/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * SfqQueueDisc as a queue disc: round order and byte fairness, overflow from the longest flow,
 * headdrop, perturbation keeping every packet, non-IP packets, classic limits, bad options,
 * the per-flow traces and Options as the attributes' words.
 */

#include "debloat-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/sfq-queue-disc.h"
#include "ns3/traffic-control-module.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * A UDP/IPv4 queue disc item of a flow.
 * @param port the flow's source port
 * @param ipSize the IP packet's size in bytes (SFQ counts 14 more, the Ethernet header)
 * @return the item
 */
Ptr<QueueDiscItem>
MakeUdpItem(uint16_t port, uint32_t ipSize, Ipv4Header::EcnType ecn = Ipv4Header::ECN_NotECT)
{
    return debloattest::MakeUdpItem("10.0.0.1", "10.0.0.2", port, ipSize, ecn);
}

/**
 * @ingroup debloat-tests
 * @brief A packet without an IP header (ARP, say), as a device's queue disc may see it.
 */
class NonIpItem : public QueueDiscItem
{
  public:
    /**
     * @param packet the packet
     * @param protocol its EtherType
     */
    NonIpItem(Ptr<Packet> packet, uint16_t protocol)
        : QueueDiscItem(packet, Address(), protocol)
    {
    }

    void AddHeader() override
    {
    }

    bool Mark() override
    {
        return false;
    }
};

/**
 * A UDP/IPv6 queue disc item of a flow.
 * @param port the flow's source port
 * @return the item (a 100-byte payload)
 */
Ptr<QueueDiscItem>
MakeUdp6Item(uint16_t port)
{
    Ptr<Packet> packet = Create<Packet>(100);
    UdpHeader udp;
    udp.SetSourcePort(port);
    udp.SetDestinationPort(9);
    packet->AddHeader(udp);
    Ipv6Header ip;
    ip.SetSource(Ipv6Address("2001:db8::1"));
    ip.SetDestination(Ipv6Address("2001:db8::2"));
    ip.SetNextHeader(UdpL4Protocol::PROT_NUMBER);
    ip.SetPayloadLength(packet->GetSize());
    return Create<Ipv6QueueDiscItem>(packet, Address(), Ipv6L3Protocol::PROT_NUMBER, ip);
}

/**
 * @param options tc-style options
 * @return an initialized SfqQueueDisc with a fixed random stream
 */
Ptr<SfqQueueDisc>
MakeSfq(const std::string& options)
{
    Ptr<SfqQueueDisc> sfq =
        CreateObjectWithAttributes<SfqQueueDisc>("Options", StringValue(options));
    sfq->AssignStreams(1);
    sfq->Initialize();
    return sfq;
}

/**
 * @ingroup debloat-tests
 * @brief Records SfqQueueDisc's FlowDrop and FlowMark traces.
 */
struct FlowTraces
{
    /// One traced drop or mark.
    struct Event
    {
        uint64_t uid;       ///< the packet's uid
        uint32_t bucket;    ///< its bucket
        uint32_t slot;      ///< its slot
        std::string reason; ///< the reason
    };

    std::vector<Event> drops; ///< FlowDrop, in order
    std::vector<Event> marks; ///< FlowMark, in order

    /**
     * @param sfq the queue disc
     * @return whether both traces connected
     */
    bool Connect(Ptr<SfqQueueDisc> sfq)
    {
        return sfq->TraceConnectWithoutContext("FlowDrop",
                                               MakeCallback(&FlowTraces::OnDrop, this)) &&
               sfq->TraceConnectWithoutContext("FlowMark", MakeCallback(&FlowTraces::OnMark, this));
    }

    /**
     * FlowDrop sink.
     * @param item the packet
     * @param bucket its bucket
     * @param slot its slot
     * @param reason why
     */
    void OnDrop(Ptr<const QueueDiscItem> item, uint32_t bucket, uint32_t slot, const char* reason)
    {
        drops.push_back({item->GetPacket()->GetUid(), bucket, slot, reason});
    }

    /**
     * FlowMark sink.
     * @param item the packet
     * @param bucket its bucket
     * @param slot its slot
     * @param reason the counter
     */
    void OnMark(Ptr<const QueueDiscItem> item, uint32_t bucket, uint32_t slot, const char* reason)
    {
        marks.push_back({item->GetPacket()->GetUid(), bucket, slot, reason});
    }
};

/**
 * @param sfq a queue disc
 * @return the bucket of every active flow with its packet count
 */
std::map<uint32_t, uint32_t>
FlowLengths(Ptr<SfqQueueDisc> sfq)
{
    std::map<uint32_t, uint32_t> lengths;
    sfq->GetScheduler().ForEachActiveFlow(
        [&lengths](const SfqFlowStats& flow) { lengths[flow.bucket] = flow.qlen; });
    return lengths;
}

/**
 * @ingroup debloat-tests
 * @brief New flows join the end of the round, and the byte-based DRR shares bytes.
 *
 * Flow A sends 1500-byte IP packets (1514 bytes as SFQ counts them), flow B 500-byte ones
 * (514), alternately, 40 each; quantum 1514. A arrives first, so the round is A, B. A's
 * allot 1514 covers one packet (allot 0: its turn ends). B's allot 1514 covers three (1514 -
 * 3 x 514 = -28), and each later turn starts 28 lower (1486, 1458, ...), still three packets
 * while the start exceeds 2 x 514 = 1028, i.e. for the first 17 turns. So the first 40
 * dequeues are (A, B, B, B) ten times: 10 x 1514 = 15140 bytes of A against 30 x 514 = 15420
 * of B, within one quantum.
 */
class SfqRoundTestCase : public TestCase
{
  public:
    SfqRoundTestCase()
        : TestCase("Round order and byte fairness")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SfqQueueDisc> sfq = MakeSfq("quantum 1514");
        for (int i = 0; i < 40; ++i)
        {
            sfq->Enqueue(MakeUdpItem(1000, 1500));
            sfq->Enqueue(MakeUdpItem(2000, 500));
        }
        NS_TEST_ASSERT_MSG_EQ(sfq->GetNPackets(), 80, "all queued (limit 127)");
        // tc -s class show: two flows, 40 x 1514 and 40 x 514 bytes, allot still a quantum.
        std::ostringstream classes;
        sfq->PrintClassStats(classes);
        NS_TEST_EXPECT_MSG_NE(classes.str().find("backlog 60560b 40p"),
                              std::string::npos,
                              classes.str());
        NS_TEST_EXPECT_MSG_NE(classes.str().find("backlog 20560b 40p"),
                              std::string::npos,
                              classes.str());
        NS_TEST_EXPECT_MSG_NE(classes.str().find("allot 1514"), std::string::npos, classes.str());
        uint32_t bytesA = 0;
        uint32_t bytesB = 0;
        for (int i = 0; i < 40; ++i)
        {
            Ptr<QueueDiscItem> item = sfq->Dequeue();
            const bool expectA = i % 4 == 0;
            NS_TEST_EXPECT_MSG_EQ(item->GetSize(), (expectA ? 1500 : 500), "dequeue " << i);
            (expectA ? bytesA : bytesB) += item->GetSize() + 14;
        }
        NS_TEST_EXPECT_MSG_EQ(bytesA, 15140, "flow A's bytes");
        NS_TEST_EXPECT_MSG_EQ(bytesB, 15420, "flow B's bytes");
        sfq->Dispose();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Overflow drops from the longest flow; depth with tail drop and with headdrop.
 *
 * limit 10: A queues 8 packets, B 2; B's third makes 11 > 10, and sfq_drop() takes the tail
 * of the longest flow, A's eighth packet (counted as a drop after dequeue, "Overlimit").
 * depth 3: A's fourth packet finds its flow full: dropped on arrival without headdrop; with
 * headdrop A's first packet goes and the fourth is queued.
 *
 * FlowDrop fires once per drop, with the flow: limit 10 makes flows min(128, 10) = 10 slots,
 * and sfq_init() leaves slot 9 at the head of dep[0], so A, the first flow, holds slot 9 and
 * the bucket left with 7 packets. With depth 3 (limit 127: 127 slots) A holds slot 126.
 */
class SfqDropTestCase : public TestCase
{
  public:
    SfqDropTestCase()
        : TestCase("Overflow from the longest flow; depth, tail drop and headdrop")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SfqQueueDisc> sfq = MakeSfq("limit 10");
        FlowTraces traces;
        NS_TEST_ASSERT_MSG_EQ(traces.Connect(sfq), true, "traces connect");
        std::vector<uint64_t> uidsA;
        for (int i = 0; i < 8; ++i)
        {
            Ptr<QueueDiscItem> item = MakeUdpItem(1000, 100);
            uidsA.push_back(item->GetPacket()->GetUid());
            sfq->Enqueue(item);
        }
        for (int i = 0; i < 3; ++i)
        {
            sfq->Enqueue(MakeUdpItem(2000, 100));
        }
        NS_TEST_EXPECT_MSG_EQ(sfq->GetNPackets(), 10, "limit");
        NS_TEST_EXPECT_MSG_EQ(sfq->GetStats().GetNDroppedPackets(SfqQueueDisc::OVERLIMIT),
                              1,
                              "one overlimit drop");
        NS_TEST_ASSERT_MSG_EQ(traces.drops.size(), 1, "FlowDrop fires once");
        NS_TEST_EXPECT_MSG_EQ(traces.drops[0].uid, uidsA.back(), "FlowDrop: A's eighth");
        NS_TEST_EXPECT_MSG_EQ(traces.drops[0].slot, 9, "FlowDrop: A's slot");
        NS_TEST_EXPECT_MSG_EQ(traces.drops[0].reason, SfqQueueDisc::OVERLIMIT, "FlowDrop");
        NS_TEST_EXPECT_MSG_EQ(FlowLengths(sfq)[traces.drops[0].bucket], 7, "A's bucket: 7 left");
        NS_TEST_EXPECT_MSG_EQ(traces.marks.empty(), true, "no marks");
        std::vector<uint64_t> left;
        while (Ptr<QueueDiscItem> item = sfq->Dequeue())
        {
            left.push_back(item->GetPacket()->GetUid());
        }
        NS_TEST_EXPECT_MSG_EQ(std::count(left.begin(), left.end(), uidsA.back()),
                              0,
                              "A's last packet was the one dropped");
        NS_TEST_EXPECT_MSG_EQ(left.size(), 10, "the rest leave");
        sfq->Dispose();

        for (bool headdrop : {false, true})
        {
            Ptr<SfqQueueDisc> deep = MakeSfq(headdrop ? "depth 3 headdrop" : "depth 3");
            FlowTraces deepTraces;
            NS_TEST_ASSERT_MSG_EQ(deepTraces.Connect(deep), true, "traces connect");
            std::vector<uint64_t> uids;
            for (int i = 0; i < 4; ++i)
            {
                Ptr<QueueDiscItem> item = MakeUdpItem(1000, 100);
                uids.push_back(item->GetPacket()->GetUid());
                deep->Enqueue(item);
            }
            NS_TEST_EXPECT_MSG_EQ(deep->GetStats().GetNDroppedPackets(SfqQueueDisc::FLOW_DEPTH),
                                  1,
                                  "one depth drop");
            NS_TEST_ASSERT_MSG_EQ(deepTraces.drops.size(), 1, "FlowDrop fires once");
            NS_TEST_EXPECT_MSG_EQ(deepTraces.drops[0].uid,
                                  (headdrop ? uids[0] : uids[3]),
                                  "FlowDrop: headdrop=" << headdrop);
            NS_TEST_EXPECT_MSG_EQ(deepTraces.drops[0].slot, 126, "FlowDrop: A's slot");
            NS_TEST_EXPECT_MSG_EQ(deepTraces.drops[0].reason,
                                  SfqQueueDisc::FLOW_DEPTH,
                                  "FlowDrop reason");
            NS_TEST_EXPECT_MSG_EQ(FlowLengths(deep).count(deepTraces.drops[0].bucket),
                                  1,
                                  "FlowDrop: A's bucket");
            std::vector<uint64_t> out;
            while (Ptr<QueueDiscItem> item = deep->Dequeue())
            {
                out.push_back(item->GetPacket()->GetUid());
            }
            const std::vector<uint64_t> expected =
                headdrop ? std::vector<uint64_t>{uids[1], uids[2], uids[3]}
                         : std::vector<uint64_t>{uids[0], uids[1], uids[2]};
            NS_TEST_EXPECT_MSG_EQ((out == expected), true, "headdrop=" << headdrop);
            deep->Dispose();
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief A perturbation moves flows to new buckets and keeps every queued packet in order.
 *
 * perturb 1: at 0.5 s 20 flows queue 3 packets each (60 < limit 127, 3 < depth); at 1 s the
 * key changes and sfq_rehash() re-inserts them into other buckets; at 1.5 s all 60 leave,
 * each flow's packets in their original order, none dropped. Perturbation fires once, at
 * 1 s, rehashed with 60 packets moved and none dropped: the next perturbation, at 2 s, comes
 * after the Stop event that was scheduled earlier for the same time.
 */
class SfqPerturbTestCase : public TestCase
{
  public:
    SfqPerturbTestCase()
        : TestCase("Perturbation keeps every packet")
    {
    }

  private:
    void DoRun() override
    {
        m_sfq = MakeSfq("perturb 1");
        NS_TEST_ASSERT_MSG_EQ(
            m_sfq->TraceConnectWithoutContext("Perturbation",
                                              MakeCallback(&SfqPerturbTestCase::OnPerturb, this)),
            true,
            "Perturbation connects");
        Simulator::Schedule(MilliSeconds(500), &SfqPerturbTestCase::Fill, this);
        Simulator::Schedule(MilliSeconds(900), &SfqPerturbTestCase::RecordBuckets, this);
        Simulator::Schedule(MilliSeconds(1100), &SfqPerturbTestCase::RecordBuckets, this);
        Simulator::Schedule(MilliSeconds(1500), &SfqPerturbTestCase::Drain, this);
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        // 20 flows in 1024 buckets under two independent keys: the chance that they land on
        // the same 20 buckets is negligible, so the occupied buckets must change.
        NS_TEST_ASSERT_MSG_EQ(m_buckets.size(), 2, "buckets before and after");
        NS_TEST_EXPECT_MSG_EQ((m_buckets[0] != m_buckets[1]), true, "flows moved");
        NS_TEST_EXPECT_MSG_EQ(m_out.size(), 60, "every packet leaves");
        NS_TEST_EXPECT_MSG_EQ(m_sfq->GetStats().nTotalDroppedPackets, 0, "no drops");
        NS_TEST_ASSERT_MSG_EQ(m_perturbations.size(), 1, "one perturbation");
        NS_TEST_EXPECT_MSG_EQ(m_perturbations[0], "1 1 60 0", "at 1 s: rehashed, 60 moved");
        std::map<uint16_t, std::vector<uint64_t>> byFlow;
        for (const auto& [port, uid] : m_out)
        {
            byFlow[port].push_back(uid);
        }
        for (const auto& [port, uids] : byFlow)
        {
            NS_TEST_EXPECT_MSG_EQ((uids == m_in[port]), true, "order of flow " << port);
        }
        m_sfq->Dispose();
        Simulator::Destroy();
    }

    /**
     * Perturbation sink.
     * @param rehashed whether the packets moved
     * @param requeued packets moved
     * @param dropped packets dropped
     */
    void OnPerturb(bool rehashed, uint32_t requeued, uint32_t dropped)
    {
        std::ostringstream event;
        event << Simulator::Now().GetSeconds() << " " << rehashed << " " << requeued << " "
              << dropped;
        m_perturbations.push_back(event.str());
    }

    /// Queues 3 packets of each of 20 flows.
    void Fill()
    {
        for (int round = 0; round < 3; ++round)
        {
            for (uint16_t port = 1; port <= 20; ++port)
            {
                Ptr<QueueDiscItem> item = MakeUdpItem(port, 200);
                m_in[port].push_back(item->GetPacket()->GetUid());
                m_sfq->Enqueue(item);
            }
        }
    }

    /// Records the buckets that hold packets.
    void RecordBuckets()
    {
        std::vector<uint32_t> buckets;
        m_sfq->GetScheduler().ForEachActiveFlow(
            [&buckets](const SfqFlowStats& flow) { buckets.push_back(flow.bucket); });
        m_buckets.push_back(buckets);
    }

    /// Dequeues everything.
    void Drain()
    {
        while (Ptr<QueueDiscItem> item = m_sfq->Dequeue())
        {
            UdpHeader udp;
            item->GetPacket()->PeekHeader(udp);
            m_out.emplace_back(udp.GetSourcePort(), item->GetPacket()->GetUid());
        }
    }

    Ptr<SfqQueueDisc> m_sfq;                          ///< the queue disc
    std::map<uint16_t, std::vector<uint64_t>> m_in;   ///< packets queued per flow
    std::vector<std::pair<uint16_t, uint64_t>> m_out; ///< packets dequeued
    std::vector<std::vector<uint32_t>> m_buckets;     ///< occupied buckets, before and after
    std::vector<std::string> m_perturbations;         ///< "time rehashed moved dropped"
};

/**
 * @ingroup debloat-tests
 * @brief Packets that are not IP go to one bucket and are served; IPv6 flows are told apart
 * by their ports; classic SFQ's limit.
 *
 * Three ARP-like items (EtherType 0x0806, no IP header) hash alike (only the EtherType is
 * known), so they share one flow: all queued and served. Classic mode holds at most 127
 * packets (SFQ_DEPTH - 1): 130 packets of one flow leave 127 queued and 3 dropped.
 */
class SfqOtherTrafficTestCase : public TestCase
{
  public:
    SfqOtherTrafficTestCase()
        : TestCase("Non-IP and IPv6 packets; classic limit")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SfqQueueDisc> sfq = MakeSfq("");
        for (int i = 0; i < 3; ++i)
        {
            sfq->Enqueue(Create<NonIpItem>(Create<Packet>(28), 0x0806));
        }
        NS_TEST_EXPECT_MSG_EQ(sfq->GetScheduler().GetActiveFlows(), 1, "one flow");
        uint32_t served = 0;
        while (sfq->Dequeue())
        {
            ++served;
        }
        NS_TEST_EXPECT_MSG_EQ(served, 3, "all served");
        sfq->Dispose();

        // IPv6: the ports count. Two packets of port 1000 share a flow; port 2000 is another
        // (two flows in 1024 buckets: a collision is possible but this key has none).
        Ptr<SfqQueueDisc> sfq6 = MakeSfq("");
        sfq6->Enqueue(MakeUdp6Item(1000));
        sfq6->Enqueue(MakeUdp6Item(1000));
        NS_TEST_EXPECT_MSG_EQ(sfq6->GetScheduler().GetActiveFlows(), 1, "one IPv6 flow");
        sfq6->Enqueue(MakeUdp6Item(2000));
        NS_TEST_EXPECT_MSG_EQ(sfq6->GetScheduler().GetActiveFlows(), 2, "two IPv6 flows");
        sfq6->Dispose();

        Ptr<SfqQueueDisc> classic =
            CreateObjectWithAttributes<SfqQueueDisc>("Classic", BooleanValue(true));
        classic->Initialize();
        for (int i = 0; i < 130; ++i)
        {
            classic->Enqueue(MakeUdpItem(1000, 100));
        }
        NS_TEST_EXPECT_MSG_EQ(classic->GetNPackets(), 127, "classic limit");
        NS_TEST_EXPECT_MSG_EQ(classic->GetStats().nTotalDroppedPackets, 3, "classic drops");
        classic->Dispose();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Per-flow RED: below min nothing, at max every packet marked (ecn) or dropped
 * (harddrop, or a packet that cannot carry CE).
 *
 * One flow of 1000-byte IP packets (1014 bytes as SFQ counts them), none dequeued, with
 * "redflowlimit 100000 min 3000 max 3001": the probabilistic zone between min and max is one
 * byte wide, so RED's decision is HARD_MARK or nothing. The flow's first packet skips RED
 * (a new slot). For each later one, red_calc_qavg_no_idle_time() updates the scaled average
 * with the flow's backlog before it, qavg += backlog - (qavg >> Wlog), and HARD_MARK holds
 * once qavg >= max << Wlog. The test steps that formula itself (Wlog is the input tc derives
 * from burst and avpkt) and expects: with ecn and ECT(0) packets, exactly those packets CE-
 * marked (forced_mark) and queued; with ecn harddrop, or with packets that are not ECT, those
 * packets dropped (forced_drop), which then add nothing to the backlog. FlowMark (or
 * FlowDrop) fires for exactly those packets, each in the one flow's bucket and slot 126 (the
 * first of 127 slots), with reason forced_mark (or RED forced_drop).
 */
class SfqRedTestCase : public TestCase
{
  public:
    SfqRedTestCase()
        : TestCase("Per-flow RED marks or drops at its threshold")
    {
    }

  private:
    void DoRun() override
    {
        Check("redflowlimit 100000 min 3000 max 3001 ecn", Ipv4Header::ECN_ECT0, true);
        Check("redflowlimit 100000 min 3000 max 3001 ecn harddrop", Ipv4Header::ECN_ECT0, false);
        Check("redflowlimit 100000 min 3000 max 3001 ecn", Ipv4Header::ECN_NotECT, false);
    }

    /**
     * Runs one configuration.
     * @param options tc-sfq options
     * @param ecn the packets' ECN field
     * @param marks whether RED's hard decisions mark (else drop)
     */
    void Check(const std::string& options, Ipv4Header::EcnType ecn, bool marks)
    {
        Ptr<SfqQueueDisc> sfq = MakeSfq(options);
        FlowTraces traces;
        NS_TEST_ASSERT_MSG_EQ(traces.Connect(sfq), true, "traces connect");
        const uint32_t wlog = sfq->GetScheduler().GetParameters().red->wlog;
        uint64_t qavg = 0;
        uint64_t backlog = 0;
        std::vector<bool> expectMarked;
        uint32_t hard = 0;
        for (int n = 0; n < 20; ++n)
        {
            sfq->Enqueue(MakeUdpItem(1000, 1000, ecn));
            bool hit = false;
            if (n > 0)
            {
                qavg += backlog - (qavg >> wlog);
                NS_TEST_ASSERT_MSG_EQ((qavg >= (3000ULL << wlog) && qavg < (3001ULL << wlog)),
                                      false,
                                      "the average fell into the one-byte random zone");
                hit = qavg >= (3001ULL << wlog);
            }
            hard += hit ? 1 : 0;
            if (!hit || marks)
            {
                backlog += 1014;
                expectMarked.push_back(hit);
            }
        }
        NS_TEST_ASSERT_MSG_GT(hard, 5, "the threshold is reached: " << options);
        const SfqRedStats& red = sfq->GetScheduler().GetRedStats();
        NS_TEST_EXPECT_MSG_EQ(red.forcedMark, (marks ? hard : 0), options);
        NS_TEST_EXPECT_MSG_EQ(red.forcedDrop, (marks ? 0 : hard), options);
        NS_TEST_EXPECT_MSG_EQ(sfq->GetNPackets(), expectMarked.size(), options);
        const std::map<uint32_t, uint32_t> flows = FlowLengths(sfq);
        NS_TEST_ASSERT_MSG_EQ(flows.size(), 1, "one flow");
        const auto& traced = marks ? traces.marks : traces.drops;
        NS_TEST_EXPECT_MSG_EQ(traced.size(), hard, "one trace per hard decision: " << options);
        NS_TEST_EXPECT_MSG_EQ((marks ? traces.drops : traces.marks).size(), 0, options);
        const std::string reason = marks ? "forced_mark" : SfqQueueDisc::RED_FORCED_DROP;
        for (const auto& event : traced)
        {
            NS_TEST_EXPECT_MSG_EQ(event.bucket, flows.begin()->first, options);
            NS_TEST_EXPECT_MSG_EQ(event.slot, 126, options);
            NS_TEST_EXPECT_MSG_EQ(event.reason, reason, options);
        }
        // tc -s qdisc show prints the same counters.
        std::ostringstream tc;
        sfq->PrintStats(tc);
        const std::string counter = marks ? " forced_mark " : " forced_drop ";
        NS_TEST_EXPECT_MSG_NE(tc.str().find(counter + std::to_string(hard) + (marks ? " " : "\n")),
                              std::string::npos,
                              tc.str());
        for (std::size_t i = 0; i < expectMarked.size(); ++i)
        {
            Ptr<Ipv4QueueDiscItem> item = DynamicCast<Ipv4QueueDiscItem>(sfq->Dequeue());
            NS_TEST_EXPECT_MSG_EQ((item->GetHeader().GetEcn() == Ipv4Header::ECN_CE),
                                  expectMarked[i],
                                  options << ", packet " << i);
        }
        sfq->Dispose();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Invalid options stop with a message that names them.
 */
class SfqBadOptionsTestCase : public TestCase
{
  public:
    SfqBadOptionsTestCase()
        : TestCase("Invalid options stop with a message naming them")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"divisor 1000", "divisor"},
            {"depth 200", "depth"},
            {"flows 0", "flows"},
            {"limt 10", "limt"},
            {"min 1000", "redflowlimit"},
        };
        for (const auto& [options, word] : cases)
        {
            const debloattest::ChildOutcome outcome =
                debloattest::RunInChild([options = options] { MakeSfq(options); });
            NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, options);
            NS_TEST_EXPECT_MSG_NE(outcome.output.find(word), std::string::npos, outcome.output);
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief Flow slots as sfq_change() sets them: maxflows = min(flows, SFQ_MAX_FLOWS), then
 * min(maxflows, divisor).
 *
 * "divisor 32" keeps the default 128 flows to 32 (tc accepts the line; refusing it would
 * refuse a valid configuration); "flows 70000" gives min(70000, 65408) = 65408, then
 * min(65408, 1024) = 1024 with the default divisor; "flows 100 divisor 4096" keeps 100.
 * (The slots in use are further bounded by the limit, GetEffectiveFlows(); this checks
 * maxflows as sfq_change() stores it.)
 */
class SfqFlowsClampTestCase : public TestCase
{
  public:
    SfqFlowsClampTestCase()
        : TestCase("Flows are clamped to SFQ_MAX_FLOWS and the divisor, as sfq_change()")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(MakeSfq("divisor 32")->GetScheduler().GetParameters().flows,
                              32,
                              "divisor 32");
        NS_TEST_EXPECT_MSG_EQ(MakeSfq("flows 70000")->GetScheduler().GetParameters().flows,
                              1024,
                              "flows 70000");
        NS_TEST_EXPECT_MSG_EQ(
            MakeSfq("flows 100 divisor 4096")->GetScheduler().GetParameters().flows,
            100,
            "flows 100 divisor 4096");
    }
};

/**
 * @ingroup debloat-tests
 * @brief Options sets the attributes and reads back from them: one source of truth.
 *
 * "limit 50 depth 10 perturb 10 headdrop redflowlimit 100000 min 3000 ecn" sets Limit 50,
 * Depth 10, Perturb 10 s, Headdrop, RedFlowLimit 100000, RedMin 3000 and UseEcn; the words
 * not given keep their attributes (Flows 128, Divisor 1024). Reading Options gives the words
 * of the attributes that differ from their defaults, in tc-sfq's order; a later attribute
 * wins over the Options set before it, and the defaults read as "".
 */
class SfqOptionsTestCase : public TestCase
{
  public:
    SfqOptionsTestCase()
        : TestCase("Options sets the attributes; reading it gives their words")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SfqQueueDisc> sfq = CreateObject<SfqQueueDisc>();
        StringValue text;
        sfq->GetAttribute("Options", text);
        NS_TEST_EXPECT_MSG_EQ(text.Get(), "", "defaults");

        sfq->SetAttribute("Options",
                          StringValue("limit 50 depth 10 perturb 10 headdrop redflowlimit "
                                      "100000 min 3000 ecn"));
        UintegerValue value;
        sfq->GetAttribute("Limit", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 50, "Limit");
        sfq->GetAttribute("Depth", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 10, "Depth");
        sfq->GetAttribute("Flows", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 128, "Flows kept");
        sfq->GetAttribute("RedFlowLimit", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 100000, "RedFlowLimit");
        sfq->GetAttribute("RedMin", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 3000, "RedMin");
        TimeValue perturb;
        sfq->GetAttribute("Perturb", perturb);
        NS_TEST_EXPECT_MSG_EQ(perturb.Get(), Seconds(10), "Perturb");
        BooleanValue flag;
        sfq->GetAttribute("Headdrop", flag);
        NS_TEST_EXPECT_MSG_EQ(flag.Get(), true, "Headdrop");
        sfq->GetAttribute("UseEcn", flag);
        NS_TEST_EXPECT_MSG_EQ(flag.Get(), true, "UseEcn");
        const std::string expected =
            "limit 50 depth 10 perturb 10 headdrop redflowlimit 100000 min 3000 ecn";
        sfq->GetAttribute("Options", text);
        NS_TEST_EXPECT_MSG_EQ(text.Get(), expected, "the words of the attributes");

        sfq->SetAttribute("Limit", UintegerValue(60));
        sfq->GetAttribute("Options", text);
        NS_TEST_EXPECT_MSG_EQ(text.Get(),
                              "limit 60 depth 10 perturb 10 headdrop redflowlimit 100000 min "
                              "3000 ecn",
                              "a later attribute wins");

        // The words read back reproduce the configuration on a fresh queue disc.
        Ptr<SfqQueueDisc> copy =
            CreateObjectWithAttributes<SfqQueueDisc>("Options", StringValue(text.Get()));
        StringValue again;
        copy->GetAttribute("Options", again);
        NS_TEST_EXPECT_MSG_EQ(again.Get(), text.Get(), "round trip");

        // Initialization leaves the attributes alone: quantum 0 (the device MTU) stays 0.
        copy->AssignStreams(1);
        copy->Initialize();
        copy->GetAttribute("Options", again);
        NS_TEST_EXPECT_MSG_EQ(again.Get(), text.Get(), "after initialization");
        NS_TEST_EXPECT_MSG_EQ(copy->GetScheduler().GetLimit(), 60, "the scheduler's limit");
        NS_TEST_EXPECT_MSG_EQ(copy->GetScheduler().GetParameters().quantum,
                              1514,
                              "no device: psched_mtu() 1500 + 14");
        copy->Dispose();
        sfq->Dispose();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-sfq-queue-disc suite.
 */
class SfqQueueDiscTestSuite : public TestSuite
{
  public:
    SfqQueueDiscTestSuite()
        : TestSuite("debloat-sfq-queue-disc", compat::SUITE_UNIT)
    {
        AddTestCase(new SfqRoundTestCase(), compat::TEST_QUICK);
        AddTestCase(new SfqDropTestCase(), compat::TEST_QUICK);
        AddTestCase(new SfqPerturbTestCase(), compat::TEST_QUICK);
        AddTestCase(new SfqOtherTrafficTestCase(), compat::TEST_QUICK);
        AddTestCase(new SfqRedTestCase(), compat::TEST_QUICK);
        AddTestCase(new SfqBadOptionsTestCase(), compat::TEST_QUICK);
        AddTestCase(new SfqFlowsClampTestCase(), compat::TEST_QUICK);
        AddTestCase(new SfqOptionsTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
SfqQueueDiscTestSuite g_sfqQueueDiscTestSuite;

} // namespace
