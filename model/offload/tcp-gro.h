/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Generic receive offload for TCP: the decisions of the kernel's dev_gro_receive()
 * (net/core/gro.c), inet_gro_receive() (net/ipv4/af_inet.c), ipv6_gro_receive() and
 * tcp_gro_receive() (net/ipv4/tcp_offload.c), as of Linux 6.12 to 6.18.
 */

#ifndef TCP_GRO_H
#define TCP_GRO_H

#include <array>
#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-offload
 * @brief One received frame as GRO sees it: the flow, the IP fields GRO compares, the TCP
 * header and the payload length.
 */
struct GroSegment
{
    /// TCP header flags (the low byte of tcp_flag_word() without the data offset).
    enum Flag : uint8_t
    {
        FIN = 0x01,
        SYN = 0x02,
        RST = 0x04,
        PSH = 0x08,
        ACK = 0x10,
        URG = 0x20,
        ECE = 0x40,
        CWR = 0x80,
    };

    // Flow (same_flow in gro_list_prepare(), inet_gro_receive(), tcp_gro_lookup())
    uint32_t hash{0};              ///< skb_get_hash_raw(): picks the bucket, must match
    bool tcp{false};               ///< a TCP segment GRO can parse; false: GRO_NORMAL
    bool ipv6{false};              ///< IPv6 (else IPv4)
    std::array<uint8_t, 16> src{}; ///< source address (IPv4: first 4 bytes)
    std::array<uint8_t, 16> dst{}; ///< destination address
    uint16_t srcPort{0};           ///< TCP source port
    uint16_t dstPort{0};           ///< TCP destination port
    uint32_t flowLabel{0};         ///< IPv6 flow label (part of the flow)
    // IP fields that must match (inet_gro_flush(), ipv6_gro_flush())
    uint8_t tos{0}; ///< IPv4 TOS / IPv6 traffic class
    uint8_t ttl{0}; ///< IPv4 TTL / IPv6 hop limit
    bool df{false}; ///< IPv4 don't fragment
    uint16_t id{0}; ///< IPv4 identification
    // TCP
    uint32_t seq{0};                   ///< sequence number
    uint32_t ack{0};                   ///< acknowledgement number
    uint16_t window{0};                ///< window field (unscaled)
    uint8_t flags{0};                  ///< Flag bits
    uint8_t optionLength{0};           ///< bytes of TCP options (doff * 4 - 20)
    std::array<uint8_t, 40> options{}; ///< the option bytes
    // Lengths
    uint32_t headerLength{0};  ///< IP and TCP header bytes
    uint32_t payloadLength{0}; ///< TCP payload bytes (skb_gro_len() at TCP)
};

/**
 * @ingroup debloat-offload
 * @brief What GRO holds or delivers: a train of merged segments.
 */
struct GroPacket
{
    uint32_t segments{0}; ///< NAPI_GRO_CB(p)->count
    uint32_t length{0};   ///< p->len: IP and TCP header once plus all payloads, bytes
    uint32_t payload{0};  ///< payload bytes of all segments
    uint32_t gsoSize{0};  ///< the first segment's payload (skb_shinfo(p)->gso_size)
    uint8_t orFlags{0};   ///< FIN and PSH of merged segments, ORed into the header
    uint32_t firstSeq{0}; ///< sequence number of the first segment
    int64_t age{0};       ///< jiffy it was held in (NAPI_GRO_CB(p)->age)
    bool fixedId{false};  ///< NAPI_GRO_CB(p)->ip_fixedid: the IPv4 ID does not advance
    GroSegment first;     ///< the held header (th2, iph2)
};

/**
 * @ingroup debloat-offload
 * @brief The GRO table of one NAPI context: GRO_HASH_BUCKETS lists of at most MAX_GRO_SKBS
 * held packets, and the merge rules of TCP over IPv4 and IPv6.
 *
 * Receive() mirrors napi_gro_receive() -> dev_gro_receive(): the segment's bucket is
 * hash & 7; a held packet of the same flow in it is found (tcp_gro_lookup()); the segment
 * merges when the flags other than FIN/PSH, the data offset, the window, the ACK, the
 * option bytes, the IP tos/ttl/DF and the IP ID (it advances by one per segment, or not at
 * all when the second segment kept the first's ID) match, the segment is not longer than
 * the held gso_size, its sequence number follows the held bytes and the merged length
 * stays below gro_max_size (skb_gro_receive(): p->len + len >= gro_max_size refuses).
 * A merged segment that is shorter than gso_size or carries PSH/FIN/URG/RST/SYN completes
 * the packet at once (out_check_final). A held packet of the same flow that the segment
 * cannot join is completed, then the segment is held as a new packet, or delivered at once
 * when it has no payload or carries URG/PSH/RST/SYN/FIN. A new packet in a full bucket
 * first completes the bucket's oldest (gro_flush_oldest()). Frames that are not TCP over
 * IP (segment.tcp false) go up as they are, without touching held packets.
 *
 * Flush() mirrors napi_gro_flush(): buckets in index order, each from its oldest packet;
 * with flushOld only packets held before the current jiffy (HZ 1000) go, as __napi_poll()
 * does when the poll used its whole budget; napi_complete_done() flushes everything
 * (gro_flush_timeout 0).
 *
 * Deviation from Linux: BIG TCP is not modelled: the limit is min(gro_max_size, 65536)
 * for IPv6 too (ns-3 has no hop-by-hop jumbo header). The MAC headers are not compared
 * (one link per device: a flow's frames share them). GRO of UDP, tunnels and fraglist GRO
 * are not modelled.
 */
