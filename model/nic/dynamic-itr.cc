/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows e1000_update_itr() and e1000_set_itr() (drivers/net/ethernet/intel/e1000e/netdev.c)
 * and igb_update_ring_itr(), igb_update_itr() and igb_set_itr()
 * (drivers/net/ethernet/intel/igb/igb_main.c), and ixgbe_update_itr() and ixgbe_set_itr()
 * (drivers/net/ethernet/intel/ixgbe/ixgbe_main.c, Linux 6.9).
 */

#include "dynamic-itr.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

namespace
{
/// e1000e's starting rate for the dynamic modes, interrupts per second.
constexpr uint32_t E1000E_START_RATE = 20000;
/// IGB_START_ITR (about 6000 interrupts per second).
constexpr uint32_t IGB_START_ITR = 648;
/// IGB_20K_ITR.
constexpr uint32_t IGB_20K_ITR = 196;
/// IGB_4K_ITR.
constexpr uint32_t IGB_4K_ITR = 980;
/// IGB_70K_ITR.
constexpr uint32_t IGB_70K_ITR = 56;
/// e1000_update_itr(): bulk latency becomes low latency below this many bytes.
constexpr uint64_t E1000E_BULK_TO_LOW_BYTES = 6000;
/// igb_update_itr(): bulk latency becomes low latency below this many bytes.
constexpr uint64_t IGB_BULK_TO_LOW_BYTES = 1500;
/// IXGBE_20K_ITR: a vector with an RX ring starts at 50 us (usecs << 2).
constexpr uint32_t IXGBE_20K_ITR = 200;
/// IXGBE_ITR_ADAPTIVE_MIN_INC, usecs.
constexpr uint32_t IXGBE_ITR_ADAPTIVE_MIN_INC = 2;
/// IXGBE_ITR_ADAPTIVE_MIN_USECS.
constexpr uint32_t IXGBE_ITR_ADAPTIVE_MIN_USECS = 10;
/// IXGBE_ITR_ADAPTIVE_MAX_USECS.
constexpr uint32_t IXGBE_ITR_ADAPTIVE_MAX_USECS = 126;
/// IXGBE_ITR_ADAPTIVE_LATENCY: the container's latency-mode flag.
constexpr uint32_t IXGBE_ITR_ADAPTIVE_LATENCY = 0x80;
/// IXGBE_ITR_ADAPTIVE_BULK.
constexpr uint32_t IXGBE_ITR_ADAPTIVE_BULK = 0x00;
/// IXGBE_MAX_EITR: the EITR interval field.
constexpr uint32_t IXGBE_MAX_EITR = 0x00000FF8;
/// CONFIG_HZ the jiffies of ixgbe_update_itr() count in (the module's BQL default too).
constexpr int64_t JIFFY_NS = 1000000;
} // namespace

bool
DynamicItr::Parse(const std::string& name, Mode& mode)
{
    if (name == "none")
    {
        mode = Mode::NONE;
    }
    else if (name == "e1000e")
    {
        mode = Mode::E1000E;
    }
    else if (name == "e1000e-conservative")
    {
        mode = Mode::E1000E_CONSERVATIVE;
    }
    else if (name == "igb")
    {
        mode = Mode::IGB;
    }
    else if (name == "igb-conservative")
    {
        mode = Mode::IGB_CONSERVATIVE;
    }
    else if (name == "ixgbe")
    {
        mode = Mode::IXGBE;
    }
    else
    {
        return false;
    }
    return true;
}

DynamicItr::DynamicItr(Mode mode, uint64_t linkBps, bool singleVector)
    : m_mode(mode),
      m_linkBps(linkBps),
      m_gigabit(linkBps >= 1000000000),
      m_singleVector(singleVector),
      // ixgbe_alloc_q_vector(): both containers start at the longest latency-mode value.
      m_ixgbeTx{IXGBE_ITR_ADAPTIVE_MAX_USECS | IXGBE_ITR_ADAPTIVE_LATENCY, 0},
      m_ixgbeRx{IXGBE_ITR_ADAPTIVE_MAX_USECS | IXGBE_ITR_ADAPTIVE_LATENCY, 0}
{
    if (mode == Mode::IXGBE)
    {
        // A vector with an RX ring (ixgbe pairs a TX and an RX ring per vector) starts at
        // IXGBE_20K_ITR.
        m_itr = IXGBE_20K_ITR;
        m_pendingItr = m_itr;
        m_interval = IxgbeInterval(m_itr);
        return;
    }
    const bool igb = mode == Mode::IGB || mode == Mode::IGB_CONSERVATIVE;
    if (igb)
    {
        // igb_alloc_q_vector() zeroes the q_vector: both ring containers start at class 0,
        // lowest_latency.
        m_txClass = LOWEST_LATENCY;
        m_rxClass = LOWEST_LATENCY;
    }
    m_itr = igb ? IGB_START_ITR : E1000E_START_RATE;
    m_pendingItr = m_itr;
    m_interval = mode == Mode::NONE ? 0 : (igb ? IgbInterval(m_itr) : E1000eInterval(m_itr));
}

