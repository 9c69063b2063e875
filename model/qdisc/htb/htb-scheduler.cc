/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_htb.c of Linux 6.x and iproute2's tc/q_htb.c for the class
 * defaults; the rate arithmetic (psched_ratecfg_precompute(), psched_l2t_ns(),
 * tc_calc_xmittime()) is in htb-psched-rate.cc.
 */

#include "htb-scheduler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{
namespace debloat
{

namespace
{

/// The default quantum's lower clamp (htb_change_class).
constexpr uint32_t MIN_DEFAULT_QUANTUM = 1000;
/// The default quantum's upper clamp (htb_change_class).
constexpr uint32_t MAX_DEFAULT_QUANTUM = 200000;
/// htb_lookup_leaf(): iterations before giving up.
constexpr uint32_t LOOKUP_LIMIT = 65535;

/**
 * @param id a class minor id
 * @return "class 1:<hex id>", as tc spells the classid
 */
std::string
ClassName(uint32_t id)
{
    std::ostringstream os;
    os << "class 1:" << std::hex << id;
    return os.str();
}

/**
 * print_rate() of iproute2: bits per second with the largest SI unit that keeps it exact
 * (or the value is at least 1000 of it).
 * @param bytesPerSecond the rate
 * @return e.g. "2Mbit"
 */
std::string
FormatRate(uint64_t bytesPerSecond)
{
    static const std::array<const char*, 5> units{"", "K", "M", "G", "T"};
    uint64_t rate = bytesPerSecond * 8;
    size_t i = 0;
    for (; i + 1 < units.size(); ++i)
    {
        if (rate < 1000 || ((rate % 1000) != 0 && rate < 1000 * 1000))
        {
            break;
        }
        rate /= 1000;
    }
    return std::to_string(rate) + units[i] + "bit";
}

/**
 * @param mask a prio bit mask
 * @return the lowest set bit's index (ffz(~mask)); mask must not be 0
 */
uint32_t
LowestPrio(uint32_t mask)
{
    uint32_t prio = 0;
    while ((mask & (1U << prio)) == 0)
    {
        ++prio;
    }
    return prio;
}

} // namespace

HtbScheduler::HtbScheduler(uint32_t r2q)
    : m_r2q(std::max<uint32_t>(r2q, 1))
{
}

void
HtbScheduler::AddClass(const HtbClassConfig& config, int64_t now)
{
    const std::string name = ClassName(config.id);
    if (config.id == 0 || config.id > 0xFFFF)
    {
        throw std::invalid_argument(name + ": the minor id must be 1..ffff");
    }
    if (m_index.count(config.id) != 0)
    {
        throw std::invalid_argument(name + ": already exists");
    }
    uint32_t parent = NONE;
    if (config.parent != 0)
    {
        auto it = m_index.find(config.parent);
        if (it == m_index.end())
        {
            throw std::invalid_argument(name + ": parent " + ClassName(config.parent).substr(6) +
                                        " does not exist");
        }
        parent = it->second;
        // htb_change_class(): "tree is too deep" when the grandparent is below level 2.
        const uint32_t grand = m_classes[parent].parent;
        if (grand != NONE && m_classes[grand].level < 2)
        {
            throw std::invalid_argument(name + ": tree is too deep (more than " +
                                        std::to_string(HTB_MAXDEPTH) + " levels)");
        }
        if (m_classes[parent].prioActivity != 0)
        {
            throw std::invalid_argument(name + ": parent " + ClassName(config.parent).substr(6) +
                                        " has queued packets");
        }
    }
    if (config.rate.bytesPerSecond == 0)
    {
        throw std::invalid_argument(name + ": rate must be above 0");
    }
    HtbClassConfig filled = config;
    if (filled.ceil.bytesPerSecond == 0)
    {
        filled.ceil = filled.rate;
    }
    if (filled.ceil.bytesPerSecond < filled.rate.bytesPerSecond)
    {
        throw std::invalid_argument(name + ": ceil " + FormatRate(filled.ceil.bytesPerSecond) +
                                    " below rate " + FormatRate(filled.rate.bytesPerSecond));
    }
    if (filled.prio >= HTB_NUMPRIO)
    {
        throw std::invalid_argument(name + ": prio " + std::to_string(filled.prio) + " above " +
                                    std::to_string(HTB_NUMPRIO - 1));
    }
    for (const HtbRate* r : {&filled.rate, &filled.ceil})
    {
        if (r->overhead < 0 || r->overhead > 0xFFFF)
        {
            throw std::invalid_argument(name + ": overhead " + std::to_string(r->overhead) +
                                        " outside 0..65535");
        }
        if (r->mpu > 0xFFFF)
        {
            throw std::invalid_argument(name + ": mpu " + std::to_string(r->mpu) +
                                        " outside 0..65535");
        }
    }
    // htb_parse_class_opt(): buffer = rate / get_hz() + mtu, likewise cbuffer.
    if (filled.burst == 0)
    {
        filled.burst = static_cast<uint32_t>(filled.rate.bytesPerSecond / TC_HZ + filled.mtu);
    }
    if (filled.cburst == 0)
    {
        filled.cburst = static_cast<uint32_t>(filled.ceil.bytesPerSecond / TC_HZ + filled.mtu);
    }
    const uint32_t bufferTicks = TcXmitTicks(filled.rate.bytesPerSecond, filled.burst);
    if (bufferTicks == std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument(name + ": burst " + std::to_string(filled.burst) +
                                    " out of range (tc: \"htb: burst out of range\")");
    }
    const uint32_t cbufferTicks = TcXmitTicks(filled.ceil.bytesPerSecond, filled.cburst);
    if (cbufferTicks == std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument(name + ": cburst " + std::to_string(filled.cburst) +
                                    " out of range");
    }

    Class c;
    c.id = filled.id;
    c.parent = parent;
    c.rate = HtbPschedRate::Precompute(filled.rate);
    c.ceil = HtbPschedRate::Precompute(filled.ceil);
    c.buffer = static_cast<int64_t>(bufferTicks) << PSCHED_SHIFT;
    c.cbuffer = static_cast<int64_t>(cbufferTicks) << PSCHED_SHIFT;
    c.mbuffer = MBUFFER;
    c.tokens = c.buffer;
    c.ctokens = c.cbuffer;
    c.tC = now;
    c.cmode = HtbMode::CAN_SEND;
    // The new class is a leaf: quantum = rate / r2q, clamped when not given.
    uint64_t quantum = c.rate.rateBytesPerSecond / m_r2q;
    quantum = std::min<uint64_t>(quantum, std::numeric_limits<int32_t>::max());
    if (filled.quantum == 0)
    {
        quantum = std::clamp<uint64_t>(quantum, MIN_DEFAULT_QUANTUM, MAX_DEFAULT_QUANTUM);
        filled.quantum = static_cast<uint32_t>(quantum);
    }
    c.quantum = static_cast<int32_t>(
        std::min<uint64_t>(filled.quantum, std::numeric_limits<int32_t>::max()));
    c.prio = filled.prio;
    c.config = filled;

    const uint32_t index = static_cast<uint32_t>(m_classes.size());
    if (parent != NONE)
    {
        Class& p = m_classes[parent];
        if (p.level == 0 && p.children == 0)
        {
            // Turn the parent into an inner class (it has no packets: checked above).
            if (p.cmode != HtbMode::CAN_SEND)
            {
                EraseFromWaitTree(parent);
                p.cmode = HtbMode::CAN_SEND;
            }
            p.level = (p.parent != NONE ? m_classes[p.parent].level : HTB_MAXDEPTH) - 1;
            p.feed = {};
        }
        ++p.children;
        for (Feed& f : p.feed)
        {
            f.members.reserve(p.children);
        }
    }
    m_classes.push_back(c);
    m_index[filled.id] = index;
    for (auto& level : m_rows)
    {
        for (Feed& row : level)
        {
            row.members.reserve(m_classes.size());
        }
    }
    for (auto& queue : m_waitQueues)
    {
        queue.reserve(m_classes.size());
    }
}

uint32_t
HtbScheduler::IndexOf(uint32_t id) const
{
    auto it = m_index.find(id);
    if (it == m_index.end())
    {
        throw std::out_of_range(ClassName(id) + ": no such class");
    }
    return it->second;
}

bool
HtbScheduler::IsLeaf(uint32_t id) const
{
    return m_classes[IndexOf(id)].children == 0;
}

bool
HtbScheduler::HasClass(uint32_t id) const
{
    return m_index.count(id) != 0;
}

std::vector<uint32_t>
HtbScheduler::GetLeaves() const
{
    std::vector<uint32_t> leaves;
    for (const Class& c : m_classes)
    {
        if (c.children == 0)
        {
            leaves.push_back(c.id);
        }
    }
    std::sort(leaves.begin(), leaves.end());
    return leaves;
}

std::vector<uint32_t>::iterator
HtbScheduler::FindInIdTree(Feed& feed, uint32_t cls)
{
    // Members are ordered by class id, as the kernel's rb-trees are.
    const uint32_t id = m_classes[cls].id;
    return std::lower_bound(
        feed.members.begin(),
        feed.members.end(),
        id,
        [this](uint32_t member, uint32_t key) { return m_classes[member].id < key; });
}

void
HtbScheduler::AddToIdTree(Feed& feed, uint32_t cls)
{
    const auto it = FindInIdTree(feed, cls);
    if (it != feed.members.end() && *it == cls)
    {
        return; // already linked: the kernel would corrupt its tree; never happens
    }
    feed.members.insert(it, cls);
}

void
HtbScheduler::EraseFromIdTree(Feed& feed, uint32_t cls)
{
    const auto it = FindInIdTree(feed, cls);
    if (it != feed.members.end() && *it == cls)
    {
        feed.members.erase(it);
    }
}

uint32_t
HtbScheduler::NextInTree(const Feed& feed, uint32_t cls) const
{
    const uint32_t id = m_classes[cls].id;
    auto it = std::upper_bound(
        feed.members.begin(),
        feed.members.end(),
        id,
        [this](uint32_t key, uint32_t member) { return key < m_classes[member].id; });
    return it == feed.members.end() ? NONE : *it;
}

uint32_t
HtbScheduler::FindNextUpper(const Feed& feed, uint32_t id) const
{
    auto it = std::lower_bound(
        feed.members.begin(),
        feed.members.end(),
        id,
        [this](uint32_t member, uint32_t key) { return m_classes[member].id < key; });
    return it == feed.members.end() ? NONE : *it;
}

void
HtbScheduler::AddToWaitTree(uint32_t cls, int64_t delay)
{
    Class& c = m_classes[cls];
    c.pqKey = m_now + delay;
    if (c.pqKey == m_now)
    {
        ++c.pqKey;
    }
    if (m_nearEventCache[c.level] > c.pqKey)
    {
        m_nearEventCache[c.level] = c.pqKey;
    }
    // Kept latest first, so that the earliest is at the back; a new entry goes after the
    // equal keys in the kernel's in-order walk (>= goes right), so before them here.
    std::vector<WaitEntry>& queue = m_waitQueues[c.level];
    auto it =
        std::lower_bound(queue.begin(), queue.end(), c.pqKey, [](const WaitEntry& e, int64_t key) {
            return e.key > key;
        });
    queue.insert(it, WaitEntry{c.pqKey, cls});
    c.waiting = true;
}

void
HtbScheduler::EraseFromWaitTree(uint32_t cls)
{
    Class& c = m_classes[cls];
    if (!c.waiting)
    {
        return; // htb_safe_rb_erase() warns and goes on
    }
    std::vector<WaitEntry>& queue = m_waitQueues[c.level];
    auto it =
        std::lower_bound(queue.begin(), queue.end(), c.pqKey, [](const WaitEntry& e, int64_t key) {
            return e.key > key;
        });
    for (; it != queue.end() && it->key == c.pqKey; ++it)
    {
        if (it->cls == cls)
        {
            queue.erase(it);
            break;
        }
    }
    c.waiting = false;
}

void
HtbScheduler::AddClassToRow(uint32_t cls, uint32_t mask)
{
    const uint32_t level = m_classes[cls].level;
    m_rowMask[level] |= mask;
    while (mask != 0)
    {
        const uint32_t prio = LowestPrio(mask);
        mask &= ~(1U << prio);
        AddToIdTree(m_rows[level][prio], cls);
    }
}

void
HtbScheduler::RemoveClassFromRow(uint32_t cls, uint32_t mask)
{
    const uint32_t level = m_classes[cls].level;
    uint32_t emptied = 0;
    while (mask != 0)
    {
        const uint32_t prio = LowestPrio(mask);
        mask &= ~(1U << prio);
        Feed& row = m_rows[level][prio];
        if (row.ptr == cls)
        {
            row.ptr = NextInTree(row, cls);
        }
        EraseFromIdTree(row, cls);
        if (row.members.empty())
        {
            emptied |= 1U << prio;
        }
    }
    m_rowMask[level] &= ~emptied;
}

void
HtbScheduler::ActivatePrios(uint32_t cls)
{
    uint32_t p = m_classes[cls].parent;
    uint32_t mask = m_classes[cls].prioActivity;
    while (m_classes[cls].cmode == HtbMode::MAY_BORROW && p != NONE && mask != 0)
    {
        Class& parent = m_classes[p];
        uint32_t m = mask;
        while (m != 0)
        {
            const uint32_t prio = LowestPrio(m);
            m &= ~(1U << prio);
            if (!parent.feed[prio].members.empty())
            {
                // The parent is already linked for this prio.
                mask &= ~(1U << prio);
            }
            AddToIdTree(parent.feed[prio], cls);
        }
        parent.prioActivity |= mask;
        cls = p;
        p = parent.parent;
    }
    if (m_classes[cls].cmode == HtbMode::CAN_SEND && mask != 0)
    {
        AddClassToRow(cls, mask);
    }
}

void
HtbScheduler::DeactivatePrios(uint32_t cls)
{
    uint32_t p = m_classes[cls].parent;
    uint32_t mask = m_classes[cls].prioActivity;
    while (m_classes[cls].cmode == HtbMode::MAY_BORROW && p != NONE && mask != 0)
    {
        Class& parent = m_classes[p];
        uint32_t m = mask;
        mask = 0;
        while (m != 0)
        {
            const uint32_t prio = LowestPrio(m);
            m &= ~(1U << prio);
            Feed& feed = parent.feed[prio];
            if (feed.ptr == cls)
            {
                // Forget the pointer but remember the classid, to resume there.
                feed.lastPtrId = m_classes[cls].id;
                feed.ptr = NONE;
            }
            EraseFromIdTree(feed, cls);
            if (feed.members.empty())
            {
                mask |= 1U << prio;
            }
        }
        parent.prioActivity &= ~mask;
        cls = p;
        p = parent.parent;
    }
    if (m_classes[cls].cmode == HtbMode::CAN_SEND && mask != 0)
    {
        RemoveClassFromRow(cls, mask);
    }
}

HtbMode
HtbScheduler::ClassMode(const Class& c, int64_t& diff)
{
    int64_t toks = c.ctokens + diff;
    if (toks < 0)
    {
        diff = -toks;
        return HtbMode::CANT_SEND;
    }
    toks = c.tokens + diff;
    if (toks >= 0)
    {
        return HtbMode::CAN_SEND;
    }
    diff = -toks;
    return HtbMode::MAY_BORROW;
}

void
HtbScheduler::ChangeClassMode(uint32_t cls, int64_t& diff)
{
    Class& c = m_classes[cls];
    const HtbMode newMode = ClassMode(c, diff);
    if (newMode == c.cmode)
    {
        return;
    }
    if (newMode == HtbMode::CANT_SEND)
    {
        // Since Linux 5.2 the qdisc's overlimits are the sum of its classes'.
        ++c.overlimits;
        ++m_overlimits;
    }
    if (m_modeChangeObserver)
    {
        m_modeChangeObserver(c.id, c.cmode, newMode);
    }
    if (c.prioActivity != 0)
    {
        if (c.cmode != HtbMode::CANT_SEND)
        {
            DeactivatePrios(cls);
        }
        m_classes[cls].cmode = newMode;
        if (newMode != HtbMode::CANT_SEND)
        {
            ActivatePrios(cls);
        }
    }
    else
    {
        c.cmode = newMode;
    }
}

void
HtbScheduler::Activate(uint32_t leaf, int64_t /* now */)
{
    const uint32_t cls = IndexOf(leaf);
    Class& c = m_classes[cls];
    if (c.level != 0 || c.children != 0)
    {
        throw std::invalid_argument(ClassName(leaf) + ": not a leaf");
    }
    if (c.prioActivity == 0)
    {
        c.prioActivity = 1U << c.prio;
        ++m_activeLeaves;
        ActivatePrios(cls);
    }
}

void
HtbScheduler::Deactivate(uint32_t cls)
{
    Class& c = m_classes[cls];
    if (c.prioActivity == 0)
    {
        return; // the kernel warns
    }
    DeactivatePrios(cls);
    m_classes[cls].prioActivity = 0;
    --m_activeLeaves;
}

void
HtbScheduler::ChargeClass(uint32_t cls, uint32_t level, uint32_t len)
{
    while (cls != NONE)
    {
        Class& c = m_classes[cls];
        int64_t diff = std::min(m_now - c.tC, c.mbuffer);
        if (c.level >= level)
        {
            if (c.level == level)
            {
                ++c.lends;
            }
            // htb_accnt_tokens()
            int64_t toks = std::min(diff + c.tokens, c.buffer);
            toks -= static_cast<int64_t>(c.rate.TimeForBytes(len));
            if (toks <= -c.mbuffer)
            {
                toks = 1 - c.mbuffer;
            }
            c.tokens = toks;
        }
        else
        {
            ++c.borrows;
            c.tokens += diff; // t_c moves: keep tokens current (no cap at buffer)
        }
        // htb_accnt_ctokens()
        int64_t ctoks = std::min(diff + c.ctokens, c.cbuffer);
        ctoks -= static_cast<int64_t>(c.ceil.TimeForBytes(len));
        if (ctoks <= -c.mbuffer)
        {
            ctoks = 1 - c.mbuffer;
        }
        c.ctokens = ctoks;
        c.tC = m_now;

        const HtbMode oldMode = c.cmode;
        diff = 0;
        ChangeClassMode(cls, diff);
        Class& changed = m_classes[cls];
        if (oldMode != changed.cmode)
        {
            if (oldMode != HtbMode::CAN_SEND)
            {
                EraseFromWaitTree(cls);
            }
            if (changed.cmode != HtbMode::CAN_SEND)
            {
                AddToWaitTree(cls, diff);
            }
        }
        // Leaves were counted by the dequeue.
        if (changed.level != 0)
        {
            changed.bytes += len;
            ++changed.packets;
        }
        cls = changed.parent;
    }
}

int64_t
HtbScheduler::DoEvents(uint32_t level)
{
    std::vector<WaitEntry>& queue = m_waitQueues[level];
    for (uint32_t i = 0; i < MAX_EVENTS; ++i)
    {
        if (queue.empty())
        {
            return 0;
        }
        const WaitEntry first = queue.back();
        if (first.key > m_now)
        {
            return first.key;
        }
        queue.pop_back();
        Class& c = m_classes[first.cls];
        c.waiting = false;
        int64_t diff = std::min(m_now - c.tC, c.mbuffer);
        ChangeClassMode(first.cls, diff);
        if (m_classes[first.cls].cmode != HtbMode::CAN_SEND)
        {
            AddToWaitTree(first.cls, diff);
        }
    }
    // Too many events: continue after a break (the kernel's schedule_work()).
    return m_now;
}

uint32_t
HtbScheduler::LookupLeaf(Feed& row, uint32_t prio)
{
    std::array<Feed*, HTB_MAXDEPTH> stack{};
    size_t sp = 0;
    stack[0] = &row;
    for (uint32_t i = 0; i < LOOKUP_LIMIT; ++i)
    {
        Feed& f = *stack[sp];
        if (f.ptr == NONE && f.lastPtrId != 0)
        {
            // The pointer was invalidated but the id is valid: resume there or after.
            f.ptr = FindNextUpper(f, f.lastPtrId);
        }
        f.lastPtrId = 0;
        if (f.ptr == NONE)
        {
            // At the right end: rewind, and advance the level above.
            if (f.members.empty())
            {
                return NONE;
            }
            f.ptr = f.members.front();
            if (sp > 0)
            {
                --sp;
                Feed& up = *stack[sp];
                if (up.ptr == NONE)
                {
                    return NONE;
                }
                up.ptr = NextInTree(up, up.ptr);
            }
        }
        else
        {
            Class& c = m_classes[f.ptr];
            if (c.level == 0)
            {
                return f.ptr;
            }
            if (sp + 1 >= stack.size())
            {
                return NONE;
            }
            stack[++sp] = &c.feed[prio];
        }
    }
    return NONE;
}

void
HtbScheduler::AdvancePointer(uint32_t cls, uint32_t level, uint32_t prio)
{
    Feed& feed = level != 0 ? m_classes[m_classes[cls].parent].feed[prio] : m_rows[0][prio];
    if (feed.ptr != NONE)
    {
        feed.ptr = NextInTree(feed, feed.ptr);
    }
}

uint32_t
HtbScheduler::DequeueTree(uint32_t prio,
                          uint32_t level,
                          const std::function<std::optional<uint32_t>(uint32_t leaf)>& pull,
                          const std::function<bool(uint32_t leaf)>& leafEmpty)
{
    Feed& row = m_rows[level][prio];
    uint32_t start = LookupLeaf(row, prio);
    uint32_t cls = start;
    std::optional<uint32_t> len;
    while (true)
    {
        if (cls == NONE)
        {
            return NONE;
        }
        const uint32_t id = m_classes[cls].id;
        if (leafEmpty(id))
        {
            // An empty active leaf (its queue dropped): deactivate and skip it.
            Deactivate(cls);
            if ((m_rowMask[level] & (1U << prio)) == 0)
            {
                return NONE;
            }
            const uint32_t next = LookupLeaf(row, prio);
            if (cls == start)
            {
                start = next;
            }
            cls = next;
            continue;
        }
        len = pull(id);
        if (len.has_value())
        {
            break;
        }
        // A non-work-conserving leaf: try the next one.
        AdvancePointer(cls, level, prio);
        cls = LookupLeaf(row, prio);
        if (cls == start)
        {
            return NONE;
        }
    }

    Class& c = m_classes[cls];
    c.bytes += *len;
    ++c.packets;
    c.deficit[level] -= static_cast<int32_t>(*len);
    if (c.deficit[level] < 0)
    {
        c.deficit[level] += c.quantum;
        AdvancePointer(cls, level, prio);
    }
    if (leafEmpty(c.id))
    {
        Deactivate(cls);
    }
    ChargeClass(cls, level, *len);
    return cls;
}

std::optional<uint32_t>
HtbScheduler::Dequeue(int64_t now,
                      const std::function<std::optional<uint32_t>(uint32_t leaf)>& pull,
                      const std::function<bool(uint32_t leaf)>& leafEmpty)
{
    m_nextEvent.reset();
    if (m_activeLeaves == 0)
    {
        return std::nullopt; // sch->q.qlen == 0
    }
    m_now = now;
    int64_t nextEvent = m_now + IDLE_EVENT;
    for (uint32_t level = 0; level < HTB_MAXDEPTH; ++level)
    {
        int64_t event = m_nearEventCache[level];
        if (m_now >= event)
        {
            event = DoEvents(level);
            if (event == 0)
            {
                event = m_now + EMPTY_LEVEL_EVENT;
            }
            m_nearEventCache[level] = event;
        }
        nextEvent = std::min(nextEvent, event);
        // The prios present when the level is reached, lowest first.
        uint32_t mask = m_rowMask[level];
        while (mask != 0)
        {
            const uint32_t prio = LowestPrio(mask);
            mask &= ~(1U << prio);
            const uint32_t sent = DequeueTree(prio, level, pull, leafEmpty);
            if (sent != NONE)
            {
                m_lastSendLevel = level;
                return m_classes[sent].id;
            }
        }
    }
    if (m_activeLeaves != 0)
    {
        ++m_emptyDequeues; // qdisc_qstats_overlimit() here before Linux 5.2
        m_nextEvent = std::max(nextEvent, m_now);
    }
    return std::nullopt;
}

std::optional<int64_t>
HtbScheduler::GetNextEvent() const
{
    return m_nextEvent;
}

HtbClassStats
HtbScheduler::GetClassStats(uint32_t id) const
{
    const Class& c = m_classes[IndexOf(id)];
    HtbClassStats s;
    s.bytes = c.bytes;
    s.packets = c.packets;
    s.lends = c.lends;
    s.borrows = c.borrows;
    s.giants = 0;
    s.overlimits = c.overlimits;
    s.tokens = c.tokens;
    s.ctokens = c.ctokens;
    s.level = c.level;
    s.mode = static_cast<int>(c.cmode);
    s.quantum = static_cast<uint32_t>(c.quantum);
    s.buffer = static_cast<uint64_t>(c.buffer);
    s.cbuffer = static_cast<uint64_t>(c.cbuffer);
    s.leaf = c.children == 0;
    return s;
}

const HtbClassConfig&
HtbScheduler::GetClassConfig(uint32_t id) const
{
    return m_classes[IndexOf(id)].config;
}

uint32_t
HtbScheduler::GetOverlimits() const
{
    return m_overlimits;
}

uint32_t
HtbScheduler::GetEmptyDequeues() const
{
    return m_emptyDequeues;
}

void
HtbScheduler::SetModeChangeObserver(ModeChangeObserver observer)
{
    m_modeChangeObserver = std::move(observer);
}

uint32_t
HtbScheduler::GetLastSendLevel() const
{
    return m_lastSendLevel;
}

} // namespace debloat
} // namespace ns3
