/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_PROFILE_H
#define NIC_PROFILE_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief A driver's defaults as NicNetDevice attribute values.
 *
 * A profile is a starting point: NicHelper::SetProfile() applies its values, and every one
 * of them stays an attribute that later settings override. The values and the kernel code
 * they come from are listed in the manual (doc/debloat.rst, "Driver profiles").
 */
struct NicProfile
{
    std::string name;        ///< the name NicHelper::SetProfile() takes
    std::string description; ///< the hardware and driver it stands for
    std::vector<std::pair<std::string, std::string>> attributes; ///< NicNetDevice attributes

    /**
     * Looks a profile up; stops with the list of names if there is none by that name.
     * @param name the profile name
     * @return the profile
     */
    static const NicProfile& Get(const std::string& name);

    /// @return every profile, in a fixed order
    static const std::vector<NicProfile>& GetAll();

    /**
     * @return the TX queues a device of this profile has: its TxQueues attribute, or
     * NicNetDevice's default 1
     */
    uint32_t GetTxQueues() const;
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_PROFILE_H */
