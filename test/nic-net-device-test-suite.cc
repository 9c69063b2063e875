/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * NicNetDevice timing with exact expected times derived in comments: ring drain at 100 Mbit/s
 * and 1 Gbit/s, the driver's stop and wake thresholds, completion batching under tx-usecs and
 * tx-frames, RX ring overflow, and packet conservation.
 *
 * Frames: a 1500-byte payload plus the 14-byte Ethernet header is a 1514-byte frame (skb->len)
 * that holds the wire for max(1514, 60) + 24 = 1538 bytes: T = 1538 * 8 / 10^8 s = 123.04 us
 * at 100 Mbit/s and 12.304 us at 1 Gbit/s. Each test sends from device 0 to device 1.
 */

#include "debloat-test-utils.h"

#include "ns3/byte-queue-limits-helper.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"
#include "ns3/nic-profile.h"
#include "ns3/node-event.h"
#include "ns3/point-to-point-module.h"

#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// A two-node NIC link for tests.
struct Link
{
    NodeContainer nodes;         ///< the two nodes
    Ptr<NicNetDevice> tx;        ///< sender
    Ptr<NicNetDevice> rx;        ///< receiver
    Ptr<NetDeviceQueue> txQueue; ///< the sender's TX queue 0
};

/**
 * Builds a link.
 * @param helper the configured helper
 * @return the link
 */
Link
MakeLink(const NicHelper& helper)
{
    Link link;
    link.nodes.Create(2);
    NetDeviceContainer devices = helper.Install(link.nodes);
    link.tx = DynamicCast<NicNetDevice>(devices.Get(0));
    link.rx = DynamicCast<NicNetDevice>(devices.Get(1));
    link.txQueue = link.tx->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0);
    return link;
}

/**
 * Sends count 1500-byte packets from the link's sender at once.
 * @param link the link
 * @param count number of packets
 */
void
SendBurst(Link* link, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
    {
        link->tx->Send(Create<Packet>(1500), link->rx->GetAddress(), 0x0800);
    }
}

/**
 * Appends the current time to a list.
 * @param times the list
 * @param packet the traced packet
 */
void
RecordTime(std::vector<Time>* times, Ptr<const Packet> packet)
{
    times->push_back(Simulator::Now());
}

/// (time, TX packets reclaimed) of each poll that reclaimed some.
using PollLog = std::vector<std::pair<Time, uint32_t>>;

/**
 * Records polls that reclaimed TX packets.
 * @param log the log
 * @param vector the vector
 * @param txPackets TX packets reclaimed
 * @param txBytes their bytes
 * @param rxPackets RX packets
 */
void
RecordPoll(PollLog* log, uint32_t vector, uint32_t txPackets, uint64_t txBytes, uint32_t rxPackets)
{
    if (txPackets > 0)
    {
        log->emplace_back(Simulator::Now(), txPackets);
    }
}

/**
 * @ingroup debloat-tests
 * @brief A full ring drains at line rate: frame k's last bit leaves at k * T.
 *
 * 64 frames posted at t = 0 to a 256-descriptor ring: the wire is never idle, so frame k
 * (1-based) ends at k * T and the receiver gets it one propagation delay (1 us) later.
 * 100 Mbit/s: the ring drains in 64 * 123.04 us = 7874.56 us; 1 Gbit/s: 787.456 us.
 */
class NicRingDrainTestCase : public TestCase
{
  public:
    /**
     * @param rate line rate
     * @param frameTime T, the wire time of one 1514-byte frame
     */
    NicRingDrainTestCase(const std::string& rate, Time frameTime)
        : TestCase("Ring drain time at " + rate),
          m_rate(rate),
          m_frameTime(frameTime)
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue(m_rate));
        helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        Link link = MakeLink(helper);
        std::vector<Time> sent;
        std::vector<Time> received;
        NS_TEST_ASSERT_MSG_EQ(
            link.tx->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&RecordTime, &sent)),
            true,
            "PhyTxEnd");
        NS_TEST_ASSERT_MSG_EQ(
            link.rx->TraceConnectWithoutContext("PhyRxEnd",
                                                MakeBoundCallback(&RecordTime, &received)),
            true,
            "PhyRxEnd");
        Simulator::ScheduleNow(&SendBurst, &link, 64);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sent.size(), 64, "all frames sent");
        NS_TEST_ASSERT_MSG_EQ(received.size(), 64, "all frames received");
        for (std::size_t k = 1; k <= 64; k++)
        {
            NS_TEST_EXPECT_MSG_EQ(sent[k - 1],
                                  m_frameTime * static_cast<int64_t>(k),
                                  "frame " << k);
            NS_TEST_EXPECT_MSG_EQ(received[k - 1],
                                  m_frameTime * static_cast<int64_t>(k) + MicroSeconds(1),
                                  "frame " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(link.tx->GetStats().txPackets, 64, "tx_packets");
        NS_TEST_EXPECT_MSG_EQ(link.tx->GetStats().txBytes, 64 * 1514, "tx_bytes: skb->len");
        NS_TEST_EXPECT_MSG_EQ(link.tx->GetTxRing(0).GetUsed(), 0, "every frame reclaimed");
        Simulator::Destroy();
    }

    std::string m_rate; ///< line rate
    Time m_frameTime;   ///< T
};

/**
 * @ingroup debloat-tests
 * @brief The driver stops at its stop threshold and wakes at its wake threshold.
 *
 * e1000e-like: 64 descriptors, a context descriptor per packet (two per 1514-byte frame),
 * stop when fewer than 19 are free, wake at 32 free; every completion interrupts at once and
 * the poll runs at once, at 100 Mbit/s.
 * - Posting 30 packets at t = 0: after post k, 64 - 2k descriptors are free; post 23 leaves
 *   18 < 19 and stops the queue. Raw Send() ignores the stop, and posts 24 to 30 still fit
 *   (post 30 leaves 4 free).
 * - Frame k ends at k * T and its poll reclaims it; after frame j, 30 - j packets hold
 *   2 * (30 - j) descriptors, so 4 + 2j are free: at least 32 first at j = 14.
 *   The queue wakes at 14 * T = 1722.56 us.
 */
