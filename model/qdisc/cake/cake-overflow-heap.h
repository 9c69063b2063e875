/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_cake.c of Linux 6.x: the overflow max-heap over every flow queue of
 * every tin, by backlog (overflow_heap[], cake_heap_swap(), cake_heap_get_backlog(),
 * cake_heapify(), cake_heapify_up()), which cake_drop() uses to find the fattest flow.
 */

#ifndef CAKE_OVERFLOW_HEAP_H
#define CAKE_OVERFLOW_HEAP_H

#include "cake-tin-data.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief CAKE's overflow heap: a max-heap of (tin, queue) by the queue's backlog, kept in
 * step with each tin's overflow_idx[].
 *
 * Plain C++ with no ns-3 dependency. It reads and writes the tins it is given, which must
 * outlive it and not move.
 */
class CakeOverflowHeap
{
  public:
    /// An overflow heap entry: tin and queue.
    struct Entry
    {
        uint16_t tin;   ///< t
        uint16_t queue; ///< b
    };

    /// The number of entries: CAKE_MAX_TINS * CAKE_QUEUES.
    static constexpr uint32_t SIZE = CAKE_MAX_TINS * CAKE_QUEUES;

    /**
     * cake_init()'s heap: entry k = queue * CAKE_MAX_TINS + tin, with each tin's
     * overflow_idx[] pointing at its entries.
     * @param tins the CAKE_MAX_TINS tins
     */
    explicit CakeOverflowHeap(std::vector<CakeTinData>& tins);

    /// @return the top entry (the fattest queue once the heap is built)
    Entry Top() const;
    /// cake_drop()'s rebuild: cake_heapify() from the middle down to the root.
    void Build();
    /// @param i an entry index @brief cake_heapify(): sifts entry i down
    void Heapify(uint32_t i);
    /// @param i an entry index @brief cake_heapify_up(): sifts entry i up
    void HeapifyUp(uint32_t i);

  private:
    /// @param i an entry @param j another @brief cake_heap_swap()
    void Swap(uint32_t i, uint32_t j);
    /// @param i an entry @return cake_heap_get_backlog()
    uint32_t Backlog(uint32_t i) const;

    std::vector<CakeTinData>& m_tins; ///< the tins
    std::vector<Entry> m_heap;        ///< overflow_heap
};

} // namespace debloat
} // namespace ns3

#endif /* CAKE_OVERFLOW_HEAP_H */
