/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the ACK filter of net/sched/sch_cake.c of Linux (cake_get_tcphdr(),
 * cake_get_iphdr(), cake_get_tcpopt(), cake_tcph_sack_compare(), cake_tcph_get_tstamp(),
 * cake_tcph_may_drop() and cake_ack_filter()).
 */

#ifndef CAKE_ACK_FILTER_H
#define CAKE_ACK_FILTER_H

#include "cake-config.h"

#include "ns3/flow-dissector.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

namespace ns3
{
namespace debloat
{

/// TCPOPT_EOL: end of the option list.
constexpr uint8_t TCP_OPTION_EOL = 0;
/// TCPOPT_NOP: padding.
constexpr uint8_t TCP_OPTION_NOP = 1;
/// TCPOPT_MSS: maximum segment size (SYN only).
constexpr uint8_t TCP_OPTION_MSS = 2;
/// TCPOPT_WINDOW: window scale (SYN only).
constexpr uint8_t TCP_OPTION_WINDOW = 3;
/// TCPOPT_SACK_PERM: SACK permitted (SYN only).
constexpr uint8_t TCP_OPTION_SACK_PERM = 4;
/// TCPOPT_SACK: selective acknowledgement blocks.
constexpr uint8_t TCP_OPTION_SACK = 5;
/// TCPOPT_TIMESTAMP: TSval and TSecr.
constexpr uint8_t TCP_OPTION_TIMESTAMP = 8;
/// TCPOPT_MD5SIG: RFC 2385 signature.
constexpr uint8_t TCP_OPTION_MD5SIG = 19;
/// TCPOLEN_TIMESTAMP: the only timestamp option size the filter accepts.
constexpr uint8_t TCP_OPTION_TIMESTAMP_SIZE = 10;

/**
 * @ingroup debloat-qdisc
 * @brief One queued packet as the ACK filter sees it: the dissected keys and the bytes of its
 * TCP options.
 */
struct CakeAckPacket
{
    FlowKeys keys; ///< from Dissect(); keys.protocol 6 and tcpHeaderLength > 0 for TCP
    std::array<uint8_t, 40> options{}; ///< the TCP options bytes
    uint8_t optionsLength{0};          ///< their length (tcpHeaderLength - 20)
};

/**
 * @ingroup debloat-qdisc
 * Fills a CakeAckPacket from a serialized L3 packet, accepting what cake_get_tcphdr() and
 * cake_get_iphdr() accept: IPv4 carrying TCP, IPv6 whose first next header is TCP, and
 * 6in4 (IPv4 protocol 41) whose inner IPv6 header's next header is TCP; for 6in4 the keys
 * are the inner IPv6 packet's, as the kernel compares the inner header.
 *
 * keys.payloadLength is then what the kernel's seglen minus the TCP header length is: the
 * IPv4 total length minus IHL * 4, or the IPv6 payload length, minus doff * 4.
 *
 * Deviation from Linux: IPv4 fragments are not TCP here (the kernel reads whatever follows
 * the IPv4 header of any fragment as a TCP header; Dissect() gives fragments no TCP fields,
 * and ACKs are not fragmented in practice). A packet whose IP length is shorter than its TCP
 * header is not TCP here (the kernel reads the header and sees a negative segment length, so
 * never drops it but may use it as a trigger; FlowKeys cannot express a negative payload).
 * An inner 6in4 header must have version 6 (the kernel does not look).
 *
 * @param l3 the packet, starting at its IP header
 * @param length bytes available at l3
 * @param[out] packet reset, then filled
 * @return true if the packet is TCP and its whole TCP header is present
 */
bool CakeAckPacketFromL3(const uint8_t* l3, size_t length, CakeAckPacket& packet);

/**
 * TCP sequence-space comparison, the kernel's after(): a is later than b modulo 2^32.
 * @param a first sequence number or timestamp
 * @param b second sequence number or timestamp
 * @return true if (int32_t)(b - a) < 0
 */
bool CakeSeqAfter(uint32_t a, uint32_t b);

/**
 * TCP sequence-space comparison, the kernel's before(): a is earlier than b modulo 2^32.
 * @param a first sequence number or timestamp
 * @param b second sequence number or timestamp
 * @return true if (int32_t)(a - b) < 0
 */
bool CakeSeqBefore(uint32_t a, uint32_t b);

/**
 * Mirrors cake_get_tcpopt(): walks the options as tcp_parse_options() does and returns the
 * first option of a kind. The walk ends at EOL, when fewer than 2 bytes remain for a
 * kind/length pair, or at a length below 2 or beyond the remaining bytes; options after
 * that point are not seen.
 * @param packet the packet
 * @param kind the option kind (TCP_OPTION_*)
 * @param[out] size the option's length byte (kind and length bytes included), if found
 * @return the option's data (after its length byte) inside packet.options, or nullptr
 */
const uint8_t* CakeTcpGetOption(const CakeAckPacket& packet, uint8_t kind, uint8_t& size);

/**
 * Mirrors cake_tcph_get_tstamp(): TSval and TSecr of the first timestamp option, if that
 * option has size 10.
 * @param packet the packet
 * @param[out] tsval TSval, left unchanged if there is no valid timestamp
 * @param[out] tsecr TSecr, left unchanged if there is no valid timestamp
 * @return true if they were set
 */
bool CakeTcpGetTimestamp(const CakeAckPacket& packet, uint32_t& tsval, uint32_t& tsecr);

/**
 * Mirrors cake_tcph_may_drop(): whether the header of a queued packet is one the filter may
 * drop, judged by flags and options only (payload and ack_seq are checked by the caller).
 *
 * The flags must be a pure ACK: of the flag word masked with 0x0F3F0000 (the three reserved
 * bits, NS/AE, URG, ACK, PSH, RST, SYN, FIN; ECE and CWR are left out), only ACK may be set.
 * Options: NOP, EOL (ends the walk) and MD5SIG are ignored; SACK must have a size of 2 + 8n;
 * a timestamp must have size 10 and neither its TSval nor its TSecr may be after the
 * trigger's; any other kind (MSS, window scale, SACK-permitted, fast open, experimental,
 * unknown) forbids dropping. A malformed length ends the walk as in CakeTcpGetOption(), and
 * what was accepted so far stands (the packet may be dropped).
 * @param packet the queued packet
 * @param tsvalNew the trigger's TSval (0 if it has no timestamp)
 * @param tsecrNew the trigger's TSecr (0 if it has no timestamp)
 * @return true if the flags and options allow dropping
 */
bool CakeTcpMayDrop(const CakeAckPacket& packet, uint32_t tsvalNew, uint32_t tsecrNew);

/**
 * Mirrors cake_tcph_sack_compare(a, b): the SACK information of a queued ACK (a) against
 * the trigger's (b). The first SACK option of each is used, as whole 8-byte blocks.
 *
 * Only a has blocks: -1. Only b has blocks: 1. Neither: 0. Both: -1 if any block of a starts
 * before a's ack_seq (a D-SACK, never dropped) or is not contained in a single block of b;
 * otherwise 1 if the sum of b's block lengths exceeds the sum of a's, else 0. The sums are
 * u32 sums of end - start, so overlapping blocks of b count twice, as in the kernel.
 * @param a the queued candidate
 * @param b the trigger
 * @return -1 if b does not cover a, 1 if b covers a and SACKs more bytes, 0 otherwise
 */
int CakeSackCompare(const CakeAckPacket& a, const CakeAckPacket& b);

/**
 * @ingroup debloat-qdisc
 * Mirrors cake_ack_filter(): which queued packet, if any, the newly enqueued trigger makes
 * redundant.
 *
 * Nothing when the flow holds fewer than 2 packets or the trigger is not TCP, lacks ACK or
 * has SYN. Otherwise the packets before the trigger are scanned from the head; only TCP
 * packets with the trigger's IP version, addresses and ports are looked at. Each such packet
 * first clears the remembered eligible ACK if its ECE/CWR bits differ from that ACK's (even
 * if the packet itself is not eligible). It is eligible when CakeTcpMayDrop() holds against
 * the trigger's timestamp, it has no payload, its ack_seq is not after the trigger's, and
 * CakeSackCompare(packet, trigger) is 1, or 0 with a smaller ack_seq. The first eligible
 * packet is remembered; the next eligible one makes the filter drop the remembered one. In
 * aggressive mode a single remembered ACK is also dropped when it sits right before the
 * trigger and has the trigger's ECE/CWR bits. At most one packet is dropped per call.
 *
 * Deviation from Linux: the kernel reads the packets' bytes in place and unlinks the dropped
 * skb; here the caller parses the packets (CakeAckPacketFromL3()) and removes the returned
 * one.
 *
 * @param mode the filter mode (NONE: always nullopt)
 * @param count packets in the flow including the trigger, which is the last (index count-1)
 * @param packetAt returns the parsed packet at an index from the head (0) or nullptr when that
 *        packet is not TCP or cannot be parsed
 * @return index (from the head) of the packet to drop, or nullopt
 */
std::optional<size_t> CakeAckFilter(CakeAckFilterMode mode,
                                    size_t count,
                                    const std::function<const CakeAckPacket*(size_t)>& packetAt);

} // namespace debloat
} // namespace ns3

#endif /* CAKE_ACK_FILTER_H */