class TcpGro
{
  public:
    static constexpr uint32_t MAX_GRO_SKBS = 8;                        ///< held packets per bucket
    static constexpr uint32_t GRO_HASH_BUCKETS = 8;                    ///< buckets
    static constexpr uint32_t SLOTS = MAX_GRO_SKBS * GRO_HASH_BUCKETS; ///< held at most
    static constexpr uint32_t GRO_LEGACY_MAX_SIZE = 65536;             ///< bytes
    static constexpr int64_t NS_PER_JIFFY = 1000000;                   ///< HZ 1000

    /// Hears what GRO does, in the kernel's order (each call is one step of delivery).
    class Listener
    {
      public:
        virtual ~Listener() = default;
        /**
         * The segment is held as a new packet in slot (GRO_HELD).
         * @param slot the slot, from 0 to SLOTS - 1
         */
        virtual void GroHeld(uint32_t slot) = 0;
        /**
         * The segment was merged into the packet held in slot (GRO_MERGED_FREE).
         * @param slot the slot
         */
        virtual void GroMerged(uint32_t slot) = 0;
        /**
         * The packet held in slot is complete: napi_gro_complete() passes it up; the slot is
         * free after the call.
         * @param slot the slot
         * @param packet what it holds
         */
        virtual void GroComplete(uint32_t slot, const GroPacket& packet) = 0;
        /// The segment goes up as it is (GRO_NORMAL).
        virtual void GroNormal() = 0;
    };

    /// What Receive() did with a segment (for logging and tests).
    enum Result
    {
        HELD,   ///< held as a new packet
        MERGED, ///< merged into a held packet
        NORMAL, ///< passed up as it is
    };

    /**
     * @param groMaxSize the device's gro_max_size, bytes
     */
    explicit TcpGro(uint32_t groMaxSize = GRO_LEGACY_MAX_SIZE);

    /**
     * napi_gro_receive(): merges, holds or passes up one segment.
     * @param segment the segment
     * @param nowNs the time, ns
     * @param listener hears the steps
     * @return what happened to the segment
     */
    Result Receive(const GroSegment& segment, int64_t nowNs, Listener& listener);

    /**
     * napi_gro_flush(): completes held packets.
     * @param flushOld only those held before the current jiffy
     * @param nowNs the time, ns
     * @param listener hears the completions
     */
    void Flush(bool flushOld, int64_t nowNs, Listener& listener);

    /// @return packets held
    uint32_t GetHeld() const;
    /**
     * @param a a held packet's header
     * @param b a segment
     * @return true if they are the same flow
     */
    static bool SameFlow(const GroSegment& a, const GroSegment& b);
    /**
     * @param slot a slot
     * @return the packet held there (valid while held)
     */
    const GroPacket& GetPacket(uint32_t slot) const;

  private:
    /// One bucket (struct gro_list): slots in age order, youngest first.
    struct Bucket
    {
        std::array<uint8_t, MAX_GRO_SKBS> order{}; ///< slot numbers, youngest first
        uint32_t count{0};                         ///< held packets
    };

    /**
     * The flush test of tcp_gro_receive() and inet_gro_flush()/ipv6_gro_flush().
     * @param p the held packet
     * @param s the segment
     * @return true if s cannot be merged into p
     */
    bool MustFlush(const GroPacket& p, const GroSegment& s) const;
    /**
     * Completes the packet at position pos of a bucket and removes it.
     * @param bucket the bucket
     * @param pos its position in order
     * @param listener hears it
     */
    void Complete(Bucket& bucket, uint32_t pos, Listener& listener);

    uint32_t m_limit;                                 ///< min(gro_max_size, 65536)
    std::array<Bucket, GRO_HASH_BUCKETS> m_buckets{}; ///< gro_hash
    std::array<GroPacket, SLOTS> m_slots{};           ///< held packets
    std::array<bool, SLOTS> m_used{};                 ///< slot in use
    uint32_t m_held{0};                               ///< packets held
};

} // namespace debloat
} // namespace ns3

#endif /* TCP_GRO_H */
