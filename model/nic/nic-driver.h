/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The Linux driver state machine of a NIC, free of ns-3: descriptor posting with the
 * drivers' stop and wake thresholds, the hardware's ring arbitration, TX completion through
 * interrupt moderation and NAPI with its work limit and weight, and an RX ring.
 */

#ifndef NIC_DRIVER_H
#define NIC_DRIVER_H

#include "descriptor-ring.h"
#include "dynamic-itr.h"
#include "interrupt-moderation.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief The decisions of a NIC driver (e1000e, igb and the like) and of its hardware,
 * free of ns-3.
 *
 * The core owns the descriptor rings, the per-queue stop flag, the round-robin arbitration
 * of the hardware over its TX queues, and per interrupt vector the TX and RX interrupt
 * moderation and the adaptive throttle. Times are integers (ns). It decides; the caller
 * (NicNetDevice) keeps the packets, turns due times into events and the decisions into BQL
 * calls, queue stops and wakes and traces.
 *
 * The rings hold slots, not packets: PostTx() and PostRx() return the slot the caller keeps
 * its packet in, StartFrame() names the slot that goes on the wire, and the Listener hears
 * each slot a clean releases, oldest first.
 *
 * TX queue i, RX queue i and interrupt vector i form a NAPI context, as igb and ixgbe pair
 * them in one q_vector per combined channel (ethtool -L combined N); with fewer RX than TX
 * queues the vectors past the last RX queue serve TX only, and the other way round.
 * The settings are read once, by Configure() (NicNetDevice calls it when it makes its rings).
 * With one TX queue there is one vector for both rings, igb's num_q_vectors == 1, so igb's
 * adaptive throttle is igb_set_itr() there and igb_update_ring_itr() with more queues, as
 * igb_ring_irq_enable() chooses.
 *
 * Deviation from Linux: the drivers also check for room before a post
 * (e1000_maybe_stop_tx(count + 2), igb_maybe_stop_tx(count + 3)) and return NETDEV_TX_BUSY;
 * here a post that does not fit fails and the caller drops the packet (only a sender that
 * ignores the stopped queue gets there). maybe_stop_tx's re-check after the memory barrier is
 * not needed: transmit and completion never run at the same time in one simulation. A
 * packet's data counts as one buffer: the skb's page fragments, each split by the data limit
 * on its own, are not modelled (a 64 KB TSO skb in 32 KB fragments takes a descriptor or two
 * more in e1000e and igb). Linux's igb has a single q_vector only without MSI-X (MSI or
 * legacy interrupts); with MSI-X a one-queue igb (ethtool -L combined 1) pairs no queues
 * (igb_set_flag_queue_pairs(): 1 is not above half the RSS queues) and gets a TX and an RX
 * vector, each throttled by igb_update_ring_itr(); the model's vector serves both rings, as
 * the single-vector configuration does.
 */
class NicDriver
{
  public:
    /// A descriptor ring of slot numbers.
    using Ring = DescriptorRing;

    /**
     * The largest TX or RX ring: drivers cap ethtool -G at their hardware's limit (e1000e and
     * igb 4096, forcedeth 16384); the model accepts up to 65536 so that deliberately
     * bloated rings can be studied, and no more, so a mistyped size cannot exhaust memory.
     */
    static constexpr uint32_t MAX_RING_SIZE = 65536;

    /// How the driver takes a TSO super-packet (NETIF_F_TSO in its features).
    enum class Tso
    {
        NONE,     ///< no TSO: the stack segments in software (validate_xmit_skb())
        HARDWARE, ///< a context descriptor and the data; the NIC cuts the frames (e1000e, igb)
        DRIVER,   ///< per frame a header descriptor and its data descriptors (mvneta_tx_tso)
    };

