/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * netperf's TCP_RR, TCP_STREAM and TCP_MAERTS on an idle link, against hand-derived numbers.
 */

#include "debloat-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/netperf-client.h"
#include "ns3/netperf-helper.h"
#include "ns3/netperf-server.h"
#include "ns3/network-module.h"

#include <cmath>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * @ingroup debloat-tests
 * @brief TCP_RR transactions per second on an idle link of known RTT.
 *
 * 10 Mbit/s PointToPoint (0.8 us per byte), 5 ms delay, Linux TCP defaults (timestamps on).
 * A 1-byte request is 1 + 32 (TCP with the 12-byte timestamp option) + 20 (IPv4) + 2 (PPP) =
 * 55 bytes: 44 us. The server answers at once with a 55-byte response that carries the ACK,
 * the client's next request carries the ACK of the response, and with nothing unacknowledged
 * Nagle sends each at once. So a transaction takes 2 * (5 ms + 44 us) = 10.088 ms.
 *
 * The first differs. The SYN and SYN-ACK carry window scale (3), SACK permitted (2) and
 * timestamps (10): 15 bytes of options, padded to 16, so 20 + 16 + 20 + 2 = 58 bytes,
 * 46.4 us each. The client starts at 1 s and is connected at 1 s + 2 * (5 ms + 46.4 us) =
 * 1.0100928 s. Then it sends the handshake's ACK (32 + 20 + 2 = 54 bytes, 43.2 us) and
 * behind it the first request with the 16-byte test request (71 bytes, 56.8 us); the
 * server's first read opens its receive window, and ns-3 announces that in a window update
 * (54 bytes, 43.2 us) ahead of the response (44 us). The first transaction takes
 * 10 ms + 43.2 + 56.8 + 43.2 + 44 us = 10.1872 ms.
 *
 * The client stops at 11 s, so the test lasts E = 9.9899072 s and completes
 * n = 1 + floor((E - 10.1872 ms) / 10.088 ms) = 1 + floor(989.27) = 990 transactions:
 * 990 / E = 99.100 transactions/s.
 */
class NetperfRrTestCase : public TestCase
{
  public:
    NetperfRrTestCase()
        : TestCase("TCP_RR transactions per second on an idle link")
    {
    }

  private:
    void DoRun() override
    {
        LinuxTcpDefaults::Apply();
        const debloattest::IdleLink link = debloattest::MakeIdleLink();
        NetperfHelper::InstallServer(link.nodes.Get(1));
        NetperfHelper netperf(link.interfaces.GetAddress(1), NetperfTest::TCP_RR);
        ApplicationContainer apps = netperf.Install(link.nodes.Get(0));
        apps.Start(Seconds(1));
        apps.Stop(Seconds(11));
        Ptr<NetperfClient> client = DynamicCast<NetperfClient>(apps.Get(0));
        NS_TEST_ASSERT_MSG_EQ(
            client->TraceConnectWithoutContext("Transaction",
                                               MakeCallback(&NetperfRrTestCase::Record, this)),
            true,
            "Transaction trace");
        Simulator::Stop(Seconds(12));
        Simulator::Run();

        const Time elapsed = Seconds(11) - NanoSeconds(1010092800);
        NS_TEST_EXPECT_MSG_EQ(client->GetElapsed(), elapsed, "test duration");
        const uint64_t expected =
            1 + static_cast<uint64_t>(
                    std::floor((elapsed - NanoSeconds(10187200)).GetSeconds() / 0.010088));
        NS_TEST_EXPECT_MSG_EQ(expected, 990, "derivation in the comment");
        NS_TEST_EXPECT_MSG_EQ(client->GetTransactions(), expected, "transactions");
        NS_TEST_EXPECT_MSG_EQ_TOL(client->GetThroughput(),
                                  expected / elapsed.GetSeconds(),
                                  1e-9,
                                  "transactions per second");
        NS_TEST_ASSERT_MSG_EQ(m_latencies.size(), expected, "latencies traced");
        NS_TEST_EXPECT_MSG_EQ(m_latencies[0], NanoSeconds(10187200), "first transaction");
        for (size_t i = 1; i < m_latencies.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_latencies[i], MicroSeconds(10088), "transaction " << i);
        }
        Simulator::Destroy();
        Config::Reset();
    }

    /**
     * Records a transaction.
     * @param latency its latency
     */
    void Record(Time latency)
    {
        m_latencies.push_back(latency);
    }

    std::vector<Time> m_latencies; ///< transaction latencies
};