DynamicItr::Mode
DynamicItr::GetMode() const
{
    return m_mode;
}

void
DynamicItr::CountTx(uint32_t packets, uint64_t bytes)
{
    m_txPackets += packets;
    m_txBytes += bytes;
}

void
DynamicItr::CountRx(uint32_t packets, uint64_t bytes)
{
    m_rxPackets += packets;
    m_rxBytes += bytes;
}

void
DynamicItr::OnInterrupt()
{
    switch (m_mode)
    {
    case Mode::E1000E:
    case Mode::E1000E_CONSERVATIVE:
        // e1000_intr_msi(): the totals restart at every interrupt.
        m_txPackets = m_txBytes = m_rxPackets = m_rxBytes = 0;
        break;
    case Mode::IGB:
    case Mode::IGB_CONSERVATIVE:
        // igb_write_itr() at the start of the interrupt.
        m_itr = m_pendingItr;
        m_interval = IgbInterval(m_itr);
        break;
    case Mode::IXGBE: // ixgbe_set_itr() writes EITR at the poll's end
    case Mode::NONE:
        break;
    }
}

void
DynamicItr::OnPollComplete(int64_t now)
{
    switch (m_mode)
    {
    case Mode::E1000E:
    case Mode::E1000E_CONSERVATIVE:
        SetE1000eItr();
        break;
    case Mode::IGB:
    case Mode::IGB_CONSERVATIVE:
        // igb_ring_irq_enable(): a single q_vector takes igb_set_itr(), several take
        // igb_update_ring_itr().
        if (m_singleVector)
        {
            SetIgbItr();
        }
        else
        {
            UpdateIgbItr();
        }
        break;
    case Mode::IXGBE:
        SetIxgbeItr(now);
        break;
    case Mode::NONE:
        break;
    }
}

int64_t
DynamicItr::GetInterval() const
{
    return m_interval;
}

DynamicItr::Latency
DynamicItr::UpdateClass(Latency current, uint64_t packets, uint64_t bytes, uint64_t bulkToLowBytes)
{
    if (packets == 0)
    {
        return current;
    }
    const uint64_t perPacket = bytes / packets;
    switch (current)
    {
    case LOWEST_LATENCY:
        if (perPacket > 8000)
        {
            return BULK_LATENCY;
        }
        if (packets < 5 && bytes > 512)
        {
            return LOW_LATENCY;
        }
        break;
    case LOW_LATENCY:
        if (bytes > 10000)
        {
            if (perPacket > 8000 || packets < 10 || perPacket > 1200)
            {
                return BULK_LATENCY;
            }
            if (packets > 35)
            {
                return LOWEST_LATENCY;
            }
        }
        else if (perPacket > 2000)
        {
            return BULK_LATENCY;
        }
        else if (packets <= 2 && bytes < 512)
        {
            return LOWEST_LATENCY;
        }
        break;
    case BULK_LATENCY:
        if (bytes > 25000)
        {
            if (packets > 35)
            {
                return LOW_LATENCY;
            }
        }
        else if (bytes < bulkToLowBytes)
        {
            return LOW_LATENCY;
        }
        break;
    }
    return current;
}

