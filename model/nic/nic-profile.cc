/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-profile.h"

#include "ns3/abort.h"

#include <sstream>
#include <string>

namespace ns3
{
namespace debloat
{

const std::vector<NicProfile>&
NicProfile::GetAll()
{
    // Values from the drivers named; see doc/debloat.rst for the kernel constants.
    static const std::vector<NicProfile> profiles{
        {"e1000e",
         "Intel laptop/desktop GbE (e1000e): one queue, E1000_DEFAULT_TXD 256, a checksum "
         "context descriptor per packet, 24 KiB per data descriptor, stop below 22 free "
         "((MAX_SKB_FRAGS + 1) + 4, since 'e1000e: Fix TX dispatch condition', 2022), "
         "TX_WAKE_THRESHOLD 32, free counted as size - used - 1 (e1000_desc_unused), TxIntDelay 8 "
         "and TxAbsIntDelay 32 "
         "(x 1.024 us), InterruptThrottleRate 3 (dynamic conservative: 4000 to 20000 "
         "ints/s by e1000_update_itr's classes; 4000 below 1 Gbit/s); TSO in hardware, BQL "
         "counting skb->len",
         {{"TxQueues", "1"},
          {"TxRingSize", "256"},
          {"RxRingSize", "256"},
          {"TxMaxDataPerDescriptor", "24576"},
          {"TxContextDescriptor", "true"},
          {"TxStopThreshold", "22"},
          {"TxWakeThreshold", "32"},
          {"TxRingGap", "1"},
          {"TxWorkLimit", "256"},
          {"NapiWeight", "64"},
          {"TxPacketDelay", "8192ns"},
          {"TxUsecs", "32768ns"},
          {"RxPacketDelay", "0ns"},
          {"RxUsecs", "8192ns"},
          {"DynamicItr", "e1000e-conservative"},
          {"TsoSupport", "hardware"}}},
        {"igb",
         "Intel i350/i354 (igb; the i354 is the Atom C2000 'Rangeley' MAC): 8 queue pairs, "
         "IGB_DEFAULT_TXD 256, a context descriptor per packet, 32 KiB per data descriptor, "
         "stop below DESC_NEEDED 21 free, wake at 42, free counted as size - used - 1 "
         "(igb_desc_unused), IGB_DEFAULT_TX_WORK 128, dynamic "
         "conservative ITR (igb_update_ring_itr: from the average wire size, at most 20000 "
         "ints/s; with TxQueues 1, one vector, igb_set_itr's latency classes, 4000 or 20000 "
         "ints/s; 4000 below 1 Gbit/s); TSO in hardware, BQL counting every frame's "
         "headers (igb_tso's bytecount)",
         {{"TxQueues", "8"},
          {"TxRingSize", "256"},
          {"RxRingSize", "256"},
          {"TxMaxDataPerDescriptor", "32768"},
          {"TxContextDescriptor", "true"},
          {"TxStopThreshold", "21"},
          {"TxWakeThreshold", "42"},
          {"TxRingGap", "1"},
          {"TxWorkLimit", "128"},
          {"NapiWeight", "64"},
          {"DynamicItr", "igb-conservative"},
          {"TsoSupport", "hardware"},
          {"TsoBqlPerFrame", "true"}}},
        {"ixgbe",
         "Intel 82599/X540/X550 10GbE (ixgbe, Linux 6.9), 10 Gbit/s: 8 queue pairs (min(63, "
         "online CPUs) with Flow Director's ATR, the default: an 8-CPU host), IXGBE_DEFAULT_TXD "
         "and _RXD 512, a context descriptor per packet (CHECKSUM_PARTIAL), "
         "IXGBE_MAX_DATA_PER_TXD 16 KiB, stop below DESC_NEEDED 21 free, wake at "
         "TX_WAKE_THRESHOLD 42, free counted as size - used - 1 (ixgbe_desc_unused), "
         "IXGBE_DEFAULT_TX_WORK 256, NAPI weight 64, adaptive ITR (rx-usecs 1: "
         "ixgbe_update_itr, from 50 us); TSO in hardware, BQL counting every frame's headers "
         "(ixgbe_tso's bytecount)",
         {{"DataRate", "10Gbps"},
          {"TxQueues", "8"},
          {"TxRingSize", "512"},
          {"RxRingSize", "512"},
          {"TxMaxDataPerDescriptor", "16384"},
          {"TxContextDescriptor", "true"},
          {"TxStopThreshold", "21"},
          {"TxWakeThreshold", "42"},
          {"TxRingGap", "1"},
          {"TxWorkLimit", "256"},
          {"NapiWeight", "64"},
          {"DynamicItr", "ixgbe"},
          {"TsoSupport", "hardware"},
          {"TsoBqlPerFrame", "true"}}},
        {"mvneta",
         "Marvell Armada 385 NETA (mvneta, Linksys WRT1200AC), current driver: 8 TX queues, "
         "MVNETA_MAX_TXD 1024, RX 512, stop when 807 descriptors are used (ring minus "
         "MVNETA_MAX_SKB_DESCS 217), wake at half that, TX-done interrupt per packet, RX "
         "coalescing 32 frames or 100 us; TSO in the driver (mvneta_tx_tso: a header and a "
         "data descriptor per frame), at most MVNETA_MAX_TSO_SEGS 100 segments",
         {{"TxQueues", "8"},
          {"TxRingSize", "1024"},
          {"RxRingSize", "512"},
          {"TxMaxDataPerDescriptor", "65535"},
          {"TxContextDescriptor", "false"},
          {"TxStopThreshold", "218"},
          {"TxWakeAtHalfStop", "true"},
          {"TxWorkLimit", "1024"},
          {"NapiWeight", "64"},
          {"TxFrames", "1"},
          {"RxFrames", "32"},
          {"RxUsecs", "100us"},
          {"TsoSupport", "driver"},
          {"GsoMaxSegs", "100"}}},
        {"forcedeth",
         "NVIDIA nForce (forcedeth), the first driver with BQL: one queue, TX_RING_DEFAULT "
         "256, RX 512, 16 KiB per descriptor, stops rather than use its last free "
         "descriptor, wakes on any reclaim, TX_WORK_PER_LOOP 64, an interrupt per packet "
         "(throughput mode); TSO in hardware",
         {{"TxQueues", "1"},
          {"TxRingSize", "256"},
          {"RxRingSize", "512"},
          {"TxMaxDataPerDescriptor", "16384"},
          {"TxContextDescriptor", "false"},
          {"TxStopThreshold", "2"},
          {"TxWakeThreshold", "2"},
          {"TxWorkLimit", "64"},
          {"NapiWeight", "64"},
          {"TsoSupport", "hardware"}}},
        {"ag71xx",
         "Atheros AR9xxx/QCA95xx router MAC (ag71xx): one queue, 128 TX descriptors (one per "
         "packet), RX 256, stop at ring minus 2 used, wake below 3/4 of the ring, no "
         "coalescing, AG71XX_NAPI_WEIGHT 32",
         {{"TxQueues", "1"},
          {"TxRingSize", "128"},
          {"RxRingSize", "256"},
          {"TxMaxDataPerDescriptor", "65535"},
          {"TxContextDescriptor", "false"},
          {"TxStopThreshold", "3"},
          {"TxWakeThreshold", "33"},
          {"TxWorkLimit", "128"},
          {"NapiWeight", "32"}}},
        {"ag71xx-ar7100",
         "Atheros AR7100 (ag71xx) with 512-byte DMA descriptors: 128 x 4 = 512 TX "
         "descriptors, ceil(len / 512) per packet, stop at ring minus 2 x 4 used, wake below "
         "3/4 of the ring, AG71XX_NAPI_WEIGHT 32",
         {{"TxQueues", "1"},
          {"TxRingSize", "512"},
          {"RxRingSize", "256"},
          {"TxMaxDataPerDescriptor", "512"},
          {"TxContextDescriptor", "false"},
          {"TxStopThreshold", "9"},
          {"TxWakeThreshold", "129"},
          {"TxWorkLimit", "512"},
          {"NapiWeight", "32"}}},
        {"iwl3945",
         "An iwl3945-like wifi card: a 5.5 Mbit/s PHY with per-frame airtime overhead "
         "calibrated to the ~2.8 Mbit/s the seed measured for 1500-byte packets, a 256-entry "
         "TX queue that stops when fewer than high_mark 32 + 2 entries are free (223 frames "
         "queued) and wakes above low_mark 64 + 2; the seed's 8-frame patch is TxRingSize 8, "
         "TxStopThreshold 4, TxWakeThreshold 7",
         {{"DataRate", "5.5Mbps"},
          {"MinFrameSize", "0"},
          {"L1Overhead", "0"},
          {"PerFrameOverhead", "2083us"},
          {"TxQueues", "1"},
          {"TxRingSize", "256"},
          {"RxRingSize", "256"},
          {"TxMaxDataPerDescriptor", "65535"},
          {"TxContextDescriptor", "false"},
          {"TxStopThreshold", "34"},
          {"TxWakeThreshold", "67"},
          {"TxWorkLimit", "256"},
          {"NapiWeight", "64"}}},
        {"ideal",
         "Behaves like ns-3's PointToPointNetDevice for side-by-side comparisons: a 100-entry "
         "queue of one descriptor per packet, no layer-1 overhead, each frame reclaimed "
         "the moment it starts on the wire and passed up the moment it arrives, no ARP "
         "(frames to the broadcast address)",
         {{"TxQueues", "1"},
          {"TxRingSize", "100"},
          {"RxRingSize", "1000"},
          {"MinFrameSize", "0"},
          {"L1Overhead", "0"},
          {"TxMaxDataPerDescriptor", "65535"},
          {"TxContextDescriptor", "false"},
          {"TxStopThreshold", "1"},
          {"TxWakeThreshold", "1"},
          {"TxWorkLimit", "1000"},
          {"NapiWeight", "1000"},
          {"CompletionAtTxStart", "true"},
          {"RxAtArrival", "true"},
          {"NeedsArp", "false"}}},
    };
    return profiles;
}

const NicProfile&
NicProfile::Get(const std::string& name)
{
    std::ostringstream names;
    for (const NicProfile& profile : GetAll())
    {
        if (profile.name == name)
        {
            return profile;
        }
        names << (names.tellp() > 0 ? ", " : "") << profile.name;
    }
    NS_ABORT_MSG("NicProfile: unknown profile '" << name << "'; accepted: " << names.str());
    return GetAll().front();
}

uint32_t
NicProfile::GetTxQueues() const
{
    for (const auto& [attribute, value] : attributes)
    {
        if (attribute == "TxQueues")
        {
            return static_cast<uint32_t>(std::stoul(value));
        }
    }
    return 1;
}

} // namespace debloat
} // namespace ns3