/**
 * @ingroup debloat-tests
 * @brief TCP_STREAM and TCP_MAERTS goodput is the link rate less header overhead, and the
 * data carries the requested TOS byte.
 *
 * A full segment is 1448 bytes of data (Linux's MSS with timestamps) + 32 (TCP) + 20 (IPv4) +
 * 2 (PPP) = 1502 bytes on a 10 Mbit/s link, so the goodput of a link kept busy is
 * 10 Mbit/s * 1448 / 1502 = 9.64048 Mbit/s. The receive buffer is set to 64 KiB: the window
 * (45 segments) exceeds the path's BDP (10.1 ms * 10 Mbit/s, 9 segments) so the link never
 * idles, and stays below BDP + the device's 100-packet queue so nothing is lost (a
 * retransmission would cost wire time). Measured over the 50 demo-mode intervals (0.2 s
 * each) from 5 s to 15 s after the connection: the count is in whole segments, so the
 * boundaries add at most 2 * 1448 bytes over 10 s, 0.024%.
 */
class NetperfStreamTestCase : public TestCase
{
  public:
    /**
     * @param test TCP_STREAM or TCP_MAERTS
     * @param tos the TOS byte to ask for
     */
    NetperfStreamTestCase(NetperfTest test, uint8_t tos)
        : TestCase(std::string(test == NetperfTest::TCP_STREAM ? "TCP_STREAM" : "TCP_MAERTS") +
                   " goodput and marking"),
          m_test(test),
          m_tos(tos)
    {
    }

  private:
    void DoRun() override
    {
        LinuxTcpDefaults::Apply();
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(65536));
        const debloattest::IdleLink link = debloattest::MakeIdleLink();
        NetperfHelper::InstallServer(link.nodes.Get(1));
        NetperfHelper netperf(link.interfaces.GetAddress(1), m_test);
        netperf.SetAttribute("Tos", UintegerValue(m_tos));
        ApplicationContainer apps = netperf.Install(link.nodes.Get(0));
        apps.Start(Seconds(1));
        apps.Stop(Seconds(18));
        Ptr<NetperfClient> client = DynamicCast<NetperfClient>(apps.Get(0));
        NS_TEST_ASSERT_MSG_EQ(
            client->TraceConnectWithoutContext("Interim",
                                               MakeCallback(&NetperfStreamTestCase::Interim, this)),
            true,
            "Interim trace");
        // The data flows from the client (TCP_STREAM) or from the server (TCP_MAERTS).
        Ptr<Node> sender = link.nodes.Get(m_test == NetperfTest::TCP_STREAM ? 0 : 1);
        NS_TEST_ASSERT_MSG_EQ(sender->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                                  "Tx",
                                  MakeCallback(&NetperfStreamTestCase::Transmitted, this)),
                              true,
                              "Tx trace");
        Simulator::Stop(Seconds(19));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(m_intervals.size(), 75, "demo-mode intervals");
        uint64_t bytes = 0;
        Time duration;
        for (size_t i = 25; i < 75; i++)
        {
            bytes += m_intervals[i].first;
            duration += m_intervals[i].second;
        }
        NS_TEST_EXPECT_MSG_EQ(duration, Seconds(10), "50 intervals of 0.2 s");
        const double goodput = 8.0 * bytes / duration.GetSeconds();
        const double expected = 10e6 * 1448 / 1502;
        NS_TEST_EXPECT_MSG_EQ_TOL(goodput, expected, expected * 0.0005, "goodput");
        NS_TEST_EXPECT_MSG_GT(m_dataPackets, 10000, "data packets seen");
        NS_TEST_EXPECT_MSG_EQ(m_wrongTos, 0, "data packets without TOS " << +m_tos);
        Simulator::Destroy();
        Config::Reset();
    }

    /**
     * Records a demo-mode interval.
     * @param bytes bytes in the interval
     * @param duration its length
     */
    void Interim(uint64_t bytes, Time duration)
    {
        m_intervals.emplace_back(bytes, duration);
    }

    /**
     * Checks the TOS byte of each data packet the sender's IP layer sends.
     * @param packet the packet with its IPv4 header
     * @param ipv4 the IP layer
     * @param interface the interface
     */
    void Transmitted(Ptr<const Packet> packet, Ptr<Ipv4> ipv4, uint32_t interface)
    {
        Ptr<Packet> copy = packet->Copy();
        Ipv4Header ip;
        copy->RemoveHeader(ip);
        TcpHeader tcp;
        copy->RemoveHeader(tcp);
        if (copy->GetSize() > 0)
        {
            ++m_dataPackets;
            m_wrongTos += ip.GetTos() != m_tos ? 1 : 0;
        }
    }

    NetperfTest m_test;                                 ///< TCP_STREAM or TCP_MAERTS
    uint8_t m_tos;                                      ///< the TOS byte asked for
    std::vector<std::pair<uint64_t, Time>> m_intervals; ///< demo-mode results
    uint32_t m_dataPackets{0};                          ///< data packets sent
    uint32_t m_wrongTos{0};                             ///< data packets with another TOS
};