class NicStopWakeTestCase : public TestCase
{
  public:
    NicStopWakeTestCase()
        : TestCase("Stop and wake at the driver's thresholds (e1000e-like)")
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        helper.SetDeviceAttribute("TxRingSize", UintegerValue(64));
        helper.SetDeviceAttribute("TxContextDescriptor", BooleanValue(true));
        helper.SetDeviceAttribute("TxMaxDataPerDescriptor", UintegerValue(24576));
        helper.SetDeviceAttribute("TxStopThreshold", UintegerValue(19));
        helper.SetDeviceAttribute("TxWakeThreshold", UintegerValue(32));
        Link link = MakeLink(helper);
        std::vector<Time> wakes;
        link.txQueue->SetWakeCallback(MakeBoundCallback(&NicStopWakeTestCase::Woken, &wakes));
        Simulator::ScheduleNow(&NicStopWakeTestCase::Post, this, &link);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(wakes.size(), 1, "one wake");
        NS_TEST_EXPECT_MSG_EQ(wakes[0], NanoSeconds(123040) * 14, "at 14 T");
        NS_TEST_EXPECT_MSG_EQ(link.tx->GetStats().txPackets, 30, "all 30 sent");
        Simulator::Destroy();
    }

    /**
     * Posts 30 packets, checking the stop after each.
     * @param link the link
     */
    void Post(Link* link)
    {
        for (uint32_t k = 1; k <= 30; k++)
        {
            link->tx->Send(Create<Packet>(1500), link->rx->GetAddress(), 0x0800);
            NS_TEST_EXPECT_MSG_EQ(link->txQueue->IsStopped(), (k >= 23), "after post " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(link->tx->GetTxRing(0).GetUnused(), 4, "64 - 2 * 30");
    }

    /**
     * Records a wake.
     * @param wakes the record
     */
    static void Woken(std::vector<Time>* wakes)
    {
        wakes->push_back(Simulator::Now());
    }
};

/**
 * @ingroup debloat-tests
 * @brief TX completions are batched by tx-usecs or tx-frames.
 *
 * 1 Gbit/s, T = 12.304 us, 64 frames posted at t = 0; frame k ends at k * T.
 * - tx-usecs 100: the interrupt fires 100 us after the first completion it carries. The
 *   first: 12.304 + 100 = 112.304 us, when frames 1..9 are done (9 T = 110.736 us, 10 T =
 *   123.04 us): the poll reclaims 9. The next interrupt is 100 us after frame 10:
 *   223.04 us, carrying frames 10..18 (18 T = 221.472 us); and so on, 9 per poll, each poll at
 *   (9n + 1) T + 100 us, until the last (frames 64: 64 T + 100 us... it carries 64 - 63 = 1).
 * - tx-frames 16 (with tx-usecs 1000 as the backstop): the interrupt fires at the 16th
 *   completion: 16 T, 32 T, 48 T, 64 T, each poll reclaiming 16.
 * - tx-frames 16 with a constant SoftirqDelay of 10 us: each poll runs 10 us after its
 *   interrupt, at 16 n T + 10 us; frame 16 n + 1 ends 12.304 us after 16 n T, later than the
 *   poll, so each poll still reclaims 16.
 */
class NicCoalescingTestCase : public TestCase
{
  public:
    /**
     * @param frames true for tx-frames 16, false for tx-usecs 100
     * @param softirq the constant delay from interrupt to poll
     */
    NicCoalescingTestCase(bool frames, Time softirq)
        : TestCase(std::string(frames ? "Completion batching under tx-frames 16"
                                      : "Completion batching under tx-usecs 100") +
                   (softirq.IsZero() ? "" : ", poll 10 us after the interrupt")),
          m_frames(frames),
          m_softirq(softirq)
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        if (m_frames)
        {
            helper.SetDeviceAttribute("TxFrames", UintegerValue(16));
            helper.SetDeviceAttribute("TxUsecs", TimeValue(MicroSeconds(1000)));
        }
        else
        {
            helper.SetDeviceAttribute("TxUsecs", TimeValue(MicroSeconds(100)));
        }
        std::ostringstream delay;
        delay << "ns3::ConstantRandomVariable[Constant=" << m_softirq.GetSeconds() << "]";
        helper.SetDeviceAttribute("SoftirqDelay", StringValue(delay.str()));
        Link link = MakeLink(helper);
        PollLog polls;
        NS_TEST_ASSERT_MSG_EQ(
            link.tx->TraceConnectWithoutContext("Poll", MakeBoundCallback(&RecordPoll, &polls)),
            true,
            "Poll");
        Simulator::ScheduleNow(&SendBurst, &link, 64);
        Simulator::Run();

        const Time t = NanoSeconds(12304);
        PollLog expected;
        if (m_frames)
        {
            for (int64_t n = 1; n <= 4; n++)
            {
                expected.emplace_back(t * (16 * n) + m_softirq, 16);
            }
        }
        else
        {
            // Polls at (9n + 1) T + 100 us for n = 0..7 reclaim 9 frames each (72 > 64: the
            // last, n = 7 at 64 T + 100 us, reclaims 64 - 63 = 1).
            for (int64_t n = 0; n <= 7; n++)
            {
                const int64_t first = 9 * n + 1;
                expected.emplace_back(t * first + MicroSeconds(100),
                                      static_cast<uint32_t>(std::min<int64_t>(9, 65 - first)));
            }
        }
        NS_TEST_ASSERT_MSG_EQ(polls.size(), expected.size(), "polls that reclaimed");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(polls[i].first, expected[i].first, "poll " << i);
            NS_TEST_EXPECT_MSG_EQ(polls[i].second, expected[i].second, "poll " << i);
        }
        Simulator::Destroy();
    }

    bool m_frames;  ///< tx-frames rather than tx-usecs
    Time m_softirq; ///< interrupt to poll
};

/**
 * @ingroup debloat-tests
 * @brief Frames that find the RX ring full are dropped as rx_missed.
 *
 * The receiver has 8 RX descriptors and rx-usecs 1000: its first RX interrupt comes 1 ms
 * after the first frame, long after the 20-frame burst at 1 Gbit/s has arrived (20 T =
 * 246.08 us). Frames 1..8 take the ring, frames 9..20 are missed: rx_missed = 12, and the
 * poll passes 8 frames up.
 */
