/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * HtbQueueDisc behind an always-ready device, so that HTB is the only bottleneck: a class's
 * burst and long-run rate, borrowing in proportion to quanta, priority, a leaf SFQ's fairness
 * under the sqm "simplest" layout at 92% of 100 Mbit/s, invalid trees, the ClassModeChange
 * trace, and Options over the attributes.
 *
 * Token arithmetic used below (sch_htb.c): a class starts with full buckets, tokens = buffer
 * = the time of `burst` bytes at `rate`; sending len bytes costs l2t(len) = len / rate; the
 * class may send while tokens (and ctokens, at ceil) are not negative; otherwise it waits
 * until they are. qdisc_pkt_len of a 1500-byte IP packet is 1514.
 */

#include "debloat-test-utils.h"

#include "ns3/cake-queue-disc.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/dscp-packet-filter.h"
#include "ns3/htb-queue-disc.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/sfq-queue-disc.h"
#include "ns3/sqm-helper.h"
#include "ns3/traffic-control-module.h"

#include <map>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * A UDP/IPv4 queue disc item from 10.0.0.1 to 10.0.0.2.
 * @param port the flow's source port
 * @param ipSize the IP packet's size, bytes
 * @param tos the TOS byte
 * @return the item
 */
Ptr<QueueDiscItem>
MakeItem(uint16_t port, uint32_t ipSize, uint8_t tos = 0)
{
    return debloattest::MakeUdpItem("10.0.0.1", "10.0.0.2", port, ipSize, tos);
}

/**
 * @param packets the pfifo limit
 * @return a pfifo leaf
 */
Ptr<QueueDisc>
MakePfifo(uint32_t packets = 100000)
{
    Ptr<QueueDisc> fifo = CreateObject<FifoQueueDisc>();
    fifo->SetAttribute("MaxSize", QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, packets)));
    return fifo;
}

/**
 * @ingroup debloat-tests
 * @brief An HtbQueueDisc behind an always-ready device (debloattest::QdiscRun).
 */
class HtbRun : public debloattest::QdiscRun
{
  public:
    /**
     * @param options the qdisc line
     * @param classes the class lines
     * @param leaves the leaves' queue discs
     */
    HtbRun(const std::string& options,
           const std::string& classes,
           const std::map<uint32_t, Ptr<QueueDisc>>& leaves)
        : HtbRun(MakeHtb(options, classes, leaves))
    {
    }

    /// @return the queue disc
    Ptr<HtbQueueDisc> Htb() const
    {
        return m_htb;
    }

    /**
     * @param port a flow
     * @param from window start
     * @param to window end
     * @return IP bytes of that flow sent in [from, to)
     */
    uint64_t Bytes(uint16_t port, Time from, Time to) const
    {
        uint64_t bytes = 0;
        for (const Sent& s : GetSent())
        {
            if (s.at >= from && s.at < to && SourcePort(s) == port)
            {
                bytes += s.item->GetSize();
            }
        }
        return bytes;
    }

  private:
    /// @param htb the queue disc
    explicit HtbRun(Ptr<HtbQueueDisc> htb)
        : QdiscRun(htb),
          m_htb(htb)
    {
    }

    /**
     * @param options the qdisc line
     * @param classes the class lines
     * @param leaves the leaves' queue discs
     * @return the initialized queue disc
     */
    static Ptr<HtbQueueDisc> MakeHtb(const std::string& options,
                                     const std::string& classes,
                                     const std::map<uint32_t, Ptr<QueueDisc>>& leaves)
    {
        Ptr<HtbQueueDisc> htb = CreateObjectWithAttributes<HtbQueueDisc>("Options",
                                                                         StringValue(options),
                                                                         "Classes",
                                                                         StringValue(classes));
        for (const auto& [id, qdisc] : leaves)
        {
            htb->SetLeafQueueDisc(id, qdisc);
        }
        htb->Initialize();
        return htb;
    }

    Ptr<HtbQueueDisc> m_htb; ///< the queue disc
};

/**
 * @param count how many
 * @param port the flow
 * @param ipSize IP bytes each
 * @param tos TOS byte
 * @return items
 */
std::vector<Ptr<QueueDiscItem>>
Items(uint32_t count, uint16_t port, uint32_t ipSize, uint8_t tos = 0)
{
    std::vector<Ptr<QueueDiscItem>> items;
    for (uint32_t i = 0; i < count; ++i)
    {
        items.push_back(MakeItem(port, ipSize, tos));
    }
    return items;
}

/**
 * @ingroup debloat-tests
 * @brief A burst of at most `burst` bytes passes at line rate, then the class paces at its
 * rate.
 */
class HtbBurstAndRateTestCase : public TestCase
{
  public:
    HtbBurstAndRateTestCase()
        : TestCase("burst bytes pass at once, then the class keeps its rate")
    {
    }