/**
 * @ingroup debloat-tests
 * @brief A client without a server address stops with a message naming the attribute.
 */
class NetperfBadConfigurationTestCase : public TestCase
{
  public:
    NetperfBadConfigurationTestCase()
        : TestCase("Missing Remote and zero streams are refused")
    {
    }

  private:
    void DoRun() override
    {
        const debloattest::ChildOutcome noRemote = debloattest::RunInChild([] {
            Ptr<Node> node = CreateObject<Node>();
            InternetStackHelper().Install(node);
            Ptr<NetperfClient> client = CreateObject<NetperfClient>();
            node->AddApplication(client);
            Simulator::Run();
        });
        NS_TEST_EXPECT_MSG_EQ(noRemote.stopped, true, "no Remote");
        NS_TEST_EXPECT_MSG_NE(noRemote.output.find("Remote is not set"),
                              std::string::npos,
                              noRemote.output);
        const debloattest::ChildOutcome noStreams = debloattest::RunInChild([] {
            NetperfHelper(Ipv4Address("10.0.0.2"), NetperfTest::TCP_RR)
                .Install(NodeContainer(CreateObject<Node>()), 0);
        });
        NS_TEST_EXPECT_MSG_EQ(noStreams.stopped, true, "zero streams");
        NS_TEST_EXPECT_MSG_NE(noStreams.output.find("streams=0"),
                              std::string::npos,
                              noStreams.output);
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-netperf suite.
 */
class NetperfTestSuite : public TestSuite
{
  public:
    NetperfTestSuite()
        : TestSuite("debloat-netperf", compat::SUITE_SYSTEM)
    {
        AddTestCase(new NetperfRrTestCase(), compat::TEST_QUICK);
        AddTestCase(new NetperfStreamTestCase(NetperfTest::TCP_STREAM, 0xb8), compat::TEST_QUICK);
        AddTestCase(new NetperfStreamTestCase(NetperfTest::TCP_MAERTS, 0x20), compat::TEST_QUICK);
        AddTestCase(new NetperfBadConfigurationTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
NetperfTestSuite g_netperfTestSuite;

} // namespace
