/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-driver.h"

#include <algorithm>
#include <sstream>

namespace ns3
{
namespace debloat
{

NicDriver::NicDriver() = default;

void
NicDriver::Configure(const Config& config)
{
    m_config = config;
    const uint32_t rate = config.interruptRate;
    // The throttle's minimum interval between interrupts: 1 s / rate, as the ITR registers
    // are programmed from ints/s.
    const int64_t minInterval = rate == 0 ? 0 : static_cast<int64_t>(1000000000 / rate);
    m_txQueues.clear();
    m_rxQueues.clear();
    m_vectors.clear();
    m_txQueues.assign(config.txQueues, TxQueue(config.txRingSize));
    m_rxQueues.assign(config.rxQueues, RxQueue(config.rxRingSize));
    const uint32_t vectors = std::max(config.txQueues, config.rxQueues);
    m_vectors.resize(vectors);
    for (uint32_t i = 0; i < vectors; i++)
    {
        InterruptModeration::Config tx = config.txIrq;
        tx.minInterval = minInterval;
        InterruptModeration::Config rx = config.rxIrq;
        rx.minInterval = minInterval;
        m_vectors[i].txIrq.SetConfig(tx);
        m_vectors[i].rxIrq.SetConfig(rx);
        // igb_ring_irq_enable(): igb_set_itr() when the adapter has a single q_vector.
        m_vectors[i].itr = DynamicItr(config.itrMode, config.linkBps, vectors == 1);
        ApplyItr(i);
    }
    m_wireBusy = false;
    m_nextTxQueue = 0;
}

const NicDriver::Config&
NicDriver::GetConfig() const
{
    return m_config;
}

std::string
NicDriver::Validate(const Config& config,
                    uint32_t maxLength,
                    uint32_t gsoMaxSize,
                    uint32_t gsoMaxSegs)
{
    std::ostringstream os;
    const uint32_t stop = config.txStopThreshold;
    const uint32_t wake = config.txWakeThreshold;
    const uint32_t size = config.txRingSize;
    const uint32_t gap = config.txRingGap;
    if (config.txQueues < 1 || config.txQueues > 64)
    {
        os << "TxQueues=" << config.txQueues << " is out of range; accepted 1 to 64";
    }
    else if (config.rxQueues < 1 || config.rxQueues > 64)
    {
        os << "RxQueues=" << config.rxQueues << " is out of range; accepted 1 to 64";
    }
    else if (gap > 1)
    {
        os << "TxRingGap=" << gap << " is out of range; accepted 0 or 1";
    }
    else if (size > MAX_RING_SIZE)
    {
        os << "TxRingSize=" << size << " is out of range; accepted up to " << MAX_RING_SIZE;
    }
    else if (config.rxRingSize > MAX_RING_SIZE)
    {
        os << "RxRingSize=" << config.rxRingSize << " is out of range; accepted 1 to "
           << MAX_RING_SIZE;
    }
    else if (config.txMaxDataPerDescriptor == 0)
    {
        os << "TxMaxDataPerDescriptor must be at least 1 byte";
    }
    else
    {
        const uint32_t worst = WorstCaseDescriptors(config, maxLength, gsoMaxSize, gsoMaxSegs);
        if (stop < worst)
        {
            os << "TxStopThreshold=" << stop << " is below the " << worst
               << " descriptors of a worst-case packet; accepted " << worst
               << " to TxWakeThreshold";
        }
        else if (wake < stop)
        {
            os << "TxWakeThreshold=" << wake << " is below TxStopThreshold=" << stop
               << "; accepted TxStopThreshold to TxRingSize";
        }
        else if (size < stop + worst + gap || wake + gap > size)
        {
            os << "TxRingSize=" << size << " cannot hold a worst-case packet (" << worst
               << " descriptors) above the stop threshold (" << stop
               << ") and reach the wake threshold (" << wake << ")"
               << (gap ? " with TxRingGap=" + std::to_string(gap) : "") << "; accepted "
               << std::max(stop + worst, wake) + gap << " or more";
        }
        else if (config.rxRingSize == 0)
        {
            os << "RxRingSize=0 is out of range; accepted 1 to " << MAX_RING_SIZE;
        }
        else if (config.txWorkLimit == 0)
        {
            os << "TxWorkLimit=0 is out of range; accepted 1 or more";
        }
        else if (config.napiWeight == 0)
        {
            os << "NapiWeight=0 is out of range; accepted 1 or more";
        }
    }
    return os.str();
}

uint32_t
NicDriver::GetNTxQueues() const
{
    return static_cast<uint32_t>(m_txQueues.size());
}

const NicDriver::Ring&
NicDriver::GetTxRing(uint32_t queue) const
{
    return m_txQueues[queue].ring;
}

uint32_t
NicDriver::GetNRxQueues() const
{
    return static_cast<uint32_t>(m_rxQueues.size());
}

uint32_t
NicDriver::GetNVectors() const
{
    return static_cast<uint32_t>(m_vectors.size());
}

const NicDriver::Ring&
NicDriver::GetRxRing(uint32_t queue) const
{
    return m_rxQueues[queue].ring;
}

bool
NicDriver::IsStopped(uint32_t queue) const
{
    return m_txQueues[queue].stopped;
}

uint32_t
NicDriver::HalfStopWakeThreshold(uint32_t size, uint32_t gap, uint32_t stopThreshold)
{
    // The queue stops at stopUsed used descriptors: the first count that leaves fewer than
    // stopThreshold of the usable ones free.
    const uint32_t usable = size > gap ? size - gap : 0;
    const uint32_t reserve = stopThreshold > 0 ? stopThreshold - 1 : 0;
    const uint32_t stopUsed = usable > reserve ? usable - reserve : 0;
    return usable - stopUsed / 2;
}

uint32_t
NicDriver::CountTxDescriptors(uint32_t length, uint32_t maxData, bool context)
{
    const uint32_t data = (length + maxData - 1) / maxData;
    return std::max(data, 1U) + (context ? 1 : 0);
}

uint32_t
NicDriver::CountTxDescriptors(const Config& config, const TxPacket& packet)
{
    const uint32_t maxData = config.txMaxDataPerDescriptor;
    if (packet.segs <= 1 || config.tso != Tso::DRIVER)
    {
        return CountTxDescriptors(packet.length, maxData, config.txContextDescriptor);
    }
    // mvneta_tx_tso(): each frame's headers from the TSO header buffer in one descriptor,
    // its payload in descriptors of at most the data limit.
    const uint32_t payload = packet.length - packet.headerLength;
    const uint32_t full = packet.segs - 1;
    const uint32_t last = payload - full * packet.gsoSize;
    auto perFrame = [maxData](uint32_t bytes) {
        return 1 + std::max(1U, (bytes + maxData - 1) / maxData);
    };
    return full * perFrame(packet.gsoSize) + perFrame(last);
}

uint32_t
NicDriver::GetTxBytes(const Config& config, const TxPacket& packet)
{
    if (packet.segs <= 1 || !config.tsoBytesPerFrame)
    {
        return packet.length;
    }
    return packet.length + (packet.segs - 1) * packet.headerLength;
}

uint32_t
NicDriver::WorstCaseDescriptors(const Config& config,
                                uint32_t maxLength,
                                uint32_t gsoMaxSize,
                                uint32_t gsoMaxSegs)
{
    const uint32_t frame =
        CountTxDescriptors(maxLength, config.txMaxDataPerDescriptor, config.txContextDescriptor);
    if (config.tso == Tso::NONE || gsoMaxSize == 0)
    {
        return frame;
    }
    if (config.tso == Tso::HARDWARE)
    {
        return std::max(frame,
                        CountTxDescriptors(gsoMaxSize,
                                           config.txMaxDataPerDescriptor,
                                           config.txContextDescriptor));
    }
    // Driver TSO: every frame full (a header descriptor and a full frame's payload), as many
    // as gso_max_segs and gso_max_size allow.
    const uint32_t frames = std::max(1U, std::min(gsoMaxSegs, gsoMaxSize));
    const uint32_t maxData = config.txMaxDataPerDescriptor;
    return std::max(frame, frames * (1 + (maxLength + maxData - 1) / maxData));
}

int64_t
NicDriver::GetWireTime(uint32_t length,
                       uint32_t minFrame,
                       uint32_t l1Overhead,
                       uint64_t bitRate,
                       bool atmCells)
{
    uint64_t bytes = static_cast<uint64_t>(std::max(length, minFrame)) + l1Overhead;
    if (atmCells)
    {
        bytes = (bytes + 47) / 48 * 53; // 48 bytes of payload per 53-byte cell
    }
    const uint64_t bits = 8 * bytes;
    // Nanoseconds rounded to nearest: exact at 10 Mbit/s to 1 Gbit/s.
    return static_cast<int64_t>((bits * 1000000000 + bitRate / 2) / bitRate);
}

bool
NicDriver::Post(Ring& ring,
                uint32_t& nextSlot,
                uint32_t descriptors,
                uint32_t length,
                uint32_t& slot)
{
    if (!ring.Post(nextSlot, descriptors, length))
    {
        return false;
    }
    // The ring fills its slots in order and never holds more packets than slots, so the
    // slot of a post is the post count modulo the ring size.
    slot = nextSlot;
    nextSlot = (nextSlot + 1) % ring.GetSize();
    return true;
}

uint32_t
NicDriver::GetTxUnused(uint32_t queue) const
{
    const uint32_t unused = m_txQueues[queue].ring.GetUnused();
    return unused > m_config.txRingGap ? unused - m_config.txRingGap : 0;
}

bool
NicDriver::PostTx(uint32_t queue, uint32_t length, uint32_t& slot)
{
    TxQueue& txq = m_txQueues[queue];
    const uint32_t descriptors =
        CountTxDescriptors(length, m_config.txMaxDataPerDescriptor, m_config.txContextDescriptor);
    // The gap is never filled: a post that would need it is refused (TX_RING_FULL).
    return descriptors <= GetTxUnused(queue) &&
           Post(txq.ring, txq.nextSlot, descriptors, length, slot);
}

bool
NicDriver::PostTx(uint32_t queue, const TxPacket& packet, uint32_t& slot)
{
    TxQueue& txq = m_txQueues[queue];
    const uint32_t descriptors = CountTxDescriptors(m_config, packet);
    return descriptors <= GetTxUnused(queue) &&
           Post(txq.ring, txq.nextSlot, descriptors, GetTxBytes(m_config, packet), slot);
}

bool
NicDriver::MaybeStop(uint32_t queue)
{
    TxQueue& txq = m_txQueues[queue];
    if (GetTxUnused(queue) < m_config.txStopThreshold && !txq.stopped)
    {
        txq.stopped = true;
        return true;
    }
    return false;
}

bool
NicDriver::IsWireBusy() const
{
    return m_wireBusy;
}

NicDriver::Frame
NicDriver::StartFrame()
{
    Frame frame;
    if (m_wireBusy)
    {
        return frame;
    }
    const auto n = static_cast<uint32_t>(m_txQueues.size());
    for (uint32_t k = 0; k < n; k++)
    {
        const uint32_t queue = (m_nextTxQueue + k) % n;
        Ring& ring = m_txQueues[queue].ring;
        if (ring.GetPending() == 0)
        {
            continue;
        }
        m_nextTxQueue = (queue + 1) % n;
        frame.started = true;
        frame.queue = queue;
        frame.slot = ring.Fetch();
        m_wireBusy = true;
        return frame;
    }
    return frame;
}

void
NicDriver::WireIdle()
{
    m_wireBusy = false;
}

bool
NicDriver::TxDone(uint32_t queue, int64_t now)
{
    if (m_config.completionAtTxStart)
    {
        return false;
    }
    m_txQueues[queue].ring.MarkDone();
    m_vectors[queue].txIrq.OnEvent(now);
    return true;
}

NicDriver::Ring::Cleaned
NicDriver::CompleteAtTxStart(uint32_t queue, Listener& listener)
{
    m_txQueues[queue].ring.MarkDone();
    return CleanTx(queue, UINT32_MAX, listener);
}

NicDriver::Ring::Cleaned
NicDriver::CleanTx(uint32_t queue, uint32_t limit, Listener& listener)
{
    TxQueue& txq = m_txQueues[queue];
    const auto cleaned =
        txq.ring.Clean(limit, [&](uint32_t slot) { listener.TxReclaimed(queue, slot); });
    if (cleaned.packets == 0)
    {
        return cleaned;
    }
    m_vectors[queue].itr.CountTx(cleaned.packets, cleaned.bytes);
    listener.TxCompleted(queue, cleaned);
    // Tested after the BQL completion, as the drivers do: the listener may have posted.
    if (txq.stopped && GetTxUnused(queue) >= m_config.txWakeThreshold)
    {
        txq.stopped = false;
        listener.TxWake(queue);
    }
    return cleaned;
}

bool
NicDriver::PostRx(uint32_t queue, uint32_t length, int64_t now, uint32_t& slot)
{
    RxQueue& rxq = m_rxQueues[queue];
    if (!Post(rxq.ring, rxq.nextSlot, 1, length, slot))
    {
        return false;
    }
    // The frame is in host memory once its last bit is in: fetched and done at once.
    rxq.ring.Fetch();
    rxq.ring.MarkDone();
    m_vectors[queue].rxIrq.OnEvent(now);
    return true;
}

int64_t
NicDriver::GetInterruptDue(uint32_t vector) const
{
    const Vector& v = m_vectors[vector];
    return std::min(v.txIrq.GetDueTime(), v.rxIrq.GetDueTime());
}

NicDriver::IrqEvents
NicDriver::Interrupt(uint32_t vector, int64_t now)
{
    Vector& v = m_vectors[vector];
    IrqEvents events;
    events.tx = v.txIrq.Assert(now);
    events.rx = v.rxIrq.Assert(now);
    v.itr.OnInterrupt();
    ApplyItr(vector);
    return events;
}

NicDriver::PollResult
NicDriver::Poll(uint32_t vector, Listener& listener)
{
    PollResult result;
    // The clean is complete only if it stopped before its limit: igb_clean_tx_irq() returns
    // !!budget, so a clean that reclaimed exactly the work limit counts as unfinished even
    // when nothing done is left.
    bool txIncomplete = false;
    if (vector < m_txQueues.size())
    {
        result.tx = CleanTx(vector, m_config.txWorkLimit, listener);
        txIncomplete = result.tx.packets >= m_config.txWorkLimit;
    }
    bool rxIncomplete = false;
    if (vector < m_rxQueues.size())
    {
        const auto cleaned = m_rxQueues[vector].ring.Clean(m_config.napiWeight, [&](uint32_t slot) {
            listener.RxDeliver(vector, slot);
        });
        result.rx = cleaned.packets;
        m_vectors[vector].itr.CountRx(cleaned.packets, cleaned.bytes);
        // igb_poll(): cleaned >= budget; e1000e_poll(): work_done == budget.
        rxIncomplete = cleaned.packets >= m_config.napiWeight;
    }
    // Either way the poll returns its budget without napi_complete_done().
    result.workLeft = txIncomplete || rxIncomplete;
    return result;
}

void
NicDriver::CompletePoll(uint32_t vector, int64_t now)
{
    Vector& v = m_vectors[vector];
    v.itr.OnPollComplete(now);
    ApplyItr(vector);
    v.txIrq.Unmask(now);
    v.rxIrq.Unmask(now);
}

void
NicDriver::ApplyItr(uint32_t vector)
{
    Vector& v = m_vectors[vector];
    if (v.itr.GetMode() != DynamicItr::Mode::NONE)
    {
        v.txIrq.SetMinInterval(v.itr.GetInterval());
        v.rxIrq.SetMinInterval(v.itr.GetInterval());
    }
}

} // namespace debloat
} // namespace ns3
