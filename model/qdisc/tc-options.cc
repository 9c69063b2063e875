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

#include "tc-options.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <locale>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

/// The keyword table shared by a grammar and the options it parsed.
struct TcOptions::Table
{
    std::string qdisc;                      ///< qdisc name for messages
    std::vector<TcKeyword> keywords;        ///< rows in matching order
    std::map<std::string, size_t> byName;   ///< canonical name -> row
    std::map<std::string, TcRepeat> groups; ///< group name -> rule
};

namespace
{

/// One unit suffix and the factor it applies.
struct Unit
{
    const char* name; ///< suffix, matched without regard to case
    double scale;     ///< factor
};

/// get_rate64()'s suffix table (lib/utils_math.c): bits, or bytes for the *bps units.
constexpr std::array<Unit, 18> RATE_UNITS{{
    {"bit", 1.},
    {"kibit", 1024.},
    {"kbit", 1000.},
    {"mibit", 1024. * 1024.},
    {"mbit", 1000000.},
    {"gibit", 1024. * 1024. * 1024.},
    {"gbit", 1000000000.},
    {"tibit", 1024. * 1024. * 1024. * 1024.},
    {"tbit", 1000000000000.},
    {"bps", 8.},
    {"kibps", 8. * 1024.},
    {"kbps", 8000.},
    {"mibps", 8. * 1024. * 1024.},
    {"mbps", 8000000.},
    {"gibps", 8. * 1024. * 1024. * 1024.},
    {"gbps", 8000000000.},
    {"tibps", 8. * 1024. * 1024. * 1024. * 1024.},
    {"tbps", 8000000000000.},
}};

/// get_size64()'s suffixes: bytes, or bits for the *bit units (whose factors are 1024^n / 8).
constexpr std::array<Unit, 10> SIZE_UNITS{{
    {"b", 1.},
    {"k", 1024.},
    {"kb", 1024.},
    {"m", 1024. * 1024.},
    {"mb", 1024. * 1024.},
    {"g", 1024. * 1024. * 1024.},
    {"gb", 1024. * 1024. * 1024.},
    {"kbit", 1024. / 8},
    {"mbit", 1024. * 1024. / 8},
    {"gbit", 1024. * 1024. * 1024. / 8},
}};

/// get_time()'s suffixes, in microseconds (TIME_UNITS_PER_SEC = 1000000).
constexpr std::array<Unit, 9> TIME_UNITS{{
    {"s", 1e6},
    {"sec", 1e6},
    {"secs", 1e6},
    {"ms", 1e3},
    {"msec", 1e3},
    {"msecs", 1e3},
    {"us", 1.},
    {"usec", 1.},
    {"usecs", 1.},
}};

/// 2^64 as a double: the first value that no uint64_t holds.
constexpr double TWO_POW_64 = 18446744073709551616.0;

/// Units named in error messages.
const char* const RATE_UNIT_TEXT = "units bit, kbit, mbit, gbit, tbit, kibit, mibit, gibit, tibit; "
                                   "bps, kbps, mbps, gbps, tbps, kibps, mibps, gibps, tibps are "
                                   "bytes/s; a bare number is bit/s";
/// Units named in error messages.
const char* const SIZE_UNIT_TEXT = "units b, k/kb, m/mb, g/gb, kbit, mbit, gbit";
/// Units named in error messages.
const char* const TIME_UNIT_TEXT = "units s/sec/secs, ms/msec/msecs, us/usec/usecs; "
                                   "a bare number is us";

/// @param a text @param b lower-case text @return a equals b without regard to case
bool
EqualsIgnoringCase(const std::string& a, const char* b)
{
    size_t i = 0;
    for (; i < a.size() && b[i] != '\0'; ++i)
    {
        if (std::tolower(static_cast<unsigned char>(a[i])) != b[i])
        {
            return false;
        }
    }
    return i == a.size() && b[i] == '\0';
}

/**
 * The part of strtod() that tc relies on: digits, an optional fraction and an optional
 * exponent, read in the "C" locale whatever the program's locale.
 * @param text the word
 * @param[out] value the number
 * @param[out] suffix what follows the number
 * @param allowSign accept a leading + or -
 * @return false when the word does not start with a number
 */
bool
ScanNumber(const std::string& text, double& value, std::string& suffix, bool allowSign)
{
    size_t pos = 0;
    if (allowSign && pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
    {
        ++pos;
    }
    auto skipDigits = [&text, &pos]() {
        size_t start = pos;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])))
        {
            ++pos;
        }
        return pos - start;
    };
    size_t digits = skipDigits();
    if (pos < text.size() && text[pos] == '.')
    {
        ++pos;
        digits += skipDigits();
    }
    if (digits == 0)
    {
        return false;
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E'))
    {
        size_t mark = pos++;
        if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        {
            ++pos;
        }
        if (skipDigits() == 0)
        {
            pos = mark; // "1e" alone: the 'e' belongs to the suffix, as strtod() leaves it
        }
    }
    std::istringstream stream(text.substr(0, pos));
    stream.imbue(std::locale::classic());
    stream >> value;
    if (stream.fail() || !std::isfinite(value))
    {
        return false;
    }
    suffix = text.substr(pos);
    return true;
}

