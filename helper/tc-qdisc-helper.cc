/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tc-qdisc-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/cake-queue-disc.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"
#include "ns3/sfq-queue-disc.h"
#include "ns3/string.h"
#include "ns3/tc-options.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

namespace
{

/// A supported qdisc: tc's name and ns-3's type.
struct Qdisc
{
    const char* name; ///< tc's name
    const char* type; ///< ns-3 TypeId name
};

/// The qdiscs, in the order the error message lists them.
const Qdisc QDISCS[] = {
    {"pfifo_fast", "ns3::PfifoFastQueueDisc"},
    {"pfifo", "ns3::FifoQueueDisc"},
    {"fq_codel", "ns3::FqCoDelQueueDisc"},
    {"codel", "ns3::CoDelQueueDisc"},
    {"pie", "ns3::PieQueueDisc"},
    {"sfq", "ns3::debloat::SfqQueueDisc"},
    {"cake", "ns3::debloat::CakeQueueDisc"},
};

/**
 * @param text the qdisc and its options
 * @param[out] options the text after the qdisc name
 * @return the qdisc
 */
const Qdisc&
Find(const std::string& text, std::string& options)
{
    std::istringstream words(text);
    std::string name;
    words >> name;
    // The rest, every line of it, one space between words.
    options.clear();
    for (std::string word; words >> word;)
    {
        options += (options.empty() ? "" : " ") + word;
    }
    for (const Qdisc& qdisc : QDISCS)
    {
        if (name == qdisc.name)
        {
            return qdisc;
        }
    }
    std::string accepted;
    for (const Qdisc& qdisc : QDISCS)
    {
        accepted += std::string(accepted.empty() ? "" : ", ") + qdisc.name;
    }
    throw std::invalid_argument("tc qdisc \"" + name + "\" is unknown; accepted: " + accepted);
}

/**
 * @param packets a packet count
 * @return it as a QueueSizeValue
 */
QueueSizeValue
Packets(uint64_t packets)
{
    return QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, static_cast<uint32_t>(packets)));
}

} // namespace

std::vector<std::string>
TcQdiscHelper::GetQdiscNames()
{
    std::vector<std::string> names;
    for (const Qdisc& qdisc : QDISCS)
    {
        names.emplace_back(qdisc.name);
    }
    return names;
}

std::string
TcQdiscHelper::GetTypeName(const std::string& text)
{
    std::string options;
    return Find(text, options).type;
}

void
TcQdiscHelper::SetRootQueueDisc(TrafficControlHelper& helper, const std::string& text)
{
    std::string words;
    const Qdisc& qdisc = Find(text, words);
    const std::string name = qdisc.name;
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> attributes;
    auto add = [&attributes](const std::string& attribute, const AttributeValue& value) {
        attributes.emplace_back(attribute, value.Copy());
    };
    if (name == "sfq" || name == "cake")
    {
        // Checked now, so that a bad word stops here rather than when the simulation starts.
        if (name == "sfq")
        {
            SfqQueueDisc::ValidateOptions(words);
        }
        else
        {
            CakeQueueDisc::ValidateOptions(words);
        }
        add("Options", StringValue(words));
    }
    else if (name == "pfifo_fast")
    {
        TcGrammar("pfifo_fast", {}).Parse(words);
        add("MaxSize", Packets(1000)); // txqueuelen
    }
    else if (name == "pfifo")
    {
        const TcOptions options =
            TcGrammar("pfifo", {TcKeyword::Unsigned("limit", 1, UINT32_MAX)}).Parse(words);
        add("MaxSize", Packets(options.GetUnsigned("limit").value_or(1000)));
    }
    else
    {
        std::vector<TcKeyword> keywords = {TcKeyword::Unsigned("limit", 1, UINT32_MAX),
                                           TcKeyword::Time("target", 1000),
                                           TcKeyword::Flag("ecn").InGroup("ecn"),
                                           TcKeyword::Flag("noecn").InGroup("ecn")};
        if (name == "fq_codel" || name == "codel")
        {
            keywords.push_back(TcKeyword::Time("interval", 1000));
            keywords.push_back(TcKeyword::Time("ce_threshold"));
        }
        if (name == "fq_codel")
        {
            keywords.push_back(TcKeyword::Unsigned("flows", 1, 65536));
        }
        if (name == "pie")
        {
            keywords.push_back(TcKeyword::Time("tupdate", 1000));
        }
        const TcOptions options = TcGrammar(name, keywords).Parse(words);
        // Linux's defaults: fq_codel 10240 packets with ECN; codel and pie 1000 without.
        const bool fqCodel = name == "fq_codel";
        add("MaxSize", Packets(options.GetUnsigned("limit").value_or(fqCodel ? 10240 : 1000)));
        const std::string ecn = options.GetWord("ecn").value_or(fqCodel ? "ecn" : "noecn");
        add("UseEcn", BooleanValue(ecn == "ecn"));
        const uint64_t target =
            options.GetTime("target").value_or(name == "pie" ? 15000000 : 5000000);
        // CoDel's and FqCoDel's Target and Interval are strings ("5ms").
        auto duration = [](uint64_t ns) { return StringValue(std::to_string(ns) + "ns"); };
        if (name == "pie")
        {
            add("QueueDelayReference", TimeValue(NanoSeconds(target)));
        }
        else
        {
            add("Target", duration(target));
        }
        if (name == "fq_codel" || name == "codel")
        {
            if (const auto interval = options.GetTime("interval"))
            {
                add("Interval", duration(*interval));
            }
            if (const auto threshold = options.GetTime("ce_threshold"))
            {
                add("CeThreshold", TimeValue(NanoSeconds(*threshold)));
            }
        }
        if (fqCodel)
        {
            if (const auto flows = options.GetUnsigned("flows"))
            {
                add("Flows", UintegerValue(*flows));
            }
        }
        if (name == "pie")
        {
            if (const auto tupdate = options.GetTime("tupdate"))
            {
                add("Tupdate", TimeValue(NanoSeconds(*tupdate)));
            }
        }
    }
    // SetRootQueueDisc() takes name/value pairs: ns-3.35 up to 15 defaulted ones, later
    // releases a variadic list; a call with exactly the pairs at hand suits both.
    const std::string type = qdisc.type;
    auto n = [&attributes](size_t i) -> const std::string& { return attributes[i].first; };
    auto v = [&attributes](size_t i) -> const AttributeValue& { return *attributes[i].second; };
    switch (attributes.size())
    {
    case 1:
        helper.SetRootQueueDisc(type, n(0), v(0));
        break;
    case 2:
        helper.SetRootQueueDisc(type, n(0), v(0), n(1), v(1));
        break;
    case 3:
        helper.SetRootQueueDisc(type, n(0), v(0), n(1), v(1), n(2), v(2));
        break;
    case 4:
        helper.SetRootQueueDisc(type, n(0), v(0), n(1), v(1), n(2), v(2), n(3), v(3));
        break;
    case 5:
        helper.SetRootQueueDisc(type, n(0), v(0), n(1), v(1), n(2), v(2), n(3), v(3), n(4), v(4));
        break;
    default:
        NS_ABORT_MSG_IF(attributes.size() != 6, "TcQdiscHelper: too many attributes");
        helper.SetRootQueueDisc(type,
                                n(0),
                                v(0),
                                n(1),
                                v(1),
                                n(2),
                                v(2),
                                n(3),
                                v(3),
                                n(4),
                                v(4),
                                n(5),
                                v(5));
        break;
    }
}

} // namespace debloat
} // namespace ns3
