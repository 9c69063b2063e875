/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * TcQdiscHelper: tc's qdisc names and their ns-3 types, the root queue disc it installs with
 * tc's defaults and with options, sfq's and cake's words handed over as Options, txqueuelen
 * (pfifo_fast's limit, noqueue at 0), noqueue, prio's bands and priomap, mq with a child per
 * TX queue, and the errors for unknown qdiscs and unknown or malformed words.
 */

#include "debloat-test-utils.h"

#include "ns3/cake-queue-disc.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/no-queue-disc.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <array>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// The accepted qdiscs as the unknown-qdisc message lists them (GetQdiscNames() order).
const std::string ACCEPTED =
    "pfifo_fast, pfifo, noqueue, prio, fq_codel, codel, pie, sfq, cake, htb";

/**
 * Builds two nodes with the internet stack joined by a SimpleNetDevice pair, installs the
 * root queue disc that TcQdiscHelper makes of text on the first device, then assigns
 * addresses (which gives the second device ns-3's default root queue disc).
 * @param text the tc text
 * @param txqueuelen the device's txqueuelen
 * @return the first device's root queue disc; the simulation is left for the caller to run
 *         and destroy
 */
Ptr<QueueDisc>
InstallRoot(const std::string& text, uint32_t txqueuelen = 1000)
{
    NodeContainer nodes;
    nodes.Create(2);
    InternetStackHelper internet;
    internet.Install(nodes);
    SimpleNetDeviceHelper simple;
    NetDeviceContainer devices = simple.Install(nodes);
    TrafficControlHelper tch;
    TcQdiscHelper::SetRootQueueDisc(tch, text, txqueuelen);
    QueueDiscContainer qdiscs = tch.Install(devices.Get(0));
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
    address.Assign(devices);
    Ptr<TrafficControlLayer> tc = nodes.Get(0)->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(devices.Get(0));
    NS_ABORT_MSG_IF(qdiscs.GetN() != 1 || root != qdiscs.Get(0),
                    "the installed queue disc is not the device's root");
    return root;
}

/**
 * @brief Two nodes with the internet stack joined by a NicNetDevice link whose devices have
 * several TX queues, with the sender's root queue disc made by TcQdiscHelper.
 */
struct MqLink
{
    NodeContainer nodes;          ///< sender, receiver
    NetDeviceContainer devices;   ///< sender's device first
    Ipv4InterfaceContainer addrs; ///< 10.0.0.1, 10.0.0.2
    Ptr<QueueDisc> root;          ///< the sender's root queue disc
};

/**
 * Builds an MqLink: NicHelper devices with TxQueues nTxQueues, the root queue disc that
 * TcQdiscHelper makes of text (given nTxQueues) installed on the sender, then addresses.
 * @param text the tc text
 * @param nTxQueues the devices' TX queues
 * @param txqueuelen the device's txqueuelen
 * @return the link; the simulation is left for the caller to run and destroy
 */
MqLink
InstallMq(const std::string& text, uint32_t nTxQueues, uint32_t txqueuelen = 1000)
{
    MqLink link;
    link.nodes.Create(2);
    NicHelper nic;
    nic.SetDeviceAttribute("TxQueues", UintegerValue(nTxQueues));
    link.devices = nic.Install(link.nodes);
    InternetStackHelper internet;
    internet.Install(link.nodes);
    TrafficControlHelper tch;
    TcQdiscHelper::SetRootQueueDisc(tch, text, txqueuelen, nTxQueues);
    QueueDiscContainer qdiscs = tch.Install(link.devices.Get(0));
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
    link.addrs = address.Assign(link.devices);
    Ptr<TrafficControlLayer> tc = link.nodes.Get(0)->GetObject<TrafficControlLayer>();
    link.root = tc->GetRootQueueDiscOnDevice(link.devices.Get(0));
    NS_ABORT_MSG_IF(qdiscs.GetN() != 1 || link.root != qdiscs.Get(0),
                    "the installed queue disc is not the device's root");
    return link;
}

/**
 * Runs the simulation for 1 ms, long enough for the nodes' initialization at time 0 to
 * initialize the queue discs (CheckConfig(), where sfq and cake parse their Options).
 */
void
RunBriefly()
{
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
}

/**
 * @param qdisc a queue disc
 * @param name a QueueSizeValue attribute
 * @return its value
 */
QueueSize
GetSize(Ptr<QueueDisc> qdisc, const std::string& name)
{
    QueueSizeValue value;
    qdisc->GetAttribute(name, value);
    return value.Get();
}

/**
 * @param qdisc a queue disc
 * @param name a BooleanValue attribute
 * @return its value
 */
bool
GetBool(Ptr<QueueDisc> qdisc, const std::string& name)
{
    BooleanValue value;
    qdisc->GetAttribute(name, value);
    return value.Get();
}

/**
 * @param qdisc a queue disc
 * @param name a TimeValue attribute
 * @return its value
 */
Time
GetTime(Ptr<QueueDisc> qdisc, const std::string& name)
{
    TimeValue value;
    qdisc->GetAttribute(name, value);
    return value.Get();
}

/**
 * @param qdisc a queue disc
 * @param name a StringValue attribute
 * @return its value
 */
std::string
GetString(Ptr<QueueDisc> qdisc, const std::string& name)
{
    StringValue value;
    qdisc->GetAttribute(name, value);
    return value.Get();
}

/**
 * CoDel's and FqCoDel's Target and Interval are StringValue attributes ("5ms"); the helper
 * writes them in ns. Parsed back to a Time, they compare whatever the spelling.
 * @param qdisc a queue disc
 * @param name a StringValue attribute holding a time
 * @return the time
 */
Time
GetStringTime(Ptr<QueueDisc> qdisc, const std::string& name)
{
    return Time(GetString(qdisc, name));
}

/**
 * @param qdisc a queue disc
 * @param name a UintegerValue attribute
 * @return its value
 */
uint64_t
GetUinteger(Ptr<QueueDisc> qdisc, const std::string& name)
{
    UintegerValue value;
    qdisc->GetAttribute(name, value);
    return value.Get();
}

/**
 * @param text some text
 * @return it without leading and trailing white space
 */
std::string
Trim(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
    {
        return "";
    }
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

/**
 * @param text tc text for SetRootQueueDisc()
 * @param txqueuelen the device's txqueuelen
 * @param nTxQueues the device's TX queues
 * @return the message of the std::invalid_argument it throws, or "" if it throws none
 */
std::string
SetRootError(const std::string& text, uint32_t txqueuelen = 1000, uint32_t nTxQueues = 1)
{
    TrafficControlHelper tch;
    try
    {
        TcQdiscHelper::SetRootQueueDisc(tch, text, txqueuelen, nTxQueues);
    }
    catch (const std::invalid_argument& error)
    {
        return error.what();
    }
    return "";
}

/**
 * @ingroup debloat-tests
 * @brief The qdisc names, in the documented order, and the ns-3 type of each.
 *
 * GetTypeName() reads only the first word: options after it do not change the type, and
 * leading white space is skipped as tc's argv splitting would.
 */
class TcQdiscNamesTestCase : public TestCase
{
  public:
    TcQdiscNamesTestCase()
        : TestCase("Qdisc names and their ns-3 types")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> names = TcQdiscHelper::GetQdiscNames();
        const std::vector<std::string> expected = {"pfifo_fast",
                                                   "pfifo",
                                                   "noqueue",
                                                   "prio",
                                                   "fq_codel",
                                                   "codel",
                                                   "pie",
                                                   "sfq",
                                                   "cake",
                                                   "htb",
                                                   "netem"};
        NS_TEST_ASSERT_MSG_EQ((names == expected), true, "the eleven qdiscs, in order");

        const std::vector<std::pair<std::string, std::string>> types = {
            {"pfifo_fast", "ns3::PfifoFastQueueDisc"},
            {"pfifo", "ns3::FifoQueueDisc"},
            {"noqueue", "ns3::debloat::NoQueueDisc"},
            {"prio", "ns3::PrioQueueDisc"},
            {"fq_codel", "ns3::FqCoDelQueueDisc"},
            {"codel", "ns3::CoDelQueueDisc"},
            {"pie", "ns3::PieQueueDisc"},
            {"sfq", "ns3::debloat::SfqQueueDisc"},
            {"cake", "ns3::debloat::CakeQueueDisc"},
            {"htb", "ns3::debloat::HtbQueueDisc"},
            {"netem", "ns3::debloat::NetemQueueDisc"},
        };
        for (const auto& [name, type] : types)
        {
            NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::GetTypeName(name), type, name);
            NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::GetTypeName("  " + name + " limit 100"),
                                  type,
                                  name << " with options");
            // The type exists in this build (the helper's table matches ns-3's names).
            TypeId tid;
            NS_TEST_EXPECT_MSG_EQ(TypeId::LookupByNameFailSafe(type, &tid), true, type);
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief Each qdisc named alone: the installed root's type and tc's defaults.
 *
 * From the helper's header (tc's defaults where ns-3's differ):
 * - pfifo_fast and pfifo: 1000 packets (txqueuelen);
 * - fq_codel: limit 10240p, ECN on, target 5 ms, interval 100 ms, 1024 flows, no
 *   ce_threshold (ns-3's "never": Time::Max());
 * - codel: limit 1000p (ns-3's own default is 1500 * 1000 bytes), ECN off, 5 ms, 100 ms;
 * - pie: limit 1000p (ns-3's is 25p), ECN off, target 15 ms, tupdate 15 ms;
 * - sfq and cake: an empty Options string (their own defaults are tc's).
 */
class TcQdiscDefaultsTestCase : public TestCase
{
  public:
    TcQdiscDefaultsTestCase()
        : TestCase("Each qdisc alone: type and tc's defaults")
    {
    }

  private:
    void DoRun() override
    {
        const QueueSize p1000(QueueSizeUnit::PACKETS, 1000);

        Ptr<QueueDisc> qdisc = InstallRoot("pfifo_fast");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(),
                              "ns3::PfifoFastQueueDisc",
                              "pfifo_fast");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"), p1000, "pfifo_fast: txqueuelen");
        Simulator::Destroy();

        qdisc = InstallRoot("pfifo");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(), "ns3::FifoQueueDisc", "pfifo");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"), p1000, "pfifo: limit = txqueuelen");
        Simulator::Destroy();

        qdisc = InstallRoot("fq_codel");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(),
                              "ns3::FqCoDelQueueDisc",
                              "fq_codel");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 10240),
                              "fq_codel: limit 10240");
        NS_TEST_EXPECT_MSG_EQ(GetBool(qdisc, "UseEcn"), true, "fq_codel: ecn");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Target"), MilliSeconds(5), "fq_codel");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Interval"), MilliSeconds(100), "fq_codel");
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(qdisc, "Flows"), 1024, "fq_codel: flows");
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "CeThreshold"), Time::Max(), "fq_codel: no CE");
        Simulator::Destroy();

        qdisc = InstallRoot("codel");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(), "ns3::CoDelQueueDisc", "codel");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"), p1000, "codel: limit 1000 packets");
        NS_TEST_EXPECT_MSG_EQ(GetBool(qdisc, "UseEcn"), false, "codel: noecn");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Target"), MilliSeconds(5), "codel");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Interval"), MilliSeconds(100), "codel");
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "CeThreshold"), Time::Max(), "codel: no CE");
        Simulator::Destroy();

        qdisc = InstallRoot("pie");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(), "ns3::PieQueueDisc", "pie");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"), p1000, "pie: limit 1000 packets");
        NS_TEST_EXPECT_MSG_EQ(GetBool(qdisc, "UseEcn"), false, "pie: noecn");
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "QueueDelayReference"),
                              MilliSeconds(15),
                              "pie: target 15ms");
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "Tupdate"), MilliSeconds(15), "pie: tupdate 15ms");
        Simulator::Destroy();

        qdisc = InstallRoot("sfq");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(),
                              "ns3::debloat::SfqQueueDisc",
                              "sfq");
        NS_TEST_EXPECT_MSG_EQ(Trim(GetString(qdisc, "Options")), "", "sfq: no options");
        Simulator::Destroy();

        qdisc = InstallRoot("cake");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(),
                              "ns3::debloat::CakeQueueDisc",
                              "cake");
        NS_TEST_EXPECT_MSG_EQ(Trim(GetString(qdisc, "Options")), "", "cake: no options");
        RunBriefly();
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<CakeQueueDisc>(qdisc)->GetConfig().rate,
                              0,
                              "cake: bandwidth unlimited");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Options map to attributes: limits, times (tc units), flows, ECN and CE threshold.
 *
 * Times are tc's get_time() words: "2ms" is 2 ms, and a bare number is MICROSECONDS
 * ("target 2500" is 2.5 ms). Within the ecn/noecn group the later word wins, as tc's
 * option loop overwrites its variable.
 */