class NicRxOverflowTestCase : public TestCase
{
  public:
    NicRxOverflowTestCase()
        : TestCase("RX ring overflow counts rx_missed")
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetDeviceAttribute("RxRingSize", UintegerValue(8));
        helper.SetDeviceAttribute("RxUsecs", TimeValue(MicroSeconds(1000)));
        Link link = MakeLink(helper);
        Simulator::ScheduleNow(&SendBurst, &link, 20);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(link.rx->GetStats().rxMissed, 12, "rx_missed");
        NS_TEST_EXPECT_MSG_EQ(link.rx->GetStats().rxPackets, 8, "passed up");
        NS_TEST_EXPECT_MSG_EQ(link.rx->GetRxRing().GetUsed(), 0, "ring emptied by the poll");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Every packet given to Send() is on the wire, dropped with a reason, or still in a
 * ring.
 *
 * 100 packets at t = 0 into a 32-descriptor ring (one descriptor each, stop threshold 1):
 * 32 fit and 68 are dropped as TX_RING_FULL (raw Send() ignores the stopped queue). The run
 * is stopped at 10.5 T at 100 Mbit/s: 10 frames are done, the 11th is on the wire, and with
 * tx-usecs 10 ms no completion has been reclaimed, so 32 packets are still in the ring.
 */
class NicConservationTestCase : public TestCase
{
  public:
    NicConservationTestCase()
        : TestCase("Conservation: sent, dropped with a reason, or in a ring")
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
        helper.SetDeviceAttribute("TxRingSize", UintegerValue(32));
        helper.SetDeviceAttribute("TxUsecs", TimeValue(MilliSeconds(10)));
        Link link = MakeLink(helper);
        uint32_t ringFull = 0;
        NS_TEST_ASSERT_MSG_EQ(
            link.tx->TraceConnectWithoutContext(
                "Drop",
                MakeBoundCallback(&NicConservationTestCase::CountDrop, &ringFull)),
            true,
            "Drop");
        Simulator::ScheduleNow(&SendBurst, &link, 100);
        Simulator::Stop(NanoSeconds(123040 * 21 / 2));
        Simulator::Run();
        const auto& stats = link.tx->GetStats();
        const auto& ring = link.tx->GetTxRing(0);
        NS_TEST_EXPECT_MSG_EQ(ringFull, 68, "TX_RING_FULL drops");
        NS_TEST_EXPECT_MSG_EQ(stats.txDropped, 68, "tx_dropped");
        NS_TEST_EXPECT_MSG_EQ(stats.txPackets, 10, "on the wire and done");
        NS_TEST_EXPECT_MSG_EQ(ring.GetPackets(), 32, "in the ring");
        NS_TEST_EXPECT_MSG_EQ(ring.GetDone(), 10, "done, not reclaimed");
        NS_TEST_EXPECT_MSG_EQ(ring.GetFetched(), 1, "on the wire");
        NS_TEST_EXPECT_MSG_EQ(stats.txDropped + ring.GetPackets(), 100, "conservation");
        Simulator::Destroy();
    }

