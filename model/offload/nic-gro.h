/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GRO in a NicNetDevice's NAPI poll: frames in, TcpGro's decisions, merged packets up.
 */

#ifndef NIC_GRO_H
#define NIC_GRO_H

#include "tcp-gro.h"

#include "ns3/ptr.h"

#include <array>
#include <vector>

namespace ns3
{

class Ipv4;
class Ipv6;
class Packet;
class TcpSocketBase;

namespace debloat
{

class NicNetDevice;

/**
 * @ingroup debloat-offload
 * @brief The GRO layer of a NicNetDevice with `ethtool -K gro on`: napi_gro_receive() for
 * each frame the NAPI poll takes, napi_gro_flush() when the poll ends, and
 * napi_gro_complete() building the merged packet.
 *
 * Receive() reads the frame's Ethernet, IP and TCP headers from its bytes (the flow dissector
 * and the fields tcp_gro_receive() compares), hashes the flow with the device's key (the
 * skb hash that picks the GRO bucket) and lets TcpGro decide. Frames GRO does not take go up
 * at once, in the order Linux passes them (gro_normal_one() keeps one list). A completed
 * packet of one segment goes up as the frame it was. A packet of n >= 2 segments:
 *
 * - for this node (Ipv4::IsDestinationAddress() on the receiving interface, or an IPv6
 *   address of the node): one packet with the first segment's IP and TCP headers (IPv4
 *   total length / IPv6 payload length of the merged packet, FIN and PSH ORed in), the
 *   payloads in order, and a GsoTag(gso_size, n), as inet_gro_complete() and
 *   tcp_gro_complete() leave the skb;
 * - forwarded (a router): the n frames one after another, each with GroSegmentTag(i, n);
 *   the egress GSO layer joins them again. Deviation from Linux: the kernel forwards the
 *   skb whole; ns-3's IPv4 would fragment a packet longer than the egress MTU.
 *
 * The receiver's ACK rate: Linux's __tcp_ack_snd_check() ACKs at once when more than one
 * full-sized segment (rcv_mss) arrived since the last ACK, so a GRO packet of two or more
 * segments is ACKed at once. ns-3's TcpSocketBase ACKs every DelAckCount-th ReceivedData()
 * call (default 2), which would ACK every second GRO packet. For a merged packet of n >= 2
 * segments delivered locally, the receiving socket (FindTcpSocket(), cached per held slot
 * and flow) gets DelAckCount 1 around the synchronous delivery (device, IP, TCP) and its
 * value back after. Deviation from Linux: the rule counts packets, not bytes: a lone
 * packet of one segment waits for the delayed-ACK timer or the next packet as ns-3 does,
 * where Linux would compare the bytes received since the last ACK with rcv_mss; quick-ACK
 * mode and the receive-window rule of __tcp_ack_snd_check() are not modelled here.
 *
 * Deviation from Linux: IPv4 with options, IPv4 fragments and IPv6 with extension headers
 * are passed up without GRO and without flushing their flow (the kernel flushes the flow's
 * held packet for a fragment).
 */
class NicGro : private TcpGro::Listener
{
  public:
    /**
     * @param device the device (owns this object, outlives it)
     * @param groMaxSize gro_max_size, bytes
     */
    NicGro(NicNetDevice& device, uint32_t groMaxSize);
    ~NicGro() override;

    /**
     * napi_gro_receive(): one frame taken from the RX ring.
     * @param frame the frame, Ethernet header included
     * @param nowNs the time, ns
     */
    void Receive(Ptr<Packet> frame, int64_t nowNs);

    /**
     * napi_gro_flush().
     * @param flushOld only packets held before the current jiffy (the poll used its budget)
     * @param nowNs the time, ns
     */
    void Flush(bool flushOld, int64_t nowNs);

    /// @return packets held
    uint32_t GetHeld() const;

  private:
    void GroHeld(uint32_t slot) override;
    void GroMerged(uint32_t slot) override;
    void GroComplete(uint32_t slot, const GroPacket& packet) override;
    void GroNormal() override;

    /**
     * Fills a GroSegment from a frame's bytes.
     * @param frame the frame
     * @param[out] segment the fields (segment.tcp false when GRO does not take it)
     */
    void Parse(Ptr<const Packet> frame, GroSegment& segment) const;
    /**
     * @param first the first segment's fields
     * @return true if the packet is for this node
     */
    bool IsLocal(const GroSegment& first);
    /**
     * The merged packet of a held train (inet_gro_complete(), tcp_gro_complete()).
     * @param frames the train
     * @param packet what TcpGro held
     * @return the frame to pass up, Ethernet header included
     */
    static Ptr<Packet> Build(const std::vector<Ptr<Packet>>& frames, const GroPacket& packet);
    /**
     * The receiving TCP socket of a slot's flow, looked up once per flow.
     * @param slot the slot
     * @param first the flow's first segment
     * @return the socket, or null
     */
    Ptr<TcpSocketBase> SocketFor(uint32_t slot, const GroSegment& first);

    /// A slot's socket, kept for the next packet of the same flow there.
    struct CachedSocket
    {
        GroSegment flow;           ///< the flow's header fields
        Ptr<TcpSocketBase> socket; ///< its socket (null: none yet)
    };

    NicNetDevice& m_device;                                       ///< the device
    TcpGro m_gro;                                                 ///< the decisions
    Ptr<Packet> m_frame;                                          ///< the frame being received
    std::array<std::vector<Ptr<Packet>>, TcpGro::SLOTS> m_frames; ///< held trains by slot
    std::array<CachedSocket, TcpGro::SLOTS> m_sockets;            ///< sockets by slot
    Ptr<Ipv4> m_ipv4;                                             ///< the node's IPv4, if any
    Ptr<Ipv6> m_ipv6;                                             ///< the node's IPv6, if any
    int32_t m_ipv4Interface{-1};                                  ///< this device's interface
    bool m_stackKnown{false};                                     ///< m_ipv4/m_ipv6 looked up
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_GRO_H */