class TcQdiscOptionsTestCase : public TestCase
{
  public:
    TcQdiscOptionsTestCase()
        : TestCase("Options: limit, target, interval, flows, ecn, noecn, ce_threshold, tupdate")
    {
    }

  private:
    void DoRun() override
    {
        // pfifo limit N -> MaxSize N packets.
        Ptr<QueueDisc> qdisc = InstallRoot("pfifo limit 100");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 100),
                              "pfifo limit 100");
        Simulator::Destroy();

        // Every fq_codel word: limit 500 -> 500p, flows 64, target 2 ms, interval 50 ms,
        // noecn -> UseEcn false, ce_threshold 1 ms.
        qdisc = InstallRoot("fq_codel limit 500 flows 64 target 2ms interval 50ms noecn "
                            "ce_threshold 1ms");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 500),
                              "fq_codel limit 500");
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(qdisc, "Flows"), 64, "fq_codel flows 64");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Target"), MilliSeconds(2), "target 2ms");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Interval"), MilliSeconds(50), "interval 50ms");
        NS_TEST_EXPECT_MSG_EQ(GetBool(qdisc, "UseEcn"), false, "noecn");
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "CeThreshold"), MilliSeconds(1), "ce_threshold 1ms");
        // The simulation initializes the queue disc with these settings without complaint.
        RunBriefly();
        Simulator::Destroy();

        // Bare numbers are microseconds; "ecn noecn" and "noecn ecn": the last one wins.
        qdisc = InstallRoot("fq_codel target 2500 interval 80000 ecn noecn");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Target"),
                              MicroSeconds(2500),
                              "target 2500 (us)");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Interval"),
                              MilliSeconds(80),
                              "interval 80000 (us)");
        NS_TEST_EXPECT_MSG_EQ(GetBool(qdisc, "UseEcn"), false, "ecn noecn: noecn");
        Simulator::Destroy();

        // codel: limit 200, target 10 ms, interval 200 ms, ce_threshold 3 ms; ecn after its
        // default noecn turns ECN on.
        qdisc = InstallRoot("codel limit 200 target 10ms interval 200ms ce_threshold 3ms ecn");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 200),
                              "codel limit 200");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Target"), MilliSeconds(10), "target 10ms");
        NS_TEST_EXPECT_MSG_EQ(GetStringTime(qdisc, "Interval"),
                              MilliSeconds(200),
                              "interval 200ms");
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "CeThreshold"), MilliSeconds(3), "ce_threshold 3ms");
        NS_TEST_EXPECT_MSG_EQ(GetBool(qdisc, "UseEcn"), true, "codel ecn");
        RunBriefly();
        Simulator::Destroy();

        // pie: limit 300, target 20 ms -> QueueDelayReference, tupdate 30 ms, ecn.
        qdisc = InstallRoot("pie limit 300 target 20ms tupdate 30ms ecn");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 300),
                              "pie limit 300");
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "QueueDelayReference"),
                              MilliSeconds(20),
                              "pie target 20ms");
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "Tupdate"), MilliSeconds(30), "pie tupdate 30ms");
        NS_TEST_EXPECT_MSG_EQ(GetBool(qdisc, "UseEcn"), true, "pie ecn");
        RunBriefly();
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief sfq and cake: the words after the name go to the Options attribute unchanged, and
 * take effect when the queue disc initializes.
 *
 * "sfq perturb 10": Options holds "perturb 10", and SfqQueueDisc's option parsing sets its
 * Perturb attribute to 10 s. "cake bandwidth 50Mbit": Options holds "bandwidth 50Mbit", and
 * cake stores the rate as tc does, in bytes per second: 50000000 / 8 = 6250000.
 * The Options string is compared without surrounding white space (the helper passes on the
 * separator after the qdisc's name; tc's argv splitting would not see it).
 */
class TcQdiscPassThroughTestCase : public TestCase
{
  public:
    TcQdiscPassThroughTestCase()
        : TestCase("sfq and cake: the rest of the text is the Options attribute")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QueueDisc> qdisc = InstallRoot("sfq perturb 10");
        NS_TEST_EXPECT_MSG_EQ(Trim(GetString(qdisc, "Options")), "perturb 10", "sfq Options");
        RunBriefly();
        NS_TEST_EXPECT_MSG_EQ(GetTime(qdisc, "Perturb"), Seconds(10), "sfq perturb 10");
        Simulator::Destroy();

