/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * NetemQueueDisc as a queue disc behind an always-ready device (debloattest::QdiscRun):
 * constant delay, the rate's spacing with overheads and cells, jitter reordering through
 * the tfifo and not under a rate, the loss rate and duplicates against binomial intervals,
 * reorder with gap, the limit, slots, ECN marks, corruption, conservation of packets,
 * determinism, tc text through TcQdiscHelper and the `tc -s` output. Each expected value is
 * derived in a comment from net/sched/sch_netem.c.
 */

#include "debloat-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/netem-queue-disc.h"
#include "ns3/network-module.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * @param options tc-netem words
 * @param stream the random stream
 * @return an initialized NetemQueueDisc
 */
Ptr<NetemQueueDisc>
MakeNetem(const std::string& options, int64_t stream = 1)
{
    // An unlimited quota, as TcQdiscHelper gives a root: each run sends all that is due.
    Ptr<NetemQueueDisc> netem =
        CreateObjectWithAttributes<NetemQueueDisc>("Options",
                                                   StringValue(options),
                                                   "Quota",
                                                   UintegerValue(UINT32_MAX));
    netem->AssignStreams(stream);
    netem->Initialize();
    return netem;
}

/**
 * @param first the first packet's source port (its number in the test)
 * @param count packets
 * @param ipSize each one's IP size
 * @param tos the TOS byte
 * @return UDP packets with source ports first, first + 1, ...
 */
std::vector<Ptr<QueueDiscItem>>
Packets(uint16_t first, uint32_t count, uint32_t ipSize = 1000, uint8_t tos = 0)
{
    std::vector<Ptr<QueueDiscItem>> items;
    for (uint32_t i = 0; i < count; ++i)
    {
        items.push_back(debloattest::MakeUdpItem("10.0.0.1",
                                                 "10.0.0.2",
                                                 static_cast<uint16_t>(first + i),
                                                 ipSize,
                                                 tos));
    }
    return items;
}

/// @param run a finished run @return the source ports in the order the packets left
std::vector<uint16_t>
Ports(const debloattest::QdiscRun& run)
{
    std::vector<uint16_t> ports;
    for (const auto& sent : run.GetSent())
    {
        ports.push_back(debloattest::QdiscRun::SourcePort(sent));
    }
    return ports;
}

/**
 * @ingroup debloat-tests
 * @brief Without jitter every packet leaves exactly Delay after it arrived.
 */
class NetemConstantDelayTestCase : public TestCase
{
  public:
    NetemConstantDelayTestCase()
        : TestCase("Constant delay: each packet leaves exactly 10 ms after it came")
    {
    }

  private:
    void DoRun() override
    {
        // tabledist(10 ms, 0) = 10 ms; without a rate time_to_send = now + 10 ms, and the
        // watchdog runs the queue disc then: ports 1..3 at 0, port 4 at 2.5 ms, ports 5, 6
        // at 7 ms leave at 10, 10, 10, 12.5, 17, 17 ms.
        Ptr<NetemQueueDisc> netem = MakeNetem("delay 10ms");
        debloattest::QdiscRun run(netem);
        run.EnqueueAt(Time(0), Packets(1, 3));
        run.EnqueueAt(MicroSeconds(2500), Packets(4, 1));
        run.EnqueueAt(MilliSeconds(7), Packets(5, 2));
        run.RunUntil(MilliSeconds(50));
        const std::vector<Time> expected{MilliSeconds(10),
                                         MilliSeconds(10),
                                         MilliSeconds(10),
                                         MicroSeconds(12500),
                                         MilliSeconds(17),
                                         MilliSeconds(17)};
        NS_TEST_ASSERT_MSG_EQ(run.GetSent().size(), expected.size(), "every packet leaves");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.GetSent()[i].at, expected[i], "packet " << i + 1);
            NS_TEST_EXPECT_MSG_EQ(debloattest::QdiscRun::SourcePort(run.GetSent()[i]),
                                  i + 1,
                                  "in order");
        }
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief A rate spaces packets by their time at the rate, with overheads and cells.
 */
