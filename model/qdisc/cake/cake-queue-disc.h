/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CAKE_QUEUE_DISC_H
#define CAKE_QUEUE_DISC_H

#include "cake-ack-filter.h"
#include "cake-config.h"
#include "cake-scheduler.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc-item-list.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/shaper-watchdog.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief CAKE (Common Applications Kept Enhanced), as net/sched/sch_cake.c of Linux 6.x
 * runs it: a deficit-mode shaper with link-layer compensation, diffserv tins, 1024 flow
 * queues per tin with 8-way set-associative hashing and host fairness (DRR++), COBALT per
 * flow, an ACK filter and a memory limit with overflow from the fattest flow.
 *
 * The algorithm lives in CakeScheduler (plain C++); this class is its ns-3 side:
 * classification of QueueDiscItems (flow keys, DSCP, PacketMarkTag as skb->mark), wash,
 * GSO splitting, the watchdog that restarts the queue disc when the shaper allows, ns-3's
 * packet accounting, drop reasons and `tc -s qdisc` output.
 *
 * Configure it with the attributes, or with one tc-cake(8) string in "Options", e.g.
 * "bandwidth 50Mbit diffserv4 dual-srchost nat ack-filter overhead 38 mpu 84". The attributes
 * are the one source of truth: setting Options parses its words at once over the current
 * attributes and sets the attributes they name (a later SetAttribute() wins over an earlier
 * Options), and getting Options returns the effective options as tc prints them
 * (FormatCakeOptions() of the attributes).
 *
 * Traces per flow queue (fed by CakeScheduler's CakeObserver): FlowDrop, FlowMark and
 * CobaltDropState.
 *
 * Lengths: the kernel's qdisc_pkt_len() includes the 14-byte Ethernet header, which ns-3
 * items do not carry; it is added (network offset 14), so `overhead 38` or `ethernet`
 * turns a 1500-byte IP packet into the 1538 bytes it occupies on the wire.
 *
 * Overhead works as tc's `overhead N`: tc sends TCA_CAKE_OVERHEAD, the kernel sets
 * CAKE_FLAG_OVERHEAD and cake_calc_overhead() first removes the MAC header, so Overhead 18
 * accounts a 1514-byte frame as 1514 - 14 + 18 = 1518 bytes. MacHeader (default auto) says
 * whether that flag is set: auto sets it when Overhead is not 0; strip always (tc's
 * `overhead 0`: the IP length alone); keep never (tc's `raw overhead 24`: 1514 + 24 = 1538).
 *
 * Deviations from Linux:
 * - tc sets CAKE_FLAG_OVERHEAD whenever an overhead word is given, even `overhead 0`; an
 *   attribute cannot tell a value given from its default, so with MacHeader auto the flag
 *   follows Overhead != 0 (Options "overhead 0" sets MacHeader strip, which says it).
 * - `nat` is accepted and stored; ns-3 has no conntrack, so it changes nothing (in Linux it
 *   changes nothing either when the host does no NAT).
 * - skb->priority (major number = the qdisc's handle) does not select tins: ns-3 queue
 *   discs have no handle. fwmark reads a PacketMarkTag.
 * - skb->truesize is modelled as a linear skb on x86-64 would have it:
 *   SKB_DATA_ALIGN(NET_SKB_PAD + len) + SKB_DATA_ALIGN(sizeof(skb_shared_info)) +
 *   SKB_DATA_ALIGN(sizeof(sk_buff)) = align64(64 + len) + 320 + 256 (2176 for 1514 bytes);
 *   see GetTruesize(). Real truesize depends on the driver's buffers.
 * - split-gso: GSO super-packets (a GsoTag) are cut with GsoSegment() and the segments
 *   enqueued one after the other (the kernel adds them together and checks the memory
 *   limit once); the super-packet is counted as a drop with reason GSO_SPLIT in ns-3's
 *   statistics, because ns-3 requires every received packet to be enqueued or dropped.
 * - IPv6 flows are hashed by ports, not flow label (see QueueDiscItemFlowKeys()).
 * - Random numbers (DRR dithering, BLUE) come from a Prandom seeded from this queue
 *   disc's ns-3 stream, instead of the kernel's get_random_u32()/get_random_u16() (the low
 *   16 bits of a draw stand for get_random_u16()): cake_get_flow_quantum()'s dithering
 *   draws once per new flow and once per deficit refill, dozens of times per packet when
 *   many flows share a host. Same stream, same dithers.
 */
class CakeQueueDisc : public QueueDisc
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    CakeQueueDisc();
    ~CakeQueueDisc() override;

    /// Tin presets for the Diffserv attribute (values of CakeDiffservMode; an unscoped enum
    /// because ns-3's EnumValue holds an int before 3.41).
    enum Diffserv
    {
        DIFFSERV3 = 0,  ///< diffserv3
        DIFFSERV4 = 1,  ///< diffserv4
        DIFFSERV8 = 2,  ///< diffserv8
        BESTEFFORT = 3, ///< besteffort
        PRECEDENCE = 4, ///< precedence
    };

    /// Isolation modes for the FlowMode attribute (values of CakeFlowMode).
    enum FlowMode
    {
        FLOWBLIND = 0,      ///< flowblind
        SRCHOST = 1,        ///< srchost
        DSTHOST = 2,        ///< dsthost
        HOSTS = 3,          ///< hosts
        FLOWS = 4,          ///< flows
        DUAL_SRCHOST = 5,   ///< dual-srchost
        DUAL_DSTHOST = 6,   ///< dual-dsthost
        TRIPLE_ISOLATE = 7, ///< triple-isolate
    };

    /// ACK filter modes for the AckFilter attribute (values of CakeAckFilterMode).
    enum AckFilter
    {
        NO_ACK_FILTER = 0,         ///< no-ack-filter
        ACK_FILTER = 1,            ///< ack-filter
        ACK_FILTER_AGGRESSIVE = 2, ///< ack-filter-aggressive
    };

    /**
     * Values of the MacHeader attribute: whether cake_calc_overhead() removes the MAC header
     * (skb_network_offset, 14 bytes) before adding Overhead, i.e. CAKE_FLAG_OVERHEAD.
     */
    enum MacHeader
    {
        MAC_HEADER_AUTO = 0,  ///< auto: as tc sets the flag, removed when Overhead is not 0
        MAC_HEADER_STRIP = 1, ///< strip: always removed (tc's `overhead 0`)
        MAC_HEADER_KEEP = 2,  ///< keep: never removed (tc's `raw`, e.g. `raw overhead 24`)
    };

    /// Cell framing for the Atm attribute (values of CakeAtmMode).
    enum Atm
    {
        NOATM = 0, ///< noatm
        ATM = 1,   ///< atm
        PTM = 2,   ///< ptm
    };

    /**
     * Prints what `tc -s qdisc show dev X` prints for cake: the options line, the generic
     * counters, the global statistics and the per-tin table (cake_print_xstats()).
     * @param os where to print
     * @param parent where it hangs: "root", or an mq child's "parent 1:3"
     */
    void PrintStats(std::ostream& os, const std::string& parent = "root");

    /**
     * Prints `tc -s class show dev X` for cake: one class per non-idle flow queue with its
     * backlog, drops, deficit and COBALT state (cake_dump_class_stats()).
     * @param os where to print
     */
    void PrintClassStats(std::ostream& os) const;

    /**
     * Assigns a fixed random variable stream number (hash keys, COBALT's BLUE, DRR dither).
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Checks a tc-cake option string.
     * @param options the options
     * @throws std::invalid_argument naming the offending word or value
     */
    static void ValidateOptions(const std::string& options);

    /// @return the configuration the queue disc was initialized with (from the attributes)
    const CakeConfig& GetConfig() const;

    /**
     * TracedCallback signature of FlowDrop.
     * @param item the dropped packet
     * @param tin its tin
     * @param queue its flow queue, 0..1023
     * @param reason the drop reason (COBALT_DROP, BLUE_DROP, OVERLIMIT_DROP, ACK_FILTER_DROP)
     */
    typedef void (*FlowDropTracedCallback)(Ptr<const QueueDiscItem> item,
                                           uint32_t tin,
                                           uint32_t queue,
                                           const char* reason);
    /**
     * TracedCallback signature of FlowMark.
     * @param item the CE-marked packet
     * @param tin its tin
     * @param queue its flow queue, 0..1023
     */
    typedef void (*FlowMarkTracedCallback)(Ptr<const QueueDiscItem> item,
                                           uint32_t tin,
                                           uint32_t queue);
    /**
     * TracedCallback signature of CobaltDropState.
     * @param tin the tin
     * @param queue the flow queue, 0..1023
     * @param dropping true: entered the dropping state; false: left it
     * @param count COBALT's count after the change
     */
    typedef void (*DropStateTracedCallback)(uint32_t tin,
                                            uint32_t queue,
                                            bool dropping,
                                            uint32_t count);

    /// What the scheduler queues: the item's handle in the internal list.
    using Item = QueueDiscItemList::Handle;

    /// @return the scheduler (tins, flows, counters), once the queue disc is initialized
    const CakeScheduler& GetScheduler() const;

    /**
     * The truesize charged for a packet against the memory limit (see the class notes).
     * @param len qdisc length (IP packet plus 14)
     * @return bytes
     */
    static uint32_t GetTruesize(uint32_t len);

    // Reasons for dropping packets.
    static constexpr const char* COBALT_DROP = "COBALT drop (CoDel)";         ///< AQM
    static constexpr const char* BLUE_DROP = "COBALT drop (BLUE)";            ///< flood
    static constexpr const char* OVERLIMIT_DROP = "Overlimit (fattest flow)"; ///< memlimit
    static constexpr const char* ACK_FILTER_DROP = "ACK filter";              ///< ACK filter
    static constexpr const char* COBALT_MARK = "COBALT mark";                 ///< ECN CE
    /// Not a loss: a GSO super-packet replaced by its segments (split-gso). ns-3's QueueDisc
    /// counts every packet it receives as enqueued or dropped, so the super-packet appears
    /// among the drops with this reason; GetTcDroppedPackets() leaves it out, as tc does.
    static constexpr const char* GSO_SPLIT = "GSO split into segments";

    /**
     * The drops tc -s reports for a queue disc (of any kind): ns-3's count less the GSO
     * super-packets CAKE split, which cake_enqueue() consumes rather than drops.
     * @param stats the queue disc's statistics
     * @return the dropped packets
     */
    static uint64_t GetTcDroppedPackets(const QueueDisc::Stats& stats);
    /// A GsoTag on a packet that is not TCP over IP: skb_gso_segment() fails.
    static constexpr const char* GSO_ERROR_DROP = "GSO segmentation failed";

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;
    void DoDispose() override;

    /**
     * split-gso: the GSO packet's segments are enqueued one by one through Enqueue().
     * @param item the super-packet (GsoTag)
     * @param where its classification
     * @return false (the super-packet itself is not queued)
     */
    bool EnqueueSegments(Ptr<QueueDiscItem> item, const CakeClassification& where);
    /// @return the configuration from the attributes
    CakeConfig BuildConfig() const;
    /// Sets the attributes from a configuration. @param config the configuration
    void ApplyConfig(const CakeConfig& config);
    /**
     * @param a a configuration
     * @param b another
     * @return true when they behave the same (the raw flag compared by its effect)
     */
    static bool SameEffect(const CakeConfig& a, const CakeConfig& b);
    /**
     * The Options attribute's setter: parses tc-cake words over the current attributes and
     * sets the attributes; a bad word stops with a message naming it.
     * @param options the words
     */
    void SetOptions(std::string options);
    /// The Options attribute's getter. @return the effective options (FormatCakeOptions())
    std::string GetOptions() const;
    /// Classifies an item: tin and the hashes the flow mode needs.
    CakeClassification Classify(const QueueDiscItem* item, const FlowKeys& keys) const;
    /// Clears the DSCP of an IP item, keeping ECN (cake_handle_diffserv() with wash).
    static void Wash(QueueDiscItem* item);
    /// Takes a queued item out of the internal list and drops it.
    void DropQueued(Item item, CakeDropReason reason);
    /// Arms the watchdog if the scheduler asked.
    void ArmWatchdog();
    /// @param reason a scheduler reason @return its ns-3 reason string
    static const char* ReasonString(CakeDropReason reason);

    // Attributes (tc-cake's options).
    DataRate m_bandwidth;   ///< bandwidth (0: unlimited)
    bool m_autorateIngress; ///< autorate-ingress
    Time m_rtt;             ///< rtt (interval; target = rtt / 20)
    Diffserv m_diffserv;    ///< tin preset
    FlowMode m_flowMode;    ///< isolation
    bool m_nat;             ///< nat
    bool m_wash;            ///< wash
    bool m_ingress;         ///< ingress
    AckFilter m_ackFilter;  ///< ACK filter
    bool m_splitGso;        ///< split-gso
    uint32_t m_memlimit;    ///< memlimit, bytes (0: derived)
    uint32_t m_fwmark;      ///< fwmark mask
    int32_t m_overhead;     ///< overhead, bytes
    MacHeader m_macHeader;  ///< whether the MAC header is removed before the overhead
    uint32_t m_mpu;         ///< mpu
    Atm m_atm;              ///< atm mode

    CakeConfig m_config;                        ///< effective configuration
    std::unique_ptr<CakeScheduler> m_scheduler; ///< the algorithm
    Ptr<QueueDiscItemList> m_list;              ///< accounting for ns-3's QueueDisc
    std::vector<CakeAckPacket> m_ackViews;      ///< ACK filter's view per handle
    std::vector<bool> m_isAck;                  ///< m_ackViews entry is valid
    Ptr<UniformRandomVariable> m_uniform;       ///< seeds and hash keys
    uint64_t m_key0{0};                         ///< flow hash key, first half
    uint64_t m_key1{0};                         ///< flow hash key, second half
    ShaperWatchdog m_watchdog;                  ///< qdisc_watchdog
    bool m_enqueuingSegments{false};            ///< inside EnqueueSegments()
    CakeClassification m_segmentWhere;          ///< the segments' classification

    /// FlowDrop: packet, tin, queue, reason
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, uint32_t, const char*> m_flowDropTrace;
    /// FlowMark: packet, tin, queue
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, uint32_t> m_flowMarkTrace;
    /// CobaltDropState: tin, queue, dropping, count
    TracedCallback<uint32_t, uint32_t, bool, uint32_t> m_dropStateTrace;
};

} // namespace debloat
} // namespace ns3

#endif /* CAKE_QUEUE_DISC_H */
