/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * ByteQueueLimits at work in simulation: on a NetDeviceQueue driven event by event, on a
 * PointToPoint device next to ns-3's DynamicQueueLimits, with stall detection, and with bad
 * configuration. The DQL formulas used in the derivations are listed in
 * test/unit/dql-test.cc.
 */

#include "debloat-test-utils.h"

#include "ns3/applications-module.h"
#include "ns3/byte-queue-limits-helper.h"
#include "ns3/byte-queue-limits.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <sstream>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// (time, new value) of each change of a traced limit.
using LimitLog = std::vector<std::pair<Time, uint32_t>>;

/**
 * Appends a limit change to a log.
 * @param log the log
 * @param oldValue previous limit
 * @param newValue new limit
 */
void
LogLimit(LimitLog* log, uint32_t oldValue, uint32_t newValue)
{
    log->emplace_back(Simulator::Now(), newValue);
}

/**
 * @ingroup debloat-tests
 * @brief A driver-like producer on one NetDeviceQueue: stop, wake and the hold time in
 * jiffies of Hz = 100.
 *
 * Timeline (Hz 100: one jiffy is 10 ms; HoldTime 100 ms = 10 jiffies):
 * - 0 ms: post 4000 bytes. The fresh limit is 0, so avail = -4000: the queue stops.
 * - 1 ms: complete 4000: starved, limit = 4000 (slack_start_time = jiffy 0); the queue
 *   wakes (wake 1). Post four 1000-byte objects: avail = 8000 - 8000 = 0, still running.
 * - 1 + 4k ms, k = 1, 2, ...: complete 1000, then post 1000 unless stopped. From k = 2 the
 *   queue is busy the whole interval with slack = POSDIFF(4000, 2 * 1000) = 2000.
 * - The limit shrinks at the first completion with jiffies > 0 + 10, i.e. at t >= 110 ms:
 *   k = 28, t = 113 ms, limit = 2000. avail after the completion = 2000 - 3000 < 0, which
 *   does not stop the queue by itself (as in Linux); the post that follows does.
 *   (ns-3's DynamicQueueLimits compares nanoseconds and would shrink at 105 ms.)
 * - k = 29 (117 ms): inflight 4000, avail = 2000 + 1000 - 4000 < 0: still stopped; the
 *   limit just changed, so prev_ovlimit = 0 and nothing starved.
 * - k = 30 (121 ms): inflight 3000 before, 2000 after: avail = 0, the queue wakes (wake 2)
 *   and the next post stops it again.
 */
class ByteQueueLimitsStopWakeTestCase : public TestCase
{
  public:
    ByteQueueLimitsStopWakeTestCase()
        : TestCase("Stop and wake of a NetDeviceQueue, hold time in jiffies of Hz=100")
    {
    }

  private:
    void DoRun() override
    {
        m_queue = CreateObject<NetDeviceQueue>();
        m_bql = CreateObjectWithAttributes<ByteQueueLimits>("Hz",
                                                            UintegerValue(100),
                                                            "HoldTime",
                                                            TimeValue(MilliSeconds(100)));
        m_queue->SetQueueLimits(m_bql);
        m_queue->SetWakeCallback(MakeCallback(&ByteQueueLimitsStopWakeTestCase::Woken, this));
        NS_TEST_ASSERT_MSG_EQ(
            m_bql->TraceConnectWithoutContext("Limit", MakeBoundCallback(&LogLimit, &m_limits)),
            true,
            "Limit trace");

        m_queue->NotifyQueuedBytes(4000);
        NS_TEST_EXPECT_MSG_EQ(m_queue->IsStopped(), true, "a fresh limit of 0 stops at once");
        Simulator::Schedule(MilliSeconds(1), &ByteQueueLimitsStopWakeTestCase::Start, this);
        for (int k = 1; k <= 30; k++)
        {
            Simulator::Schedule(MilliSeconds(1 + 4 * k),
                                &ByteQueueLimitsStopWakeTestCase::CompleteAndRefill,
                                this,
                                k);
        }
        Simulator::Run();

        const LimitLog expected{{MilliSeconds(1), 4000}, {MilliSeconds(113), 2000}};
        NS_TEST_ASSERT_MSG_EQ(m_limits.size(), expected.size(), "two limit changes");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_limits[i].first, expected[i].first, "change " << i);
            NS_TEST_EXPECT_MSG_EQ(m_limits[i].second, expected[i].second, "change " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(m_wakes, 2, "woken at 1 ms and at 121 ms");
        Simulator::Destroy();
    }