        qdisc = InstallRoot("cake bandwidth 50Mbit");
        NS_TEST_EXPECT_MSG_EQ(Trim(GetString(qdisc, "Options")),
                              "bandwidth 50Mbit",
                              "cake Options");
        RunBriefly();
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<CakeQueueDisc>(qdisc)->GetConfig().rate,
                              6250000,
                              "cake bandwidth 50Mbit: 6250000 bytes/s");
        Simulator::Destroy();

        // Several words keep their order and spelling.
        qdisc = InstallRoot("cake bandwidth 10Mbit diffserv4 nat rtt 50ms");
        NS_TEST_EXPECT_MSG_EQ(Trim(GetString(qdisc, "Options")),
                              "bandwidth 10Mbit diffserv4 nat rtt 50ms",
                              "cake Options");
        RunBriefly();
        const CakeConfig& config = DynamicCast<CakeQueueDisc>(qdisc)->GetConfig();
        NS_TEST_EXPECT_MSG_EQ(config.rate, 1250000, "10Mbit: 1250000 bytes/s");
        NS_TEST_EXPECT_MSG_EQ(config.nat, true, "nat");
        NS_TEST_EXPECT_MSG_EQ(config.intervalNs, 50000000, "rtt 50ms");
        NS_TEST_EXPECT_MSG_EQ((config.diffserv == CakeDiffservMode::DIFFSERV4), true, "diffserv4");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Errors: an unknown qdisc, and unknown, malformed or out-of-range words, throw
 * std::invalid_argument naming the offending word; an unknown qdisc's message also lists the
 * accepted names.
 *
 * Unknown words include the documented deviations (fq_codel's quantum, pie's alpha) and
 * words of another qdisc (codel has no flows, pie no interval, pfifo_fast no limit). tc
 * matches qdisc names and keywords case-sensitively (strcmp), so "FQ_CODEL" is unknown.
 * Malformed values: "abc" is no number, "5ns" no get_time() unit ("ns" is not one), "-1ms"
 * has a sign, "0" is below limit's and flows' minimum 1, and a keyword lacks its value at
 * the end of the line.
 */
class TcQdiscErrorsTestCase : public TestCase
{
  public:
    TcQdiscErrorsTestCase()
        : TestCase("Errors name the unknown qdisc or word")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string name : {"fq_pie", "FQ_CODEL", "red", "pfifo_fastx", "hfsc"})
        {
            const std::string message = SetRootError(name + " limit 100");
            NS_TEST_EXPECT_MSG_NE(message.find("\"" + name + "\""), std::string::npos, message);
            NS_TEST_EXPECT_MSG_NE(message.find(ACCEPTED), std::string::npos, message);
            std::string typeError;
            try
            {
                TcQdiscHelper::GetTypeName(name);
            }
            catch (const std::invalid_argument& error)
            {
                typeError = error.what();
            }
            NS_TEST_EXPECT_MSG_EQ(typeError, message, name);
            NS_TEST_EXPECT_MSG_NE(typeError.find(ACCEPTED), std::string::npos, typeError);
        }
        // No qdisc at all: still an unknown-qdisc message with the accepted names.
        for (const std::string text : {"", "   "})
        {
            const std::string message = SetRootError(text);
            NS_TEST_EXPECT_MSG_NE(message.find(ACCEPTED), std::string::npos, "\"" << text << "\"");
        }

        // {text, what the message must contain: the offending word, quoted, after its
        // keyword for a bad value}
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"fq_codel quantum 1514", "\"quantum\""},
            {"fq_codel memory_limit 32Mb", "\"memory_limit\""},
            {"fq_codel limt 100", "\"limt\""},
            {"fq_codel Limit 100", "\"Limit\""},
            {"pie alpha 2", "\"alpha\""},
            {"pie interval 100ms", "\"interval\""},
            {"pie ce_threshold 1ms", "\"ce_threshold\""},
            {"codel flows 64", "\"flows\""},
            {"codel tupdate 15ms", "\"tupdate\""},
            {"pfifo_fast limit 100", "\"limit\""},
            {"pfifo target 5ms", "\"target\""},
            {"fq_codel limit abc", "limit \"abc\""},
            {"fq_codel target 5ns", "target \"5ns\""},
            {"codel interval fast", "interval \"fast\""},
            {"pie tupdate -1ms", "tupdate \"-1ms\""},
            {"pfifo limit 0", "limit \"0\""},
            {"fq_codel flows 0", "flows \"0\""},
            {"codel target", "\"target\""},
        };
        for (const auto& [text, word] : cases)
        {
            const std::string message = SetRootError(text);
            NS_TEST_EXPECT_MSG_NE(message, "", text << ": no exception");
            NS_TEST_EXPECT_MSG_NE(message.find(word), std::string::npos, text << ": " << message);
        }
        // An unknown word's message lists the qdisc's words.
        const std::string quantum = SetRootError("fq_codel quantum 1514");
        for (const std::string word :
             {"limit", "target", "ecn", "noecn", "interval", "ce_threshold", "flows"})
        {
            NS_TEST_EXPECT_MSG_NE(quantum.find(word), std::string::npos, quantum);
        }

        // The same words are fine where they belong (the grammar is per qdisc).
        for (const std::string text : {"fq_codel flows 1",
                                       "fq_codel limit 1",
                                       "pie limit 1 target 1ms tupdate 1ms noecn",
                                       "codel limit 1 target 1ms interval 1ms noecn",
                                       "pfifo limit 1",
                                       "pfifo_fast"})
        {
            NS_TEST_EXPECT_MSG_EQ(SetRootError(text), "", text);
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief sfq's and cake's own words: SetRootQueueDisc() checks them with the queue discs'
 * own parsers and throws std::invalid_argument naming an unknown or malformed one, as it
 * does for the other qdiscs (so that flent-run reports a bad --qdisc before it starts).
 * Words on later lines count too.
 */
class TcQdiscSfqCakeThrowTestCase : public TestCase
{
  public:
    TcQdiscSfqCakeThrowTestCase()
        : TestCase("sfq and cake: SetRootQueueDisc throws for a bad word")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"sfq limt 10", "limt"},
            {"sfq perturb soon", "soon"},
            {"sfq divisor 1000", "divisor"},
            {"cake bandwith 50Mbit", "bandwith"},
            {"cake bandwidth 50Mbits", "50Mbits"},
            {"cake bandwidth 50Mbit\nbogus", "bogus"},
            {"fq_codel limit 500\nbogus", "bogus"},
        };
        for (const auto& [text, word] : cases)
        {
            const std::string message = SetRootError(text);
            NS_TEST_EXPECT_MSG_NE(message.find(word), std::string::npos, text << ": " << message);
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief txqueuelen (`ip link set DEV txqueuelen N`): the limit of pfifo_fast and of a
 * pfifo made without one, and what 0 does.
 *
 * - pfifo_fast: txqueuelen packets (pfifo_fast_init(): qdisc_dev(qdisc)->tx_queue_len), 50p
 *   with 50; with 0 pfifo_fast_init() refuses the zero-length queue and
 *   attach_default_qdiscs() falls back to noqueue: NoQueueDisc, with no attributes;
 * - pfifo without "limit": fifo_init() takes txqueuelen packets, 50p with 50; with 0 it
 *   would drop every packet, which the helper refuses with a message naming txqueuelen
 *   (Parse() and SetRootQueueDisc() alike); "limit 20" holds whatever txqueuelen is;
 * - prio's bands are such pfifos: refused at 0 too;
 * - noqueue has no queue to size: any txqueuelen, 0 included, is fine.
 */
class TcQdiscTxqueuelenTestCase : public TestCase
{
  public:
    TcQdiscTxqueuelenTestCase()
        : TestCase("txqueuelen: pfifo_fast and pfifo limits, noqueue at 0")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<QueueDisc> qdisc = InstallRoot("pfifo_fast", 50);
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(),
                              "ns3::PfifoFastQueueDisc",
                              "pfifo_fast, txqueuelen 50");
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 50),
                              "pfifo_fast: txqueuelen 50 packets");
        Simulator::Destroy();

        qdisc = InstallRoot("pfifo_fast", 0);
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(),
                              "ns3::debloat::NoQueueDisc",
                              "pfifo_fast, txqueuelen 0: noqueue");
        RunBriefly();
        Simulator::Destroy();
        const TcQdiscHelper::QdiscSpec spec = TcQdiscHelper::Parse("pfifo_fast", 0);
        NS_TEST_EXPECT_MSG_EQ(spec.type, "ns3::debloat::NoQueueDisc", "Parse: noqueue");
        NS_TEST_EXPECT_MSG_EQ(spec.attributes.size(), 0, "noqueue has no attributes");

        qdisc = InstallRoot("pfifo", 50);
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 50),
                              "pfifo: txqueuelen 50 packets");
        Simulator::Destroy();

        qdisc = InstallRoot("pfifo limit 20", 0);
        NS_TEST_EXPECT_MSG_EQ(GetSize(qdisc, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 20),
                              "pfifo limit 20, txqueuelen 0");
        Simulator::Destroy();

        for (const std::string text : {"pfifo", "prio", "prio bands 4"})
        {
            const std::string message = SetRootError(text, 0);
            NS_TEST_EXPECT_MSG_NE(message.find("txqueuelen"), std::string::npos, text << message);
            NS_TEST_EXPECT_MSG_NE(message.find("limit N"), std::string::npos, text << message);
        }
        std::string parseError;
        try
        {
            TcQdiscHelper::Parse("pfifo", 0);
        }
        catch (const std::invalid_argument& error)
        {
            parseError = error.what();
        }
        NS_TEST_EXPECT_MSG_NE(parseError.find("txqueuelen"), std::string::npos, parseError);
        for (const std::string text : {"noqueue", "pfifo_fast", "pfifo limit 1"})
        {
            NS_TEST_EXPECT_MSG_EQ(SetRootError(text, 0), "", text << " with txqueuelen 0");
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief noqueue: NoQueueDisc, no words, and a packet for a stopped TX queue dropped with
 * reason "Device queue stopped" rather than held.
 *
 * Behind the SimpleNetDevice's single TX queue: with the queue stopped, an enqueue fails
 * and counts 1 drop of that reason, and the queue disc holds nothing; with the queue
 * running, the packet is held only until the queue disc runs (the traffic control layer
 * runs it right after the enqueue; here Dequeue() stands for that run).
 */
class TcQdiscNoQueueTestCase : public TestCase
{
  public:
    TcQdiscNoQueueTestCase()
        : TestCase("noqueue: NoQueueDisc, drops for a stopped queue")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::Parse("noqueue").attributes.size(), 0, "no words");
        const std::string message = SetRootError("noqueue limit 10");
        NS_TEST_EXPECT_MSG_NE(message.find("\"limit\""), std::string::npos, message);

        Ptr<QueueDisc> qdisc = InstallRoot("noqueue");
        NS_TEST_ASSERT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(),
                              "ns3::debloat::NoQueueDisc",
                              "noqueue");
        RunBriefly();
        Ptr<NetDeviceQueueInterface> ndqi = qdisc->GetNetDeviceQueueInterface();
        NS_TEST_ASSERT_MSG_NE(ndqi, nullptr, "the device's queue interface");
        ndqi->GetTxQueue(0)->Stop();
        NS_TEST_EXPECT_MSG_EQ(
            qdisc->Enqueue(debloattest::MakeUdpItem("10.0.0.1", "10.0.0.2", 1000, 1500)),
            false,
            "enqueue into a stopped queue");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetStats().GetNDroppedPackets(NoQueueDisc::STOPPED_DROP),
                              1,
                              "one drop: device queue stopped");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetNPackets(), 0, "nothing held");
        ndqi->GetTxQueue(0)->Wake();
        NS_TEST_EXPECT_MSG_EQ(
            qdisc->Enqueue(debloattest::MakeUdpItem("10.0.0.1", "10.0.0.2", 1000, 1500)),
            true,
            "enqueue into a running queue");
        NS_TEST_EXPECT_MSG_NE(qdisc->Dequeue(), nullptr, "the packet, to the device");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetNPackets(), 0, "nothing held after the run");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetStats().nTotalDroppedPackets, 1, "drops");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief prio: PrioQueueDisc with one pfifo of txqueuelen packets per band, tc's priomap,
 * and the band each TOS picks.
 *
 * tc's defaults (q_prio.c): 3 bands, priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1. A priomap
 * shorter than 16 overwrites the default from P0 on and keeps the rest (prio_parse_opt()
 * leaves them; its fill loop is commented out): "priomap 0 0" is 0 0 2 2 1 2 0 0 1 ... 1.
 * prio_tune() refuses bands outside 2 to 16 and a priomap entry not below bands, so "bands
 * 2" with the default map (which has 2s) is refused.
 *
 * Classification (PrioQueueDisc reads the socket priority the IP_TOS gives, as Linux's
 * rt_tos2priority()): TOS 0x10 is (0x10 & 0x1e) >> 1 = 8, priority 6 (interactive), band
 * priomap[6] = 0; TOS 0 is priority 0 (best effort), band 1; TOS 0x08 is 4, priority 2
 * (bulk), band 2. Dequeued strictly by band: 0x10, then 0, then 0x08, whatever the
 * enqueue order (0x08, 0, 0x10).
 */
