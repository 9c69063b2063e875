/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CPU_PROFILE_H
#define CPU_PROFILE_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief A machine's CPU as HostCpu attribute values: its cores and what its kernel spends
 * per interrupt, poll, packet and qdisc.
 *
 * A profile is a starting point: HostCpuHelper::SetProfile() applies its values, and each
 * stays an attribute that later settings override. How each profile's values were derived
 * (and which are calibrated against a measurement, which only scaled) is in the manual
 * (doc/debloat.rst, "Host CPU model") and beside the table in cpu-profile.cc.
 */
struct CpuProfile
{
    std::string name;        ///< the name HostCpuHelper::SetProfile() takes
    std::string description; ///< the machine it stands for
    std::vector<std::pair<std::string, std::string>> attributes; ///< HostCpu attributes

    /**
     * Looks a profile up; stops with the list of names if there is none by that name.
     * @param name the profile name
     * @return the profile
     */
    static const CpuProfile& Get(const std::string& name);

    /// @return every profile, in a fixed order
    static const std::vector<CpuProfile>& GetAll();
};

} // namespace debloat
} // namespace ns3

#endif /* CPU_PROFILE_H */