/**
 * Reads a number with a unit from a table, as get_rate64(), get_size64() and get_time() do.
 * @param text the word
 * @param units the suffix table
 * @param[out] value the number times its unit's factor
 * @return false for a malformed number or an unknown suffix
 */
template <size_t N>
bool
ScanWithUnit(const std::string& text, const std::array<Unit, N>& units, double& value)
{
    std::string suffix;
    if (!ScanNumber(text, value, suffix, false))
    {
        return false;
    }
    if (suffix.empty())
    {
        return true;
    }
    for (const auto& unit : units)
    {
        if (EqualsIgnoringCase(suffix, unit.name))
        {
            value *= unit.scale;
            return true;
        }
    }
    return false;
}

/**
 * Reads an unsigned integer as strtoul() does in tc's get_u32(), without sign or blanks.
 * @param text the word
 * @param base 0 (C prefixes: 0x hexadecimal, 0 octal), 10 or 16 (0x prefix optional)
 * @param[out] value the number
 * @return false when malformed or above UINT64_MAX
 */
bool
ScanUnsigned(const std::string& text, int base, uint64_t& value)
{
    size_t pos = 0;
    uint64_t radix = base == 0 ? 10 : static_cast<uint64_t>(base);
    bool hexPrefix = text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    if ((base == 0 || base == 16) && hexPrefix)
    {
        radix = 16;
        pos = 2;
    }
    else if (base == 0 && text.size() > 1 && text[0] == '0')
    {
        radix = 8;
        pos = 1;
    }
    if (pos >= text.size())
    {
        return false;
    }
    value = 0;
    for (; pos < text.size(); ++pos)
    {
        int c = std::tolower(static_cast<unsigned char>(text[pos]));
        uint64_t digit = 0;
        if (c >= '0' && c <= '9')
        {
            digit = static_cast<uint64_t>(c - '0');
        }
        else if (c >= 'a' && c <= 'f')
        {
            digit = static_cast<uint64_t>(c - 'a' + 10);
        }
        else
        {
            return false;
        }
        if (digit >= radix || value > (UINT64_MAX - digit) / radix)
        {
            return false;
        }
        value = value * radix + digit;
    }
    return true;
}

/**
 * Reads a signed decimal integer as strtol(x, &p, 10) does in q_cake.c.
 * @param text the word
 * @param[out] value the number
 * @return false when malformed or outside int64_t
 */
bool
ScanSigned(const std::string& text, int64_t& value)
{
    bool negative = !text.empty() && text[0] == '-';
    size_t start = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
    uint64_t magnitude = 0;
    if (!ScanUnsigned(text.substr(start), 10, magnitude) ||
        magnitude > uint64_t{INT64_MAX} + (negative ? 1 : 0))
    {
        return false;
    }
    value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return true;
}

/// @param format printf format with one double @param value the double @return the text
std::string
PrintDouble(const char* format, double value)
{
    std::array<char, 64> buffer{};
    std::snprintf(buffer.data(), buffer.size(), format, value);
    return buffer.data();
}

