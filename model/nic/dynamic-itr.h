/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows e1000_update_itr() and e1000_set_itr() (drivers/net/ethernet/intel/e1000e/netdev.c)
 * and igb_update_ring_itr(), igb_update_itr() and igb_set_itr()
 * (drivers/net/ethernet/intel/igb/igb_main.c).
 */

#ifndef DYNAMIC_ITR_H
#define DYNAMIC_ITR_H

#include <cstdint>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief The adaptive interrupt throttle of Intel drivers, free of ns-3.
 *
 * The driver counts the packets and bytes its TX and RX cleaning handled and, when a NAPI poll
 * completes, picks the next minimum interval between interrupts:
 * - e1000e (InterruptThrottleRate 1, dynamic; 3, dynamic conservative): each direction moves
 *   between the lowest-latency (70000 ints/s), low-latency (20000) and bulk (4000) classes
 *   by e1000_update_itr()'s rules on the counts since the last interrupt; the busier class of
 *   the two wins; the conservative mode never uses lowest latency; a rising rate moves only a
 *   quarter of the new rate at a time; below 1 Gbit/s the rate is 4000. The ITR register
 *   holds 10^9 / (rate * 256) in 256 ns units and applies at once.
 * - igb (rx/tx-usecs 1, dynamic; 3, conservative), with more than one interrupt vector
 *   (igb_update_ring_itr()): the interval follows the average wire size (bytes per packet
 *   + 24, at most 3000) since the last update: a third of it for mid-size frames (300 to
 *   1200), half of it otherwise, at least IGB_20K_ITR in the conservative mode; IGB_4K_ITR
 *   below 1 Gbit/s.
 * - igb with a single vector (igb_ring_irq_enable(): num_q_vectors == 1 calls
 *   igb_set_itr()): e1000e's latency classes, kept per direction by igb_update_itr() (which
 *   leaves bulk latency below 1500 bytes rather than e1000e's 6000), the busier class wins
 *   and sets IGB_70K_ITR, IGB_20K_ITR or IGB_4K_ITR; the conservative mode uses low latency
 *   for lowest latency but, unlike e1000e, keeps the direction's class; below 1 Gbit/s
 *   IGB_4K_ITR. A longer interval is smoothed by max(new * old / (new + old / 4), new),
 *   which is always the new value, so every change takes effect at once.
 * For igb, EITR counts microseconds in bits 2 to 14, and the new value is written at the
 * next interrupt.
 */
class DynamicItr
{
  public:
    /// Which driver's algorithm, and its mode.
    enum class Mode
    {
        NONE,                ///< a fixed interrupt rate
        E1000E,              ///< e1000e InterruptThrottleRate=1
        E1000E_CONSERVATIVE, ///< e1000e InterruptThrottleRate=3 (the default)
        IGB,                 ///< igb dynamic ITR, itr_setting 1
        IGB_CONSERVATIVE,    ///< igb dynamic conservative ITR, itr_setting 3 (the default)
        IXGBE,               ///< ixgbe adaptive ITR, rx-usecs 1 (the default)
    };

    /**
     * Parses a mode name: none, e1000e, e1000e-conservative, igb, igb-conservative, ixgbe.
     * @param name the name
     * @param[out] mode the mode
     * @return false for an unknown name
     */
    static bool Parse(const std::string& name, Mode& mode);

    /**
     * @param mode the algorithm
     * @param linkBps the link's speed, bit/s: e1000e and igb take their slow-link rates below
     * 1 Gbit/s, ixgbe scales its bulk intervals by the speed class
     * @param singleVector igb only: the adapter has one interrupt vector for all its rings
     * (num_q_vectors == 1), so igb_set_itr() runs instead of igb_update_ring_itr()
     */
    DynamicItr(Mode mode, uint64_t linkBps, bool singleVector);

    /// @return the algorithm
    Mode GetMode() const;

    /**
     * Counts TX packets the cleaning reclaimed.
     * @param packets packets
     * @param bytes their bytes
     */
    void CountTx(uint32_t packets, uint64_t bytes);

    /**
     * Counts RX packets the cleaning passed up.
     * @param packets packets
     * @param bytes their bytes
     */
    void CountRx(uint32_t packets, uint64_t bytes);