    /// Completes the first post and fills the queue to its new limit.
    void Start()
    {
        m_queue->NotifyTransmittedBytes(4000);
        NS_TEST_EXPECT_MSG_EQ(m_queue->IsStopped(), false, "woken by the first completion");
        for (int i = 0; i < 4; i++)
        {
            m_queue->NotifyQueuedBytes(1000);
        }
        NS_TEST_EXPECT_MSG_EQ(m_queue->IsStopped(), false, "avail = 0 does not stop");
    }

    /**
     * One TX completion of 1000 bytes followed by the driver's next post, if allowed.
     * @param k completion index
     */
    void CompleteAndRefill(int k)
    {
        m_queue->NotifyTransmittedBytes(1000);
        NS_TEST_EXPECT_MSG_EQ(m_queue->IsStopped(),
                              (k == 29),
                              "after completion " << k << " (stopped only before 121 ms)");
        if (!m_queue->IsStopped())
        {
            m_queue->NotifyQueuedBytes(1000);
        }
        NS_TEST_EXPECT_MSG_EQ(m_queue->IsStopped(),
                              (k >= 28),
                              "after the post following completion " << k);
    }

    /// The queue's wake callback.
    void Woken()
    {
        m_wakes++;
    }

    Ptr<NetDeviceQueue> m_queue; //!< the queue under test
    Ptr<ByteQueueLimits> m_bql;  //!< its queue limits
    LimitLog m_limits;           //!< limit changes
    int m_wakes{0};              //!< wake callbacks
};

/**
 * @ingroup debloat-tests
 * @brief BQL on a PointToPoint device, next to ns-3's DynamicQueueLimits.
 *
 * Node 0 sends a burst of 1400 UDP datagrams of 1000 bytes at t = 0 to node 1 over 10 Mbit/s
 * PointToPoint, through a 2000-packet FIFO queue disc. Each frame in the device queue is
 * 1000 + 8 (UDP) + 20 (IPv4) + 2 (PPP) = s = 1030 bytes and takes T = 1030 * 8 / 10^7 s =
 * 824 us on the wire. PointToPoint reports a completion when it dequeues a frame to start
 * sending it, so completion k happens at k * T and reclaims one frame.
 *
 * Both queue-limit objects compute, step by step:
 * - t = 0: post 1 stops the fresh queue (limit 0); its completion starves: limit = s.
 *   Posts 2 and 3 follow (avail s, then 0, then -s).
 * - k = 1: inflight 3s before, ovlimit = POSDIFF(2s, s) = s, prev_inprogress = 0: no change.
 * - k = 2: completed = prev_num_queued with prev_ovlimit = s: starved, limit = 2s = 2060.
 * - k >= 3: three frames queued at each completion, slack = POSDIFF(2s + s, 2s) = s.
 * - After the hold time (1 s) from k = 2 (t = 1.648 ms) the limit shrinks to s, and two
 *   completions later starves back to 2s (completed = prev_num_queued, prev_ovlimit = s).
 * ns-3 shrinks at the first completion with t > 1.648 ms + 1 s: k = 1216 (1001.984 ms).
 * Linux, with Hz = 1000, at the first with jiffies > 1 + 1000: t >= 1002 ms, k = 1217.
 * That one completion is the only difference: the nanosecond clock against jiffies.
 * Inflight never exceeds limit + one frame = 3s, and every datagram arrives.
 */
class ByteQueueLimitsPointToPointTestCase : public TestCase
{
  public:
    ByteQueueLimitsPointToPointTestCase()
        : TestCase("BQL on PointToPoint matches the derived limits and DynamicQueueLimits")
    {
    }

