/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows tc/q_netem.c of iproute2 (netem_parse_opt(): the words and the netlink attributes
 * they send; netem_print_opt(): the `tc qdisc show` line) and net/sched/sch_netem.c of Linux
 * (netem_change(), get_slot(), get_loss_clg(): how the attributes become the qdisc's state).
 */

#ifndef NETEM_CONFIG_H
#define NETEM_CONFIG_H

#include <cstdint>
#include <optional>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief A delay distribution table (tc's "distribution NAME", the kernel's struct disttable).
 */
enum class NetemDistribution : uint8_t
{
    UNIFORM,      ///< no table: tabledist()'s built-in uniform jitter (the kernel's default)
    NORMAL,       ///< iproute2's normal.dist
    PARETO,       ///< iproute2's pareto.dist
    PARETONORMAL, ///< iproute2's paretonormal.dist
};

/**
 * @ingroup debloat-qdisc
 * @brief The loss generator (the kernel's loss_model: CLG_RANDOM, CLG_4_STATES, CLG_GILB_ELL).
 */
enum class NetemLossModel : uint8_t
{
    RANDOM,  ///< "loss random PERCENT [CORRELATION]": independent (or correlated) drops
    STATE,   ///< "loss state P13 [P31 [P32 [P23 [P14]]]]": the 4-state Markov (GI) model
    GEMODEL, ///< "loss gemodel P [R [1-H [1-K]]]": Gilbert-Elliott
};

/**
 * @ingroup debloat-qdisc
 * @brief Every setting of one netem instance as the kernel holds it after netem_change().
 *
 * Probabilities and correlations are the kernel's u32 fractions of UINT32_MAX (tc's
 * set_percent(): rint(fraction * UINT32_MAX)); times are ns; the rate is bytes per second.
 */
struct NetemConfig
{
    uint64_t latencyNs{0}; ///< delay TIME (TCA_NETEM_LATENCY64)
    uint64_t jitterNs{0};  ///< delay's JITTER (at most INT_MAX)
    uint32_t delayCorr{0}; ///< delay's CORRELATION
    NetemDistribution distribution{NetemDistribution::UNIFORM}; ///< distribution NAME
    uint32_t limit{1000};                                       ///< limit PACKETS (tc's default)
    NetemLossModel lossModel{NetemLossModel::RANDOM};           ///< which loss generator
    uint32_t loss{0};                                           ///< loss random PERCENT
    uint32_t lossCorr{0};                                       ///< loss random's CORRELATION
    uint32_t p13{0};                                            ///< state: gap -> burst loss
    uint32_t p31{0};                                            ///< state: burst loss -> gap
    uint32_t p32{0};                                            ///< state: burst loss -> burst rx
    uint32_t p23{0};                                            ///< state: burst rx -> burst loss
    uint32_t p14{0};                                            ///< state: gap -> isolated loss
    uint32_t geP{0};                                            ///< gemodel: good -> bad
    uint32_t geR{0};                                            ///< gemodel: bad -> good
    uint32_t geH{0};                                            ///< gemodel: h (tc's 1-H inverted)
    uint32_t geK1{0};                                           ///< gemodel: 1-K, loss when good
    bool ecn{false};                                            ///< ecn: mark instead of dropping
    uint32_t duplicate{0};                                      ///< duplicate PERCENT
    uint32_t dupCorr{0};                                        ///< duplicate's CORRELATION
    uint32_t reorder{0};                                        ///< reorder PERCENT
    uint32_t reorderCorr{0};                                    ///< reorder's CORRELATION
    uint32_t gap{0};           ///< gap DISTANCE (1 when reordering)
    uint32_t corrupt{0};       ///< corrupt PERCENT
    uint32_t corruptCorr{0};   ///< corrupt's CORRELATION
    uint64_t rate{0};          ///< rate, bytes/s; 0: none
    int32_t packetOverhead{0}; ///< rate's PACKETOVERHEAD, bytes
    uint32_t cellSize{0};      ///< rate's CELLSIZE, bytes; 0: none
    int32_t cellOverhead{0};   ///< rate's CELLOVERHEAD, bytes
    uint64_t slotMinNs{0};     ///< slot MIN_DELAY
    uint64_t slotMaxNs{0};     ///< slot MAX_DELAY
    NetemDistribution slotDistribution{NetemDistribution::UNIFORM}; ///< slot distribution
    uint64_t slotDelayNs{0};                                        ///< slot distribution's DELAY
    uint64_t slotJitterNs{0};                                       ///< slot distribution's JITTER
    uint32_t slotPackets{0};      ///< slot packets N; 0: unlimited
    uint32_t slotBytes{0};        ///< slot bytes N; 0: unlimited
    std::optional<uint64_t> seed; ///< seed SEED (TCA_NETEM_PRNG_SEED)

    /// @return whether slots are on (get_slot(): min, max or the distribution's jitter set)
    bool SlotsOn() const
    {
        return slotMinNs != 0 || slotMaxNs != 0 || slotJitterNs != 0;
    }
};

/// @ingroup debloat-qdisc
/// The largest jitter: tabledist() takes sigma as an s32 (netem_change() caps at INT_MAX).
constexpr uint64_t NETEM_MAX_JITTER_NS = 2147483647;

/// @ingroup debloat-qdisc
/// The longest delay or slot time accepted, ns (2^62: time_to_send never overflows).
constexpr uint64_t NETEM_MAX_TIME_NS = uint64_t{1} << 62;

/**
 * @ingroup debloat-qdisc
 * tc's set_percent(): a fraction (0 to 1) as the kernel's u32, rint(fraction * UINT32_MAX).
 * @param percent the percentage, 0 to 100
 * @return the u32 probability
 */
uint32_t NetemPercentToU32(double percent);

/**
 * @ingroup debloat-qdisc
 * @param probability a u32 probability
 * @return it as a percentage, 100 * probability / UINT32_MAX (what tc prints with "%g%%")
 */
double NetemU32ToPercent(uint32_t probability);

/**
 * @ingroup debloat-qdisc
 * Mirrors get_time64() of iproute2's lib/utils.c: a time word for netem's delay, jitter and
 * slot times. Units, without regard to case: s, sec, secs; ms, msec, msecs; us, usec, usecs;
 * ns, nsec, nsecs. A bare number is NANOSECONDS (unlike get_time()'s microseconds for other
 * qdiscs); fractions are kept to the nanosecond ("1.5us" = 1500 ns).
 *
 * Deviation from Linux (iproute2): strtod()'s sign, hexadecimal, "inf" and "nan" are refused
 * (tc refuses a negative time itself), and so is a time above NETEM_MAX_TIME_NS.
 *
 * @param text the value word
 * @return the time in ns, truncated as tc's conversion to __s64 does; nullopt if malformed
 */
std::optional<uint64_t> ParseNetemTime(const std::string& text);

/**
 * @ingroup debloat-qdisc
 * Mirrors print_time64() of iproute2: "40ms", "1.5s", "800us", "500ns" (three significant
 * digits with the largest unit the time reaches).
 * @param ns the time
 * @return the text tc prints
 */
std::string FormatNetemTime(uint64_t ns);

/**
 * Applies a tc-netem option string to a configuration, as netem_parse_opt() reads it and
 * netem_change() applies it, over the settings given, a word group at a time: each group
 * sets every setting it covers, and settings of groups not given keep their value.
 *
 * The words (tc-netem(8)), each also accepted by any prefix (tc's matches(), the first match
 * in this order winning): limit PACKETS; delay (latency) TIME [JITTER [CORRELATION]];
 * loss (drop) [random] PERCENT [CORRELATION] | state P13 [P31 [P32 [P23 [P14]]]] |
 * gemodel PERCENT [R [1-H [1-K]]]; seed SEED; ecn; reorder PERCENT [CORRELATION];
 * corrupt PERCENT [CORRELATION]; gap DISTANCE; duplicate PERCENT [CORRELATION];
 * distribution uniform|normal|pareto|paretonormal; rate RATE [PACKETOVERHEAD [CELLSIZE
 * [CELLOVERHEAD]]]; slot MIN_DELAY [MAX_DELAY] | slot distribution NAME DELAY JITTER, either
 * followed by [packets N] [bytes N]. An optional value is taken when the next word starts
 * with a digit (a minus sign too for the overheads), as tc's NEXT_IS_NUMBER(). PERCENT and
 * CORRELATION are numbers from 0 to 100 with an optional '%' ("1%", "0.5"). Group defaults:
 * a delay without JITTER has jitter 0 and no correlation; "loss state P13" has P31 = 1 - P13,
 * P32 = 0, P23 = 1, P14 = 0; "loss gemodel P" has R = 1 - P, 1-H = 1 (h = 0), 1-K = 0; a
 * rate's missing numbers are 0; slot MIN alone has MAX = MIN, packets and bytes 0
 * (unlimited).
 *
 * Deviation from Linux (iproute2): errors are std::invalid_argument naming the word and what
 * is accepted (`tc netem: unknown word "x"; accepted: limit, delay, ...`, `tc netem: loss
 * "2x": expected a percentage from 0 to 100 ...`) instead of "What is "x"?" or
 * "Illegal "loss"" with the usage text. A rate given as a percentage of the device speed is
 * refused. Distributions are the three tables iproute2 ships (built here as its netem/
 * programs build them) and "uniform", which selects the kernel's built-in uniform jitter (tc
 * would look for a uniform.dist that iproute2 does not ship); custom and experimental tables
 * are refused. "seed 0" is refused (the Seed attribute's 0 means a seed drawn from the
 * ns-3 stream).
 *
 * @param config the settings to change
 * @param options the words, e.g. "delay 40ms 4ms 25% distribution normal loss random 1%"
 * @throws std::invalid_argument naming the offending word and what is accepted; config is
 *         then left unchanged
 */
void ParseNetemOptions(NetemConfig& config, const std::string& options);

/**
 * The rules netem_parse_opt() and netem_change() apply to the whole command, on a complete
 * configuration: reorder needs a delay (and gap 0 becomes 1, as tc sends it); gap needs a
 * reorder probability; ecn needs a loss model; a distribution needs a delay and a jitter; a
 * slot's MAX_DELAY must not be below MIN_DELAY; a slot distribution needs a jitter above 0;
 * jitter at most NETEM_MAX_JITTER_NS.
 *
 * Deviation from Linux: netem_change() caps a larger jitter at INT_MAX ns silently; it is
 * refused here.
 *
 * @param config the settings; gap is set to 1 when reordering without a gap
 * @throws std::invalid_argument naming the settings in conflict
 */
void ValidateNetemConfig(NetemConfig& config);

/**
 * Prints the settings as netem_print_opt() prints what netem_dump() reports, in its order:
 * "limit N", " delay TIME", "  JITTER" and " CORR%" when a jitter is set, " loss P%" [" C%"],
 * the loss model's " loss state p13 ..." or " loss gemodel p ...", " duplicate P%" [" C%"],
 * " reorder P%" [" C%"], " corrupt P%" [" C%"], " rate RATE" [" packetoverhead N"]
 * [" cellsize N"] [" celloverhead N"], " slot MIN MAX" or " slot distribution DELAY JITTER"
 * [" packets N"] [" bytes N"], " seed N", " ecn ", " gap N".
 *
 * Deviation from Linux (iproute2): the kernel always reports its seed, drawn at random when
 * none was given; here " seed N" is printed only when one was given.
 *
 * @param config the settings
 * @return the options part of `tc qdisc show` for netem, e.g. "limit 1000 delay 40ms  4ms 25%"
 */
std::string FormatNetemOptions(const NetemConfig& config);

/// @ingroup debloat-qdisc
/// @param distribution a table @return its tc name ("normal")
const char* NetemDistributionName(NetemDistribution distribution);

/// @ingroup debloat-qdisc
/// @param model a loss model @return its tc word ("random", "state", "gemodel")
const char* NetemLossModelName(NetemLossModel model);

} // namespace debloat
} // namespace ns3

#endif /* NETEM_CONFIG_H */
