/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * libFuzzer harness of the flent writer's JSON text (model/results/flent-writer.h): a
 * RunRecord whose strings are any bytes (fuzz-run-record.h) goes through
 * FlentWriter::ToJson().
 *
 * Properties: a run the writer refuses throws std::invalid_argument (empty test name, host or
 * series name, as documented); otherwise the text is one valid JSON document (RFC 8259:
 * UTF-8, strings escaped, no NaN), as flent's json.load() needs, and its metadata TITLE
 * reads back as the run's title when that is valid UTF-8.
 */

#include "fuzz-reader.h"
#include "fuzz-run-record.h"

#include "ns3/flent-writer.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace
{

using debloatfuzz::FuzzReader;
using debloatfuzz::MakeRunRecord;
using debloatfuzz::Require;
using ns3::debloat::FlentWriter;
using ns3::debloat::RunRecord;

/**
 * Reads one UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
 * @param text the text
 * @param[in,out] i the sequence's first byte; on success, the byte after it
 * @param[out] code the code point
 * @return false when the bytes at i are not a valid sequence
 */
bool
ReadUtf8(const std::string& text, size_t& i, uint32_t& code)
{
    const auto byte = [&text](size_t k) { return static_cast<uint8_t>(text[k]); };
    const uint8_t lead = byte(i);
    size_t count = 0;
    uint32_t min = 0;
    if (lead < 0x80)
    {
        code = lead;
        ++i;
        return true;
    }
    if (lead >= 0xc2 && lead <= 0xdf)
    {
        count = 1;
        code = lead & 0x1f;
        min = 0x80;
    }
    else if (lead >= 0xe0 && lead <= 0xef)
    {
        count = 2;
        code = lead & 0x0f;
        min = 0x800;
    }
    else if (lead >= 0xf0 && lead <= 0xf4)
    {
        count = 3;
        code = lead & 0x07;
        min = 0x10000;
    }
    else
    {
        return false;
    }
    for (size_t k = 1; k <= count; ++k)
    {
        if (i + k >= text.size() || (byte(i + k) & 0xc0) != 0x80)
        {
            return false;
        }
        code = code << 6 | (byte(i + k) & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
    {
        return false;
    }
    i += count + 1;
    return true;
}

/**
 * @param text bytes
 * @return true if they are valid UTF-8
 */
bool
IsUtf8(const std::string& text)
{
    uint32_t code = 0;
    for (size_t i = 0; i < text.size();)
    {
        if (!ReadUtf8(text, i, code))
        {
            return false;
        }
    }
    return true;
}

/**
 * @brief A strict RFC 8259 parser that keeps only what the harness checks: it validates the
 * whole document and collects the string members of the "metadata" object.
 */
class JsonChecker
{
  public:
    /// @param text the document
    explicit JsonChecker(const std::string& text)
        : m_text(text)
    {
    }

    /// @return true if the text is exactly one valid JSON value
    bool Check()
    {
        return Value(0, "") && (SkipSpace(), m_pos == m_text.size());
    }

    /// @return the string members of the top-level "metadata" object, decoded
    const std::vector<std::pair<std::string, std::string>>& Metadata() const
    {
        return m_metadata;
    }

  private:
    /// Skips JSON white space.
    void SkipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' ||
                                         m_text[m_pos] == '\n' || m_text[m_pos] == '\r'))
        {
            ++m_pos;
        }
    }

    /**
     * @param literal the word
     * @return true if it comes next (and was consumed)
     */
    bool Literal(const char* literal)
    {
        const std::string word(literal);
        if (m_text.compare(m_pos, word.size(), word) != 0)
        {
            return false;
        }
        m_pos += word.size();
        return true;
    }

    /**
     * @param depth nesting depth
     * @param key the member name this value belongs to (for the metadata)
     * @return true if a valid value was read
     */
    bool Value(int depth, const std::string& key)
    {
        SkipSpace();
        if (m_pos >= m_text.size() || depth > 32)
        {
            return false;
        }
        const char c = m_text[m_pos];
        if (c == '{')
        {
            return Object(depth, key == "metadata" && depth == 1);
        }
        if (c == '[')
        {
            ++m_pos;
            SkipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ']')
            {
                ++m_pos;
                return true;
            }
            while (true)
            {
                if (!Value(depth + 1, ""))
                {
                    return false;
                }
                SkipSpace();
                if (m_pos < m_text.size() && m_text[m_pos] == ',')
                {
                    ++m_pos;
                    continue;
                }
                return m_pos < m_text.size() && m_text[m_pos++] == ']';
            }
        }
        if (c == '"')
        {
            std::string decoded;
            return String(decoded);
        }
        if (c == '-' || (c >= '0' && c <= '9'))
        {
            return Number();
        }
        return Literal("true") || Literal("false") || Literal("null");
    }

    /**
     * @param depth nesting depth
     * @param collect keep the string members (the metadata object)
     * @return true if a valid object was read
     */
    bool Object(int depth, bool collect)
    {
        ++m_pos;
        SkipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}')
        {
            ++m_pos;
            return true;
        }
        while (true)
        {
            SkipSpace();
            std::string name;
            if (m_pos >= m_text.size() || m_text[m_pos] != '"' || !String(name))
            {
                return false;
            }
            SkipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos++] != ':')
            {
                return false;
            }
            SkipSpace();
            if (collect && m_pos < m_text.size() && m_text[m_pos] == '"')
            {
                std::string value;
                if (!String(value))
                {
                    return false;
                }
                m_metadata.emplace_back(name, value);
            }
            else if (!Value(depth + 1, name))
            {
                return false;
            }
            SkipSpace();
            if (m_pos < m_text.size() && m_text[m_pos] == ',')
            {
                ++m_pos;
                continue;
            }
            return m_pos < m_text.size() && m_text[m_pos++] == '}';
        }
    }

    /**
     * @param[out] decoded the string's value as UTF-8
     * @return true if a valid string was read
     */
    bool String(std::string& decoded)
    {
        ++m_pos;
        while (m_pos < m_text.size())
        {
            const auto c = static_cast<uint8_t>(m_text[m_pos]);
            if (c == '"')
            {
                ++m_pos;
                return true;
            }
            if (c < 0x20)
            {
                return false;
            }
            if (c == '\\')
            {
                if (++m_pos >= m_text.size())
                {
                    return false;
                }
                const char e = m_text[m_pos++];
                const std::string simple = "\"\\/bfnrt";
                const std::string meaning = "\"\\/\b\f\n\r\t";
                if (const size_t k = simple.find(e); k != std::string::npos)
                {
                    decoded += meaning[k];
                    continue;
                }
                uint32_t code = 0;
                if (e != 'u' || !Hex4(code) || (code >= 0xd800 && code <= 0xdfff))
                {
                    return false; // no surrogate pairs: the writer escapes only controls
                }
                AppendUtf8(decoded, code);
                continue;
            }
            const size_t start = m_pos;
            uint32_t code = 0;
            if (!ReadUtf8(m_text, m_pos, code))
            {
                return false;
            }
            decoded.append(m_text, start, m_pos - start);
        }
        return false;
    }

    /**
     * @param[out] code four hex digits' value
     * @return true if four hex digits were read
     */
    bool Hex4(uint32_t& code)
    {
        if (m_pos + 4 > m_text.size())
        {
            return false;
        }
        code = 0;
        for (int k = 0; k < 4; ++k)
        {
            const char h = m_text[m_pos++];
            const std::string digits = "0123456789abcdef";
            const size_t d = digits.find(static_cast<char>(h | 0x20));
            if (d == std::string::npos || !std::isxdigit(static_cast<unsigned char>(h)))
            {
                return false;
            }
            code = code << 4 | static_cast<uint32_t>(d);
        }
        return true;
    }

    /**
     * @param out the text
     * @param code a code point below U+10000 (not a surrogate)
     */
    static void AppendUtf8(std::string& out, uint32_t code)
    {
        if (code < 0x80)
        {
            out += static_cast<char>(code);
        }
        else if (code < 0x800)
        {
            out += static_cast<char>(0xc0 | code >> 6);
            out += static_cast<char>(0x80 | (code & 0x3f));
        }
        else
        {
            out += static_cast<char>(0xe0 | code >> 12);
            out += static_cast<char>(0x80 | (code >> 6 & 0x3f));
            out += static_cast<char>(0x80 | (code & 0x3f));
        }
    }

    /// @return true if a valid number was read (RFC 8259's grammar)
    bool Number()
    {
        auto digits = [this]() {
            const size_t start = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
            {
                ++m_pos;
            }
            return m_pos > start;
        };
        if (m_text[m_pos] == '-')
        {
            ++m_pos;
        }
        if (m_pos < m_text.size() && m_text[m_pos] == '0')
        {
            ++m_pos;
        }
        else if (!digits())
        {
            return false;
        }
        if (m_pos < m_text.size() && m_text[m_pos] == '.')
        {
            ++m_pos;
            if (!digits())
            {
                return false;
            }
        }
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E'))
        {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-'))
            {
                ++m_pos;
            }
            if (!digits())
            {
                return false;
            }
        }
        return true;
    }

    const std::string& m_text;                                   ///< the document
    size_t m_pos{0};                                             ///< read position
    std::vector<std::pair<std::string, std::string>> m_metadata; ///< metadata strings
};

} // namespace

/**
 * The libFuzzer entry point.
 * @param data the input
 * @param size its length
 * @return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzReader reader(data, size);
    const RunRecord run = MakeRunRecord(reader);
    std::string json;
    try
    {
        json = FlentWriter::ToJson(run, reader.Field());
    }
    catch (const std::invalid_argument&)
    {
        return 0;
    }
    JsonChecker checker(json);
    if (!checker.Check())
    {
        std::fprintf(stderr, "%s\n", json.c_str());
        Require(false, "ToJson() writes valid JSON (RFC 8259, UTF-8)");
    }
    if (IsUtf8(run.title))
    {
        bool found = false;
        for (const auto& [name, value] : checker.Metadata())
        {
            if (name == "TITLE")
            {
                Require(value == run.title, "TITLE reads back as the title");
                found = true;
            }
        }
        Require(found, "the metadata has a TITLE");
    }
    return 0;
}
