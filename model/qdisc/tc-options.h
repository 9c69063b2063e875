/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the option parsing of iproute2's tc: get_rate64() and get_size64() of
 * lib/utils_math.c, get_time() and get_u32() of lib/utils.c, the keyword loops of
 * tc/q_sfq.c, tc/q_cake.c and tc/q_htb.c, and the printers print_rate() (lib/json_print.c),
 * sprint_size() (lib/json_print_math.c) and sprint_time() (lib/utils.c).
 */

#ifndef TC_OPTIONS_H
#define TC_OPTIONS_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * Mirrors get_rate64(): a rate word such as "50Mbit" or "1mbps".
 *
 * A number (decimal, optional fraction and exponent) and an optional unit, matched without
 * regard to case as tc's strcasecmp does: bit, kbit, mbit, gbit, tbit (SI, 1000),
 * kibit, mibit, gibit, tibit (IEC, 1024), and bps, kbps, mbps, gbps, tbps, kibps, mibps,
 * gibps, tibps, which count BYTES per second (1mbps = 8000000 bit/s). A bare number is bit/s.
 * tc hands the kernel whole bytes per second, truncating: "1001bit" is 125 bytes/s.
 *
 * Deviation from Linux (iproute2): strtod() would also take a sign, hexadecimal, "inf" and
 * "nan"; they are refused here. Percentages ("10%", relative to the device speed) are refused.
 * A rate of 2^61 bytes/s or more is refused instead of overflowing.
 *
 * @param text the value word
 * @return the rate in bit/s, always 8 times tc's whole bytes per second; nullopt if malformed
 */
std::optional<uint64_t> ParseTcRate(const std::string& text);

/**
 * @ingroup debloat-qdisc
 * Mirrors get_size64(): a size word such as "1514", "64kb" or "1mbit".
 *
 * Units, without regard to case: b (bytes), k or kb (1024 bytes), m or mb (1024^2),
 * g or gb (1024^3), and kbit, mbit, gbit, which are 1024, 1024^2 and 1024^3 BITS (so
 * "1kbit" = 128 bytes). A bare number is bytes; fractions truncate ("1.5kb" = 1536,
 * "1.3kb" = 1331).
 *
 * Deviation from Linux (iproute2): as for ParseTcRate(), no sign, hexadecimal, inf or nan;
 * and not the "size/cell" form of get_size_and_cell() (HTB's "burst 10kb/8", whose cell log
 * only sized the rate tables that kernels since 3.x no longer use).
 *
 * @param text the value word
 * @return the size in bytes; nullopt if malformed or 2^64 or more
 */
std::optional<uint64_t> ParseTcSize(const std::string& text);

/**
 * @ingroup debloat-qdisc
 * Mirrors get_time(): a time word such as "100ms" or "5000".
 *
 * Units, without regard to case: s, sec, secs; ms, msec, msecs; us, usec, usecs. A bare
 * number is MICROSECONDS (tc's TIME_UNITS_PER_SEC is 1000000). tc keeps whole microseconds
 * in 32 bits, truncating ("1.5us" = 1 us) and topping out at 4294.967295 s; "ns" is not a
 * get_time() unit.
 *
 * Deviation from Linux (iproute2): as for ParseTcRate(); and a time over 2^32 - 1 us is
 * refused where tc's conversion would overflow.
 *
 * @param text the value word
 * @return the time in nanoseconds, a multiple of 1000; nullopt if malformed or too long
 */
std::optional<uint64_t> ParseTcTime(const std::string& text);

/**
 * @ingroup debloat-qdisc
 * Reads hexadecimal digits written without prefix or sign, as tc writes handles and class
 * ids ("1:a"), ethtool -X the bytes of a hash key ("6d:5a:...") and sysfs a CPU mask ("f").
 * @param digits the text
 * @param maxDigits the most digits accepted (at most 16)
 * @return the value; nullopt if empty, longer than maxDigits or not all hexadecimal digits
 */
std::optional<uint64_t> ParseHexDigits(const std::string& digits, std::size_t maxDigits);

/**
 * @ingroup debloat-qdisc
 * Mirrors print_rate(): "50Mbit", "1500bit", "1Gbit" (or "50Mibit" style with iec, as
 * `tc -iec` prints). A unit step is taken while the value is at least one unit and either
 * divides evenly or is at least 1000 units.
 * @param bitsPerSecond the rate in bit/s
 * @param iec use 1024 steps and Ki/Mi/Gi/Ti prefixes instead of 1000 and K/M/G/T
 * @return the text tc prints
 */