    /**
     * Counts TX_RING_FULL drops.
     * @param count the counter
     * @param packet the packet
     * @param reason the reason
     */
    static void CountDrop(uint32_t* count,
                          Ptr<const Packet> packet,
                          NicNetDevice::DropReason reason)
    {
        if (reason == NicNetDevice::TX_RING_FULL)
        {
            (*count)++;
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief Invalid settings stop with a message naming them.
 */
class NicBadConfigTestCase : public TestCase
{
  public:
    NicBadConfigTestCase()
        : TestCase("Invalid NIC settings stop with a message")
    {
    }

  private:
    /**
     * Expects a link with one bad setting to stop once it starts.
     * @param name attribute name
     * @param value attribute value
     * @param expected text the message must contain
     */
    void ExpectStop(const std::string& name, const std::string& value, const std::string& expected)
    {
        const auto outcome = debloattest::RunInChild([&name, &value]() {
            NicHelper helper;
            helper.SetDeviceAttribute(name, StringValue(value));
            Link link = MakeLink(helper);
            Simulator::ScheduleNow(&SendBurst, &link, 1);
            Simulator::Run();
        });
        NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, name << "=" << value);
        NS_TEST_EXPECT_MSG_NE(outcome.output.find(expected), std::string::npos, outcome.output);
    }

    void DoRun() override
    {
        ExpectStop("DataRate", "0bps", "DataRate (ethtool speed) must be positive");
        ExpectStop("TxRingSize", "1", "TxRingSize=1 cannot hold a worst-case packet");
        ExpectStop("TxWakeThreshold", "0", "TxWakeThreshold=0 is below TxStopThreshold=1");
        ExpectStop("TxQueues", "65", "TxQueues=65 is out of range; accepted 1 to 64");
        ExpectStop("TxFrames", "8", "a frame count above 1 needs a timer");
        ExpectStop("DynamicItr", "i40e", "DynamicItr=i40e is unknown; accepted: none, e1000e");
    }
};

/**
 * @ingroup debloat-tests
 * @brief Stop and wake at each driver profile's own thresholds.
 *
 * Interrupt moderation is switched off (every completion interrupts and is reclaimed at once)
 * so that only the ring arithmetic shows. With R descriptors of which the driver counts
 * U = R - g as usable (g = TxRingGap: e1000e and igb count size - used - 1 free), d per
 * 1514-byte frame, stop below S free and wake at W free, a driver that posts until the
 * queue stops:
 * - stops after post k = floor((U - S) / d) + 1, the first to leave U - d k < S free;
 * - wakes after reclaiming j = k - floor((U - W) / d) frames, the first count that leaves
 *   U - d (k - j) >= W free; frame j ends, and is reclaimed, at j T.
 * The ideal profile reclaims a frame when it starts: post 1 leaves the ring at once, so it
 * stops after k + 1 posts, and the frame reclaimed j-th after the stop starts at j T.
 * For example e1000e: R 256, g 1, d 2, S 22, W 32: k = floor(233 / 2) + 1 = 117,
 * j = 117 - floor(223 / 2) = 6; iwl3945: R 256, g 0, d 1, S 34, W 67: k = 223 (the seed's
 * "about 223"), j = 34. mvneta wakes at half its stop point in used descriptors
 * (tx_wake_threshold = tx_stop_threshold / 2 with tx_stop_threshold = U - (S - 1) used), so
 * W = U - floor((U - S + 1) / 2) for any ring: at its 1024, d 1, S 218: W = 1024 - 403 = 621,
 * k = 807, j = 404; at the seed's 2015 ring of 532 (ethtool -G tx 532): W = 532 - 157 = 375,
 * k = 315, j = 158.
 */
class NicProfileThresholdTestCase : public TestCase
{
  public:
    /**
     * @param profile the profile
     * @param txRing the TX ring size (0: the profile's)
     */
    explicit NicProfileThresholdTestCase(const std::string& profile, uint32_t txRing = 0)
        : TestCase("Stop and wake at the " + profile + " thresholds" +
                   (txRing > 0 ? " with a ring of " + std::to_string(txRing) : std::string())),
          m_profile(profile),
          m_txRing(txRing)
    {
    }

  private:
    /**
     * Reads an unsigned attribute.
     * @param device the device
     * @param name the attribute
     * @return its value
     */
    static uint32_t Get(Ptr<NicNetDevice> device, const std::string& name)
    {
        UintegerValue value;
        device->GetAttribute(name, value);
        return static_cast<uint32_t>(value.Get());
    }

    void DoRun() override
    {
        NicHelper helper;
        helper.SetProfile(m_profile);
        helper.SetDeviceAttribute("TxUsecs", TimeValue(Seconds(0)));
        helper.SetDeviceAttribute("TxPacketDelay", TimeValue(Seconds(0)));
        helper.SetDeviceAttribute("TxFrames", UintegerValue(0));
        helper.SetDeviceAttribute("InterruptRate", UintegerValue(0));
        helper.SetDeviceAttribute("SlowLinkInterruptRate", UintegerValue(0));
        helper.SetDeviceAttribute("DynamicItr", StringValue("none"));
        if (m_txRing > 0)
        {
            helper.SetDeviceAttribute("TxRingSize", UintegerValue(m_txRing));
        }
        m_link = MakeLink(helper);
        Ptr<NicNetDevice> tx = m_link.tx;
        const uint32_t ring = Get(tx, "TxRingSize") - Get(tx, "TxRingGap");
        const uint32_t d = debloattest::ExpectedDescriptors(tx, 1514);
        const uint32_t stop = Get(tx, "TxStopThreshold");
        BooleanValue halfStop;
        tx->GetAttribute("TxWakeAtHalfStop", halfStop);
        const uint32_t wake =
            halfStop.Get() ? ring - (ring - (stop - 1)) / 2 : Get(tx, "TxWakeThreshold");
        BooleanValue atStart;
        tx->GetAttribute("CompletionAtTxStart", atStart);
        const uint32_t k = (ring - stop) / d + 1 + (atStart.Get() ? 1 : 0);
        const int64_t j = k - (atStart.Get() ? 1 : 0) - (ring - wake) / d;
        const Time t = debloattest::ExpectedWireTime(tx, 1514);
        m_link.txQueue->SetWakeCallback(MakeCallback(&NicProfileThresholdTestCase::Woken, this));
        Simulator::ScheduleNow(&NicProfileThresholdTestCase::PostUntilStopped, this);
        Simulator::Stop(t * (j + 1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_posts, k, "posts until the queue stopped");
        NS_TEST_ASSERT_MSG_EQ(m_wakes.size(), 1, "one wake");
        NS_TEST_EXPECT_MSG_EQ(m_wakes[0], t * j, "wake time");
        Simulator::Destroy();
    }

    /// Posts full-size frames until the driver stops the queue.
    void PostUntilStopped()
    {
        while (!m_link.txQueue->IsStopped() && m_posts < 100000)
        {
            m_link.tx->Send(Create<Packet>(1500), m_link.rx->GetAddress(), 0x0800);
            m_posts++;
        }
    }

    /// The queue's wake callback.
    void Woken()
    {
        m_wakes.push_back(Simulator::Now());
    }

    std::string m_profile;     ///< profile
    uint32_t m_txRing;         ///< TX ring size (0: the profile's)
    Link m_link;               ///< the link
    uint32_t m_posts{0};       ///< posts made
    std::vector<Time> m_wakes; ///< wake times
};

/**
 * @ingroup debloat-tests
 * @brief NAPI passes received frames up in batches of at most NapiWeight.
 *
 * The receiver has NapiWeight 4 and rx-usecs 1 ms, so all 10 frames of a burst at 1 Gbit/s
 * (10 T = 123.04 us) are in its RX ring when the first RX interrupt comes. The poll passes up
 * 4, stays scheduled because it used its whole weight, and the re-polls (no softirq delay)
 * pass 4 and then 2: the Poll trace shows RX counts 4, 4, 2.
 */
class NicNapiWeightTestCase : public TestCase
{
  public:
    NicNapiWeightTestCase()
        : TestCase("NAPI weight bounds the RX frames per poll")
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetDeviceAttribute("NapiWeight", UintegerValue(4));
        helper.SetDeviceAttribute("RxUsecs", TimeValue(MilliSeconds(1)));
        Link link = MakeLink(helper);
        NS_TEST_ASSERT_MSG_EQ(
            link.rx->TraceConnectWithoutContext("Poll",
                                                MakeCallback(&NicNapiWeightTestCase::Poll, this)),
            true,
            "Poll trace");
        Simulator::ScheduleNow(&SendBurst, &link, 10);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ((m_rx == std::vector<uint32_t>{4, 4, 2}), true, "RX per poll");
        NS_TEST_EXPECT_MSG_EQ(link.rx->GetStats().rxPackets, 10, "all passed up");
        Simulator::Destroy();
    }

    /**
     * Records the RX count of each poll that passed frames up.
     * @param vector the vector
     * @param txPackets TX packets reclaimed
     * @param txBytes their bytes
     * @param rxPackets RX packets passed up
     */
    void Poll(uint32_t vector, uint32_t txPackets, uint64_t txBytes, uint32_t rxPackets)
    {
        if (rxPackets > 0)
        {
            m_rx.push_back(rxPackets);
        }
    }

    std::vector<uint32_t> m_rx; ///< RX frames per poll
};

/**
 * @ingroup debloat-tests
 * @brief A poll that uses exactly its budget is polled again before the interrupt is
 * re-enabled.
 *
 * The receiver has NapiWeight 4, rx-usecs 1 ms and a constant SoftirqDelay of 10 us; four
 * frames at t = 0 arrive at T, 2T, 3T, 4T (T = 12.304 us, no propagation delay). The RX
 * interrupt comes 1 ms after the first, at T + 1000 us, and its poll at T + 1010 us passes
 * up all four. That is the whole weight, so the driver returns its budget without
 * napi_complete_done() (e1000e_poll: work_done == budget) and net_rx_action() polls it again
 * in the next softirq run, SoftirqDelay later, at T + 1020 us: 0 frames, below the weight,
 * so it completes and re-enables the interrupt. One interrupt, two polls: RX 4 then 0.
 *
 * With a fifth frame sent at 1015 us, it arrives at T + 1015 us, between the two polls,
 * while the interrupt is still masked: the repoll at T + 1020 us passes it up (1 < 4, it
 * completes). Its cause stayed latched, so the re-enabled interrupt fires at its rx-usecs
 * deadline T + 2015 us, and that poll, at T + 2025 us, finds nothing. Had the first poll
 * completed, the fifth frame would have waited for that interrupt.
 */
class NicNapiExactBudgetTestCase : public TestCase
{
  public:
    /// @param frameBetween whether a fifth frame arrives between the poll and the repoll
    explicit NicNapiExactBudgetTestCase(bool frameBetween)
        : TestCase(frameBetween ? "A frame arriving before the repoll goes up without waiting"
                                : "A poll that used exactly its weight is polled again"),
          m_frameBetween(frameBetween)
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetDeviceAttribute("NapiWeight", UintegerValue(4));
        helper.SetDeviceAttribute("RxUsecs", TimeValue(MilliSeconds(1)));
        helper.SetDeviceAttribute("SoftirqDelay",
                                  StringValue("ns3::ConstantRandomVariable[Constant=0.00001]"));
        Link link = MakeLink(helper);
        NS_TEST_ASSERT_MSG_EQ(link.rx->TraceConnectWithoutContext(
                                  "Poll",
                                  MakeCallback(&NicNapiExactBudgetTestCase::Poll, this)),
                              true,
                              "Poll trace");
        Simulator::ScheduleNow(&SendBurst, &link, 4);
        if (m_frameBetween)
        {
            Simulator::Schedule(MicroSeconds(1015), &SendBurst, &link, 1);
        }
        Simulator::Run();

        const Time t = NanoSeconds(12304);
        std::vector<std::pair<Time, uint32_t>> expected{{t + MicroSeconds(1010), 4}};
        if (m_frameBetween)
        {
            expected.emplace_back(t + MicroSeconds(1020), 1);
            expected.emplace_back(t + MicroSeconds(2025), 0);
        }
        else
        {
            expected.emplace_back(t + MicroSeconds(1020), 0);
        }
        NS_TEST_ASSERT_MSG_EQ(m_polls.size(), expected.size(), "polls of the receiver");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_polls[i].first, expected[i].first, "poll " << i << ": time");
            NS_TEST_EXPECT_MSG_EQ(m_polls[i].second, expected[i].second, "poll " << i << ": RX");
        }
        const auto& stats = link.rx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(stats.interrupts, (m_frameBetween ? 2 : 1), "interrupts");
        NS_TEST_EXPECT_MSG_EQ(stats.polls, expected.size(), "polls");
        NS_TEST_EXPECT_MSG_EQ(stats.rxPackets, (m_frameBetween ? 5 : 4), "all passed up");
        Simulator::Destroy();
    }

    /**
     * Records every poll of the receiver.
     * @param vector the vector
     * @param txPackets TX packets reclaimed
     * @param txBytes their bytes
     * @param rxPackets RX packets passed up
     */
    void Poll(uint32_t vector, uint32_t txPackets, uint64_t txBytes, uint32_t rxPackets)
    {
        m_polls.emplace_back(Simulator::Now(), rxPackets);
    }

    bool m_frameBetween;                            ///< a fifth frame between the polls
    std::vector<std::pair<Time, uint32_t>> m_polls; ///< (time, RX frames) of each poll
};