class TcQdiscPrioTestCase : public TestCase
{
  public:
    TcQdiscPrioTestCase()
        : TestCase("prio: bands, priomap, txqueuelen pfifos, TOS to band")
    {
    }

  private:
    /**
     * @param qdisc a PrioQueueDisc
     * @return its priomap
     */
    static std::array<uint16_t, 16> GetPriomap(Ptr<QueueDisc> qdisc)
    {
        PriomapValue value;
        qdisc->GetAttribute("Priomap", value);
        return value.Get();
    }

    /**
     * Checks the bands: count and each one's pfifo limit.
     * @param qdisc a PrioQueueDisc
     * @param bands the bands expected
     * @param limit each band's limit, packets
     * @param text the tc text, for the report
     */
    void CheckBands(Ptr<QueueDisc> qdisc,
                    std::size_t bands,
                    uint32_t limit,
                    const std::string& text)
    {
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(), "ns3::PrioQueueDisc", text);
        NS_TEST_ASSERT_MSG_EQ(qdisc->GetNQueueDiscClasses(), bands, text << ": bands");
        for (std::size_t b = 0; b < bands; b++)
        {
            Ptr<QueueDisc> band = qdisc->GetQueueDiscClass(b)->GetQueueDisc();
            NS_TEST_EXPECT_MSG_EQ(band->GetInstanceTypeId().GetName(),
                                  "ns3::FifoQueueDisc",
                                  text << ": band " << b);
            NS_TEST_EXPECT_MSG_EQ(GetSize(band, "MaxSize"),
                                  QueueSize(QueueSizeUnit::PACKETS, limit),
                                  text << ": band " << b << " limit");
        }
    }

    void DoRun() override
    {
        const std::array<uint16_t, 16> defaults = {1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
        Ptr<QueueDisc> qdisc = InstallRoot("prio");
        CheckBands(qdisc, 3, 1000, "prio");
        NS_TEST_EXPECT_MSG_EQ((GetPriomap(qdisc) == defaults), true, "tc's default priomap");
        RunBriefly();

        // TOS to band, and strict priority on dequeue.
        for (const uint8_t tos : {0x08, 0x00, 0x10})
        {
            Ptr<Ipv4QueueDiscItem> item =
                debloattest::MakeUdpItem("10.0.0.1", "10.0.0.2", 1000 + tos, 100, tos);
            SocketPriorityTag priority;
            priority.SetPriority(Socket::IpTos2Priority(tos));
            item->GetPacket()->AddPacketTag(priority);
            NS_TEST_EXPECT_MSG_EQ(qdisc->Enqueue(item), true, "TOS " << +tos);
        }
        const std::vector<std::pair<uint8_t, std::size_t>> bandOf = {{0x10, 0},
                                                                     {0x00, 1},
                                                                     {0x08, 2}};
        for (const auto& [tos, band] : bandOf)
        {
            NS_TEST_EXPECT_MSG_EQ(qdisc->GetQueueDiscClass(band)->GetQueueDisc()->GetNPackets(),
                                  1,
                                  "TOS " << +tos << " in band " << band);
        }
        for (const auto& [tos, band] : bandOf)
        {
            Ptr<QueueDiscItem> item = qdisc->Dequeue();
            NS_TEST_ASSERT_MSG_NE(item, nullptr, "band " << band);
            NS_TEST_EXPECT_MSG_EQ(+DynamicCast<Ipv4QueueDiscItem>(item)->GetHeader().GetTos(),
                                  +tos,
                                  "dequeued from band " << band);
        }
        Simulator::Destroy();

        qdisc = InstallRoot("prio bands 4 priomap 3 3 2 2 1 1 0 0 3 3 2 2 1 1 0 0", 64);
        CheckBands(qdisc, 4, 64, "prio bands 4, txqueuelen 64");
        const std::array<uint16_t, 16> given = {3, 3, 2, 2, 1, 1, 0, 0, 3, 3, 2, 2, 1, 1, 0, 0};
        NS_TEST_EXPECT_MSG_EQ((GetPriomap(qdisc) == given), true, "the priomap given");
        RunBriefly();
        Simulator::Destroy();

        qdisc = InstallRoot("prio priomap 0 0");
        CheckBands(qdisc, 3, 1000, "prio priomap 0 0");
        const std::array<uint16_t, 16> partial = {0, 0, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
        NS_TEST_EXPECT_MSG_EQ((GetPriomap(qdisc) == partial), true, "P2 to P15 keep tc's map");
        Simulator::Destroy();

        // {text, what the message must contain}
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"prio bands 2", "priomap band 2 is not below bands 2"},
            {"prio bands 1", "bands 1 is out of range"},
            {"prio bands 17", "bands 17 is out of range"},
            {"prio bands x", "bands \"x\""},
            {"prio priomap 0 3", "priomap band 3 is not below bands 3"},
            {"prio priomap 0 x", "priomap entry \"x\""},
            {"prio limit 10", "\"limit\""},
        };
        for (const auto& [text, word] : cases)
        {
            const std::string message = SetRootError(text);
            NS_TEST_EXPECT_MSG_NE(message.find(word), std::string::npos, text << ": " << message);
        }
        NS_TEST_EXPECT_MSG_EQ(SetRootError("prio bands 2 priomap 1 0 0 0 1 0 1 1 1 1 1 1 1 1 1 1"),
                              "",
                              "two bands with a map that fits");
    }
};