std::string FormatTcRate(uint64_t bitsPerSecond, bool iec = false);

/**
 * @ingroup debloat-qdisc
 * Mirrors sprint_size(): "1514b", "64Kb", "4Mb", "1Gb" (b meaning bytes; a unit is used when
 * the value is within 16 bytes of a whole Kb, or 1024 bytes of a whole Mb or Gb).
 * @param bytes the size in bytes
 * @return the text tc prints
 */
std::string FormatTcSize(uint64_t bytes);

/**
 * @ingroup debloat-qdisc
 * Mirrors sprint_time(): "100ms", "5ms", "1.5s", "500us" (three significant digits for
 * s and ms, whole microseconds below 1 ms).
 * @param nanoseconds the time in ns, printed at tc's microsecond resolution
 * @return the text tc prints
 */
std::string FormatTcTime(uint64_t nanoseconds);

/// @ingroup debloat-qdisc
/// What follows a keyword on the tc command line.
enum class TcKind : uint8_t
{
    FLAG,     ///< nothing: the keyword alone ("headdrop")
    UNSIGNED, ///< an unsigned integer, as get_u32() reads it ("limit 127", "fwmark 0xff")
    SIGNED,   ///< a signed decimal integer, as q_cake.c's strtol() ("overhead -4")
    SIZE,     ///< a size, ParseTcSize() ("quantum 1514", "memlimit 32mb")
    TIME,     ///< a time, ParseTcTime() ("rtt 100ms")
    RATE,     ///< a rate, ParseTcRate() ("bandwidth 50Mbit")
    DOUBLE,   ///< a real number ("probability 0.02")
    WORD,     ///< one of a fixed set of words ("linklayer atm")
};

/// @ingroup debloat-qdisc
/// What happens when a keyword, or another member of its group, is given again.
enum class TcRepeat : uint8_t
{
    LAST_WINS,  ///< the later word replaces the earlier (tc's usual overwrite of a variable)
    ONCE,       ///< a second word is an error (q_cake.c's duparg() for rtt presets, q_htb.c's
                ///< "Double rate spec")
    ACCUMULATE, ///< every occurrence is kept, in order (q_cake.c's additive "ether-vlan")
};

struct TcOption;

/**
 * @ingroup debloat-qdisc
 * @brief One row of a tc option table: a keyword, the kind of value it takes and its rules.
 *
 * Built with a named constructor and refined with the chained modifiers, e.g.
 * `TcKeyword::Unsigned("limit", 2, UINT32_MAX)`,
 * `TcKeyword::Flag("diffserv4").Alias("diffserv").InGroup("diffserv")`.
 * Every keyword belongs to one group, by default a group of its own with the same name;
 * the group's TcRepeat rule settles repeats among its members.
 */
class TcKeyword
{
  public:
    /// @param name the keyword @return a keyword that takes no value
    static TcKeyword Flag(const std::string& name);
    /**
     * @param name the keyword
     * @param min smallest accepted value
     * @param max largest accepted value
     * @param base 0 as get_u32(x, 0) (0x prefix = hexadecimal, leading 0 = OCTAL, so "010" is
     *        8), 10 (decimal only) or 16 (hexadecimal, 0x prefix optional, as HTB's "default")
     * @return an unsigned integer keyword
     */
    static TcKeyword Unsigned(const std::string& name, uint64_t min, uint64_t max, int base = 0);
    /**
     * @param name the keyword
     * @param min smallest accepted value
     * @param max largest accepted value
     * @return a signed decimal integer keyword (optional + or - sign)
     */
    static TcKeyword Signed(const std::string& name, int64_t min, int64_t max);
    /**
     * @param name the keyword
     * @param min smallest accepted size, bytes
     * @param max largest accepted size, bytes (get_size() stops at 2^32 - 1)
     * @return a size keyword
     */
    static TcKeyword Size(const std::string& name, uint64_t min = 0, uint64_t max = UINT32_MAX);
    /**
     * @param name the keyword
     * @param minNs shortest accepted time, ns
     * @param maxNs longest accepted time, ns
     * @return a time keyword
     */
    static TcKeyword Time(const std::string& name,
                          uint64_t minNs = 0,
                          uint64_t maxNs = uint64_t{UINT32_MAX} * 1000);
    /**
     * @param name the keyword
     * @param minBps smallest accepted rate, bit/s
     * @param maxBps largest accepted rate, bit/s
     * @return a rate keyword
     */
    static TcKeyword Rate(const std::string& name,
                          uint64_t minBps = 0,
                          uint64_t maxBps = UINT64_MAX);
    /**
     * @param name the keyword
     * @param min smallest accepted value
     * @param max largest accepted value
     * @return a real-number keyword
     */
    static TcKeyword Double(const std::string& name, double min, double max);
    /**
     * @param name the keyword
     * @param words the accepted values, matched exactly
     * @return a keyword whose value is one of words
     */
    static TcKeyword Word(const std::string& name, std::vector<std::string> words);