/**
 * @ingroup debloat-tests
 * @brief igb's adaptive throttle follows the vector count: igb_set_itr() with one vector,
 * igb_update_ring_itr() with several.
 *
 * The igb profile (dynamic conservative ITR, no coalescing timers) at 1 Gbit/s sends 40
 * frames posted at t = 0; frame k is done at k T (T = 12.304 us) and each completion
 * asserts at once unless EITR holds it. Interrupt 1 at T (none before) writes IGB_START_ITR
 * 648 (162 us); its poll reclaims frame 1 and chooses the next value. Interrupt 2 comes at
 * T + 162 us and writes it; its poll reclaims frames 2 to 14 (14 T <= T + 162 us < 15 T).
 * - TxQueues 1 (one q_vector, igb_set_itr()): after 1 frame of 1514 bytes, TX goes from
 *   lowest_latency to low_latency (fewer than 5 packets, more than 512 bytes): IGB_20K_ITR
 *   196, 49 us, so interrupt 3 at T + 211 us. After 13 frames (19682 bytes > 10000, 1514 per
 *   packet > 1200): bulk_latency, IGB_4K_ITR 980, 245 us: interrupt 4 at T + 456 us.
 * - TxQueues 8 (igb_update_ring_itr()): (1514 + 24) / 2 = 769 each time, written as 768:
 *   192 us, so interrupts 3 and 4 at T + 354 us and T + 546 us (frame 40 is done at 40 T =
 *   T + 479.856 us, before the 4th).
 */
