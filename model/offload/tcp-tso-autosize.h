/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/ipv4/tcp_input.c (tcp_update_pacing_rate) and net/ipv4/tcp_output.c
 * (tcp_tso_autosize, tcp_tso_segs) of Linux.
 */

#ifndef TCP_TSO_AUTOSIZE_H
#define TCP_TSO_AUTOSIZE_H

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-offload
 * @brief How big a TCP sender builds its GSO/TSO super-packets, free of ns-3.
 *
 * Linux sizes a flow's super-packets so that one leaves about every millisecond at the
 * flow's pacing rate (tcp_tso_autosize()); since 5.18 close peers get bigger ones through
 * an allowance that halves for every 2^tcp_tso_rtt_log us of min_rtt. The pacing rate is
 * computed even when nothing paces (tcp_update_pacing_rate()).
 */
class TcpTsoAutosize
{
  public:
    /// The sysctls and the route's device limits.
    struct Config
    {
        uint32_t pacingShift{10};           ///< sk_pacing_shift: bytes = rate >> shift (~1 ms)
        uint32_t minTsoSegs{2};             ///< net.ipv4.tcp_min_tso_segs
        bool rttAllowance{true};            ///< the min_rtt allowance (Linux 5.18 and later)
        uint32_t tsoRttLog{9};              ///< net.ipv4.tcp_tso_rtt_log
        uint32_t gsoMaxSize{65536};         ///< sk_gso_max_size (the device's gso_max_size)
        uint32_t gsoMaxSegs{65535};         ///< sk_gso_max_segs (the device's gso_max_segs)
        uint32_t pacingSsRatio{200};        ///< net.ipv4.tcp_pacing_ss_ratio, per cent
        uint32_t pacingCaRatio{120};        ///< net.ipv4.tcp_pacing_ca_ratio, per cent
        uint64_t maxPacingRate{UINT64_MAX}; ///< sk_max_pacing_rate, bytes/s
    };

    /**
     * tcp_update_pacing_rate(): mss * max(cwnd, packets_out) / srtt, times
     * tcp_pacing_ss_ratio while cwnd < ssthresh / 2 and tcp_pacing_ca_ratio after,
     * capped at sk_max_pacing_rate. Before the first RTT sample (srtt 0) the kernel skips
     * the division; the rate then is sk_pacing_rate's initial ~0UL, returned here as the
     * cap.
     * @param config the sysctls
     * @param mss bytes per segment (mss_cache)
     * @param cwnd congestion window, segments
     * @param packetsOut segments in flight
     * @param ssthresh slow-start threshold, segments
     * @param srttUs smoothed RTT, microseconds (0: no sample yet)
     * @return the pacing rate, bytes per second
     */
    static uint64_t PacingRate(const Config& config,
                               uint32_t mss,
                               uint32_t cwnd,
                               uint32_t packetsOut,
                               uint32_t ssthresh,
                               uint64_t srttUs);

    /**
     * tcp_tso_segs() over tcp_tso_autosize(): bytes = pacing rate >> sk_pacing_shift, plus
     * gso_max_size >> (min_rtt_us >> tcp_tso_rtt_log) when that shift is below 32 (the
     * 5.18 allowance), at most gso_max_size; segments = max(bytes / mss, tcp_min_tso_segs),
     * at most gso_max_segs.
     * @param config the sysctls and device limits
     * @param pacingRate bytes per second
     * @param mss bytes per segment, at least 1
     * @param minRttUs the flow's min_rtt, microseconds
     * @return segments per super-packet, at least 1
     */
    static uint32_t Segments(const Config& config,
                             uint64_t pacingRate,
                             uint32_t mss,
                             uint64_t minRttUs);
};

} // namespace debloat
} // namespace ns3

#endif /* TCP_TSO_AUTOSIZE_H */
