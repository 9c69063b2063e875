/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The sending half of TSO/GSO: a TCP flow's segments become the super-packets Linux's
 * tcp_write_xmit() builds (sized by tcp_tso_autosize()), and a forwarded GRO packet is one
 * packet again, before the egress queue disc sees them.
 */

#ifndef GSO_TRAFFIC_CONTROL_LAYER_H
#define GSO_TRAFFIC_CONTROL_LAYER_H

#include "tcp-small-queues.h"
#include "tcp-tso-autosize.h"

#include "ns3/debloat-compat.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/tcp-header.h"
#include "ns3/traced-callback.h"
#include "ns3/traffic-control-layer.h"

#include <array>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{
class NetDevice;
class TcpSocketBase;

namespace debloat
{

/**
 * @ingroup debloat-offload
 * @brief Stands between one IP interface and the node's TrafficControlLayer and hands its
 * queue disc the super-packets a Linux host would.
 *
 * ns-3's TCP sends one segment per call; Linux's tcp_write_xmit() sends skbs of up to
 * tcp_tso_segs() segments when the route's device can do GSO or TSO. This layer holds the
 * segments a local TCP socket sends in one burst (one simulator event: an ACK's
 * processing or an application's write), joins each run of contiguous segments with equal
 * headers into one packet of at most TcpTsoAutosize::Segments() segments with a GsoTag,
 * and passes it to the node's TrafficControlLayer at the end of the event. Its length is
 * skb->len: the IP and TCP headers once, the payloads of all segments.
 *
 * The segment count comes from the socket's own state, as the kernel's does: the layer
 * finds the socket once per flow (FindTcpSocket) and follows its CongestionWindow,
 * SlowStartThreshold, BytesInFlight and RTT traces for tcp_update_pacing_rate().
 *
 * A router's NicNetDevice passes a GRO packet it forwards up as its segments with a
 * GroSegmentTag (see there); this layer joins them into the GRO packet again, whatever the
 * egress device supports, as Linux forwards the GRO skb itself (the egress device or
 * validate_xmit_skb() segments it).
 *
 * Everything else (other protocols, segments of sockets of other nodes, pure ACKs, SYN,
 * RST, URG) passes at once, after the held segments of the device, so the order of packets
 * on the interface is kept.
 *
 * Install() puts the layer on an interface (Ipv4Interface/Ipv6Interface::SetTrafficControl);
 * it does nothing on a device that is not a NicNetDevice with Gso or Tso on, except join
 * GRO packets.
 *
 * With TcpSmallQueues on (Linux 3.6 and later), a local socket's packets are charged with
 * their truesize (TsqTag) when they go to the queue disc, and a packet that would find
 * more than TcpSmallQueues::Limit() bytes below its socket waits in the layer, standing
 * for the data tcp_write_xmit() has not sent yet, until a TX completion (the device's
 * reclaim) or a drop gives bytes back; then the held packets go in order, their TCP
 * timestamp value set to the time they really leave, as tcp_tsq_handler() would send
 * them. TSQ applies with and without offloads.
 *
 * Deviation from Linux: the kernel sizes the skb when the data is written and splits it
 * to the congestion window (tcp_mss_split_point); ns-3's TCP has already cut the burst
 * to the window, so the layer joins what one event sent. tcp_tso_should_defer() (waiting
 * for a bigger burst) is not modelled. min_rtt is the smallest smoothed RTT the socket
 * reported (ns-3 before 3.4x traces only the smoothed value), not the smallest sample.
 * packet_out is BytesInFlight / mss. Under TSQ, ns-3's TCP has already sent what the
 * layer holds: it counts in flight, and its RTT samples without a timestamp echo of 1 ms
 * or more (ns-3 stamps in ms) run from ns-3's send time, so they include the time held;
 * tcp_rtx_queue_empty_or_single_skb() is estimated from BytesInFlight less the held
 * payload; retransmissions get no doubled limit (factor 1); and ns-3's congestion control
 * keeps growing the window while the layer holds its segments (Linux's tcp_cong_avoid()
 * stops at tcp_is_cwnd_limited(), which ns-3.37 lacks), so ns-3's list of sent segments,
 * and its cost per ACK, grows up to the send buffer.
 */
class GsoTrafficControlLayer : public TrafficControlLayer
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    DEBLOAT_TCL_INSTANCE_TYPE_ID

    GsoTrafficControlLayer();
    ~GsoTrafficControlLayer() override;

    /// Counters.
    struct Stats
    {
        uint64_t superPackets{0};   ///< super-packets built from a local socket's segments
        uint64_t segmentsJoined{0}; ///< segments in them
        uint64_t groPackets{0};     ///< forwarded GRO packets joined again
        uint64_t groSegments{0};    ///< segments in them
        uint64_t passed{0};         ///< packets passed unchanged
        uint64_t pureAcks{0};       ///< TCP segments with ACK alone and no payload (ACKs sent)
        uint64_t tsqThrottled{0};   ///< packets TCP small queues held in the socket
        uint64_t tsqReleased{0};    ///< charges given back (TX completions and drops)
    };