/**
 * @ingroup debloat-tests
 * @brief htb: the qdisc line goes to HtbQueueDisc's Options (one path, as a lone htb line
 * and in a tree), which sets its attributes; a bad word of the line or of a leaf's qdisc
 * stops with a message naming it and the accepted words.
 *
 * "htb default 12 r2q 5 direct_qlen 64" with one leaf 1:12 (fq_codel limit 100): Default
 * 0x12, R2q 5, DirectQlen 64 on the root; the leaf is the fq_codel the helper translates
 * (MaxSize 100p). The lone line "htb default 12" gives the same Options words as a tree's
 * first line would (Parse() makes both).
 */
class TcQdiscHtbTestCase : public TestCase
{
  public:
    TcQdiscHtbTestCase()
        : TestCase("htb: the qdisc line sets the attributes through Options; bad words")
    {
    }

  private:
    /**
     * @param qdisc a queue disc
     * @param name a UintegerValue attribute
     * @return its value
     */
    static uint64_t GetUinteger(Ptr<QueueDisc> qdisc, const std::string& name)
    {
        UintegerValue value;
        qdisc->GetAttribute(name, value);
        return value.Get();
    }

    void DoRun() override
    {
        Ptr<QueueDisc> root = InstallRoot("htb default 12 r2q 5 direct_qlen 64;"
                                          "class parent 1: classid 1:12 rate 10Mbit;"
                                          "qdisc parent 1:12 fq_codel limit 100");
        NS_TEST_EXPECT_MSG_EQ(root->GetInstanceTypeId().GetName(),
                              "ns3::debloat::HtbQueueDisc",
                              "type");
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(root, "Default"), 0x12, "default (hexadecimal)");
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(root, "R2q"), 5, "r2q");
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(root, "DirectQlen"), 64, "direct_qlen");
        NS_TEST_EXPECT_MSG_EQ(Trim(GetString(root, "Options")),
                              "default 12 r2q 5 direct_qlen 64",
                              "Options reads back the attributes");
        RunBriefly();
        NS_TEST_ASSERT_MSG_EQ(root->GetNQueueDiscClasses(), 1, "one leaf");
        Ptr<QueueDisc> leaf = root->GetQueueDiscClass(0)->GetQueueDisc();
        NS_TEST_EXPECT_MSG_EQ(leaf->GetInstanceTypeId().GetName(),
                              "ns3::FqCoDelQueueDisc",
                              "leaf type");
        NS_TEST_EXPECT_MSG_EQ(GetSize(leaf, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 100),
                              "leaf limit");
        Simulator::Destroy();

        const TcQdiscHelper::QdiscSpec lone = TcQdiscHelper::Parse("htb default 12");
        NS_TEST_ASSERT_MSG_EQ(lone.attributes.size(), 1, "one attribute: Options");
        NS_TEST_EXPECT_MSG_EQ(lone.attributes[0].first, "Options", "Options");
        NS_TEST_EXPECT_MSG_EQ(lone.attributes[0].second->SerializeToString(nullptr),
                              "default 12",
                              "the words unchanged");

        const std::string classes = "; class parent 1: classid 1:12 rate 10Mbit; qdisc "
                                    "parent 1:12 ";
        const std::string badLine = SetRootError("htb defualt 12" + classes + "pfifo");
        NS_TEST_EXPECT_MSG_NE(badLine.find("defualt"), std::string::npos, badLine);
        for (const std::string word : {"r2q", "default", "direct_qlen"})
        {
            NS_TEST_EXPECT_MSG_NE(badLine.find(word), std::string::npos, badLine);
        }
        const std::string badLeaf = SetRootError("htb default 12" + classes + "fq_codel limt 1");
        NS_TEST_EXPECT_MSG_NE(badLeaf.find("\"limt\""), std::string::npos, badLeaf);
        NS_TEST_EXPECT_MSG_NE(badLeaf.find("ce_threshold"), std::string::npos, badLeaf);
    }
};

/**
 * @param qdisc a queue disc with classes
 * @param i a class
 * @return its queue disc
 */
Ptr<QueueDisc>
Child(Ptr<QueueDisc> qdisc, std::size_t i)
{
    return qdisc->GetQueueDiscClass(i)->GetQueueDisc();
}

/**
 * @param qdisc a queue disc with classes
 * @return the type of each class's queue disc, in class order
 */
std::vector<std::string>
ChildTypes(Ptr<QueueDisc> qdisc)
{
    std::vector<std::string> types;
    for (std::size_t i = 0; i < qdisc->GetNQueueDiscClasses(); ++i)
    {
        types.push_back(Child(qdisc, i)->GetInstanceTypeId().GetName());
    }
    return types;
}

/// ns-3's pfifo_fast, the default child.
const std::string PFIFO_FAST = "ns3::PfifoFastQueueDisc";

/**
 * @ingroup debloat-tests
 * @brief mq alone: ns-3's MqQueueDisc with one class per TX queue, each holding the default
 * qdisc, pfifo_fast of txqueuelen packets, with the unlimited Quota of a root; Linux's
 * default for a device (DefaultQdiscText()).
 *
 * - mq_init() gives each of the 4 TX queues get_default_qdisc_ops(): pfifo_fast (1000p with
 *   txqueuelen 1000, 64p with 64; with txqueuelen 0 the helper's noqueue, as for a root);
 * - each child is what its TX queue's wake runs (TrafficControlLayer's m_queueDiscsToWake), so
 *   its Quota is RootQuota()'s: UINT32_MAX, or the user's default for ns3::QueueDisc::Quota
 *   (32 here) when one is set; setting 64 back is ns-3's own default again, unlimited;
 * - the simulation initializes: ns-3's TrafficControlLayer stops unless the classes (4) match
 *   the device's TX queues (4), and with 2 given for a 4-queue device it stops with its
 *   message;
 * - attach_default_qdiscs(): pfifo_fast for 1 TX queue, mq for 4 or 8, noqueue when
 *   pfifo_fast cannot start (txqueuelen 0), for any queue count.
 */
class TcQdiscMqDefaultTestCase : public TestCase
{
  public:
    TcQdiscMqDefaultTestCase()
        : TestCase("mq: MqQueueDisc, a pfifo_fast per TX queue, unlimited Quota, the default")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::DefaultQdiscText(1), "pfifo_fast", "1 TX queue");
        NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::DefaultQdiscText(4), "mq", "4 TX queues");
        NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::DefaultQdiscText(8, 1000), "mq", "8 TX queues");
        NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::DefaultQdiscText(1, 0), "noqueue", "txqueuelen 0");
        NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::DefaultQdiscText(4, 0), "noqueue", "txqueuelen 0");
        NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::GetTypeName("mq"), "ns3::MqQueueDisc", "mq");
        NS_TEST_EXPECT_MSG_EQ(TcQdiscHelper::GetTypeName(" mq; parent :1 fq_codel"),
                              "ns3::MqQueueDisc",
                              "mq with children");
        TypeId tid;
        NS_TEST_EXPECT_MSG_EQ(TypeId::LookupByNameFailSafe("ns3::MqQueueDisc", &tid),
                              true,
                              "MqQueueDisc exists");

        for (const std::string text : {"mq", "mq handle 1:", "mq;\n"})
        {
            MqLink link = InstallMq(text, 4);
            NS_TEST_EXPECT_MSG_EQ(link.root->GetInstanceTypeId().GetName(),
                                  "ns3::MqQueueDisc",
                                  text);
            RunBriefly();
            NS_TEST_ASSERT_MSG_EQ(link.root->GetNQueueDiscClasses(), 4, text << ": 4 classes");
            for (std::size_t i = 0; i < 4; ++i)
            {
                Ptr<QueueDisc> child = Child(link.root, i);
                NS_TEST_EXPECT_MSG_EQ(child->GetInstanceTypeId().GetName(),
                                      PFIFO_FAST,
                                      text << ": child " << i);
                NS_TEST_EXPECT_MSG_EQ(GetSize(child, "MaxSize"),
                                      QueueSize(QueueSizeUnit::PACKETS, 1000),
                                      text << ": child " << i << " txqueuelen");
                NS_TEST_EXPECT_MSG_EQ(GetUinteger(child, "Quota"),
                                      UINT32_MAX,
                                      text << ": child " << i << " Quota");
            }
            Simulator::Destroy();
        }

        MqLink link = InstallMq("mq", 4, 64);
        for (std::size_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(GetSize(Child(link.root, i), "MaxSize"),
                                  QueueSize(QueueSizeUnit::PACKETS, 64),
                                  "txqueuelen 64: child " << i);
        }
        Simulator::Destroy();

        link = InstallMq("mq", 4, 0);
        const std::vector<std::string> noqueue(4, "ns3::debloat::NoQueueDisc");
        NS_TEST_EXPECT_MSG_EQ((ChildTypes(link.root) == noqueue), true, "txqueuelen 0: noqueue");
        RunBriefly();
        Simulator::Destroy();

        Config::SetDefault("ns3::QueueDisc::Quota", UintegerValue(32));
        link = InstallMq("mq; parent :2 fq_codel", 2);
        for (std::size_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(GetUinteger(Child(link.root, i), "Quota"),
                                  32,
                                  "the user's Quota: child " << i);
        }
        Simulator::Destroy();
        Config::SetDefault("ns3::QueueDisc::Quota", UintegerValue(64)); // ns-3's own again
        link = InstallMq("mq", 2);
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(Child(link.root, 1), "Quota"),
                              UINT32_MAX,
                              "ns-3's default Quota: unlimited");
        Simulator::Destroy();

        const debloattest::ChildOutcome mismatch = debloattest::RunInChild([] {
            NodeContainer nodes;
            nodes.Create(2);
            NicHelper nic;
            nic.SetDeviceAttribute("TxQueues", UintegerValue(4));
            NetDeviceContainer devices = nic.Install(nodes);
            InternetStackHelper internet;
            internet.Install(nodes);
            TrafficControlHelper tch;
            TcQdiscHelper::SetRootQueueDisc(tch, "mq", 1000, 2);
            tch.Install(devices.Get(0));
            RunBriefly();
        });
        NS_TEST_EXPECT_MSG_EQ(mismatch.stopped, true, "2 classes for 4 TX queues");
        NS_TEST_EXPECT_MSG_NE(mismatch.output.find("The number of child queue discs does not "
                                                   "match the number of netdevice queues"),
                              std::string::npos,
                              mismatch.output);
    }
};

