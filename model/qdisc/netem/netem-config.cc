/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows tc/q_netem.c of iproute2 (netem_parse_opt(), netem_print_opt()), get_time64() and
 * print_time64() of lib/utils.c, parse_percent() of tc/tc_util.c, and netem_change() of
 * net/sched/sch_netem.c.
 */

#include "netem-config.h"

#include "ns3/tc-options.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <locale>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ns3
{
namespace debloat
{

namespace
{

/// @param message the problem @return the exception, in TcGrammar's wording
std::invalid_argument
Error(const std::string& message)
{
    return std::invalid_argument("tc netem: " + message);
}

/// What a time word may look like, for messages.
const char* const TIME_TEXT = "a time from 0 to 4611686018s (units s/sec/secs, ms/msec/msecs, "
                              "us/usec/usecs, ns/nsec/nsecs; a bare number is ns)";

/// What a percentage may look like, for messages.
const char* const PERCENT_TEXT = "a percentage from 0 to 100 (\"1%\", \"0.5\", \"25%\")";

/// The distribution names accepted, for messages.
const char* const DISTRIBUTIONS = "uniform, normal, pareto, paretonormal (iproute2's tables; "
                                  "custom and experimental .dist files are not read)";

/**
 * Reads a plain non-negative number as strtod() does for tc, through TcGrammar's reader.
 * @param text the number
 * @param max the largest value accepted
 * @return the value, or nullopt when malformed or out of 0..max
 */
std::optional<double>
ParseNumber(const std::string& text, double max)
{
    if (text.empty())
    {
        return std::nullopt;
    }
    try
    {
        return TcGrammar("netem", {TcKeyword::Double("n", 0, max)})
            .Parse("n " + text)
            .GetDouble("n");
    }
    catch (const std::invalid_argument&)
    {
        return std::nullopt;
    }
}

/**
 * parse_percent() of tc/tc_util.c: a number and an optional '%', 0 to 100.
 * @param text the word
 * @param name the parameter, for the message
 * @return the percentage
 * @throws std::invalid_argument naming the parameter
 */
double
ParsePercent(const std::string& text, const std::string& name)
{
    std::string number = text;
    if (!number.empty() && number.back() == '%')
    {
        number.pop_back();
    }
    const std::optional<double> value = ParseNumber(number, 100);
    if (!value)
    {
        throw Error(name + " \"" + text + "\": expected " + PERCENT_TEXT);
    }
    return *value;
}

/**
 * @param text a time word
 * @param name the parameter, for the message
 * @return the time, ns
 * @throws std::invalid_argument naming the parameter
 */
uint64_t
ParseTime(const std::string& text, const std::string& name)
{
    const std::optional<uint64_t> value = ParseNetemTime(text);
    if (!value)
    {
        throw Error(name + " \"" + text + "\": expected " + TIME_TEXT);
    }
    return *value;
}

/**
 * Reads one value with a TcGrammar keyword of that name (limit, gap, seed, rate, ...), so
 * that its message is the grammar's (`tc netem: limit "x": expected a size ...`).
 * @param keyword the keyword
 * @param name its name
 * @param text the value word
 * @return the parsed options
 */
TcOptions
ParseWord(const TcKeyword& keyword, const std::string& name, const std::string& text)
{
    return TcGrammar("netem", {keyword}).Parse(name + " " + text);
}

/**
 * get_s32(x, 0) of tc: a signed integer, with get_u32()'s C prefixes after an optional '-'.
 * @param text the word
 * @param name the parameter, for the message
 * @return the value
 */
int32_t
ParseSigned32(const std::string& text, const std::string& name)
{
    const bool negative = !text.empty() && text[0] == '-';
    const std::string magnitude = negative ? text.substr(1) : text;
    const uint64_t max = negative ? uint64_t{1} << 31 : uint64_t{INT32_MAX};
    try
    {
        const uint64_t value =
            *ParseWord(TcKeyword::Unsigned(name, 0, max), name, magnitude).GetUnsigned(name);
        return static_cast<int32_t>(negative ? -static_cast<int64_t>(value)
                                             : static_cast<int64_t>(value));
    }
    catch (const std::invalid_argument&)
    {
        throw Error(name + " \"" + text + "\": expected an integer in -2147483648..2147483647");
    }
}

/**
 * @param text a distribution name
 * @param name the parameter, for the message
 * @param allowUniform whether "uniform" (no table) is accepted
 * @return the distribution
 */
NetemDistribution
ParseDistribution(const std::string& text, const std::string& name, bool allowUniform)
{
    if (text == "normal")
    {
        return NetemDistribution::NORMAL;
    }
    if (text == "pareto")
    {
        return NetemDistribution::PARETO;
    }
    if (text == "paretonormal")
    {
        return NetemDistribution::PARETONORMAL;
    }
    if (text == "uniform" && allowUniform)
    {
        return NetemDistribution::UNIFORM;
    }
    throw Error(name + " \"" + text + "\" is unknown; accepted: " +
                (allowUniform ? DISTRIBUTIONS
                              : "normal, pareto, paretonormal (for a uniform slot, give slot "
                                "MIN_DELAY MAX_DELAY)"));
}

/// tc's matches(): whether word is a non-empty prefix of keyword.
bool
Matches(const std::string& word, const char* keyword)
{
    return !word.empty() && std::string(keyword).compare(0, word.size(), word) == 0;
}

/// netem_parse_opt()'s keywords in its matching order.
constexpr std::array<const char*, 14> KEYWORDS{"limit",
                                               "latency",
                                               "delay",
                                               "loss",
                                               "drop",
                                               "seed",
                                               "ecn",
                                               "reorder",
                                               "corrupt",
                                               "gap",
                                               "duplicate",
                                               "distribution",
                                               "rate",
                                               "slot"};

/// The words of one command line and the reading position, as netem_parse_opt()'s argv.
class Words
{
  public:
    /// @param text the options
    explicit Words(const std::string& text)
    {
        std::istringstream stream(text);
        for (std::string word; stream >> word;)
        {
            m_words.push_back(word);
        }
    }

    /// @return whether words remain
    bool More() const
    {
        return m_next < m_words.size();
    }

    /// @return the next word, consumed
    const std::string& Take()
    {
        return m_words[m_next++];
    }

    /**
     * NEXT_ARG(): the value a word needs.
     * @param name the parameter, for the message
     * @param what what the value must look like
     * @return the value, consumed
     */
    const std::string& Need(const std::string& name, const std::string& what)
    {
        if (!More())
        {
            throw Error("\"" + name + "\" needs a value: " + what);
        }
        return Take();
    }

    /// NEXT_IS_NUMBER(): @return whether the next word starts with a digit
    bool NextIsNumber() const
    {
        return More() && std::isdigit(static_cast<unsigned char>(m_words[m_next][0]));
    }

    /// NEXT_IS_SIGNED_NUMBER(): @return whether the next word starts with a digit or '-'
    bool NextIsSigned() const
    {
        return NextIsNumber() || (More() && m_words[m_next][0] == '-');
    }

    /// @param keyword a keyword @return whether the next word is a prefix of it
    bool NextMatches(const char* keyword) const
    {
        return More() && Matches(m_words[m_next], keyword);
    }

  private:
    std::vector<std::string> m_words; ///< the words
    size_t m_next{0};                 ///< the next word's index
};

/**
 * Reads "PERCENT [CORRELATION]".
 * @param words the command line
 * @param name the keyword
 * @param[out] probability the percentage as u32
 * @param[out] correlation the correlation as u32 (0 when not given)
 */
void
ParseProbability(Words& words,
                 const std::string& name,
                 uint32_t& probability,
                 uint32_t& correlation)
{
    probability = NetemPercentToU32(ParsePercent(words.Need(name, PERCENT_TEXT), name));
    correlation = 0;
    if (words.NextIsNumber())
    {
        correlation = NetemPercentToU32(ParsePercent(words.Take(), name + " correlation"));
    }
}

/// The "loss state" words: P13 [P31 [P32 [P23 [P14]]]] with their defaults.
void
ParseLossState(Words& words, NetemConfig& config)
{
    const double p13 = ParsePercent(words.Need("loss state", PERCENT_TEXT), "loss state p13");
    config.lossModel = NetemLossModel::STATE;
    config.loss = 0;
    config.lossCorr = 0;
    config.p13 = NetemPercentToU32(p13);
    config.p31 = NetemPercentToU32(100 - p13);
    config.p32 = 0;
    config.p23 = NetemPercentToU32(100);
    config.p14 = 0;
    const std::array<std::pair<const char*, uint32_t*>, 4> rest{{{"loss state p31", &config.p31},
                                                                 {"loss state p32", &config.p32},
                                                                 {"loss state p23", &config.p23},
                                                                 {"loss state p14", &config.p14}}};
    for (const auto& [name, field] : rest)
    {
        if (!words.NextIsNumber())
        {
            return;
        }
        *field = NetemPercentToU32(ParsePercent(words.Take(), name));
    }
}

/// The "loss gemodel" words: P [R [1-H [1-K]]] with their defaults.
void
ParseLossGemodel(Words& words, NetemConfig& config)
{
    const double p = ParsePercent(words.Need("loss gemodel", PERCENT_TEXT), "loss gemodel p");
    config.lossModel = NetemLossModel::GEMODEL;
    config.loss = 0;
    config.lossCorr = 0;
    config.geP = NetemPercentToU32(p);
    config.geR = NetemPercentToU32(100 - p);
    config.geH = 0;
    config.geK1 = 0;
    if (!words.NextIsNumber())
    {
        return;
    }
    config.geR = NetemPercentToU32(ParsePercent(words.Take(), "loss gemodel r"));
    if (!words.NextIsNumber())
    {
        return;
    }
    // tc's word is 1-H, the loss probability in the bad state; the kernel keeps h.
    config.geH = UINT32_MAX - NetemPercentToU32(ParsePercent(words.Take(), "loss gemodel 1-h"));
    if (!words.NextIsNumber())
    {
        return;
    }
    config.geK1 = NetemPercentToU32(ParsePercent(words.Take(), "loss gemodel 1-k"));
}

/// The "rate" words: RATE [PACKETOVERHEAD [CELLSIZE [CELLOVERHEAD]]].
void
ParseRate(Words& words, NetemConfig& config)
{
    const TcKeyword rate = TcKeyword::Rate("rate", 8);
    const std::string& value = words.Need("rate", "a rate of 1 byte/s or more");
    config.rate = *ParseWord(rate, "rate", value).GetRate("rate") / 8;
    config.packetOverhead = 0;
    config.cellSize = 0;
    config.cellOverhead = 0;
    if (words.NextIsSigned())
    {
        config.packetOverhead = ParseSigned32(words.Take(), "packetoverhead");
    }
    if (words.NextIsNumber())
    {
        const TcKeyword cell = TcKeyword::Unsigned("cellsize", 0, UINT32_MAX);
        config.cellSize = static_cast<uint32_t>(
            *ParseWord(cell, "cellsize", words.Take()).GetUnsigned("cellsize"));
    }
    if (words.NextIsSigned())
    {
        config.cellOverhead = ParseSigned32(words.Take(), "celloverhead");
    }
}

/// The "slot" words: MIN [MAX] or distribution NAME DELAY JITTER, then [packets N] [bytes N].
void
ParseSlot(Words& words, NetemConfig& config)
{
    config.slotMinNs = 0;
    config.slotMaxNs = 0;
    config.slotDistribution = NetemDistribution::UNIFORM;
    config.slotDelayNs = 0;
    config.slotJitterNs = 0;
    config.slotPackets = 0;
    config.slotBytes = 0;
    if (words.NextIsNumber())
    {
        config.slotMinNs = ParseTime(words.Take(), "slot min_delay");
        config.slotMaxNs = config.slotMinNs;
        if (words.NextIsNumber())
        {
            config.slotMaxNs = ParseTime(words.Take(), "slot max_delay");
        }
    }
    else
    {
        const std::string& word =
            words.Need("slot", "MIN_DELAY [MAX_DELAY] or distribution NAME DELAY JITTER");
        if (word != "distribution")
        {
            throw Error("slot \"" + word +
                        "\" is unknown; accepted: slot MIN_DELAY [MAX_DELAY] or " +
                        "slot distribution NAME DELAY JITTER");
        }
        config.slotDistribution =
            ParseDistribution(words.Need("slot distribution", "normal, pareto or paretonormal"),
                              "slot distribution",
                              false);
        config.slotDelayNs = ParseTime(words.Need("slot distribution", TIME_TEXT), "slot delay");
        config.slotJitterNs = ParseTime(words.Need("slot distribution", TIME_TEXT), "slot jitter");
        if (config.slotJitterNs == 0)
        {
            throw Error("slot jitter \"0\": expected a jitter above 0 (Non-positive jitter)");
        }
    }
    if (words.NextMatches("packets"))
    {
        words.Take();
        const TcKeyword packets = TcKeyword::Unsigned("packets", 0, INT32_MAX);
        const std::string& value =
            words.Need("slot packets", "an unsigned integer in 0..2147483647");
        config.slotPackets =
            static_cast<uint32_t>(*ParseWord(packets, "packets", value).GetUnsigned("packets"));
    }
    if (words.NextMatches("bytes"))
    {
        words.Take();
        const TcKeyword bytes = TcKeyword::Size("bytes", 0, INT32_MAX);
        const std::string& value = words.Need("slot bytes", "a size in 0..2147483647 bytes");
        config.slotBytes =
            static_cast<uint32_t>(*ParseWord(bytes, "bytes", value).GetSize("bytes"));
    }
}

/**
 * printf()'s %g in the "C" locale: at most digits significant digits, no trailing zeros.
 * @param value the number
 * @param digits significant digits (%g: 6, %.3g: 3)
 * @return the text
 */
std::string
Significant(double value, int digits)
{
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << std::setprecision(digits) << value;
    return out.str();
}

/// @param probability a u32 probability @return " P%" as tc's PRINT_PERCENT prints it
std::string
Percent(uint32_t probability)
{
    return " " + Significant(NetemU32ToPercent(probability), 6) + "%";
}

} // namespace

uint32_t
NetemPercentToU32(double percent)
{
    // set_percent(): rint(per * UINT32_MAX), per being the fraction parse_percent() gives.
    return static_cast<uint32_t>(std::rint(percent / 100. * UINT32_MAX));
}

double
NetemU32ToPercent(uint32_t probability)
{
    return 100. * probability / UINT32_MAX;
}

std::optional<uint64_t>
ParseNetemTime(const std::string& text)
{
    struct TimeUnit
    {
        const char* name; ///< suffix, without regard to case
        double scale;     ///< ns per unit
    };

    static const std::array<TimeUnit, 12> units{{{"s", 1e9},
                                                 {"sec", 1e9},
                                                 {"secs", 1e9},
                                                 {"ms", 1e6},
                                                 {"msec", 1e6},
                                                 {"msecs", 1e6},
                                                 {"us", 1e3},
                                                 {"usec", 1e3},
                                                 {"usecs", 1e3},
                                                 {"ns", 1},
                                                 {"nsec", 1},
                                                 {"nsecs", 1}}};
    // The unit is the run of letters at the end; an exponent's 'e' is followed by digits.
    size_t end = text.size();
    while (end > 0 && std::isalpha(static_cast<unsigned char>(text[end - 1])))
    {
        --end;
    }
    std::string suffix = text.substr(end);
    for (char& c : suffix)
    {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    double scale = 1;
    if (!suffix.empty())
    {
        bool known = false;
        for (const TimeUnit& unit : units)
        {
            known = known || suffix == unit.name;
            scale = suffix == unit.name ? unit.scale : scale;
        }
        if (!known)
        {
            return std::nullopt;
        }
    }
    const std::optional<double> number =
        ParseNumber(text.substr(0, end), static_cast<double>(NETEM_MAX_TIME_NS) / scale);
    if (!number)
    {
        return std::nullopt;
    }
    // get_time64(): *time = nsec, a double converted (truncated) to __s64.
    return static_cast<uint64_t>(*number * scale);
}

std::string
FormatNetemTime(uint64_t ns)
{
    const double value = static_cast<double>(ns);
    if (ns >= 1000000000)
    {
        return Significant(value / 1e9, 3) + "s";
    }
    if (ns >= 1000000)
    {
        return Significant(value / 1e6, 3) + "ms";
    }
    if (ns >= 1000)
    {
        return Significant(value / 1e3, 3) + "us";
    }
    return std::to_string(ns) + "ns";
}

void
ParseNetemOptions(NetemConfig& config, const std::string& options)
{
    NetemConfig next = config;
    Words words(options);
    bool lossGiven = false;
    while (words.More())
    {
        const std::string& word = words.Take();
        const char* keyword = nullptr;
        for (const char* candidate : KEYWORDS)
        {
            if (Matches(word, candidate))
            {
                keyword = candidate;
                break;
            }
        }
        const std::string name = keyword ? keyword : "";
        if (name.empty())
        {
            std::string accepted;
            for (const char* candidate : KEYWORDS)
            {
                accepted += (accepted.empty() ? "" : ", ") + std::string(candidate);
            }
            throw Error("unknown word \"" + word + "\"; accepted: " + accepted +
                        " (or any prefix of them)");
        }
        if (name == "limit")
        {
            // Deviation from Linux (iproute2): get_size() would also take units ("1k" = 1024
            // packets); a packet count is read as a plain number.
            const std::string& value = words.Need(name, "a number of packets");
            const TcKeyword limit = TcKeyword::Unsigned("limit", 0, UINT32_MAX);
            next.limit = static_cast<uint32_t>(*ParseWord(limit, name, value).GetUnsigned(name));
        }
        else if (name == "latency" || name == "delay")
        {
            // Since iproute2 4.16 the delay and jitter go as 64-bit ns (TCA_NETEM_LATENCY64).
            next.latencyNs = ParseTime(words.Need(name, TIME_TEXT), "delay");
            next.jitterNs = 0;
            next.delayCorr = 0;
            if (words.NextIsNumber())
            {
                next.jitterNs = ParseTime(words.Take(), "jitter");
                if (words.NextIsNumber())
                {
                    next.delayCorr =
                        NetemPercentToU32(ParsePercent(words.Take(), "delay correlation"));
                }
            }
        }
        else if (name == "loss" || name == "drop")
        {
            if (lossGiven)
            {
                throw Error("\"" + word +
                            "\" given twice (duplicate loss argument); give one "
                            "loss model");
            }
            lossGiven = true;
            const std::string& model =
                words.Need("loss", "random PERCENT, state P13 ..., gemodel P ... or a PERCENT");
            if (model == "state")
            {
                ParseLossState(words, next);
                continue;
            }
            if (model == "gemodel")
            {
                ParseLossGemodel(words, next);
                continue;
            }
            std::string percent = model;
            if (model == "random")
            {
                percent = words.Need("loss random", PERCENT_TEXT);
            }
            else if (!std::isdigit(static_cast<unsigned char>(model[0])))
            {
                throw Error("loss \"" + model + "\" is unknown; accepted: random PERCENT " +
                            "[CORRELATION], state P13 [P31 [P32 [P23 [P14]]]], gemodel P [R " +
                            "[1-H [1-K]]], or PERCENT [CORRELATION]");
            }
            next.lossModel = NetemLossModel::RANDOM;
            next.loss = NetemPercentToU32(ParsePercent(percent, "loss"));
            next.lossCorr = 0;
            if (words.NextIsNumber())
            {
                next.lossCorr = NetemPercentToU32(ParsePercent(words.Take(), "loss correlation"));
            }
        }
        else if (name == "seed")
        {
            const std::string& value = words.Need(name, "an unsigned integer in 1..2^64-1");
            next.seed = ParseWord(TcKeyword::Unsigned(name, 1, UINT64_MAX, 10), name, value)
                            .GetUnsigned(name);
        }
        else if (name == "ecn")
        {
            next.ecn = true;
        }
        else if (name == "reorder")
        {
            ParseProbability(words, name, next.reorder, next.reorderCorr);
        }
        else if (name == "corrupt")
        {
            ParseProbability(words, name, next.corrupt, next.corruptCorr);
        }
        else if (name == "duplicate")
        {
            ParseProbability(words, name, next.duplicate, next.dupCorr);
        }
        else if (name == "gap")
        {
            const std::string& value = words.Need(name, "an unsigned integer");
            next.gap = static_cast<uint32_t>(
                *ParseWord(TcKeyword::Unsigned(name, 0, UINT32_MAX), name, value)
                     .GetUnsigned(name));
        }
        else if (name == "distribution")
        {
            next.distribution = ParseDistribution(words.Need(name, DISTRIBUTIONS), name, true);
        }
        else if (name == "rate")
        {
            ParseRate(words, next);
        }
        else
        {
            ParseSlot(words, next);
        }
    }
    ValidateNetemConfig(next);
    config = next;
}

void
ValidateNetemConfig(NetemConfig& config)
{
    // netem_parse_opt()'s checks on the whole command line.
    if (config.reorder != 0)
    {
        if (config.latencyNs == 0)
        {
            throw Error("reorder needs a delay: reordering not possible without specifying "
                        "some delay (delay TIME above 0)");
        }
        if (config.gap == 0)
        {
            config.gap = 1; // tc sends gap 1: every packet may be reordered
        }
    }
    else if (config.gap != 0)
    {
        throw Error("gap " + std::to_string(config.gap) +
                    " specified without reorder probability; accepted: reorder PERCENT above 0 "
                    "with gap, or gap 0");
    }
    const bool lossModel = config.lossModel != NetemLossModel::RANDOM || config.loss != 0;
    if (config.ecn && !lossModel)
    {
        throw Error("ecn requested without loss model; accepted: ecn with loss random PERCENT "
                    "above 0, loss state or loss gemodel");
    }
    if (config.distribution != NetemDistribution::UNIFORM &&
        (config.latencyNs == 0 || config.jitterNs == 0))
    {
        throw Error(std::string("distribution ") + NetemDistributionName(config.distribution) +
                    " specified but no latency and jitter values; accepted: delay TIME JITTER "
                    "with both above 0");
    }
    if (config.jitterNs > NETEM_MAX_JITTER_NS || config.slotJitterNs > NETEM_MAX_JITTER_NS)
    {
        throw Error("jitter " + FormatNetemTime(std::max(config.jitterNs, config.slotJitterNs)) +
                    " is too large; accepted: 0 to 2147483647ns (tabledist() takes an s32)");
    }
    for (const uint64_t time :
         {config.latencyNs, config.slotMinNs, config.slotMaxNs, config.slotDelayNs})
    {
        if (time > NETEM_MAX_TIME_NS)
        {
            throw Error("a delay of " + std::to_string(time) +
                        "ns is too long; accepted: " + TIME_TEXT);
        }
    }
    // Deviation from Linux: loss_4state() adds p13 + p14 and p31 + p32 in u32, so sums above
    // 100% wrap around to small probabilities; they are refused.
    const uint64_t whole = uint64_t{UINT32_MAX} + 1;
    if (config.lossModel == NetemLossModel::STATE &&
        (uint64_t{config.p13} + config.p14 > whole || uint64_t{config.p31} + config.p32 > whole))
    {
        throw Error("loss state: p13 + p14 and p31 + p32 are probabilities out of one state; "
                    "accepted: sums of at most 100%");
    }
    if (config.slotMaxNs < config.slotMinNs)
    {
        throw Error("slot max_delay " + FormatNetemTime(config.slotMaxNs) + " is below min_delay " +
                    FormatNetemTime(config.slotMinNs) + "; accepted: MAX_DELAY >= MIN_DELAY");
    }
    if (config.slotJitterNs != 0 && config.slotDistribution == NetemDistribution::UNIFORM)
    {
        throw Error("slot jitter needs slot distribution normal, pareto or paretonormal (for "
                    "a uniform slot, give MIN_DELAY and MAX_DELAY)");
    }
    if (config.slotDistribution != NetemDistribution::UNIFORM && config.slotJitterNs == 0)
    {
        throw Error("slot distribution needs a jitter above 0 (Non-positive jitter)");
    }
    if (config.slotPackets > INT32_MAX || config.slotBytes > INT32_MAX)
    {
        throw Error("slot packets and bytes: accepted 0 (unlimited) to 2147483647 (validate_slot() "
                    "refuses negative s32 limits)");
    }
}

std::string
FormatNetemOptions(const NetemConfig& config)
{
    std::string text = "limit " + std::to_string(config.limit);
    if (config.latencyNs != 0)
    {
        text += " delay " + FormatNetemTime(config.latencyNs);
        if (config.jitterNs != 0)
        {
            text += "  " + FormatNetemTime(config.jitterNs);
            if (config.delayCorr != 0)
            {
                text += Percent(config.delayCorr);
            }
        }
    }
    if (config.lossModel == NetemLossModel::RANDOM && config.loss != 0)
    {
        text += " loss" + Percent(config.loss);
        if (config.lossCorr != 0)
        {
            text += Percent(config.lossCorr);
        }
    }
    if (config.lossModel == NetemLossModel::STATE)
    {
        text += " loss state p13" + Percent(config.p13) + " p31" + Percent(config.p31) + " p32" +
                Percent(config.p32) + " p23" + Percent(config.p23) + " p14" + Percent(config.p14);
    }
    if (config.lossModel == NetemLossModel::GEMODEL)
    {
        text += " loss gemodel p" + Percent(config.geP) + " r" + Percent(config.geR) + " 1-h" +
                Percent(UINT32_MAX - config.geH) + " 1-k" + Percent(config.geK1);
    }
    auto probability = [&text](const char* name, uint32_t value, uint32_t correlation) {
        if (value != 0)
        {
            text += std::string(" ") + name + Percent(value);
            if (correlation != 0)
            {
                text += Percent(correlation);
            }
        }
    };
    probability("duplicate", config.duplicate, config.dupCorr);
    probability("reorder", config.reorder, config.reorderCorr);
    probability("corrupt", config.corrupt, config.corruptCorr);
    if (config.rate != 0)
    {
        text += " rate " + FormatTcRate(config.rate * 8);
        if (config.packetOverhead != 0)
        {
            text += " packetoverhead " + std::to_string(config.packetOverhead);
        }
        if (config.cellSize != 0)
        {
            text += " cellsize " + std::to_string(config.cellSize);
        }
        if (config.cellOverhead != 0)
        {
            text += " celloverhead " + std::to_string(config.cellOverhead);
        }
    }
    if (config.SlotsOn())
    {
        if (config.slotJitterNs != 0)
        {
            text += " slot distribution " + FormatNetemTime(config.slotDelayNs) + " " +
                    FormatNetemTime(config.slotJitterNs);
        }
        else
        {
            text += " slot " + FormatNetemTime(config.slotMinNs) + " " +
                    FormatNetemTime(config.slotMaxNs);
        }
        if (config.slotPackets != 0)
        {
            text += " packets " + std::to_string(config.slotPackets);
        }
        if (config.slotBytes != 0)
        {
            text += " bytes " + std::to_string(config.slotBytes);
        }
    }
    if (config.seed)
    {
        text += " seed " + std::to_string(*config.seed);
    }
    if (config.ecn)
    {
        text += " ecn";
    }
    if (config.gap != 0)
    {
        text += " gap " + std::to_string(config.gap);
    }
    return text;
}

const char*
NetemDistributionName(NetemDistribution distribution)
{
    switch (distribution)
    {
    case NetemDistribution::UNIFORM:
        return "uniform";
    case NetemDistribution::NORMAL:
        return "normal";
    case NetemDistribution::PARETO:
        return "pareto";
    case NetemDistribution::PARETONORMAL:
        return "paretonormal";
    }
    return "uniform";
}

const char*
NetemLossModelName(NetemLossModel model)
{
    switch (model)
    {
    case NetemLossModel::RANDOM:
        return "random";
    case NetemLossModel::STATE:
        return "state";
    case NetemLossModel::GEMODEL:
        return "gemodel";
    }
    return "random";
}

} // namespace debloat
} // namespace ns3