void
DynamicItr::SetE1000eItr()
{
    uint32_t newRate = m_itr;
    if (!m_gigabit)
    {
        newRate = 4000;
    }
    else
    {
        const bool conservative = m_mode == Mode::E1000E_CONSERVATIVE;
        m_txClass = UpdateClass(m_txClass, m_txPackets, m_txBytes, E1000E_BULK_TO_LOW_BYTES);
        if (conservative && m_txClass == LOWEST_LATENCY)
        {
            m_txClass = LOW_LATENCY;
        }
        m_rxClass = UpdateClass(m_rxClass, m_rxPackets, m_rxBytes, E1000E_BULK_TO_LOW_BYTES);
        if (conservative && m_rxClass == LOWEST_LATENCY)
        {
            m_rxClass = LOW_LATENCY;
        }
        switch (std::max(m_txClass, m_rxClass))
        {
        case LOWEST_LATENCY:
            newRate = 70000;
            break;
        case LOW_LATENCY:
            newRate = 20000;
            break;
        case BULK_LATENCY:
            newRate = 4000;
            break;
        }
    }
    if (newRate != m_itr)
    {
        // Rising rates step up by a quarter of the target, biasing towards bulk.
        m_itr = newRate > m_itr ? std::min(m_itr + (newRate >> 2), newRate) : newRate;
        m_interval = E1000eInterval(m_itr);
    }
}

void
DynamicItr::UpdateIgbItr()
{
    uint32_t newVal = m_pendingItr;
    if (!m_gigabit)
    {
        newVal = IGB_4K_ITR;
    }
    else
    {
        uint64_t avgWireSize = 0;
        if (m_rxPackets != 0)
        {
            avgWireSize = m_rxBytes / m_rxPackets;
        }
        if (m_txPackets != 0)
        {
            avgWireSize = std::max(avgWireSize, m_txBytes / m_txPackets);
        }
        if (avgWireSize == 0)
        {
            return; // no work was done: keep the value and the (empty) counts
        }
        avgWireSize = std::min<uint64_t>(avgWireSize + 24, 3000);
        newVal = static_cast<uint32_t>(avgWireSize > 300 && avgWireSize < 1200 ? avgWireSize / 3
                                                                               : avgWireSize / 2);
        if (newVal < IGB_20K_ITR && m_mode == Mode::IGB_CONSERVATIVE)
        {
            newVal = IGB_20K_ITR;
        }
    }
    m_pendingItr = newVal;
    m_txPackets = m_txBytes = m_rxPackets = m_rxBytes = 0;
}

void
DynamicItr::SetIgbItr()
{
    uint32_t newItr = m_pendingItr;
    if (!m_gigabit)
    {
        newItr = IGB_4K_ITR; // the counts are left as they are, as igb_set_itr() leaves them
    }
    else
    {
        m_txClass = UpdateClass(m_txClass, m_txPackets, m_txBytes, IGB_BULK_TO_LOW_BYTES);
        m_rxClass = UpdateClass(m_rxClass, m_rxPackets, m_rxBytes, IGB_BULK_TO_LOW_BYTES);
        m_txPackets = m_txBytes = m_rxPackets = m_rxBytes = 0;
        Latency current = std::max(m_txClass, m_rxClass);
        // The conservative mode (itr_setting 3) turns lowest latency into low latency for
        // this choice only: unlike e1000e, the directions keep lowest_latency.
        if (current == LOWEST_LATENCY && m_mode == Mode::IGB_CONSERVATIVE)
        {
            current = LOW_LATENCY;
        }
        switch (current)
        {
        case LOWEST_LATENCY:
            newItr = IGB_70K_ITR;
            break;
        case LOW_LATENCY:
            newItr = IGB_20K_ITR;
            break;
        case BULK_LATENCY:
            newItr = IGB_4K_ITR;
            break;
        }
    }
    if (newItr != m_pendingItr)
    {
        // The kernel's step towards a longer interval: max(new * old / (new + old / 4), new).
        // For new > old the quotient is below new, so the step is always the whole way.
        newItr = newItr > m_pendingItr
                     ? std::max(newItr * m_pendingItr / (newItr + (m_pendingItr >> 2)), newItr)
                     : newItr;
        m_pendingItr = newItr; // q_vector->set_itr: written at the next interrupt
    }
}