/// @param value a number @return it in hexadecimal with a 0x prefix, as printf's "%#llx"
/// prints a non-zero value ("0x12"; zero prints "0x0", which reads back as 0 too)
std::string
PrintHex(uint64_t value)
{
    std::array<char, 32> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "0x%llx", static_cast<unsigned long long>(value));
    return buffer.data();
}

/**
 * @param qdisc the qdisc name
 * @param message the problem
 * @return the exception, worded `tc <qdisc>: <message>`
 */
std::invalid_argument
Error(const std::string& qdisc, const std::string& message)
{
    return std::invalid_argument("tc " + qdisc + ": " + message);
}

} // namespace

std::optional<uint64_t>
ParseTcRate(const std::string& text)
{
    double bits = 0;
    if (!ScanWithUnit(text, RATE_UNITS, bits))
    {
        return std::nullopt;
    }
    // get_rate64(): bps /= 8; *rate = bps (truncation to whole bytes per second).
    double bytes = std::floor(bits / 8);
    if (bytes >= TWO_POW_64 / 8)
    {
        return std::nullopt;
    }
    return static_cast<uint64_t>(bytes) * 8;
}

std::optional<uint64_t>
ParseHexDigits(const std::string& digits, std::size_t maxDigits)
{
    uint64_t value = 0;
    if (digits.empty() || digits.size() > std::min<std::size_t>(maxDigits, 16) ||
        digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos ||
        !ScanUnsigned(digits, 16, value))
    {
        return std::nullopt;
    }
    return value;
}

std::optional<uint64_t>
ParseTcSize(const std::string& text)
{
    double bytes = 0;
    if (!ScanWithUnit(text, SIZE_UNITS, bytes) || bytes >= TWO_POW_64)
    {
        return std::nullopt;
    }
    return static_cast<uint64_t>(bytes);
}

std::optional<uint64_t>
ParseTcTime(const std::string& text)
{
    double microseconds = 0;
    if (!ScanWithUnit(text, TIME_UNITS, microseconds) || microseconds >= 4294967296.0)
    {
        return std::nullopt;
    }
    return static_cast<uint64_t>(microseconds) * 1000;
}

std::string
FormatTcRate(uint64_t bitsPerSecond, bool iec)
{
    constexpr std::array<const char*, 5> PREFIXES{"", "K", "M", "G", "T"};
    const uint64_t kilo = iec ? 1024 : 1000;
    uint64_t rate = bitsPerSecond;
    size_t i = 0;
    for (; i < PREFIXES.size() - 1; ++i)
    {
        if (rate < kilo || (rate % kilo != 0 && rate < 1000 * kilo))
        {
            break;
        }
        rate /= kilo;
    }
    return std::to_string(rate) + PREFIXES[i] + (i > 0 && iec ? "i" : "") + "bit";
}

std::string
FormatTcSize(uint64_t bytes)
{
    constexpr double KILO = 1024;
    constexpr double MEGA = KILO * KILO;
    constexpr double GIGA = MEGA * KILO;
    // Deviation from Linux (iproute2's print_size): a count of a million units or more
    // would print in %g's exponent form, six digits, and read back as another size; it is
    // printed in bytes instead, so that Format() reads back alike.
    constexpr double EXACT = 1e6;
    const auto size = static_cast<double>(bytes);
    if (size >= GIGA && std::fabs(GIGA * std::rint(size / GIGA) - size) < 1024 &&
        size / GIGA < EXACT)
    {
        return PrintDouble("%gGb", std::rint(size / GIGA));
    }
    if (size >= MEGA && std::fabs(MEGA * std::rint(size / MEGA) - size) < 1024 &&
        size / MEGA < EXACT)
    {
        return PrintDouble("%gMb", std::rint(size / MEGA));
    }
    if (size >= KILO && std::fabs(KILO * std::rint(size / KILO) - size) < 16 && size / KILO < EXACT)
    {
        return PrintDouble("%gKb", std::rint(size / KILO));
    }
    return std::to_string(bytes) + "b";
}