class NetemRateTestCase : public TestCase
{
  public:
    /**
     * @param options the rate words
     * @param spacing the expected time per packet, derived in the suite
     * @param label what is checked
     */
    NetemRateTestCase(const std::string& options, Time spacing, const std::string& label)
        : TestCase("Rate: " + label),
          m_options(options),
          m_spacing(spacing)
    {
    }

  private:
    void DoRun() override
    {
        // Five packets at once: the first leaves at one packet time; each later one after
        // the previous one's time (netem_enqueue()'s last-packet reference) plus its own.
        Ptr<NetemQueueDisc> netem = MakeNetem(m_options);
        debloattest::QdiscRun run(netem);
        run.EnqueueAt(Time(0), Packets(1, 5));
        run.RunUntil(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(run.GetSent().size(), 5, "every packet leaves");
        for (size_t i = 0; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.GetSent()[i].at, m_spacing * int64_t(i + 1), m_options);
        }
        run.Finish();
    }

    std::string m_options; ///< tc words
    Time m_spacing;        ///< time per packet
};

/**
 * @ingroup debloat-tests
 * @brief Jitter reorders packets through the tfifo; with a rate it does not.
 */
class NetemJitterTestCase : public TestCase
{
  public:
    NetemJitterTestCase()
        : TestCase("Jitter reorders packets unless a rate is set")
    {
    }

  private:
    void DoRun() override
    {
        // delay 10ms 5ms, uniform: each delay is in [5 ms, 15 ms). 50 packets 1 ms apart: two
        // neighbours swap when the second's delay is over 1 ms shorter, probability
        // (9/10)^2 / 2 = 0.405 for independent uniform delays, so the chance that no pair
        // swaps is below (1 - 0.405)^25 = 2e-6 (25 disjoint pairs). The tfifo hands packets
        // out by time: the departure times never decrease.
        auto run = [](const std::string& options) {
            Ptr<NetemQueueDisc> netem = MakeNetem(options);
            auto result = std::make_pair(std::vector<uint16_t>(), true);
            debloattest::QdiscRun qdiscRun(netem);
            for (uint16_t i = 0; i < 50; ++i)
            {
                qdiscRun.EnqueueAt(MilliSeconds(i), Packets(i, 1));
            }
            qdiscRun.RunUntil(Seconds(1));
            result.first = Ports(qdiscRun);
            Time last(0);
            for (const auto& sent : qdiscRun.GetSent())
            {
                const Time sojourn =
                    sent.at - MilliSeconds(debloattest::QdiscRun::SourcePort(sent));
                result.second = result.second && sent.at >= last && sojourn >= MilliSeconds(5) &&
                                sojourn < MilliSeconds(15);
                last = sent.at;
            }
            qdiscRun.Finish();
            return result;
        };
        const auto jitter = run("delay 10ms 5ms");
        NS_TEST_ASSERT_MSG_EQ(jitter.first.size(), 50, "every packet leaves");
        NS_TEST_EXPECT_MSG_EQ(jitter.second, true, "in time order, delays in [5 ms, 15 ms)");
        bool swapped = false;
        for (size_t i = 1; i < jitter.first.size(); ++i)
        {
            swapped = swapped || jitter.first[i] < jitter.first[i - 1];
        }
        NS_TEST_EXPECT_MSG_EQ(swapped, true, "jitter reorders");
        // With a rate (1000-byte packets at 100 Mbit/s: 81.12 us each), each time_to_send is
        // at least the previous one's plus 81.12 us: the order holds, and each delay is
        // still at least 5 ms.
        const auto rated = run("delay 10ms 5ms rate 100Mbit");
        std::vector<uint16_t> inOrder;
        for (uint16_t i = 0; i < 50; ++i)
        {
            inOrder.push_back(i);
        }
        NS_TEST_EXPECT_MSG_EQ((rated.first == inOrder), true, "a rate keeps the order");
    }
};

