/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows tc/q_htb.c of iproute2 (htb_parse_opt, htb_parse_class_opt) and tc's classid
 * syntax (get_tc_classid).
 */

#ifndef HTB_CONFIG_H
#define HTB_CONFIG_H

#include "htb-scheduler.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief The options of `tc qdisc add ... htb` (struct tc_htb_glob and direct_qlen).
 */
struct HtbQdiscOptions
{
    uint32_t defaultClass{0}; ///< default: minor id of the class for unclassified packets
    uint32_t r2q{10};         ///< r2q: rate-to-quantum divisor
    uint32_t directQlen{0};   ///< direct_qlen; 0: not given (the device's txqueuelen)
};

/**
 * Parses the options of the htb qdisc, as htb_parse_opt() does: `default` is hexadecimal,
 * as classids are ("default 12" is class 1:12, minor 0x12); `r2q` and `direct_qlen` are
 * decimal; words may be abbreviated (tc's matches()).
 * @param text e.g. "default 12 r2q 10"; a leading "htb" is accepted
 * @return the options
 * @throws std::invalid_argument naming the offending word
 */
HtbQdiscOptions ParseHtbQdiscOptions(const std::string& text);

/**
 * Parses one class line, as `tc class add` and htb_parse_class_opt() do:
 * `[class [add] [dev DEV]] parent MAJOR:[MINOR] classid MAJOR:MINOR [htb] rate RATE [ceil RATE]
 * [burst SIZE] [cburst SIZE] [prio N] [quantum N] [mtu N] [mpu N] [overhead N]
 * [linklayer ethernet|atm|adsl]`. Minors are hexadecimal (tc's classid syntax); "parent 1:"
 * is the qdisc itself (a top-level class).
 *
 * Deviation from Linux (iproute2): rates in percent of the device rate are not accepted
 * (there is no device at parse time); the major number must be the same everywhere (one
 * htb qdisc).
 *
 * @param line the class line
 * @return the class, parent 0 for a top-level class
 * @throws std::invalid_argument naming the offending word or the class
 */
HtbClassConfig ParseHtbClass(const std::string& line);

/**
 * Splits a list of class lines separated by newlines or semicolons.
 * @param text the lines
 * @return the non-empty lines
 */
std::vector<std::string> SplitHtbClassLines(const std::string& text);

/**
 * @param mode a class mode
 * @return the kernel's name of it ("HTB_CANT_SEND", "HTB_MAY_BORROW", "HTB_CAN_SEND")
 */
std::string HtbModeName(HtbMode mode);

/**
 * @param id a class minor id
 * @return tc's spelling of the classid with major 1 ("1:12" for 0x12)
 */
std::string FormatHtbClassId(uint32_t id);

} // namespace debloat
} // namespace ns3

#endif /* HTB_CONFIG_H */
