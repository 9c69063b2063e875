/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows e1000_update_itr() and e1000_set_itr() (drivers/net/ethernet/intel/e1000e/netdev.c)
 * and igb_update_ring_itr(), igb_update_itr() and igb_set_itr()
 * (drivers/net/ethernet/intel/igb/igb_main.c).
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
    else
    {
        return false;
    }
    return true;
}

DynamicItr::DynamicItr(Mode mode, bool gigabit, bool singleVector)
    : m_mode(mode),
      m_gigabit(gigabit),
      m_singleVector(singleVector)
{
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
    case Mode::NONE:
        break;
    }
}

void
DynamicItr::OnPollComplete()
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