class NicIgbThrottleTestCase : public TestCase
{
  public:
    /// @param queues the igb's TX queues (and vectors)
    explicit NicIgbThrottleTestCase(uint32_t queues)
        : TestCase("igb's throttle with " + std::to_string(queues) + " TX queue(s)"),
          m_queues(queues)
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetProfile("igb");
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetDeviceAttribute("TxQueues", UintegerValue(m_queues));
        Link link = MakeLink(helper);
        NS_TEST_ASSERT_MSG_EQ(link.tx->TraceConnectWithoutContext(
                                  "Interrupt",
                                  MakeCallback(&NicIgbThrottleTestCase::Interrupt, this)),
                              true,
                              "Interrupt trace");
        Simulator::ScheduleNow(&SendBurst, &link, 40);
        Simulator::Run();
        const Time t = NanoSeconds(12304);
        const std::vector<Time> expected = m_queues == 1 ? std::vector<Time>{t,
                                                                             t + MicroSeconds(162),
                                                                             t + MicroSeconds(211),
                                                                             t + MicroSeconds(456)}
                                                         : std::vector<Time>{t,
                                                                             t + MicroSeconds(162),
                                                                             t + MicroSeconds(354),
                                                                             t + MicroSeconds(546)};
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_interrupts.size(), expected.size(), "interrupts");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_interrupts[i], expected[i], "interrupt " << i + 1);
        }
        Simulator::Destroy();
    }

    /**
     * Records the time of each interrupt of the sender.
     * @param vector the vector
     * @param tx TX completions it carries
     * @param rx RX frames it carries
     */
    void Interrupt(uint32_t vector, uint32_t tx, uint32_t rx)
    {
        m_interrupts.push_back(Simulator::Now());
    }

    uint32_t m_queues;              ///< TX queues
    std::vector<Time> m_interrupts; ///< interrupt times
};

/**
 * @ingroup debloat-tests
 * @brief pcap traces are Ethernet (DLT_EN10MB) and hold every frame.
 *
 * Three frames from device 0. The Sniffer traces of both devices, written to DLT_EN10MB pcap
 * files as NicHelper::EnablePcap writes them, hold three records of 1514 bytes each (the
 * frame without FCS). The helper's own files are made too, but stay open until the end of
 * the process, so the check reads files it can close.
 */
class NicPcapTestCase : public TestCase
{
  public:
    NicPcapTestCase()
        : TestCase("pcap traces are DLT_EN10MB with every frame")
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        Link link = MakeLink(helper);
        const std::string prefix = CreateTempDirFilename("nic-pcap");
        SystemPath::MakeDirectories(prefix.substr(0, prefix.rfind('/')));
        helper.EnablePcap(prefix + "-helper", link.tx, false, true);
        PcapHelper pcap;
        std::vector<Ptr<PcapFileWrapper>> files;
        for (Ptr<NicNetDevice> device : {link.tx, link.rx})
        {
            files.push_back(pcap.CreateFile(prefix + "-" + std::to_string(files.size()),
                                            std::ios::out,
                                            PcapHelper::DLT_EN10MB));
            pcap.HookDefaultSink<NicNetDevice>(device, "Sniffer", files.back());
        }
        Simulator::ScheduleNow(&SendBurst, &link, 3);
        Simulator::Run();
        Simulator::Destroy();
        for (std::size_t i = 0; i < files.size(); i++)
        {
            files[i]->Close();
            const std::string name = prefix + "-" + std::to_string(i);
            PcapFile file;
            file.Open(name, std::ios::in);
            NS_TEST_ASSERT_MSG_EQ(file.Fail(), false, "open " << name);
            NS_TEST_EXPECT_MSG_EQ(file.GetDataLinkType(), 1, "DLT_EN10MB");
            uint32_t records = 0;
            std::vector<uint8_t> data(65536);
            uint32_t tsSec;
            uint32_t tsUsec;
            uint32_t inclLen;
            uint32_t origLen;
            uint32_t readLen;
            while (true)
            {
                file.Read(data.data(), data.size(), tsSec, tsUsec, inclLen, origLen, readLen);
                if (file.Fail() || file.Eof())
                {
                    break;
                }
                records++;
                NS_TEST_EXPECT_MSG_EQ(origLen, 1514, "frame length");
            }
            NS_TEST_EXPECT_MSG_EQ(records, 3, "records in " << name);
            file.Close();
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief The ideal profile reports completions as ns-3's PointToPointNetDevice does.
 *
 * The same producer runs on a 10 Mbit/s PointToPoint link and on an ideal NIC link, each with
 * ByteQueueLimits (Hz 1000) on its TX queue: like a queue disc, it sends 1000-byte packets
 * while the queue is not stopped and again on every wake, 1300 in all. Frames are
 * s = 1002 bytes (PPP header 2) and 1014 bytes (Ethernet header 14), taking T = 801.6 us and
 * 811.2 us. Both devices report a frame complete when it starts on the wire, so BQL follows
 * the trajectory derived in the debloat-byte-queue-limits suite, in units of s and T:
 * limit s at 0 (the first completion starves a fresh queue), 2s at 2T (completed =
 * prev_num_queued with prev_ovlimit = s), then s at the first completion k with jiffies
 * > jiffy(2T) + 1000 = 1001, i.e. k T >= 1.002 s, and 2s again at (k + 2) T.
 * PointToPoint: k = 1250 (1250 x 801.6 us = 1.002 s exactly); ideal NIC: k = 1236
 * (1235 x 811.2 us = 1001.832 ms is too early).
 */
class NicIdealLikePointToPointTestCase : public TestCase
{
  public:
    NicIdealLikePointToPointTestCase()
        : TestCase("The ideal profile reports completions like PointToPoint")
    {
    }

  private:
    /// A producer that refills the device queue like a queue disc.
    struct Producer
    {
        Ptr<NetDevice> device;     ///< sending device
        Address destination;       ///< peer address
        Ptr<NetDeviceQueue> queue; ///< its TX queue
        uint32_t remaining{1300};  ///< packets still to send

        /// Sends while the queue runs.
        void Refill()
        {
            while (remaining > 0 && !queue->IsStopped())
            {
                remaining--;
                device->Send(Create<Packet>(1000), destination, 0x0800);
            }
        }
    };

    /**
     * Runs the producer on a link and logs the limit.
     * @param devices the two devices
     * @return the limit log
     */
    static std::vector<std::pair<Time, uint32_t>> Run(const NetDeviceContainer& devices)
    {
        ByteQueueLimitsHelper bql;
        bql.Install(devices.Get(0));
        std::vector<std::pair<Time, uint32_t>> limits;
        ByteQueueLimitsHelper::Get(devices.Get(0), 0)
            ->TraceConnectWithoutContext(
                "Limit",
                MakeBoundCallback(&NicIdealLikePointToPointTestCase::Log, &limits));
        Producer producer;
        producer.device = devices.Get(0);
        producer.destination = devices.Get(1)->GetAddress();
        producer.queue = devices.Get(0)->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0);
        producer.queue->SetWakeCallback(MakeCallback(&Producer::Refill, &producer));
        Simulator::ScheduleNow(&Producer::Refill, &producer);
        Simulator::Run();
        Simulator::Destroy();
        return limits;
    }

    /**
     * Logs a limit change.
     * @param log the log
     * @param oldValue previous limit
     * @param newValue new limit
     */
    static void Log(std::vector<std::pair<Time, uint32_t>>* log,
                    uint32_t oldValue,
                    uint32_t newValue)
    {
        log->emplace_back(Simulator::Now(), newValue);
    }

    /**
     * Checks a log against the trajectory.
     * @param log the log
     * @param s frame bytes
     * @param t frame time
     * @param k the completion that shrinks the limit
     * @param who which device
     */
    void Check(const std::vector<std::pair<Time, uint32_t>>& log,
               uint32_t s,
               Time t,
               int64_t k,
               const std::string& who)
    {
        const std::vector<std::pair<Time, uint32_t>> expected{{Seconds(0), s},
                                                              {t * 2, 2 * s},
                                                              {t * k, s},
                                                              {t * (k + 2), 2 * s}};
        NS_TEST_ASSERT_MSG_EQ(log.size(), expected.size(), who << ": limit changes");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(log[i].first, expected[i].first, who << " change " << i);
            NS_TEST_EXPECT_MSG_EQ(log[i].second, expected[i].second, who << " change " << i);
        }
    }

