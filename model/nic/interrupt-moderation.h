/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INTERRUPT_MODERATION_H
#define INTERRUPT_MODERATION_H

#include <cstdint>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief When a NIC raises one interrupt cause (TX done or RX), free of ns-3.
 *
 * Hardware latches events (a descriptor written back, a frame received) and asserts the
 * interrupt according to its moderation settings, in the terms drivers expose:
 * - frames (ethtool tx-frames/rx-frames): assert once this many events are pending;
 * - absolute delay (ethtool tx-usecs/rx-usecs; e1000e TADV/RADV): assert this long after
 *   the first pending event;
 * - packet delay (e1000e TIDV/RDTR): assert this long after the latest event, a timer each
 *   event restarts;
 * - minimum interval (e1000e ITR, igb EITR, a fixed interrupt rate): never assert twice
 *   within this interval.
 * The earliest trigger wins, then the throttle applies. With no trigger configured each
 * event asserts at once. While NAPI polls, the interrupt is masked; events keep latching and
 * whatever is pending when the poll re-enables the interrupt asserts then (the poll may
 * already have cleaned it: a real NIC takes such an empty interrupt too).
 *
 * Times are nanoseconds on the caller's clock.
 */
class InterruptModeration
{
  public:
    /// No interrupt is due.
    static constexpr int64_t NEVER = INT64_MAX;

    /// Moderation settings, nanoseconds; zero disables a trigger.
    struct Config
    {
        uint32_t frames{0};     ///< assert at this many pending events
        int64_t delay{0};       ///< assert this long after the latest event
        int64_t absDelay{0};    ///< assert this long after the first pending event
        int64_t minInterval{0}; ///< at least this long between assertions
    };

    /**
     * Checks settings.
     * @param config the settings
     * @return an empty string if valid, else why not
     */
    static std::string Validate(const Config& config);

    /// @param config the settings (valid, see Validate())
    void SetConfig(const Config& config);
    /// @return the settings
    const Config& GetConfig() const;

    /**
     * Changes only the throttle, as an adaptive ITR does between interrupts.
     * @param minInterval at least this long between assertions, ns
     */
    void SetMinInterval(int64_t minInterval);

    /**
     * Latches one event.
     * @param now current time
     */
    void OnEvent(int64_t now);

    /// @return when the interrupt asserts, NEVER if nothing is pending or it is masked
    int64_t GetDueTime() const;

    /**
     * The interrupt asserts: pending events are consumed and the interrupt is masked until
     * the poll re-enables it.
     * @param now current time
     * @return the events it carries
     */
    uint32_t Assert(int64_t now);

    /**
     * NAPI completed and re-enables the interrupt.
     * @param now current time
     */
    void Unmask(int64_t now);

    /// @return whether the interrupt is masked (NAPI polling)
    bool IsMasked() const;
    /// @return events latched since the last assertion
    uint32_t GetPending() const;

  private:
    Config m_config;             ///< settings
    uint32_t m_pending{0};       ///< latched events
    int64_t m_firstEvent{0};     ///< time of the first latched event
    int64_t m_lastEvent{0};      ///< time of the latest latched event
    int64_t m_lastAssert{NEVER}; ///< time of the last assertion (NEVER: none yet)
    int64_t m_unmasked{0};       ///< when the interrupt was last re-enabled
    bool m_masked{false};        ///< masked while NAPI polls
};

} // namespace debloat
} // namespace ns3

#endif /* INTERRUPT_MODERATION_H */
