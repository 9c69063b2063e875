/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BYTE_QUEUE_LIMITS_HELPER_H
#define BYTE_QUEUE_LIMITS_HELPER_H

#include "ns3/byte-queue-limits.h"
#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"

#include <ostream>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-bql
 * @brief Installs ByteQueueLimits on every TX queue of devices, and shows them as sysfs does.
 *
 * TrafficControlHelper::SetQueueLimits() installs BQL together with a root queue disc; this
 * helper installs (or replaces) only the queue limits, which is what writing to
 * /sys/class/net/DEV/queues/tx-N/byte_queue_limits/ does on a running system. The device
 * must aggregate a NetDeviceQueueInterface (devices installed with flow control).
 */
class ByteQueueLimitsHelper
{
  public:
    ByteQueueLimitsHelper();

    /**
     * Sets an attribute of every ByteQueueLimits this helper installs.
     * @param name attribute name (LimitMin, LimitMax, HoldTime, StallThreshold, Hz)
     * @param value attribute value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Installs one ByteQueueLimits per TX queue of the device.
     * @param device the device
     */
    void Install(Ptr<NetDevice> device) const;

    /**
     * Installs one ByteQueueLimits per TX queue of each device.
     * @param devices the devices
     */
    void Install(const NetDeviceContainer& devices) const;

    /**
     * Returns the ByteQueueLimits of one TX queue.
     * @param device the device
     * @param txQueue the TX queue index
     * @return the queue limits, or nullptr when that queue has no ByteQueueLimits
     */
    static Ptr<ByteQueueLimits> Get(Ptr<NetDevice> device, std::size_t txQueue);

    /**
     * Prints the byte_queue_limits sysfs files of every TX queue of the device, one
     * "tx-N/byte_queue_limits/FILE: VALUE" line each, in the kernel's units (bytes, ms).
     * @param device the device
     * @param os the output stream
     */
    static void PrintSysfs(Ptr<NetDevice> device, std::ostream& os);

  private:
    ObjectFactory m_factory; ///< makes the ByteQueueLimits objects
};

} // namespace debloat
} // namespace ns3

#endif /* BYTE_QUEUE_LIMITS_HELPER_H */
