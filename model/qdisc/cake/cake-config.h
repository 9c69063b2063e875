/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The configuration of one CAKE instance as tc/q_cake.c (iproute2) collects it from the
 * command line and net/sched/sch_cake.c (Linux) keeps it (struct cake_sched_data's settings
 * and the TCA_CAKE_* attributes of include/uapi/linux/pkt_sched.h).
 */

#ifndef CAKE_CONFIG_H
#define CAKE_CONFIG_H

#include "cake-overhead.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief Tin presets (enum CAKE_DIFFSERV_*; the values are the uapi's).
 */
enum class CakeDiffservMode : uint8_t
{
    DIFFSERV3 = 0,  ///< "diffserv3" (default): Bulk, Best Effort, Voice
    DIFFSERV4 = 1,  ///< "diffserv4" (alias "diffserv"): Bulk, Best Effort, Video, Voice
    DIFFSERV8 = 2,  ///< "diffserv8": eight tins by DSCP class
    BESTEFFORT = 3, ///< "besteffort": one tin
    PRECEDENCE = 4, ///< "precedence": eight tins by the IP precedence (DSCP >> 3)
};

/**
 * @ingroup debloat-qdisc
 * @brief Flow isolation modes (enum CAKE_FLOW_*; the values are the uapi's).
 *
 * Bit 0 isolates by source host, bit 1 by destination host, bit 2 by flow: dual-srchost is
 * SRC_IP | FLOWS, triple-isolate is all three.
 */
enum class CakeFlowMode : uint8_t
{
    NONE = 0,     ///< "flowblind": one queue per tin
    SRC_IP = 1,   ///< "srchost": one queue per source host
    DST_IP = 2,   ///< "dsthost": one queue per destination host
    HOSTS = 3,    ///< "hosts": one queue per host pair
    FLOWS = 4,    ///< "flows": one queue per 5-tuple
    DUAL_SRC = 5, ///< "dual-srchost": flows, fair between source hosts
    DUAL_DST = 6, ///< "dual-dsthost": flows, fair between destination hosts
    TRIPLE = 7,   ///< "triple-isolate" (default): flows, fair between both kinds of hosts
};

/**
 * @ingroup debloat-qdisc
 * @brief ACK filter modes (enum CAKE_ACK_*; the values are the uapi's).
 */
enum class CakeAckFilterMode : uint8_t
{
    NONE = 0,       ///< "no-ack-filter" (default)
    FILTER = 1,     ///< "ack-filter": drop a queued ACK made redundant by two newer ones
    AGGRESSIVE = 2, ///< "ack-filter-aggressive": also when only the newest one makes it so
};

/**
 * @ingroup debloat-qdisc
 * @brief The settings of one CAKE instance, with the kernel's defaults (cake_init()).
 *
 * Rates are bytes per second as the kernel stores them (tc divides the bit rate by 8);
 * times are ns. Fields map to tc-cake(8) words as noted.
 */
struct CakeConfig
{
    uint64_t rate{0};                                       ///< bandwidth; 0: unlimited
    bool autorateIngress{false};                            ///< autorate-ingress
    LinkLayer linkLayer;                                    ///< overhead, mpu, atm, presets
    uint64_t targetNs{5000000};                             ///< target (rtt / 20; presets)
    uint64_t intervalNs{100000000};                         ///< rtt (presets)
    CakeDiffservMode diffserv{CakeDiffservMode::DIFFSERV3}; ///< tin preset
    CakeFlowMode flowMode{CakeFlowMode::TRIPLE};            ///< isolation mode
    bool nat{false};                                        ///< nat / nonat
    bool wash{false};                                       ///< wash / nowash
    bool ingress{false};                                    ///< ingress / egress
    CakeAckFilterMode ackFilter{CakeAckFilterMode::NONE};   ///< ack-filter words
    bool splitGso{true};                                    ///< split-gso / no-split-gso
    uint32_t memlimit{0};                                   ///< memlimit; 0: derived
    uint32_t fwmark{0};                                     ///< fwmark MASK; 0: off
};