  private:
    void DoRun() override
    {
        // 1:1 and its leaf 1:10: rate = ceil = 10 Mbit/s (1250000 B/s), burst = cburst =
        // 15000 bytes: buffer = 15000 / 1250000 s = 12 ms. A packet of 1514 bytes costs
        // 1514 / 1250000 s = 1.2112 ms. 2000 packets queued at t = 0: packet k goes at once
        // while 12 - 1.2112 k >= 0 ms, k = 0..9 (10 packets, 15140 bytes: the burst plus the
        // part of a packet the last one overdraws). After the 10th, tokens are
        // 12 - 12.112 = -0.112 ms: packet 10 waits 0.112 ms, then each next one 1.2112 ms.
        // Packet k >= 10 leaves at 0.112 + 1.2112 (k - 10) ms; the last, k = 1999, at
        // 2409.1888 ms. Over that time the class sent its rate plus one burst:
        // 2000 x 1514 bytes = 1250000 B/s x 2.4091888 s + 12 ms x 1250000 B/s (+ 140 bytes).
        HtbRun run("default 10",
                   "parent 1: classid 1:1 rate 10Mbit burst 15000 cburst 15000;"
                   "parent 1:1 classid 1:10 rate 10Mbit burst 15000 cburst 15000",
                   {{0x10, MakePfifo()}});
        run.EnqueueAt(Seconds(0), Items(2000, 1000, 1500));
        run.RunUntil(Seconds(3));
        const auto& sent = run.GetSent();
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 2000, "every packet sent");
        for (uint32_t k = 0; k < 10; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(sent[k].at, Seconds(0), "burst packet " << k);
        }
        // psched's mult/shift rounding: a few ns per packet at most.
        const Time tolerance = NanoSeconds(20);
        NS_TEST_EXPECT_MSG_EQ_TOL(sent[10].at, MicroSeconds(112), tolerance, "packet 10");
        NS_TEST_EXPECT_MSG_EQ_TOL(sent[11].at, NanoSeconds(1323200), tolerance, "packet 11");
        NS_TEST_EXPECT_MSG_EQ_TOL(sent[1999].at,
                                  NanoSeconds(2409188800),
                                  NanoSeconds(2000 * 5),
                                  "packet 1999");
        const auto stats = run.Htb()->GetScheduler().GetClassStats(0x10);
        NS_TEST_EXPECT_MSG_EQ(stats.packets, 2000, "class packets");
        NS_TEST_EXPECT_MSG_EQ(stats.bytes, 2000 * 1514, "class bytes (qdisc_pkt_len)");
        // tc -s class show: every packet went at level 0, within the leaf's own rate, so the
        // leaf lent (to itself) 2000 times and borrowed never; 1:1 neither lent nor borrowed
        // (htb_charge_class() counts a lend only at the level that permitted the packet).
        std::ostringstream classes;
        run.Htb()->PrintClassStats(classes);
        const std::string text = classes.str();
        NS_TEST_EXPECT_MSG_NE(text.find("class htb 1:10 parent 1:1 prio 0 rate 10Mbit ceil "
                                        "10Mbit burst 15000b cburst 15000b"),
                              std::string::npos,
                              text);
        NS_TEST_EXPECT_MSG_NE(text.find("Sent 3028000 bytes 2000 pkt"), std::string::npos, text);
        NS_TEST_EXPECT_MSG_NE(text.find("lended: 2000 borrowed: 0 giants: 0"),
                              std::string::npos,
                              text);
        NS_TEST_EXPECT_MSG_NE(text.find("class htb 1:1 root rate 10Mbit"), std::string::npos, text);
        NS_TEST_EXPECT_MSG_NE(text.find("lended: 0 borrowed: 0 giants: 0"),
                              std::string::npos,
                              text);
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief "ClassModeChange" reports each mode change of htb_change_class_mode() as it
 * happens.
 *
 * HtbBurstAndRateTestCase's tree and load: 1:1 and 1:10 alike (rate = ceil = 10 Mbit/s,
 * burst = cburst = 15000 bytes, buffer 12 ms), 2000 packets of 1514 bytes at t = 0, all
 * through 1:10, so both classes are charged the same (1:1 at level 7 >= 0) and have the
 * same tokens. The 10th packet leaves tokens = ctokens = -0.112 ms: 1:10, then 1:1 (the
 * charge walks up), CAN_SEND -> CANT_SEND at t = 0. At each later packet's time the
 * watchdog's dequeue applies level 0's due event, 1:10 CANT_SEND -> CAN_SEND (its tokens
 * are 0 again), and sends from 1:10 at level 0 at once; the charge (-1.2112 ms) turns it
 * back, CAN_SEND -> CANT_SEND. htb_dequeue() returns at level 0 before it reaches level 7,
 * so 1:1's event is never applied: charged in step with 1:10, 1:1 stays CANT_SEND (its
 * mode changes only when htb_do_events() or a charge computes another mode). After the
 * last packet no dequeue runs (nothing is queued). So 1:10 changes 1 + 2 x 1990 = 3981
 * times, 1:1 once: 3982 changes, and 1:10's 1991 changes to CANT_SEND are its overlimits.
 */
