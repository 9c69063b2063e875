/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * CakeQueueDisc as a queue disc: shaped tin priority and thresholds, host fairness in each
 * isolation mode, the ACK filter, the memory limit, COBALT's signal schedule, wash, fwmark,
 * non-IP packets, bad options and the `tc -s qdisc` printout. Every expected number is
 * derived from net/sched/sch_cake.c's formulas in the comments before the checks.
 */

#include "debloat-test-utils.h"

#include "ns3/cake-queue-disc.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/gso-tag.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/packet-mark-tag.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// ToS byte: DSCP EF (46) with ECT(0), as a VoIP sender marks it.
constexpr uint8_t TOS_EF_ECT0 = (46 << 2) | 2;
/// ToS byte: DSCP CS1 (8) with ECT(0).
constexpr uint8_t TOS_CS1_ECT0 = (8 << 2) | 2;
/// ToS byte: DSCP 0 with ECT(0).
constexpr uint8_t TOS_BE_ECT0 = 2;

/// Per-byte time of the 10 Mbit/s shaper: cake_set_rate(1250000 B/s) gives rate_ns =
/// (1e9 << 34) / 1250000 = 800 << 34, halved ten times to 800 << 24 with rate_shft 24, so
/// (len * rate_ns) >> rate_shft is exactly 800 ns per byte.
constexpr int64_t NS_PER_BYTE_10MBIT = 800;
/// A 1500-byte IP packet is 1514 bytes to cake (qdisc_pkt_len() includes the Ethernet header).
constexpr uint32_t FULL_LEN = 1514;
/// The global shaper's time for one such packet at 10 Mbit/s: 1514 * 800 ns = 1.2112 ms.
constexpr int64_t SLOT_NS = FULL_LEN * NS_PER_BYTE_10MBIT;

using debloattest::MakeUdpItem;

/**
 * A TCP/IPv4 segment of one connection (10.0.0.2:5001 -> 10.0.0.1:80), as a receiver sends
 * its ACKs.
 * @param ack the acknowledgement number
 * @param payload bytes of data (0: a pure ACK)
 * @param flags TCP flags
 * @param tsval TSval of a timestamp option (0: no option)
 * @return the item
 */