/**
 * @ingroup debloat-tests
 * @brief Random loss and duplication over many packets, against binomial intervals.
 */
class NetemLossDuplicateTestCase : public TestCase
{
  public:
    NetemLossDuplicateTestCase()
        : TestCase("Loss and duplicate rates inside binomial 3-sigma intervals")
    {
    }

  private:
    void DoRun() override
    {
        // 10000 packets, 100 at a time every 1 ms (below the limit of 1000).
        auto run = [](const std::string& options,
                      uint64_t& dropped,
                      uint64_t& sent,
                      uint64_t& duplicated) {
            Ptr<NetemQueueDisc> netem = MakeNetem(options, 3);
            debloattest::QdiscRun qdiscRun(netem);
            for (uint16_t i = 0; i < 100; ++i)
            {
                qdiscRun.EnqueueAt(MilliSeconds(i), Packets(1, 100));
            }
            qdiscRun.RunUntil(Seconds(1));
            dropped = netem->GetStats().GetNDroppedPackets(NetemQueueDisc::LOSS_DROP);
            duplicated = netem->GetNetemStats().duplicated;
            sent = qdiscRun.GetSent().size();
            qdiscRun.Finish();
        };
        uint64_t dropped = 0;
        uint64_t sent = 0;
        uint64_t duplicated = 0;
        // loss 1%: drops ~ Binomial(10000, 0.01): mean 100, sd sqrt(10000 x 0.01 x 0.99) =
        // 9.95, so 3 sd: 70.2 to 129.8. Every other packet leaves.
        run("loss 1%", dropped, sent, duplicated);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(dropped, 71, "losses");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(dropped, 129, "losses");
        NS_TEST_EXPECT_MSG_EQ(sent + dropped, 10000, "each packet sent or lost");
        // duplicate 10%: copies ~ Binomial(10000, 0.1): mean 1000, sd 30, 3 sd: 910 to
        // 1090. Each packet leaves once, and a copy once more.
        run("duplicate 10%", dropped, sent, duplicated);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(duplicated, 910, "duplicates");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(duplicated, 1090, "duplicates");
        NS_TEST_EXPECT_MSG_EQ(sent, 10000 + duplicated, "originals and copies");
        NS_TEST_EXPECT_MSG_EQ(dropped, 0, "no loss");
    }
};

/**
 * @ingroup debloat-tests
 * @brief reorder 100% gap 5: every fifth packet goes at once, the newest such first.
 */
class NetemReorderGapTestCase : public TestCase
{
  public:
    NetemReorderGapTestCase()
        : TestCase("Reorder with gap: every gap-th packet is sent at once")
    {
    }