    /// @param alias another spelling, matched exactly (cake's "diffserv" for "diffserv4")
    /// @return this keyword with the alias added
    TcKeyword Alias(const std::string& alias) const;
    /// @param group the group's name (e.g. "diffserv" for besteffort ... diffserv8)
    /// @return this keyword in that group
    TcKeyword InGroup(const std::string& group) const;
    /// @param rule the rule of this keyword's group (every member must agree)
    /// @return this keyword with that rule
    TcKeyword Repeat(TcRepeat rule) const;
    /// @return this keyword, also accepted by any non-empty prefix of its name, as tc's
    ///         matches() accepts "def" for HTB's "default" (the first match in table order wins)
    TcKeyword Abbreviable() const;

  private:
    friend class TcGrammar;
    friend class TcOptions;

    /**
     * @param name the keyword
     * @param kind what follows it
     */
    TcKeyword(const std::string& name, TcKind kind);

    /// @return what the value must look like, for error messages ("an unsigned integer in 1..8")
    std::string Describe() const;
    /**
     * Reads a value word by this keyword's kind and checks its range.
     * @param text the value word
     * @param[out] option receives the text and the value
     * @return false when malformed or out of range
     */
    bool ParseValue(const std::string& text, TcOption& option) const;
    /// @param option an occurrence of this keyword @return its value as tc prints it
    std::string FormatValue(const TcOption& option) const;

    std::string m_name;                     ///< canonical keyword
    TcKind m_kind;                          ///< kind of value
    std::vector<std::string> m_aliases;     ///< other exact spellings
    std::string m_group;                    ///< group name (defaults to m_name)
    TcRepeat m_repeat{TcRepeat::LAST_WINS}; ///< repeat rule of the group
    bool m_abbreviable{false};              ///< prefixes accepted
    int m_base{0};                          ///< UNSIGNED: number base (0, 10, 16)
    uint64_t m_min{0};                      ///< UNSIGNED, SIZE, TIME (ns), RATE (bit/s): minimum
    uint64_t m_max{UINT64_MAX};             ///< UNSIGNED, SIZE, TIME (ns), RATE (bit/s): maximum
    int64_t m_signedMin{0};                 ///< SIGNED: minimum
    int64_t m_signedMax{0};                 ///< SIGNED: maximum
    double m_doubleMin{0};                  ///< DOUBLE: minimum
    double m_doubleMax{0};                  ///< DOUBLE: maximum
    std::vector<std::string> m_words;       ///< WORD: accepted values
};

/// @ingroup debloat-qdisc
/// One keyword as given on the command line, after parsing.
struct TcOption
{
    std::string keyword; ///< canonical keyword (an alias or abbreviation is resolved)
    std::string text;    ///< the value word as written; empty for a FLAG
    uint64_t number{0};  ///< UNSIGNED value, SIZE in bytes, TIME in ns, RATE in bit/s
    int64_t integer{0};  ///< SIGNED value
    double real{0};      ///< DOUBLE value
};

class TcGrammar;

/**
 * @ingroup debloat-qdisc
 * @brief The options of one tc command line, parsed by a TcGrammar.
 *
 * Only the surviving occurrences are kept (see TcRepeat), in command-line order. The typed
 * getters return the last surviving occurrence of a keyword, or nullopt when it was not given;
 * asking for a keyword the grammar does not know, or with the getter of another kind, is a
 * programming error and throws std::logic_error.
 */