  private:
    /// What one run recorded.
    struct Result
    {
        LimitLog limits;         ///< limit changes
        uint32_t maxInflight{0}; ///< largest inflight (ByteQueueLimits only)
        uint32_t received{0};    ///< datagrams received by node 1
        std::string sysfs;       ///< ByteQueueLimitsHelper::PrintSysfs after the run
    };

    /**
     * Runs the burst with the given queue limits type.
     * @param limitsType the QueueLimits TypeId name
     * @return what it recorded
     */
    Result RunBurst(const std::string& limitsType)
    {
        const uint32_t packets = 1400;
        Result result;
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        NetDeviceContainer devices = p2p.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("2000p"));
        tch.SetQueueLimits(limitsType);
        tch.Install(devices.Get(0));
        Ipv4AddressHelper address("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = address.Assign(devices);

        Ptr<QueueLimits> limits =
            devices.Get(0)->GetObject<NetDeviceQueueInterface>()->GetTxQueue(0)->GetQueueLimits();
        NS_TEST_EXPECT_MSG_EQ(
            limits->TraceConnectWithoutContext("Limit",
                                               MakeBoundCallback(&LogLimit, &result.limits)),
            true,
            "Limit trace");
        if (Ptr<ByteQueueLimits> bql = DynamicCast<ByteQueueLimits>(limits))
        {
            NS_TEST_EXPECT_MSG_EQ(bql->TraceConnectWithoutContext(
                                      "Inflight",
                                      MakeBoundCallback(&ByteQueueLimitsPointToPointTestCase::Max,
                                                        &result.maxInflight)),
                                  true,
                                  "Inflight trace");
        }

        Ptr<Socket> sink = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink->SetRecvCallback(
            MakeBoundCallback(&ByteQueueLimitsPointToPointTestCase::Count, &result.received));
        Ptr<Socket> source = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        source->Connect(InetSocketAddress(interfaces.GetAddress(1), 9));
        Simulator::ScheduleNow(&ByteQueueLimitsPointToPointTestCase::SendBurst, source, packets);
        Simulator::Run();
        std::ostringstream sysfs;
        ByteQueueLimitsHelper::PrintSysfs(devices.Get(0), sysfs);
        result.sysfs = sysfs.str();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(result.received, packets, "every datagram arrives");
        return result;
    }

    /**
     * Sends count 1000-byte datagrams at once.
     * @param socket the connected socket
     * @param count number of datagrams
     */
    static void SendBurst(Ptr<Socket> socket, uint32_t count)
    {
        for (uint32_t i = 0; i < count; i++)
        {
            socket->Send(Create<Packet>(1000));
        }
    }

    /**
     * Counts received datagrams.
     * @param count the counter
     * @param socket the receiving socket
     */
    static void Count(uint32_t* count, Ptr<Socket> socket)
    {
        while (socket->Recv())
        {
            (*count)++;
        }
    }

    /**
     * Keeps the maximum of a traced value.
     * @param max the maximum so far
     * @param oldValue previous value
     * @param newValue new value
     */
    static void Max(uint32_t* max, uint32_t oldValue, uint32_t newValue)
    {
        *max = std::max(*max, newValue);
    }

    /**
     * Checks a limit log against the derivation.
     * @param log the recorded log
     * @param shrinkAt index of the completion that shrinks the limit
     * @param who which implementation
     */
    void CheckLimits(const LimitLog& log, int64_t shrinkAt, const std::string& who)
    {
        const Time t = MicroSeconds(824);
        const LimitLog expected{{Seconds(0), 1030},
                                {2 * t, 2060},
                                {shrinkAt * t, 1030},
                                {(shrinkAt + 2) * t, 2060}};
        NS_TEST_ASSERT_MSG_EQ(log.size(), expected.size(), who << ": four limit changes");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(log[i].first, expected[i].first, who << " change " << i);
            NS_TEST_EXPECT_MSG_EQ(log[i].second, expected[i].second, who << " change " << i);
        }
    }

    void DoRun() override
    {
        const Result bql = RunBurst("ns3::debloat::ByteQueueLimits");
        CheckLimits(bql.limits, 1217, "ByteQueueLimits");
        NS_TEST_EXPECT_MSG_EQ(bql.maxInflight, 3 * 1030, "inflight <= limit + one frame");
        NS_TEST_EXPECT_MSG_NE(bql.sysfs.find("tx-0/byte_queue_limits/limit: 2060\n"),
                              std::string::npos,
                              "sysfs limit: " << bql.sysfs);
        NS_TEST_EXPECT_MSG_NE(bql.sysfs.find("tx-0/byte_queue_limits/inflight: 0\n"),
                              std::string::npos,
                              "sysfs inflight: " << bql.sysfs);

        const Result dql = RunBurst("ns3::DynamicQueueLimits");
        CheckLimits(dql.limits, 1216, "DynamicQueueLimits");
    }
};