std::string
FormatTcTime(uint64_t nanoseconds)
{
    const uint64_t microseconds = nanoseconds / 1000;
    const auto time = static_cast<double>(microseconds);
    if (time >= 1e6)
    {
        return PrintDouble("%.3gs", time / 1e6);
    }
    if (time >= 1e3)
    {
        return PrintDouble("%.3gms", time / 1e3);
    }
    return std::to_string(microseconds) + "us";
}

TcKeyword::TcKeyword(const std::string& name, TcKind kind)
    : m_name(name),
      m_kind(kind),
      m_group(name)
{
}

TcKeyword
TcKeyword::Flag(const std::string& name)
{
    return TcKeyword(name, TcKind::FLAG);
}

TcKeyword
TcKeyword::Unsigned(const std::string& name, uint64_t min, uint64_t max, int base)
{
    TcKeyword keyword(name, TcKind::UNSIGNED);
    keyword.m_min = min;
    keyword.m_max = max;
    keyword.m_base = base;
    return keyword;
}

TcKeyword
TcKeyword::Signed(const std::string& name, int64_t min, int64_t max)
{
    TcKeyword keyword(name, TcKind::SIGNED);
    keyword.m_signedMin = min;
    keyword.m_signedMax = max;
    return keyword;
}

TcKeyword
TcKeyword::Size(const std::string& name, uint64_t min, uint64_t max)
{
    TcKeyword keyword(name, TcKind::SIZE);
    keyword.m_min = min;
    keyword.m_max = max;
    return keyword;
}

TcKeyword
TcKeyword::Time(const std::string& name, uint64_t minNs, uint64_t maxNs)
{
    TcKeyword keyword(name, TcKind::TIME);
    keyword.m_min = minNs;
    keyword.m_max = maxNs;
    return keyword;
}

TcKeyword
TcKeyword::Rate(const std::string& name, uint64_t minBps, uint64_t maxBps)
{
    TcKeyword keyword(name, TcKind::RATE);
    keyword.m_min = minBps;
    keyword.m_max = maxBps;
    return keyword;
}

TcKeyword
TcKeyword::Double(const std::string& name, double min, double max)
{
    TcKeyword keyword(name, TcKind::DOUBLE);
    keyword.m_doubleMin = min;
    keyword.m_doubleMax = max;
    return keyword;
}

TcKeyword
TcKeyword::Word(const std::string& name, std::vector<std::string> words)
{
    TcKeyword keyword(name, TcKind::WORD);
    keyword.m_words = std::move(words);
    return keyword;
}

TcKeyword
TcKeyword::Alias(const std::string& alias) const
{
    TcKeyword keyword(*this);
    keyword.m_aliases.push_back(alias);
    return keyword;
}

TcKeyword
TcKeyword::InGroup(const std::string& group) const
{
    TcKeyword keyword(*this);
    keyword.m_group = group;
    return keyword;
}

TcKeyword
TcKeyword::Repeat(TcRepeat rule) const
{
    TcKeyword keyword(*this);
    keyword.m_repeat = rule;
    return keyword;
}

TcKeyword
TcKeyword::Abbreviable() const
{
    TcKeyword keyword(*this);
    keyword.m_abbreviable = true;
    return keyword;
}

std::string
TcKeyword::Describe() const
{
    auto range = [](const std::string& lo, const std::string& hi) {
        return " in " + lo + ".." + hi;
    };
    switch (m_kind)
    {
    case TcKind::FLAG:
        return "no value";
    case TcKind::UNSIGNED:
        return std::string(m_base == 16 ? "a hexadecimal" : "an unsigned") + " integer" +
               range(std::to_string(m_min), std::to_string(m_max));
    case TcKind::SIGNED:
        return "an integer" + range(std::to_string(m_signedMin), std::to_string(m_signedMax));
    case TcKind::SIZE:
        return "a size in bytes" +
               (m_min == 0 && m_max == UINT32_MAX
                    ? std::string()
                    : range(std::to_string(m_min), std::to_string(m_max))) +
               " (" + SIZE_UNIT_TEXT + ")";
    case TcKind::TIME:
        return "a time" +
               (m_min == 0 && m_max == uint64_t{UINT32_MAX} * 1000
                    ? std::string()
                    : range(std::to_string(m_min / 1000), std::to_string(m_max / 1000)) + " us") +
               " (" + TIME_UNIT_TEXT + ")";
    case TcKind::RATE:
        return "a rate" +
               (m_min == 0 && m_max == UINT64_MAX
                    ? std::string()
                    : range(std::to_string(m_min), std::to_string(m_max)) + " bit/s") +
               " (" + RATE_UNIT_TEXT + ")";
    case TcKind::DOUBLE:
        return "a number" + range(PrintDouble("%g", m_doubleMin), PrintDouble("%g", m_doubleMax));
    case TcKind::WORD: {
        std::string text = "one of: ";
        for (size_t i = 0; i < m_words.size(); ++i)
        {
            text += (i > 0 ? ", " : "") + m_words[i];
        }
        return text;
    }
    }
    return "";
}

