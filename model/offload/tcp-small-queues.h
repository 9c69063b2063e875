/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/ipv4/tcp_output.c (tcp_small_queue_check) of Linux 3.6 and later.
 */

#ifndef TCP_SMALL_QUEUES_H
#define TCP_SMALL_QUEUES_H

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-offload
 * @brief TCP small queues (TSQ) arithmetic, free of ns-3: how many bytes a socket may have
 * below it, in the queue disc and the device, before tcp_write_xmit() stops sending.
 *
 * The socket's bytes below it are sk_wmem_alloc: the truesize of every skb it sent that
 * the driver has not freed yet (tcp_wfree() releases it at the TX completion, or a drop
 * does). tcp_small_queue_check() lets an skb go while that is at most
 * max(2 x skb->truesize, sk_pacing_rate >> sk_pacing_shift), capped by
 * net.ipv4.tcp_limit_output_bytes (when sch_fq does not pace the socket), or when the
 * retransmit queue is empty or holds one skb; otherwise the socket is throttled until a
 * completion (TSQ_THROTTLED, tcp_tsq_handler()).
 */
class TcpSmallQueues
{
  public:
    /// The sysctls.
    struct Config
    {
        uint32_t pacingShift{10};           ///< sk_pacing_shift
        uint64_t limitOutputBytes{1048576}; ///< net.ipv4.tcp_limit_output_bytes (4.20 to 6.15)
    };

    /**
     * skb->truesize of a TCP skb (tcp_stream_alloc_skb() and tcp_sendmsg_locked()): the
     * headers in a linear part allocated for MAX_TCP_HEADER 320 bytes, which with the
     * skb_shared_info (320) takes kmalloc's 1024-byte bucket, so skb_end_offset is 704 and
     * SKB_TRUESIZE(704) = 704 + sk_buff 256 + skb_shared_info 320 = 1280 (x86-64); the
     * payload sits in page fragments and adds its bytes (skb->truesize += copy).
     * @param payload the TCP payload, bytes
     * @return 1280 + payload
     */
    static uint64_t Truesize(uint32_t payload);

    /**
     * The limit tcp_small_queue_check() applies.
     * @param config the sysctls
     * @param truesize the skb about to be sent
     * @param pacingRate sk_pacing_rate, bytes per second
     * @return min(max(2 x truesize, pacingRate >> pacingShift), limitOutputBytes)
     */
    static uint64_t Limit(const Config& config, uint64_t truesize, uint64_t pacingRate);

    /**
     * tcp_small_queue_check(): whether the socket stops before this skb.
     * @param wmemAlloc sk_wmem_alloc: truesize of the skbs below the socket, bytes
     * @param limit Limit()
     * @param rtxQueueEmptyOrSingle tcp_rtx_queue_empty_or_single_skb()
     * @return true if throttled
     */
    static bool Throttled(uint64_t wmemAlloc, uint64_t limit, bool rtxQueueEmptyOrSingle);
};

} // namespace debloat
} // namespace ns3

#endif /* TCP_SMALL_QUEUES_H */