/**
 * @ingroup debloat-tests
 * @brief mq's children: a line per TX queue puts its qdisc there, through Parse() as a root's
 * words; the others keep pfifo_fast; every child has the unlimited Quota.
 *
 * - "mq; parent :2 fq_codel; parent :4 cake bandwidth 50Mbit" on 4 TX queues: class N is TX
 *   queue N - 1 (mq_queue_get()), so pfifo_fast, FqCoDel, pfifo_fast, Cake. fq_codel has
 *   tc's defaults (10240p, ECN); cake's Options are "bandwidth 50Mbit", which it reads as
 *   50000000 / 8 = 6250000 bytes/s. The same written "qdisc parent 1:N ..." on newlines
 *   (1: being mq's handle when none is given) makes the same children.
 * - Class ids are hexadecimal (tc's get_tc_classid()): on 12 TX queues, "mq handle 1a:;
 *   parent 1a:a sfq perturb 10; parent :c pie limit 300; parent :1 prio bands 4" gives queue
 *   9 (0xa - 1) sfq with Options "perturb 10", queue 11 (0xc - 1) pie of 300p, queue 0 prio
 *   with 4 bands (pfifo of txqueuelen 1000 packets each), the other 9 pfifo_fast.
 */
class TcQdiscMqChildrenTestCase : public TestCase
{
  public:
    TcQdiscMqChildrenTestCase()
        : TestCase("mq: parent :N QDISC lines set each TX queue's qdisc")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> expected = {PFIFO_FAST,
                                                   "ns3::FqCoDelQueueDisc",
                                                   PFIFO_FAST,
                                                   "ns3::debloat::CakeQueueDisc"};
        for (const std::string text :
             {"mq; parent :2 fq_codel; parent :4 cake bandwidth 50Mbit",
              "mq\nqdisc parent 1:4 cake bandwidth 50Mbit\nqdisc parent 1:2 fq_codel\n"})
        {
            MqLink link = InstallMq(text, 4);
            NS_TEST_EXPECT_MSG_EQ((ChildTypes(link.root) == expected), true, text);
            RunBriefly();
            NS_TEST_ASSERT_MSG_EQ(link.root->GetNQueueDiscClasses(), 4, text);
            for (std::size_t i = 0; i < 4; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(GetUinteger(Child(link.root, i), "Quota"),
                                      UINT32_MAX,
                                      text << ": child " << i << " Quota");
            }
            Ptr<QueueDisc> fqCodel = Child(link.root, 1);
            NS_TEST_EXPECT_MSG_EQ(GetSize(fqCodel, "MaxSize"),
                                  QueueSize(QueueSizeUnit::PACKETS, 10240),
                                  text << ": fq_codel limit");
            NS_TEST_EXPECT_MSG_EQ(GetBool(fqCodel, "UseEcn"), true, text << ": fq_codel ecn");
            Ptr<QueueDisc> cake = Child(link.root, 3);
            NS_TEST_EXPECT_MSG_EQ(Trim(GetString(cake, "Options")),
                                  "bandwidth 50Mbit",
                                  text << ": cake Options");
            NS_TEST_EXPECT_MSG_EQ(DynamicCast<CakeQueueDisc>(cake)->GetConfig().rate,
                                  6250000,
                                  text << ": cake bandwidth 50Mbit");
            Simulator::Destroy();
        }

