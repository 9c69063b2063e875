/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tc-qdisc-helper.h"

#include "ns3/abort.h"
#include "ns3/attribute-defaults.h"
#include "ns3/boolean.h"
#include "ns3/cake-queue-disc.h"
#include "ns3/htb-config.h"
#include "ns3/htb-queue-disc.h"
#include "ns3/mq-queue-disc.h"
#include "ns3/net-device.h"
#include "ns3/netem-queue-disc.h"
#include "ns3/no-queue-disc.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/qdisc-kinds.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/sfq-queue-disc.h"
#include "ns3/string.h"
#include "ns3/tc-options.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

namespace
{

/**
 * @param text the qdisc and its options
 * @param[out] options the text after the qdisc name
 * @return the qdisc
 */
const QdiscKind&
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
    if (const QdiscKind* kind = FindQdiscKind(name))
    {
        return *kind;
    }
    throw std::invalid_argument("tc qdisc \"" + name + "\" is unknown; accepted: " +
                                QdiscKindNames() + "; as a multiqueue device's root: mq");
}

/// mq's TypeId name (ns-3's MqQueueDisc, in traffic-control since ns-3.28).
constexpr const char* MQ_TYPE = "ns3::MqQueueDisc";

/**
 * The most TX queues the helper takes.
 *
 * Deviation from Linux: netif_alloc_netdev_queues() takes up to 0xffff; ns-3's QueueItem
 * keeps the TX queue index in 8 bits (SetTxQueueIndex(uint8_t)), so a queue above 255 would
 * be taken for another.
 */
constexpr uint32_t MAX_TX_QUEUES = 256;

/**
 * @param text tc text, perhaps several lines separated by ';' or newlines
 * @return the first word of its first line ("mq" of "mq; parent :1 fq_codel"), or ""
 */
std::string
FirstWord(const std::string& text)
{
    const std::vector<std::string> lines = SplitHtbClassLines(text);
    std::string word;
    if (!lines.empty())
    {
        std::istringstream(lines.front()) >> word;
    }
    return word;
}

/**
 * Reads a hexadecimal number as tc reads handles and class ids (strtoul(..., 16)).
 * @param digits the text
 * @return its value, or nullopt when it is empty, has anything but hexadecimal digits, or
 *         is above 0xffff (TC_H_MAJ and TC_H_MIN are 16 bits)
 */
std::optional<uint32_t>
ParseHex(const std::string& digits)
{
    const std::optional<uint64_t> value = ParseHexDigits(digits, 4);
    return value ? std::optional<uint32_t>(static_cast<uint32_t>(*value)) : std::nullopt;
}

/**
 * @param value a number
 * @return it in hexadecimal, as tc writes handles and class ids ("a" for 10)
 */
std::string
Hex(uint32_t value)
{
    std::ostringstream out;
    out << std::hex << value;
    return out.str();
}

/**
 * @param nTxQueues a device's TX queues
 * @throws std::invalid_argument unless 1 to MAX_TX_QUEUES (netif_alloc_netdev_queues()
 *         refuses 0)
 */
