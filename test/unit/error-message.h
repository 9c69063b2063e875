/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEBLOAT_UNIT_ERROR_MESSAGE_H
#define DEBLOAT_UNIT_ERROR_MESSAGE_H

#include <stdexcept>
#include <string>

namespace debloattest
{

/**
 * @ingroup debloat-tests
 * Runs code that should refuse its input.
 * @tparam Exception the exception it should throw
 * @tparam F a callable
 * @param f the code
 * @return the exception's message, or "" when f throws none
 */
template <typename Exception = std::invalid_argument, typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const Exception& e)
    {
        return e.what();
    }
    return "";
}

} // namespace debloattest

#endif /* DEBLOAT_UNIT_ERROR_MESSAGE_H */