    /**
     * Puts this layer on the device's IPv4 and IPv6 interfaces, in front of the node's
     * TrafficControlLayer, and aggregates it to the device (GetObject on the device finds
     * it). Call after the addresses are assigned (the interfaces exist), once per device.
     * @param device the device (its node has an Internet stack)
     */
    void Attach(Ptr<NetDevice> device);

    /// @return the counters
    const Stats& GetStats() const;

    /**
     * @return the tcp_tso_autosize() settings: the attributes and the device's gso_max_size
     * and gso_max_segs
     */
    TcpTsoAutosize::Config GetAutosizeConfig() const;

    void Send(Ptr<NetDevice> device, Ptr<QueueDiscItem> item) override;

    /// @return whether TCP small queues are on
    bool IsTsqEnabled() const;

    /**
     * The skb is freed (tcp_wfree()): the device reclaimed it after its TX completion, or it
     * was dropped. Gives its TsqTag's charge back to its socket, which sends what it held
     * back (tcp_tsq_handler(), in an event of its own as the TSQ tasklet runs).
     * @param packet the packet; nothing happens without a TsqTag
     */
    void ReleaseTsq(Ptr<const Packet> packet);

    /**
     * TracedCallback signature for a socket's bytes below it.
     * @param [in] flow the layer's index of the flow (in the order flows first sent)
     * @param [in] bytes sk_wmem_alloc after the change, bytes of truesize
     */
    typedef void (*TsqBytesTracedCallback)(uint32_t flow, uint64_t bytes);

    /**
     * TracedCallback signature for a super-packet handed to the queue disc.
     * @param [in] item the super-packet
     * @param [in] segments its segments
     */
    typedef void (*SuperPacketTracedCallback)(Ptr<const QueueDiscItem> item, uint32_t segments);

  protected:
    void DoDispose() override;
    /// Not the node's layer: it scans no devices and installs no queue discs.
    void DoInitialize() override;
    /// Aggregated to a device, not to a node: nothing to look up.
    void NotifyNewAggregate() override;

  private:
    /// A flow's four-tuple (IPv4 addresses in the first 4 bytes).
    struct FlowKey
    {
        std::array<uint8_t, 16> source{};      ///< source address
        std::array<uint8_t, 16> destination{}; ///< destination address
        uint16_t sourcePort{0};                ///< TCP source port
        uint16_t destinationPort{0};           ///< TCP destination port
        bool ipv6{false};                      ///< address family

        /**
         * @param other another key
         * @return whether both name the same flow
         */
        bool operator==(const FlowKey& other) const;
    };

    /// Hashes a FlowKey.
    struct FlowKeyHash
    {
        /**
         * @param key the key
         * @return its hash
         */
        std::size_t operator()(const FlowKey& key) const;
    };

    /// What the layer knows of a local socket's flow.
    struct Flow
    {
        Ptr<TcpSocketBase> socket;                ///< null: not a local socket (passed unchanged)
        uint32_t mss{0};                          ///< SegmentSize
        uint32_t cwnd{0};                         ///< congestion window, bytes
        uint32_t ssthresh{0};                     ///< slow-start threshold, bytes
        uint32_t inFlight{0};                     ///< bytes in flight
        int64_t srttUs{0};                        ///< smoothed RTT, us (0: no sample)
        int64_t minRttUs{INT64_MAX};              ///< smallest smoothed RTT, us
        uint32_t index{0};                        ///< place in m_flowsByIndex (the TsqTag's flow)
        uint64_t wmem{0};                         ///< sk_wmem_alloc: truesize below the socket
        uint32_t lastPayload{0};                  ///< payload of the last packet sent on
        std::deque<Ptr<QueueDiscItem>> throttled; ///< held by TSQ, oldest first
        std::deque<uint32_t> throttledPayloads;   ///< their payloads
        uint64_t throttledPayload{0};             ///< sum of those
        bool handlerScheduled{false};             ///< tcp_tsq_handler() is due
    };

    /**
     * The TCP header fields the layer compares, read from the segment's bytes: a TcpHeader
     * would build an object per option on every segment.
     */
    struct TcpFields
    {
        uint16_t sourcePort{0};            ///< source port
        uint16_t destinationPort{0};       ///< destination port
        uint32_t sequence{0};              ///< sequence number
        uint32_t ack{0};                   ///< acknowledgement number
        uint8_t flags{0};                  ///< the flag byte (CWR ... FIN)
        uint16_t window{0};                ///< window field as sent
        uint32_t headerLength{0};          ///< data offset x 4, options included
        std::array<uint8_t, 40> options{}; ///< option bytes, zero beyond the header