class TcOptions
{
  public:
    /// @param keyword a keyword of any kind @return true when it was given
    bool Has(const std::string& keyword) const;
    /// @param keyword an UNSIGNED keyword @return its value
    std::optional<uint64_t> GetUnsigned(const std::string& keyword) const;
    /// @param keyword a SIGNED keyword @return its value
    std::optional<int64_t> GetSigned(const std::string& keyword) const;
    /// @param keyword a SIZE keyword @return its value in bytes
    std::optional<uint64_t> GetSize(const std::string& keyword) const;
    /// @param keyword a TIME keyword @return its value in ns (whole microseconds, as tc)
    std::optional<uint64_t> GetTime(const std::string& keyword) const;
    /// @param keyword a RATE keyword @return its value in bit/s (whole bytes/s times 8, as tc)
    std::optional<uint64_t> GetRate(const std::string& keyword) const;
    /// @param keyword a DOUBLE keyword @return its value
    std::optional<double> GetDouble(const std::string& keyword) const;
    /// @param keyword a WORD keyword @return the word given as its value
    std::optional<std::string> GetChoice(const std::string& keyword) const;
    /// @param group a group name @return the canonical keyword of its last given member
    std::optional<std::string> GetWord(const std::string& group) const;
    /// @return every surviving occurrence in command-line order (for additive keywords such
    ///         as cake's overhead words, or for order-dependent rules)
    const std::vector<TcOption>& GetEntries() const;

    /**
     * Stops with a message in the grammar's style, for checks that belong to the qdisc:
     * `tc sfq: divisor "1000": must be a power of two in 1..65536` when the keyword was given
     * with a value, else `tc sfq: divisor: must be ...`.
     * @param keyword the offending keyword
     * @param requirement what it must satisfy
     * @throws std::invalid_argument always
     */
    [[noreturn]] void Reject(const std::string& keyword, const std::string& requirement) const;
    /**
     * Stops with `tc <qdisc>: <message>`, for checks that involve several keywords.
     * @param message the problem
     * @throws std::invalid_argument always
     */
    [[noreturn]] void Fail(const std::string& message) const;

    /**
     * Prints the options back as tc prints values: sizes by FormatTcSize(), times by
     * FormatTcTime(), rates by FormatTcRate(), hexadecimal keywords (base 16) with a 0x
     * prefix, so that they read back alike ("default 0x12"), in command-line order
     * (e.g. "limit 127 quantum 1514b perturb 10"). The qdisc-specific layout of
     * `tc qdisc show` (suffixes like "127p", derived values) is the qdisc's business.
     * @return the options, separated by single spaces
     */
    std::string Format() const;

  private:
    friend class TcGrammar;

    /// Shared, immutable keyword table of the grammar that parsed these options.
    struct Table;

    /// @param table the grammar's table
    explicit TcOptions(std::shared_ptr<const Table> table);

    /**
     * @param keyword a keyword of the grammar
     * @param kind the kind the getter expects
     * @return the last occurrence, or nullptr
     * @throws std::logic_error for an unknown keyword or a kind mismatch
     */
    const TcOption* Find(const std::string& keyword, TcKind kind) const;

    std::shared_ptr<const Table> m_table; ///< the grammar's keywords
    std::vector<TcOption> m_entries;      ///< surviving occurrences, in order
};

/**
 * @ingroup debloat-qdisc
 * @brief A qdisc's tc option grammar: a keyword table that parses command lines.
 *
 * Mirrors the argv loops of tc's *_parse_opt() functions: words are separated by white
 * space, keywords match exactly and case-sensitively (strcmp), or by prefix where the table
 * says Abbreviable() (matches()), and value words are read by the kind's parser. Unknown
 * words, missing or malformed values, values out of range and forbidden repeats throw
 * std::invalid_argument naming the word and what is accepted, e.g.
 * `tc sfq: unknown word "limt"; accepted: limit, depth, ...` or
 * `tc sfq: limit "1": expected an unsigned integer in 2..4294967295`.
 *
 * Deviation from Linux (iproute2): tc prints the usage text for "help" and for unknown
 * words; here "help" is an unknown word whose message lists the keywords.
 */
class TcGrammar
{
  public:
    /**
     * @param qdisc the qdisc name used in messages ("sfq")
     * @param keywords the table, in tc's matching order
     * @throws std::logic_error when two keywords or aliases share a spelling, a range is
     *         empty, or members of one group disagree on the repeat rule
     */
    TcGrammar(const std::string& qdisc, std::vector<TcKeyword> keywords);

    /**
     * @param text the options as typed after "tc qdisc add dev X root <qdisc>"
     * @return the parsed options
     * @throws std::invalid_argument on any error, naming the offending word
     */
    TcOptions Parse(const std::string& text) const;

  private:
    /**
     * @param word a command-line word
     * @return index of the keyword it selects, if any
     */
    std::optional<size_t> Match(const std::string& word) const;

    std::shared_ptr<const TcOptions::Table> m_table; ///< the keywords
};

} // namespace debloat
} // namespace ns3

#endif /* TC_OPTIONS_H */
