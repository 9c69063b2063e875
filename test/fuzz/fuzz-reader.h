/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEBLOAT_FUZZ_READER_H
#define DEBLOAT_FUZZ_READER_H

/**
 * @file
 * @ingroup debloat-tests
 * What the libFuzzer harnesses share: a reader that cuts a fuzz input into fields, and the
 * check that stops a harness when a property fails.
 */

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace debloatfuzz
{

/**
 * @ingroup debloat-tests
 * @brief Cuts a fuzz input into fields: each field is one length byte L followed by L bytes
 * (fewer at the end of the input). Past the end every field is empty and every byte 0, so a
 * harness reads a fixed layout from any input.
 */
class FuzzReader
{
  public:
    /**
     * @param data the input
     * @param size its length, bytes
     */
    FuzzReader(const uint8_t* data, size_t size)
        : m_data(data),
          m_size(size)
    {
    }

    /// @return true while unread bytes remain
    bool HasMore() const
    {
        return m_offset < m_size;
    }

    /// @return the next byte, 0 past the end
    uint8_t Byte()
    {
        return m_offset < m_size ? m_data[m_offset++] : 0;
    }

    /// @return the next field as bytes (any value, NUL included)
    std::string Field()
    {
        const size_t length = Byte();
        const size_t available = m_size - m_offset;
        const size_t taken = length < available ? length : available;
        std::string field(reinterpret_cast<const char*>(m_data + m_offset), taken);
        m_offset += taken;
        return field;
    }

  private:
    const uint8_t* m_data; ///< the input
    size_t m_size;         ///< its length
    size_t m_offset{0};    ///< bytes read
};

/**
 * @ingroup debloat-tests
 * Stops the harness (libFuzzer then saves the input as a crash) when a property fails.
 * @param ok the property
 * @param what the property, for the message
 */
inline void
Require(bool ok, const char* what)
{
    if (!ok)
    {
        std::fprintf(stderr, "property failed: %s\n", what);
        std::abort();
    }
}

} // namespace debloatfuzz

#endif /* DEBLOAT_FUZZ_READER_H */