    /// The driver's and the hardware's settings (the profile plus ethtool).
    struct Config
    {
        uint32_t txQueues{1};                   ///< hardware TX queues, one vector each
        uint32_t rxQueues{1};                   ///< hardware RX queues (RSS), one vector each
        uint32_t txRingSize{256};               ///< TX descriptors per queue (ethtool -G tx)
        uint32_t rxRingSize{256};               ///< RX descriptors per queue (ethtool -G rx)
        uint32_t txMaxDataPerDescriptor{32768}; ///< data bytes one TX descriptor carries
        bool txContextDescriptor{false};        ///< one context descriptor per packet
        uint32_t txStopThreshold{1};            ///< stop when fewer descriptors are free
        uint32_t txWakeThreshold{1};            ///< wake when at least this many are free
        uint32_t txRingGap{0};     ///< descriptors never filled (e1000e, igb: 1; see GetTxUnused)
        uint32_t txWorkLimit{256}; ///< TX packets one poll reclaims at most
        uint32_t napiWeight{64};   ///< RX packets one poll passes up at most
        InterruptModeration::Config txIrq; ///< TX moderation (minInterval from the rate)
        InterruptModeration::Config rxIrq; ///< RX moderation (minInterval from the rate)
        uint32_t interruptRate{0};         ///< ints/s per vector at this link speed, 0: none
        DynamicItr::Mode itrMode{DynamicItr::Mode::NONE}; ///< adaptive throttle
        uint64_t linkBps{1000000000};                     ///< the link's speed, bit/s
        bool completionAtTxStart{false};                  ///< reclaim when a frame starts ("ideal")
        Tso tso{Tso::NONE};                               ///< TSO, when ethtool -K tso is on
        bool tsoBytesPerFrame{false}; ///< BQL counts every frame's headers (igb's bytecount)
    };

    /// A packet handed to the driver (the skb as ndo_start_xmit sees it).
    struct TxPacket
    {
        uint32_t length{0};       ///< skb->len: the headers once and the payload, no FCS
        uint32_t segs{1};         ///< gso_segs: the frames it becomes (1: an ordinary frame)
        uint32_t headerLength{0}; ///< hdr_len: each frame's Ethernet, IP and TCP headers
        uint32_t gsoSize{0};      ///< gso_size: payload bytes per frame, the last the rest
    };

    /// Frame the hardware starts to send.
    struct Frame
    {
        bool started{false}; ///< false: the wire stays idle (no ring has a posted frame)
        uint32_t queue{0};   ///< the TX queue it comes from
        uint32_t slot{0};    ///< its slot
    };

    /// What an interrupt carries.
    struct IrqEvents
    {
        uint32_t tx{0}; ///< TX completions
        uint32_t rx{0}; ///< RX frames
    };

    /// What one NAPI poll did.
    struct PollResult
    {
        Ring::Cleaned tx;     ///< TX reclaimed
        uint32_t rx{0};       ///< RX frames passed up
        bool workLeft{false}; ///< budget used up: poll again instead of completing
    };

    /// Hears what a clean or a poll does, in the driver's order.
    class Listener
    {
      public:
        virtual ~Listener() = default;
        /**
         * A reclaimed TX packet (the driver frees the skb), oldest first.
         * @param queue the TX queue
         * @param slot its slot
         */
        virtual void TxReclaimed(uint32_t queue, uint32_t slot) = 0;
        /**
         * A clean reclaimed packets: netdev_tx_completed_queue() with their bytes, once.
         * @param queue the TX queue
         * @param cleaned what the clean reclaimed (packets > 0)
         */
        virtual void TxCompleted(uint32_t queue, const Ring::Cleaned& cleaned) = 0;
        /**
         * The driver wakes its stopped queue (netif_wake_subqueue()).
         * @param queue the TX queue
         */
        virtual void TxWake(uint32_t queue) = 0;
        /**
         * A received frame is passed up (napi_gro_receive()), oldest first.
         * @param queue the RX queue
         * @param slot its slot
         */
        virtual void RxDeliver(uint32_t queue, uint32_t slot) = 0;
    };

    /// No queues, an RX ring of one descriptor: Configure() makes the real ones.
    NicDriver();

    /**
     * Makes the rings and vectors, replacing any earlier state. The settings are assumed
     * valid (NicNetDevice checks them and names the attribute).
     * @param config the settings
     */
    void Configure(const Config& config);

    /// @return the settings
    const Config& GetConfig() const;

    /**
     * Checks the ring settings: 1 to 64 TX queues and RX queues, a data limit of at least 1 byte, a
     * stop threshold that leaves room for a worst-case packet, a wake threshold between the stop
     * threshold and the ring size, a ring that holds a worst-case packet above the stop
     * threshold, rings of at most MAX_RING_SIZE, and non-zero RX ring, work limit and weight.
     * @param config the settings
     * @param maxLength the longest frame (MTU + Ethernet header)
     * @param gsoMaxSize with TSO on: the largest super-packet (gso_max_size plus the Ethernet
     * header); 0: no TSO
     * @param gsoMaxSegs with TSO on: gso_max_segs
     * @return "" if valid, else a message naming the setting (as NicNetDevice's attribute)
     * and the accepted values
     */
    static std::string Validate(const Config& config,
                                uint32_t maxLength,
                                uint32_t gsoMaxSize = 0,
                                uint32_t gsoMaxSegs = 1);

