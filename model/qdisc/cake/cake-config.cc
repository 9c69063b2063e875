/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows tc/q_cake.c of iproute2 (cake_parse_opt: the words, the attributes they send;
 * cake_print_opt: the `tc qdisc show` line) and net/sched/sch_cake.c of Linux (cake_change:
 * how the attributes change the running settings; cake_dump: which attributes it reports).
 */

#include "cake-config.h"

#include "ns3/tc-options.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ns3
{
namespace debloat
{

namespace
{

/// One rtt preset of q_cake.c: a name and the target and interval it sends, microseconds.
struct RttPreset
{
    const char* name;    ///< the keyword
    uint32_t targetUs;   ///< TCA_CAKE_TARGET
    uint32_t intervalUs; ///< TCA_CAKE_RTT
};

/// q_cake.c's presets[]: every target is a twentieth of its interval, as for `rtt`.
constexpr std::array<RttPreset, 8> RTT_PRESETS{{
    {"datacentre", 5, 100},
    {"lan", 50, 1000},
    {"metro", 500, 10000},
    {"regional", 1500, 30000},
    {"internet", 5000, 100000},
    {"oceanic", 15000, 300000},
    {"satellite", 50000, 1000000},
    {"interplanetary", 50000000, 1000000000},
}};

/// The tin presets in q_cake.c's order of comparisons ("diffserv" is diffserv4's alias).
constexpr std::array<CakeDiffservMode, 5> DIFFSERV_ORDER{CakeDiffservMode::BESTEFFORT,
                                                         CakeDiffservMode::PRECEDENCE,
                                                         CakeDiffservMode::DIFFSERV8,
                                                         CakeDiffservMode::DIFFSERV4,
                                                         CakeDiffservMode::DIFFSERV3};

/// Number of isolation modes (CAKE_FLOW_MAX); q_cake.c compares their words in value order.
constexpr uint8_t FLOW_MODE_COUNT = 8;

/// Group of the words that only touch the link-layer variables (overhead, mpu, atm) of
/// cake_parse_opt(); their order matters, so every occurrence is kept.
const char* const LINK_LAYER_GROUP = "link-layer";

/// Overhead range of q_cake.c ("valid range is -64 to 256").
constexpr int64_t OVERHEAD_MIN = -64;
/// Overhead range of q_cake.c.
constexpr int64_t OVERHEAD_MAX = 256;
/// mpu range of q_cake.c ("valid range is 0 to 256").
constexpr int64_t MPU_MAX = 256;

/**
 * @param word a command-line word
 * @return the tin preset it names ("diffserv" is not resolved here: the grammar does that)
 */
std::optional<CakeDiffservMode>
DiffservByName(const std::string& word)
{
    for (const auto mode : DIFFSERV_ORDER)
    {
        if (word == CakeDiffservName(mode))
        {
            return mode;
        }
    }
    return std::nullopt;
}

/// @param word a command-line word @return the isolation mode it names
std::optional<CakeFlowMode>
FlowModeByName(const std::string& word)
{
    for (uint8_t value = 0; value < FLOW_MODE_COUNT; ++value)
    {
        const auto mode = static_cast<CakeFlowMode>(value);
        if (word == CakeFlowModeName(mode))
        {
            return mode;
        }
    }
    return std::nullopt;
}

/// @param word a command-line word @return the rtt preset it names, or nullptr
const RttPreset*
RttPresetByName(const std::string& word)
{
    for (const auto& preset : RTT_PRESETS)
    {
        if (word == preset.name)
        {
            return &preset;
        }
    }
    return nullptr;
}

/// @param word a command-line word @return the link-layer keyword row it names, or nullptr
const CakeKeywordPreset*
LinkLayerByName(const std::string& word)
{
    for (const auto& preset : CakeKeywordPresets())
    {
        if (word == preset.name)
        {
            return &preset;
        }
    }
    return nullptr;
}

/// @return the grammar of cake_parse_opt(), in its order of comparisons
const TcGrammar&
CakeGrammar()
{
    static const TcGrammar grammar = [] {
        std::vector<TcKeyword> keywords{
            // bandwidth and unlimited write the same two variables: the later one counts.
            TcKeyword::Rate("bandwidth").InGroup("shaper"),
            TcKeyword::Flag("unlimited").InGroup("shaper"),
            TcKeyword::Flag("autorate-ingress"),
            TcKeyword::Time("rtt"),
        };
        // A second preset is duparg(): an error, even when it is the same one.
        for (const auto& preset : RTT_PRESETS)
        {
            keywords.push_back(
                TcKeyword::Flag(preset.name).InGroup("rtt-preset").Repeat(TcRepeat::ONCE));
        }
        for (const auto mode : DIFFSERV_ORDER)
        {
            TcKeyword keyword = TcKeyword::Flag(CakeDiffservName(mode)).InGroup("diffserv");
            keywords.push_back(mode == CakeDiffservMode::DIFFSERV4 ? keyword.Alias("diffserv")
                                                                   : keyword);
        }
        keywords.push_back(TcKeyword::Flag("nowash").InGroup("wash"));
        keywords.push_back(TcKeyword::Flag("wash").InGroup("wash"));
        keywords.push_back(TcKeyword::Flag("split-gso").InGroup("split-gso"));
        keywords.push_back(TcKeyword::Flag("no-split-gso").InGroup("split-gso"));
        for (uint8_t mode = 0; mode < FLOW_MODE_COUNT; ++mode)
        {
            keywords.push_back(TcKeyword::Flag(CakeFlowModeName(static_cast<CakeFlowMode>(mode)))
                                   .InGroup("isolation"));
        }
        keywords.push_back(TcKeyword::Flag("nat").InGroup("nat"));
        keywords.push_back(TcKeyword::Flag("nonat").InGroup("nat"));
        for (const auto& preset : CakeKeywordPresets())
        {
            keywords.push_back(TcKeyword::Flag(preset.name)
                                   .InGroup(LINK_LAYER_GROUP)
                                   .Repeat(TcRepeat::ACCUMULATE));
        }
        keywords.push_back(TcKeyword::Signed("overhead", OVERHEAD_MIN, OVERHEAD_MAX)
                               .InGroup(LINK_LAYER_GROUP)
                               .Repeat(TcRepeat::ACCUMULATE));
        keywords.push_back(TcKeyword::Signed("mpu", 0, MPU_MAX)
                               .InGroup(LINK_LAYER_GROUP)
                               .Repeat(TcRepeat::ACCUMULATE));
        keywords.push_back(TcKeyword::Flag("ingress").InGroup("ingress"));
        keywords.push_back(TcKeyword::Flag("egress").InGroup("ingress"));
        keywords.push_back(TcKeyword::Flag("no-ack-filter").InGroup("ack-filter"));
        keywords.push_back(TcKeyword::Flag("ack-filter").InGroup("ack-filter"));
        keywords.push_back(TcKeyword::Flag("ack-filter-aggressive").InGroup("ack-filter"));
        // get_size(): 32 bits.
        keywords.push_back(TcKeyword::Size("memlimit"));
        // get_u32(&fwmark, *argv, 0): 0x hexadecimal, leading 0 octal.
        keywords.push_back(TcKeyword::Unsigned("fwmark", 0, UINT32_MAX, 0));
        return TcGrammar("cake", keywords);
    }();
    return grammar;
}

/**
 * The attributes cake_parse_opt() puts into its netlink message: each is sent only when set,
 * with the tests of q_cake.c (a rate when bandwidth is non-zero or `unlimited` was given,
 * an mpu only when above 0, rtt, target, memlimit and fwmark only when non-zero).
 */
struct CakeAttributes
{
    std::optional<uint64_t> rate;               ///< TCA_CAKE_BASE_RATE64, bytes/s
    std::optional<bool> autorate;               ///< TCA_CAKE_AUTORATE
    std::optional<uint32_t> intervalUs;         ///< TCA_CAKE_RTT
    std::optional<uint32_t> targetUs;           ///< TCA_CAKE_TARGET
    std::optional<CakeDiffservMode> diffserv;   ///< TCA_CAKE_DIFFSERV_MODE
    std::optional<CakeFlowMode> flowMode;       ///< TCA_CAKE_FLOW_MODE
    std::optional<bool> nat;                    ///< TCA_CAKE_NAT
    std::optional<bool> wash;                   ///< TCA_CAKE_WASH
    std::optional<bool> splitGso;               ///< TCA_CAKE_SPLIT_GSO
    std::optional<bool> ingress;                ///< TCA_CAKE_INGRESS
    std::optional<CakeAckFilterMode> ackFilter; ///< TCA_CAKE_ACK_FILTER
    std::optional<CakeAtmMode> atm;             ///< TCA_CAKE_ATM
    std::optional<int32_t> overhead;            ///< TCA_CAKE_OVERHEAD
    bool raw{false};                            ///< TCA_CAKE_RAW
    std::optional<uint32_t> mpu;                ///< TCA_CAKE_MPU
    std::optional<uint32_t> memlimit;           ///< TCA_CAKE_MEMORY
    std::optional<uint32_t> fwmark;             ///< TCA_CAKE_FWMARK
};

/**
 * Runs cake_parse_opt()'s loop over the parsed words, in command-line order, with its local
 * variables, and returns what it would send.
 * @param options the parsed words
 * @return the attributes
 */
CakeAttributes
CollectAttributes(const TcOptions& options)
{
    // cake_parse_opt()'s locals: the link-layer words work on a fresh overhead of 0, mpu 0
    // and "no atm word yet", not on the kernel's current values.
    uint64_t bandwidth = 0;
    bool unlimited = false;
    uint32_t interval = 0; // us
    uint32_t target = 0;   // us
    uint32_t memlimit = 0;
    uint32_t fwmark = 0;
    LinkLayer ll;
    bool atmGiven = false;
    CakeAttributes out;

    for (const TcOption& entry : options.GetEntries())
    {
        const std::string& word = entry.keyword;
        if (word == "bandwidth")
        {
            bandwidth = entry.number / 8; // get_rate64(): bytes per second
            unlimited = false;
            out.autorate = false;
        }
        else if (word == "unlimited")
        {
            bandwidth = 0;
            unlimited = true;
            out.autorate = false;
        }
        else if (word == "autorate-ingress")
        {
            out.autorate = true;
        }
        else if (word == "rtt")
        {
            // get_time() in microseconds; target = interval / 20, at least 1 us.
            interval = static_cast<uint32_t>(entry.number / 1000);
            target = interval / 20 > 0 ? interval / 20 : 1;
        }
        else if (word == "nowash" || word == "wash")
        {
            out.wash = word == "wash";
        }
        else if (word == "split-gso" || word == "no-split-gso")
        {
            out.splitGso = word == "split-gso";
        }
        else if (word == "nat" || word == "nonat")
        {
            out.nat = word == "nat";
        }
        else if (word == "overhead")
        {
            if (!SetOverhead(ll, static_cast<int32_t>(entry.integer)))
            {
                options.Reject("overhead", "must be in -64..256");
            }
        }
        else if (word == "mpu")
        {
            if (!SetMpu(ll, static_cast<int32_t>(entry.integer)))
            {
                options.Reject("mpu", "must be in 0..256");
            }
        }
        else if (word == "ingress" || word == "egress")
        {
            out.ingress = word == "ingress";
        }
        else if (word == "no-ack-filter")
        {
            out.ackFilter = CakeAckFilterMode::NONE;
        }
        else if (word == "ack-filter")
        {
            out.ackFilter = CakeAckFilterMode::FILTER;
        }
        else if (word == "ack-filter-aggressive")
        {
            out.ackFilter = CakeAckFilterMode::AGGRESSIVE;
        }
        else if (word == "memlimit")
        {
            memlimit = static_cast<uint32_t>(entry.number); // get_size(): at most 2^32 - 1
        }
        else if (word == "fwmark")
        {
            fwmark = static_cast<uint32_t>(entry.number); // get_u32()
        }
        else if (const auto tinMode = DiffservByName(word))
        {
            out.diffserv = *tinMode;
        }
        else if (const auto flowMode = FlowModeByName(word))
        {
            out.flowMode = *flowMode;
        }
        else if (const RttPreset* rttPreset = RttPresetByName(word))
        {
            interval = rttPreset->intervalUs;
            target = rttPreset->targetUs;
        }
        else if (const CakeKeywordPreset* linkPreset = LinkLayerByName(word))
        {
            // Framing words add to the overhead collected so far in this command line.
            ApplyKeyword(ll, word);
            atmGiven = atmGiven || linkPreset->setsAtm;
        }
        else
        {
            throw std::logic_error("tc cake: keyword \"" + word + "\" has no action");
        }
    }

    if (bandwidth != 0 || unlimited)
    {
        out.rate = bandwidth;
    }
    if (interval != 0)
    {
        out.intervalUs = interval;
    }
    if (target != 0)
    {
        out.targetUs = target;
    }
    if (memlimit != 0)
    {
        out.memlimit = memlimit;
    }
    if (fwmark != 0)
    {
        out.fwmark = fwmark;
    }
    if (atmGiven)
    {
        out.atm = ll.atm;
    }
    if (ll.overheadSet)
    {
        out.overhead = ll.overhead;
    }
    out.raw = ll.raw;
    if (ll.mpu > 0)
    {
        out.mpu = ll.mpu;
    }
    return out;
}

/**
 * Applies the attributes to the settings as cake_change() does.
 * @param config the settings
 * @param attrs what tc sent
 */
void
ApplyAttributes(CakeConfig& config, const CakeAttributes& attrs)
{
    auto apply = [](auto& field, const auto& value) {
        if (value)
        {
            field = *value;
        }
    };
    apply(config.nat, attrs.nat);
    apply(config.rate, attrs.rate);
    apply(config.diffserv, attrs.diffserv);
    apply(config.wash, attrs.wash);
    apply(config.flowMode, attrs.flowMode);
    apply(config.linkLayer.atm, attrs.atm);
    if (attrs.overhead)
    {
        // TCA_CAKE_OVERHEAD sets CAKE_FLAG_OVERHEAD; TCA_CAKE_RAW (handled after it) clears it.
        config.linkLayer.overhead = *attrs.overhead;
        config.linkLayer.overheadSet = true;
        config.linkLayer.raw = false;
    }
    if (attrs.raw)
    {
        config.linkLayer.raw = true;
    }
    apply(config.linkLayer.mpu, attrs.mpu);
    if (attrs.intervalUs)
    {
        config.intervalNs = uint64_t{*attrs.intervalUs} * 1000;
    }
    if (attrs.targetUs)
    {
        config.targetNs = uint64_t{*attrs.targetUs} * 1000;
    }
    apply(config.autorateIngress, attrs.autorate);
    apply(config.ingress, attrs.ingress);
    apply(config.ackFilter, attrs.ackFilter);
    apply(config.memlimit, attrs.memlimit);
    apply(config.splitGso, attrs.splitGso);
    apply(config.fwmark, attrs.fwmark);
}

} // namespace

void
ParseCakeOptions(CakeConfig& config, const std::string& options)
{
    // Everything is checked before anything changes: tc sends nothing when a word is bad.
    const TcOptions parsed = CakeGrammar().Parse(options);
    const CakeAttributes attrs = CollectAttributes(parsed);
    ApplyAttributes(config, attrs);
}

std::string
FormatCakeOptions(const CakeConfig& config)
{
    // cake_dump() reports every attribute; cake_print_opt() prints them in this order.
    std::vector<std::string> words;
    words.emplace_back("bandwidth");
    // print_rate(): bytes/s << 3 to bit/s.
    words.emplace_back(config.rate != 0 ? FormatTcRate(config.rate << 3) : "unlimited");
    if (config.autorateIngress)
    {
        words.emplace_back("autorate-ingress");
    }
    words.emplace_back(CakeDiffservName(config.diffserv));
    words.emplace_back(CakeFlowModeName(config.flowMode));
    words.emplace_back(config.nat ? "nat" : "nonat");
    words.emplace_back(config.wash ? "wash" : "nowash");
    if (config.ingress)
    {
        words.emplace_back("ingress");
    }
    words.emplace_back(CakeAckFilterName(config.ackFilter));
    words.emplace_back(config.splitGso ? "split-gso" : "no-split-gso");
    // The kernel keeps (and dumps) whole microseconds.
    const uint64_t intervalUs = config.intervalNs / 1000;
    if (intervalUs != 0)
    {
        words.emplace_back("rtt");
        words.emplace_back(FormatTcTime(intervalUs * 1000));
    }
    // cake_dump() sends TCA_CAKE_RAW whenever CAKE_FLAG_OVERHEAD is clear.
    const bool raw = !UsesNetworkOffset(config.linkLayer);
    if (raw)
    {
        words.emplace_back("raw");
    }
    if (config.linkLayer.atm == CakeAtmMode::ATM)
    {
        words.emplace_back("atm");
    }
    else if (config.linkLayer.atm == CakeAtmMode::PTM)
    {
        words.emplace_back("ptm");
    }
    else if (!raw)
    {
        words.emplace_back("noatm");
    }
    words.emplace_back("overhead");
    words.emplace_back(std::to_string(config.linkLayer.overhead));
    if (config.linkLayer.mpu != 0)
    {
        words.emplace_back("mpu");
        words.emplace_back(std::to_string(config.linkLayer.mpu));
    }
    if (config.memlimit != 0)
    {
        words.emplace_back("memlimit");
        words.emplace_back(FormatTcSize(config.memlimit));
    }
    if (config.fwmark != 0)
    {
        std::array<char, 16> hex{};
        std::snprintf(hex.data(), hex.size(), "0x%x", static_cast<unsigned int>(config.fwmark));
        words.emplace_back("fwmark");
        words.emplace_back(hex.data());
    }
    std::string text;
    for (const auto& word : words)
    {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

namespace
{

/**
 * Splits FormatCakeOptions() text into its settings: a word with its value ("rtt 100ms"),
 * and the link-layer words (raw, atm, ptm, noatm, overhead N, mpu N) as one setting, since
 * q_cake.c applies them together.
 * @param text the options
 * @return the settings in order
 */
std::vector<std::string>
CakeSettings(const std::string& text)
{
    static const std::set<std::string> withValue =
        {"bandwidth", "rtt", "overhead", "mpu", "memlimit", "fwmark"};
    static const std::set<std::string> linkLayer =
        {"raw", "atm", "ptm", "noatm", "overhead", "mpu"};
    std::istringstream in(text);
    std::vector<std::string> settings;
    int64_t linkLayerAt = -1;
    for (std::string word; in >> word;)
    {
        std::string setting = word;
        if (withValue.count(word))
        {
            std::string value;
            in >> value;
            setting += " " + value;
        }
        if (!linkLayer.count(word))
        {
            settings.push_back(setting);
        }
        else if (linkLayerAt < 0)
        {
            linkLayerAt = static_cast<int64_t>(settings.size());
            settings.push_back(setting);
        }
        else
        {
            settings[linkLayerAt] += " " + setting;
        }
    }
    return settings;
}

} // namespace

std::string
FormatCakeOptionChanges(const CakeConfig& config)
{
    const std::vector<std::string> defaults = CakeSettings(FormatCakeOptions(CakeConfig{}));
    std::string text;
    for (const std::string& setting : CakeSettings(FormatCakeOptions(config)))
    {
        if (std::find(defaults.begin(), defaults.end(), setting) == defaults.end())
        {
            text += (text.empty() ? "" : " ") + setting;
        }
    }
    return text;
}

const char*
CakeDiffservName(CakeDiffservMode mode)
{
    switch (mode)
    {
    case CakeDiffservMode::DIFFSERV3:
        return "diffserv3";
    case CakeDiffservMode::DIFFSERV4:
        return "diffserv4";
    case CakeDiffservMode::DIFFSERV8:
        return "diffserv8";
    case CakeDiffservMode::BESTEFFORT:
        return "besteffort";
    case CakeDiffservMode::PRECEDENCE:
        return "precedence";
    }
    return "(?diffserv?)";
}

const char*
CakeFlowModeName(CakeFlowMode mode)
{
    switch (mode)
    {
    case CakeFlowMode::NONE:
        return "flowblind";
    case CakeFlowMode::SRC_IP:
        return "srchost";
    case CakeFlowMode::DST_IP:
        return "dsthost";
    case CakeFlowMode::HOSTS:
        return "hosts";
    case CakeFlowMode::FLOWS:
        return "flows";
    case CakeFlowMode::DUAL_SRC:
        return "dual-srchost";
    case CakeFlowMode::DUAL_DST:
        return "dual-dsthost";
    case CakeFlowMode::TRIPLE:
        return "triple-isolate";
    }
    return "(?flowmode?)";
}

const char*
CakeAckFilterName(CakeAckFilterMode mode)
{
    switch (mode)
    {
    case CakeAckFilterMode::FILTER:
        return "ack-filter";
    case CakeAckFilterMode::AGGRESSIVE:
        return "ack-filter-aggressive";
    case CakeAckFilterMode::NONE:
        break;
    }
    return "no-ack-filter"; // cake_print_opt(): any other value prints as no-ack-filter
}

} // namespace debloat
} // namespace ns3
