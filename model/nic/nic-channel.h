/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_CHANNEL_H
#define NIC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

class Packet;

namespace debloat
{

class NicNetDevice;

/**
 * @ingroup debloat-nic
 * @brief A full-duplex Ethernet link between two NicNetDevices.
 *
 * Each direction is its own wire: the sending device serialises a frame for its wire time
 * and the channel hands the frame to the peer when the last bit arrives, one propagation
 * delay after it left. The devices, not the channel, decide the wire time (line rate and
 * Ethernet layer-1 overhead).
 */
class NicChannel : public Channel
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NicChannel();
    ~NicChannel() override;

    /**
     * Attaches a device; a channel takes exactly two.
     * @param device the device
     */
    void Attach(Ptr<NicNetDevice> device);

    /**
     * Sends a frame from src to the other device.
     * @param frame the frame (the channel delivers a copy)
     * @param src the sending device
     * @param wireTime time the frame occupies the wire
     */
    void Transmit(Ptr<const Packet> frame, Ptr<NicNetDevice> src, Time wireTime);

    /// @return the propagation delay
    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  private:
    void DoDispose() override;

    Time m_delay;                               ///< propagation delay
    std::array<Ptr<NicNetDevice>, 2> m_devices; ///< the two ends
    std::size_t m_nDevices{0};                  ///< devices attached
    TracedCallback<Ptr<const Packet>, Ptr<NetDevice>, Ptr<NetDevice>, Time, Time>
        m_txrxTrace; ///< frame, sender, receiver, wire time, wire time + delay
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_CHANNEL_H */