    void DoRun() override
    {
        NodeContainer p2pNodes;
        p2pNodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        Check(Run(p2p.Install(p2pNodes)), 1002, NanoSeconds(801600), 1250, "PointToPoint");

        NodeContainer nicNodes;
        nicNodes.Create(2);
        NicHelper nic;
        nic.SetProfile("ideal");
        nic.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        Check(Run(nic.Install(nicNodes)), 1014, NanoSeconds(811200), 1236, "ideal NIC");
    }
};

/**
 * @ingroup debloat-tests
 * @brief AssignStreams makes the random parts of a device repeatable.
 *
 * The flow-hash key is drawn from the device's random stream: the same stream number gives
 * the same key in a new simulation, another stream number another key.
 */
class NicAssignStreamsTestCase : public TestCase
{
  public:
    NicAssignStreamsTestCase()
        : TestCase("AssignStreams fixes the flow-hash key")
    {
    }

  private:
    /**
     * Builds a link, assigns streams and reads the sender's key.
     * @param stream the first stream number
     * @return the key
     */
    static uint32_t KeyFor(int64_t stream)
    {
        NicHelper helper;
        Link link = MakeLink(helper);
        NetDeviceContainer devices;
        devices.Add(link.tx);
        devices.Add(link.rx);
        const int64_t used = NicHelper::AssignStreams(devices, stream);
        const uint32_t key = link.tx->GetFlowHashKey();
        Simulator::Destroy();
        return used == 4 ? key : 0;
    }

    void DoRun() override
    {
        const uint32_t first = KeyFor(10);
        NS_TEST_EXPECT_MSG_EQ(KeyFor(10), first, "same stream, same key");
        NS_TEST_EXPECT_MSG_NE(KeyFor(20), first, "another stream, another key");
    }
};

/**
 * @ingroup debloat-tests
 * @brief A device's interrupts and polls run in its node's context, whatever event set them,
 * so frames go up the stack in the receiving node's context.
 *
 * Node A sends one 1500-byte frame from the main context (an event scheduled outside any
 * node, as a packet sent before Simulator::Run() or, in ns-3.35, IPv6's duplicate address
 * detection does). A has tx-usecs = rx-usecs = 100 us; B has no moderation. The frame's
 * last bit leaves A at T = 12.304 us (1538 bytes on the wire at 1 Gbit/s), which sets A's
 * interrupt for T + 100 us = 112.304 us; B receives it at T + 1 us, polls at once and
 * answers with 46 bytes, a minimum frame (64 bytes with the FCS, 84 on the wire: 0.672 us),
 * whose last bit reaches A at T + 1 + 0.672 + 1 us = 14.976 us. A's RX moderation would fire at
 * 114.976 us, after the pending interrupt, which therefore carries the answer: the poll at 112.304
 * us passes it up. Had A's interrupt taken the context of the event that set it (the main context),
 * the answer would go up outside node A (Node::ReceiveFromDevice() asserts this where asserts are
 * on). Expected: A's handler runs once, at 112.304 us, in A's context; B's once, in B's.
 */
class NicNodeContextTestCase : public TestCase
{
  public:
    NicNodeContextTestCase()
        : TestCase("Interrupts and polls run in the device's node's context")
    {
    }

  private:
    /// The EtherType of the test frames (IEEE local experimental).
    static constexpr uint16_t PROTOCOL = 0x88B5;

    /// A received frame: the time and the context it went up in.
    struct Arrival
    {
        Time at;          ///< when
        uint32_t context; ///< Simulator::GetContext() then
    };

    /**
     * Both nodes' handler: records the frame; B answers it.
     * @param device the receiving device
     * @param packet the frame's payload
     * @param protocol its EtherType
     * @param from the sender
     * @param to the destination
     * @param type the packet type
     */
    void Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from,
                 const Address& to,
                 NetDevice::PacketType type)
    {
        const bool atB = device == m_b;
        (atB ? m_atB : m_atA).push_back({Simulator::Now(), Simulator::GetContext()});
        if (atB)
        {
            device->Send(Create<Packet>(46), from, PROTOCOL); // a 64-byte frame
        }
    }

    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        Link link = MakeLink(helper);
        link.tx->SetAttribute("TxUsecs", TimeValue(MicroSeconds(100)));
        link.tx->SetAttribute("RxUsecs", TimeValue(MicroSeconds(100)));
        Ptr<Node> a = link.nodes.Get(0);
        Ptr<Node> b = link.nodes.Get(1);
        m_b = link.rx;
        a->RegisterProtocolHandler(MakeCallback(&NicNodeContextTestCase::Receive, this),
                                   PROTOCOL,
                                   link.tx);
        b->RegisterProtocolHandler(MakeCallback(&NicNodeContextTestCase::Receive, this),
                                   PROTOCOL,
                                   link.rx);
        // Simulator::Schedule() from outside Simulator::Run(): the main context.
        compat::ScheduleFunction(Seconds(0), [&link]() {
            link.tx->Send(Create<Packet>(1500), link.rx->GetAddress(), PROTOCOL);
        });
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_atB.size(), 1, "B got the frame");
        NS_TEST_EXPECT_MSG_EQ(m_atB[0].context, b->GetId(), "up in B's context");
        NS_TEST_ASSERT_MSG_EQ(m_atA.size(), 1, "A got the answer");
        NS_TEST_EXPECT_MSG_EQ(m_atA[0].at, NanoSeconds(112304), "with A's TX interrupt");
        NS_TEST_EXPECT_MSG_EQ(m_atA[0].context, a->GetId(), "up in A's context");
        m_b = nullptr;
        Simulator::Destroy();
    }

    Ptr<NetDevice> m_b;         ///< B's device
    std::vector<Arrival> m_atA; ///< frames up at A
    std::vector<Arrival> m_atB; ///< frames up at B
};