void
DynamicItr::UpdateIxgbeContainer(IxgbeContainer& container,
                                 uint64_t& packets,
                                 uint64_t& bytes,
                                 int64_t jiffies) const
{
    uint32_t itr = IXGBE_ITR_ADAPTIVE_MIN_USECS | IXGBE_ITR_ADAPTIVE_LATENCY;
    bool bySize = false;
    // More than a jiffy since the last update: too long to measure (time_after()).
    if (jiffies <= container.nextUpdate)
    {
        if (packets == 0)
        {
            // No work in this direction: lengthen the delay by the minimum step.
            itr = std::min((m_itr >> 2) + IXGBE_ITR_ADAPTIVE_MIN_INC, IXGBE_ITR_ADAPTIVE_MAX_USECS);
            itr += container.itr & IXGBE_ITR_ADAPTIVE_LATENCY;
        }
        else if (packets < 4 && bytes < 9000)
        {
            itr = IXGBE_ITR_ADAPTIVE_LATENCY; // latency driven: by size, halved
            bySize = true;
        }
        else if (packets < 48)
        {
            itr = std::min((m_itr >> 2) + IXGBE_ITR_ADAPTIVE_MIN_INC, IXGBE_ITR_ADAPTIVE_MAX_USECS);
        }
        else if (packets < 96)
        {
            itr = m_itr >> 2; // "goldilocks"
        }
        else if (packets < 256)
        {
            itr = std::max(m_itr >> 3, IXGBE_ITR_ADAPTIVE_MIN_USECS); // half the delay
        }
        else
        {
            itr = IXGBE_ITR_ADAPTIVE_BULK;
            bySize = true;
        }
    }
    if (bySize)
    {
        // The driver's approximation of wmem_default / (size + overhead) packets per interrupt.
        uint64_t avgWireSize = bytes / packets;
        if (avgWireSize <= 60)
        {
            avgWireSize = 5120;
        }
        else if (avgWireSize <= 316)
        {
            avgWireSize = avgWireSize * 40 + 2720;
        }
        else if (avgWireSize <= 1084)
        {
            avgWireSize = avgWireSize * 15 + 11452;
        }
        else if (avgWireSize < 1968)
        {
            avgWireSize = avgWireSize * 5 + 22420;
        }
        else
        {
            avgWireSize = 32256;
        }
        if (itr & IXGBE_ITR_ADAPTIVE_LATENCY)
        {
            avgWireSize >>= 1;
        }
        // IXGBE_LINK_SPEED_10GB_FULL, _100_FULL and the default divide by 256 increments;
        // 2.5G, 1G and 10M cap the size and divide by 64.
        uint64_t divisor = IXGBE_ITR_ADAPTIVE_MIN_INC * 256;
        if (m_linkBps == 2500000000ULL || m_linkBps == 1000000000ULL || m_linkBps == 10000000ULL)
        {
            avgWireSize = std::min<uint64_t>(avgWireSize, 8064);
            divisor = IXGBE_ITR_ADAPTIVE_MIN_INC * 64;
        }
        itr += static_cast<uint32_t>((avgWireSize + divisor - 1) / divisor) *
               IXGBE_ITR_ADAPTIVE_MIN_INC;
    }
    container.itr = itr;
    container.nextUpdate = jiffies + 1;
    packets = 0;
    bytes = 0;
}

void
DynamicItr::SetIxgbeItr(int64_t now)
{
    const int64_t jiffies = now / JIFFY_NS;
    UpdateIxgbeContainer(m_ixgbeTx, m_txPackets, m_txBytes, jiffies);
    UpdateIxgbeContainer(m_ixgbeRx, m_rxPackets, m_rxBytes, jiffies);
    // The smaller value wins, the latency flag still set (a latency-mode value compares as
    // 128 more than its usecs), then cleared and shifted into q_vector->itr's units.
    uint32_t newItr = std::min(m_ixgbeRx.itr, m_ixgbeTx.itr);
    newItr &= ~IXGBE_ITR_ADAPTIVE_LATENCY;
    newItr <<= 2;
    if (newItr != m_itr)
    {
        m_itr = newItr; // ixgbe_write_eitr(): applies at once
        m_interval = IxgbeInterval(m_itr);
    }
}

int64_t
DynamicItr::IxgbeInterval(uint32_t itr)
{
    // ixgbe_write_eitr(): itr & IXGBE_MAX_EITR, the interval in 2-us steps in bits 3 to 11,
    // that is usecs << 2.
    return static_cast<int64_t>((itr & IXGBE_MAX_EITR) >> 2) * 1000;
}

int64_t
DynamicItr::E1000eInterval(uint32_t rate)
{
    // e1000e_write_itr(): ITR = 10^9 / (rate * 256), counted in 256 ns.
    return rate == 0 ? 0 : static_cast<int64_t>(1000000000 / (rate * 256)) * 256;
}

int64_t
DynamicItr::IgbInterval(uint32_t itrVal)
{
    // igb_write_itr() writes itr_val & 0x7FFC: the interval in microseconds, in bits 2 to 14.
    return static_cast<int64_t>((itrVal & 0x7FFC) >> 2) * 1000;
}

} // namespace debloat
} // namespace ns3