void
CheckTxQueues(uint32_t nTxQueues)
{
    if (nTxQueues == 0 || nTxQueues > MAX_TX_QUEUES)
    {
        throw std::invalid_argument(
            "tc: nTxQueues " + std::to_string(nTxQueues) + " is out of range; accepted: 1 to " +
            std::to_string(MAX_TX_QUEUES) +
            " (a device has at least one TX queue, netif_alloc_netdev_queues(); ns-3 numbers "
            "TX queues in 8 bits)");
    }
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

/**
 * @param txqueuelen the device's txqueuelen
 * @return the limit of a pfifo made without one (fifo_init(): txqueuelen packets)
 * @throws std::invalid_argument for txqueuelen 0: such a pfifo drops every packet
 */
uint32_t
ChildLimit(uint32_t txqueuelen)
{
    if (txqueuelen == 0)
    {
        throw std::invalid_argument("tc pfifo (also prio's bands) without \"limit N\" takes "
                                    "txqueuelen packets, and txqueuelen is 0: it would drop "
                                    "every packet; give \"limit N\" (N >= 1) or txqueuelen >= 1");
    }
    return txqueuelen;
}

/// prio's options.
struct PrioOptions
{
    uint32_t bands{3};                                      ///< bands N
    std::string priomap{"1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1"}; ///< priority -> band
    uint32_t bandLimit{1000};                               ///< each band's pfifo limit
};

/**
 * Parses "bands N priomap P0 P1 ... P15" as prio_tune() checks it.
 * @param words the options
 * @param txqueuelen the device's txqueuelen (each band is a pfifo of that many packets)
 * @return the options
 * @throws std::invalid_argument naming the bad word
 */
PrioOptions
ParsePrio(const std::string& words, uint32_t txqueuelen)
{
    PrioOptions options;
    options.bandLimit = ChildLimit(txqueuelen);
    std::istringstream in(words);
    std::vector<uint32_t> map{1, 2, 2, 2, 1, 2, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1};
    auto number = [](const std::string& word, const std::string& what) {
        char* end = nullptr;
        const unsigned long value = std::strtoul(word.c_str(), &end, 10);
        if (word.empty() || *end != '\0' || value > 65535)
        {
            throw std::invalid_argument("tc prio: " + what + " \"" + word + "\" is not a number");
        }
        return static_cast<uint32_t>(value);
    };
    for (std::string word; in >> word;)
    {
        if (word == "bands")
        {
            std::string value;
            in >> value;
            options.bands = number(value, "bands");
            if (options.bands < 2 || options.bands > 16)
            {
                throw std::invalid_argument("tc prio: bands " + value +
                                            " is out of range; accepted: 2 to 16 (TCQ_PRIO_BANDS)");
            }
        }
        else if (word == "priomap")
        {
            // tc overwrites the default map from P0 on and keeps the entries not given
            // (prio_parse_opt(): its fill loop is commented out).
            std::size_t index = 0;
            for (std::string value; index < map.size() && in >> value; ++index)
            {
                map[index] = number(value, "priomap entry");
            }
        }
        else
        {
            throw std::invalid_argument("tc prio: \"" + word +
                                        "\" is unknown; accepted: bands N, priomap P0 ... P15");
        }
    }
    options.priomap.clear();
    for (uint32_t band : map)
    {
        if (band >= options.bands)
        {
            throw std::invalid_argument("tc prio: priomap band " + std::to_string(band) +
                                        " is not below bands " + std::to_string(options.bands));
        }
        options.priomap += (options.priomap.empty() ? "" : " ") + std::to_string(band);
    }
    return options;
}

} // namespace

std::vector<std::string>
TcQdiscHelper::GetQdiscNames()
{
    std::vector<std::string> names;
    for (const QdiscKind& kind : GetQdiscKinds())
    {
        names.emplace_back(kind.name);
    }
    return names;
}

std::string
TcQdiscHelper::GetTypeName(const std::string& text)
{
    if (FirstWord(text) == "mq")
    {
        return MQ_TYPE;
    }
    std::string options;
    return Find(text, options).type;
}

