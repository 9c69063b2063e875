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
    // "generic" is HostCpu's defaults: order-of-magnitude costs for one x86 core, per hard
    // interrupt, napi->poll() call and received frame 1 us, per reclaimed TX packet 0.25 us,
    // per forwarded frame 0.3 us more and 0.1 us per qdisc (see host-cpu.h). It is not
    // calibrated: under overload its forwarded frame costs 1.70 us, 2.5 times what the
    // measurement below gives a 3 GHz core (0.69 us).
    //
    // The x86 profiles are calibrated against one measurement of Linux forwarding: the XDP
    // paper (Hoiland-Jorgensen et al., CoNEXT 2018; data in the xdp-paper repository,
    // benchmarks/bench04_fwd.org) forwards 1,739,672 64-byte packets per second on one core
    // of a Xeon E5-1650 v4 (Broadwell, 3.6 GHz, Linux 4.18, mlx5, one route): 574.8 ns, 2069
    // cycles per packet. Under that overload every poll takes NAPI's weight of 64 and a
    // forwarded packet costs C + (2 p + h) / 64 (HostCpuRouterTestCase: the ingress poll,
    // and an interrupt and a poll of the egress clean per batch), with C = c + f + q + t. The
    // split between the costs keeps generic's proportions (c = p = h = 1 unit, f = 0.3,
    // q = 0.1, t = 0.25): 1.696875 units = 2069 cycles, one unit = 1219.5 cycles. A
    // machine's unit is 1219.5 cycles over its clock and its work per clock relative to
    // Broadwell on this code (estimates: Haswell 1, Sandy Bridge 0.9, Silvermont 0.6):
    //   xeon-e5-1650v4 (the measured machine): 1219.5 / 3.6 GHz = 338.8 ns;
    //   laptop-2011 (seed 000): Sandy Bridge laptop at 2.5 GHz: 1219.5 / (2.5 x 0.9) = 542 ns;
    //   nuc (seed 002): Intel NUC D54250WYK, Core i5-4250U (Haswell, 2 cores, 4 threads,
    //     2.6 GHz turbo): 1219.5 / 2.6 = 469 ns;
    //   atom-c2758 (seed 002's "rangeley"): 8 Silvermont cores at 2.4 GHz:
    //     1219.5 / (2.4 x 0.6) = 847 ns.
    // The measurement is of a later kernel (4.18, retpoline off, no conntrack) than the
    // seeds ran (3.x): their kernels' costs may differ by tens of per cent either way, and
    // the per-clock factors are estimates (about 15% for the big cores, 30% for
    // Silvermont). Application costs (XmitCost, WakeupCost, SyscallCost, CopyRate,
    // SchedulingLatency) stay HostCpu's defaults: the measurement says nothing of them.
    //
    // armada385 (seed 003's Linksys WRT1200AC: 2 Cortex-A9 cores at 1.6 GHz, OpenWrt 2015)
    // is generic scaled for its clock and its work per clock (about half an x86 core's), s =
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
         "HostCpu's defaults: order-of-magnitude costs for one x86 core, not calibrated "
         "(2.5 times the calibrated forwarding cost of a 3 GHz core)",
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
         "(seed 000's e1000e host): calibrated forwarding path scaled by clock and work per "
         "clock",
         {{"Cores", "4"},
          {"IrqCores", "0"},
          {"HardIrqCost", "542ns"},
          {"PollCost", "542ns"},
          {"RxPacketCost", "542ns"},
          {"TxPacketCost", "136ns"},
          {"ForwardCost", "163ns"},
          {"QdiscCost", "54ns"},
          {"QdiscCosts", ""}}},
        {"nuc",
         "Intel NUC D54250WYK, Core i5-4250U (Haswell, 2 cores / 4 threads, 2.6 GHz "
         "turbo; seed 002's hosts): calibrated forwarding path scaled by clock",
         {{"Cores", "4"},
          {"IrqCores", "0"},
          {"HardIrqCost", "469ns"},
          {"PollCost", "469ns"},
          {"RxPacketCost", "469ns"},
          {"TxPacketCost", "117ns"},
          {"ForwardCost", "141ns"},
          {"QdiscCost", "47ns"},
          {"QdiscCosts", ""}}},
        {"atom-c2758",
         "Intel Atom C2758 'Rangeley' (8 Silvermont cores, 2.4 GHz; seed 002's router): "
         "calibrated forwarding path scaled by clock and work per clock",
         {{"Cores", "8"},
          {"IrqCores", "0"},
          {"HardIrqCost", "847ns"},
          {"PollCost", "847ns"},
          {"RxPacketCost", "847ns"},
          {"TxPacketCost", "212ns"},
          {"ForwardCost", "254ns"},
          {"QdiscCost", "85ns"},
          {"QdiscCosts", ""}}},
        {"xeon-e5-1650v4",
         "Intel Xeon E5-1650 v4 (Broadwell, 6 cores, 3.6 GHz): the XDP paper's "
         "machine, calibrated against its 1.74 Mpps of Linux forwarding on one core",
         {{"Cores", "6"},
          {"IrqCores", "0"},
          {"HardIrqCost", "339ns"},
          {"PollCost", "339ns"},
          {"RxPacketCost", "339ns"},
          {"TxPacketCost", "85ns"},
          {"ForwardCost", "102ns"},
          {"QdiscCost", "34ns"},
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