/**
 * Applies a tc-cake option string to a configuration, as q_cake.c's cake_parse_opt() does
 * to the kernel's current settings (words not given keep their value).
 *
 * Accepts every word of tc-cake(8): bandwidth RATE, unlimited, autorate-ingress, rtt TIME,
 * the rtt presets (datacentre, lan, metro, regional, internet, oceanic, satellite,
 * interplanetary), besteffort, precedence, diffserv8, diffserv4 (diffserv), diffserv3, the
 * isolation words (flowblind, srchost, dsthost, hosts, flows, dual-srchost, dual-dsthost,
 * triple-isolate), nat, nonat, wash, nowash, ingress, egress, ack-filter,
 * ack-filter-aggressive, no-ack-filter, split-gso, no-split-gso, memlimit SIZE, fwmark MASK,
 * overhead N, mpu N, the link-layer words of cake-overhead.h (raw, atm, ptm, noatm,
 * conservative, ethernet, docsis, ...).
 *
 * The words are read left to right into q_cake.c's local variables, which then become the
 * netlink attributes that cake_change() applies; so, as with `tc qdisc change`:
 * - the link-layer words work on an overhead that starts at 0 on each command line, not on
 *   config's: framing words add to what the line collected so far ("pppoe-ptm ether-vlan" is
 *   34 and ptm), `overhead N` and `conservative` set it, `raw` sets 0 and noatm and clears the
 *   network-offset flag (LinkLayer::raw), and any of them replaces config's overhead;
 *   a line with an overhead word but without `raw` sets the flag again (raw = false);
 * - `bandwidth RATE` stores RATE / 8 bytes per second and `unlimited` stores 0; both turn
 *   autorate-ingress off, so it must come after them ("bandwidth 10Mbit autorate-ingress");
 * - `rtt T` sets the interval to T and the target to T / 20, at least 1 us; a preset sets
 *   both from q_cake.c's table, and a second preset is an error;
 * - q_cake.c sends a value only when it is non-zero, so "bandwidth 0" (with no `unlimited`),
 *   "mpu 0", "memlimit 0", "fwmark 0" and the interval of "rtt 0" leave config's value as it
 *   was ("ethernet mpu 0" sends no mpu at all, so an mpu set earlier stays);
 * - when a word is refused nothing is changed.
 *
 * Deviation from Linux (iproute2): errors are std::invalid_argument in TcGrammar's wording
 * (`tc cake: unknown word "x"; accepted: ...`, `tc cake: overhead "300": expected an integer
 * in -64..256`, `tc cake: "metro" conflicts with "lan"; ...`) instead of q_cake.c's "What is
 * "x"?" with the usage text, "Illegal "overhead", valid range is -64 to 256" and duparg()'s
 * "Error: duplicate ..." (a library cannot print and exit).
 *
 * Deviation from Linux (iproute2): an overhead or mpu that does not fit in an int is refused;
 * q_cake.c stores strtol()'s long in an int, so on 64-bit hosts e.g. "overhead 4294967296"
 * wraps to 0 and is accepted (an accident of the C types, not a rule).
 *
 * Deviation from Linux: `nat` is always accepted; a kernel built without conntrack refuses it
 * with EOPNOTSUPP (the simulator has no such build option).
 *
 * @param config the settings to change
 * @param options the words, e.g. "bandwidth 50Mbit diffserv4 dual-srchost nat ack-filter"
 * @throws std::invalid_argument naming the offending word and what is accepted; config is
 *         left unchanged
 */
void ParseCakeOptions(CakeConfig& config, const std::string& options);

/**
 * Prints the settings as cake_print_opt() prints the attributes cake_dump() reports, in its
 * order: bandwidth RATE (or "bandwidth unlimited"), autorate-ingress if set, the tin preset,
 * the isolation mode, nat or nonat, wash or nowash, ingress if set, the ACK filter word,
 * split-gso or no-split-gso, rtt TIME (whole microseconds, FormatTcTime(); the target is not
 * printed), raw when the network-offset flag is clear (!UsesNetworkOffset()), atm or ptm or,
 * when not raw, noatm, overhead N, then mpu N, memlimit SIZE (FormatTcSize()) and
 * fwmark 0xMASK when non-zero. E.g. the defaults print as "bandwidth unlimited diffserv3
 * triple-isolate nonat nowash no-ack-filter split-gso rtt 100ms raw overhead 0".
 *
 * Deviation from Linux (iproute2): only the options part of the `tc qdisc show` line (no
 * "qdisc cake 8001: root refcnt 2" prefix), without tc's trailing space, in tc's default
 * units (no `tc -iec`, no JSON).
 *
 * @param config the settings
 * @return the options as `tc qdisc show` prints them for cake (cake_print_opt()), e.g.
 *         "bandwidth 50Mbit diffserv3 triple-isolate nonat nowash no-ack-filter split-gso
 *         rtt 100ms raw overhead 0"
 */
std::string FormatCakeOptions(const CakeConfig& config);

/**
 * The settings of FormatCakeOptions() that differ from tc's defaults (those of CakeConfig{}),
 * in the same order: what `tc qdisc add ... cake` needs to be given to produce the config.
 * The link-layer words (raw, atm, ptm, noatm, overhead N, mpu N) count as one setting,
 * printed whole when any of them differs. E.g. the defaults give "", bandwidth 50 Mbit/s
 * with nat gives "bandwidth 50Mbit nat", and overhead 38 gives "noatm overhead 38".
 * Parsed over CakeConfig{} (ParseCakeOptions()), the text gives config back, up to tc's
 * rounding of rates, sizes and times.
 * @param config the settings
 * @return the words, or "" when config is tc's default
 */
std::string FormatCakeOptionChanges(const CakeConfig& config);

/// @param mode a tin preset @return its tc word ("diffserv3")
/// (q_cake.c's diffserv_names[]; a value outside the enum gives tc's "(?diffserv?)")
const char* CakeDiffservName(CakeDiffservMode mode);

/// @param mode an isolation mode @return its tc word ("triple-isolate")
/// (q_cake.c's flowmode_names[]; a value outside the enum gives tc's "(?flowmode?)")
const char* CakeFlowModeName(CakeFlowMode mode);

/// @param mode an ACK filter mode @return its tc word ("no-ack-filter")
/// (as cake_print_opt(): a value outside the enum prints as "no-ack-filter")
const char* CakeAckFilterName(CakeAckFilterMode mode);

} // namespace debloat
} // namespace ns3

#endif /* CAKE_CONFIG_H */
