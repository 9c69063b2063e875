/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DESCRIPTOR_RING_H
#define DESCRIPTOR_RING_H

#include <cstdint>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief A NIC descriptor ring, free of ns-3: the driver posts packets at the tail, the
 * hardware fetches and sends them in ring order, and TX completion cleans the done ones.
 *
 * The ring counts descriptors (its size is ethtool's "tx" or "rx"), and a packet may take
 * several of them (fragments, per-descriptor data limits, context descriptors). Each
 * packet moves through three states in order: posted (waiting for the hardware), fetched
 * (being sent, or sent and not yet reported), done (its descriptors written back, waiting
 * for the driver to clean them). Entries live in a fixed array with one slot per
 * descriptor, so nothing is allocated per packet. What the ring keeps per packet is an
 * integer of the driver's (NicDriver keeps the index of the slot that holds its skb).
 */
class DescriptorRing
{
  public:
    /// What the driver keeps per packet.
    using Item = uint32_t;

    /// What one Clean() reclaimed.
    struct Cleaned
    {
        uint32_t packets{0};     ///< packets cleaned
        uint32_t descriptors{0}; ///< descriptors freed
        uint64_t bytes{0};       ///< bytes of the cleaned packets (as posted)
    };

    /**
     * @param size the number of descriptors, at least 1
     */
    explicit DescriptorRing(uint32_t size);

    /// @return the number of descriptors (ethtool tx/rx)
    uint32_t GetSize() const
    {
        return static_cast<uint32_t>(m_slots.size());
    }

    /// @return descriptors in use: posted, fetched or done, and not yet cleaned
    uint32_t GetUsed() const
    {
        return m_usedDescriptors;
    }

    /// @return free descriptors (the drivers' *_desc_unused())
    uint32_t GetUnused() const
    {
        return GetSize() - m_usedDescriptors;
    }

    /// @return packets in the ring, in any state
    uint32_t GetPackets() const
    {
        return m_packets;
    }

    /// @return bytes of the packets in the ring, in any state
    uint64_t GetBytes() const
    {
        return m_bytes;
    }

    /// @return packets posted and not yet fetched by the hardware
    uint32_t GetPending() const
    {
        return m_packets - m_fetched - m_done;
    }

    /// @return packets fetched by the hardware and not yet done
    uint32_t GetFetched() const
    {
        return m_fetched;
    }

    /// @return packets done and not yet cleaned
    uint32_t GetDone() const
    {
        return m_done;
    }

    /**
     * Posts a packet at the tail.
     * @param item the packet
     * @param descriptors descriptors it uses, at least 1
     * @param bytes its length as the driver accounts it
     * @return false, and no change, if the descriptors are not free
     */
    bool Post(Item item, uint32_t descriptors, uint32_t bytes);

    /**
     * The hardware takes the oldest posted packet. Requires GetPending() > 0.
     * @return that packet
     */
    Item Fetch();

    /// The oldest fetched packet is done (its descriptors written back). Requires GetFetched() > 0.
    void MarkDone();

    /**
     * The driver cleans up to maxPackets done packets, oldest first.
     * @param maxPackets the work limit
     * @param onCleaned called with each cleaned packet, oldest first
     * @return what was cleaned
     * @tparam F the callback's type (a template so that the per-packet call inlines)
     */
    template <typename F>
    Cleaned Clean(uint32_t maxPackets, F&& onCleaned)
    {
        Cleaned cleaned;
        while (m_done > 0 && cleaned.packets < maxPackets)
        {
            Slot& slot = m_slots[m_head];
            cleaned.packets++;
            cleaned.descriptors += slot.descriptors;
            cleaned.bytes += slot.bytes;
            m_usedDescriptors -= slot.descriptors;
            m_bytes -= slot.bytes;
            m_packets--;
            m_done--;
            m_head = (m_head + 1) % m_slots.size();
            onCleaned(slot.item);
            slot.item = 0;
        }
        return cleaned;
    }

  private:
    /// One packet's slot.
    struct Slot
    {
        Item item{0};            ///< the packet
        uint32_t descriptors{0}; ///< descriptors it uses
        uint32_t bytes{0};       ///< its accounted length
    };

    /**
     * @param offset packets after the oldest
     * @return the slot index
     */
    std::size_t Index(uint32_t offset) const
    {
        return (m_head + offset) % m_slots.size();
    }

    std::vector<Slot> m_slots;     ///< one slot per descriptor: packets never outnumber them
    std::size_t m_head{0};         ///< slot of the oldest packet
    uint32_t m_packets{0};         ///< packets in the ring
    uint32_t m_fetched{0};         ///< fetched, not done
    uint32_t m_done{0};            ///< done, not cleaned
    uint32_t m_usedDescriptors{0}; ///< descriptors in use
    uint64_t m_bytes{0};           ///< bytes in the ring
};

} // namespace debloat
} // namespace ns3

#endif /* DESCRIPTOR_RING_H */