/**
 * @ingroup debloat-tests
 * @brief Stall detection through the ns-3 object: traces, attributes and units.
 *
 * Hz 1000, StallThreshold 10 ms (10 jiffies; detection switched on at jiffy 0). 1000 bytes
 * are posted at 5 ms and completed at 30 ms: 30 >= 0 + 10, the search runs over jiffies
 * [1, 30 - 5] and finds the post at 5: a stall of 25 ms. A second post at 31 ms completed at
 * 36 ms is within 10 ms of the last completion: no check.
 */
class ByteQueueLimitsStallTestCase : public TestCase
{
  public:
    ByteQueueLimitsStallTestCase()
        : TestCase("Stall detection reports length, count and maximum")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<NetDeviceQueue> queue = CreateObject<NetDeviceQueue>();
        Ptr<ByteQueueLimits> bql =
            CreateObjectWithAttributes<ByteQueueLimits>("StallThreshold",
                                                        TimeValue(MilliSeconds(10)));
        queue->SetQueueLimits(bql);
        std::vector<Time> stalls;
        NS_TEST_ASSERT_MSG_EQ(
            bql->TraceConnectWithoutContext(
                "Stall",
                MakeBoundCallback(&ByteQueueLimitsStallTestCase::Record, &stalls)),
            true,
            "Stall trace");
        Simulator::Schedule(MilliSeconds(5), &NetDeviceQueue::NotifyQueuedBytes, queue, 1000);
        Simulator::Schedule(MilliSeconds(30), &NetDeviceQueue::NotifyTransmittedBytes, queue, 1000);
        Simulator::Schedule(MilliSeconds(31), &NetDeviceQueue::NotifyQueuedBytes, queue, 1000);
        Simulator::Schedule(MilliSeconds(36), &NetDeviceQueue::NotifyTransmittedBytes, queue, 1000);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(stalls.size(), 1, "one stall");
        NS_TEST_EXPECT_MSG_EQ(stalls[0], MilliSeconds(25), "its length");
        UintegerValue count;
        bql->GetAttribute("StallCount", count);
        NS_TEST_EXPECT_MSG_EQ(count.Get(), 1, "StallCount");
        TimeValue max;
        bql->GetAttribute("StallMax", max);
        NS_TEST_EXPECT_MSG_EQ(max.Get(), MilliSeconds(25), "StallMax");
        bql->ResetStallMax();
        NS_TEST_EXPECT_MSG_EQ(bql->GetStallMax(), Seconds(0), "stall_max written 0");
        NS_TEST_EXPECT_MSG_EQ(bql->GetStallCount(), 1, "the count survives");
        Simulator::Destroy();
    }

    /**
     * Records a stall.
     * @param stalls the record
     * @param length the stall's length
     */
    static void Record(std::vector<Time>* stalls, Time length)
    {
        stalls->push_back(length);
    }
};

/**
 * @ingroup debloat-tests
 * @brief Bad configuration stops with a message naming the attribute and the accepted range.
 *
 * Each configuration runs in a child process, which must stop; its output must name the
 * attribute.
 */
class ByteQueueLimitsBadConfigTestCase : public TestCase
{
  public:
    ByteQueueLimitsBadConfigTestCase()
        : TestCase("Invalid BQL settings stop with a message")
    {
    }