  private:
    void DoRun() override
    {
        // Ten packets at once: the counter keeps packets 1-4 in the delay line (counter 0..3
        // < gap - 1 = 4); packet 5 draws reorder < get_crandom(), false for 100%, so it goes
        // to the head of sch->q and the counter restarts; likewise packet 10. Both leave at
        // once, 10 first (each was put at the head); the other eight at 10 ms, in order.
        Ptr<NetemQueueDisc> netem = MakeNetem("delay 10ms reorder 100% gap 5");
        debloattest::QdiscRun run(netem);
        run.EnqueueAt(Time(0), Packets(1, 10));
        run.RunUntil(Seconds(1));
        const std::vector<uint16_t> order{10, 5, 1, 2, 3, 4, 6, 7, 8, 9};
        NS_TEST_ASSERT_MSG_EQ((Ports(run) == order), true, "10, 5, then the rest in order");
        NS_TEST_EXPECT_MSG_EQ(run.GetSent()[1].at, Time(0), "reordered at once");
        NS_TEST_EXPECT_MSG_EQ(run.GetSent()[2].at, MilliSeconds(10), "others delayed");
        NS_TEST_EXPECT_MSG_EQ(netem->GetNetemStats().reordered, 2, "xstats reordered");
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The limit drops the packets beyond it, with its reason.
 */
class NetemLimitTestCase : public TestCase
{
  public:
    NetemLimitTestCase()
        : TestCase("Limit: packets beyond it are dropped as Limit exceeded")
    {
    }

  private:
    void DoRun() override
    {
        // limit 5 with 10 ms of delay: of 8 packets at once, 1-5 are queued, 6-8 find 5
        // queued (sch->q.qlen >= sch->limit) and are dropped; 1-5 leave at 10 ms.
        Ptr<NetemQueueDisc> netem = MakeNetem("delay 10ms limit 5");
        std::vector<std::string> reasons;
        NS_TEST_ASSERT_MSG_EQ(netem->TraceConnectWithoutContext(
                                  "DropBeforeEnqueue",
                                  MakeBoundCallback(&NetemLimitTestCase::OnDrop, &reasons)),
                              true,
                              "trace connected");
        debloattest::QdiscRun run(netem);
        run.EnqueueAt(Time(0), Packets(1, 8));
        run.RunUntil(Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(run.GetSent().size(), 5, "five leave");
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 3, "three dropped");
        for (const std::string& reason : reasons)
        {
            NS_TEST_EXPECT_MSG_EQ(reason, NetemQueueDisc::LIMIT_DROP, "the reason");
        }
        run.Finish();
    }

    /**
     * DropBeforeEnqueue sink.
     * @param reasons where the reasons go
     * @param item the packet
     * @param reason why
     */
    static void OnDrop(std::vector<std::string>* reasons,
                       Ptr<const QueueDiscItem> item,
                       const char* reason)
    {
        reasons->emplace_back(reason);
    }
};

/**
 * @ingroup debloat-tests
 * @brief Slots release bursts of at most their packet budget.
 */
class NetemSlotTestCase : public TestCase
{
  public:
    NetemSlotTestCase()
        : TestCase("Slots: bursts of 4 packets 1 ms apart")
    {
    }

  private:
    void DoRun() override
    {
        // slot 1ms 1ms packets 4, configured at 0: the first slot opens at 0. Ten packets at
        // 1 ms (no delay): the head's time is after slot_next, so get_slot_next() opens a new
        // slot 1 ms later, at 2 ms; four packets use it up and the next opens at 3 ms, then
        // 4 ms for the last two.
        Ptr<NetemQueueDisc> netem = MakeNetem("slot 1ms 1ms packets 4");
        debloattest::QdiscRun run(netem);
        run.EnqueueAt(MilliSeconds(1), Packets(1, 10));
        run.RunUntil(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(run.GetSent().size(), 10, "every packet leaves");
        for (size_t i = 0; i < 10; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.GetSent()[i].at,
                                  MilliSeconds(2 + static_cast<int64_t>(i / 4)),
                                  "packet " << i + 1);
        }
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief With ecn, the loss model marks ECN-capable packets and drops the others.
 */
class NetemEcnTestCase : public TestCase
{
  public:
    NetemEcnTestCase()
        : TestCase("ECN: the loss model marks ECT packets instead of dropping them")
    {
    }

  private:
    void DoRun() override
    {
        // loss 100%: every packet is picked (UINT32_MAX >= any draw). ECT(0) packets (TOS 2)
        // are CE-marked and sent; not-ECT packets cannot be marked and are dropped.
        Ptr<NetemQueueDisc> netem = MakeNetem("loss 100% ecn");
        debloattest::QdiscRun run(netem);
        run.EnqueueAt(Time(0), Packets(1, 4, 1000, 2));
        run.EnqueueAt(MilliSeconds(1), Packets(5, 3, 1000, 0));
        run.RunUntil(Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(run.GetSent().size(), 4, "the ECT packets leave");
        NS_TEST_EXPECT_MSG_EQ(netem->GetStats().GetNMarkedPackets(NetemQueueDisc::ECN_MARK),
                              4,
                              "marked");
        NS_TEST_EXPECT_MSG_EQ(netem->GetStats().GetNDroppedPackets(NetemQueueDisc::LOSS_DROP),
                              3,
                              "not-ECT dropped");
        for (const auto& sent : run.GetSent())
        {
            Ipv4Header ip;
            sent.item->GetPacket()->PeekHeader(ip);
            NS_TEST_EXPECT_MSG_EQ(ip.GetEcn(), Ipv4Header::ECN_CE, "CE");
        }
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief corrupt 100%: every packet leaves with exactly one bit flipped.
 */
class NetemCorruptTestCase : public TestCase
{
  public:
    NetemCorruptTestCase()
        : TestCase("Corrupt: one bit flipped per packet")
    {
    }

  private:
    void DoRun() override
    {
        // Each packet's bytes below the IP header (8 UDP + 92 payload) against a fresh copy:
        // exactly one bit differs, and the size and uid are kept.
        Ptr<NetemQueueDisc> netem = MakeNetem("corrupt 100%");
        debloattest::QdiscRun run(netem);
        const std::vector<Ptr<QueueDiscItem>> items = Packets(1, 20, 120);
        std::vector<uint64_t> uids;
        for (const auto& item : items)
        {
            uids.push_back(item->GetPacket()->GetUid());
        }
        run.EnqueueAt(Time(0), items);
        run.RunUntil(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(run.GetSent().size(), 20, "every packet leaves");
        for (size_t i = 0; i < 20; ++i)
        {
            Ptr<Packet> sent = run.GetSent()[i].item->GetPacket()->Copy();
            Ipv4Header ip;
            sent->RemoveHeader(ip);
            Ptr<Packet> original = Packets(static_cast<uint16_t>(1 + i), 1, 120)[0]->GetPacket();
            NS_TEST_ASSERT_MSG_EQ(sent->GetSize(), original->GetSize(), "size kept");
            std::vector<uint8_t> a(sent->GetSize());
            std::vector<uint8_t> b(original->GetSize());
            sent->CopyData(a.data(), a.size());
            original->CopyData(b.data(), b.size());
            int bits = 0;
            for (size_t k = 0; k < a.size(); ++k)
            {
                for (uint8_t x = a[k] ^ b[k]; x; x &= x - 1)
                {
                    ++bits;
                }
            }
            NS_TEST_EXPECT_MSG_EQ(bits, 1, "one bit flipped in packet " << i);
            NS_TEST_EXPECT_MSG_EQ(sent->GetUid(), uids[i], "uid kept");
        }
        NS_TEST_EXPECT_MSG_EQ(netem->GetNetemStats().corrupted, 20, "xstats corrupted");
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Every packet is delivered, queued or dropped with a reason, and the same stream
 * gives the same run.
 */
class NetemConservationTestCase : public TestCase
{
  public:
    NetemConservationTestCase()
        : TestCase("Conservation and determinism with every feature on")
    {
    }

  private:
    /// What one run gave.
    struct Outcome
    {
        std::vector<std::pair<uint16_t, Time>> sent; ///< port and time of each departure
        uint64_t duplicated{0};                      ///< copies made
    };

    /**
     * @param stream the random stream
     * @param check whether to check conservation (in the first run)
     * @return the run
     */
    Outcome Run(int64_t stream, bool check)
    {
        Ptr<NetemQueueDisc> netem =
            MakeNetem("delay 5ms 2ms 10% distribution normal loss random 5% duplicate 5% "
                      "reorder 10% gap 3 corrupt 1% limit 50 rate 50Mbit",
                      stream);
        debloattest::QdiscRun run(netem);
        for (uint16_t i = 0; i < 40; ++i)
        {
            run.EnqueueAt(MicroSeconds(500 * i), Packets(static_cast<uint16_t>(100 * i), 30));
        }
        // Stop while packets are still queued: 30 packets every 0.5 ms against 6.2 a
        // millisecond at 50 Mbit/s (1014 bytes: 162.24 us each) keep the queue at its limit
        // of 50 (8.1 ms of sending) until the last arrival at 19.5 ms; at 22 ms some 35 wait.
        run.RunUntil(MilliSeconds(22));
        Outcome outcome;
        for (const auto& sent : run.GetSent())
        {
            outcome.sent.emplace_back(debloattest::QdiscRun::SourcePort(sent), sent.at);
        }
        const QueueDisc::Stats& stats = netem->GetStats();
        const NetemStats& x = netem->GetNetemStats();
        outcome.duplicated = x.duplicated;
        if (check)
        {
            // Received: the 1200 packets and the copies enqueued.
            NS_TEST_EXPECT_MSG_EQ(stats.nTotalReceivedPackets, 1200 + x.duplicated, "received");
            // Each received packet is queued or dropped before the queue (loss or limit).
            NS_TEST_EXPECT_MSG_EQ(stats.nTotalReceivedPackets,
                                  stats.nTotalEnqueuedPackets +
                                      stats.nTotalDroppedPacketsBeforeEnqueue,
                                  "queued or dropped");
            NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPacketsBeforeEnqueue,
                                  stats.GetNDroppedPackets(NetemQueueDisc::LOSS_DROP) +
                                      stats.GetNDroppedPackets(NetemQueueDisc::LIMIT_DROP),
                                  "every drop has a reason");
            NS_TEST_EXPECT_MSG_EQ(stats.GetNDroppedPackets(NetemQueueDisc::LOSS_DROP),
                                  x.dropped,
                                  "xstats dropped");
            // Each queued packet left or is still queued; none dropped after.
            NS_TEST_EXPECT_MSG_EQ(stats.nTotalEnqueuedPackets,
                                  stats.nTotalDequeuedPackets + netem->GetNPackets(),
                                  "left or queued");
            NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPacketsAfterDequeue, 0, "no later drops");
            NS_TEST_EXPECT_MSG_EQ(run.GetSent().size(), stats.nTotalDequeuedPackets, "sent");
            NS_TEST_EXPECT_MSG_GT(netem->GetNPackets(), 0, "packets still queued at the end");
            NS_TEST_EXPECT_MSG_GT(stats.GetNDroppedPackets(NetemQueueDisc::LIMIT_DROP),
                                  0,
                                  "the limit was reached");
            NS_TEST_EXPECT_MSG_EQ(x.delayed + x.reordered,
                                  stats.nTotalEnqueuedPackets,
                                  "each queued packet delayed or reordered");
        }
        run.Finish();
        return outcome;
    }

    void DoRun() override
    {
        const Outcome a = Run(7, true);
        const Outcome b = Run(7, false);
        const Outcome c = Run(8, false);
        NS_TEST_EXPECT_MSG_EQ((a.sent == b.sent), true, "same stream, same departures");
        NS_TEST_EXPECT_MSG_EQ(a.duplicated, b.duplicated, "same stream, same copies");
        NS_TEST_EXPECT_MSG_EQ((a.sent == c.sent), false, "another stream, another run");
    }
};

/**
 * @ingroup debloat-tests
 * @brief netem from tc text through TcQdiscHelper, and its `tc -s` lines.
 */
class NetemTcTextTestCase : public TestCase
{
  public:
    NetemTcTextTestCase()
        : TestCase("tc text: TcQdiscHelper takes netem's words; PrintStats")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text = "netem delay 40ms 4ms 25% distribution normal loss random 1% "
                                 "25% duplicate 0.5% reorder 25% 50% gap 5 rate 100Mbit 20 "
                                 "limit 1000";
        const TcQdiscHelper::QdiscSpec spec = TcQdiscHelper::Parse(text);
        NS_TEST_ASSERT_MSG_EQ(spec.type, "ns3::debloat::NetemQueueDisc", "type");
        NS_TEST_ASSERT_MSG_EQ(spec.attributes.size(), 1, "one configuration path: Options");
        NS_TEST_EXPECT_MSG_EQ(spec.attributes[0].first, "Options", "Options");
        Ptr<NetemQueueDisc> netem = CreateObject<NetemQueueDisc>();
        netem->SetAttribute("Options", *spec.attributes[0].second);
        netem->AssignStreams(1);
        netem->Initialize();
        // The attributes the words set: 40 ms, 4 ms, 25% (u32 1073741824), normal, ...
        TimeValue delay;
        netem->GetAttribute("Delay", delay);
        NS_TEST_EXPECT_MSG_EQ(delay.Get(), MilliSeconds(40), "Delay");
        DataRateValue rate;
        netem->GetAttribute("Rate", rate);
        NS_TEST_EXPECT_MSG_EQ(rate.Get(), DataRate("100Mbps"), "Rate");
        IntegerValue overhead;
        netem->GetAttribute("PacketOverhead", overhead);
        NS_TEST_EXPECT_MSG_EQ(overhead.Get(), 20, "PacketOverhead");
        UintegerValue gap;
        netem->GetAttribute("Gap", gap);
        NS_TEST_EXPECT_MSG_EQ(gap.Get(), 5, "Gap");
        NS_TEST_EXPECT_MSG_EQ(netem->GetConfig().delayCorr, 1073741824U, "DelayCorrelation");
        NS_TEST_EXPECT_MSG_EQ((netem->GetConfig().distribution == NetemDistribution::NORMAL),
                              true,
                              "Distribution");
        // tc -s: netem_print_opt()'s line, the counters, netem's xstats.
        std::ostringstream out;
        netem->PrintStats(out);
        NS_TEST_EXPECT_MSG_EQ(out.str(),
                              "qdisc netem root limit 1000 delay 40ms  4ms 25% loss 1% 25% "
                              "duplicate 0.5% reorder 25% 50% rate 100Mbit packetoverhead 20 "
                              "gap 5\n Sent 0 bytes 0 pkt (dropped 0, overlimits 0 requeues 0)\n "
                              "backlog 0b 0p requeues 0\n  delayed 0 dropped 0 corrupted 0 "
                              "duplicated 0 reordered 0 ecn_marked 0\n",
                              "tc -s qdisc show");
        netem->Dispose();
        // The slot example, and refused words naming themselves.
        const TcQdiscHelper::QdiscSpec slot =
            TcQdiscHelper::Parse("netem slot 800us 1ms packets 32");
        NS_TEST_EXPECT_MSG_EQ(slot.type, "ns3::debloat::NetemQueueDisc", "slot type");
        std::string message;
        try
        {
            TcQdiscHelper::Parse("netem delay 10ms distribution bogus");
        }
        catch (const std::invalid_argument& error)
        {
            message = error.what();
        }
        NS_TEST_EXPECT_MSG_NE(message.find("distribution \"bogus\" is unknown"),
                              std::string::npos,
                              message);
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief NetemQueueDisc test suite.
 */
class NetemQueueDiscTestSuite : public TestSuite
{
  public:
    NetemQueueDiscTestSuite()
        : TestSuite("debloat-netem", compat::SUITE_UNIT)
    {
        AddTestCase(new NetemConstantDelayTestCase(), compat::TEST_QUICK);
        // 10 Mbit/s = 1250000 bytes/s, 800 ns a byte; 1000-byte IP packets count 1014.
        // 1014 x 800 = 811.2 us.
        AddTestCase(new NetemRateTestCase("rate 10Mbit", NanoSeconds(811200), "plain"),
                    compat::TEST_QUICK);
        // Packet overhead 20: 1034 x 800 = 827.2 us.
        AddTestCase(new NetemRateTestCase("rate 10Mbit 20", NanoSeconds(827200), "overhead"),
                    compat::TEST_QUICK);
        // Cells of 64 bytes with 4 more each: 1014 / 64 = 15.8, so 16 cells of 68 bytes =
        // 1088 bytes, 870.4 us.
        AddTestCase(new NetemRateTestCase("rate 10Mbit 0 64 4", NanoSeconds(870400), "cells"),
                    compat::TEST_QUICK);
        AddTestCase(new NetemJitterTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetemLossDuplicateTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetemReorderGapTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetemLimitTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetemSlotTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetemEcnTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetemCorruptTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetemConservationTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetemTcTextTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
NetemQueueDiscTestSuite g_netemQueueDiscTestSuite;

} // namespace