bool
TcKeyword::ParseValue(const std::string& text, TcOption& option) const
{
    option.text = text;
    std::optional<uint64_t> number;
    switch (m_kind)
    {
    case TcKind::FLAG:
        return false;
    case TcKind::UNSIGNED: {
        uint64_t value = 0;
        if (ScanUnsigned(text, m_base, value))
        {
            number = value;
        }
        break;
    }
    case TcKind::SIGNED:
        return ScanSigned(text, option.integer) && option.integer >= m_signedMin &&
               option.integer <= m_signedMax;
    case TcKind::SIZE:
        number = ParseTcSize(text);
        break;
    case TcKind::TIME:
        number = ParseTcTime(text);
        break;
    case TcKind::RATE:
        number = ParseTcRate(text);
        break;
    case TcKind::DOUBLE: {
        std::string suffix;
        return ScanNumber(text, option.real, suffix, true) && suffix.empty() &&
               option.real >= m_doubleMin && option.real <= m_doubleMax;
    }
    case TcKind::WORD:
        for (const auto& word : m_words)
        {
            if (word == text)
            {
                return true;
            }
        }
        return false;
    }
    if (!number || *number < m_min || *number > m_max)
    {
        return false;
    }
    option.number = *number;
    return true;
}

std::string
TcKeyword::FormatValue(const TcOption& option) const
{
    switch (m_kind)
    {
    case TcKind::UNSIGNED:
        if (m_base == 16)
        {
            // Read back as hexadecimal, so printed as tc prints HTB's default ("0x12").
            return PrintHex(option.number);
        }
        return std::to_string(option.number);
    case TcKind::SIGNED:
        return std::to_string(option.integer);
    case TcKind::SIZE:
        return FormatTcSize(option.number);
    case TcKind::TIME:
        return FormatTcTime(option.number);
    case TcKind::RATE:
        return FormatTcRate(option.number);
    case TcKind::DOUBLE:
        return PrintDouble("%g", option.real);
    case TcKind::FLAG:
    case TcKind::WORD:
        break;
    }
    return option.text;
}

TcOptions::TcOptions(std::shared_ptr<const Table> table)
    : m_table(std::move(table))
{
}

const TcOption*
TcOptions::Find(const std::string& keyword, TcKind kind) const
{
    auto row = m_table->byName.find(keyword);
    if (row == m_table->byName.end())
    {
        throw std::logic_error("tc " + m_table->qdisc + " has no keyword \"" + keyword + "\"");
    }
    if (m_table->keywords[row->second].m_kind != kind)
    {
        throw std::logic_error("tc " + m_table->qdisc + ": \"" + keyword +
                               "\" is read with the getter of another kind");
    }
    for (auto entry = m_entries.rbegin(); entry != m_entries.rend(); ++entry)
    {
        if (entry->keyword == keyword)
        {
            return &*entry;
        }
    }
    return nullptr;
}

bool
TcOptions::Has(const std::string& keyword) const
{
    auto row = m_table->byName.find(keyword);
    if (row == m_table->byName.end())
    {
        throw std::logic_error("tc " + m_table->qdisc + " has no keyword \"" + keyword + "\"");
    }
    return Find(keyword, m_table->keywords[row->second].m_kind) != nullptr;
}