TcQdiscHelper::QdiscSpec
TcQdiscHelper::Parse(const std::string& text, uint32_t txqueuelen)
{
    if (FirstWord(text) == "mq")
    {
        // mq_init(): -EOPNOTSUPP unless sch->parent is TC_H_ROOT.
        throw std::invalid_argument(
            "tc qdisc \"mq\" is a multiqueue device's root only (mq_init() returns "
            "-EOPNOTSUPP under any other parent), with lines of its own; accepted here: " +
            QdiscKindNames());
    }
    std::string words;
    const QdiscKind& qdisc = Find(text, words);
    const std::string name = qdisc.name;
    QdiscSpec spec;
    spec.type = qdisc.type;
    auto& attributes = spec.attributes;
    auto add = [&attributes](const std::string& attribute, const AttributeValue& value) {
        attributes.emplace_back(attribute, value.Copy());
    };
    // One configuration path per qdisc: htb, sfq, cake and netem take their tc words through
    // their own Options attribute (which sets their attributes); the others' words are
    // translated into their ns-3 attributes here, and nowhere else.
    if (name == "htb" || name == "sfq" || name == "cake" || name == "netem")
    {
        // A user's default Options (--ns3::debloat::CakeQueueDisc::Options=...) is the base
        // the tc words parse over, as if written before them; it is checked with them.
        const std::optional<std::string> userDefault =
            AttributeDefaults::GetUserDefault(TypeId::LookupByName(spec.type), "Options");
        if (userDefault)
        {
            words = *userDefault + (words.empty() ? "" : " " + words);
        }
    }
    if (name == "htb")
    {
        // Checked now, so that a bad word stops here rather than when Options is set.
        ParseHtbQdiscOptions(words);
        add("Options", StringValue(words));
    }
    else if (name == "sfq" || name == "cake" || name == "netem")
    {
        // Checked now, so that a bad word stops here rather than when the simulation starts.
        if (name == "sfq")
        {
            SfqQueueDisc::ValidateOptions(words);
        }
        else if (name == "netem")
        {
            NetemQueueDisc::ValidateOptions(words);
        }
        else
        {
            CakeQueueDisc::ValidateOptions(words);
        }
        add("Options", StringValue(words));
    }
    else if (name == "noqueue")
    {
        TcGrammar("noqueue", {}).Parse(words);
    }
    else if (name == "pfifo_fast")
    {
        TcGrammar("pfifo_fast", {}).Parse(words);
        if (txqueuelen == 0)
        {
            // pfifo_fast_init() refuses a zero-length queue and the device falls back to
            // noqueue (attach_default_qdiscs()).
            spec.type = NoQueueDisc::GetTypeId().GetName();
            return spec;
        }
        add("MaxSize", Packets(txqueuelen));
    }
    else if (name == "pfifo")
    {
        const TcOptions options =
            TcGrammar("pfifo", {TcKeyword::Unsigned("limit", 1, UINT32_MAX)}).Parse(words);
        // Not value_or(): ChildLimit() throws for txqueuelen 0 even when a limit is given.
        const auto limit = options.GetUnsigned("limit");
        add("MaxSize", Packets(limit ? *limit : ChildLimit(txqueuelen)));
    }
    else if (name == "prio")
    {
        add("Priomap", StringValue(ParsePrio(words, txqueuelen).priomap));
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
    return spec;
}

namespace
{

/**
 * Calls a TrafficControlHelper method that takes a type and name/value pairs with exactly
 * the pairs of a spec: ns-3.35 has up to 15 defaulted pairs, later releases a variadic list,
 * and a call with exactly the pairs at hand suits both.
 * @param call the method, as a generic lambda (type, pairs...)
 * @param spec the queue disc
 * @return what the method returns
 */
template <typename Call>
auto
WithAttributes(Call call, const TcQdiscHelper::QdiscSpec& spec)
{
    const auto& a = spec.attributes;
    auto n = [&a](size_t i) -> const std::string& { return a[i].first; };
    auto v = [&a](size_t i) -> const AttributeValue& { return *a[i].second; };
    NS_ABORT_MSG_IF(a.size() > 7, "TcQdiscHelper: too many attributes");
    switch (a.size())
    {
    case 0:
        return call(spec.type);
    case 1:
        return call(spec.type, n(0), v(0));
    case 2:
        return call(spec.type, n(0), v(0), n(1), v(1));
    case 3:
        return call(spec.type, n(0), v(0), n(1), v(1), n(2), v(2));
    case 4:
        return call(spec.type, n(0), v(0), n(1), v(1), n(2), v(2), n(3), v(3));
    case 5:
        return call(spec.type, n(0), v(0), n(1), v(1), n(2), v(2), n(3), v(3), n(4), v(4));
    case 6:
        return call(spec.type,
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
    default:
        return call(spec.type,
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
                    v(5),
                    n(6),
                    v(6));
    }
}

/**
 * Gives a flow queue its flow hash as a FlowHashPacketFilter: ns-3's FqCoDelQueueDisc hashes
 * a packet it has no filter for with QueueDiscItem::Hash(), which deserialises the TCP
 * header with its options; the filter returns the same value read as bytes (see its
 * description). Other queue discs are left as they are.
 * @param helper the helper
 * @param handle the queue disc's handle
 * @param spec the queue disc
 */
void
AddFlowHashFilter(TrafficControlHelper& helper,
                  uint16_t handle,
                  const TcQdiscHelper::QdiscSpec& spec)
{
    if (spec.type != "ns3::FqCoDelQueueDisc")
    {
        return;
    }
    // The values the queue disc is made with: the spec's, else the attribute's default
    // (Config::SetDefault() included).
    const TypeId tid = TypeId::LookupByName(spec.type);
    auto value = [&spec, &tid](const std::string& name) {
        for (const auto& [attribute, setting] : spec.attributes)
        {
            if (attribute == name)
            {
                return DynamicCast<const UintegerValue>(setting)->Get();
            }
        }
        TypeId::AttributeInformation info;
        tid.LookupAttributeByName(name, &info);
        return DynamicCast<const UintegerValue>(info.initialValue)->Get();
    };
    helper.AddPacketFilter(handle,
                           "ns3::debloat::FlowHashPacketFilter",
                           "Perturbation",
                           UintegerValue(value("Perturbation")),
                           "Flows",
                           UintegerValue(value("Flows")));
}

/**
 * The root queue disc's Quota (packets one QueueDisc::Run() dequeues): unlimited, unless the
 * user set another default for ns3::QueueDisc::Quota (AttributeDefaults cannot tell a default
 * set to ns-3's own 64 from the built-in one, so 64 itself also means unlimited here).
 *
 * Deviation from Linux: __qdisc_run() stops after dev_tx_weight (64) packets and
 * __netif_schedule()s the qdisc, so the NET_TX softirq carries on at once. ns-3's
 * QueueDisc::Run() stops at its Quota and reschedules nothing (its "todo netif_schedule"):
 * what is left waits for the next enqueue or queue wake, and when the device's queues did
 * not stop (a multiqueue NIC, a large ring) that may never come, stranding the packets. As
 * the softirq's own delay is not modelled, one run without a quota sends them when Linux
 * would.
 * @return the attribute to add to the root
 */
std::pair<std::string, Ptr<AttributeValue>>
RootQuota()
{
    const std::optional<std::string> user =
        AttributeDefaults::GetUserDefault(QueueDisc::GetTypeId(), "Quota");
    const uint32_t quota = user ? static_cast<uint32_t>(std::stoul(*user)) : UINT32_MAX;
    return {"Quota", UintegerValue(quota).Copy()};
}

/**
 * Adds prio's bands under a PrioQueueDisc: prio_init() gives each band a pfifo of
 * txqueuelen packets.
 * @param helper the helper
 * @param handle the PrioQueueDisc's handle
 * @param options its options
 */
void
AddPrioBands(TrafficControlHelper& helper, uint16_t handle, const PrioOptions& options)
{
    const TrafficControlHelper::ClassIdList ids =
        helper.AddQueueDiscClasses(handle,
                                   static_cast<uint16_t>(options.bands),
                                   "ns3::QueueDiscClass");
    for (const uint16_t classId : ids)
    {
        helper.AddChildQueueDisc(handle,
                                 classId,
                                 "ns3::FifoQueueDisc",
                                 "MaxSize",
                                 Packets(options.bandLimit));
    }
}

/// The words accepted where an mq child's line starts.
const std::string MQ_CHILD_LINES = "parent :N QDISC ..., parent MAJ:N QDISC ..., qdisc parent "
                                   "MAJ:N QDISC ... (N hexadecimal, 1-based)";

/**
 * Reads an mq and its children's lines into the qdisc of each TX queue.
 *
 * Mirrors, for tc text: mq_init() (refuses a single-queue device; gives every TX queue the
 * default qdisc, get_default_qdisc_ops(): pfifo_fast here), mq_find() and mq_queue_get()
 * (class N, TC_H_MIN of the parent, is TX queue N - 1, from 1 to num_tx_queues) and
 * mq_graft() (a `tc qdisc replace dev X parent :N` line puts its qdisc on that TX queue),
 * all in net/sched/sch_mq.c.
 * @param lines the mq line, then the children's lines
 * @param txqueuelen the device's txqueuelen
 * @param nTxQueues the device's TX queues
 * @return the qdisc text of each TX queue, in queue order
 * @throws std::invalid_argument naming the bad word or line and what is accepted
 */
std::vector<std::string>
ParseMq(const std::vector<std::string>& lines, uint32_t txqueuelen, uint32_t nTxQueues)
{
    if (nTxQueues < 2)
    {
        throw std::invalid_argument(
            "tc mq: the device has 1 TX queue, and Linux refuses mq on a single-queue device "
            "(mq_init() returns -EOPNOTSUPP when !netif_is_multiqueue(dev)); accepted: mq with "
            "nTxQueues 2 or more (ethtool -L DEV tx N), or a single qdisc such as pfifo_fast "
            "(the default)");
    }
    // The mq line: "mq [handle N:]".
    std::istringstream mqWords(lines.front());
    std::string word;
    mqWords >> word;
    uint32_t major = 1;
    const std::string handleWords = "handle N: (N hexadecimal, 1 to ffff)";
    while (mqWords >> word)
    {
        if (word != "handle")
        {
            throw std::invalid_argument("tc mq: \"" + word +
                                        "\" is unknown; accepted: " + handleWords);
        }
        std::string value;
        mqWords >> value;
        std::string digits = value;
        if (!digits.empty() && digits.back() == ':')
        {
            digits.pop_back();
        }
        const std::optional<uint32_t> parsed = ParseHex(digits);
        if (!parsed || *parsed == 0)
        {
            throw std::invalid_argument("tc mq: handle \"" + value +
                                        "\" is not a qdisc handle; accepted: " + handleWords);
        }
        major = *parsed;
    }
    const std::string queues = ":1 to :" + Hex(nTxQueues);
    std::vector<std::string> children(nTxQueues);
    std::vector<std::string> givenBy(nTxQueues); // the parent word that named each queue
    for (size_t i = 1; i < lines.size(); ++i)
    {
        std::istringstream words(lines[i]);
        std::string parent;
        words >> parent;
        if (parent == "qdisc")
        {
            words >> parent;
        }
        if (parent != "parent")
        {
            throw std::invalid_argument("tc mq: \"" + parent + "\" in \"" + lines[i] +
                                        "\" is unknown; accepted: " + MQ_CHILD_LINES);
        }
        std::string id;
        words >> id;
        // tc's get_tc_classid(): "MAJ:MIN" in hexadecimal, MAJ empty for the root's.
        const size_t colon = id.find(':');
        const std::string majorText = id.substr(0, colon);
        const std::optional<uint32_t> idMajor =
            majorText.empty() ? std::optional<uint32_t>(major) : ParseHex(majorText);
        const std::optional<uint32_t> minor =
            colon == std::string::npos ? std::nullopt : ParseHex(id.substr(colon + 1));
        if (!minor || !idMajor)
        {
            throw std::invalid_argument("tc mq: parent \"" + id +
                                        "\" is not a class id; accepted: :N or " + Hex(major) +
                                        ":N, N hexadecimal from " + queues);
        }
        if (*idMajor != major)
        {
            throw std::invalid_argument("tc mq: parent \"" + id + "\": " + majorText +
                                        ": is not the mq's handle " + Hex(major) +
                                        ":; accepted: :N or " + Hex(major) + ":N");
        }
        // mq_queue_get(): TX queue cl - 1, which must be below num_tx_queues.
        if (*minor == 0 || *minor > nTxQueues)
        {
            throw std::invalid_argument(
                "tc mq: parent \"" + id + "\" is not a TX queue of the device: class N is TX " +
                "queue N - 1 (mq_queue_get()) and the device has " + std::to_string(nTxQueues) +
                " TX queues; accepted: " + queues + " (hexadecimal)");
        }
        const uint32_t queue = *minor - 1;
        if (!givenBy[queue].empty())
        {
            throw std::invalid_argument("tc mq: parent \"" + id + "\" names TX queue " +
                                        std::to_string(queue) + ", as parent \"" + givenBy[queue] +
                                        "\" did; accepted: one qdisc line per TX queue");
        }
        std::string qdisc;
        std::getline(words, qdisc);
        if (FirstWord(qdisc) == "htb")
        {
            throw std::invalid_argument("tc mq: parent \"" + id +
                                        "\": htb under mq is not supported here (an htb tree "
                                        "takes lines of its own); accepted: " +
                                        QdiscKindNames() + " but htb");
        }
        try
        {
            TcQdiscHelper::Parse(qdisc, txqueuelen); // checks the words now
        }
        catch (const std::invalid_argument& error)
        {
            throw std::invalid_argument("tc mq: parent \"" + id + "\": " + error.what());
        }
        children[queue] = qdisc;
        givenBy[queue] = id;
    }
    for (std::string& child : children)
    {
        if (child.empty())
        {
            child = "pfifo_fast"; // mq_init(): get_default_qdisc_ops()
        }
    }
    return children;
}

/**
 * Adds a qdisc as the child of an mq's class, with the unlimited Quota of a root: the TX
 * queue's wake runs it directly (TrafficControlLayer's m_queueDiscsToWake), as a root.
 * @param helper the helper
 * @param handle the MqQueueDisc's handle
 * @param classId the class (the TX queue's)
 * @param text the qdisc and its words, checked by ParseMq()
 * @param txqueuelen the device's txqueuelen
 */
void
AddMqChild(TrafficControlHelper& helper,
           uint16_t handle,
           uint16_t classId,
           const std::string& text,
           uint32_t txqueuelen)
{
    const auto [quota, quotaValue] = RootQuota();
    if (FirstWord(text) == "prio")
    {
        std::string words;
        Find(text, words);
        const PrioOptions options = ParsePrio(words, txqueuelen);
        const uint16_t prio = helper.AddChildQueueDisc(handle,
                                                       classId,
                                                       "ns3::PrioQueueDisc",
                                                       "Priomap",
                                                       StringValue(options.priomap),
                                                       quota,
                                                       *quotaValue);
        AddPrioBands(helper, prio, options);
        return;
    }
    TcQdiscHelper::QdiscSpec spec = TcQdiscHelper::Parse(text, txqueuelen);
    spec.attributes.emplace_back(quota, quotaValue);
    const uint16_t child = WithAttributes(
        [&helper, handle, classId](const std::string& type, auto&&... args) {
            return helper.AddChildQueueDisc(handle, classId, type, args...);
        },
        spec);
    AddFlowHashFilter(helper, child, spec);
}

} // namespace

std::string
TcQdiscHelper::DefaultQdiscText(uint32_t nTxQueues, uint32_t txqueuelen)
{
    CheckTxQueues(nTxQueues);
    // attach_default_qdiscs(): the default qdisc (pfifo_fast) on a single-queue device, mq
    // with it per TX queue on a multiqueue one; when that fails to start (pfifo_fast_init()
    // refuses txqueuelen 0), "default qdisc fail, fallback to noqueue" on every queue.
    if (txqueuelen == 0)
    {
        return "noqueue";
    }
    return nTxQueues == 1 ? "pfifo_fast" : "mq";
}

void
TcQdiscHelper::SetRootQueueDisc(TrafficControlHelper& helper,
                                const std::string& text,
                                uint32_t txqueuelen,
                                uint32_t nTxQueues)
{
    CheckTxQueues(nTxQueues);
    if (FirstWord(text) == "mq")
    {
        // Everything is checked before the helper is touched.
        const std::vector<std::string> children =
            ParseMq(SplitHtbClassLines(text), txqueuelen, nTxQueues);
        // The MqQueueDisc never runs (WAKE_CHILD: TrafficControlLayer enqueues into and runs
        // the TX queue's child), so it needs no Quota; its counters add up the children's,
        // as mq_dump() does.
        const uint16_t handle = helper.SetRootQueueDisc(MQ_TYPE);
        const TrafficControlHelper::ClassIdList ids =
            helper.AddQueueDiscClasses(handle,
                                       static_cast<uint16_t>(nTxQueues),
                                       "ns3::QueueDiscClass");
        for (size_t i = 0; i < ids.size(); ++i)
        {
            AddMqChild(helper, handle, ids[i], children[i], txqueuelen);
        }
        return;
    }
    std::string name;
    std::istringstream(text) >> name;
    if (name == "prio")
    {
        // prio_init(): one pfifo of txqueuelen packets per band.
        std::string words;
        Find(text, words);
        const PrioOptions options = ParsePrio(words, txqueuelen);
        const auto [quota, quotaValue] = RootQuota();
        const uint16_t handle = helper.SetRootQueueDisc("ns3::PrioQueueDisc",
                                                        "Priomap",
                                                        StringValue(options.priomap),
                                                        quota,
                                                        *quotaValue);
        AddPrioBands(helper, handle, options);
        return;
    }
    if (name != "htb")
    {
        QdiscSpec root = Parse(text, txqueuelen);
        root.attributes.push_back(RootQuota());
        const uint16_t handle = WithAttributes(
            [&helper](const std::string& type, auto&&... args) {
                return helper.SetRootQueueDisc(type, args...);
            },
            root);
        AddFlowHashFilter(helper, handle, root);
        return;
    }
    // An htb tree: the qdisc line (through Parse(), as a lone htb line), then "class ..."
    // and "qdisc parent ..." lines.
    const std::vector<std::string> lines = SplitHtbClassLines(text);
    QdiscSpec root = Parse(lines.front(), txqueuelen);
    std::string classes;
    std::map<uint32_t, std::string> leafQdiscs;
    std::vector<HtbClassConfig> configs;
    for (size_t i = 1; i < lines.size(); ++i)
    {
        std::istringstream words(lines[i]);
        std::string kind;
        words >> kind;
        if (kind == "class")
        {
            configs.push_back(ParseHtbClass(lines[i]));
            classes += (classes.empty() ? "" : ";") + lines[i];
            continue;
        }
        std::string parent;
        std::string id;
        words >> parent >> id;
        if (kind != "qdisc" || parent != "parent")
        {
            throw std::invalid_argument("tc htb: \"" + lines[i] +
                                        "\": expected \"class ...\" or \"qdisc parent "
                                        "MAJOR:MINOR QDISC ...\"");
        }
        const size_t colon = id.find(':');
        const uint32_t minor =
            colon == std::string::npos
                ? 0
                : static_cast<uint32_t>(std::strtoul(id.substr(colon + 1).c_str(), nullptr, 16));
        std::string qdisc;
        std::getline(words, qdisc);
        Parse(qdisc, txqueuelen); // checks the words now
        leafQdiscs[minor] = qdisc;
    }
    // Leaves (classes nobody names as parent), in classid order: the QueueDiscClasses.
    std::vector<uint32_t> leaves;
    for (const HtbClassConfig& config : configs)
    {
        bool parent = false;
        for (const HtbClassConfig& other : configs)
        {
            parent = parent || other.parent == config.id;
        }
        if (!parent)
        {
            leaves.push_back(config.id);
        }
    }
    std::sort(leaves.begin(), leaves.end());
    root.attributes.emplace_back("Classes", StringValue(classes).Copy());
    root.attributes.push_back(RootQuota());
    const uint16_t handle =
        WithAttributes([&helper](const std::string& type,
                                 auto&&... args) { return helper.SetRootQueueDisc(type, args...); },
                       root);
    if (leaves.empty())
    {
        return; // HtbQueueDisc stops with its own message
    }
    const TrafficControlHelper::ClassIdList ids =
        helper.AddQueueDiscClasses(handle,
                                   static_cast<uint16_t>(leaves.size()),
                                   "ns3::QueueDiscClass");
    for (size_t i = 0; i < leaves.size(); ++i)
    {
        const auto qdisc = leafQdiscs.find(leaves[i]);
        if (qdisc == leafQdiscs.end())
        {
            throw std::invalid_argument("tc htb: leaf class " + FormatHtbClassId(leaves[i]) +
                                        " has no \"qdisc parent " + FormatHtbClassId(leaves[i]) +
                                        " ...\" line (Linux would give it pfifo)");
        }
        const uint16_t classId = ids[i];
        const QdiscSpec leaf = Parse(qdisc->second, txqueuelen);
        const uint16_t child = WithAttributes(
            [&helper, handle, classId](const std::string& type, auto&&... args) {
                return helper.AddChildQueueDisc(handle, classId, type, args...);
            },
            leaf);
        AddFlowHashFilter(helper, child, leaf);
    }
}

namespace
{

/**
 * Prints one qdisc as `tc -s qdisc show` does: cake, sfq, htb and netem through their own
 * PrintStats(), the others as their kind and tc's generic counters.
 * @param qdisc the qdisc
 * @param parent "root" or "parent 1:N"
 * @param os where to print
 */
void
PrintQdisc(Ptr<QueueDisc> qdisc, const std::string& parent, std::ostream& os)
{
    if (auto cake = DynamicCast<CakeQueueDisc>(qdisc))
    {
        cake->PrintStats(os, parent);
        return;
    }
    if (auto sfq = DynamicCast<SfqQueueDisc>(qdisc))
    {
        sfq->PrintStats(os, parent);
        return;
    }
    if (auto netem = DynamicCast<NetemQueueDisc>(qdisc))
    {
        netem->PrintStats(os, parent);
        return;
    }
    if (auto htb = DynamicCast<HtbQueueDisc>(qdisc))
    {
        htb->PrintStats(os); // a root only: htb under mq is refused
        return;
    }
    const std::string type = qdisc->GetInstanceTypeId().GetName();
    const QdiscKind* kind = FindQdiscKindOfType(type);
    const QueueDisc::Stats& stats = qdisc->GetStats();
    os << "qdisc " << (kind ? kind->name : type) << " " << parent << "\n Sent "
       << stats.nTotalSentBytes << " bytes " << stats.nTotalSentPackets << " pkt (dropped "
       << stats.nTotalDroppedPackets << ", overlimits 0 requeues " << stats.nTotalRequeuedPackets
       << ")\n backlog " << qdisc->GetNBytes() << "b " << qdisc->GetNPackets() << "p requeues "
       << stats.nTotalRequeuedPackets << "\n";
}

} // namespace

void
TcQdiscHelper::PrintStats(Ptr<NetDevice> device, std::ostream& os)
{
    Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
    Ptr<QueueDisc> root = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr;
    if (!root)
    {
        os << "qdisc noqueue root\n"; // no qdisc: packets go straight to the driver
        return;
    }
    if (!DynamicCast<MqQueueDisc>(root))
    {
        PrintQdisc(root, "root", os);
        return;
    }
    // mq_dump(): the children's counters and backlogs added up.
    uint64_t bytes = 0;
    uint64_t packets = 0;
    uint64_t dropped = 0;
    uint64_t requeues = 0;
    uint64_t backlogBytes = 0;
    uint64_t backlogPackets = 0;
    for (std::size_t i = 0; i < root->GetNQueueDiscClasses(); ++i)
    {
        Ptr<QueueDisc> child = root->GetQueueDiscClass(i)->GetQueueDisc();
        const QueueDisc::Stats& stats = child->GetStats();
        bytes += stats.nTotalSentBytes;
        packets += stats.nTotalSentPackets;
        dropped += CakeQueueDisc::GetTcDroppedPackets(stats);
        requeues += stats.nTotalRequeuedPackets;
        backlogBytes += child->GetNBytes();
        backlogPackets += child->GetNPackets();
    }
    os << "qdisc mq 1: root\n Sent " << bytes << " bytes " << packets << " pkt (dropped " << dropped
       << ", overlimits 0 requeues " << requeues << ")\n backlog " << backlogBytes << "b "
       << backlogPackets << "p requeues " << requeues << "\n";
    for (std::size_t i = 0; i < root->GetNQueueDiscClasses(); ++i)
    {
        std::ostringstream parent;
        parent << "parent 1:" << std::hex << i + 1;
        PrintQdisc(root->GetQueueDiscClass(i)->GetQueueDisc(), parent.str(), os);
    }
}

} // namespace debloat
} // namespace ns3