class HtbClassModeTraceTestCase : public TestCase
{
  public:
    HtbClassModeTraceTestCase()
        : TestCase("ClassModeChange traces each mode change, at the packets' times")
    {
    }

  private:
    /// One traced change.
    struct Change
    {
        Time at;         ///< when
        uint32_t id;     ///< the class
        HtbMode oldMode; ///< before
        HtbMode newMode; ///< after
    };

    /**
     * The trace sink.
     * @param id the class
     * @param oldMode before
     * @param newMode after
     */
    void Record(uint32_t id, HtbMode oldMode, HtbMode newMode)
    {
        m_changes.push_back(Change{Simulator::Now(), id, oldMode, newMode});
    }

    void DoRun() override
    {
        HtbRun run("default 10",
                   "parent 1: classid 1:1 rate 10Mbit burst 15000 cburst 15000;"
                   "parent 1:1 classid 1:10 rate 10Mbit burst 15000 cburst 15000",
                   {{0x10, MakePfifo()}});
        const bool connected = run.Htb()->TraceConnectWithoutContext(
            "ClassModeChange",
            MakeCallback(&HtbClassModeTraceTestCase::Record, this));
        NS_TEST_ASSERT_MSG_EQ(connected, true, "ClassModeChange connects");
        run.EnqueueAt(Seconds(0), Items(2000, 1000, 1500));
        run.RunUntil(Seconds(3));
        const auto& sent = run.GetSent();
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 2000, "every packet sent");
        NS_TEST_ASSERT_MSG_EQ(m_changes.size(), 3982, "3981 changes of 1:10, one of 1:1");
        if (m_changes.size() != 3982)
        {
            return;
        }
        const HtbMode cant = HtbMode::CANT_SEND;
        const HtbMode can = HtbMode::CAN_SEND;
        auto expect = [this](size_t i, Time at, uint32_t id, HtbMode from, HtbMode to) {
            const Change& c = m_changes[i];
            NS_TEST_EXPECT_MSG_EQ(c.at, at, "change " << i << ": time");
            NS_TEST_EXPECT_MSG_EQ(c.id, id, "change " << i << ": class");
            NS_TEST_EXPECT_MSG_EQ(static_cast<int>(c.oldMode),
                                  static_cast<int>(from),
                                  "change " << i << ": old mode");
            NS_TEST_EXPECT_MSG_EQ(static_cast<int>(c.newMode),
                                  static_cast<int>(to),
                                  "change " << i << ": new mode");
        };
        expect(0, Seconds(0), 0x10, can, cant);
        expect(1, Seconds(0), 1, can, cant);
        // Packet k >= 10 at sent[k].at: two changes of 1:10, 2 + 2 (k - 10) onwards.
        for (uint32_t k = 10; k < 2000; ++k)
        {
            const size_t i = 2 + 2 * (k - 10);
            expect(i, sent[k].at, 0x10, cant, can);
            expect(i + 1, sent[k].at, 0x10, can, cant);
        }
        // packet 10 at 0.112 ms, as HtbBurstAndRateTestCase derives.
        NS_TEST_EXPECT_MSG_EQ_TOL(m_changes[2].at, MicroSeconds(112), NanoSeconds(20), "first");
        const HtbScheduler& scheduler = run.Htb()->GetScheduler();
        NS_TEST_EXPECT_MSG_EQ(scheduler.GetClassStats(0x10).overlimits, 1991, "1:10 overlimits");
        NS_TEST_EXPECT_MSG_EQ(scheduler.GetClassStats(1).overlimits, 1, "1:1 overlimits");
        NS_TEST_EXPECT_MSG_EQ(scheduler.GetClassStats(1).mode,
                              static_cast<int>(cant),
                              "1:1 still CANT_SEND");
        // tc -s: each class prints its own overlimits (htb_dump_class_stats()), the qdisc
        // their sum, 1991 + 1 = 1992 (htb_dump()'s q->overlimits, Linux 5.2 and later).
        NS_TEST_EXPECT_MSG_EQ(scheduler.GetOverlimits(), 1992, "qdisc overlimits");
        std::ostringstream qdisc;
        run.Htb()->PrintStats(qdisc);
        NS_TEST_EXPECT_MSG_NE(qdisc.str().find("(dropped 0, overlimits 1992 requeues 0)"),
                              std::string::npos,
                              qdisc.str());
        std::ostringstream classes;
        run.Htb()->PrintClassStats(classes);
        const std::string text = classes.str();
        NS_TEST_EXPECT_MSG_NE(text.find("class htb 1:1 root rate 10Mbit ceil 10Mbit burst 15000b "
                                        "cburst 15000b\n Sent 3028000 bytes 2000 pkt (dropped "
                                        "0, overlimits 1 requeues 0)"),
                              std::string::npos,
                              text);
        NS_TEST_EXPECT_MSG_NE(text.find("cburst 15000b\n Sent 3028000 bytes 2000 pkt (dropped "
                                        "0, overlimits 1991 requeues 0)"),
                              std::string::npos,
                              text);
        run.Finish();
    }

    std::vector<Change> m_changes; ///< what the trace reported
};