std::optional<uint64_t>
TcOptions::GetUnsigned(const std::string& keyword) const
{
    const TcOption* option = Find(keyword, TcKind::UNSIGNED);
    return option ? std::optional<uint64_t>(option->number) : std::nullopt;
}

std::optional<int64_t>
TcOptions::GetSigned(const std::string& keyword) const
{
    const TcOption* option = Find(keyword, TcKind::SIGNED);
    return option ? std::optional<int64_t>(option->integer) : std::nullopt;
}

std::optional<uint64_t>
TcOptions::GetSize(const std::string& keyword) const
{
    const TcOption* option = Find(keyword, TcKind::SIZE);
    return option ? std::optional<uint64_t>(option->number) : std::nullopt;
}

std::optional<uint64_t>
TcOptions::GetTime(const std::string& keyword) const
{
    const TcOption* option = Find(keyword, TcKind::TIME);
    return option ? std::optional<uint64_t>(option->number) : std::nullopt;
}

std::optional<uint64_t>
TcOptions::GetRate(const std::string& keyword) const
{
    const TcOption* option = Find(keyword, TcKind::RATE);
    return option ? std::optional<uint64_t>(option->number) : std::nullopt;
}

std::optional<double>
TcOptions::GetDouble(const std::string& keyword) const
{
    const TcOption* option = Find(keyword, TcKind::DOUBLE);
    return option ? std::optional<double>(option->real) : std::nullopt;
}

std::optional<std::string>
TcOptions::GetChoice(const std::string& keyword) const
{
    const TcOption* option = Find(keyword, TcKind::WORD);
    return option ? std::optional<std::string>(option->text) : std::nullopt;
}

std::optional<std::string>
TcOptions::GetWord(const std::string& group) const
{
    if (m_table->groups.count(group) == 0)
    {
        throw std::logic_error("tc " + m_table->qdisc + " has no group \"" + group + "\"");
    }
    for (auto entry = m_entries.rbegin(); entry != m_entries.rend(); ++entry)
    {
        if (m_table->keywords[m_table->byName.at(entry->keyword)].m_group == group)
        {
            return entry->keyword;
        }
    }
    return std::nullopt;
}

const std::vector<TcOption>&
TcOptions::GetEntries() const
{
    return m_entries;
}

void
TcOptions::Reject(const std::string& keyword, const std::string& requirement) const
{
    auto row = m_table->byName.find(keyword);
    if (row == m_table->byName.end())
    {
        throw std::logic_error("tc " + m_table->qdisc + " has no keyword \"" + keyword + "\"");
    }
    const TcOption* option = Find(keyword, m_table->keywords[row->second].m_kind);
    std::string subject = keyword;
    if (option && !option->text.empty())
    {
        subject += " \"" + option->text + "\"";
    }
    throw Error(m_table->qdisc, subject + ": " + requirement);
}

void
TcOptions::Fail(const std::string& message) const
{
    throw Error(m_table->qdisc, message);
}

std::string
TcOptions::Format() const
{
    std::string text;
    for (const auto& entry : m_entries)
    {
        const TcKeyword& keyword = m_table->keywords[m_table->byName.at(entry.keyword)];
        text += (text.empty() ? "" : " ") + entry.keyword;
        if (keyword.m_kind != TcKind::FLAG)
        {
            text += " " + keyword.FormatValue(entry);
        }
    }
    return text;
}