        MqLink link = InstallMq("mq handle 1a:; parent 1a:a sfq perturb 10; parent :c pie "
                                "limit 300; parent :1 prio bands 4",
                                12);
        std::vector<std::string> types(12, PFIFO_FAST);
        types[0] = "ns3::PrioQueueDisc";
        types[9] = "ns3::debloat::SfqQueueDisc";
        types[11] = "ns3::PieQueueDisc";
        NS_TEST_EXPECT_MSG_EQ((ChildTypes(link.root) == types), true, "12 TX queues");
        RunBriefly();
        NS_TEST_ASSERT_MSG_EQ(link.root->GetNQueueDiscClasses(), 12, "12 classes");
        NS_TEST_EXPECT_MSG_EQ(Trim(GetString(Child(link.root, 9), "Options")),
                              "perturb 10",
                              "parent 1a:a: sfq");
        NS_TEST_EXPECT_MSG_EQ(GetTime(Child(link.root, 9), "Perturb"),
                              Seconds(10),
                              "sfq perturb 10");
        NS_TEST_EXPECT_MSG_EQ(GetSize(Child(link.root, 11), "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 300),
                              "parent :c: pie limit 300");
        Ptr<QueueDisc> prio = Child(link.root, 0);
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(prio, "Quota"), UINT32_MAX, "prio child's Quota");
        const std::vector<std::string> bands(4, "ns3::FifoQueueDisc");
        NS_TEST_EXPECT_MSG_EQ((ChildTypes(prio) == bands), true, "prio bands 4");
        for (std::size_t b = 0; b < 4; ++b)
        {
            NS_TEST_EXPECT_MSG_EQ(GetSize(Child(prio, b), "MaxSize"),
                                  QueueSize(QueueSizeUnit::PACKETS, 1000),
                                  "band " << b);
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief mq's errors: each throws std::invalid_argument naming the word or line and what is
 * accepted, before anything is installed.
 *
 * mq on a single-queue device (mq_init(): -EOPNOTSUPP when !netif_is_multiqueue()); a
 * parent minor of 0 or above the TX queues (mq_queue_get() finds no queue); another
 * major than mq's handle; a class id that is not hexadecimal MAJ:MIN; the same TX queue
 * twice (however spelt); an unknown word on the mq line or at a child line's start; a bad
 * handle; a child's bad qdisc (Parse()'s message, after the child's parent); htb and mq as
 * children; nTxQueues 0, or above 256 (ns-3 numbers TX queues in 8 bits). Parse() refuses
 * mq (a root only), and the unknown-qdisc message names mq as a multiqueue device's root.
 */
class TcQdiscMqErrorsTestCase : public TestCase
{
  public:
    TcQdiscMqErrorsTestCase()
        : TestCase("mq: errors name the word and what is accepted")
    {
    }

  private:
    /// A case: the text, the device, and what the message must contain.
    struct Case
    {
        std::string text;                   ///< tc text
        uint32_t nTxQueues;                 ///< TX queues
        uint32_t txqueuelen;                ///< txqueuelen
        std::vector<std::string> fragments; ///< what the message must contain
    };

    void DoRun() override
    {
        const std::vector<Case> cases = {
            {"mq", 1, 1000, {"tc mq:", "1 TX queue", "EOPNOTSUPP", "netif_is_multiqueue"}},
            {"mq; parent :1 fq_codel", 1, 1000, {"EOPNOTSUPP"}},
            {"mq; parent :0 fq_codel", 4, 1000, {"parent \":0\"", ":1 to :4", "TX queue"}},
            {"mq; parent :5 fq_codel", 4, 1000, {"parent \":5\"", ":1 to :4", "4 TX queues"}},
            {"mq; parent :a fq_codel", 8, 1000, {"parent \":a\"", ":1 to :8"}},
            {"mq; parent 1:9 fq_codel", 8, 1000, {"parent \"1:9\"", ":1 to :8"}},
            {"mq; parent :2 fq_codel; parent 1:2 pie",
             4,
             1000,
             {"parent \"1:2\"", "TX queue 1", "parent \":2\"", "one qdisc line per TX queue"}},
            {"mq; parent :02 fq_codel; parent :2 fq_codel", 4, 1000, {"parent \":2\""}},
            {"mq bogus", 4, 1000, {"\"bogus\"", "handle N:"}},
            {"mq handle 0:", 4, 1000, {"handle \"0:\"", "1 to ffff"}},
            {"mq handle x:", 4, 1000, {"handle \"x:\"", "1 to ffff"}},
            {"mq handle 10000:", 4, 1000, {"handle \"10000:\""}},
            {"mq; parent 2:1 fq_codel", 4, 1000, {"parent \"2:1\"", "mq's handle 1:"}},
            {"mq handle 2:; parent 1:1 fq_codel", 4, 1000, {"parent \"1:1\"", "handle 2:"}},
            {"mq; parent :x fq_codel", 4, 1000, {"parent \":x\"", "not a class id"}},
            {"mq; parent 3 fq_codel", 4, 1000, {"parent \"3\"", "not a class id"}},
            {"mq; parent :-1 fq_codel", 4, 1000, {"parent \":-1\"", "not a class id"}},
            {"mq; parent :2", 4, 1000, {"parent \":2\"", "tc qdisc \"\" is unknown", ACCEPTED}},
            {"mq; parent :2 fq_codel limt 5", 4, 1000, {"parent \":2\"", "\"limt\"", "flows"}},
            {"mq; parent :2 cake bandwith 5Mbit", 4, 1000, {"parent \":2\"", "bandwith"}},
            {"mq; parent :2 red", 4, 1000, {"parent \":2\"", "\"red\"", ACCEPTED}},
            {"mq; parent :2 prio bands 1", 4, 1000, {"parent \":2\"", "bands 1"}},
            {"mq; parent :2 htb default 1", 4, 1000, {"parent \":2\"", "htb under mq"}},
            {"mq; parent :2 mq", 4, 1000, {"parent \":2\"", "root only", "EOPNOTSUPP"}},
            {"mq; class parent 1: classid 1:1 rate 1Mbit",
             4,
             1000,
             {"\"class\"", "parent :N QDISC"}},
            {"mq; qdisc add parent :1 fq_codel", 4, 1000, {"\"add\"", "parent :N QDISC"}},
            {"mq; parent :3 pfifo", 4, 0, {"parent \":3\"", "txqueuelen"}},
            {"fq_codel", 0, 1000, {"nTxQueues 0", "1 to 256"}},
            {"mq", 0, 1000, {"nTxQueues 0"}},
            {"mq", 257, 1000, {"nTxQueues 257", "8 bits"}},
        };
        for (const Case& c : cases)
        {
            const std::string message = SetRootError(c.text, c.txqueuelen, c.nTxQueues);
            NS_TEST_EXPECT_MSG_NE(message, "", c.text << ": no exception");
            for (const std::string& fragment : c.fragments)
            {
                NS_TEST_EXPECT_MSG_NE(message.find(fragment),
                                      std::string::npos,
                                      c.text << ": \"" << fragment << "\" in " << message);
            }
        }

        // The same texts and others are fine where they fit.
        const std::vector<std::pair<std::string, uint32_t>> fine = {
            {"mq", 2},
            {"mq;", 2},
            {"mq handle ffff:; parent ffff:2 noqueue", 2},
            {"mq handle 8001; parent :1 pfifo limit 10; parent 8001:2 codel", 2},
            {"mq; parent :1 pfifo_fast; parent :2 noqueue", 2},
            {"mq; parent :10 fq_codel", 16},
            {"mq; parent :100 fq_codel", 256},
            {"fq_codel", 4}, // a classless root over all TX queues, as Linux allows
        };
        for (const auto& [text, queues] : fine)
        {
            NS_TEST_EXPECT_MSG_EQ(SetRootError(text, 1000, queues), "", text);
        }
        NS_TEST_EXPECT_MSG_EQ(SetRootError("mq; parent :1 pfifo_fast", 0, 2), "", "txqueuelen 0");

        std::string parseError;
        try
        {
            TcQdiscHelper::Parse("mq handle 1:");
        }
        catch (const std::invalid_argument& error)
        {
            parseError = error.what();
        }
        NS_TEST_EXPECT_MSG_NE(parseError.find("root only"), std::string::npos, parseError);
        std::string defaultError;
        try
        {
            TcQdiscHelper::DefaultQdiscText(0);
        }
        catch (const std::invalid_argument& error)
        {
            defaultError = error.what();
        }
        NS_TEST_EXPECT_MSG_NE(defaultError.find("nTxQueues 0"), std::string::npos, defaultError);
        const std::string unknown = SetRootError("mqq", 1000, 4);
        NS_TEST_EXPECT_MSG_NE(unknown.find("as a multiqueue device's root: mq"),
                              std::string::npos,
                              unknown);
    }
};

/**
 * @ingroup debloat-tests
 * @brief mq carries traffic: a packet goes to the child of the TX queue the device picked,
 * every packet is accounted for, and nothing is stranded in a child.
 *
 * 8 UDP flows (source ports 5000 to 5007, to port 9 of the receiver) of 25 datagrams of
 * 1000 bytes each, all sent at t = 0, from a 4-queue NIC under "mq; parent :3 fq_codel".
 * - TrafficControlLayer::Send() asks the device for the TX queue (NicNetDevice: the flow
 *   hash, skb_tx_hash()), stores it in the item (SetTxQueueIndex()) and enqueues into that
 *   queue's qdisc, which for mq is the child of class queue + 1: every item child i sees
 *   carries TX queue i.
 * - A flow's packets share their hash: each flow enters exactly one child.
 * - Nothing is dropped (at most 200 packets in a child of 1000 or 10240): the children's
 *   enqueues add up to 8 x 25 = 200, and so does the MqQueueDisc's own count, which each
 *   child's enqueue raises (as mq_dump() adds the children up).
 * - After 100 ms (200 frames take about 1.7 ms at 1 Gbit/s) the children hold nothing (each
 *   queue's wake ran its child, with no quota), and the receiver has all 200.
 * - The flows use more than one queue: all 8 on one of 4 has probability 4 / 4^8 = 6e-5,
 *   and the run is deterministic (seed 1, run 1).
 * - PrintStats() shows the mq with its children's sums and each child under parent 1:N.
 */
class TcQdiscMqTrafficTestCase : public TestCase
{
  public:
    TcQdiscMqTrafficTestCase()
        : TestCase("mq: each packet goes to its TX queue's child; all delivered")
    {
    }

  private:
    static constexpr uint32_t QUEUES = 4;   ///< TX queues
    static constexpr uint32_t FLOWS = 8;    ///< UDP flows
    static constexpr uint32_t PACKETS = 25; ///< datagrams per flow

    /// What one child saw.
    struct ChildLog
    {
        uint32_t index{0};        ///< the child's class (its TX queue)
        uint32_t enqueued{0};     ///< items enqueued
        uint32_t otherQueue{0};   ///< items whose TX queue is not the child's
        std::set<uint16_t> ports; ///< the flows' source ports

        /**
         * Records an item enqueued into the child.
         * @param item the item
         */
        void Enqueued(Ptr<const QueueDiscItem> item)
        {
            enqueued++;
            otherQueue += item->GetTxQueueIndex() == index ? 0 : 1;
            UdpHeader udp;
            item->GetPacket()->PeekHeader(udp);
            ports.insert(udp.GetSourcePort());
        }
    };

    /**
     * Counts the datagrams a socket received.
     * @param socket the socket
     */
    void Received(Ptr<Socket> socket)
    {
        while (socket->Recv())
        {
            m_received++;
        }
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        MqLink link = InstallMq("mq; parent :3 fq_codel", QUEUES);
        compat::PopulateNeighborCaches();
        NS_TEST_ASSERT_MSG_EQ(link.root->GetNQueueDiscClasses(), QUEUES, "classes");
        std::vector<ChildLog> logs(QUEUES);
        for (uint32_t i = 0; i < QUEUES; ++i)
        {
            logs[i].index = i;
            NS_TEST_ASSERT_MSG_EQ(
                Child(link.root, i)
                    ->TraceConnectWithoutContext("Enqueue",
                                                 MakeCallback(&ChildLog::Enqueued, &logs[i])),
                true,
                "Enqueue trace of child " << i);
        }
        Ptr<Socket> sink = Socket::CreateSocket(link.nodes.Get(1), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink->SetRecvCallback(MakeCallback(&TcQdiscMqTrafficTestCase::Received, this));
        for (uint32_t f = 0; f < FLOWS; ++f)
        {
            Ptr<Socket> source =
                Socket::CreateSocket(link.nodes.Get(0), UdpSocketFactory::GetTypeId());
            source->Bind(InetSocketAddress(Ipv4Address::GetAny(), 5000 + f));
            source->Connect(InetSocketAddress(link.addrs.GetAddress(1), 9));
            compat::ScheduleFunction(Seconds(0), [source] {
                for (uint32_t p = 0; p < PACKETS; ++p)
                {
                    source->Send(Create<Packet>(1000));
                }
            });
        }
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();

        uint32_t total = 0;
        uint32_t used = 0;
        std::map<uint16_t, uint32_t> childrenOfFlow;
        for (uint32_t i = 0; i < QUEUES; ++i)
        {
            Ptr<QueueDisc> child = Child(link.root, i);
            NS_TEST_EXPECT_MSG_EQ(logs[i].otherQueue, 0, "child " << i << ": its queue's only");
            NS_TEST_EXPECT_MSG_EQ(child->GetStats().nTotalEnqueuedPackets,
                                  logs[i].enqueued,
                                  "child " << i << ": its counter");
            NS_TEST_EXPECT_MSG_EQ(child->GetStats().nTotalDroppedPackets, 0, "child " << i);
            NS_TEST_EXPECT_MSG_EQ(child->GetNPackets(), 0, "child " << i << ": nothing left");
            total += logs[i].enqueued;
            used += logs[i].enqueued > 0 ? 1 : 0;
            for (uint16_t port : logs[i].ports)
            {
                childrenOfFlow[port]++;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(total, FLOWS * PACKETS, "the children's enqueues");
        NS_TEST_EXPECT_MSG_EQ(link.root->GetStats().nTotalEnqueuedPackets,
                              FLOWS * PACKETS,
                              "the MqQueueDisc's count");
        NS_TEST_EXPECT_MSG_EQ(childrenOfFlow.size(), FLOWS, "every flow seen");
        for (const auto& [port, children] : childrenOfFlow)
        {
            NS_TEST_EXPECT_MSG_EQ(children, 1, "flow from port " << port << ": one child");
        }
        NS_TEST_EXPECT_MSG_GT(used, 1, "the flows spread over the TX queues");
        NS_TEST_EXPECT_MSG_EQ(m_received, FLOWS * PACKETS, "all delivered");

        // tc -s qdisc show: each datagram is 1000 + 8 (UDP) + 20 (IP) = 1028 bytes in the
        // qdisc; the mq line adds its children up (mq_dump()): 200 packets, 205600 bytes.
        std::ostringstream expected;
        auto counters = [&expected](uint32_t packets) {
            expected << " Sent " << 1028 * packets << " bytes " << packets
                     << " pkt (dropped 0, overlimits 0 requeues 0)\n backlog 0b 0p requeues 0\n";
        };
        expected << "qdisc mq 1: root\n";
        counters(total);
        for (uint32_t i = 0; i < QUEUES; ++i)
        {
            expected << "qdisc " << (i == 2 ? "fq_codel" : "pfifo_fast") << " parent 1:" << i + 1
                     << "\n";
            counters(logs[i].enqueued);
        }
        std::ostringstream printed;
        TcQdiscHelper::PrintStats(link.devices.Get(0), printed);
        NS_TEST_EXPECT_MSG_EQ(printed.str(), expected.str(), "tc -s qdisc show");
        Simulator::Destroy();
    }

    uint32_t m_received{0}; ///< datagrams the receiver got
};

/**
 * @ingroup debloat-tests
 * @brief Every fq_codel TcQdiscHelper makes (root, mq child, htb leaf) gets a
 * FlowHashPacketFilter with the queue disc's Perturbation and Flows, and the filter's class
 * is ns-3's flow hash (QueueDiscItem::Hash(Perturbation)), which FqCoDelQueueDisc otherwise
 * computes: a TCP segment with a timestamp option, a UDP datagram, and an item of no IP
 * version (hash 0); other qdiscs get no filter.
 */
class TcQdiscFlowHashFilterTestCase : public TestCase
{
    /// A queue disc item of no IP version (QueueDiscItem is abstract).
    class RawItem : public QueueDiscItem
    {
      public:
        /// @param packet the packet
        explicit RawItem(Ptr<Packet> packet)
            : QueueDiscItem(packet, Address(), 0x88B5)
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

  public:
    TcQdiscFlowHashFilterTestCase()
        : TestCase("fq_codel gets a flow-hash filter that returns ns-3's flow hash")
    {
    }

  private:
    /**
     * Checks a queue disc's filter against QueueDiscItem::Hash().
     * @param qdisc an FqCoDelQueueDisc
     * @param flows the Flows it was made with
     * @param what names it in messages
     */
    void CheckFilter(Ptr<QueueDisc> qdisc, uint32_t flows, const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(qdisc->GetInstanceTypeId().GetName(),
                              "ns3::FqCoDelQueueDisc",
                              what << ": fq_codel");
        NS_TEST_ASSERT_MSG_EQ(qdisc->GetNPacketFilters(), 1, what << ": one filter");
        Ptr<PacketFilter> filter = qdisc->GetPacketFilter(0);
        NS_TEST_ASSERT_MSG_EQ(filter->GetInstanceTypeId().GetName(),
                              "ns3::debloat::FlowHashPacketFilter",
                              what << ": the flow-hash filter");
        UintegerValue qdiscPerturbation;
        UintegerValue filterPerturbation;
        UintegerValue filterFlows;
        qdisc->GetAttribute("Perturbation", qdiscPerturbation);
        filter->GetAttribute("Perturbation", filterPerturbation);
        filter->GetAttribute("Flows", filterFlows);
        NS_TEST_EXPECT_MSG_EQ(filterPerturbation.Get(),
                              qdiscPerturbation.Get(),
                              what << ": Perturbation");
        NS_TEST_EXPECT_MSG_EQ(filterFlows.Get(), flows, what << ": Flows");
        const auto perturbation = static_cast<uint32_t>(qdiscPerturbation.Get());

        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.1"));
        ip.SetDestination(Ipv4Address("10.0.0.2"));
        TcpHeader tcp;
        tcp.SetSourcePort(49152);
        tcp.SetDestinationPort(12865);
        Ptr<TcpOptionTS> ts = CreateObject<TcpOptionTS>();
        ts->SetTimestamp(123456);
        tcp.AppendOption(ts);
        Ptr<Packet> segment = Create<Packet>(1448);
        segment->AddHeader(tcp);
        ip.SetProtocol(6);
        Ptr<QueueDiscItem> tcpItem = Create<Ipv4QueueDiscItem>(segment, Address(), 0x0800, ip);
        UdpHeader udp;
        udp.SetSourcePort(5000);
        udp.SetDestinationPort(6000);
        Ptr<Packet> datagram = Create<Packet>(100);
        datagram->AddHeader(udp);
        ip.SetProtocol(17);
        Ptr<QueueDiscItem> udpItem = Create<Ipv4QueueDiscItem>(datagram, Address(), 0x0800, ip);
        Ptr<QueueDiscItem> rawItem = Create<RawItem>(Create<Packet>(60));
        for (const auto& [item, name] : {std::make_pair(tcpItem, "TCP"),
                                         std::make_pair(udpItem, "UDP"),
                                         std::make_pair(rawItem, "not IP")})
        {
            NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(filter->Classify(item)),
                                  item->Hash(perturbation),
                                  what << ": " << name);
        }
    }

    void DoRun() override
    {
        // The root: Flows from the tc words.
        CheckFilter(InstallRoot("fq_codel flows 256"), 256, "root");
        Simulator::Destroy();
        // Under mq, each TX queue's child; Flows from FqCoDelQueueDisc's default (1024).
        {
            MqLink link = InstallMq("mq", 2);
            NS_TEST_ASSERT_MSG_EQ(link.root->GetNPacketFilters(), 0, "mq: none");
            Simulator::Destroy();
            MqLink fq = InstallMq("mq\nqdisc parent 1:1 fq_codel\nqdisc parent 1:2 fq_codel", 2);
            for (uint32_t i = 0; i < fq.root->GetNQueueDiscClasses(); ++i)
            {
                CheckFilter(fq.root->GetQueueDiscClass(i)->GetQueueDisc(), 1024, "mq child");
            }
        }
        Simulator::Destroy();
        // An htb leaf.
        Ptr<QueueDisc> htb = InstallRoot("htb default 12;"
                                         "class parent 1: classid 1:12 rate 10Mbit;"
                                         "qdisc parent 1:12 fq_codel flows 64");
        NS_TEST_EXPECT_MSG_EQ(htb->GetNPacketFilters(), 0, "htb: none");
        CheckFilter(htb->GetQueueDiscClass(0)->GetQueueDisc(), 64, "htb leaf");
        Simulator::Destroy();
        // Other qdiscs: none.
        NS_TEST_EXPECT_MSG_EQ(InstallRoot("codel")->GetNPacketFilters(), 0, "codel: none");
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(InstallRoot("pfifo_fast")->GetNPacketFilters(), 0, "pfifo_fast");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-tc-qdisc-helper suite.
 */
class TcQdiscHelperTestSuite : public TestSuite
{
  public:
    TcQdiscHelperTestSuite()
        : TestSuite("debloat-tc-qdisc-helper", compat::SUITE_UNIT)
    {
        AddTestCase(new TcQdiscNamesTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscDefaultsTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscOptionsTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscPassThroughTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscErrorsTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscSfqCakeThrowTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscTxqueuelenTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscNoQueueTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscPrioTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscHtbTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscMqDefaultTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscMqChildrenTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscMqErrorsTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscMqTrafficTestCase(), compat::TEST_QUICK);
        AddTestCase(new TcQdiscFlowHashFilterTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
TcQdiscHelperTestSuite g_tcQdiscHelperTestSuite;

} // namespace