Ptr<Ipv4QueueDiscItem>
MakeTcpItem(uint32_t ack, uint32_t payload = 0, uint8_t flags = TcpHeader::ACK, uint32_t tsval = 0)
{
    Ptr<Packet> packet = Create<Packet>(payload);
    TcpHeader tcp;
    tcp.SetSourcePort(5001);
    tcp.SetDestinationPort(80);
    tcp.SetSequenceNumber(SequenceNumber32(1));
    tcp.SetAckNumber(SequenceNumber32(ack));
    tcp.SetFlags(flags);
    tcp.SetWindowSize(65535);
    if (tsval != 0)
    {
        Ptr<TcpOptionTS> ts = CreateObject<TcpOptionTS>();
        ts->SetTimestamp(tsval);
        ts->SetEcho(50);
        tcp.AppendOption(ts);
    }
    packet->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.2"));
    ip.SetDestination(Ipv4Address("10.0.0.1"));
    ip.SetProtocol(TcpL4Protocol::PROT_NUMBER);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTtl(64);
    return Create<Ipv4QueueDiscItem>(packet, Address(), Ipv4L3Protocol::PROT_NUMBER, ip);
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
 * @param options tc-cake options
 * @return an initialized CakeQueueDisc with a fixed random stream
 */
Ptr<CakeQueueDisc>
MakeCake(const std::string& options)
{
    Ptr<CakeQueueDisc> cake =
        CreateObjectWithAttributes<CakeQueueDisc>("Options", StringValue(options));
    cake->AssignStreams(1);
    cake->Initialize();
    return cake;
}

/**
 * @param item an IPv4 item
 * @return its DSCP
 */
uint8_t
DscpOf(Ptr<const QueueDiscItem> item)
{
    return DynamicCast<const Ipv4QueueDiscItem>(item)->GetHeader().GetTos() >> 2;
}

/**
 * @ingroup debloat-tests
 * @brief A CakeQueueDisc behind an always-ready device (debloattest::QdiscRun): the
 * shaper is then the only bottleneck.
 */
class ShapedRun : public debloattest::QdiscRun
{
  public:
    /// @param options tc-cake options
    explicit ShapedRun(const std::string& options)
        : ShapedRun(MakeCake(options))
    {
    }

    /// @return the queue disc
    Ptr<CakeQueueDisc> Cake() const
    {
        return m_cake;
    }

  private:
    /// @param cake the queue disc
    explicit ShapedRun(Ptr<CakeQueueDisc> cake)
        : QdiscRun(cake),
          m_cake(cake)
    {
    }

    Ptr<CakeQueueDisc> m_cake; ///< the queue disc
};

/**
 * The row tc prints for per-tin values: the name, then " %12s" per column (q_cake.c).
 * @param name the row name, as tc spells it with its padding
 * @param values the columns
 * @return the line, without its newline
 */
std::string
TcRow(const std::string& name, const std::vector<std::string>& values)
{
    std::string row = name;
    for (const std::string& value : values)
    {
        char cell[32];
        std::snprintf(cell, sizeof(cell), " %12s", value.c_str());
        row += cell;
    }
    return row;
}

/**
 * @ingroup debloat-tests
 * @brief Shaped diffserv3: the voice tin has strict priority within its threshold (rate/4),
 * a saturating voice tin is held at its threshold, bulk (CS1) at rate/16, Best Effort takes
 * the rest.
 *
 * "bandwidth 10Mbit diffserv3": the global shaper and Best Effort (tin 0) run at 1250000 B/s,
 * 800 ns per byte; Bulk (tin 1) at rate >> 4 = 78125 B/s, 12800 ns per byte; Voice (tin 2)
 * at rate >> 2 = 312500 B/s, 3200 ns per byte (all exact: rate_ns = k << rate_shft). A
 * 1514-byte packet holds the global shaper for one slot d = 1.2112 ms, the voice tin for 4d
 * and the bulk tin for 16d. The device here is always ready, so the queue disc sends one
 * packet exactly at each slot k * d (time_next_packet advances by d per packet and the
 * watchdog fires there).
 *
 * cake_dequeue() in shaped mode picks, among tins with flows, the highest-index tin whose
 * time_next_packet is due (<= now), else the one due earliest. cake_advance_shaper() moves a
 * tin's time_next_packet to now + tin_dur when it is not behind now, or adds tin_dur when it
 * is (a lagging tin keeps its credit). Best Effort runs at the full rate, so it is always due.
 * All packets are ECT(0): COBALT marks but never drops, so every slot sends one packet.
 */
class CakeTinPriorityTestCase : public TestCase
{
  public:
    CakeTinPriorityTestCase()
        : TestCase("Shaped tins: voice priority within a quarter of the rate, saturating "
                   "voice and bulk held at a quarter and a sixteenth")
    {
    }

  private:
    void DoRun() override
    {
        SaturatingTins();
        VoiceWithinThreshold();
    }

    /**
     * Best Effort, Bulk and Voice all backlogged at t = 0 (one flow each, 1500-byte packets).
     *
     * Slot 0: every tin's time_next_packet is 0 (set to now at the first enqueue), so all are
     * due and Voice (index 2) wins; its time_next_packet becomes 0 + 4d. Slot 1: Voice is not
     * due (3d ahead), Bulk (index 1) is due (0 <= d) and beats Best Effort; Bulk lags now, so
     * its time_next_packet becomes 0 + 16d. Slots 2, 3: only Best Effort is due. Slot 4: Voice
     * is due again (4d <= 4d) and becomes 8d, and so on: Voice exactly at every slot with
     * k % 4 == 0 (it is never behind now, so it never gains credit). Bulk is due again at
     * slot 16, which Voice takes; at slot 17 Bulk is due (16d < 17d) and, lagging, becomes
     * 32d: Bulk at every slot with k % 16 == 1. Everything else is Best Effort. Over 320
     * slots: Voice 80 packets (rate/4 = 2.5 Mbit/s), Bulk 20 (rate/16), Best Effort 220.
     */
    void SaturatingTins()
    {
        ShapedRun run("bandwidth 10Mbit diffserv3");
        std::vector<Ptr<QueueDiscItem>> burst;
        for (int i = 0; i < 300; ++i)
        {
            burst.push_back(MakeUdpItem("10.0.0.1", "10.0.0.9", 1000, 1500, TOS_BE_ECT0));
        }
        for (int i = 0; i < 30; ++i)
        {
            burst.push_back(MakeUdpItem("10.0.0.1", "10.0.0.9", 2000, 1500, TOS_CS1_ECT0));
        }
        for (int i = 0; i < 100; ++i)
        {
            burst.push_back(MakeUdpItem("10.0.0.1", "10.0.0.9", 3000, 1500, TOS_EF_ECT0));
        }
        run.EnqueueAt(Seconds(0), burst);
        // Slots 0 .. 319 are at 0 .. 319d; stop half a slot after the last.
        run.RunUntil(NanoSeconds(319 * SLOT_NS + SLOT_NS / 2));
        const auto& sent = run.GetSent();
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 320, "one packet per slot");
        std::map<uint8_t, uint32_t> perDscp;
        for (uint32_t k = 0; k < sent.size(); ++k)
        {
            const uint8_t expected = k % 4 == 0 ? 46 : (k % 16 == 1 ? 8 : 0);
            NS_TEST_EXPECT_MSG_EQ(uint32_t{DscpOf(sent[k].item)}, uint32_t{expected}, "slot " << k);
            NS_TEST_EXPECT_MSG_EQ(sent[k].at, NanoSeconds(k * SLOT_NS), "slot " << k);
            perDscp[DscpOf(sent[k].item)]++;
        }
        NS_TEST_EXPECT_MSG_EQ(perDscp[46], 80, "voice held at rate/4");
        NS_TEST_EXPECT_MSG_EQ(perDscp[8], 20, "bulk held at rate/16");
        NS_TEST_EXPECT_MSG_EQ(perDscp[0], 220, "best effort takes the rest");
        // The tins' enqueue counters: every packet was classified by its DSCP (diffserv3: EF to
        // Voice, tin 2; CS1 to Bulk, tin 1; 0 to Best Effort, tin 0), and nothing was dropped.
        const auto& s = run.Cake()->GetScheduler();
        NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(0).packets, 300, "best effort packets");
        NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(1).packets, 30, "bulk packets");
        NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(2).packets, 100, "voice packets");
        NS_TEST_EXPECT_MSG_EQ(run.Cake()->GetStats().nTotalDroppedPackets, 0, "ECT: no drops");
        run.Finish();
    }

    /**
     * Eight Best Effort flows backlogged at t = 0 (80 packets each) and one EF flow of one
     * 1500-byte packet every 8 slots (rate/8 = 1.25 Mbit/s, under the voice threshold of
     * 2.5 Mbit/s), arriving mid-slot at (8j + 0.5)d, j = 0..63.
     *
     * diffserv3: a voice packet finds its tin empty, so cake_enqueue() sets the tin's
     * time_next_packet to max(its value, now) = now (the last voice packet left at
     * (8j - 7)d and moved it to at most (8j - 3)d). At the next slot, (8j + 1)d, the voice tin
     * is due and wins over Best Effort: every voice packet leaves at (8j + 1)d after exactly
     * d/2 = 605.6 us, i.e. it never waits behind Best Effort's backlog. Over 512 slots: 64
     * voice packets and 448 Best Effort ones.
     *
     * besteffort (contrast): the same EF flow is one of 9 flows of one tin (flow quantum
     * clamp(1250000 >> 12, 300, 1514) = 305 bytes each round); DRR++ gives it 1/9 of the slots
     * while it offers 1/8, so its queue grows: of its 64 packets, at most 1 (its new-flow
     * turn) + 505/9 (its share of the slots up to 505) + 1 (the deficit carried) = 58 can have
     * left when the last one arrives at 504.5d, so at least 5 of its packets are ahead of the
     * last one, and the queue disc sends at most one per slot: the last one's sojourn exceeds
     * 5d (a growing queue, against d/2 in diffserv3).
     */
    void VoiceWithinThreshold()
    {
        for (const std::string& preset : std::vector<std::string>{"diffserv3", "besteffort"})
        {
            ShapedRun run("bandwidth 10Mbit " + preset);
            std::vector<Ptr<QueueDiscItem>> burst;
            for (int i = 0; i < 80; ++i)
            {
                for (uint16_t port = 1; port <= 8; ++port)
                {
                    burst.push_back(MakeUdpItem("10.0.0.1", "10.0.0.9", port, 1500, TOS_BE_ECT0));
                }
            }
            run.EnqueueAt(Seconds(0), burst);
            for (int j = 0; j < 64; ++j)
            {
                run.EnqueueAt(NanoSeconds(8 * j * SLOT_NS + SLOT_NS / 2),
                              {MakeUdpItem("10.0.0.2", "10.0.0.9", 5004, 1500, TOS_EF_ECT0)});
            }
            run.RunUntil(NanoSeconds(600 * SLOT_NS + SLOT_NS / 2));
            std::vector<ShapedRun::Sent> voice;
            for (const auto& sent : run.GetSent())
            {
                if (DscpOf(sent.item) == 46)
                {
                    voice.push_back(sent);
                }
            }
            NS_TEST_ASSERT_MSG_EQ(voice.size(), 64, preset << ": every voice packet left");
            if (preset == "diffserv3")
            {
                for (uint32_t j = 0; j < voice.size(); ++j)
                {
                    NS_TEST_EXPECT_MSG_EQ(voice[j].at,
                                          NanoSeconds((8 * j + 1) * SLOT_NS),
                                          "voice packet " << j);
                    NS_TEST_EXPECT_MSG_EQ(voice[j].sojourn,
                                          NanoSeconds(SLOT_NS / 2),
                                          "voice packet " << j);
                }
                // Slots 0 .. 511 hold 64 voice packets and 448 Best Effort ones.
                uint32_t voiceIn512 = 0;
                for (uint32_t k = 0; k < 512; ++k)
                {
                    voiceIn512 += DscpOf(run.GetSent()[k].item) == 46 ? 1 : 0;
                }
                NS_TEST_EXPECT_MSG_EQ(voiceIn512, 64, "voice gets all it offers");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(voice.back().sojourn,
                                      NanoSeconds(5 * SLOT_NS),
                                      "besteffort: the same flow queues behind its share");
            }
            run.Finish();
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief Host fairness in each isolation mode: host A with 1 flow against host B with 8.
 *
 * "unlimited": no shaper, one tin (all DSCP 0, Best Effort), flow quantum 1514. 1000-byte IP
 * packets (1014 to cake); A queues 500, each of B's 8 flows 120, all at once in round-robin
 * order (A first). DRR++: a new flow starts with deficit (1514 * quantum_div[1]) >> 16 = 1513
 * and sends two packets (1513 -> 499 -> -515) before it turns bulk; the first 18 dequeues are
 * these turns of the 9 flows, which we skip. From then on each bulk flow gets, once per
 * round, (1514 * quantum_div[host_load] + rand16) >> 16 with quantum_div[n] = 65535 / n and
 * host_load = max(1, srchost bulk count if dual-src, dsthost bulk count if dual-dst)
 * (cake_get_flow_quantum()). We count the next 900 dequeues by host.
 *
 * - dual-srchost: A's flow gets ~1514 per round, each of B's ~1514/8 (8191 * 1514 >> 16 =
 *   189.2): per host equal, A ~ 450 of 900. Bound: B's flows turned bulk one by one in the
 *   window's first round with host_load 1..8 (1514/1 + ... + 1514/8 = 4116 bytes against A's
 *   1514), and each flow's deficit at the end lies in (-1014, quantum]: |A - B| stays below
 *   (2602 + 2528 + 8 * 1204) / 1014 < 15 packets, so A is 450 +- 8.
 * - flows: no host load, every flow ~1514 per round: A ~ 900 / 9 = 100 (+-4: deficits).
 * - srchost: no flow bit, flow_hash = srchost hash: one queue per host, equal quanta: A ~ 450
 *   (+-3: two deficits of at most 1.5 packets).
 * - triple-isolate with one destination: host_load = max(src count, dst count) = max(1, 9)
 *   for A's flow and max(8, 9) for B's: every flow ~1514/9, A ~ 1/9: 100, plus its share of
 *   the first round (it turned bulk first, with load 1): ~101, checked as 100 +- 6.
 * - dual-dsthost, one source, destination C with 1 flow and D with 8: as dual-srchost by
 *   destination, C ~ 450 +- 8.
 *
 * The kernel's host bulk counts (srchost/dsthost_bulk_flow_count) are checked too: with all
 * flows bulk, 1 for A's host and 8 for B's (dual-srchost, triple-isolate), 9 for the single
 * destination (triple-isolate).
 */
class CakeHostFairnessTestCase : public TestCase
{
  public:
    CakeHostFairnessTestCase()
        : TestCase("Host fairness: 1 flow against 8 in each isolation mode")
    {
    }

  private:
    void DoRun() override
    {
        // options, by destination, expected packets of the 1-flow host, tolerance
        Check("flows", false, 100, 4);
        Check("dual-srchost", false, 450, 8);
        Check("srchost", false, 450, 3);
        Check("triple-isolate", false, 100, 6);
        Check("dual-dsthost", true, 450, 8);
    }

    /**
     * Runs one mode.
     * @param mode the isolation word
     * @param byDestination the hosts are two destinations of one source (else two sources
     *        sending to one destination)
     * @param expected packets of the 1-flow host among the 900 counted
     * @param tolerance allowed deviation, packets (derived in the class comment)
     */
    void Check(const std::string& mode, bool byDestination, uint32_t expected, uint32_t tolerance)
    {
        Ptr<CakeQueueDisc> cake = MakeCake("unlimited " + mode);
        const char* lone = byDestination ? "10.0.9.1" : "10.0.0.1";
        const char* crowd = byDestination ? "10.0.9.2" : "10.0.0.2";
        for (int i = 0; i < 500; ++i)
        {
            cake->Enqueue(byDestination ? MakeUdpItem("10.0.0.1", lone, 1000, 1000)
                                        : MakeUdpItem(lone, "10.0.9.9", 1000, 1000));
            for (uint16_t port = 2001; i < 120 && port <= 2008; ++port)
            {
                cake->Enqueue(byDestination ? MakeUdpItem("10.0.0.1", crowd, port, 1000)
                                            : MakeUdpItem(crowd, "10.0.9.9", port, 1000));
            }
        }
        const auto& s = cake->GetScheduler();
        // srchost has one queue per host; the others one per flow (9 flows in 128 sets of 8
        // ways: no collision is possible unless 9 share a set).
        const uint32_t queues = mode == "srchost" ? 2 : 9;
        NS_TEST_ASSERT_MSG_EQ(s.GetTinStats(0).sparseFlows, queues, mode);
        NS_TEST_ASSERT_MSG_EQ(s.GetTinStats(0).wayCollisions, 0, mode);
        for (int i = 0; i < 18; ++i)
        {
            cake->Dequeue();
        }
        uint32_t lonePackets = 0;
        for (int i = 0; i < 900; ++i)
        {
            Ptr<Ipv4QueueDiscItem> item = DynamicCast<Ipv4QueueDiscItem>(cake->Dequeue());
            NS_TEST_ASSERT_MSG_EQ((item != nullptr), true, mode);
            const Ipv4Address host =
                byDestination ? item->GetHeader().GetDestination() : item->GetHeader().GetSource();
            lonePackets += host == Ipv4Address(lone) ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(lonePackets, expected - tolerance, mode);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(lonePackets, expected + tolerance, mode);
        NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(0).bulkFlows, queues, mode << ": all bulk");

        // The hosts' bulk flow counts, found through the flows' host indices.
        if (mode == "dual-srchost" || mode == "triple-isolate" || mode == "dual-dsthost")
        {
            std::map<uint16_t, uint32_t> flowsPerHost;
            for (uint32_t q = 0; q < CAKE_QUEUES; ++q)
            {
                const auto flow = s.GetFlowStats(0, q);
                if (flow.set != CakeFlowSet::NONE)
                {
                    flowsPerHost[byDestination ? flow.dsthost : flow.srchost]++;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(flowsPerHost.size(), 2, mode << ": two hosts");
            std::multiset<uint32_t> counts;
            for (const auto& [host, flows] : flowsPerHost)
            {
                const auto [src, dst] = s.GetHostBulkCounts(0, host);
                counts.insert(byDestination ? dst : src);
            }
            NS_TEST_EXPECT_MSG_EQ((counts == std::multiset<uint32_t>{1, 8}),
                                  true,
                                  mode << ": host bulk counts 1 and 8");
            if (mode == "triple-isolate")
            {
                // All nine flows share the one destination's host entry.
                uint16_t dsthost = 0;
                for (uint32_t q = 0; q < CAKE_QUEUES; ++q)
                {
                    if (s.GetFlowStats(0, q).set != CakeFlowSet::NONE)
                    {
                        dsthost = s.GetFlowStats(0, q).dsthost;
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(s.GetHostBulkCounts(0, dsthost).second,
                                      9,
                                      "triple-isolate: the destination has 9 bulk flows");
            }
        }
        cake->Dispose();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The ACK filter drops queued pure ACKs made redundant by newer ones.
 *
 * One connection, 10.0.0.2:5001 -> 10.0.0.1:80, in the Best Effort tin, nothing dequeued.
 * cake_ack_filter() runs with the new packet (the trigger) at the flow's tail and scans the
 * packets before it from the head: a same-connection packet is eligible if it is a pure ACK
 * (of the flags only ACK, ECE/CWR aside), has no payload, its ack_seq is not after the
 * trigger's, its timestamps are not after the trigger's, and (no SACK on either side, so
 * sack_compare is 0) its ack_seq differs from the trigger's. The first eligible one is
 * remembered; a second eligible one drops the remembered one. ack-filter-aggressive also
 * drops a single remembered one that sits right before the trigger.
 *
 * - Pure ACKs 1000..5000 (TSval 101..105): "ack-filter": ACK 3000 finds 1000 and 2000
 *   eligible and drops 1000; 4000 drops 2000; 5000 drops 3000: 3 drops, 4000 and 5000 stay.
 *   "ack-filter-aggressive": 2000 drops 1000 (adjacent), 3000 drops 2000, ...: 4 drops, only
 *   5000 stays. No option: nothing dropped, 5 queued.
 * - ACK 1000, data (PSH|ACK, 100 bytes, ack 1000), ACKs 2000..5000, "ack-filter": the data
 *   segment is never eligible (flags and payload); ACK 1000 is not eligible for the data
 *   trigger (same ack_seq, no more SACK); 2000 remembers 1000 only; 3000 drops 1000, 4000
 *   drops 2000, 5000 drops 3000: the queue is data, 4000, 5000.
 *
 * Each drop is a drop after dequeue with reason ACK_FILTER_DROP and counts in the tin's
 * ack_drop; the tin's packet counter counts every enqueue (cake_enqueue()'s b->packets++).
 */
class CakeAckFilterTestCase : public TestCase
{
  public:
    CakeAckFilterTestCase()
        : TestCase("ACK filter drops redundant pure ACKs")
    {
    }

  private:
    void DoRun() override
    {
        CheckPureAcks("unlimited ack-filter", 3, {4000, 5000});
        CheckPureAcks("unlimited ack-filter-aggressive", 4, {5000});
        CheckPureAcks("unlimited", 0, {1000, 2000, 3000, 4000, 5000});
        CheckWithData();
    }

    /**
     * Records a drop.
     * @param item the dropped item
     * @param reason why
     */
    void Dropped(Ptr<const QueueDiscItem> item, const char* reason)
    {
        m_drops.emplace_back(item->GetPacket()->GetUid(), reason);
    }

    /**
     * Queues pure ACKs 1000..5000 and checks drops and what is left.
     * @param options tc-cake options
     * @param drops expected ACK filter drops
     * @param left expected ack numbers left in the queue, in order
     */
    void CheckPureAcks(const std::string& options,
                       uint32_t drops,
                       const std::vector<uint32_t>& left)
    {
        m_drops.clear();
        Ptr<CakeQueueDisc> cake = MakeCake(options);
        cake->TraceConnectWithoutContext("DropAfterDequeue",
                                         MakeCallback(&CakeAckFilterTestCase::Dropped, this));
        std::vector<uint64_t> uids;
        for (uint32_t k = 1; k <= 5; ++k)
        {
            Ptr<QueueDiscItem> item = MakeTcpItem(1000 * k, 0, TcpHeader::ACK, 100 + k);
            uids.push_back(item->GetPacket()->GetUid());
            cake->Enqueue(item);
        }
        NS_TEST_EXPECT_MSG_EQ(m_drops.size(), drops, options);
        for (uint32_t i = 0; i < m_drops.size(); ++i)
        {
            // The oldest ACKs go first: 1000, then 2000, ...
            NS_TEST_EXPECT_MSG_EQ(m_drops[i].first, uids[i], options << ", drop " << i);
            NS_TEST_EXPECT_MSG_EQ(m_drops[i].second,
                                  std::string(CakeQueueDisc::ACK_FILTER_DROP),
                                  options);
        }
        const CakeTinStats tin = cake->GetScheduler().GetTinStats(0);
        NS_TEST_EXPECT_MSG_EQ(tin.ackDrops, drops, options);
        NS_TEST_EXPECT_MSG_EQ(tin.packets, 5, options << ": every enqueue counts");
        NS_TEST_EXPECT_MSG_EQ(tin.dropped, 0, options << ": ACK drops are not AQM drops");
        NS_TEST_EXPECT_MSG_EQ(cake->GetStats().GetNDroppedPackets(CakeQueueDisc::ACK_FILTER_DROP),
                              drops,
                              options);
        // A pure ACK with a timestamp is 20 (IP) + 32 (TCP: 20, the 10-byte timestamp option,
        // two bytes of end-of-options padding) = 52 bytes; cake adds 14.
        NS_TEST_EXPECT_MSG_EQ(cake->GetNPackets(), left.size(), options);
        NS_TEST_EXPECT_MSG_EQ(cake->GetNBytes(), 52 * left.size(), options);
        NS_TEST_EXPECT_MSG_EQ(tin.backlog, (52 + 14) * left.size(), options);
        std::vector<uint32_t> acks;
        while (Ptr<QueueDiscItem> item = cake->Dequeue())
        {
            TcpHeader tcp;
            item->GetPacket()->PeekHeader(tcp);
            acks.push_back(tcp.GetAckNumber().GetValue());
        }
        NS_TEST_EXPECT_MSG_EQ((acks == left), true, options << ": the newest ACKs stay");
        cake->Dispose();
    }

    /// A data segment among the ACKs is never dropped.
    void CheckWithData()
    {
        m_drops.clear();
        Ptr<CakeQueueDisc> cake = MakeCake("unlimited ack-filter");
        cake->TraceConnectWithoutContext("DropAfterDequeue",
                                         MakeCallback(&CakeAckFilterTestCase::Dropped, this));
        cake->Enqueue(MakeTcpItem(1000));
        Ptr<QueueDiscItem> data = MakeTcpItem(1000, 100, TcpHeader::ACK | TcpHeader::PSH);
        cake->Enqueue(data);
        for (uint32_t k = 2; k <= 5; ++k)
        {
            cake->Enqueue(MakeTcpItem(1000 * k));
        }
        NS_TEST_EXPECT_MSG_EQ(m_drops.size(), 3, "1000, 2000 and 3000 dropped");
        NS_TEST_EXPECT_MSG_EQ(cake->GetScheduler().GetTinStats(0).ackDrops, 3, "tin ack_drop");
        std::vector<uint64_t> uids;
        std::vector<uint32_t> acks;
        while (Ptr<QueueDiscItem> item = cake->Dequeue())
        {
            TcpHeader tcp;
            item->GetPacket()->PeekHeader(tcp);
            uids.push_back(item->GetPacket()->GetUid());
            acks.push_back(tcp.GetAckNumber().GetValue());
        }
        NS_TEST_ASSERT_MSG_EQ(uids.size(), 3, "data, 4000, 5000 left");
        NS_TEST_EXPECT_MSG_EQ(uids[0], data->GetPacket()->GetUid(), "the data segment stays");
        NS_TEST_EXPECT_MSG_EQ(acks[1], 4000, "ACK 4000 stays");
        NS_TEST_EXPECT_MSG_EQ(acks[2], 5000, "ACK 5000 stays");
        cake->Dispose();
    }

    std::vector<std::pair<uint64_t, std::string>> m_drops; ///< drops: uid, reason
};

/**
 * @ingroup debloat-tests
 * @brief memlimit: overflow drops from the head of the fattest flow (by bytes, not memory).
 *
 * "memlimit 20000": buffer_limit = min(20000, max(10240 * 1514, 20000)) = 20000 bytes of
 * truesize. CakeQueueDisc::GetTruesize(len) = align64(64 + len) + 320 + 256: a 1500-byte IP
 * packet (len 1514) costs align64(1578) + 576 = 1600 + 576 = 2176, a 100-byte one (len 114)
 * align64(178) + 576 = 192 + 576 = 768.
 *
 * Flow A queues 3 big packets (6528), then flow B small ones, all at t = 0:
 * - B1..B17: 6528 + 17 * 768 = 19584 <= 20000.
 * - B18: 20352 > 20000: cake_drop() takes the head of the queue with the largest backlog in
 *   bytes: A 3 * 1514 = 4542 against B 18 * 114 = 2052, so A1; 20352 - 2176 = 18176.
 * - B19, B20: 18944, 19712. B21: 20480: A 2 * 1514 = 3028 against B 21 * 114 = 2394: A2;
 *   18304.
 * - B22, B23: 19072, 19840. B24: 20608: A 1514 against B 24 * 114 = 2736: now B is fattest,
 *   its head B1 goes (although A's packet costs more memory); 19840.
 * Three drops, reason OVERLIMIT_DROP, in the order A1, A2, B1; the tin's drop_overlimit and
 * tin_dropped are 3; left: A3 and B2..B24, 24 packets; ns-3's counters (IP sizes, no
 * Ethernet header): 1500 + 23 * 100 = 3800 bytes; buffer_used 2176 + 23 * 768 = 19840;
 * "memory used" prints the peak buffer_max_used, 20608 (tc: 20608/1024 = 20.1 is not within
 * 16 bytes of a whole Kb, so "20608b"), of "20000b".
 *
 * At t = 0 BLUE stays off (cobalt_queue_full() raises p_drop only when more than target has
 * passed since blue_timer = 0), and a sojourn of 0 is below target, so dequeuing all 24
 * drops nothing more.
 */
class CakeMemLimitTestCase : public TestCase
{
  public:
    CakeMemLimitTestCase()
        : TestCase("memlimit: overflow from the head of the fattest flow")
    {
    }

  private:
    /**
     * Records a drop.
     * @param item the dropped item
     * @param reason why
     */
    void Dropped(Ptr<const QueueDiscItem> item, const char* reason)
    {
        m_drops.emplace_back(item->GetPacket()->GetUid(), reason);
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(CakeQueueDisc::GetTruesize(1514), 2176, "truesize of 1514");
        NS_TEST_ASSERT_MSG_EQ(CakeQueueDisc::GetTruesize(114), 768, "truesize of 114");
        Ptr<CakeQueueDisc> cake = MakeCake("memlimit 20000");
        cake->TraceConnectWithoutContext("DropAfterDequeue",
                                         MakeCallback(&CakeMemLimitTestCase::Dropped, this));
        NS_TEST_ASSERT_MSG_EQ(cake->GetScheduler().GetBufferLimit(), 20000, "buffer_limit");
        std::vector<uint64_t> a;
        std::vector<uint64_t> b;
        for (int i = 0; i < 3; ++i)
        {
            Ptr<QueueDiscItem> item = MakeUdpItem("10.0.0.1", "10.0.0.9", 1000, 1500);
            a.push_back(item->GetPacket()->GetUid());
            cake->Enqueue(item);
        }
        for (int i = 0; i < 24; ++i)
        {
            Ptr<QueueDiscItem> item = MakeUdpItem("10.0.0.1", "10.0.0.9", 2000, 100);
            b.push_back(item->GetPacket()->GetUid());
            cake->Enqueue(item);
            const uint32_t expectedDrops = i < 17 ? 0 : (i < 20 ? 1 : (i < 23 ? 2 : 3));
            NS_TEST_EXPECT_MSG_EQ(m_drops.size(), expectedDrops, "after B" << i + 1);
        }
        NS_TEST_ASSERT_MSG_EQ(m_drops.size(), 3, "three overflow drops");
        const std::vector<uint64_t> victims{a[0], a[1], b[0]};
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(m_drops[i].first, victims[i], "drop " << i);
            NS_TEST_EXPECT_MSG_EQ(m_drops[i].second,
                                  std::string(CakeQueueDisc::OVERLIMIT_DROP),
                                  "drop " << i);
        }
        const auto& s = cake->GetScheduler();
        const CakeTinStats tin = s.GetTinStats(0);
        NS_TEST_EXPECT_MSG_EQ(tin.dropOverlimit, 3, "drop_overlimit");
        NS_TEST_EXPECT_MSG_EQ(tin.dropped, 3, "tin_dropped");
        NS_TEST_EXPECT_MSG_EQ(tin.packets, 27, "every enqueue counts");
        NS_TEST_EXPECT_MSG_EQ(tin.backlog, 1514 + 23 * 114, "tin backlog");
        NS_TEST_EXPECT_MSG_EQ(cake->GetNPackets(), 24, "ns-3 packets");
        NS_TEST_EXPECT_MSG_EQ(cake->GetNBytes(), 3800, "ns-3 bytes");
        NS_TEST_EXPECT_MSG_EQ(s.GetQlen(), 24, "scheduler qlen");
        NS_TEST_EXPECT_MSG_EQ(s.GetBufferUsed(), 19840, "buffer_used");
        NS_TEST_EXPECT_MSG_EQ(s.GetBufferMaxUsed(), 20608, "buffer_max_used");
        NS_TEST_EXPECT_MSG_EQ(cake->GetStats().GetNDroppedPackets(CakeQueueDisc::OVERLIMIT_DROP),
                              3,
                              "ns-3 drop counter");
        std::ostringstream tc;
        cake->PrintStats(tc);
        NS_TEST_EXPECT_MSG_NE(tc.str().find("memory used: 20608b of 20000b"),
                              std::string::npos,
                              tc.str());

        std::vector<uint64_t> out;
        while (Ptr<QueueDiscItem> item = cake->Dequeue())
        {
            out.push_back(item->GetPacket()->GetUid());
        }
        std::vector<uint64_t> expected{a[2]};
        expected.insert(expected.end(), b.begin() + 1, b.end());
        std::sort(out.begin(), out.end());
        std::sort(expected.begin(), expected.end());
        NS_TEST_EXPECT_MSG_EQ((out == expected), true, "A3 and B2..B24 leave");
        NS_TEST_EXPECT_MSG_EQ(m_drops.size(), 3, "no more drops");
        NS_TEST_EXPECT_MSG_EQ(cake->GetNPackets(), 0, "empty");
        NS_TEST_EXPECT_MSG_EQ(cake->GetNBytes(), 0, "empty");
        NS_TEST_EXPECT_MSG_EQ(s.GetBufferUsed(), 0, "no memory held");
        cake->Dispose();
    }

    std::vector<std::pair<uint64_t, std::string>> m_drops; ///< drops: uid, reason
};

/**
 * @ingroup debloat-tests
 * @brief COBALT's CoDel schedule on one flow: the first signal, the interval / sqrt(count)
 * spacing, marks for ECT(0), drops otherwise, never the flow's last packet.
 *
 * "bandwidth 10Mbit besteffort": one tin at 800 ns per byte; COBALT target max(1.5 *
 * mtu_time, 5 ms) with mtu_time = 1514 * 800 = 1.2112 ms, so 5 ms; interval max(100 ms +
 * 5 ms - 5 ms, 10 ms) = 100 ms; over_target also needs sojourn > 4 * mtu_time = 4.8448 ms.
 * 170 packets of 1500 bytes queued at t = 0 leave one per slot d = 1.2112 ms, so the packet
 * dequeued at slot k has sojourn k * d.
 *
 * cobalt_should_drop() with fresh state (count 0, rec_inv_sqrt 0, not dropping):
 * - slots 0..4: sojourn <= 4.8448 ms, not over target.
 * - slot 5 (6.056 ms): over target; enters dropping with drop_next = now +
 *   reciprocal_scale(interval, rec_inv_sqrt = 0) = now, count = 1; no signal yet (next_due
 *   was computed with count 0).
 * - slot 6: next_due (count 1, now >= drop_next): signal; count 2, rec_inv_sqrt =
 *   3037000500, drop_next = t5 + (100000000 * 3037000500 >> 32) = 6056000 + 70710678 =
 *   76766678 ns. So the first signal comes one slot after the first over-target packet, not
 *   one interval later.
 * - next signal at the first slot >= 76766678: slot 64 (63d = 76305600 is before); count 3,
 *   drop_next += 100000000 * 2479700525 >> 32 = 57735026: 134501704, slot 112 (111d =
 *   134443200); count 4, drop_next += 49999999: 184501703, slot 153 (152d = 184102400).
 * ECT(0): the packets of slots 6, 64, 112 and 153 leave CE-marked (COBALT_MARK, tin marks 4),
 * nothing is dropped. Not-ECT: the signal drops the packet and the next one of the flow leaves
 * in the same slot (egress: drops do not charge the shaper), so the dropped packets are
 * numbers 6, 64 + 1, 112 + 2, 153 + 3 (COBALT_DROP, tin drops 4). We run 160 slots.
 *
 * The last packet (unlimited, target 5 ms, interval 100 ms): P0, P1 queued at t = 0; at 10 ms
 * P0 enters dropping (drop_next = 10 ms, count 1); at 20 ms P1 is due a signal, but the flow
 * has no other packet, and cake_dequeue() never drops the last one: P1 leaves, no drop. With
 * a third packet P2 queued, the same signal drops P1 and P2 leaves at 20 ms.
 */
class CakeCobaltTestCase : public TestCase
{
  public:
    CakeCobaltTestCase()
        : TestCase("COBALT: first signal, signal spacing, ECN marks, drops, last packet kept")
    {
    }

  private:
    void DoRun() override
    {
        Schedule(true);
        Schedule(false);
        LastPacket(2);
        LastPacket(3);
    }

    /**
     * The shaped schedule.
     * @param ect whether the packets are ECT(0)
     */
    void Schedule(bool ect)
    {
        ShapedRun run("bandwidth 10Mbit besteffort");
        std::vector<uint64_t> uids;
        std::vector<Ptr<QueueDiscItem>> burst;
        for (int i = 0; i < 170; ++i)
        {
            burst.push_back(MakeUdpItem("10.0.0.1", "10.0.0.9", 1000, 1500, ect ? TOS_BE_ECT0 : 0));
            uids.push_back(burst.back()->GetPacket()->GetUid());
        }
        run.EnqueueAt(Seconds(0), burst);
        run.RunUntil(NanoSeconds(159 * SLOT_NS + SLOT_NS / 2));
        const auto& sent = run.GetSent();
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 160, "one packet per slot");
        const std::set<uint32_t> signalSlots{6, 64, 112, 153};
        const std::set<uint32_t> droppedPackets{6, 65, 114, 156};
        uint32_t next = 0; // index of the next packet expected to leave
        for (uint32_t k = 0; k < sent.size(); ++k)
        {
            while (!ect && droppedPackets.count(next))
            {
                ++next;
            }
            NS_TEST_EXPECT_MSG_EQ(sent[k].item->GetPacket()->GetUid(), uids[next], "slot " << k);
            const auto ecn = DynamicCast<Ipv4QueueDiscItem>(sent[k].item)->GetHeader().GetEcn();
            const bool marked = ect && signalSlots.count(k);
            NS_TEST_EXPECT_MSG_EQ(ecn,
                                  (marked ? Ipv4Header::ECN_CE
                                          : (ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT)),
                                  "slot " << k);
            ++next;
        }
        const CakeTinStats tin = run.Cake()->GetScheduler().GetTinStats(0);
        const QueueDisc::Stats& stats = run.Cake()->GetStats();
        NS_TEST_EXPECT_MSG_EQ(tin.ecnMarked, (ect ? 4 : 0), "tin marks");
        NS_TEST_EXPECT_MSG_EQ(tin.dropped, (ect ? 0 : 4), "tin drops");
        NS_TEST_EXPECT_MSG_EQ(stats.GetNMarkedPackets(CakeQueueDisc::COBALT_MARK),
                              (ect ? 4 : 0),
                              "ns-3 marks");
        NS_TEST_EXPECT_MSG_EQ(stats.GetNDroppedPackets(CakeQueueDisc::COBALT_DROP),
                              (ect ? 0 : 4),
                              "ns-3 drops");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPackets, (ect ? 0 : 4), "no other drops");
        run.Finish();
    }

    /**
     * Dequeues one packet and records its uid.
     * @param cake the queue disc
     * @param out the uids dequeued so far
     */
    static void DequeueInto(Ptr<CakeQueueDisc> cake, std::vector<uint64_t>* out)
    {
        if (Ptr<QueueDiscItem> item = cake->Dequeue())
        {
            out->push_back(item->GetPacket()->GetUid());
        }
    }

    /**
     * The last packet of a flow.
     * @param queued packets queued at t = 0 (2: P1 is the last when signalled; 3: it is not)
     */
    void LastPacket(uint32_t queued)
    {
        Ptr<CakeQueueDisc> cake = MakeCake("besteffort");
        std::vector<uint64_t> uids;
        for (uint32_t i = 0; i < queued; ++i)
        {
            Ptr<QueueDiscItem> item = MakeUdpItem("10.0.0.1", "10.0.0.9", 1000, 100);
            uids.push_back(item->GetPacket()->GetUid());
            cake->Enqueue(item);
        }
        std::vector<uint64_t> out;
        for (int ms : {10, 20})
        {
            Simulator::Schedule(MilliSeconds(ms), &CakeCobaltTestCase::DequeueInto, cake, &out);
        }
        Simulator::Stop(MilliSeconds(25));
        Simulator::Run();
        const std::vector<uint64_t> expected = queued == 2
                                                   ? std::vector<uint64_t>{uids[0], uids[1]}
                                                   : std::vector<uint64_t>{uids[0], uids[2]};
        NS_TEST_EXPECT_MSG_EQ((out == expected), true, queued << " queued");
        NS_TEST_EXPECT_MSG_EQ(cake->GetStats().GetNDroppedPackets(CakeQueueDisc::COBALT_DROP),
                              (queued == 2 ? 0 : 1),
                              queued << " queued");
        // The signal was counted either way: count went from 1 to 2.
        const auto& s = cake->GetScheduler();
        uint32_t count = 0;
        for (uint32_t q = 0; q < CAKE_QUEUES; ++q)
        {
            count = std::max(count, s.GetFlowStats(0, q).cvars.count);
        }
        NS_TEST_EXPECT_MSG_EQ(count, 2, queued << " queued: COBALT count");
        cake->Dispose();
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief wash clears the DSCP of queued packets (ECN kept) after they were classified.
 *
 * cake_handle_diffserv() reads the DSCP, then with wash rewrites the ToS byte to its ECN bits
 * only; cake_select_tin() uses the DSCP read before: EF|ECT(0) (0xBA) goes to Voice (tin 2)
 * and leaves as 0x02; CS1|CE (0x23) goes to Bulk (tin 1) and leaves as 0x03; 0x00 stays in
 * Best Effort and unchanged. Without wash the ToS bytes leave as they came.
 */
class CakeWashTestCase : public TestCase
{
  public:
    CakeWashTestCase()
        : TestCase("wash clears the DSCP after classification, keeping ECN")
    {
    }

  private:
    void DoRun() override
    {
        for (bool wash : {true, false})
        {
            Ptr<CakeQueueDisc> cake = MakeCake(wash ? "wash" : "nowash");
            const std::map<uint16_t, uint8_t> tosByPort{{1, 0xBA}, {2, 0x23}, {3, 0x00}};
            for (const auto& [port, tos] : tosByPort)
            {
                cake->Enqueue(MakeUdpItem("10.0.0.1", "10.0.0.9", port, 200, tos));
            }
            const auto& s = cake->GetScheduler();
            NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(2).packets, 1, "EF in Voice, wash=" << wash);
            NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(1).packets, 1, "CS1 in Bulk, wash=" << wash);
            NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(0).packets, 1, "0 in Best Effort, wash=" << wash);
            const std::map<uint16_t, uint8_t> expected =
                wash ? std::map<uint16_t, uint8_t>{{1, 0x02}, {2, 0x03}, {3, 0x00}} : tosByPort;
            uint32_t n = 0;
            while (Ptr<QueueDiscItem> item = cake->Dequeue())
            {
                auto ip = DynamicCast<Ipv4QueueDiscItem>(item);
                UdpHeader udp;
                item->GetPacket()->PeekHeader(udp);
                NS_TEST_EXPECT_MSG_EQ(uint32_t{ip->GetHeader().GetTos()},
                                      uint32_t{expected.at(udp.GetSourcePort())},
                                      "port " << udp.GetSourcePort() << ", wash=" << wash);
                ++n;
            }
            NS_TEST_EXPECT_MSG_EQ(n, 3, "all delivered");
            cake->Dispose();
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief fwmark: the mark selects tin_order[m - 1] before the DSCP does.
 *
 * cake_select_tin(): m = (mark & mask) >> __ffs(mask); 1 <= m <= tin_cnt selects
 * tin_order[m - 1]; diffserv3's tin_order is {1, 0, 2} (Bulk, Best Effort, Voice, tc's
 * column order); otherwise the DSCP table.
 * - "fwmark 0xff": mark 1 on DSCP 0 -> tin 1 (Bulk); mark 2 -> tin 0; mark 3 -> tin 2;
 *   mark 4 > 3 on EF -> DSCP -> tin 2; mark 0x101 on EF -> 0x01 -> tin 1 (the mark wins).
 *   Bulk 2, Best Effort 1, Voice 2.
 * - "fwmark 0xf0" (shift 4): 0x10 -> 1 -> Bulk; 0x01 -> 0 -> DSCP 0 -> Best Effort; 0x30 -> 3
 *   -> Voice.
 * - no fwmark: mark 1 on DSCP 0 -> Best Effort.
 */
class CakeFwmarkTestCase : public TestCase
{
  public:
    CakeFwmarkTestCase()
        : TestCase("fwmark selects the tin by tc's column order")
    {
    }

  private:
    void DoRun() override
    {
        Check("fwmark 0xff", {{1, 0}, {2, 0}, {3, 0}, {4, 46}, {0x101, 46}}, {1, 2, 2});
        Check("fwmark 0xf0", {{0x10, 0}, {0x01, 0}, {0x30, 0}}, {1, 1, 1});
        Check("", {{1, 0}}, {1, 0, 0});
    }

    /**
     * Queues marked packets and checks the tins' packet counters.
     * @param options tc-cake options
     * @param packets (mark, DSCP) of each packet
     * @param perTin expected packets in tins 0 (Best Effort), 1 (Bulk), 2 (Voice)
     */
    void Check(const std::string& options,
               const std::vector<std::pair<uint32_t, uint8_t>>& packets,
               const std::vector<uint32_t>& perTin)
    {
        Ptr<CakeQueueDisc> cake = MakeCake(options);
        for (const auto& [mark, dscp] : packets)
        {
            Ptr<Ipv4QueueDiscItem> item =
                MakeUdpItem("10.0.0.1", "10.0.0.9", 1000, 100, static_cast<uint8_t>(dscp << 2));
            item->GetPacket()->AddPacketTag(PacketMarkTag(mark));
            cake->Enqueue(item);
        }
        for (uint32_t tin = 0; tin < 3; ++tin)
        {
            NS_TEST_EXPECT_MSG_EQ(cake->GetScheduler().GetTinStats(tin).packets,
                                  perTin[tin],
                                  options << ", tin " << tin);
        }
        cake->Dispose();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Packets that are not IP are classified, queued and delivered.
 *
 * cake_handle_diffserv() returns CS7 (0x38) for ARP, which diffserv3 puts in Voice (tin 2),
 * and 0 for any other non-IP EtherType (Best Effort). The flow dissector finds only the
 * EtherType, so all ARP packets hash alike and share one queue, and so do the others.
 * Unlimited: all 5 leave. Shaped at 10 Mbit/s, three 28-byte ARP packets (42 bytes to cake)
 * queued at t = 0 leave at 0, 42 * 800 = 33.6 us and 67.2 us: the voice tin alone may use the
 * global rate (it is the earliest tin with packets, and only the global shaper holds it).
 */
class CakeNonIpTestCase : public TestCase
{
  public:
    CakeNonIpTestCase()
        : TestCase("Non-IP packets are classified and delivered")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CakeQueueDisc> cake = MakeCake("wash");
        for (int i = 0; i < 3; ++i)
        {
            cake->Enqueue(Create<NonIpItem>(Create<Packet>(28), 0x0806));
        }
        for (int i = 0; i < 2; ++i)
        {
            cake->Enqueue(Create<NonIpItem>(Create<Packet>(60), 0x88B5));
        }
        const auto& s = cake->GetScheduler();
        NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(2).packets, 3, "ARP in Voice (CS7)");
        NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(0).packets, 2, "other EtherType in Best Effort");
        NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(2).sparseFlows, 1, "one ARP queue");
        NS_TEST_EXPECT_MSG_EQ(s.GetTinStats(0).sparseFlows, 1, "one other queue");
        uint32_t served = 0;
        while (cake->Dequeue())
        {
            ++served;
        }
        NS_TEST_EXPECT_MSG_EQ(served, 5, "all served");
        NS_TEST_EXPECT_MSG_EQ(cake->GetNPackets(), 0, "empty");
        NS_TEST_EXPECT_MSG_EQ(cake->GetStats().nTotalDroppedPackets, 0, "no drops");
        cake->Dispose();

        ShapedRun run("bandwidth 10Mbit");
        std::vector<Ptr<QueueDiscItem>> arps;
        for (int i = 0; i < 3; ++i)
        {
            arps.push_back(Create<NonIpItem>(Create<Packet>(28), 0x0806));
        }
        run.EnqueueAt(Seconds(0), arps);
        run.RunUntil(MilliSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(run.GetSent().size(), 3, "shaped: all sent");
        for (int i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.GetSent()[i].at,
                                  NanoSeconds(i * 42 * NS_PER_BYTE_10MBIT),
                                  "ARP " << i);
        }
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Invalid options stop with a message that names them.
 */
class CakeBadOptionsTestCase : public TestCase
{
  public:
    CakeBadOptionsTestCase()
        : TestCase("Invalid options stop with a message naming them")
    {
    }

  private:
    void DoRun() override
    {
        // The message must name the word itself (quoted), not merely list it among the
        // accepted ones as an unknown-word message would.
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"bandwidth", "\"bandwidth\""},
            {"overhead 300", "overhead \"300\""},
            {"diffserv3 bandwith 10Mbit", "unknown word \"bandwith\""},
            {"memlimit", "\"memlimit\""},
        };
        for (const auto& [options, word] : cases)
        {
            const debloattest::ChildOutcome outcome =
                debloattest::RunInChild([options = options] { MakeCake(options); });
            NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, options);
            NS_TEST_EXPECT_MSG_NE(outcome.output.find(word), std::string::npos, outcome.output);
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief GSO super-packets: split-gso peels them into segments; no-split-gso keeps them
 * whole and charges the shaper for every segment.
 *
 * The super-packet: TCP/IPv4 with 4 x 1448 = 5792 payload bytes, gso_size 1448, gso_segs 4,
 * PSH and FIN set, sequence number 1. Its qdisc length is 5792 + 20 + 20 + 14 = 5846.
 * - split-gso: tcp_gso_segment() makes 4 segments of 1448 + 40 = 1488 IP bytes (1502 with the
 *   Ethernet header), sequence numbers 1, 1449, 2897, 4345, PSH and FIN only on the last; the
 *   tin counts 4 packets of 1502 bytes and max_len 5846 (the length before splitting).
 * - no-split-gso: one packet of 5846 bytes is queued. cake_overhead() counts it as
 *   (segs - 1) x (gso_size + hdr_len) + last = 3 x (1448 + 54) + (5846 - 3 x 1448) = 6008
 *   bytes (hdr_len = 14 + 20 + 20). At 10 Mbit/s (1250000 B/s, 800 ns per byte) the shaper
 *   holds the next packet for 6008 x 800 = 4806400 ns; split, the four 1502-byte segments
 *   take the same 4 x 1502 x 800 ns.
 */
class CakeGsoTestCase : public TestCase
{
  public:
    CakeGsoTestCase()
        : TestCase("GSO: split-gso peels super-packets, no-split-gso accounts per segment")
    {
    }

  private:
    /// @return the super-packet
    /**
     * @param tos the TOS byte
     * @return the super-packet
     */
    static Ptr<QueueDiscItem> MakeSuperPacket(uint8_t tos = 0)
    {
        Ptr<Ipv4QueueDiscItem> tcp =
            MakeTcpItem(1, 4 * 1448, TcpHeader::ACK | TcpHeader::PSH | TcpHeader::FIN);
        Ipv4Header header = tcp->GetHeader();
        header.SetTos(tos);
        Ptr<QueueDiscItem> item = Create<Ipv4QueueDiscItem>(tcp->GetPacket(),
                                                            tcp->GetAddress(),
                                                            tcp->GetProtocol(),
                                                            header);
        item->GetPacket()->AddPacketTag(GsoTag(1448, 4));
        return item;
    }

    void DoRun() override
    {
        {
            ShapedRun run("bandwidth 10Mbit besteffort");
            run.EnqueueAt(Seconds(0), {MakeSuperPacket()});
            run.RunUntil(MilliSeconds(10));
            const CakeTinStats tin = run.Cake()->GetScheduler().GetTinStats(0);
            NS_TEST_EXPECT_MSG_EQ(tin.packets, 4, "tin packets");
            NS_TEST_EXPECT_MSG_EQ(tin.bytes, 4 * 1502, "tin bytes");
            NS_TEST_EXPECT_MSG_EQ(tin.maxSkbLen, 5846, "max_len before splitting");
            const auto& sent = run.GetSent();
            NS_TEST_ASSERT_MSG_EQ(sent.size(), 4, "four segments sent");
            for (uint32_t k = 0; k < 4; ++k)
            {
                // The shaper spaces 1502-byte segments by 1502 x 800 ns.
                NS_TEST_EXPECT_MSG_EQ(sent[k].at, NanoSeconds(1502 * 800 * k), "time " << k);
                // QueueDisc::Transmit() has added the IP header (Ipv4QueueDiscItem::AddHeader).
                Ptr<Packet> copy = sent[k].item->GetPacket()->Copy();
                Ipv4Header ip;
                copy->RemoveHeader(ip);
                TcpHeader tcp;
                copy->RemoveHeader(tcp);
                NS_TEST_EXPECT_MSG_EQ(copy->GetSize(), 1448, "payload of segment " << k);
                NS_TEST_EXPECT_MSG_EQ(tcp.GetSequenceNumber().GetValue(),
                                      1 + 1448 * k,
                                      "sequence number of segment " << k);
                const bool last = k == 3;
                NS_TEST_EXPECT_MSG_EQ(bool(tcp.GetFlags() & TcpHeader::FIN), last, "FIN " << k);
                NS_TEST_EXPECT_MSG_EQ(bool(tcp.GetFlags() & TcpHeader::PSH), last, "PSH " << k);
                GsoTag tag;
                NS_TEST_EXPECT_MSG_EQ(sent[k].item->GetPacket()->PeekPacketTag(tag),
                                      false,
                                      "segments carry no GsoTag");
            }
            // ns-3 counts the super-packet under GSO_SPLIT; tc's "dropped" leaves it out.
            NS_TEST_EXPECT_MSG_EQ(
                run.Cake()->GetStats().GetNDroppedPackets(CakeQueueDisc::GSO_SPLIT),
                1,
                "the super-packet, replaced by its segments");
            std::ostringstream stats;
            run.Cake()->PrintStats(stats);
            NS_TEST_EXPECT_MSG_NE(stats.str().find("(dropped 0,"), std::string::npos, stats.str());
            run.Finish();
        }
        {
            // wash and split-gso: the kernel picks the tin once, from the DSCP before
            // washing, then splits: all four segments of an EF super-packet go to Voice
            // (diffserv3 tin 2), and leave with the DSCP cleared.
            ShapedRun run("bandwidth 10Mbit diffserv3 wash");
            run.EnqueueAt(Seconds(0), {MakeSuperPacket(0xB8)});
            run.RunUntil(MilliSeconds(10));
            NS_TEST_EXPECT_MSG_EQ(run.Cake()->GetScheduler().GetTinStats(2).packets,
                                  4,
                                  "the segments in Voice");
            NS_TEST_ASSERT_MSG_EQ(run.GetSent().size(), 4, "four segments sent");
            NS_TEST_EXPECT_MSG_EQ(
                (int)DynamicCast<Ipv4QueueDiscItem>(run.GetSent()[3].item)->GetHeader().GetTos(),
                0,
                "washed");
            run.Finish();
        }
        {
            ShapedRun run("bandwidth 10Mbit besteffort no-split-gso");
            run.EnqueueAt(Seconds(0), {MakeSuperPacket(), MakeTcpItem(1, 100)});
            run.RunUntil(MilliSeconds(10));
            const auto& sent = run.GetSent();
            NS_TEST_ASSERT_MSG_EQ(sent.size(), 2, "the super-packet stays whole");
            NS_TEST_EXPECT_MSG_EQ(sent[0].item->GetSize(), 5832, "5792 + 40 bytes");
            NS_TEST_EXPECT_MSG_EQ(sent[1].at, NanoSeconds(6008 * 800), "held for 6008 bytes");
            // cake_calc_overhead() records each segment size it computes: 1502 at most.
            NS_TEST_EXPECT_MSG_EQ(run.Cake()->GetScheduler().GetMaxAdjLen(),
                                  1502,
                                  "largest adjusted segment");
            run.Finish();
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief PrintStats() prints what `tc -s qdisc show` prints for cake.
 *
 * "bandwidth 10Mbit diffserv3", with 1 CS1 packet of 100 bytes (114 to cake), 3 Best Effort
 * ones of 1000 (1014) in one flow and 2 EF ones of 200 (214) queued, nothing sent:
 * - columns in tin_order: "Bulk  Best Effort        Voice" (tc/q_cake.c's header).
 * - thresh (tin_rate_bps * 8, tc's sprint_rate(): divide by 1000 while the rest is 0 or the
 *   value is at least 1000000): Bulk 1250000 >> 4 = 78125 B/s = 625000 bit/s "625Kbit"; Best
 *   Effort "10Mbit"; Voice 312500 B/s = 2500000 bit/s: 2500 Kbit has a remainder and is below
 *   1000000, so "2500Kbit".
 * - target max(1.5 * mtu_time, 5 ms), mtu_time = 1514 * ns-per-byte, printed in us with
 *   "%.3g": Bulk 1514 * 12800 * 1.5 = 29068800 ns, 29068 us, "29.1ms"; Best Effort
 *   1.5 * 1211200 < 5 ms, "5ms"; Voice 1514 * 3200 * 1.5 = 7267200 ns, "7.27ms".
 * - interval max(100 ms + target - 5 ms, 2 * target): "124ms", "100ms", "102ms".
 * - pkts 1 3 2; bytes 114 3042 428; quantum clamp(rate >> 12, 300, 1514): Bulk 78125 >> 12 =
 *   19 -> 300, Best Effort 305, Voice 76 -> 300.
 * - memory used: the peak truesize, 768 + 3 * 1664 + 2 * 896 = 7552 ("7552b": 7.375 Kb is not
 *   within 16 bytes of a whole Kb), of buffer_limit max(1250000 * 100000 / 250000, 4 MiB) =
 *   4194304, "4Mb"; capacity estimate: the configured rate, "10Mbit".
 */
class CakePrintStatsTestCase : public TestCase
{
  public:
    CakePrintStatsTestCase()
        : TestCase("PrintStats prints tc's per-tin table")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<CakeQueueDisc> cake = MakeCake("bandwidth 10Mbit diffserv3");
        cake->Enqueue(MakeUdpItem("10.0.0.1", "10.0.0.9", 1, 100, 8 << 2));
        for (int i = 0; i < 3; ++i)
        {
            cake->Enqueue(MakeUdpItem("10.0.0.1", "10.0.0.9", 2, 1000));
        }
        for (int i = 0; i < 2; ++i)
        {
            cake->Enqueue(MakeUdpItem("10.0.0.1", "10.0.0.9", 3, 200, 46 << 2));
        }
        std::ostringstream os;
        cake->PrintStats(os);
        const std::string tc = os.str();
        const std::vector<std::string> lines{
            "qdisc cake root bandwidth 10Mbit diffserv3 triple-isolate",
            " memory used: 7552b of 4Mb\n",
            " capacity estimate: 10Mbit\n",
            "                   Bulk  Best Effort        Voice\n",
            TcRow("  thresh  ", {"625Kbit", "10Mbit", "2500Kbit"}) + "\n",
            TcRow("  target  ", {"29.1ms", "5ms", "7.27ms"}) + "\n",
            TcRow("  interval", {"124ms", "100ms", "102ms"}) + "\n",
            TcRow("  pkts    ", {"1", "3", "2"}) + "\n",
            TcRow("  bytes   ", {"114", "3042", "428"}) + "\n",
            TcRow("  quantum ", {"300", "305", "300"}) + "\n",
        };
        for (const std::string& line : lines)
        {
            NS_TEST_EXPECT_MSG_NE(tc.find(line),
                                  std::string::npos,
                                  "missing [" << line << "]\n"
                                              << tc);
        }
        cake->Dispose();
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The per-flow traces on CakeCobaltTestCase's shaped schedule: FlowMark, FlowDrop
 * and CobaltDropState fire exactly at the slots derived there.
 *
 * "bandwidth 10Mbit besteffort", 170 packets of one flow queued at t = 0, one leaving per
 * slot d = SLOT_NS (see CakeCobaltTestCase): the flow enters the dropping state at slot 5
 * with count 1 and never leaves it in 160 slots (every later sojourn is longer still), so
 * CobaltDropState fires once, at 5d, (tin 0, dropping, count 1). The CoDel signals come at
 * slots 6, 64, 112 and 153: ECT(0) packets are marked, FlowMark fires at those four slot
 * times with the marked packets (numbers 6, 64, 112, 153); not-ECT packets are dropped,
 * FlowDrop fires at the same times with reason COBALT_DROP and packets 6, 65, 114, 156.
 * Every event names tin 0 and the one queue the flow hashes to.
 */
class CakeTracesTestCase : public TestCase
{
  public:
    CakeTracesTestCase()
        : TestCase("Traces: FlowMark, FlowDrop and CobaltDropState at the COBALT schedule")
    {
    }

  private:
    /// One trace event.
    struct Event
    {
        Time at;         ///< when
        uint32_t tin;    ///< tin
        uint32_t queue;  ///< flow queue
        uint64_t uid;    ///< packet uid (marks, drops)
        std::string why; ///< drop reason, or "enter"/"leave" with the count
    };

    /// @param events the log @param item the packet @param tin the tin @param queue the queue
    /// @param reason the drop reason
    static void Dropped(std::vector<Event>* events,
                        Ptr<const QueueDiscItem> item,
                        uint32_t tin,
                        uint32_t queue,
                        const char* reason)
    {
        events->push_back({Simulator::Now(), tin, queue, item->GetPacket()->GetUid(), reason});
    }

    /// @param events the log @param item the packet @param tin the tin @param queue the queue
    static void Marked(std::vector<Event>* events,
                       Ptr<const QueueDiscItem> item,
                       uint32_t tin,
                       uint32_t queue)
    {
        events->push_back({Simulator::Now(), tin, queue, item->GetPacket()->GetUid(), "mark"});
    }

    /// @param events the log @param tin the tin @param queue the queue
    /// @param dropping entered (true) or left @param count COBALT's count
    static void State(std::vector<Event>* events,
                      uint32_t tin,
                      uint32_t queue,
                      bool dropping,
                      uint32_t count)
    {
        events->push_back({Simulator::Now(),
                           tin,
                           queue,
                           0,
                           (dropping ? "enter " : "leave ") + std::to_string(count)});
    }

    void DoRun() override
    {
        Check(true);
        Check(false);
    }

    /// @param ect whether the packets are ECT(0)
    void Check(bool ect)
    {
        ShapedRun run("bandwidth 10Mbit besteffort");
        std::vector<Event> signals;
        std::vector<Event> states;
        Ptr<CakeQueueDisc> cake = run.Cake();
        NS_TEST_ASSERT_MSG_EQ(
            cake->TraceConnectWithoutContext("FlowDrop", MakeBoundCallback(&Dropped, &signals)),
            true,
            "FlowDrop");
        NS_TEST_ASSERT_MSG_EQ(
            cake->TraceConnectWithoutContext("FlowMark", MakeBoundCallback(&Marked, &signals)),
            true,
            "FlowMark");
        NS_TEST_ASSERT_MSG_EQ(
            cake->TraceConnectWithoutContext("CobaltDropState", MakeBoundCallback(&State, &states)),
            true,
            "CobaltDropState");
        std::vector<uint64_t> uids;
        std::vector<Ptr<QueueDiscItem>> burst;
        for (int i = 0; i < 170; ++i)
        {
            burst.push_back(MakeUdpItem("10.0.0.1", "10.0.0.9", 1000, 1500, ect ? TOS_BE_ECT0 : 0));
            uids.push_back(burst.back()->GetPacket()->GetUid());
        }
        run.EnqueueAt(Seconds(0), burst);
        run.RunUntil(NanoSeconds(159 * SLOT_NS + SLOT_NS / 2));

        const std::vector<uint32_t> slots{6, 64, 112, 153};
        const std::vector<uint32_t> packets =
            ect ? std::vector<uint32_t>{6, 64, 112, 153} : std::vector<uint32_t>{6, 65, 114, 156};
        NS_TEST_ASSERT_MSG_EQ(signals.size(), 4, "four CoDel signals");
        NS_TEST_ASSERT_MSG_EQ(states.size(), 1, "one change of the dropping state");
        const uint32_t queue = states[0].queue;
        NS_TEST_EXPECT_MSG_LT(queue, CAKE_QUEUES, "a queue index");
        NS_TEST_EXPECT_MSG_EQ(states[0].at, NanoSeconds(5 * SLOT_NS), "enters at slot 5");
        NS_TEST_EXPECT_MSG_EQ(states[0].tin, 0, "tin 0");
        NS_TEST_EXPECT_MSG_EQ(states[0].why, "enter 1", "enters with count 1");
        for (uint32_t i = 0; i < 4; ++i)
        {
            const Event& e = signals[i];
            NS_TEST_EXPECT_MSG_EQ(e.at, NanoSeconds(slots[i] * SLOT_NS), "signal " << i);
            NS_TEST_EXPECT_MSG_EQ(e.tin, 0, "signal " << i);
            NS_TEST_EXPECT_MSG_EQ(e.queue, queue, "signal " << i);
            NS_TEST_EXPECT_MSG_EQ(e.uid, uids[packets[i]], "signal " << i);
            NS_TEST_EXPECT_MSG_EQ(e.why,
                                  (ect ? std::string("mark") : CakeQueueDisc::COBALT_DROP),
                                  "signal " << i);
        }
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Options and the attributes are one configuration: setting Options sets the
 * attributes its words name, at once; getting Options reads the attributes back as the tc
 * words that differ from tc's defaults; a later attribute wins.
 *
 * "bandwidth 50Mbit autorate-ingress diffserv4 dual-srchost nat wash ingress ack-filter
 * no-split-gso rtt 50ms ethernet memlimit 1500000 fwmark 0xff": Bandwidth 50 Mbit/s,
 * AutorateIngress, Diffserv diffserv4, FlowMode dual-srchost, Nat, Wash, Ingress, AckFilter
 * ack-filter, SplitGso false, Rtt 50 ms, `ethernet` = overhead 38, mpu 84, noatm and the
 * overhead counted from the network header (MacHeader auto: what a non-zero Overhead gives),
 * MemLimit 1500000, FwMark 255. Read
 * back in cake_print_opt()'s order: "... rtt 50ms noatm overhead 38 mpu 84 memlimit 1500000b
 * fwmark 0xff". Then Bandwidth set to 10 Mbit/s: Options starts "bandwidth 10Mbit" and the
 * queue disc runs at 10000000 / 8 = 1250000 bytes/s. An attribute set before Options stays
 * unless a word names it: Diffserv besteffort, then Options "nat", reads "besteffort nat".
 */
class CakeOptionsAttributesTestCase : public TestCase
{
  public:
    CakeOptionsAttributesTestCase()
        : TestCase("Options sets the attributes, reads them back; one configuration")
    {
    }

  private:
    /// @param cake the queue disc @param name an attribute @return its value as text
    static std::string Get(Ptr<CakeQueueDisc> cake, const std::string& name)
    {
        StringValue value;
        cake->GetAttribute(name, value);
        return value.Get();
    }

    void DoRun() override
    {
        Ptr<CakeQueueDisc> cake = CreateObjectWithAttributes<CakeQueueDisc>(
            "Options",
            StringValue("bandwidth 50Mbit autorate-ingress diffserv4 dual-srchost nat wash "
                        "ingress ack-filter no-split-gso rtt 50ms ethernet memlimit 1500000 "
                        "fwmark 0xff"));
        const std::map<std::string, std::string> expected = {
            {"Bandwidth", "50000000bps"},
            {"AutorateIngress", "true"},
            {"Diffserv", "diffserv4"},
            {"FlowMode", "dual-srchost"},
            {"Nat", "true"},
            {"Wash", "true"},
            {"Ingress", "true"},
            {"AckFilter", "ack-filter"},
            {"SplitGso", "false"},
            {"Overhead", "38"},
            {"Mpu", "84"},
            {"Atm", "noatm"},
            {"MacHeader", "auto"},
            {"MemLimit", "1500000"},
            {"FwMark", "255"},
        };
        for (const auto& [name, value] : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(Get(cake, name), value, name);
        }
        TimeValue rtt;
        cake->GetAttribute("Rtt", rtt);
        NS_TEST_EXPECT_MSG_EQ(rtt.Get(), MilliSeconds(50), "Rtt");
        NS_TEST_EXPECT_MSG_EQ(Get(cake, "Options"),
                              "bandwidth 50Mbit autorate-ingress diffserv4 dual-srchost nat wash "
                              "ingress ack-filter no-split-gso rtt 50ms noatm overhead 38 mpu 84 "
                              "memlimit 1500000b fwmark 0xff",
                              "Options read back");

        cake->SetAttribute("Bandwidth", DataRateValue(DataRate("10Mbps")));
        NS_TEST_EXPECT_MSG_EQ(Get(cake, "Options").rfind("bandwidth 10Mbit ", 0),
                              0,
                              "the later attribute wins");
        cake->AssignStreams(1);
        cake->Initialize();
        NS_TEST_EXPECT_MSG_EQ(cake->GetConfig().rate, 1250000, "10 Mbit/s: 1250000 B/s");
        NS_TEST_EXPECT_MSG_EQ((cake->GetConfig().diffserv == CakeDiffservMode::DIFFSERV4),
                              true,
                              "diffserv4");
        cake->Dispose();

        cake = CreateObjectWithAttributes<CakeQueueDisc>("Diffserv",
                                                         StringValue("besteffort"),
                                                         "Options",
                                                         StringValue("nat"));
        NS_TEST_EXPECT_MSG_EQ(Get(cake, "Options"), "besteffort nat", "attribute kept");
        NS_TEST_EXPECT_MSG_EQ(Get(cake, "Nat"), "true", "nat");
        cake->Dispose();

        cake = CreateObject<CakeQueueDisc>();
        NS_TEST_EXPECT_MSG_EQ(Get(cake, "Options"), "", "tc's defaults read back as nothing");
        cake->Dispose();
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The new-flow dither comes from the queue disc's ns-3 stream: same stream, same
 * deficits.
 *
 * "unlimited besteffort flows": flow_quantum 1514, host_load 1, so a flow that becomes
 * active gets (1514 * 65535 + r) >> 16 = 1513 + (r >= 1514) bytes of deficit
 * (1514 * 65535 = 1514 * 65536 - 1514), r being 16 bits drawn from the Prandom the queue
 * disc seeds from its UniformRandomVariable. 32 UDP flows (ports 1000..1031), one packet
 * each: every active queue holds 1513 or 1514, and two queue discs with stream 1 give the
 * same queues (the hash keys come from the stream too) with the same deficits.
 */
class CakeDitherStreamTestCase : public TestCase
{
  public:
    CakeDitherStreamTestCase()
        : TestCase("New-flow deficits are dithered from the ns-3 stream, reproducibly")
    {
    }

  private:
    /// @param stream the stream number @return (queue, deficit) of every active queue
    static std::vector<std::pair<uint32_t, int32_t>> Deficits(int64_t stream)
    {
        Ptr<CakeQueueDisc> cake =
            CreateObjectWithAttributes<CakeQueueDisc>("Options",
                                                      StringValue("unlimited besteffort flows"));
        cake->AssignStreams(stream);
        cake->Initialize();
        for (uint16_t port = 1000; port < 1032; ++port)
        {
            cake->Enqueue(MakeUdpItem("10.0.0.1", "10.0.0.9", port, 1500));
        }
        std::vector<std::pair<uint32_t, int32_t>> deficits;
        for (uint32_t queue = 0; queue < 1024; ++queue)
        {
            const CakeScheduler::FlowStats flow = cake->GetScheduler().GetFlowStats(0, queue);
            if (flow.set != CakeFlowSet::NONE)
            {
                deficits.emplace_back(queue, flow.deficit);
            }
        }
        cake->Dispose();
        return deficits;
    }

    void DoRun() override
    {
        const auto first = Deficits(1);
        NS_TEST_ASSERT_MSG_EQ(first.size(), 32, "one queue per flow (no collision)");
        for (const auto& [queue, deficit] : first)
        {
            NS_TEST_EXPECT_MSG_EQ((deficit == 1513 || deficit == 1514),
                                  true,
                                  "queue " << queue << " deficit " << deficit);
        }
        NS_TEST_EXPECT_MSG_EQ((Deficits(1) == first), true, "same stream, same deficits");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The Overhead, Mpu and Atm attributes account a packet as tc's words do.
 *
 * One UDP packet of 1500 IP bytes: cake sees 1514 (the Ethernet header added, network offset
 * 14) and records the adjusted size in its min/max overhead-adjusted statistics
 * (cake_calc_overhead()). tc's `overhead N` sets CAKE_FLAG_OVERHEAD, so the header comes off
 * before N is added; the attributes (MacHeader auto) do the same:
 * - nothing set: 1514 (tc's default, raw);
 * - Overhead 18: 1514 - 14 + 18 = 1518 (tc: overhead 18; the kernel's docsis value);
 * - Overhead 38: 1500 + 38 = 1538 (tc: overhead 38);
 * - Overhead 18, MacHeader keep: 1514 + 18 = 1532 (tc: raw overhead 18; `raw` after the
 *   number would reset it to 0);
 * - Overhead 0, MacHeader strip: 1500 (tc: overhead 0);
 * - Overhead 38, Atm atm: ceil(1538 / 48) = 33 cells (32 * 48 = 1536 < 1538) of 53 bytes =
 *   1749 (tc: overhead 38 atm);
 * - Overhead 18, Mpu 128 on a 60-byte IP packet (74 with the header): 60 + 18 = 78 < 128,
 *   so 128 (tc: overhead 18 mpu 128).
 * Each case also sets the same words through Options, which must account the same.
 */
class CakeOverheadAttributeTestCase : public TestCase
{
  public:
    CakeOverheadAttributeTestCase()
        : TestCase("Overhead, Mpu, Atm and MacHeader account as tc's words")
    {
    }

  private:
    /**
     * @param cake an uninitialized CakeQueueDisc
     * @param ipSize the packet's IP size
     * @return the overhead-adjusted size cake recorded for it
     */
    static uint32_t Adjusted(Ptr<CakeQueueDisc> cake, uint32_t ipSize)
    {
        cake->AssignStreams(1);
        cake->Initialize();
        cake->Enqueue(MakeUdpItem("10.0.0.1", "10.0.0.9", 1000, ipSize));
        const uint32_t adjusted = cake->GetScheduler().GetMaxAdjLen();
        cake->Dispose();
        return adjusted;
    }

    void DoRun() override
    {
        struct Case
        {
            std::vector<std::pair<std::string, std::string>> attributes;
            std::string tc;
            uint32_t ipSize;
            uint32_t expected;
        };

        const std::vector<Case> cases = {
            {{}, "", 1500, 1514},
            {{{"Overhead", "18"}}, "overhead 18", 1500, 1518},
            {{{"Overhead", "38"}}, "overhead 38", 1500, 1538},
            {{{"Overhead", "18"}, {"MacHeader", "keep"}}, "raw overhead 18", 1500, 1532},
            {{{"Overhead", "0"}, {"MacHeader", "strip"}}, "overhead 0", 1500, 1500},
            {{{"Overhead", "38"}, {"Atm", "atm"}}, "overhead 38 atm", 1500, 1749},
            {{{"Overhead", "18"}, {"Mpu", "128"}}, "overhead 18 mpu 128", 60, 128},
        };
        for (const Case& c : cases)
        {
            Ptr<CakeQueueDisc> cake = CreateObject<CakeQueueDisc>();
            for (const auto& [name, value] : c.attributes)
            {
                cake->SetAttribute(name, StringValue(value));
            }
            NS_TEST_EXPECT_MSG_EQ(Adjusted(cake, c.ipSize), c.expected, "attributes: " << c.tc);
            Ptr<CakeQueueDisc> viaTc =
                CreateObjectWithAttributes<CakeQueueDisc>("Options", StringValue(c.tc));
            NS_TEST_EXPECT_MSG_EQ(Adjusted(viaTc, c.ipSize), c.expected, "Options: " << c.tc);
        }
        // Options "overhead 0" and "raw overhead 24" read back as the MacHeader they need.
        Ptr<CakeQueueDisc> cake =
            CreateObjectWithAttributes<CakeQueueDisc>("Options", StringValue("overhead 0"));
        StringValue value;
        cake->GetAttribute("MacHeader", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), "strip", "overhead 0");
        cake->SetAttribute("Options", StringValue("raw overhead 24"));
        cake->GetAttribute("MacHeader", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), "keep", "raw overhead 24");
        cake->Dispose();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-cake-queue-disc suite.
 */
class CakeQueueDiscTestSuite : public TestSuite
{
  public:
    CakeQueueDiscTestSuite()
        : TestSuite("debloat-cake-queue-disc", compat::SUITE_UNIT)
    {
        AddTestCase(new CakeTinPriorityTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeHostFairnessTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeMemLimitTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeCobaltTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeWashTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeFwmarkTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeNonIpTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeBadOptionsTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakePrintStatsTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeGsoTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeAckFilterTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeTracesTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeOptionsAttributesTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeOverheadAttributeTestCase(), compat::TEST_QUICK);
        AddTestCase(new CakeDitherStreamTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
CakeQueueDiscTestSuite g_cakeQueueDiscTestSuite;

} // namespace