/**
 * @ingroup debloat-tests
 * @brief `tc -s` prints HTB's overlimits as current kernels count them: each class's changes
 * to CANT_SEND, and for the qdisc their sum.
 *
 * One class, 1:1 at the root, rate = ceil = 10 Mbit/s, burst = cburst = 15000 bytes
 * (buffer 12 ms), fed 100 packets of 1514 bytes at t = 0, far faster than its rate. As
 * HtbBurstAndRateTestCase derives, tokens after k packets are 12 - 1.2112 k ms: the 10th
 * packet leaves -0.112 ms, the first change to CANT_SEND (htb_change_class_mode()). Each of
 * the other 90 packets goes when the tokens are back at 0 (CAN_SEND) and its charge of
 * 1.2112 ms turns the class CANT_SEND again. So 1 + 90 = 91 overlimits (N - 9 for N >= 10
 * packets), printed for the class and, as the only class, for the qdisc. Kernels before 5.2
 * printed for the qdisc the dequeues that found nothing to send instead.
 */
class HtbOverlimitsTestCase : public TestCase
{
  public:
    HtbOverlimitsTestCase()
        : TestCase("tc -s overlimits: changes to CANT_SEND per class, their sum per qdisc")
    {
    }

  private:
    void DoRun() override
    {
        HtbRun run("default 1",
                   "parent 1: classid 1:1 rate 10Mbit burst 15000 cburst 15000",
                   {{1, MakePfifo()}});
        run.EnqueueAt(Seconds(0), Items(100, 1000, 1500));
        run.RunUntil(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(run.GetSent().size(), 100, "every packet sent");
        const HtbScheduler& scheduler = run.Htb()->GetScheduler();
        NS_TEST_EXPECT_MSG_EQ(scheduler.GetClassStats(1).overlimits, 91, "class overlimits");
        NS_TEST_EXPECT_MSG_EQ(scheduler.GetOverlimits(), 91, "qdisc overlimits");
        std::ostringstream qdisc;
        run.Htb()->PrintStats(qdisc);
        NS_TEST_EXPECT_MSG_NE(qdisc.str().find(" 100 pkt (dropped 0, overlimits 91 requeues 0)"),
                              std::string::npos,
                              qdisc.str());
        std::ostringstream classes;
        run.Htb()->PrintClassStats(classes);
        NS_TEST_EXPECT_MSG_NE(
            classes.str().find("Sent 151400 bytes 100 pkt (dropped 0, overlimits 91 requeues 0)"),
            std::string::npos,
            classes.str());
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Options is the qdisc line over the attributes Default, R2q and DirectQlen: setting
 * it sets them (so GetAttribute shows them), and getting it prints them.
 *
 * - "default 12 r2q 5 direct_qlen 7" sets Default 0x12 (hexadecimal, as classids), R2q 5
 *   and DirectQlen 7; Options reads back "default 12 r2q 5 direct_qlen 7".
 * - "default 12" over R2q 20 and DirectQlen 7 given first: tc's qdisc line sends r2q
 *   always (10 when not named), so R2q becomes 10, as when Options overrode the attributes
 *   at initialization; direct_qlen not named leaves DirectQlen 7.
 * - An empty Options (the default) leaves the attributes alone: R2q 20 stays 20.
 * - The attributes alone: Options prints them ("default 0 r2q 10 direct_qlen 1000").
 * - A bad word stops with a message naming it and the accepted words.
 */
class HtbOptionsTestCase : public TestCase
{
  public:
    HtbOptionsTestCase()
        : TestCase("Options sets Default, R2q and DirectQlen and reads them back")
    {
    }

  private:
    /**
     * @param htb a queue disc
     * @param name an attribute
     * @return its value as text
     */
    static std::string Get(Ptr<HtbQueueDisc> htb, const std::string& name)
    {
        StringValue text;
        UintegerValue number;
        if (name == "Options")
        {
            htb->GetAttribute(name, text);
            return text.Get();
        }
        htb->GetAttribute(name, number);
        return std::to_string(number.Get());
    }

    void DoRun() override
    {
        Ptr<HtbQueueDisc> a =
            CreateObjectWithAttributes<HtbQueueDisc>("Options",
                                                     StringValue("default 12 r2q 5 direct_qlen 7"));
        NS_TEST_EXPECT_MSG_EQ(Get(a, "Default"), std::to_string(0x12), "default is hex");
        NS_TEST_EXPECT_MSG_EQ(Get(a, "R2q"), "5", "r2q");
        NS_TEST_EXPECT_MSG_EQ(Get(a, "DirectQlen"), "7", "direct_qlen");
        NS_TEST_EXPECT_MSG_EQ(Get(a, "Options"), "default 12 r2q 5 direct_qlen 7", "read back");

        Ptr<HtbQueueDisc> b = CreateObjectWithAttributes<HtbQueueDisc>("R2q",
                                                                       UintegerValue(20),
                                                                       "DirectQlen",
                                                                       UintegerValue(7),
                                                                       "Options",
                                                                       StringValue("default 12"));
        NS_TEST_EXPECT_MSG_EQ(Get(b, "R2q"), "10", "tc's r2q when not named");
        NS_TEST_EXPECT_MSG_EQ(Get(b, "DirectQlen"), "7", "direct_qlen not named: kept");
        NS_TEST_EXPECT_MSG_EQ(Get(b, "Options"), "default 12 r2q 10 direct_qlen 7", "read back");

        Ptr<HtbQueueDisc> c = CreateObjectWithAttributes<HtbQueueDisc>("R2q", UintegerValue(20));
        NS_TEST_EXPECT_MSG_EQ(Get(c, "R2q"), "20", "no Options: the attribute");
        Ptr<HtbQueueDisc> d = CreateObject<HtbQueueDisc>();
        NS_TEST_EXPECT_MSG_EQ(Get(d, "Options"), "default 0 r2q 10 direct_qlen 1000", "defaults");
        d->SetAttribute("Options", StringValue("htb r2q 3"));
        NS_TEST_EXPECT_MSG_EQ(Get(d, "R2q"), "3", "set after construction");

        const debloattest::ChildOutcome bad = debloattest::RunInChild([] {
            CreateObjectWithAttributes<HtbQueueDisc>("Options", StringValue("default 12 quantm 5"));
        });
        NS_TEST_EXPECT_MSG_EQ(bad.stopped, true, "a bad word stops");
        NS_TEST_EXPECT_MSG_NE(bad.output.find("quantm"), std::string::npos, bad.output);
        NS_TEST_EXPECT_MSG_NE(bad.output.find("r2q"), std::string::npos, bad.output);
    }
};

/**
 * @ingroup debloat-tests
 * @brief AssignStreams() passes fixed streams to the leaves: an sfq leaf's hash key.
 *
 * A tree with a pfifo leaf 1:10 and an sfq leaf 1:20: pfifo draws nothing and SFQ takes one
 * stream, so AssignStreams() returns 1, before initialization (when SFQ draws its key).
 * Eight UDP flows queued through 1:20 show their SFQ buckets in its PrintClassStats()
 * (class :N is bucket N - 1): the same stream gives the same buckets in a second tree
 * (whose random variable would otherwise get another automatic stream); another stream
 * another key, under which each flow's bucket is an independent draw among 1024 (all eight
 * the same: probability 1024^-8; fixed here, as the streams are).
 */
class HtbAssignStreamsTestCase : public TestCase
{
  public:
    HtbAssignStreamsTestCase()
        : TestCase("AssignStreams(): the leaves' streams, in classid order")
    {
    }

  private:
    /**
     * @param stream the first stream
     * @param[out] count the streams used
     * @return the sfq leaf's class listing with the eight flows queued
     */
    static std::string Buckets(int64_t stream, int64_t& count)
    {
        Ptr<HtbQueueDisc> htb = CreateObjectWithAttributes<HtbQueueDisc>(
            "Options",
            StringValue("default 20"),
            "Classes",
            StringValue("parent 1: classid 1:10 rate 10Mbit; parent 1: classid 1:20 rate "
                        "10Mbit"));
        Ptr<SfqQueueDisc> sfq = CreateObject<SfqQueueDisc>();
        htb->SetLeafQueueDisc(0x10, MakePfifo());
        htb->SetLeafQueueDisc(0x20, sfq);
        count = htb->AssignStreams(stream);
        htb->Initialize();
        for (uint16_t port = 1000; port < 1008; ++port)
        {
            htb->Enqueue(MakeItem(port, 1000));
        }
        std::ostringstream classes;
        sfq->PrintClassStats(classes);
        htb->Dispose();
        return classes.str();
    }

    void DoRun() override
    {
        int64_t count = 0;
        const std::string first = Buckets(10, count);
        NS_TEST_EXPECT_MSG_EQ(count, 1, "pfifo none, sfq one");
        NS_TEST_EXPECT_MSG_NE(first.find("class sfq"), std::string::npos, first);
        NS_TEST_EXPECT_MSG_EQ(Buckets(10, count), first, "same stream, same buckets");
        NS_TEST_EXPECT_MSG_NE(Buckets(11, count), first, "other stream, other buckets");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Two classes borrow their parent's unused rate, up to their ceils, in proportion to
 * their quanta; a lower prio value takes the spare rate first.
 */
class HtbBorrowingTestCase : public TestCase
{
  public:
    HtbBorrowingTestCase()
        : TestCase("borrowing in proportion to quanta; prio first")
    {
    }

  private:
    /**
     * Runs two saturated leaves for 10 s.
     * @param a the first leaf's options
     * @param b the second leaf's options
     * @param[out] rateA the first's Mbit/s over 1..10 s
     * @param[out] rateB the second's
     */
    void Run(const std::string& a, const std::string& b, double& rateA, double& rateB)
    {
        HtbRun run("",
                   "parent 1: classid 1:1 rate 10Mbit;"
                   "parent 1:1 classid 1:10 " +
                       a + ";parent 1:1 classid 1:20 " + b,
                   {{0x10, MakePfifo()}, {0x20, MakePfifo()}});
        // Each flow goes to its leaf through a DSCP map.
        Ptr<DscpPacketFilter> filter = CreateObject<DscpPacketFilter>();
        filter->SetMap("8=1:10,16=1:20");
        run.Htb()->AddPacketFilter(filter);
        // 10 Mbit/s for 10 s is 8300 packets of 1500 bytes; queue 9000 of each.
        run.EnqueueAt(Seconds(0), Items(9000, 1, 1500, 8 << 2));
        run.EnqueueAt(Seconds(0), Items(9000, 2, 1500, 16 << 2));
        run.RunUntil(Seconds(10));
        rateA = run.Bytes(1, Seconds(1), Seconds(10)) * 8 / 9.0 / 1e6;
        rateB = run.Bytes(2, Seconds(1), Seconds(10)) * 8 / 9.0 / 1e6;
        run.Finish();
    }

    void DoRun() override
    {
        // The parent's 10 Mbit/s counts 1514 bytes per 1500-byte IP packet: IP goodput
        // 10 x 1500 / 1514 = 9.9075 Mbit/s in all. Each leaf has rate 2.5 Mbit/s and sends
        // that at level 0; the other 5 Mbit/s they borrow from 1:1 (level 7), where DRR
        // with quanta 1500 and 4500 gives one 1514-byte packet to 1:10 for three to 1:20:
        // 1:10 gets 2.5 + 5/4 = 3.75 and 1:20 2.5 + 15/4 = 6.25 (x 1500/1514 as IP).
        double a = 0;
        double b = 0;
        Run("rate 2500kbit ceil 10Mbit quantum 1500",
            "rate 2500kbit ceil 10Mbit quantum 4500",
            a,
            b);
        const double ip = 1500.0 / 1514;
        NS_TEST_EXPECT_MSG_EQ_TOL(a, 3.75 * ip, 0.1, "1:10 with quantum 1500");
        NS_TEST_EXPECT_MSG_EQ_TOL(b, 6.25 * ip, 0.1, "1:20 with quantum 4500");

        // prio: rate 2 Mbit/s each, ceil 10. The spare 6 Mbit/s at level 7 goes to the
        // lower prio value first, all of it: 1:10 (prio 0) 8, 1:20 (prio 1) 2.
        Run("rate 2Mbit ceil 10Mbit prio 0", "rate 2Mbit ceil 10Mbit prio 1", a, b);
        NS_TEST_EXPECT_MSG_EQ_TOL(a, 8 * ip, 0.1, "1:10, prio 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(b, 2 * ip, 0.1, "1:20, prio 1");

        // ceil: 1:10 may borrow only up to 3 Mbit/s; 1:20 takes the rest (7).
        Run("rate 2Mbit ceil 3Mbit prio 0", "rate 2Mbit ceil 10Mbit prio 1", a, b);
        NS_TEST_EXPECT_MSG_EQ_TOL(a, 3 * ip, 0.1, "1:10 held at its ceil");
        NS_TEST_EXPECT_MSG_EQ_TOL(b, 7 * ip, 0.1, "1:20 takes the rest");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The first seed's shaper: sqm's "simplest" at 92% of 100 Mbit/s with SFQ: the
 * shaped rate, and SFQ's byte fairness between flows of different packet sizes under it.
 */
class HtbSqmSfqTestCase : public TestCase
{
  public:
    HtbSqmSfqTestCase()
        : TestCase("sqm simplest at 92% of 100 Mbps with sfq: rate and fairness")
    {
    }

  private:
    void DoRun() override
    {
        // The layout the helper builds: the text, checked word for word.
        NS_TEST_EXPECT_MSG_EQ(SqmHelper::GetTcText(SqmHelper::SIMPLEST, 92000, "sfq"),
                              "htb default 10; class parent 1: classid 1:1 rate 92000kbit ceil "
                              "92000kbit; class parent 1:1 classid 1:10 rate 92000kbit ceil "
                              "92000kbit prio 0; qdisc parent 1:10 sfq",
                              "simplest");
        // 92 Mbit/s = 11500000 B/s. Two flows, 1500- and 500-byte IP packets (1514 and 514
        // with the Ethernet header), both saturating. SFQ's DRR gives each flow the same
        // qdisc bytes, so over 2 s each gets 11500000 / 2 B/s of 1514- or 514-byte packets.
        HtbRun run("default 10",
                   "parent 1: classid 1:1 rate 92000kbit ceil 92000kbit;"
                   "parent 1:1 classid 1:10 rate 92000kbit ceil 92000kbit prio 0",
                   {{0x10,
                     CreateObjectWithAttributes<SfqQueueDisc>("Limit",
                                                              UintegerValue(10000),
                                                              "Depth",
                                                              UintegerValue(127))}});
        for (int ms = 0; ms < 2100; ms += 10)
        {
            // Enough for more than each flow's share every 10 ms (38 of 1514 bytes would be
            // the whole rate); SFQ's depth drops the excess.
            run.EnqueueAt(MilliSeconds(ms), Items(40, 1, 1500));
            run.EnqueueAt(MilliSeconds(ms), Items(120, 2, 500));
        }
        run.RunUntil(MilliSeconds(2100));
        const double big = run.Bytes(1, Seconds(0.1), Seconds(2.1)) * 1514.0 / 1500;
        const double small = run.Bytes(2, Seconds(0.1), Seconds(2.1)) * 514.0 / 500;
        NS_TEST_EXPECT_MSG_EQ_TOL((big + small) / 2.0, 11500000.0, 11500000.0 * 0.01, "rate");
        NS_TEST_EXPECT_MSG_EQ_TOL(big / small, 1.0, 0.02, "SFQ byte fairness under HTB");
        run.Finish();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Invalid trees stop with a message naming the class.
 */
class HtbInvalidTreesTestCase : public TestCase
{
  public:
    HtbInvalidTreesTestCase()
        : TestCase("invalid trees stop with a message naming the class")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string options;  ///< qdisc line
            std::string classes;  ///< class lines
            bool leafQdisc;       ///< give 1:10 a queue disc
            std::string expected; ///< in the message
        };

        const std::vector<Case> cases = {
            {"", "parent 1: classid 1:10 rate 2Mbit ceil 1Mbit", true, "1:10"},
            {"",
             "parent 1: classid 1:1 rate 2Mbit; parent 1:1 classid 1:10 rate 1Mbit;"
             "parent 1:1 classid 1:20 rate 1Mbit",
             true,
             "1:20"},
            {"default 30", "parent 1: classid 1:10 rate 1Mbit", true, "1:30"},
            {"", "parent 1:5 classid 1:10 rate 1Mbit", true, "1:5"},
            {"", "parent 1: classid 1:10 ceil 1Mbit", true, "rate"},
            {"defualt 10", "parent 1: classid 1:10 rate 1Mbit", true, "defualt"},
        };
        for (const Case& c : cases)
        {
            const debloattest::ChildOutcome outcome = debloattest::RunInChild([c] {
                Ptr<HtbQueueDisc> htb =
                    CreateObjectWithAttributes<HtbQueueDisc>("Options",
                                                             StringValue(c.options),
                                                             "Classes",
                                                             StringValue(c.classes));
                if (c.leafQdisc)
                {
                    htb->SetLeafQueueDisc(0x10, MakePfifo());
                }
                htb->Initialize();
            });
            NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, c.classes);
            NS_TEST_EXPECT_MSG_NE(outcome.output.find(c.expected),
                                  std::string::npos,
                                  outcome.output);
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief The sqm layouts install through TrafficControlHelper: types, leaves, the filter.
 */
class HtbSqmLayoutsTestCase : public TestCase
{
  public:
    HtbSqmLayoutsTestCase()
        : TestCase("sqm layouts install: simplest, simple (with its DSCP filter), piece_of_cake")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        InternetStackHelper internet;
        internet.Install(nodes);
        SimpleNetDeviceHelper devices;
        NetDeviceContainer link = devices.Install(nodes);
        link.Get(0)->SetMtu(1500);

        // 100 Mbit/s x 92% = 92000 kbit. simple: 1:11 ceil 92000 / 3 = 30666 kbit, 1:12
        // and 1:13 rate 92000 / 6 = 15333 kbit, ceil 92000 - 16 = 91984 kbit.
        const std::string simple = SqmHelper::GetTcText(SqmHelper::SIMPLE, 92000, "fq_codel");
        NS_TEST_EXPECT_MSG_NE(simple.find("classid 1:11 rate 128kbit ceil 30666kbit prio 1"),
                              std::string::npos,
                              simple);
        NS_TEST_EXPECT_MSG_NE(simple.find("classid 1:12 rate 15333kbit ceil 91984kbit prio 2"),
                              std::string::npos,
                              simple);
        TrafficControlHelper tch;
        SqmHelper::SetRootQueueDisc(tch, SqmHelper::SIMPLE, DataRate("100Mbps"), 92, "fq_codel");
        QueueDiscContainer qdiscs = tch.Install(link.Get(0));
        Ptr<HtbQueueDisc> htb = DynamicCast<HtbQueueDisc>(qdiscs.Get(0));
        NS_TEST_ASSERT_MSG_NE(htb, nullptr, "root is HTB");
        // As at the simulation's start: the traffic control layer gives the root the
        // device's queue interface and initializes it (and HTB its leaves: fq_codel takes
        // its quantum from the device's MTU).
        nodes.Get(0)->Initialize();
        const std::vector<uint32_t> leaves = {0x10, 0x11, 0x12, 0x13};
        NS_TEST_EXPECT_MSG_EQ((htb->GetLeaves() == leaves), true, "leaves 1:10 .. 1:13");
        NS_TEST_EXPECT_MSG_EQ(htb->GetNPacketFilters(), 1, "the DSCP filter");
        NS_TEST_EXPECT_MSG_EQ(htb->GetQueueDiscClass(1)->GetQueueDisc()->GetInstanceTypeId(),
                              FqCoDelQueueDisc::GetTypeId(),
                              "fq_codel on 1:11");
        NS_TEST_EXPECT_MSG_EQ(htb->GetQueueDiscClass(0)->GetQueueDisc()->GetInstanceTypeId(),
                              FifoQueueDisc::GetTypeId(),
                              "pfifo on 1:10");
        // The leaf fq_codel saw the device: its quantum is the device's MTU, 1500.
        NS_TEST_EXPECT_MSG_EQ(
            DynamicCast<FqCoDelQueueDisc>(htb->GetQueueDiscClass(1)->GetQueueDisc())->GetQuantum(),
            1500,
            "fq_codel's quantum from the device");
        // EF (DSCP 46, TOS 0xB8) goes to 1:11, CS1 (TOS 0x20) to 1:13, the rest to 1:12.
        htb->Enqueue(MakeItem(1, 100, 0xB8));
        htb->Enqueue(MakeItem(2, 100, 0x20));
        htb->Enqueue(MakeItem(3, 100, 0));
        NS_TEST_EXPECT_MSG_EQ(htb->GetQueueDiscClass(1)->GetQueueDisc()->GetNPackets(), 1, "EF");
        NS_TEST_EXPECT_MSG_EQ(htb->GetQueueDiscClass(3)->GetQueueDisc()->GetNPackets(), 1, "CS1");
        NS_TEST_EXPECT_MSG_EQ(htb->GetQueueDiscClass(2)->GetQueueDisc()->GetNPackets(), 1, "BE");

        // piece_of_cake: cake alone at the shaped rate, besteffort.
        NS_TEST_EXPECT_MSG_EQ(SqmHelper::GetTcText(SqmHelper::PIECE_OF_CAKE, 92000, "fq_codel"),
                              "cake bandwidth 92000kbit besteffort",
                              "piece_of_cake");
        TrafficControlHelper cake;
        SqmHelper::SetRootQueueDisc(cake, SqmHelper::PIECE_OF_CAKE, DataRate("100Mbps"), 92);
        QueueDiscContainer cakes = cake.Install(link.Get(1));
        Ptr<CakeQueueDisc> root = DynamicCast<CakeQueueDisc>(cakes.Get(0));
        NS_TEST_ASSERT_MSG_NE(root, nullptr, "root is CAKE");
        nodes.Get(1)->Initialize();
        NS_TEST_EXPECT_MSG_EQ(root->GetConfig().rate, 92000000 / 8, "92000 kbit/s in bytes/s");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-htb-queue-disc suite.
 */
class HtbQueueDiscTestSuite : public TestSuite
{
  public:
    HtbQueueDiscTestSuite()
        : TestSuite("debloat-htb-queue-disc", compat::SUITE_UNIT)
    {
        AddTestCase(new HtbBurstAndRateTestCase(), compat::TEST_QUICK);
        AddTestCase(new HtbClassModeTraceTestCase(), compat::TEST_QUICK);
        AddTestCase(new HtbOverlimitsTestCase(), compat::TEST_QUICK);
        AddTestCase(new HtbOptionsTestCase(), compat::TEST_QUICK);
        AddTestCase(new HtbAssignStreamsTestCase(), compat::TEST_QUICK);
        AddTestCase(new HtbBorrowingTestCase(), compat::TEST_QUICK);
        AddTestCase(new HtbSqmSfqTestCase(), compat::TEST_QUICK);
        AddTestCase(new HtbSqmLayoutsTestCase(), compat::TEST_QUICK);
        AddTestCase(new HtbInvalidTreesTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
HtbQueueDiscTestSuite g_htbQueueDiscTestSuite;

} // namespace