    /// @return TX queues made by Configure(), 0 before
    uint32_t GetNTxQueues() const;

    /// @return RX queues made by Configure(), 0 before
    uint32_t GetNRxQueues() const;

    /// @return interrupt vectors made by Configure(): the larger of the TX and RX queues
    uint32_t GetNVectors() const;

    /**
     * @param queue TX queue index, below GetNTxQueues()
     * @return its ring
     */
    const Ring& GetTxRing(uint32_t queue) const;

    /**
     * Free TX descriptors as the driver counts them: e1000_desc_unused() and
     * igb_desc_unused() give size - used - 1, so the tail never catches up with the head
     * (the hardware would read a full ring as empty); txRingGap is that 1, 0 for drivers
     * that fill every slot. The stop and wake thresholds compare against this count.
     * @param queue the TX queue
     * @return the ring's unused descriptors less the gap
     */
    uint32_t GetTxUnused(uint32_t queue) const;

    /**
     * @param queue RX queue index, below GetNRxQueues()
     * @return its ring
     */
    const Ring& GetRxRing(uint32_t queue = 0) const;

    /**
     * @param queue TX queue index
     * @return whether the driver stopped it
     */
    bool IsStopped(uint32_t queue) const;

    /**
     * Descriptors a packet takes on the TX ring: its data split by the per-descriptor data
     * limit (e1000e TXD_USE_COUNT(len, max_txd_pwr), igb one per IGB_MAX_DATA_PER_TXD) and
     * a context descriptor if the profile uses one.
     * @param length skb->len: the frame without FCS
     * @param maxData data bytes per descriptor, at least 1
     * @param context whether a context descriptor is added
     * @return max(1, ceil(length / maxData)) + (context ? 1 : 0)
     */
    static uint32_t CountTxDescriptors(uint32_t length, uint32_t maxData, bool context);

    /**
     * The wake threshold of a driver that wakes its queue when the used descriptors fall to
     * half the count at which it stops, as mvneta_txq_sw_init() sets tx_wake_threshold =
     * tx_stop_threshold / 2 (both in used descriptors, tx_stop_threshold = size -
     * MVNETA_MAX_SKB_DESCS), recomputed for the ring size (ethtool -G).
     * @param size the ring's descriptors
     * @param gap descriptors never filled (TxRingGap)
     * @param stopThreshold the queue stops when fewer are free (TxStopThreshold, at least 1)
     * @return the free descriptors at which it wakes: U - floor((U - (stopThreshold - 1)) / 2)
     *         with U = size - gap usable
     */
    static uint32_t HalfStopWakeThreshold(uint32_t size, uint32_t gap, uint32_t stopThreshold);

    /**
     * Descriptors a packet takes on the TX ring, a TSO super-packet as the configured driver
     * counts it: in hardware TSO (e1000_tso/igb_tso) a context descriptor and the data split
     * by the data limit, as any packet; in driver TSO (mvneta_tx_tso) per frame a header
     * descriptor and its payload split by the data limit.
     * @param config the driver's settings
     * @param packet the packet (segs > 1 only with config.tso other than NONE)
     * @return CountTxDescriptors(length, ...) for an ordinary frame or hardware TSO;
     *         sum over frames of 1 + max(1, ceil(payload / maxData)) for driver TSO
     */
    static uint32_t CountTxDescriptors(const Config& config, const TxPacket& packet);

    /**
     * The bytes a packet adds to BQL and the ring (netdev_tx_sent_queue()): skb->len, or for
     * a TSO super-packet with tsoBytesPerFrame the bytes of all its frames (igb_tso:
     * bytecount = skb->len + (gso_segs - 1) * hdr_len).
     * @param config the driver's settings
     * @param packet the packet
     * @return bytes
     */
    static uint32_t GetTxBytes(const Config& config, const TxPacket& packet);

