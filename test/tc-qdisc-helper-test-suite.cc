/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * TcQdiscHelper: tc's qdisc names and their ns-3 types, the root queue disc it installs with
 * tc's defaults and with options, sfq's and cake's words handed over as Options, and the
 * errors for unknown qdiscs and unknown or malformed words.
 */

#include "ns3/cake-queue-disc.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// The accepted qdiscs as the unknown-qdisc message lists them (GetQdiscNames() order).
const std::string ACCEPTED = "pfifo_fast, pfifo, fq_codel, codel, pie, sfq, cake, htb";

/**
 * Builds two nodes with the internet stack joined by a SimpleNetDevice pair, installs the
 * root queue disc that TcQdiscHelper makes of text on the first device, then assigns
 * addresses (which gives the second device ns-3's default root queue disc).
 * @param text the tc text
 * @return the first device's root queue disc; the simulation is left for the caller to run
 *         and destroy
 */
Ptr<QueueDisc>
InstallRoot(const std::string& text)
{
    NodeContainer nodes;
    nodes.Create(2);
    InternetStackHelper internet;
    internet.Install(nodes);
    SimpleNetDeviceHelper simple;
    NetDeviceContainer devices = simple.Install(nodes);
    TrafficControlHelper tch;
    TcQdiscHelper::SetRootQueueDisc(tch, text);
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
 * @return the message of the std::invalid_argument it throws, or "" if it throws none
 */
std::string
SetRootError(const std::string& text)
{
    TrafficControlHelper tch;
    try
    {
        TcQdiscHelper::SetRootQueueDisc(tch, text);
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
        const std::vector<std::string> expected =
            {"pfifo_fast", "pfifo", "fq_codel", "codel", "pie", "sfq", "cake", "htb"};
        NS_TEST_ASSERT_MSG_EQ((names == expected), true, "the eight qdiscs, in order");

        const std::vector<std::pair<std::string, std::string>> types = {
            {"pfifo_fast", "ns3::PfifoFastQueueDisc"},
            {"pfifo", "ns3::FifoQueueDisc"},
            {"fq_codel", "ns3::FqCoDelQueueDisc"},
            {"codel", "ns3::CoDelQueueDisc"},
            {"pie", "ns3::PieQueueDisc"},
            {"sfq", "ns3::debloat::SfqQueueDisc"},
            {"cake", "ns3::debloat::CakeQueueDisc"},
            {"htb", "ns3::debloat::HtbQueueDisc"},
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
    }
};

/// The suite's single instance.
TcQdiscHelperTestSuite g_tcQdiscHelperTestSuite;

} // namespace