/**
 * @ingroup debloat-tests
 * @brief NodeEvent, whose event object is scheduled again once it ran: each Schedule()
 * fires once, at its time and in its context, also when the handler schedules its own
 * event again; a pending event cancelled or rescheduled does not fire; Bind() replaces the
 * call.
 */
class NodeEventTestCase : public TestCase
{
  public:
    NodeEventTestCase()
        : TestCase("NodeEvent fires once per Schedule(), reused, cancelled and re-bound")
    {
    }

  private:
    /// One firing.
    struct Firing
    {
        uint32_t tag;     ///< the bound argument
        Time at;          ///< when
        uint32_t context; ///< Simulator::GetContext() then
    };

    /**
     * The bound call: records the firing; the first two firings of tag 1 schedule the event
     * again 10 ns later from inside the handler.
     * @param tag the bound argument
     */
    void Fire(uint32_t tag)
    {
        m_firings.push_back({tag, Simulator::Now(), Simulator::GetContext()});
        if (tag == 1 && ++m_repeats <= 2)
        {
            m_event.Schedule(7, NanoSeconds(10));
        }
    }

    void DoRun() override
    {
        m_event.Bind(&NodeEventTestCase::Fire, this, 1U);
        // Scheduled from the main context at 0 for 100 ns: fires at 100, 110 and 120 ns in
        // context 7 (the handler re-arms it twice).
        m_event.Schedule(7, NanoSeconds(100));
        // At 200 ns: scheduled for 300 ns, then moved to 250 ns (the 300 ns one is
        // cancelled); at 400 ns scheduled for 500 ns and cancelled at 450 ns.
        compat::ScheduleFunction(NanoSeconds(200), [this]() {
            m_event.Schedule(3, NanoSeconds(100));
            m_event.Schedule(3, NanoSeconds(50));
        });
        compat::ScheduleFunction(NanoSeconds(400),
                                 [this]() { m_event.Schedule(3, NanoSeconds(100)); });
        compat::ScheduleFunction(NanoSeconds(450), [this]() { m_event.Cancel(); });
        // At 600 ns re-bound to tag 2 and scheduled for 700 ns.
        compat::ScheduleFunction(NanoSeconds(600), [this]() {
            m_event.Bind(&NodeEventTestCase::Fire, this, 2U);
            m_event.Schedule(5, NanoSeconds(100));
        });
        Simulator::Run();

        const std::vector<Firing> expected{{1, NanoSeconds(100), 7},
                                           {1, NanoSeconds(110), 7},
                                           {1, NanoSeconds(120), 7},
                                           {1, NanoSeconds(250), 3},
                                           {2, NanoSeconds(700), 5}};
        NS_TEST_ASSERT_MSG_EQ(m_firings.size(), expected.size(), "firings");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_firings[i].tag, expected[i].tag, "call of firing " << i);
            NS_TEST_EXPECT_MSG_EQ(m_firings[i].at, expected[i].at, "time of firing " << i);
            NS_TEST_EXPECT_MSG_EQ(m_firings[i].context,
                                  expected[i].context,
                                  "context of firing " << i);
        }
        Simulator::Destroy();
    }

    NodeEvent m_event;             ///< the event under test
    uint32_t m_repeats{0};         ///< re-arms made by the handler
    std::vector<Firing> m_firings; ///< what fired
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-nic-net-device suite.
 */
class NicNetDeviceTestSuite : public TestSuite
{
  public:
    NicNetDeviceTestSuite()
        : TestSuite("debloat-nic-net-device", compat::SUITE_UNIT)
    {
        AddTestCase(new NodeEventTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicRingDrainTestCase("100Mbps", NanoSeconds(123040)), compat::TEST_QUICK);
        AddTestCase(new NicRingDrainTestCase("1Gbps", NanoSeconds(12304)), compat::TEST_QUICK);
        AddTestCase(new NicStopWakeTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicCoalescingTestCase(false, Seconds(0)), compat::TEST_QUICK);
        AddTestCase(new NicCoalescingTestCase(true, Seconds(0)), compat::TEST_QUICK);
        AddTestCase(new NicCoalescingTestCase(true, MicroSeconds(10)), compat::TEST_QUICK);
        AddTestCase(new NicRxOverflowTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicConservationTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicBadConfigTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicAssignStreamsTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicNapiWeightTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicNapiExactBudgetTestCase(false), compat::TEST_QUICK);
        AddTestCase(new NicNapiExactBudgetTestCase(true), compat::TEST_QUICK);
        AddTestCase(new NicIgbThrottleTestCase(1), compat::TEST_QUICK);
        AddTestCase(new NicIgbThrottleTestCase(8), compat::TEST_QUICK);
        AddTestCase(new NicPcapTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicIdealLikePointToPointTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicNodeContextTestCase(), compat::TEST_QUICK);
        for (const NicProfile& profile : NicProfile::GetAll())
        {
            AddTestCase(new NicProfileThresholdTestCase(profile.name), compat::TEST_QUICK);
        }
        AddTestCase(new NicProfileThresholdTestCase("mvneta", 532), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
NicNetDeviceTestSuite g_nicNetDeviceTestSuite;

} // namespace