        /**
         * Reads the header at the start of a packet.
         * @param packet a TCP header and its payload
         * @return false if the packet holds no whole TCP header
         */
        bool Read(const Packet& packet);
    };

    /// Segments held to go out as one packet.
    struct Train
    {
        FlowKey key;                           ///< the flow
        std::vector<Ptr<QueueDiscItem>> items; ///< the segments, in order
        TcpFields first;                       ///< the first segment's TCP header
        uint8_t laterFlags{0};                 ///< PSH and FIN of the later segments
        uint32_t nextSeq{0};                   ///< sequence number the next one must have
        uint32_t gsoSize{0};                   ///< payload of the first (gso_size)
        uint32_t limit{0};                     ///< segments at most
        uint16_t groCount{0};                  ///< a GRO packet's segments; 0: a socket's
        Flow* flow{nullptr};                   ///< the local socket's flow, if any
        bool closed{false};                    ///< a short or final segment ended it
    };

    /**
     * Holds a segment of a local socket or of a GRO packet, if it is one.
     * @param item the packet
     * @return false if it is to pass unchanged
     */
    bool Hold(Ptr<QueueDiscItem> item);
    /**
     * The flow's state, found (and its traces followed) on its first segment.
     * @param key the flow
     * @return its state
     */
    Flow& GetFlow(const FlowKey& key);
    /**
     * tcp_update_pacing_rate() for a flow now.
     * @param config the sysctls
     * @param flow the flow
     * @return bytes per second
     */
    static uint64_t GetPacingRate(const TcpTsoAutosize::Config& config, const Flow& flow);
    /**
     * Segments per super-packet for a flow now.
     * @param flow the flow
     * @return tcp_tso_segs()
     */
    uint32_t GetTsoSegs(const Flow& flow) const;
    /**
     * Sends one held train on as one packet (or as its single segment).
     * @param train the train
     */
    void SendTrain(Train& train);
    /**
     * Hands a packet to the queue disc, through TCP small queues when it is a local
     * socket's and TSQ is on.
     * @param flow the socket's flow, or null
     * @param item the packet
     * @param payload its TCP payload, bytes
     */
    void Forward(Flow* flow, Ptr<QueueDiscItem> item, uint32_t payload);
    /**
     * tcp_small_queue_check() for a packet about to leave the socket.
     * @param flow the flow
     * @param payload the packet's payload
     * @return true if it must wait
     */
    bool IsTsqThrottled(const Flow& flow, uint32_t payload) const;
    /**
     * Charges the socket with a packet's truesize (TsqTag) and sends it on.
     * @param flow the flow
     * @param item the packet
     * @param payload its payload
     */
    void ChargeAndSend(Flow& flow, Ptr<QueueDiscItem> item, uint32_t payload);
    /**
     * tcp_tsq_handler(): sends what the socket held while TSQ allows.
     * @param index the flow's index
     */
    void TsqHandler(uint32_t index);
    /**
     * A queue disc dropped a packet: its charge goes back.
     * @param item the packet
     * @param reason why
     */
    void QueueDiscDrop(Ptr<const QueueDiscItem> item, const char* reason);
    /// Sends every held train on, oldest first (the end of the event).
    void FlushAll();
    /// Schedules FlushAll() at the end of the current event, once.
    void ScheduleFlush();

    Ptr<TrafficControlLayer> m_next;                        ///< the node's TrafficControlLayer
    Ptr<NetDevice> m_device;                                ///< the device served
    uint32_t m_pacingShift;                                 ///< sk_pacing_shift
    uint32_t m_minTsoSegs;                                  ///< tcp_min_tso_segs
    bool m_rttAllowance;                                    ///< the 5.18 min_rtt allowance
    uint32_t m_tsoRttLog;                                   ///< tcp_tso_rtt_log
    uint32_t m_pacingSsRatio;                               ///< tcp_pacing_ss_ratio
    uint32_t m_pacingCaRatio;                               ///< tcp_pacing_ca_ratio
    bool m_tsq;                                             ///< TCP small queues on
    uint64_t m_limitOutputBytes;                            ///< tcp_limit_output_bytes
    bool m_qdiscWatched{false};                             ///< drop traces connected
    uint32_t m_layerId{0};                                  ///< this layer's TsqTag number
    std::vector<Flow*> m_flowsByIndex;                      ///< flows by TsqTag index
    std::unordered_map<FlowKey, Flow, FlowKeyHash> m_flows; ///< flows seen
    std::vector<Train> m_trains;                            ///< held trains, oldest first
    EventId m_flushEvent;                                   ///< the end-of-event flush
    Stats m_stats;                                          ///< counters
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_superPacketTrace; ///< super-packets
    TracedCallback<uint32_t, uint64_t> m_tsqBytesTrace; ///< a socket's bytes below it
};

} // namespace debloat
} // namespace ns3

#endif /* GSO_TRAFFIC_CONTROL_LAYER_H */
