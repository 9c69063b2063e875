/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_netem.c of Linux 6.x and netem/normal.c, netem/pareto.c and
 * netem/paretonormal.c of iproute2.
 */

#include "netem-core.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace ns3
{
namespace debloat
{

/// 128-bit products, as the kernel's mul_u64_u32_shr() and div64_u64() keep them exact
/// (__extension__: a GCC and Clang type that -Wpedantic would otherwise flag).
__extension__ using Uint128 = unsigned __int128;

namespace
{

/// TABLESIZE of the iproute2 generators: 16384 points, every fourth printed.
constexpr int TABLESIZE = 16384;

/**
 * The search of netem/normal.c: for x from -10 to 10.05 in steps of 0.00005 (the same
 * double arithmetic), table[rint(TABLESIZE * Phi(x))] = x, so each entry ends up the
 * largest x whose rounded CDF is its index.
 * @return the TABLESIZE + 1 doubles
 */
const std::vector<double>&
NormalQuantiles()
{
    static const std::vector<double> table = [] {
        std::vector<double> t(TABLESIZE + 1, 0.0);
        for (double x = -10.0; x < 10.05; x += .00005)
        {
            const double cdf = .5 + .5 * std::erf((x - 0.0) / (std::sqrt(2.0) * 1.0));
            const int i = static_cast<int>(std::rint(TABLESIZE * cdf));
            t[i] = x;
        }
        return t;
    }();
    return table;
}

/// @param value an entry @return it clipped to s16, as the generators clip
int16_t
ClipToS16(int value)
{
    return static_cast<int16_t>(std::clamp(value, SHRT_MIN, SHRT_MAX));
}

/**
 * paretovalue() of netem/paretonormal.c (and the loop of netem/pareto.c): the Pareto
 * (shape 3) quantile at u = (65536 - 4 i) / 65536, shifted by its mean 1.5 and scaled by
 * (4/3) NETEM_DIST_SCALE, clipped above at 32767.
 * @param i the table point, 0 to TABLESIZE - 4 in steps of 4
 * @return the entry
 */
int
ParetoValue(int i)
{
    const double a = 3.0;
    double value = static_cast<double>(65536 - 4 * i) / 65536.0;
    value = 1.0 / std::pow(value, 1.0 / a);
    value -= 1.5;
    value *= (4.0 / 3.0) * static_cast<double>(NETEM_DIST_SCALE);
    if (value > 32767)
    {
        value = 32767;
    }
    return static_cast<int>(std::rint(value));
}

/// @param distribution a table with entries @return the table, generated
std::vector<int16_t>
MakeTable(NetemDistribution distribution)
{
    std::vector<int16_t> table;
    const std::vector<double>& normal = NormalQuantiles();
    for (int i = 0; i < TABLESIZE; i += 4)
    {
        const int normalValue = static_cast<int>(std::rint(normal[i] * NETEM_DIST_SCALE));
        switch (distribution)
        {
        case NetemDistribution::NORMAL:
            table.push_back(ClipToS16(normalValue));
            break;
        case NetemDistribution::PARETO:
            table.push_back(ClipToS16(ParetoValue(i)));
            break;
        case NetemDistribution::PARETONORMAL:
            // (normvalue + 3 * parvalue) / 4 in int arithmetic, truncating toward zero.
            table.push_back(ClipToS16((normalValue + 3 * ParetoValue(i)) / 4));
            break;
        case NetemDistribution::UNIFORM:
            return table;
        }
    }
    return table;
}

} // namespace

uint32_t
NetemGetCrandom(NetemCorrelation* state, Prandom& prng)
{
    if (!state || state->rho == 0)
    {
        return prng.Next(); // no correlation
    }
    const uint64_t value = prng.Next();
    const uint64_t rho = static_cast<uint64_t>(state->rho) + 1;
    // At most (2^32 - 1) 2^32: no overflow in 64 bits.
    const auto answer =
        static_cast<uint32_t>((value * ((uint64_t{1} << 32) - rho) + state->last * rho) >> 32);
    state->last = answer;
    return answer;
}

const std::vector<int16_t>&
NetemDistTable(NetemDistribution distribution)
{
    static const std::vector<int16_t> none;
    static const std::vector<int16_t> normal = MakeTable(NetemDistribution::NORMAL);
    static const std::vector<int16_t> pareto = MakeTable(NetemDistribution::PARETO);
    static const std::vector<int16_t> paretonormal = MakeTable(NetemDistribution::PARETONORMAL);
    switch (distribution)
    {
    case NetemDistribution::NORMAL:
        return normal;
    case NetemDistribution::PARETO:
        return pareto;
    case NetemDistribution::PARETONORMAL:
        return paretonormal;
    case NetemDistribution::UNIFORM:
        break;
    }
    return none;
}

int64_t
NetemTabledist(int64_t mu,
               int32_t sigma,
               NetemCorrelation* state,
               Prandom& prng,
               const std::vector<int16_t>* table)
{
    if (sigma == 0)
    {
        return mu;
    }
    const uint32_t rnd = NetemGetCrandom(state, prng);
    if (!table || table->empty())
    {
        // The default uniform distribution.
        return (static_cast<int64_t>(rnd % (2 * static_cast<uint32_t>(sigma))) + mu) - sigma;
    }
    const int64_t t = (*table)[rnd % table->size()];
    int64_t x = static_cast<int64_t>(sigma % NETEM_DIST_SCALE) * t;
    x += x >= 0 ? NETEM_DIST_SCALE / 2 : -NETEM_DIST_SCALE / 2;
    return x / NETEM_DIST_SCALE + static_cast<int64_t>(sigma / NETEM_DIST_SCALE) * t + mu;
}

uint64_t
NetemPacketTimeNs(uint64_t len,
                  uint64_t rate,
                  int32_t packetOverhead,
                  uint32_t cellSize,
                  int32_t cellOverhead)
{
    int64_t bytes = std::max<int64_t>(static_cast<int64_t>(len) + packetOverhead, 0);
    if (cellSize != 0)
    {
        uint64_t cells = static_cast<uint64_t>(bytes) / cellSize;
        if (static_cast<uint64_t>(bytes) > cells * cellSize)
        {
            cells++; // an extra cell for the remainder
        }
        const int64_t perCell = std::max<int64_t>(int64_t{cellSize} + cellOverhead, 0);
        bytes = static_cast<int64_t>(cells) * perCell;
    }
    return static_cast<uint64_t>(static_cast<Uint128>(bytes) * 1000000000U / rate);
}

bool
NetemLoss4State(const NetemConfig& config, Netem4State& state, Prandom& prng)
{
    const uint64_t rnd = prng.Next();
    switch (state)
    {
    case Netem4State::TX_IN_GAP:
        if (rnd < config.p14)
        {
            state = Netem4State::LOST_IN_GAP;
            return true;
        }
        if (rnd < uint64_t{config.p13} + config.p14)
        {
            state = Netem4State::LOST_IN_BURST;
            return true;
        }
        return false;
    case Netem4State::TX_IN_BURST:
        if (rnd < config.p23)
        {
            state = Netem4State::LOST_IN_BURST;
            return true;
        }
        return false;
    case Netem4State::LOST_IN_BURST:
        if (rnd < config.p32)
        {
            state = Netem4State::TX_IN_BURST;
            return false;
        }
        if (rnd < uint64_t{config.p31} + config.p32)
        {
            state = Netem4State::TX_IN_GAP;
            return false;
        }
        return true;
    case Netem4State::LOST_IN_GAP:
        state = Netem4State::TX_IN_GAP;
        return false;
    }
    return false;
}

bool
NetemLossGilbElliott(const NetemConfig& config, NetemGeState& state, Prandom& prng)
{
    if (state == NetemGeState::GOOD)
    {
        if (prng.Next() < config.geP)
        {
            state = NetemGeState::BAD;
        }
        return prng.Next() < config.geK1;
    }
    if (prng.Next() < config.geR)
    {
        state = NetemGeState::GOOD;
    }
    return prng.Next() > config.geH;
}

uint32_t
NetemRandomBelow(uint32_t ceil, Prandom& generator)
{
    uint64_t mult = uint64_t{ceil} * generator.Next();
    if (static_cast<uint32_t>(mult) < ceil)
    {
        const uint32_t bound = (0U - ceil) % ceil;
        while (static_cast<uint32_t>(mult) < bound)
        {
            mult = uint64_t{ceil} * generator.Next();
        }
    }
    return static_cast<uint32_t>(mult >> 32);
}

NetemScheduler::NetemScheduler(const NetemConfig& config,
                               uint64_t seed,
                               uint64_t entropySeed,
                               int64_t nowNs)
    : m_config(config)
{
    ValidateNetemConfig(m_config);
    const std::vector<int16_t>& delay = NetemDistTable(m_config.distribution);
    const std::vector<int16_t>& slot = NetemDistTable(m_config.slotDistribution);
    m_delayDist = delay.empty() ? nullptr : &delay;
    m_slotDist = slot.empty() ? nullptr : &slot;
    // netem_init(): prandom_seed_state() from get_random_u64(), or tc's seed (netem_change()).
    m_prng.Seed(m_config.seed.value_or(seed));
    m_entropy.Seed(entropySeed);
    // init_crandom(): rho from tc, last from get_random_u32().
    auto init = [this](NetemCorrelation& state, uint32_t rho) {
        state.rho = rho;
        state.last = m_entropy.Next();
    };
    init(m_delayCor, m_config.delayCorr);
    init(m_lossCor, m_config.lossCorr);
    init(m_dupCor, m_config.dupCorr);
    init(m_reorderCor, m_config.reorderCorr);
    init(m_corruptCor, m_config.corruptCorr);
    // get_slot(): 0 packets or bytes is unlimited (INT_MAX); the first slot opens now.
    m_slotsOn = m_config.SlotsOn();
    m_packetsLeft = m_config.slotPackets ? m_config.slotPackets : INT32_MAX;
    m_bytesLeft = m_config.slotBytes ? m_config.slotBytes : INT32_MAX;
    m_slotNext = m_slotsOn ? nowNs : 0;
}

const NetemConfig&
NetemScheduler::GetConfig() const
{
    return m_config;
}

bool
NetemScheduler::DrawDuplicate()
{
    return m_config.duplicate != 0 && m_config.duplicate >= NetemGetCrandom(&m_dupCor, m_prng);
}

bool
NetemScheduler::DrawLoss()
{
    // loss_event().
    switch (m_config.lossModel)
    {
    case NetemLossModel::RANDOM:
        // Random packet drop: 0 => none, ~0 => all.
        return m_config.loss != 0 && m_config.loss >= NetemGetCrandom(&m_lossCor, m_prng);
    case NetemLossModel::STATE:
        return NetemLoss4State(m_config, m_4state, m_prng);
    case NetemLossModel::GEMODEL:
        return NetemLossGilbElliott(m_config, m_geState, m_prng);
    }
    return false;
}

bool
NetemScheduler::DrawCorrupt()
{
    return m_config.corrupt != 0 && m_config.corrupt >= NetemGetCrandom(&m_corruptCor, m_prng);
}

Prandom&
NetemScheduler::GetEntropy()
{
    return m_entropy;
}

bool
NetemScheduler::IsFull(uint32_t qlen) const
{
    return qlen >= m_config.limit;
}

int64_t
NetemScheduler::Insert(Handle handle, uint32_t len, int64_t nowNs)
{
    Entry entry{nowNs, m_order++, handle, len};
    if (m_config.gap == 0 ||            // not reordering
        m_counter < m_config.gap - 1 || // inside the last reordering gap
        m_config.reorder < NetemGetCrandom(&m_reorderCor, m_prng))
    {
        int64_t delay = NetemTabledist(static_cast<int64_t>(m_config.latencyNs),
                                       static_cast<int32_t>(m_config.jitterNs),
                                       &m_delayCor,
                                       m_prng,
                                       m_delayDist);
        int64_t now = nowNs;
        if (m_config.rate != 0)
        {
            if (const std::optional<int64_t> last = LastTimeToSend())
            {
                // The last packet queued is the reference point: the delay it still has
                // counts against this one's.
                delay -= *last - now;
                delay = std::max<int64_t>(0, delay);
                now = *last;
            }
            delay += static_cast<int64_t>(NetemPacketTimeNs(len,
                                                            m_config.rate,
                                                            m_config.packetOverhead,
                                                            m_config.cellSize,
                                                            m_config.cellOverhead));
        }
        entry.timeToSend = now + delay;
        ++m_counter;
        TfifoEnqueue(entry);
        m_stats.delayed++;
    }
    else
    {
        // Reordering: one out of N packets goes to the front of the queue, to leave now.
        m_counter = 0;
        m_reordered.push_front(entry);
        m_stats.reordered++;
    }
    return entry.timeToSend;
}

void
NetemScheduler::TfifoEnqueue(const Entry& entry)
{
    if (m_linear.empty() || entry.timeToSend >= m_linear.back().timeToSend)
    {
        m_linear.push_back(entry);
        return;
    }
    m_heapLast = m_heap.empty() ? entry.timeToSend : std::max(m_heapLast, entry.timeToSend);
    m_heap.push_back(entry);
    std::push_heap(m_heap.begin(), m_heap.end(), Later());
}

std::optional<int64_t>
NetemScheduler::LastTimeToSend() const
{
    // netem_enqueue(): sch->q.tail, then the rbtree's last, then t_tail, the latest winning.
    std::optional<int64_t> last;
    auto consider = [&last](int64_t time) {
        if (!last || time > *last)
        {
            last = time;
        }
    };
    if (!m_reordered.empty())
    {
        consider(m_reordered.back().timeToSend);
    }
    if (!m_heap.empty())
    {
        consider(m_heapLast);
    }
    if (!m_linear.empty())
    {
        consider(m_linear.back().timeToSend);
    }
    return last;
}

const NetemScheduler::Entry*
NetemScheduler::Peek() const
{
    if (m_heap.empty())
    {
        return m_linear.empty() ? nullptr : &m_linear.front();
    }
    if (m_linear.empty())
    {
        return &m_heap.front();
    }
    // The heap's head leaves first only when strictly earlier (netem_peek()).
    return m_heap.front().timeToSend < m_linear.front().timeToSend ? &m_heap.front()
                                                                   : &m_linear.front();
}

void
NetemScheduler::EraseHead()
{
    if (!m_linear.empty() &&
        (m_heap.empty() || m_heap.front().timeToSend >= m_linear.front().timeToSend))
    {
        m_linear.pop_front();
        return;
    }
    std::pop_heap(m_heap.begin(), m_heap.end(), Later());
    m_heap.pop_back();
}

void
NetemScheduler::GetSlotNext(int64_t nowNs)
{
    int64_t nextDelay = 0;
    if (!m_slotDist)
    {
        // mul_u64_u32_shr(max - min, get_random_u32(), 32).
        const uint64_t span = m_config.slotMaxNs - m_config.slotMinNs;
        nextDelay = static_cast<int64_t>(
            m_config.slotMinNs +
            static_cast<uint64_t>((static_cast<Uint128>(span) * m_entropy.Next()) >> 32));
    }
    else
    {
        nextDelay = NetemTabledist(static_cast<int64_t>(m_config.slotDelayNs),
                                   static_cast<int32_t>(m_config.slotJitterNs),
                                   nullptr,
                                   m_prng,
                                   m_slotDist);
    }
    m_slotNext = nowNs + nextDelay;
    m_packetsLeft = m_config.slotPackets ? m_config.slotPackets : INT32_MAX;
    m_bytesLeft = m_config.slotBytes ? m_config.slotBytes : INT32_MAX;
}

std::optional<NetemScheduler::Handle>
NetemScheduler::Dequeue(int64_t nowNs)
{
    if (!m_reordered.empty())
    {
        const Handle handle = m_reordered.front().handle;
        m_reordered.pop_front();
        return handle;
    }
    const Entry* head = Peek();
    if (!head)
    {
        return std::nullopt;
    }
    const int64_t timeToSend = head->timeToSend;
    if (m_slotsOn && m_slotNext < timeToSend)
    {
        // The slot opened before this packet was due: a new one starts from now.
        GetSlotNext(nowNs);
    }
    if (timeToSend <= nowNs && (!m_slotsOn || m_slotNext <= nowNs))
    {
        const Entry entry = *head;
        EraseHead();
        if (m_slotsOn)
        {
            m_packetsLeft--;
            m_bytesLeft -= entry.len;
            if (m_packetsLeft <= 0 || m_bytesLeft <= 0)
            {
                GetSlotNext(nowNs);
            }
        }
        return entry.handle;
    }
    m_watchdog = m_slotsOn ? std::max(timeToSend, m_slotNext) : timeToSend;
    return std::nullopt;
}

std::optional<int64_t>
NetemScheduler::TakeWatchdog()
{
    std::optional<int64_t> at = m_watchdog;
    m_watchdog.reset();
    return at;
}

uint32_t
NetemScheduler::GetQlen() const
{
    return static_cast<uint32_t>(m_linear.size() + m_heap.size() + m_reordered.size());
}

NetemStats&
NetemScheduler::GetStats()
{
    return m_stats;
}

int64_t
NetemScheduler::GetSlotNext() const
{
    return m_slotNext;
}

} // namespace debloat
} // namespace ns3
