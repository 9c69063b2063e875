/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cpu-profile.h"

#include "ns3/abort.h"

#include <sstream>

namespace ns3
{
namespace debloat
{

const std::vector<CpuProfile>&
CpuProfile::GetAll()
{
    // "generic" is HostCpu's defaults: one core of a current 3 GHz x86 server, per hard
    // interrupt, napi->poll() call and received frame about 1 us, per reclaimed TX packet
    // 0.25 us, per forwarded frame 0.3 us more and 0.1 us per qdisc (see host-cpu.h).
    //
    // The x86 machines of the seeds are scaled from it by clock and by work per clock, and
    // are not calibrated against a measurement: their costs are known to a factor of about
    // two. Scale s multiplies every per-work cost:
    //   laptop-2011 (seed 000): a 2011 dual-core, four-thread laptop of the Sandy Bridge
    //     generation at 2.5-3.2 GHz: s = 1.1;
    //   nuc (seed 002): Intel NUC D54250WYK, Core i5-4250U (Haswell, 2 cores, 4 threads,
    //     1.3 GHz, 2.6 GHz turbo): s = 3.0 / 2.6 ~ 1.2;
    //   atom-c2758 (seed 002's "rangeley"): 8 Silvermont cores at 2.4 GHz, about 0.6 of a
    //     Haswell's work per clock on this code: s = 3.0 / 2.4 / 0.6 ~ 2.
    //
    // armada385 (seed 003's Linksys WRT1200AC: 2 Cortex-A9 cores at 1.6 GHz, OpenWrt 2015)
    // is scaled for its clock and its work per clock (about half an x86 core's), s =
    // 3.0 / 1.6 / 0.5 ~ 4, and its qdisc costs are calibrated against the seed. Without
    // irqbalance every interrupt lands on CPU0 (IrqCores 1), so both ports' receive work,
    // the forwarding and the qdiscs run on one core. Under rrul_be each way carries G Mbit/s
    // of TCP payload in 1448-byte segments, D = G / 11584 bits Mpps, and the other way's
    // delayed ACKs, D / 2: the core forwards 3 D frames per second, each costing
    // RxPacketCost + ForwardCost + TxPacketCost = 4 + 1.2 + 1 = 6.2 us plus its qdiscs
    // (polls and interrupts add less: 4 us per poll of up to 64 frames).
    //   cake alone at the seed's "roughly 455" Mbit/s: 3 D = 117,835 frames/s, 8.49 us
    //     each: cake = 8.49 - 6.2 ~ 2.3 us;
    //   HTB with cake as its leaf at "roughly 360": 3 D = 93,232 frames/s, 10.73 us each:
    //     htb = 10.73 - 6.2 - 2.3 ~ 2.2 us (cake counted as it costs alone).
    // Other kinds keep the scaled QdiscCost, 0.4 us.
    static const std::vector<CpuProfile> profiles{
        {"generic",
         "One core of a current 3 GHz x86 server: HostCpu's defaults",
         {{"Cores", "1"},
          {"IrqCores", "0"},
          {"HardIrqCost", "1us"},
          {"PollCost", "1us"},
          {"RxPacketCost", "1us"},
          {"TxPacketCost", "250ns"},
          {"ForwardCost", "300ns"},
          {"QdiscCost", "100ns"},
          {"QdiscCosts", ""}}},
        {"laptop-2011",
         "A 2011 laptop, 2 cores / 4 threads of the Sandy Bridge generation at 2.5 GHz "
         "(seed 000's e1000e host): generic costs x 1.1, not calibrated",
         {{"Cores", "4"},
          {"IrqCores", "0"},
          {"HardIrqCost", "1100ns"},
          {"PollCost", "1100ns"},
          {"RxPacketCost", "1100ns"},
          {"TxPacketCost", "275ns"},
          {"ForwardCost", "330ns"},
          {"QdiscCost", "110ns"},
          {"QdiscCosts", ""}}},
        {"nuc",
         "Intel NUC D54250WYK, Core i5-4250U (Haswell, 2 cores / 4 threads, 1.3 GHz, 2.6 "
         "GHz turbo; seed 002's hosts): generic costs x 1.2, not calibrated",
         {{"Cores", "4"},
          {"IrqCores", "0"},
          {"HardIrqCost", "1200ns"},
          {"PollCost", "1200ns"},
          {"RxPacketCost", "1200ns"},
          {"TxPacketCost", "300ns"},
          {"ForwardCost", "360ns"},
          {"QdiscCost", "120ns"},
          {"QdiscCosts", ""}}},
        {"atom-c2758",
         "Intel Atom C2758 'Rangeley' (8 Silvermont cores, 2.4 GHz; seed 002's router): "
         "generic costs x 2, not calibrated",
         {{"Cores", "8"},
          {"IrqCores", "0"},
          {"HardIrqCost", "2us"},
          {"PollCost", "2us"},
          {"RxPacketCost", "2us"},
          {"TxPacketCost", "500ns"},
          {"ForwardCost", "600ns"},
          {"QdiscCost", "200ns"},
          {"QdiscCosts", ""}}},
        {"armada385",
         "Marvell Armada 385 (2 Cortex-A9 cores, 1.6 GHz; seed 003's Linksys WRT1200AC "
         "on OpenWrt 2015): generic costs x 4, every interrupt on CPU0, cake and htb "
         "calibrated against the seed's 455 and 360 Mbit/s",
         {{"Cores", "2"},
          {"IrqCores", "1"},
          {"HardIrqCost", "4us"},
          {"PollCost", "4us"},
          {"RxPacketCost", "4us"},
          {"TxPacketCost", "1us"},
          {"ForwardCost", "1200ns"},
          {"QdiscCost", "400ns"},
          {"QdiscCosts", "cake:2300ns,htb:2200ns"}}},
    };
    return profiles;
}

const CpuProfile&
CpuProfile::Get(const std::string& name)
{
    std::ostringstream names;
    for (const CpuProfile& profile : GetAll())
    {
        if (profile.name == name)
        {
            return profile;
        }
        names << (names.tellp() > 0 ? ", " : "") << profile.name;
    }
    NS_ABORT_MSG("CpuProfile: unknown profile '" << name << "'; accepted: " << names.str());
    return GetAll().front();
}

} // namespace debloat
} // namespace ns3