  private:
    /**
     * Expects a ByteQueueLimits built with one bad attribute set to stop.
     * @param attributes (name, value) pairs set in order through an ObjectFactory
     * @param expected text the message must contain
     */
    void ExpectStop(const std::vector<std::pair<std::string, std::string>>& attributes,
                    const std::string& expected)
    {
        const debloattest::ChildOutcome outcome = debloattest::RunInChild([&attributes]() {
            ObjectFactory factory;
            factory.SetTypeId(ByteQueueLimits::GetTypeId());
            for (const auto& [name, value] : attributes)
            {
                factory.Set(name, StringValue(value));
            }
            Ptr<ByteQueueLimits> bql = factory.Create<ByteQueueLimits>();
        });
        NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, "stops: " << expected);
        NS_TEST_EXPECT_MSG_NE(outcome.output.find(expected),
                              std::string::npos,
                              "message names the setting: " << outcome.output);
    }

    void DoRun() override
    {
        ExpectStop({{"LimitMin", "5000"}, {"LimitMax", "3000"}},
                   "LimitMax=3000 is below LimitMin=5000; accepted range is LimitMin to "
                   "1879048192 bytes");
        ExpectStop({{"LimitMax", "1879048193"}}, "LimitMax=1879048193 is above DQL_MAX_LIMIT");
        ExpectStop({{"StallThreshold", "3ms"}},
                   "StallThreshold=3 ms is 3 jiffies at Hz=1000; accepted values are 0 (off) "
                   "or 4 to 128 jiffies, i.e. 4 ms to 128 ms");
        ExpectStop({{"Hz", "250"}, {"StallThreshold", "600ms"}},
                   "StallThreshold=600 ms is 150 jiffies at Hz=250; accepted values are 0 "
                   "(off) or 4 to 128 jiffies, i.e. 16 ms to 512 ms");
        ExpectStop({{"HoldTime", "-1ms"}}, "HoldTime=-1 ms is negative");
        ExpectStop({{"Hz", "200"}},
                   "Hz=200 is not a CONFIG_HZ choice; accepted values are "
                   "100, 250, 300 and 1000");

        // Changing LimitMin above LimitMax later, as a sysfs write would, stops too.
        const debloattest::ChildOutcome later = debloattest::RunInChild([]() {
            Ptr<ByteQueueLimits> bql =
                CreateObjectWithAttributes<ByteQueueLimits>("LimitMax", UintegerValue(3000));
            bql->SetAttribute("LimitMin", UintegerValue(4000));
        });
        NS_TEST_EXPECT_MSG_EQ(later.stopped, true, "LimitMin above LimitMax at run time");
        NS_TEST_EXPECT_MSG_NE(later.output.find("LimitMin=4000 is above LimitMax=3000"),
                              std::string::npos,
                              later.output);

        // A valid configuration does not stop.
        const debloattest::ChildOutcome valid = debloattest::RunInChild([]() {
            CreateObjectWithAttributes<ByteQueueLimits>("LimitMin",
                                                        UintegerValue(3000),
                                                        "LimitMax",
                                                        UintegerValue(3000),
                                                        "StallThreshold",
                                                        TimeValue(MilliSeconds(128)));
        });
        NS_TEST_EXPECT_MSG_EQ(valid.stopped, false, valid.output);
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-byte-queue-limits suite.
 */
class ByteQueueLimitsTestSuite : public TestSuite
{
  public:
    ByteQueueLimitsTestSuite()
        : TestSuite("debloat-byte-queue-limits", compat::SUITE_UNIT)
    {
        AddTestCase(new ByteQueueLimitsStopWakeTestCase(), compat::TEST_QUICK);
        AddTestCase(new ByteQueueLimitsPointToPointTestCase(), compat::TEST_QUICK);
        AddTestCase(new ByteQueueLimitsStallTestCase(), compat::TEST_QUICK);
        AddTestCase(new ByteQueueLimitsBadConfigTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
ByteQueueLimitsTestSuite g_byteQueueLimitsTestSuite;

} // namespace