    /**
     * The worst-case packet's descriptors: a full frame, or with TSO the largest
     * super-packet the stack may build (gso_max_size bytes, gso_max_segs frames).
     * @param config the driver's settings
     * @param maxLength the longest frame (MTU + Ethernet header)
     * @param gsoMaxSize the largest super-packet: gso_max_size plus the Ethernet header,
     * bytes (0: no TSO)
     * @param gsoMaxSegs gso_max_segs
     * @return descriptors
     */
    static uint32_t WorstCaseDescriptors(const Config& config,
                                         uint32_t maxLength,
                                         uint32_t gsoMaxSize,
                                         uint32_t gsoMaxSegs);

    /**
     * Time a frame holds the wire: padded to the minimum frame, plus preamble, FCS and
     * inter-frame gap, at the line rate.
     * @param length the frame without FCS
     * @param minFrame frames shorter than this are padded (ETH_ZLEN 60)
     * @param l1Overhead bytes beyond the frame (8 + 4 + 12 = 24 for Ethernet)
     * @param bitRate line rate, bit/s, positive
     * @param atmCells the line carries ATM cells (ADSL): the frame and its overhead fill
     *        ceil((max(length, minFrame) + l1Overhead) / 48) cells of 53 bytes, as the
     *        kernel's cake_calc_overhead() and tc-stab's linklayer atm count them
     * @return (max(length, minFrame) + l1Overhead) * 8 / bitRate in ns (with atmCells, the
     *         cells' 53 bytes each), rounded to nearest
     */
    static int64_t GetWireTime(uint32_t length,
                               uint32_t minFrame,
                               uint32_t l1Overhead,
                               uint64_t bitRate,
                               bool atmCells = false);

    /**
     * Posts a packet's descriptors (the descriptor part of ndo_start_xmit).
     * @param queue TX queue index
     * @param length skb->len
     * @param [out] slot the slot to keep the packet in, if posted
     * @return false, and no change, if the descriptors are not free
     */
    bool PostTx(uint32_t queue, uint32_t length, uint32_t& slot);

    /**
     * Posts a packet, a TSO super-packet included: CountTxDescriptors() descriptors and
     * GetTxBytes() bytes.
     * @param queue TX queue index
     * @param packet the packet
     * @param [out] slot the slot to keep the packet in, if posted
     * @return false, and no change, if the descriptors are not free
     */
    bool PostTx(uint32_t queue, const TxPacket& packet, uint32_t& slot);

    /**
     * After a post: stops the queue if a worst-case packet would not fit any more
     * (e1000_maybe_stop_tx, igb_maybe_stop_tx: fewer free descriptors than the threshold).
     * @param queue TX queue index
     * @return true if the queue was stopped now (netif_stop_subqueue())
     */
    bool MaybeStop(uint32_t queue);

    /// @return whether a frame is on the wire
    bool IsWireBusy() const;

    /**
     * The hardware starts the next frame if the wire is idle: round robin over the TX
     * queues, the oldest posted packet of the first queue that has one.
     * @return the frame, or started false
     */
    Frame StartFrame();

    /// The last bit of the frame on the wire has left: the wire is idle.
    void WireIdle();

    /**
     * The frame's descriptors are written back: the oldest fetched packet of the queue is
     * done and raises the vector's TX cause (unless completion happens at TX start).
     * @param queue TX queue index
     * @param now the time, ns
     * @return true if an interrupt cause was raised (reschedule the interrupt)
     */
    bool TxDone(uint32_t queue, int64_t now);

    /**
     * CompletionAtTxStart: the frame just started is done and cleaned at once, without a
     * work limit.
     * @param queue TX queue index
     * @param listener hears the clean
     * @return what was reclaimed
     */
    Ring::Cleaned CompleteAtTxStart(uint32_t queue, Listener& listener);

    /**
     * Reclaims done TX packets (e1000_clean_tx_irq, igb_clean_tx_irq): at most limit of
     * them, oldest first; if any, one BQL completion with their bytes, then the wake test
     * (e1000e: unused >= TX_WAKE_THRESHOLD 32; igb: unused >= TX_WAKE_THRESHOLD = 2 *
     * DESC_NEEDED).
     * @param queue TX queue index
     * @param limit the work limit, packets
     * @param listener hears each reclaimed slot, the completion and the wake
     * @return what was reclaimed
     */
    Ring::Cleaned CleanTx(uint32_t queue, uint32_t limit, Listener& listener);