    /**
     * An interrupt asserts: e1000e starts a new measurement interval, igb writes the interval
     * chosen at the last poll.
     */
    void OnInterrupt();

    /**
     * A NAPI poll completed: choose the next interval (e1000e_poll, igb_ring_irq_enable,
     * ixgbe_poll).
     * @param now the time, ns (ixgbe counts it in jiffies of CONFIG_HZ 1000)
     */
    void OnPollComplete(int64_t now);

    /// @return the minimum interval between interrupts the hardware applies now, ns
    int64_t GetInterval() const;

  private:
    /// e1000e latency classes, in their kernel order.
    enum Latency
    {
        LOWEST_LATENCY = 0,
        LOW_LATENCY = 1,
        BULK_LATENCY = 2,
    };

    /**
     * Mirrors e1000_update_itr() and igb_update_itr(), which differ only in when bulk
     * latency falls back to low latency (e1000e below 6000 bytes, igb below 1500).
     * @param current the direction's class
     * @param packets packets in the interval
     * @param bytes bytes in the interval
     * @param bulkToLowBytes bulk latency becomes low latency below these bytes
     * @return the new class
     */
    static Latency UpdateClass(Latency current,
                               uint64_t packets,
                               uint64_t bytes,
                               uint64_t bulkToLowBytes);
    /// Mirrors e1000_set_itr().
    void SetE1000eItr();
    /// Mirrors igb_update_ring_itr().
    void UpdateIgbItr();
    /// Mirrors igb_set_itr().
    void SetIgbItr();
    /**
     * @param rate interrupts per second (e1000e adapter->itr)
     * @return the ITR register interval, ns
     */
    static int64_t E1000eInterval(uint32_t rate);
    /**
     * @param itrVal igb's q_vector->itr_val
     * @return the EITR interval, ns
     */
    static int64_t IgbInterval(uint32_t itrVal);

    /// ixgbe's struct ixgbe_ring_container: one direction's measurement.
    struct IxgbeContainer
    {
        uint32_t itr;          ///< usecs, with IXGBE_ITR_ADAPTIVE_LATENCY set in latency mode
        int64_t nextUpdate{0}; ///< jiffies: a later update is too late to measure
    };

    /**
     * Mirrors ixgbe_update_itr(): the direction's next interval from its counts.
     * @param container the direction
     * @param packets its packets since the last update (cleared)
     * @param bytes their bytes (cleared)
     * @param jiffies now, in jiffies
     */
    void UpdateIxgbeContainer(IxgbeContainer& container,
                              uint64_t& packets,
                              uint64_t& bytes,
                              int64_t jiffies) const;
    /**
     * Mirrors ixgbe_set_itr(): both directions, the smaller interval written to EITR.
     * @param now the time, ns
     */
    void SetIxgbeItr(int64_t now);
    /**
     * @param itr ixgbe's q_vector->itr (usecs << 2)
     * @return the EITR interval, ns
     */
    static int64_t IxgbeInterval(uint32_t itr);

    Mode m_mode;                    ///< algorithm
    uint64_t m_linkBps;             ///< the link's speed, bit/s
    bool m_gigabit;                 ///< link at 1 Gbit/s or more
    bool m_singleVector;            ///< igb: igb_set_itr() rather than igb_update_ring_itr()
    uint64_t m_txPackets{0};        ///< TX packets counted
    uint64_t m_txBytes{0};          ///< TX bytes counted
    uint64_t m_rxPackets{0};        ///< RX packets counted
    uint64_t m_rxBytes{0};          ///< RX bytes counted
    Latency m_txClass{LOW_LATENCY}; ///< e1000e adapter->tx_itr, igb q_vector->tx.itr
    Latency m_rxClass{LOW_LATENCY}; ///< e1000e adapter->rx_itr, igb q_vector->rx.itr
    uint32_t m_itr;           ///< e1000e adapter->itr (ints/s), igb itr_val, ixgbe q_vector->itr
    uint32_t m_pendingItr;    ///< igb: chosen at the poll, written at the next interrupt
    int64_t m_interval;       ///< what the hardware applies now, ns
    IxgbeContainer m_ixgbeTx; ///< ixgbe q_vector->tx
    IxgbeContainer m_ixgbeRx; ///< ixgbe q_vector->rx
};

} // namespace debloat
} // namespace ns3

#endif /* DYNAMIC_ITR_H */
