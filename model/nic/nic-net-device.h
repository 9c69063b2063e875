/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An Ethernet NIC and its Linux driver: TX descriptor rings with BQL, the driver's stop and
 * wake thresholds, TX completion through interrupt moderation and NAPI, and an RX ring.
 */

#ifndef NIC_NET_DEVICE_H
#define NIC_NET_DEVICE_H

#include "nic-driver.h"
#include "node-event.h"
#include "rss-hash.h"

#include "ns3/data-rate.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/queue-item.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace ns3
{

class Ipv4;

namespace debloat
{

class NicChannel;
class NicDeviceQueue;
class NicGro;
class GsoTag;
class GsoTrafficControlLayer;
class HostCpu;

/**
 * @ingroup debloat-nic
 * @brief An Ethernet NIC with descriptor rings and the TX-completion timing of its driver.
 *
 * Packets wait where they wait in a Linux host: in the queue disc, behind BQL, and in the
 * hardware ring. The data path, with the kernel function each step mirrors:
 *
 * - Send() is the driver's ndo_start_xmit (e1000_xmit_frame, igb_xmit_frame_ring): it adds
 *   an Ethernet II header, picks the TX queue (the queue the stack chose, see
 *   NicNetDevice::SelectTxQueue()), posts the packet's descriptors to that queue's ring,
 *   reports its length to BQL (netdev_tx_sent_queue) and stops the queue when fewer than
 *   TxStopThreshold descriptors are left (the drivers' maybe_stop_tx).
 * - The hardware sends frames in ring order, round robin over the TX queues, at DataRate.
 *   A frame holds the wire for max(length, MinFrameSize) + L1Overhead bytes (Ethernet: 60
 *   and 24 = preamble 8 + FCS 4 + inter-frame gap 12). Its descriptors are done when its last
 *   bit has left.
 * - Done descriptors are reclaimed only when the driver runs. Each done frame is an event
 *   for the vector's TX interrupt moderation (tx-frames, tx-usecs, a packet timer, an
 *   interrupt throttle rate); the interrupt schedules the NAPI poll after SoftirqDelay. The
 *   poll (e1000_clean_tx_irq, igb_clean_tx_irq) reclaims at most TxWorkLimit packets, reports
 *   them to BQL in one netdev_tx_completed_queue, and wakes the queue once at least
 *   TxWakeThreshold descriptors are free. A poll that used its whole budget (TxWorkLimit
 *   packets reclaimed or NapiWeight frames passed up, even with nothing left) re-polls
 *   after SoftirqDelay, as net_rx_action() repolls it in the next softirq run; otherwise it
 *   re-enables the interrupt (napi_complete_done).
 * - Received frames take a descriptor of their RX queue's ring (a frame finding it full is
 *   dropped and counted as rx_missed), raise that queue's RX interrupt through its own
 *   moderation (rx-usecs, rx-frames), and the same NAPI poll passes at most NapiWeight of
 *   them up the stack. With RxQueues above 1 the hardware's RSS picks the queue
 *   (SelectRxQueue()); RecordRxQueue records it for skb_tx_hash() on the way out.
 *
 * TX queue i, RX queue i and interrupt vector i form a NAPI context (a combined channel);
 * GRO state is per context. The stack's TX queue choice (SelectTxQueue()) is XPS
 * (XpsCpus) by the sending CPU, then the recorded RX queue, then the flow hash, as
 * netdev_pick_tx() and skb_tx_hash() make it. With CompletionAtTxStart (the "ideal" profile) a
 * frame is reclaimed the moment it starts on the wire, without an interrupt, as ns-3's
 * PointToPointNetDevice reports it.
 *
 * The decisions (descriptor accounting, stop and wake, arbitration, moderation, NAPI budgets)
 * are NicDriver's, a core free of ns-3; this class is its adapter: attributes, traces, pcap,
 * BQL and NetDeviceQueue calls, and the events that carry the core's due times.
 *
 * With Gro (ethtool -K gro on) the poll passes each frame to NicGro (napi_gro_receive())
 * and flushes it when the poll completes (napi_complete_done()) or, when the poll used its
 * budget, flushes the packets held before the current jiffy (__napi_poll()). With Gro off
 * the frames go up as they are, without being parsed.
 *
 * A GSO super-packet (a GsoTag, from the GsoTrafficControlLayer) is posted whole with Tso
 * on, as its driver counts it (NicDriver::CountTxDescriptors(), GetTxBytes()), and the wire
 * carries its frames back to back, each with its own headers; the packet is done at its
 * last frame. Without TSO the device segments it first (validate_xmit_skb()) and posts the
 * segments one by one, requeueing the rest when the driver stops the queue.
 *
 * With a HostCpu aggregated to the node (off by default) the driver's work takes CPU time:
 * each interrupt costs a hard IRQ on the vector's core, and each poll's work runs there in
 * softirq context (or in ksoftirqd) within net_rx_action()'s budgets. The poll decides its
 * work from the rings when it starts; its effects (TX packets freed, the BQL completion,
 * the queue wake, frames up the stack or to GRO, napi_complete_done() or the repoll) happen
 * when the HostCpu says the work completes. A repoll is then raised at once, as
 * net_rx_action() puts the instance back on the poll list, without a SoftirqDelay draw.
 * A forwarded frame adds the egress qdisc tree's cost to its poll, and a packet the node
 * sends itself costs its transmit path (ChargeLocalXmit()). Without a HostCpu the poll acts
 * at its start and takes no time.
 *
 * Deviation from Linux: descriptor fetch and DMA take no time;
 * requeued GSO segments wait in the device, not in the queue disc's gso_skb list; the
 * Sniffer trace sees the wire's frames, not the super-packet tcpdump would see.
 */
class NicNetDevice : public NetDevice, private NicDriver::Listener
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NicNetDevice();
    ~NicNetDevice() override;

    /// Why a packet was dropped; the names are those of the counters.
    enum DropReason
    {
        TX_RING_FULL, ///< Send() found too few free descriptors (a stopped queue was ignored)
        TX_TOO_BIG,   ///< larger than the MTU
        TX_LINK_DOWN, ///< no channel attached
        RX_MISSED,    ///< rx_missed_errors: a frame found the RX ring full
        RX_TOO_BIG,   ///< a received frame larger than the MTU
    };

    /**
     * The offload settings (`ethtool -K DEV tso|gso|gro on|off`, `ip link set DEV
     * gso_max_size|gso_max_segs|gro_max_size N`) and what the driver can do.
     */
    struct Offloads
    {
        /// How the driver implements TSO (NETIF_F_TSO in its hw_features).
        enum TsoSupport
        {
            TSO_NONE,     ///< no TSO: GSO segments in software (iwl3945-like wifi)
            TSO_HARDWARE, ///< the NIC segments: a context descriptor and the data (e1000e, igb)
            TSO_DRIVER,   ///< the driver segments into per-segment descriptors (mvneta_tx_tso)
        };

        TsoSupport tsoSupport{TSO_NONE}; ///< the driver's TSO
        bool tso{false};                 ///< ethtool -K tso
        bool gso{false};                 ///< ethtool -K gso
        bool gro{false};                 ///< ethtool -K gro
        uint32_t gsoMaxSize{65536};      ///< gso_max_size, bytes
        uint32_t gsoMaxSegs{65535};      ///< gso_max_segs
        uint32_t groMaxSize{65536};      ///< gro_max_size, bytes
    };

    /// Counters, named like `ethtool -S` and `ip -s link` show them.
    struct Stats
    {
        uint64_t txPackets{0};     ///< frames that left the wire
        uint64_t txBytes{0};       ///< their bytes (Ethernet header included, no FCS)
        uint64_t txDropped{0};     ///< dropped by Send()
        uint64_t rxPackets{0};     ///< frames passed up the stack
        uint64_t rxBytes{0};       ///< their bytes
        uint64_t rxMissed{0};      ///< rx_missed_errors
        uint64_t rxDropped{0};     ///< other RX drops
        uint64_t interrupts{0};    ///< interrupts asserted, all vectors
        uint64_t polls{0};         ///< NAPI polls run, all vectors
        uint64_t txCompletions{0}; ///< polls that reclaimed TX packets
        uint64_t groPackets{0};    ///< GRO packets of two or more segments passed up
        uint64_t groSegments{0};   ///< segments in those packets
        uint64_t tsoPackets{0};    ///< super-packets posted for TSO (hardware or driver)
        uint64_t tsoSegments{0};   ///< the frames they became on the wire
        uint64_t gsoPackets{0};    ///< super-packets segmented in software
        uint64_t gsoSegments{0};   ///< the segments they became
    };

    /**
     * Attaches the device to a link.
     * @param channel the link
     */
    void Attach(Ptr<NicChannel> channel);

    /**
     * Called by the channel when the last bit of a frame arrives.
     * @param frame the frame
     */
    void Receive(Ptr<Packet> frame);

    /// @return the counters
    const Stats& GetStats() const;

    /// @return the offload settings
    Offloads GetOffloads() const;

    /**
     * @param queue TX queue index
     * @return the TX ring of that queue
     */
    const NicDriver::Ring& GetTxRing(std::size_t queue) const;
    /**
     * @param queue RX queue index
     * @return the RX ring of that queue
     */
    const NicDriver::Ring& GetRxRing(std::size_t queue = 0) const;
    /// @return the number of TX queues
    std::size_t GetNTxQueues() const;
    /// @return the number of RX queues
    std::size_t GetNRxQueues() const;

    /**
     * The RX queue the hardware's RSS puts a received frame on: the Toeplitz hash (RssKey) of
     * its IPv4 or IPv6 addresses, and of its ports for TCP (UDP with RssUdpPorts, no
     * fragment), through the default indirection table (ethtool_rxfh_indir_default()); 0
     * for other frames or with one RX queue.
     * @param frame the frame, its Ethernet header first
     * @return the RX queue index
     */
    uint32_t SelectRxQueue(Ptr<const Packet> frame);

    /**
     * Descriptors a packet of this length takes on the TX ring.
     * @param length skb->len: the frame without FCS
     * @return ceil(length / TxMaxDataPerDescriptor), plus one if TxContextDescriptor
     */
    uint32_t GetTxDescriptors(uint32_t length) const;

    /**
     * Time a frame holds the wire.
     * @param length the frame without FCS
     * @return (max(length, MinFrameSize) + L1Overhead) * 8 / DataRate, plus PerFrameOverhead
     */
    Time GetWireTime(uint32_t length) const;

    /**
     * The TX queue Linux's netdev_pick_tx() picks: XPS's queue for the sending CPU
     * (XpsCpus, TransmitCpu()), else skb_tx_hash()'s: the recorded RX queue of a forwarded
     * packet (RecordRxQueue), else the flow hash scaled to the queue count, (hash * n) >> 32
     * (reciprocal_scale). NicHelper installs it as the NetDeviceQueueInterface's
     * select-queue callback.
     * @param item the packet
     * @return the TX queue index
     */
    std::size_t SelectTxQueue(Ptr<QueueItem> item);

    /**
     * The key this device hashes flows with (the kernel's random hashrnd), drawn from a
     * random stream when the rings are made.
     * @return the key passed to QueueDiscItem::Hash()
     */
    uint32_t GetFlowHashKey();

    /**
     * Assigns a fixed random variable stream number to the random variables used by this
     * device (the soft-IRQ delay and the flow-hash key).
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for ring occupancy.
     * @param [in] queue TX queue index
     * @param [in] descriptors descriptors in use
     * @param [in] bytes bytes in the ring
     */
    typedef void (*RingTracedCallback)(uint32_t queue, uint32_t descriptors, uint64_t bytes);

    /**
     * TracedCallback signature for a NAPI poll.
     * @param [in] vector the interrupt vector (TX queue index)
     * @param [in] txPackets TX packets reclaimed
     * @param [in] txBytes their bytes
     * @param [in] rxPackets RX packets passed up
     */
    typedef void (*PollTracedCallback)(uint32_t vector,
                                       uint32_t txPackets,
                                       uint64_t txBytes,
                                       uint32_t rxPackets);

    /**
     * TracedCallback signature for an interrupt.
     * @param [in] vector the interrupt vector
     * @param [in] txEvents TX completions it carries
     * @param [in] rxEvents RX frames it carries
     */
    typedef void (*InterruptTracedCallback)(uint32_t vector, uint32_t txEvents, uint32_t rxEvents);

    /**
     * TracedCallback signature for a packet GRO passes up (napi_gro_complete()).
     * @param [in] segments the segments merged (1: a frame held alone)
     * @param [in] length IP and TCP headers once plus all payloads, bytes
     */
    typedef void (*GroTracedCallback)(uint32_t segments, uint32_t length);

    /**
     * TracedCallback signature for a drop with its reason.
     * @param [in] packet the packet
     * @param [in] reason why
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, DropReason reason);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /**
     * Checks the configuration; stops with a message naming the attribute and the accepted
     * values if it is invalid. The device runs it when it makes its rings; NicHelper runs it
     * as soon as the device exists, before other objects are sized from its attributes.
     */
    void CheckConfig() const;

  protected:
    void DoInitialize() override;
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    friend class NicGro; // the GRO layer delivers, counts and traces through the device

    /// A TX ring slot: the packet and the frames it becomes.
    struct TxSlot
    {
        Ptr<Packet> packet; ///< the skb, Ethernet header included
        uint32_t segs{1};   ///< frames on the wire (more than 1: TSO)
    };

    /// A software-GSO segment waiting for its stopped queue (dev_requeue_skb()).
    struct PendingSegment
    {
        Ptr<Packet> packet;   ///< the segment, IP header first
        Mac48Address source;  ///< source MAC
        Mac48Address dest;    ///< destination MAC
        uint16_t protocol{0}; ///< EtherType
    };

    /// The events of one interrupt vector.
    struct VectorEvents
    {
        static constexpr int64_t NONE = -1; ///< irqAt without a pending interrupt

        NodeEvent irqEvent;      ///< the pending interrupt
        int64_t irqAt{NONE};     ///< its time, ns; NONE when none is pending
        NodeEvent pollEvent;     ///< the scheduled poll
        bool pollPending{false}; ///< pollEvent is scheduled and has not run
        bool onCpu{false};       ///< a poll's work is running on the HostCpu
    };

    /// What a poll running on the HostCpu does when its work completes, in the driver's order.
    struct PollEffect
    {
        /// The listener call it stands for.
        enum Kind : uint8_t
        {
            RECLAIMED, ///< TxReclaimed(): the freed TX packet
            COMPLETED, ///< TxCompleted(): the BQL completion
            WAKE,      ///< TxWake()
            DELIVER,   ///< RxDeliver(): the received frame
        };

        Kind kind;                        ///< which call
        uint32_t queue;                   ///< TX queue; RX queue for DELIVER
        Ptr<Packet> packet;               ///< RECLAIMED, DELIVER
        NicDriver::Ring::Cleaned cleaned; ///< COMPLETED
    };

    /// A vector's poll on the HostCpu: the driver's result and its deferred effects.
    struct CpuPoll
    {
        NicDriver::PollResult result;    ///< what the poll did
        std::vector<PollEffect> effects; ///< to apply when its work completes
        std::vector<uint32_t> netTx;     ///< TX queues woken, for net_tx_action()
        bool netTxRaised{false};         ///< net_tx_action() is placed on the HostCpu
    };

    /// @return the core's settings from the attributes (DynamicItr mode left at none)
    NicDriver::Config GetDriverConfig() const;
    /**
     * Makes the TX/RX rings and vectors, once.
     */
    void CreateRings();
    /**
     * Drops a packet with its reason.
     * @param packet the packet
     * @param reason why
     */
    void Drop(Ptr<const Packet> packet, DropReason reason);
    /**
     * The shared transmit path of Send() and SendFrom().
     * @param packet the payload
     * @param source source MAC
     * @param dest destination MAC
     * @param protocolNumber EtherType
     * @return true if the packet was posted to a ring
     */
    bool Transmit(Ptr<Packet> packet,
                  Mac48Address source,
                  Mac48Address dest,
                  uint16_t protocolNumber);
    /**
     * A TSO super-packet as the driver sees it: its frames, their headers and gso_size.
     * @param packet the super-packet, IP header first
     * @param protocolNumber its EtherType
     * @param gso its GsoTag
     * @param [in,out] tx the driver's view; length set, the rest filled in
     * @return false if it cannot be sent (not TCP over IP, or a frame above the MTU)
     */
    bool GetTsoFrame(Ptr<const Packet> packet,
                     uint16_t protocolNumber,
                     const GsoTag& gso,
                     NicDriver::TxPacket& tx) const;
    /**
     * Hands software-GSO segments to the driver one by one, requeueing the rest once the
     * queue stops (dev_hard_start_xmit()).
     * @param queue the TX queue
     * @param segments the segments, IP header first
     * @param source source MAC
     * @param dest destination MAC
     * @param protocolNumber EtherType
     */
    void TransmitSegments(uint32_t queue,
                          const std::vector<Ptr<Packet>>& segments,
                          Mac48Address source,
                          Mac48Address dest,
                          uint16_t protocolNumber);
    /**
     * Posts requeued segments while the queue runs.
     * @param queue the TX queue
     * @return true if none is left
     */
    bool DrainRequeued(uint32_t queue);
    /**
     * @param queue the TX queue
     * @return whether it is stopped, by the driver or by BQL
     */
    bool IsTxQueueStopped(uint32_t queue) const;
    /**
     * ndo_start_xmit: adds the Ethernet header, posts the descriptors, tells BQL and stops
     * the queue if a worst-case packet would not fit.
     * @param queue the TX queue
     * @param packet the packet, IP header first
     * @param source source MAC
     * @param dest destination MAC
     * @param protocolNumber EtherType
     * @param tx the driver's view of it
     * @return true if posted
     */
    bool PostFrame(uint32_t queue,
                   Ptr<Packet> packet,
                   Mac48Address source,
                   Mac48Address dest,
                   uint16_t protocolNumber,
                   const NicDriver::TxPacket& tx);
    /// Starts the next packet on the wire if the wire is idle and a ring has one.
    void StartNextFrame();
    /**
     * Puts one frame on the wire.
     * @param queue the TX queue it comes from
     * @param frame the frame
     */
    void SendWireFrame(uint32_t queue, Ptr<const Packet> frame);
    /**
     * A frame's last bit left: the next frame of a TSO train follows, or the packet's
     * descriptors are done.
     * @param queue the TX queue it came from
     * @param frame the frame
     */
    void FrameSent(uint32_t queue, Ptr<const Packet> frame);
    /**
     * Passes a received frame up the stack (and to the promiscuous callback).
     * @param frame the frame, Ethernet header included
     */
    void DeliverUp(Ptr<Packet> frame);
    /**
     * Passes a frame up that stands for several received frames (a GRO packet).
     * @param frame the frame, Ethernet header included
     * @param frames the received frames it stands for (rx_packets)
     * @param bytes their bytes (rx_bytes)
     */
    void DeliverUp(Ptr<Packet> frame, uint32_t frames, uint64_t bytes);
    // NicDriver::Listener: the core's cleans, wakes and deliveries
    /**
     * Releases a reclaimed TX packet.
     * @param queue the TX queue
     * @param slot its slot
     */
    void TxReclaimed(uint32_t queue, uint32_t slot) override;
    /**
     * A clean reclaimed packets: counts them and reports their bytes to BQL.
     * @param queue the TX queue
     * @param cleaned what was reclaimed
     */
    void TxCompleted(uint32_t queue, const NicDriver::Ring::Cleaned& cleaned) override;
    /**
     * The core woke a queue: wakes its NetDeviceQueue.
     * @param queue the TX queue
     */
    void TxWake(uint32_t queue) override;
    /**
     * Passes a frame the poll took from an RX ring up the stack.
     * @param queue the RX queue
     * @param slot its slot
     */
    void RxDeliver(uint32_t queue, uint32_t slot) override;
    /**
     * Schedules a NAPI poll after a SoftirqDelay draw.
     * @param vector the vector
     */
    void SchedulePoll(uint32_t vector);
    /**
     * (Re)schedules a vector's interrupt at the earliest due cause.
     * @param vector the vector
     */
    void ScheduleInterrupt(uint32_t vector);
    /**
     * The interrupt fires: mask it and schedule NAPI.
     * @param vector the vector
     */
    void Interrupt(uint32_t vector);
    /**
     * The NAPI poll of a vector.
     * @param vector the vector
     */
    void Poll(uint32_t vector);
    /**
     * The NAPI poll of a vector on the HostCpu: the driver decides now, the effects wait for
     * the work's completion (PollOnCpuDone()).
     * @param vector the vector
     */
    void PollOnCpu(uint32_t vector);
    /**
     * A poll's work completed on the HostCpu: applies its effects, then completes or
     * repolls as Poll() does.
     * @param vector the vector
     */
    void PollOnCpuDone(uint32_t vector);

    /// The frames of a poll that the node forwards, and their qdisc costs.
    struct Forwarding
    {
        uint32_t frames{0}; ///< frames forwarded
        Time qdiscWork;     ///< the sum of their egress qdisc trees' costs
    };

    /**
     * Counts the frames of a poll on the HostCpu that the node forwards: IPv4 frames to this
     * device's address, received on an interface with forwarding on (ip_forward sysctl) and
     * not addressed to the node (ip_route_input() finds no local route); each costs its
     * egress device's qdisc tree (HostCpu::GetQdiscCost()), the egress found by a route
     * lookup of its destination.
     * @param poll the poll, its DELIVER effects recorded
     * @return what its effects will forward
     */
    Forwarding CountForwarded(const CpuPoll& poll);
    /**
     * With a HostCpu, charges a packet the node made itself (its IPv4 source is the node's)
     * its transmit path: HostCpu::GetXmitCost() of this device's qdisc tree, as task work on
     * a core chosen by the flow's hash.
     * @param packet the packet, its IP header first
     * @param protocolNumber its EtherType
     */
    void ChargeLocalXmit(Ptr<const Packet> packet, uint16_t protocolNumber);
    /**
     * With a HostCpu, a TX queue woke (its NicDeviceQueue's net_tx hook):
     * netif_tx_wake_queue() or netdev_tx_completed_queue() -> __netif_schedule(), which lists
     * the queue for net_tx_action() on the core of the vector that cleans it, placed at once
     * or, inside that vector's poll, when the poll's effects are applied (PlaceNetTx()).
     * The queue is awake at once (ns-3 clears the stop, as the kernel clears XOFF), so a
     * local sender may run the queue disc before net_tx_action() does.
     * @param queue the TX queue
     */
    void RaiseNetTx(uint32_t queue);
    /**
     * Places net_tx_action() on the HostCpu for the queues a vector listed, unless placed.
     * @param vector the vector
     */
    void PlaceNetTx(uint32_t vector);
    /**
     * net_tx_action() on the HostCpu completed: the listed queues' qdiscs run.
     * @param vector the vector whose queues were listed
     */
    void NetTxAction(uint32_t vector);
    /**
     * Counts a packet the driver took against the quota of the qdisc run in progress in
     * net_tx_action(), if any; the last one holds the TX queues stopped until the run ends.
     */
    void SpendNetTxQuota();
    /**
     * @param exhausted whether the TX queues are held stopped for the qdisc run in progress
     * (NicDeviceQueue::SetQuotaExhausted())
     */
    void SetQuotaExhausted(bool exhausted);
    /** @return whether the node has IPv4 (m_ipv4, found once) */
    bool Ipv4Stack();

    /// The last source address asked about and whether it is the node's.
    struct SourceMemo
    {
        Ipv4Address address; ///< the address
        bool known{false};   ///< an answer is kept
        bool local{false};   ///< it is one of the node's
    };

    /// The last destination a received frame had, and what forwarding it costs.
    struct ForwardMemo
    {
        Ipv4Address destination; ///< the address
        int32_t iif{-1};         ///< the interface the frame came in on
        bool known{false};       ///< an answer is kept
        bool forwarded{false};   ///< not for the node (Ipv4::IsDestinationAddress() false)
        Time qdiscCost;          ///< its egress qdisc tree's cost, when forwarded
    };

    /**
     * @param source an IPv4 source address
     * @return whether it is one of the node's (Ipv4::GetInterfaceForAddress()), remembered
     * for the last address asked: a host's frames share their source
     */
    bool IsLocalSource(Ipv4Address source);
    /**
     * Whether a received frame is forwarded and what its egress qdisc tree costs (the route
     * lookup's device; 0 without a route), remembered for the last destination asked: a
     * router forwards runs of frames to one destination.
     * @param destination the frame's IPv4 destination
     * @param iif the interface it came in on
     * @return the memo, filled for destination and iif
     */
    const ForwardMemo& ForwardLookup(Ipv4Address destination, int32_t iif);
    /**
     * Passes a frame the poll took from an RX ring to its NAPI instance's GRO or up the stack.
     * @param queue the RX queue
     * @param frame the frame
     */
    void DeliverRxFrame(uint32_t queue, Ptr<Packet> frame);
    /**
     * Flushes the GRO packets of a vector's NAPI instance, if it has an RX queue and GRO.
     * @param vector the vector
     * @param repoll the poll used its budget (napi_poll()'s flush of old packets only), or
     * it completed (napi_complete_done())
     */
    void FlushGro(uint32_t vector, bool repoll);
    /// Makes the RSS key (RssKey, checked even with one RX queue, or drawn when there are
    /// several) and the default indirection table.
    void ConfigureRss();
    /**
     * @param item a packet on its way out
     * @return whether the node forwards it: not IPv4, or its source is not the node's
     */
    bool IsForwarded(Ptr<const QueueDiscItem> item);

    /// Reads XpsCpus into the per-CPU queue lists; stops on a bad mask.
    void ConfigureXps();
    /**
     * The CPU a packet is sent on (smp_processor_id() in netdev_pick_tx()): the CPU of the
     * NAPI poll running now, else the sending process's (ProcessCore(); 0 without a HostCpu).
     * @param item the packet
     * @return the CPU
     */
    uint32_t TransmitCpu(Ptr<const QueueDiscItem> item);
    /**
     * The core the model runs a flow's sending process on: FNV-1a of the IPv4 protocol,
     * addresses and ports, scaled to the HostCpu's cores.
     * @param head the packet's first 24 bytes as an IPv4 header without options and the
     * transport's ports
     * @return the core
     */
    uint32_t ProcessCore(const uint8_t* head) const;

    /// Some device records RX queues: devices strip the record from packets they send.
    static bool s_rxQueueRecording;
    /**
     * Releases a reclaimed TX packet (TSQ's tcp_wfree()).
     * @param packet the packet
     */
    void ReleaseTxPacket(Ptr<Packet> packet);
    /// Fires the ring occupancy trace of a queue. @param queue the TX queue
    void TraceRing(uint32_t queue);
    /**
     * Converts a Time to the nanoseconds the moderation core uses.
     * @param t the time
     * @return nanoseconds
     */
    static int64_t Ns(Time t);

    // Configuration (attributes)
    DataRate m_dataRate;               ///< line rate (ethtool speed)
    uint16_t m_mtu;                    ///< MTU, bytes
    uint32_t m_minFrameSize;           ///< frames shorter than this are padded on the wire
    uint32_t m_l1Overhead;             ///< preamble, FCS and inter-frame gap, bytes
    bool m_atmCells{false};            ///< AtmCells: the line carries ATM cells
    Time m_perFrameOverhead;           ///< extra wire time per frame (wifi airtime)
    uint32_t m_nTxQueues;              ///< hardware TX queues
    uint32_t m_txRingSize;             ///< TX descriptors per queue (ethtool tx)
    uint32_t m_rxRingSize;             ///< RX descriptors per queue (ethtool rx)
    uint32_t m_nRxQueues;              ///< hardware RX queues (RSS)
    std::string m_rssKeyText;          ///< RssKey
    std::string m_rssIndirectionText;  ///< RssIndirection
    bool m_rssUdpPorts;                ///< RSS hashes UDP ports
    bool m_recordRxQueue;              ///< skb_record_rx_queue() on received frames
    std::string m_xpsCpusText;         ///< XpsCpus
    uint32_t m_txMaxDataPerDesc;       ///< data bytes per TX descriptor
    bool m_txContextDescriptor;        ///< one context descriptor per packet
    uint32_t m_txStopThreshold;        ///< stop when fewer descriptors are free
    uint32_t m_txWakeThreshold;        ///< wake when at least this many are free
    bool m_txWakeAtHalfStop;           ///< wake at half the stop point (mvneta) instead
    uint32_t m_txRingGap;              ///< descriptors never filled
    uint32_t m_txWorkLimit;            ///< TX packets reclaimed per poll
    uint32_t m_napiWeight;             ///< RX packets per poll
    Time m_txUsecs;                    ///< ethtool tx-usecs (absolute delay)
    uint32_t m_txFrames;               ///< ethtool tx-frames
    Time m_txPacketDelay;              ///< packet timer (e1000e TIDV)
    Time m_rxUsecs;                    ///< ethtool rx-usecs
    uint32_t m_rxFrames;               ///< ethtool rx-frames
    Time m_rxPacketDelay;              ///< packet timer (e1000e RDTR)
    uint32_t m_interruptRate;          ///< maximum interrupts per second per vector, 0 = none
    uint32_t m_slowLinkInterruptRate;  ///< the same below 1 Gbit/s, 0 = as m_interruptRate
    std::string m_dynamicItr;          ///< adaptive ITR algorithm name
    bool m_completionAtTxStart;        ///< reclaim at transmission start ("ideal")
    bool m_rxAtArrival;                ///< frames go up as they arrive ("ideal")
    bool m_needsArp;                   ///< NeedsArp(): neighbour resolution
    Offloads::TsoSupport m_tsoSupport; ///< how the driver does TSO
    bool m_tso;                        ///< ethtool -K tso
    bool m_gso;                        ///< ethtool -K gso
    bool m_gro;                        ///< ethtool -K gro
    bool m_tsoBqlPerFrame;             ///< BQL counts every TSO frame's headers
    uint32_t m_gsoMaxSize;             ///< gso_max_size
    uint32_t m_gsoMaxSegs;             ///< gso_max_segs
    uint32_t m_groMaxSize;             ///< gro_max_size
    Ptr<RandomVariableStream> m_softirqDelay; ///< interrupt to NAPI poll
    Ptr<UniformRandomVariable> m_hashKey;     ///< draws the flow-hash key

    // State
    Ptr<Node> m_node;                                ///< owning node
    Ptr<NicChannel> m_channel;                       ///< the link
    Mac48Address m_address;                          ///< MAC address
    uint32_t m_ifIndex{0};                           ///< interface index
    Ptr<NetDeviceQueueInterface> m_queueInterface;   ///< flow control, if aggregated
    NicDriver m_driver;                              ///< the driver's decisions
    std::vector<Ptr<NetDeviceQueue>> m_deviceQueues; ///< per TX queue: BQL, stop and wake
    /// The same queues as NicDeviceQueues (null for another type), cast once: the driver
    /// scope flags them on every send and completion.
    std::vector<NicDeviceQueue*> m_nicQueues;
    std::vector<std::vector<TxSlot>> m_txSlots;          ///< per TX queue: packets by ring slot
    std::vector<std::deque<PendingSegment>> m_requeued;  ///< per TX queue: requeued segments
    std::vector<Ptr<Packet>> m_wireTrain;                ///< a TSO train's frames still to go
    std::vector<std::vector<Ptr<Packet>>> m_rxSlots;     ///< per RX queue: frames by ring slot
    std::vector<VectorEvents> m_vectors;                 ///< one per TX and RX queue pair
    Ptr<HostCpu> m_hostCpu;                              ///< the node's CPU, if aggregated
    std::vector<CpuPoll> m_cpuPolls;                     ///< per vector, with a HostCpu
    CpuPoll* m_deferTo{nullptr};                         ///< the poll recording effects
    std::optional<uint32_t> m_pollDoneVector;            ///< applying this vector's effects
    std::optional<uint32_t> m_netTxQuota;                ///< quota left in net_tx_action()'s run
    Ptr<Ipv4> m_ipv4;                                    ///< the node's IPv4, with a HostCpu
    int32_t m_ipv4Interface{-1};                         ///< this device's IPv4 interface
    SourceMemo m_sourceMemo;                             ///< IsLocalSource()'s last answer
    ForwardMemo m_forwardMemo;                           ///< ForwardLookup()'s last answer
    std::optional<Time> m_xmitCost;                      ///< a local packet's, found once
    uint32_t m_hashSalt{0};                              ///< flow-hash key (the kernel's hashrnd)
    uint32_t m_driverDepth{0};                           ///< nesting of NicDriverScope
    Stats m_stats;                                       ///< counters
    std::vector<std::unique_ptr<NicGro>> m_nicGro;       ///< per RX queue, when Gro is on
    RssHash m_rss;                                       ///< RSS key and indirection table
    std::vector<std::vector<uint16_t>> m_xpsQueues;      ///< per CPU: its XPS TX queues
    Ptr<GsoTrafficControlLayer> m_tsqLayer;              ///< frees go back to TSQ, if on
    NetDevice::ReceiveCallback m_rxCallback;             ///< up the stack
    NetDevice::PromiscReceiveCallback m_promiscCallback; ///< promiscuous tap
    TracedCallback<> m_linkChangeCallbacks;              ///< link change callbacks

    // Traces
    TracedCallback<Ptr<const Packet>> m_macTxTrace;                ///< packet accepted by Send()
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;            ///< packet dropped by Send()
    TracedCallback<Ptr<const Packet>> m_macRxTrace;                ///< packet passed up
    TracedCallback<Ptr<const Packet>> m_macPromiscRxTrace;         ///< packet passed to promisc
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;           ///< frame starts on the wire
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;             ///< frame's last bit left
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;             ///< frame's last bit arrived
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;            ///< frame dropped on receipt
    TracedCallback<Ptr<const Packet>> m_snifferTrace;              ///< pcap
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace;       ///< promiscuous pcap
    TracedCallback<Ptr<const Packet>, DropReason> m_dropTrace;     ///< every drop, with reason
    TracedCallback<uint32_t, uint32_t, uint64_t> m_txRingTrace;    ///< TX ring occupancy
    TracedCallback<uint32_t, uint32_t, uint32_t> m_interruptTrace; ///< interrupts
    TracedCallback<uint32_t, uint32_t, uint64_t, uint32_t> m_pollTrace; ///< NAPI polls
    TracedCallback<uint32_t, uint32_t> m_groReceiveTrace;               ///< GRO packets passed up
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_NET_DEVICE_H */