    /**
     * A frame arrives on the RX queue RSS chose: it takes a descriptor of that queue's ring,
     * is in host memory at once (fetched and done), and raises the queue's vector's RX cause.
     * @param queue the RX queue, below GetNRxQueues()
     * @param length the frame's length
     * @param now the time, ns
     * @param [out] slot the slot to keep the frame in, if posted
     * @return false if the ring is full (rx_missed_errors)
     */
    bool PostRx(uint32_t queue, uint32_t length, int64_t now, uint32_t& slot);

    /**
     * The earliest due time of a vector's interrupt causes.
     * @param vector the vector
     * @return ns, or InterruptModeration::NEVER
     */
    int64_t GetInterruptDue(uint32_t vector) const;

    /**
     * The interrupt fires (e1000_intr_msi, igb_msix_ring): both causes are asserted and
     * masked until the poll completes, the adaptive throttle counts it and the hardware
     * applies its current interval.
     * @param vector the vector
     * @param now the time, ns
     * @return the events it carries
     */
    IrqEvents Interrupt(uint32_t vector, int64_t now);

    /**
     * The NAPI poll of a vector (e1000e_poll, igb_poll): CleanTx() of its TX queue with
     * TxWorkLimit, then at most NapiWeight frames of its RX queue passed up. Work is left, so the
     * poll returns its whole budget and does not call napi_complete_done(), when the clean
     * reclaimed TxWorkLimit packets (igb_clean_tx_irq() returns !!budget) or NapiWeight frames went
     * up (igb_poll: cleaned >= budget; e1000e_poll: work_done == budget), whether or not more are
     * done: the next poll may find nothing, and only then completes.
     *
     * Deviation from Linux: igb's TX rule serves every profile. e1000e's clean stops at the
     * ring size in descriptors and mvneta, forcedeth and ag71xx do not let the TX clean keep
     * the poll scheduled; their profiles' TxWorkLimit is at least the ring size, which a
     * clean cannot reach, except forcedeth's TX_WORK_PER_LOOP 64 (current forcedeth cleans
     * up to the ring size in its poll).
     * @param vector the vector
     * @param listener hears the cleans and deliveries
     * @return what the poll did
     */
    PollResult Poll(uint32_t vector, Listener& listener);

    /**
     * napi_complete_done(): the adaptive throttle chooses the next interval and both causes
     * are re-enabled.
     * @param vector the vector
     * @param now the time, ns
     */
    void CompletePoll(uint32_t vector, int64_t now);

  private:
    /// One hardware TX queue and its driver state.
    struct TxQueue
    {
        /// @param descriptors ring size
        explicit TxQueue(uint32_t descriptors)
            : ring(descriptors)
        {
        }

        Ring ring;            ///< the descriptor ring
        uint32_t nextSlot{0}; ///< the slot the next post uses
        bool stopped{false};  ///< stopped by the driver (__QUEUE_STATE_DRV_XOFF)
    };

    /// One hardware RX queue.
    struct RxQueue
    {
        /// @param descriptors ring size
        explicit RxQueue(uint32_t descriptors)
            : ring(descriptors)
        {
        }

        Ring ring;            ///< the descriptor ring
        uint32_t nextSlot{0}; ///< the slot the next received frame uses
    };

    /// One interrupt vector.
    struct Vector
    {
        InterruptModeration txIrq;                           ///< TX-done cause
        InterruptModeration rxIrq;                           ///< RX cause
        DynamicItr itr{DynamicItr::Mode::NONE, true, false}; ///< adaptive throttle, if any
    };

    /**
     * Posts to a ring and hands out the next slot.
     * @param ring the ring
     * @param nextSlot its slot cursor
     * @param descriptors descriptors the packet takes
     * @param length its length
     * @param [out] slot the slot used
     * @return false if it did not fit
     */
    static bool Post(Ring& ring,
                     uint32_t& nextSlot,
                     uint32_t descriptors,
                     uint32_t length,
                     uint32_t& slot);

    /**
     * Gives both causes of a vector the interval its adaptive throttle applies now.
     * @param vector the vector
     */
    void ApplyItr(uint32_t vector);

    Config m_config;                 ///< the settings
    std::vector<TxQueue> m_txQueues; ///< hardware TX queues
    std::vector<RxQueue> m_rxQueues; ///< hardware RX queues
    std::vector<Vector> m_vectors;   ///< one per queue pair
    bool m_wireBusy{false};          ///< a frame is on the wire
    uint32_t m_nextTxQueue{0};       ///< round-robin position of the hardware
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_DRIVER_H */
