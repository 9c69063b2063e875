/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_htb.c of Linux 6.x (the feed-tree HTB: htb_activate_prios,
 * htb_class_mode, htb_charge_class, htb_do_events, htb_lookup_leaf, htb_dequeue_tree,
 * htb_dequeue, htb_change_class), psched_ratecfg_precompute() of net/sched/sch_generic.c,
 * psched_l2t_ns() of include/net/sch_generic.h, and the class defaults of iproute2's
 * tc/q_htb.c (htb_parse_class_opt) with tc_calc_xmittime() of tc/tc_core.c.
 */

#ifndef HTB_SCHEDULER_H
#define HTB_SCHEDULER_H

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ns3
{
namespace debloat
{

/// TC_HTB_MAXDEPTH: levels of the class tree (leaves 0, top-level inner classes 7).
constexpr uint32_t HTB_MAXDEPTH = 8;
/// TC_HTB_NUMPRIO: class priorities 0..7.
constexpr uint32_t HTB_NUMPRIO = 8;

/**
 * @ingroup debloat-qdisc
 * @brief A rate as tc_ratespec carries it to the kernel (rate, overhead, mpu, linklayer).
 */
struct HtbRate
{
    uint64_t bytesPerSecond{0}; ///< rate in bytes per second (tc's rate / 8)
    int32_t overhead{0};        ///< tc `overhead`: bytes added to every packet, 0..65535
    uint32_t mpu{0};            ///< tc `mpu`: minimum packet unit, 0..65535
    bool atm{false};            ///< tc `linklayer atm` (or adsl): 53-byte cells of 48

    /**
     * psched_l2t_ns(): the time to send len bytes at this rate, with the mult/shift
     * reciprocal of psched_ratecfg_precompute() (see HtbPschedRate).
     * @param len qdisc_pkt_len() of the packet, bytes
     * @return nanoseconds
     */
    uint64_t TimeForBytes(uint32_t len) const;
};

/**
 * @ingroup debloat-qdisc
 * @brief struct psched_ratecfg: a rate precomputed for psched_l2t_ns().
 *
 * As in the kernel, overhead and mpu are 16-bit unsigned (a negative overhead wraps, as
 * it would in the u16 field; HtbScheduler refuses one, as tc does) and the length
 * arithmetic is done in 32-bit unsigned.
 */
struct HtbPschedRate
{
    uint64_t rateBytesPerSecond{0}; ///< rate_bytes_ps
    uint32_t mult{1};               ///< reciprocal multiplier: ns = (len * mult) >> shift
    uint8_t shift{0};               ///< reciprocal shift
    uint16_t overhead{0};           ///< overhead added to every length
    uint16_t mpu{0};                ///< minimum length after the overhead
    bool atm{false};                ///< TC_LINKLAYER_ATM

    /**
     * psched_ratecfg_precompute(): finds the largest mult (bit 31 set) with
     * mult = (1e9 << shift) / rate, unless 1e9 << shift would reach bit 63.
     * @param rate the rate
     * @return the precomputed rate (mult 1, shift 0 for rate 0, as the kernel)
     */
    static HtbPschedRate Precompute(const HtbRate& rate);

    /**
     * psched_l2t_ns(): len += overhead; len = max(len, mpu); atm: ceil(len / 48) * 53;
     * then (len * mult) >> shift.
     * @param len bytes
     * @return nanoseconds
     */
    uint64_t TimeForBytes(uint32_t len) const;
};

/**
 * @ingroup debloat-qdisc
 * @brief The options of one `tc class add ... htb` (struct tc_htb_opt as tc builds it).
 */
struct HtbClassConfig
{
    uint32_t id{0};      ///< class minor id (0x10 for 1:10); unique, non-zero, <= 0xffff
    uint32_t parent{0};  ///< parent's minor id, 0 for a top-level class under the qdisc
    HtbRate rate;        ///< rate: required, > 0
    HtbRate ceil;        ///< ceil: bytesPerSecond 0 means the same as rate (tc's default)
    uint32_t burst{0};   ///< burst, bytes; 0: tc's default rate / HZ + mtu
    uint32_t cburst{0};  ///< cburst, bytes; 0: tc's default ceil / HZ + mtu
    uint32_t prio{0};    ///< prio 0..7, lower is served first
    uint32_t quantum{0}; ///< quantum, bytes; 0: rate / r2q clamped to [1000, 200000]
    uint32_t mtu{1600};  ///< tc's mtu, used for the default bursts
};

/**
 * @ingroup debloat-qdisc
 * @brief The mode of a class (enum htb_cmode, in the kernel's order).
 */
enum class HtbMode : uint8_t
{
    CANT_SEND = 0,  ///< HTB_CANT_SEND: over its ceil, may not even borrow
    MAY_BORROW = 1, ///< HTB_MAY_BORROW: over its rate, may borrow from an ancestor
    CAN_SEND = 2,   ///< HTB_CAN_SEND: within its rate
};

/**
 * @ingroup debloat-qdisc
 * @brief What `tc -s class show` prints for an HTB class, plus the scheduler's state.
 */
struct HtbClassStats
{
    uint64_t bytes{0};      ///< bytes sent by the class (leaf) or its subtree (inner)
    uint64_t packets{0};    ///< packets sent, counted like bytes
    uint32_t lends{0};      ///< xstats lends ("lended"): packets sent at this class's level
    uint32_t borrows{0};    ///< xstats borrows: packets sent above this class's level
    uint32_t giants{0};     ///< xstats giants: always 0 since the rate tables went (3.8)
    uint32_t overlimits{0}; ///< per-class overlimits: changes to CANT_SEND
    int64_t tokens{0};      ///< tokens, ns, as of the last charge (t_c)
    int64_t ctokens{0};     ///< ctokens, ns, as of the last charge (t_c)
    uint32_t level{0};      ///< level: 0 for a leaf, 7 for a top-level inner class
    int mode{0};            ///< HtbMode as int: 0 CANT_SEND, 1 MAY_BORROW, 2 CAN_SEND
    uint32_t quantum{0};    ///< quantum in use, bytes
    uint64_t buffer{0};     ///< buffer: burst at rate, ns
    uint64_t cbuffer{0};    ///< cbuffer: cburst at ceil, ns
    bool leaf{true};        ///< true for a class without children
};

/**
 * @ingroup debloat-qdisc
 * @brief The class tree and scheduler of Linux's HTB, without the packets: the caller owns
 * each leaf's queue and tells the scheduler when a leaf gets packets (Activate); Dequeue
 * picks the leaf to send from and charges the token buckets.
 *
 * Classes form a tree of at most HTB_MAXDEPTH levels: a leaf has level 0; an inner class
 * one less than its parent, a top-level inner class HTB_MAXDEPTH - 1 (htb_change_class
 * sets this when a leaf gets its first child). Each class has two token buckets in ns:
 * tokens (up to buffer, refilled at rate) and ctokens (up to cbuffer, at ceil), with the
 * checkpoint time t_c and the floor 1 - mbuffer (mbuffer 60 s). Its mode (hysteresis 0,
 * the default of the htb_hysteresis module parameter) is CANT_SEND when ctokens < 0,
 * else CAN_SEND when tokens >= 0, else MAY_BORROW; a class not CAN_SEND waits in its
 * level's event queue for the time its mode changes.
 *
 * An active leaf (one with packets) that is CAN_SEND sits in the row (level 0, its
 * prio); one that is MAY_BORROW sits in its parent's feed for its prio, and so on up:
 * the first CAN_SEND ancestor sits in the row of its own level. Dequeue walks levels 0..7
 * and, in each, the prios with a non-empty row (lowest first), and serves the row by DRR:
 * rows and feeds are ordered by classid like the kernel's rb-trees, with a pointer per row
 * and per feed, and a deficit per leaf and level refilled by the leaf's quantum. The
 * packet is charged to the leaf and all ancestors (ceil for all, rate at and above the
 * level it was sent at, "lends" at that level, "borrows" below).
 *
 * Per-packet work allocates nothing: rows, feeds and event queues are sorted vectors
 * whose capacity is reserved when classes are added.
 *
 * Deviation from Linux: htb_do_events() stops after 2 jiffies of CPU time (older kernels
 * after 500 events); here after 500 events, and GetNextEvent() then returns the current
 * time (the kernel's schedule_work()). The direct queue, filters, class change and deletion,
 * rate estimators and hardware offload are not modelled; prio above 7 and ceil below rate
 * are refused (the kernel clamps prio to 7 and accepts ceil < rate).
 */
class HtbScheduler
{
  public:
    /**
     * Called by htb_change_class_mode() when a class's mode changes: the class's id, its
     * old mode and its new mode. It runs inside Dequeue() (charging a packet, or applying
     * a due event at the dequeue's time); it must not call back into the scheduler.
     */
    using ModeChangeObserver = std::function<void(uint32_t id, HtbMode oldMode, HtbMode newMode)>;

    /// htb_do_events(): events handled per level and dequeue at most.
    static constexpr uint32_t MAX_EVENTS = 500;
    /// tc's HZ from /proc/net/psched on high-resolution-timer kernels.
    static constexpr uint64_t TC_HZ = 1000000000;
    /// PSCHED_SHIFT: one psched tick is 64 ns.
    static constexpr uint32_t PSCHED_SHIFT = 6;
    /// cl->mbuffer: the longest the buckets remember, 60 s.
    static constexpr int64_t MBUFFER = 60000000000LL;
    /// htb_dequeue(): the watchdog time when no class waits, 5 s after now.
    static constexpr int64_t IDLE_EVENT = 5000000000LL;
    /// htb_dequeue(): a level with no event rescans its queue 1 s later.
    static constexpr int64_t EMPTY_LEVEL_EVENT = 1000000000LL;

    /**
     * @param r2q tc's r2q (default 10): the default quantum is rate / r2q; 0 counts as 1,
     *        as htb_init() does
     */
    explicit HtbScheduler(uint32_t r2q = 10);

    /**
     * htb_change_class() for a new class, with tc's defaults: ceil = rate, burst =
     * rate / HZ + mtu, cburst = ceil / HZ + mtu (bytes; HZ 1e9), buffer and cbuffer =
     * tc_calc_xmittime() in 64 ns ticks, quantum = rate / r2q clamped to [1000, 200000]
     * when not given. The class starts full (tokens = buffer, ctokens = cbuffer, t_c =
     * now) and CAN_SEND. A parent that was a leaf becomes an inner class with level
     * (grandparent's level or 8) - 1. Add parents before children.
     *
     * @param config the class
     * @param now the time, ns (t_c of the new class)
     * @throws std::invalid_argument naming the class ("class 1:10: ..."): id 0 or above
     *         0xffff, duplicate id, unknown parent, parent with queued packets, a tree
     *         deeper than 8 levels, rate 0, ceil below rate, prio above 7, overhead or mpu
     *         outside 0..65535, burst or cburst too long for tc's 32-bit ticks
     */
    void AddClass(const HtbClassConfig& config, int64_t now = 0);

    /**
     * @param id a class id
     * @return true for a class without children
     * @throws std::out_of_range for an unknown class
     */
    bool IsLeaf(uint32_t id) const;

    /**
     * @param id a class id
     * @return true if the class exists
     */
    bool HasClass(uint32_t id) const;

    /**
     * @return the ids of the leaves, ascending
     */
    std::vector<uint32_t> GetLeaves() const;

    /**
     * htb_activate(): a leaf's queue went from empty to non-empty. Call after each
     * enqueue into a leaf; harmless when the leaf is already active.
     * @param leaf the leaf's id
     * @param now the time, ns (unused by the kernel's algorithm, which needs no clock here)
     * @throws std::out_of_range for an unknown class, std::invalid_argument for an inner one
     */
    void Activate(uint32_t leaf, int64_t now);

    /**
     * htb_dequeue() without the direct queue.
     * @param now the time, ns (q->now)
     * @param pull dequeues one packet from the leaf's queue and returns its length in bytes
     *        (qdisc_pkt_len), or nullopt when the leaf gave nothing (a non-work-conserving
     *        leaf)
     * @param leafEmpty tells whether the leaf's queue is empty (htb_deactivate then)
     * @return the leaf whose packet was sent, or nullopt; then GetNextEvent() says when
     *         to try again
     */
    std::optional<uint32_t> Dequeue(
        int64_t now,
        const std::function<std::optional<uint32_t>(uint32_t leaf)>& pull,
        const std::function<bool(uint32_t leaf)>& leafEmpty);

    /**
     * @return the watchdog time (next_event, ns) computed by the last Dequeue() that
     *         returned nothing while leaves were active: the earliest mode change, at most
     *         5 s ahead, or the dequeue's own time when the event budget ran out; nullopt
     *         after a Dequeue() that sent a packet or found no active leaf
     */
    std::optional<int64_t> GetNextEvent() const;

    /**
     * @param id a class id
     * @return its statistics and state
     * @throws std::out_of_range for an unknown class
     */
    HtbClassStats GetClassStats(uint32_t id) const;

    /**
     * @param id a class id
     * @return its configuration with the defaults filled in (ceil, burst, cburst, quantum)
     * @throws std::out_of_range for an unknown class
     */
    const HtbClassConfig& GetClassConfig(uint32_t id) const;

    /**
     * The qdisc's overlimits as current kernels count and print them (`tc -s qdisc show`):
     * htb_change_class_mode() adds one to q->overlimits, as to the class's own overlimits,
     * whenever a class changes to CANT_SEND, and htb_dump() reports q->overlimits, so the
     * qdisc's count is the sum of its classes' ("sch_htb: redefine htb qdisc overlimits",
     * Linux 5.2).
     * @return changes of any class to CANT_SEND
     */
    uint32_t GetOverlimits() const;

    /**
     * What kernels before 5.2 printed as the qdisc's overlimits: htb_dequeue() called
     * qdisc_qstats_overlimit() each time it found nothing to send while packets waited.
     * Nothing prints it now; it shows how often the watchdog's dequeue came back empty.
     * @return Dequeue() calls that found nothing to send while leaves were active
     */
    uint32_t GetEmptyDequeues() const;

    /**
     * tc_calc_xmittime() as tc computes buffer and cbuffer: ceil(1e6 * size / rate *
     * 15.625) psched ticks of 64 ns, in double arithmetic, saturated at UINT32_MAX.
     * @param bytesPerSecond the rate
     * @param bytes the burst
     * @return psched ticks
     */
    static uint32_t TcXmitTicks(uint64_t bytesPerSecond, uint64_t bytes);

    /**
     * Sets the observer of class mode changes (one at a time; an empty function removes
     * it). Without one, a mode change costs one test of an empty std::function.
     * @param observer the observer
     */
    void SetModeChangeObserver(ModeChangeObserver observer);

    /**
     * @return the level the packet of the last successful Dequeue() was sent at: 0 when
     *         the leaf sent within its own rate, above 0 when it borrowed from the ancestor
     *         at that level (htb_dequeue_tree()'s level)
     */
    uint32_t GetLastSendLevel() const;

  private:
    /// No class: the kernel's NULL pointer.
    static constexpr uint32_t NONE = UINT32_MAX;

    /**
     * struct htb_prio: a row (classes of one level in CAN_SEND) or an inner class's feed
     * (children in MAY_BORROW) for one prio, ordered by classid, with the DRR pointer.
     */
    struct Feed
    {
        std::vector<uint32_t> members; ///< class indexes, ascending classid
        uint32_t ptr{NONE};            ///< the DRR pointer: a member, or NONE
        uint32_t lastPtrId{0};         ///< classid of the pointer lost by deactivation
    };

    /// One entry of a level's event queue (wait_pq).
    struct WaitEntry
    {
        int64_t key{0};  ///< pq_key: when the class may change mode, ns
        uint32_t cls{0}; ///< class index
    };

    /// struct htb_class.
    struct Class
    {
        HtbClassConfig config;                       ///< configuration, defaults filled
        uint32_t id{0};                              ///< classid minor
        uint32_t parent{NONE};                       ///< parent's index, NONE at the top
        uint32_t level{0};                           ///< level
        uint32_t children{0};                        ///< number of children
        HtbPschedRate rate;                          ///< rate
        HtbPschedRate ceil;                          ///< ceil
        int64_t buffer{0};                           ///< buffer, ns
        int64_t cbuffer{0};                          ///< cbuffer, ns
        int64_t mbuffer{MBUFFER};                    ///< mbuffer, ns
        int64_t tokens{0};                           ///< tokens, ns
        int64_t ctokens{0};                          ///< ctokens, ns
        int64_t tC{0};                               ///< t_c: checkpoint time, ns
        uint32_t prio{0};                            ///< prio
        int32_t quantum{0};                          ///< quantum, bytes
        std::array<int32_t, HTB_MAXDEPTH> deficit{}; ///< leaf: deficit per level
        std::array<Feed, HTB_NUMPRIO> feed;          ///< inner: feeds per prio
        int64_t pqKey{0};                            ///< pq_key
        bool waiting{false};                         ///< on its level's event queue
        uint32_t prioActivity{0};                    ///< prio_activity bit mask
        HtbMode cmode{HtbMode::CAN_SEND};            ///< cmode
        uint64_t bytes{0};                           ///< bstats bytes
        uint64_t packets{0};                         ///< bstats packets
        uint32_t lends{0};                           ///< xstats lends
        uint32_t borrows{0};                         ///< xstats borrows
        uint32_t overlimits{0};                      ///< per-class overlimits
    };

    /**
     * @param id a class id
     * @return its index
     * @throws std::out_of_range for an unknown class
     */
    uint32_t IndexOf(uint32_t id) const;

    /**
     * @param feed a row or feed
     * @param cls a class index
     * @return where cls is, or would be inserted, in the feed's classid order
     */
    std::vector<uint32_t>::iterator FindInIdTree(Feed& feed, uint32_t cls);
    /**
     * htb_add_to_id_tree(): inserts a class into a feed or row by classid.
     * @param feed the feed or row
     * @param cls the class index
     */
    void AddToIdTree(Feed& feed, uint32_t cls);

    /**
     * rb_erase() from a feed or row (htb_safe_rb_erase: nothing if absent).
     * @param feed the feed or row
     * @param cls the class index
     */
    void EraseFromIdTree(Feed& feed, uint32_t cls);

    /**
     * htb_next_rb_node(): the member after cls by classid.
     * @param feed the feed or row
     * @param cls a member
     * @return the next member, or NONE past the last
     */
    uint32_t NextInTree(const Feed& feed, uint32_t cls) const;

    /**
     * htb_id_find_next_upper(): the first member whose classid is >= id.
     * @param feed the feed or row
     * @param id a classid
     * @return the member, or NONE
     */
    uint32_t FindNextUpper(const Feed& feed, uint32_t id) const;

    /**
     * htb_add_to_wait_tree(): queues a class for a mode change delay ns after now.
     * @param cls the class index
     * @param delay ns
     */
    void AddToWaitTree(uint32_t cls, int64_t delay);

    /**
     * htb_safe_rb_erase() of a class's pq_node.
     * @param cls the class index
     */
    void EraseFromWaitTree(uint32_t cls);

    /**
     * htb_add_class_to_row().
     * @param cls the class index
     * @param mask the prios
     */
    void AddClassToRow(uint32_t cls, uint32_t mask);

    /**
     * htb_remove_class_from_row().
     * @param cls the class index
     * @param mask the prios
     */
    void RemoveClassFromRow(uint32_t cls, uint32_t mask);

    /**
     * htb_activate_prios(): links the class into its parent's feeds or its row.
     * @param cls the class index, in its new mode
     */
    void ActivatePrios(uint32_t cls);

    /**
     * htb_deactivate_prios(): unlinks the class from feeds and rows.
     * @param cls the class index, in its old mode
     */
    void DeactivatePrios(uint32_t cls);

    /**
     * htb_class_mode() with hysteresis 0.
     * @param c the class
     * @param[in,out] diff in: ns since t_c; out: ns until the mode changes (not CAN_SEND)
     * @return the mode at t_c + diff
     */
    static HtbMode ClassMode(const Class& c, int64_t& diff);

    /**
     * Mirrors htb_change_class_mode(): a change to CANT_SEND counts one overlimit of the
     * class and one of the qdisc.
     * @param cls the class index
     * @param[in,out] diff as ClassMode()
     */
    void ChangeClassMode(uint32_t cls, int64_t& diff);

    /**
     * htb_deactivate().
     * @param cls the leaf's index
     */
    void Deactivate(uint32_t cls);

    /**
     * htb_charge_class(): charges len bytes sent at level to the leaf and its ancestors.
     * @param cls the leaf's index
     * @param level the level the packet was sent at
     * @param len bytes
     */
    void ChargeClass(uint32_t cls, uint32_t level, uint32_t len);

    /**
     * htb_do_events(): applies the due mode changes of a level.
     * @param level the level
     * @return the next event's time, 0 for none, now when the budget ran out
     */
    int64_t DoEvents(uint32_t level);

    /**
     * htb_lookup_leaf(): descends from a row through the feeds' DRR pointers to a leaf.
     * @param row the row
     * @param prio its prio
     * @return the leaf's index, or NONE
     */
    uint32_t LookupLeaf(Feed& row, uint32_t prio);

    /**
     * htb_next_rb_node() on the DRR pointer that points to a leaf served at a level: its
     * parent's feed pointer above level 0, the row's at level 0.
     * @param cls the leaf's index
     * @param level the level
     * @param prio the prio
     */
    void AdvancePointer(uint32_t cls, uint32_t level, uint32_t prio);

    /**
     * htb_dequeue_tree().
     * @param prio the prio
     * @param level the level
     * @param pull as Dequeue()
     * @param leafEmpty as Dequeue()
     * @return the leaf's index, or NONE
     */
    uint32_t DequeueTree(uint32_t prio,
                         uint32_t level,
                         const std::function<std::optional<uint32_t>(uint32_t leaf)>& pull,
                         const std::function<bool(uint32_t leaf)>& leafEmpty);

    uint32_t m_r2q;                                                 ///< rate2quantum
    std::vector<Class> m_classes;                                   ///< classes by index
    std::unordered_map<uint32_t, uint32_t> m_index;                 ///< id to index
    std::array<std::array<Feed, HTB_NUMPRIO>, HTB_MAXDEPTH> m_rows; ///< hlevel[].hprio[]
    std::array<uint32_t, HTB_MAXDEPTH> m_rowMask{};                 ///< row_mask
    std::array<std::vector<WaitEntry>, HTB_MAXDEPTH> m_waitQueues;  ///< wait_pq, latest first
    std::array<int64_t, HTB_MAXDEPTH> m_nearEventCache{};           ///< near_ev_cache
    int64_t m_now{0};                                               ///< q->now
    uint32_t m_activeLeaves{0};                                     ///< leaves with packets
    std::optional<int64_t> m_nextEvent;                             ///< last watchdog time
    uint32_t m_overlimits{0};                                       ///< q->overlimits
    uint32_t m_emptyDequeues{0};                                    ///< empty dequeues
    uint32_t m_lastSendLevel{0};                                    ///< level of the last send
    ModeChangeObserver m_modeChangeObserver;                        ///< mode change observer
};

} // namespace debloat
} // namespace ns3

#endif /* HTB_SCHEDULER_H */