TcGrammar::TcGrammar(const std::string& qdisc, std::vector<TcKeyword> keywords)
{
    auto table = std::make_shared<TcOptions::Table>();
    table->qdisc = qdisc;
    std::map<std::string, size_t> spellings;
    for (size_t i = 0; i < keywords.size(); ++i)
    {
        const TcKeyword& keyword = keywords[i];
        std::vector<std::string> names = keyword.m_aliases;
        names.push_back(keyword.m_name);
        for (const auto& name : names)
        {
            if (name.empty() || !spellings.emplace(name, i).second)
            {
                throw std::logic_error("tc " + qdisc + ": keyword \"" + name +
                                       "\" is empty or defined twice");
            }
        }
        if (keyword.m_min > keyword.m_max || keyword.m_signedMin > keyword.m_signedMax ||
            keyword.m_doubleMin > keyword.m_doubleMax ||
            (keyword.m_kind == TcKind::WORD && keyword.m_words.empty()) ||
            (keyword.m_base != 0 && keyword.m_base != 10 && keyword.m_base != 16))
        {
            throw std::logic_error("tc " + qdisc + ": keyword \"" + keyword.m_name +
                                   "\" accepts no value");
        }
        auto group = table->groups.emplace(keyword.m_group, keyword.m_repeat);
        if (group.first->second != keyword.m_repeat)
        {
            throw std::logic_error("tc " + qdisc + ": group \"" + keyword.m_group +
                                   "\" has members with different repeat rules");
        }
        table->byName[keyword.m_name] = i;
    }
    table->keywords = std::move(keywords);
    m_table = table;
}

std::optional<size_t>
TcGrammar::Match(const std::string& word) const
{
    const auto& keywords = m_table->keywords;
    for (size_t i = 0; i < keywords.size(); ++i)
    {
        const TcKeyword& keyword = keywords[i];
        if (word == keyword.m_name ||
            (keyword.m_abbreviable && !word.empty() && word.size() < keyword.m_name.size() &&
             keyword.m_name.compare(0, word.size(), word) == 0))
        {
            return i;
        }
        for (const auto& alias : keyword.m_aliases)
        {
            if (word == alias)
            {
                return i;
            }
        }
    }
    return std::nullopt;
}

TcOptions
TcGrammar::Parse(const std::string& text) const
{
    const TcOptions::Table& table = *m_table;
    TcOptions options(m_table);
    std::istringstream stream(text);
    std::vector<std::string> words;
    for (std::string word; stream >> word;)
    {
        words.push_back(word);
    }
    for (size_t i = 0; i < words.size(); ++i)
    {
        const std::optional<size_t> row = Match(words[i]);
        if (!row)
        {
            std::string accepted;
            for (const auto& keyword : table.keywords)
            {
                accepted += (accepted.empty() ? "" : ", ") + keyword.m_name;
                for (const auto& alias : keyword.m_aliases)
                {
                    accepted += ", " + alias;
                }
            }
            throw Error(table.qdisc, "unknown word \"" + words[i] + "\"; accepted: " + accepted);
        }
        const TcKeyword& keyword = table.keywords[*row];
        TcOption option;
        option.keyword = keyword.m_name;
        if (keyword.m_kind != TcKind::FLAG)
        {
            if (i + 1 == words.size())
            {
                throw Error(table.qdisc,
                            "\"" + keyword.m_name + "\" needs a value: " + keyword.Describe());
            }
            ++i;
            if (!keyword.ParseValue(words[i], option))
            {
                throw Error(table.qdisc,
                            keyword.m_name + " \"" + words[i] + "\": expected " +
                                keyword.Describe());
            }
        }

        auto& entries = options.m_entries;
        auto sameGroup = [&table, &keyword](const TcOption& entry) {
            return table.keywords[table.byName.at(entry.keyword)].m_group == keyword.m_group;
        };
        if (keyword.m_repeat == TcRepeat::ONCE)
        {
            for (const auto& entry : entries)
            {
                if (!sameGroup(entry))
                {
                    continue;
                }
                if (entry.keyword == keyword.m_name)
                {
                    throw Error(table.qdisc, "\"" + keyword.m_name + "\" given twice");
                }
                std::string members;
                for (const auto& other : table.keywords)
                {
                    if (other.m_group == keyword.m_group)
                    {
                        members += (members.empty() ? "" : ", ") + other.m_name;
                    }
                }
                throw Error(table.qdisc,
                            "\"" + keyword.m_name + "\" conflicts with \"" + entry.keyword +
                                "\"; give only one of: " + members);
            }
        }
        else if (keyword.m_repeat == TcRepeat::LAST_WINS)
        {
            for (auto entry = entries.begin(); entry != entries.end();)
            {
                entry = sameGroup(*entry) ? entries.erase(entry) : entry + 1;
            }
        }
        entries.push_back(std::move(option));
    }
    return options;
}

} // namespace debloat
} // namespace ns3
