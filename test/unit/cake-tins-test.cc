/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for the CAKE tins of net/sched/sch_cake.c. Expected values are derived
 * in comments from:
 *   presets:      diffserv3 rates r, r>>4, r>>2, tin quanta 1024, 64, 256, order {1,0,2};
 *                 diffserv4 rates r, r>>4, r>>1, r>>2, quanta 1024, 64, 512, 256,
 *                 order {1,0,2,3}; precedence/diffserv8 r_i+1 = r_i*7>>3 and
 *                 q_i+1 = q_i*7>>3 from 256, order identity; besteffort quantum 65535.
 *   set_rate:     flow quantum 1514 if rate 0 else clamp(rate>>12, 300, 1514);
 *                 rate_ns = (1e9 << 34) / max(64, rate), halved (shift--) while >= 2^34;
 *                 mtu_time = (mtu * rate_ns) >> shift; target = max(mtu_time*3/2, target);
 *                 interval = max(rtt + target' - target, 2 * target').
 *   select_tin:   besteffort -> 0; m = (mark & mask) >> ffs(mask), 1..tin_cnt ->
 *                 tin_order[m-1]; else tin_index[dscp] (ARP = 0x38), >= tin_cnt -> 0.
 * DSCP tables are written here as lists of codepoints per tin, from the reference sheet's
 * prose (linux.md 1.4). Rates are bytes/s (100 Mbit/s = 12500000), times ns.
 */

#include "ns3/cake-tins.h"
#include "ns3/prandom.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <vector>

namespace
{

using ns3::debloat::CAKE_DSCP_ARP;
using ns3::debloat::CAKE_MAX_TINS;
using ns3::debloat::CakeConfigureTins;
using ns3::debloat::CakeDiffservMode;
using ns3::debloat::CakeFlowQuantum;
using ns3::debloat::CakeQuantumDiv;
using ns3::debloat::CakeSelectTin;
using ns3::debloat::CakeTinLayout;
using ns3::debloat::CakeTinName;

constexpr uint64_t MS = 1000000;
constexpr uint64_t TARGET = 5 * MS;     // tc default target
constexpr uint64_t INTERVAL = 100 * MS; // tc default rtt
constexpr uint32_t MTU = 1514;          // psched_mtu() on Ethernet: 1500 + 14
constexpr uint64_t MBIT100 = 12500000;  // 100 Mbit/s in bytes/s

/// The layout of one preset with the default target and interval.
CakeTinLayout
Configure(CakeDiffservMode mode, uint64_t rate)
{
    return CakeConfigureTins(mode, rate, MTU, TARGET, INTERVAL);
}

/// A DSCP table: tin for the listed codepoints, defaultTin for the others.
std::vector<uint32_t>
Table(uint32_t defaultTin, const std::map<uint32_t, std::vector<uint32_t>>& lists)
{
    std::vector<uint32_t> table(64, defaultTin);
    for (const auto& [tin, dscps] : lists)
    {
        for (uint32_t dscp : dscps)
        {
            table.at(dscp) = tin;
        }
    }
    return table;
}

/// Checks the layout's table and CakeSelectTin() (no mark) for all 64 DSCPs.
void
ExpectTable(const CakeTinLayout& layout, const std::vector<uint32_t>& expected)
{
    for (uint32_t dscp = 0; dscp < 64; dscp++)
    {
        EXPECT_EQ(layout.dscpToTin[dscp], expected[dscp]) << "DSCP " << dscp;
        EXPECT_EQ(CakeSelectTin(layout, static_cast<uint8_t>(dscp), false, 0, 0), expected[dscp])
            << "DSCP " << dscp;
    }
}

// 100 Mbit/s diffserv3 (the man page's example):
//   BE r = 12500000: r>>12 = 3051 -> 1514; 1e9/r = 80 ns/B, 80 < 2^7 -> 80 << 27, shift 27;
//                    mtu_time = 1514 * 80 = 121120.
//   Bulk r>>4 = 781250: 190 -> 300; 1280 ns/B < 2^11 -> 1280 << 23, shift 23;
//                    mtu_time = 1514 * 1280 = 1937920.
//   Voice r>>2 = 3125000: 762 (in range); 320 ns/B < 2^9 -> 320 << 25, shift 25;
//                    mtu_time = 1514 * 320 = 484480.
//   All mtu_time * 1.5 < 5 ms: target 5 ms, interval 100 ms.
TEST(CakeTins, Diffserv3Rates)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV3, MBIT100);
    ASSERT_EQ(l.tinCount, 3U);
    EXPECT_EQ(l.mode, CakeDiffservMode::DIFFSERV3);

    const uint64_t rates[] = {12500000, 781250, 3125000};
    const uint16_t tinQuanta[] = {1024, 64, 256};
    const uint32_t flowQuanta[] = {1514, 300, 762};
    const uint64_t rateNs[] = {80ULL << 27, 1280ULL << 23, 320ULL << 25};
    const uint8_t shifts[] = {27, 23, 25};
    const uint64_t mtuTimes[] = {121120, 1937920, 484480};
    const char* names[] = {"Best Effort", "Bulk", "Voice"};
    for (uint32_t i = 0; i < 3; i++)
    {
        EXPECT_EQ(l.tins[i].rate, rates[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].tinQuantum, tinQuanta[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].flowQuantum, flowQuanta[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].shaper.rateNs, rateNs[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].shaper.rateShift, shifts[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].cparams.mtuTime, mtuTimes[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].cparams.target, TARGET) << "tin " << i;
        EXPECT_EQ(l.tins[i].cparams.interval, INTERVAL) << "tin " << i;
        EXPECT_EQ(l.tins[i].cparams.pInc, 1U << 24) << "tin " << i;
        EXPECT_EQ(l.tins[i].cparams.pDec, 1U << 20) << "tin " << i;
        EXPECT_STREQ(l.tins[i].name, names[i]) << "tin " << i;
        EXPECT_STREQ(CakeTinName(l, i), names[i]) << "tin " << i;
    }
    EXPECT_EQ(l.tinOrder[0], 1);
    EXPECT_EQ(l.tinOrder[1], 0);
    EXPECT_EQ(l.tinOrder[2], 2);
    EXPECT_STREQ(CakeTinName(l, 3), "");
}

// tc -s at 50 Mbit diffserv3 printed bulk target 5.81ms, interval 101ms, BE/voice 5ms/100ms:
//   bulk r = 6250000 >> 4 = 390625 B/s: 2560 ns/B, mtu_time = 1514 * 2560 = 3875840;
//   target = 3875840 * 3 / 2 = 5813760; interval = 100 ms + 5813760 - 5 ms = 100813760.
//   voice 1562500 B/s: 640 ns/B, mtu_time 968960, * 1.5 = 1453440 < 5 ms.
TEST(CakeTins, Diffserv3At50MbitMatchesTcOutput)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV3, 6250000);
    EXPECT_EQ(l.tins[1].cparams.mtuTime, 3875840U);
    EXPECT_EQ(l.tins[1].cparams.target, 5813760U);
    EXPECT_EQ(l.tins[1].cparams.interval, 100813760U);
    EXPECT_EQ(l.tins[0].cparams.target, TARGET);
    EXPECT_EQ(l.tins[0].cparams.interval, INTERVAL);
    EXPECT_EQ(l.tins[2].cparams.mtuTime, 968960U);
    EXPECT_EQ(l.tins[2].cparams.target, TARGET);
    EXPECT_EQ(l.tins[2].cparams.interval, INTERVAL);
}

// tc -s at 10 Mbit, rtt 10ms (target 500 us) printed targets 29.1/1.8/7.3 ms and
// intervals 58.1/11.3/16.8 ms (Bulk, Best Effort, Voice):
//   BE 1250000 B/s: 800 ns/B, mtu_time 1211200, target 1816800,
//      interval = 10 ms + 1816800 - 500000 = 11316800.
//   Bulk 78125 B/s: 12800 ns/B, mtu_time 19379200, target 29068800,
//      interval = max(38568800, 2 * 29068800 = 58137600) = 58137600 (the 2*target floor).
//   Voice 312500 B/s: 3200 ns/B, mtu_time 4844800, target 7267200, interval 16767200.
TEST(CakeTins, Diffserv3At10MbitShortRttMatchesTcOutput)
{
    const CakeTinLayout l =
        CakeConfigureTins(CakeDiffservMode::DIFFSERV3, 1250000, MTU, 500000, 10 * MS);
    EXPECT_EQ(l.tins[0].cparams.target, 1816800U);
    EXPECT_EQ(l.tins[0].cparams.interval, 11316800U);
    EXPECT_EQ(l.tins[1].cparams.target, 29068800U);
    EXPECT_EQ(l.tins[1].cparams.interval, 58137600U);
    EXPECT_EQ(l.tins[2].cparams.target, 7267200U);
    EXPECT_EQ(l.tins[2].cparams.interval, 16767200U);
    // flow quanta: 1250000 >> 12 = 305; 78125 >> 12 = 19 -> 300; 312500 >> 12 = 76 -> 300.
    EXPECT_EQ(l.tins[0].flowQuantum, 305U);
    EXPECT_EQ(l.tins[1].flowQuantum, 300U);
    EXPECT_EQ(l.tins[2].flowQuantum, 300U);
}

// 100 Mbit/s diffserv4: rates 12500000, >>4 = 781250, >>1 = 6250000, >>2 = 3125000;
// tin quanta 1024, 64, 512, 256; flow quanta 1514, 300, 6250000>>12 = 1525 -> 1514, 762.
TEST(CakeTins, Diffserv4Rates)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV4, MBIT100);
    ASSERT_EQ(l.tinCount, 4U);
    const uint64_t rates[] = {12500000, 781250, 6250000, 3125000};
    const uint16_t tinQuanta[] = {1024, 64, 512, 256};
    const uint32_t flowQuanta[] = {1514, 300, 1514, 762};
    const char* names[] = {"Best Effort", "Bulk", "Video", "Voice"};
    const uint8_t order[] = {1, 0, 2, 3};
    for (uint32_t i = 0; i < 4; i++)
    {
        EXPECT_EQ(l.tins[i].rate, rates[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].tinQuantum, tinQuanta[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].flowQuantum, flowQuanta[i]) << "tin " << i;
        EXPECT_STREQ(l.tins[i].name, names[i]) << "tin " << i;
        EXPECT_EQ(l.tinOrder[i], order[i]) << "position " << i;
    }
    // Video 6250000 B/s: 160 ns/B, 160 < 2^8 -> 160 << 26, shift 26.
    EXPECT_EQ(l.tins[2].shaper.rateNs, 160ULL << 26);
    EXPECT_EQ(l.tins[2].shaper.rateShift, 26);
}

// precedence at 100 Mbit/s: r *= 7, >>= 3 each step:
//   12500000, 10937500, 76562500>>3 = 9570312, 66992184>>3 = 8374023,
//   58618161>>3 = 7327270, 51290890>>3 = 6411361, 44879527>>3 = 5609940,
//   39269580>>3 = 4908697.
// tin quanta 256, 224, 1568>>3 = 196, 1372>>3 = 171, 1197>>3 = 149, 1043>>3 = 130,
//   910>>3 = 113, 791>>3 = 98.
// flow quanta: r>>12 = 3051, 2670, 2336, 2044, 1788, 1565 -> 1514; 1369; 1198.
TEST(CakeTins, PrecedenceRateChain)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::PRECEDENCE, MBIT100);
    ASSERT_EQ(l.tinCount, 8U);
    const uint64_t rates[] =
        {12500000, 10937500, 9570312, 8374023, 7327270, 6411361, 5609940, 4908697};
    const uint16_t tinQuanta[] = {256, 224, 196, 171, 149, 130, 113, 98};
    const uint32_t flowQuanta[] = {1514, 1514, 1514, 1514, 1514, 1514, 1369, 1198};
    const char* names[] = {"Tin 0", "Tin 1", "Tin 2", "Tin 3", "Tin 4", "Tin 5", "Tin 6", "Tin 7"};
    for (uint32_t i = 0; i < 8; i++)
    {
        EXPECT_EQ(l.tins[i].rate, rates[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].tinQuantum, tinQuanta[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].flowQuantum, flowQuanta[i]) << "tin " << i;
        EXPECT_EQ(l.tinOrder[i], i) << "position " << i;
        EXPECT_STREQ(l.tins[i].name, names[i]) << "tin " << i;
    }
}

// diffserv8 at 10 Mbit/s: the same chain from 1250000: 1093750, 8203125>>3 = 957031,
// 6699217>>3 = 837402, 5861814>>3 = 732726, 5129082>>3 = 641135, 4487945>>3 = 560993,
// 3926951>>3 = 490868; flow quanta 305, then all below 300 -> 300.
TEST(CakeTins, Diffserv8Rates)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV8, 1250000);
    ASSERT_EQ(l.tinCount, 8U);
    const uint64_t rates[] = {1250000, 1093750, 957031, 837402, 732726, 641135, 560993, 490868};
    const uint16_t tinQuanta[] = {256, 224, 196, 171, 149, 130, 113, 98};
    for (uint32_t i = 0; i < 8; i++)
    {
        EXPECT_EQ(l.tins[i].rate, rates[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].tinQuantum, tinQuanta[i]) << "tin " << i;
        EXPECT_EQ(l.tins[i].flowQuantum, i == 0 ? 305U : 300U) << "tin " << i;
        EXPECT_EQ(l.tinOrder[i], i) << "position " << i;
    }
    EXPECT_STREQ(l.tins[7].name, "Tin 7");
}

// besteffort: one tin at the full rate, tin quantum 65535, order {0}; tc has no named
// header for one tin and prints "Tin 0".
TEST(CakeTins, BesteffortSingleTin)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::BESTEFFORT, MBIT100);
    ASSERT_EQ(l.tinCount, 1U);
    EXPECT_EQ(l.tins[0].rate, MBIT100);
    EXPECT_EQ(l.tins[0].tinQuantum, 65535);
    EXPECT_EQ(l.tins[0].flowQuantum, 1514U);
    EXPECT_EQ(l.tinOrder[0], 0);
    EXPECT_STREQ(l.tins[0].name, "Tin 0");
    ExpectTable(l, std::vector<uint32_t>(64, 0));
}

// Unlimited (rate 0): every tin has rate 0, rate_ns 0, shift 0, flow quantum 1514,
// mtu_time 0, so target 5 ms and interval 100 ms; tin quanta stay the preset's.
TEST(CakeTins, UnlimitedRate)
{
    for (auto mode : {CakeDiffservMode::DIFFSERV3,
                      CakeDiffservMode::DIFFSERV4,
                      CakeDiffservMode::DIFFSERV8,
                      CakeDiffservMode::BESTEFFORT,
                      CakeDiffservMode::PRECEDENCE})
    {
        const CakeTinLayout l = Configure(mode, 0);
        for (uint32_t i = 0; i < l.tinCount; i++)
        {
            EXPECT_EQ(l.tins[i].rate, 0U);
            EXPECT_EQ(l.tins[i].shaper.rateNs, 0U);
            EXPECT_EQ(l.tins[i].shaper.rateShift, 0);
            EXPECT_EQ(l.tins[i].flowQuantum, 1514U);
            EXPECT_EQ(l.tins[i].cparams.mtuTime, 0U);
            EXPECT_EQ(l.tins[i].cparams.target, TARGET);
            EXPECT_EQ(l.tins[i].cparams.interval, INTERVAL);
        }
    }
    const CakeTinLayout d3 = Configure(CakeDiffservMode::DIFFSERV3, 0);
    EXPECT_EQ(d3.tins[0].tinQuantum, 1024);
    EXPECT_EQ(d3.tins[1].tinQuantum, 64);
    EXPECT_EQ(d3.tins[2].tinQuantum, 256);
}

// 1 Mbit/s besteffort = 125000 B/s: 8000 ns/B; 8000 < 2^13 -> rate_ns 8000 << 21, shift 21;
// mtu_time = 1514 * 8000 = 12112000 (12.112 ms, exact); target = max(18168000, 5 ms) =
// 18168000; interval = max(100 ms + 18168000 - 5 ms = 113168000, 36336000) = 113168000;
// flow quantum 125000 >> 12 = 30 -> 300.
TEST(CakeTins, LowRateCobaltFloors)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::BESTEFFORT, 125000);
    EXPECT_EQ(l.tins[0].shaper.rateNs, 8000ULL << 21);
    EXPECT_EQ(l.tins[0].shaper.rateShift, 21);
    EXPECT_EQ(l.tins[0].cparams.mtuTime, 12112000U);
    EXPECT_EQ(l.tins[0].cparams.target, 18168000U);
    EXPECT_EQ(l.tins[0].cparams.interval, 113168000U);
    EXPECT_EQ(l.tins[0].flowQuantum, 300U);
}

// Rate 1 B/s: the tin keeps rate 1 (tin_rate_bps), the shaper uses MIN_RATE 64:
// 1e9 / 64 = 15625000 ns/B < 2^24 -> rate_ns 15625000 << 10, shift 10;
// mtu_time = 1514 * 15625000 = 23656250000; target = 35484375000;
// interval = max(100 ms + target - 5 ms = 35579375000, 2 * target = 70968750000).
TEST(CakeTins, MinRateFloor)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::BESTEFFORT, 1);
    EXPECT_EQ(l.tins[0].rate, 1U);
    EXPECT_EQ(l.tins[0].shaper.rateNs, 15625000ULL << 10);
    EXPECT_EQ(l.tins[0].shaper.rateShift, 10);
    EXPECT_EQ(l.tins[0].flowQuantum, 300U);
    EXPECT_EQ(l.tins[0].cparams.mtuTime, 23656250000ULL);
    EXPECT_EQ(l.tins[0].cparams.target, 35484375000ULL);
    EXPECT_EQ(l.tins[0].cparams.interval, 70968750000ULL);
}

// The mtu sets mtu_time only; the flow quantum's ceiling is the literal 1514. Jumbo mtu
// 9014 at 100 Mbit/s: flow quantum still 1514, mtu_time = 9014 * 80 = 721120.
TEST(CakeTins, MtuDrivesCobaltNotFlowQuantum)
{
    const CakeTinLayout l =
        CakeConfigureTins(CakeDiffservMode::BESTEFFORT, MBIT100, 9014, TARGET, INTERVAL);
    EXPECT_EQ(l.tins[0].flowQuantum, 1514U);
    EXPECT_EQ(l.tins[0].cparams.mtuTime, 721120U);
}

// cake_reconfigure(): tins from tin_cnt on take tin 0's mtu_time (12112000 at 1 Mbit/s).
TEST(CakeTins, UnusedTinsInheritMtuTime)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV3, 125000);
    for (uint32_t c = 3; c < CAKE_MAX_TINS; c++)
    {
        EXPECT_EQ(l.tins[c].cparams.mtuTime, 12112000U) << "tin " << c;
        EXPECT_STREQ(CakeTinName(l, c), "") << "tin " << c;
    }
}

// A mode value outside the enum falls to the kernel's default case: diffserv3.
TEST(CakeTins, UnknownModeBehavesAsDiffserv3)
{
    const auto odd = static_cast<CakeDiffservMode>(9);
    const CakeTinLayout l = Configure(odd, MBIT100);
    EXPECT_EQ(l.mode, odd);
    EXPECT_EQ(l.tinCount, 3U);
    EXPECT_EQ(l.tins[1].rate, 781250U);
    EXPECT_EQ(l.tinOrder[0], 1);
    EXPECT_EQ(CakeSelectTin(l, 46, false, 0, 0), 2U); // EF -> Voice
}

// diffserv3 (0 Best Effort, 1 Bulk, 2 Voice): 1 (LE), 8 (CS1) -> 1; 4, 44 (VA), 46 (EF),
// 48 (CS6), 56 (CS7) -> 2; everything else (CS5 = 40 included) -> 0.
TEST(CakeTins, Diffserv3DscpTable)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV3, MBIT100);
    ExpectTable(l, Table(0, {{1, {1, 8}}, {2, {4, 44, 46, 48, 56}}}));
    EXPECT_EQ(l.dscpToTin[40], 0);
}

// diffserv4 (0 Best Effort, 1 Bulk, 2 Video, 3 Voice): 1, 8 -> 1; 4, 16, 18, 20, 22, 24,
// 26, 28, 30, 34, 36, 38 -> 2; 32, 40, 44, 46, 48, 56 -> 3; else 0 (AF1x 10/12/14 too).
TEST(CakeTins, Diffserv4DscpTable)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV4, MBIT100);
    ExpectTable(l,
                Table(0,
                      {{1, {1, 8}},
                       {2, {4, 16, 18, 20, 22, 24, 26, 28, 30, 34, 36, 38}},
                       {3, {32, 40, 44, 46, 48, 56}}}));
}

// diffserv8: 0 -> 2; 1 -> 0; 2 -> 1; 4 -> 4; 8, 10, 12, 14 -> 1; 16 -> 5; 18, 20, 22 -> 4;
// 24, 26, 28, 30 -> 3; 32 -> 6; 34, 36, 38 -> 3; 40, 44, 46 -> 6; 48, 56 -> 7; else 2.
TEST(CakeTins, Diffserv8DscpTable)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV8, MBIT100);
    ExpectTable(l,
                Table(2,
                      {{0, {1}},
                       {1, {2, 8, 10, 12, 14}},
                       {3, {24, 26, 28, 30, 34, 36, 38}},
                       {4, {4, 18, 20, 22}},
                       {5, {16}},
                       {6, {32, 40, 44, 46}},
                       {7, {48, 56}}}));
}

// precedence: tin = DSCP >> 3, i.e. DSCPs 8k..8k+7 -> tin k.
TEST(CakeTins, PrecedenceDscpTable)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::PRECEDENCE, MBIT100);
    std::map<uint32_t, std::vector<uint32_t>> lists;
    for (uint32_t k = 0; k < 8; k++)
    {
        for (uint32_t d = 0; d < 8; d++)
        {
            lists[k].push_back(8 * k + d);
        }
    }
    ExpectTable(l, Table(0, lists));
}

// fwmark 0xff00 (shift 8): mark 0x0200 -> m = 2 -> tin_order[1]. diffserv3 order {1,0,2}:
// m 1 -> 1 (Bulk), 2 -> 0 (Best Effort), 3 -> 2 (Voice), whatever the DSCP (CS1 here).
// diffserv4 order {1,0,2,3}: m 1..4 -> 1, 0, 2, 3.
TEST(CakeTins, FwmarkSelectsByPrintOrder)
{
    const CakeTinLayout d3 = Configure(CakeDiffservMode::DIFFSERV3, MBIT100);
    EXPECT_EQ(CakeSelectTin(d3, 8, false, 0x0200, 0xff00), d3.tinOrder[1]);
    EXPECT_EQ(CakeSelectTin(d3, 8, false, 0x0200, 0xff00), 0U);
    EXPECT_EQ(CakeSelectTin(d3, 8, false, 0x0100, 0xff00), 1U);
    EXPECT_EQ(CakeSelectTin(d3, 8, false, 0x0300, 0xff00), 2U);
    EXPECT_EQ(CakeSelectTin(d3, 8, false, 0x12340300, 0xff00), 2U); // bits outside the mask

    const CakeTinLayout d4 = Configure(CakeDiffservMode::DIFFSERV4, MBIT100);
    const uint32_t expected[] = {1, 0, 2, 3};
    for (uint32_t m = 1; m <= 4; m++)
    {
        EXPECT_EQ(CakeSelectTin(d4, 0, false, m << 8, 0xff00), expected[m - 1]) << "m " << m;
    }

    // diffserv8: identity order, mark 8 -> tin 7.
    const CakeTinLayout d8 = Configure(CakeDiffservMode::DIFFSERV8, MBIT100);
    EXPECT_EQ(CakeSelectTin(d8, 0, false, 0x0800, 0xff00), 7U);
}

// Out-of-range marks fall back to the DSCP table: diffserv3 m = 4 > 3 and m = 0 (no mask
// bit set) use EF -> 2 / CS1 -> 1; with mask 0 the mark is ignored.
TEST(CakeTins, FwmarkOutOfRangeFallsBackToDscp)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV3, MBIT100);
    EXPECT_EQ(CakeSelectTin(l, 46, false, 0x0400, 0xff00), 2U);
    EXPECT_EQ(CakeSelectTin(l, 8, false, 0x0400, 0xff00), 1U);
    EXPECT_EQ(CakeSelectTin(l, 8, false, 0x00ff, 0xff00), 1U);
    EXPECT_EQ(CakeSelectTin(l, 0, false, 0x0001, 0), 0U);
    EXPECT_EQ(CakeSelectTin(l, 46, false, 0xffffffff, 0), 2U);
}

// The shift is the lowest set bit of the mask, not a byte boundary:
//   mask 0x30 (shift 4), mark 0x20 -> m 2 -> tin_order[1] = 0 (diffserv3);
//   mask 0x0a (shift 1), mark 0x08 -> m = 0x08 >> 1 = 4: diffserv4 tin_order[3] = 3,
//   diffserv3 4 > 3 -> DSCP (CS1 -> 1);
//   mask 0x80000000 (shift 31), mark 0x80000000 -> m 1 -> tin_order[0] = 1.
TEST(CakeTins, FwmarkShiftUsesLowestMaskBit)
{
    const CakeTinLayout d3 = Configure(CakeDiffservMode::DIFFSERV3, MBIT100);
    const CakeTinLayout d4 = Configure(CakeDiffservMode::DIFFSERV4, MBIT100);
    EXPECT_EQ(CakeSelectTin(d3, 8, false, 0x20, 0x30), 0U);
    EXPECT_EQ(CakeSelectTin(d4, 0, false, 0x08, 0x0a), 3U);
    EXPECT_EQ(CakeSelectTin(d3, 8, false, 0x08, 0x0a), 1U);
    EXPECT_EQ(CakeSelectTin(d3, 0, false, 0x80000000U, 0x80000000U), 1U);
}

// besteffort returns tin 0 before looking at marks or DSCPs.
TEST(CakeTins, BesteffortIgnoresMarkAndDscp)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::BESTEFFORT, MBIT100);
    EXPECT_EQ(CakeSelectTin(l, 46, false, 0x0100, 0xff00), 0U);
    EXPECT_EQ(CakeSelectTin(l, 0, true, 0, 0), 0U);
}

// ARP counts as DSCP 0x38 (CS7): diffserv3 -> 2 (Voice), diffserv4 -> 3 (Voice),
// diffserv8 -> 7, precedence -> 56 >> 3 = 7, whatever DSCP is passed; a valid mark wins.
TEST(CakeTins, ArpCountsAsCs7)
{
    EXPECT_EQ(CAKE_DSCP_ARP, 0x38);
    EXPECT_EQ(CakeSelectTin(Configure(CakeDiffservMode::DIFFSERV3, 0), 8, true, 0, 0), 2U);
    EXPECT_EQ(CakeSelectTin(Configure(CakeDiffservMode::DIFFSERV4, 0), 0, true, 0, 0), 3U);
    EXPECT_EQ(CakeSelectTin(Configure(CakeDiffservMode::DIFFSERV8, 0), 0, true, 0, 0), 7U);
    EXPECT_EQ(CakeSelectTin(Configure(CakeDiffservMode::PRECEDENCE, 0), 0, true, 0, 0), 7U);
    const CakeTinLayout d3 = Configure(CakeDiffservMode::DIFFSERV3, 0);
    EXPECT_EQ(CakeSelectTin(d3, 0, true, 0x0100, 0xff00), 1U); // mark 1 -> Bulk
}

// A table entry at or above tin_cnt selects tin 0 (the kernel's guard).
TEST(CakeTins, OutOfRangeTableEntryFallsBackToTinZero)
{
    CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV3, MBIT100);
    l.dscpToTin[46] = 5;
    EXPECT_EQ(CakeSelectTin(l, 46, false, 0, 0), 0U);
}

// Only the 6 DSCP bits are used: 0x40 | 46 selects as EF (diffserv3 -> 2).
TEST(CakeTins, DscpHighBitsIgnored)
{
    const CakeTinLayout l = Configure(CakeDiffservMode::DIFFSERV3, MBIT100);
    EXPECT_EQ(CakeSelectTin(l, 0x40 | 46, false, 0, 0), 2U);
    EXPECT_EQ(CakeSelectTin(l, 0xC0 | 8, false, 0, 0), 1U);
}

// quantum_div[0] = (u16)~0 = 65535; [i] = 65535 / i: 1 -> 65535, 2 -> 32767, 3 -> 21845,
// 7 -> 9362, 1024 -> 63. The share of a 1514-byte flow quantum for one host:
// (1514 * 65535) >> 16 = 99219990 >> 16 = 1513; for 3 hosts: (1514 * 21845) >> 16 =
// 33073330 >> 16 = 504.
TEST(CakeTins, QuantumDiv)
{
    EXPECT_EQ(CakeQuantumDiv(0), 65535U);
    EXPECT_EQ(CakeQuantumDiv(1), 65535U);
    EXPECT_EQ(CakeQuantumDiv(2), 32767U);
    EXPECT_EQ(CakeQuantumDiv(3), 21845U);
    EXPECT_EQ(CakeQuantumDiv(7), 9362U);
    EXPECT_EQ(CakeQuantumDiv(1024), 63U);
    EXPECT_EQ(CakeQuantumDiv(2048), 31U); // beyond the kernel's table: 65535 / 2048
    EXPECT_EQ((1514U * CakeQuantumDiv(1)) >> 16, 1513U);
    EXPECT_EQ((1514U * CakeQuantumDiv(3)) >> 16, 504U);
}

// cake_get_flow_quantum(): (q * quantum_div[n] + r) >> 16 for a 16-bit dither r, worked
// out as q * quantum_div[n] = 65536 * whole + rest, so the result is whole + (r >= 65536 - rest):
//   q 1514, n 1:    1514 * 65535 = 99219990 = 65536 * 1513 + 64022 -> 1514 from r = 1514
//   q 1514, n 3:    1514 * 21845 = 33073330 = 65536 * 504 + 43186  -> 505 from r = 22350
//   q 1514, n 1024: 1514 * 63 = 95382 = 65536 * 1 + 29846          -> 2 from r = 35690
//   q 300, n 8:     300 * 8191 = 2457300 = 65536 * 37 + 32468      -> 38 from r = 33068
TEST(CakeTins, FlowQuantumDitherRoundsUpAtTheDerivedThreshold)
{
    struct Case
    {
        uint32_t quantum;
        uint32_t hostLoad;
        uint32_t whole;
        uint32_t threshold;
    };

    for (const Case& c : {Case{1514, 1, 1513, 1514},
                          Case{1514, 3, 504, 22350},
                          Case{1514, 1024, 1, 35690},
                          Case{300, 8, 37, 33068}})
    {
        const uint32_t div = CakeQuantumDiv(c.hostLoad);
        EXPECT_EQ(CakeFlowQuantum(c.quantum, div, 0), c.whole) << c.hostLoad;
        EXPECT_EQ(CakeFlowQuantum(c.quantum, div, c.threshold - 1), c.whole) << c.hostLoad;
        EXPECT_EQ(CakeFlowQuantum(c.quantum, div, c.threshold), c.whole + 1) << c.hostLoad;
        EXPECT_EQ(CakeFlowQuantum(c.quantum, div, 0xFFFF), c.whole + 1) << c.hostLoad;
    }
}

// Over uniform dithers the mean deficit is exactly q * quantum_div[n] / 65536: the sum over
// all 65536 values of r is 65536 * whole + rest. For q 1514, n 3 that is 33073330 / 65536 =
// 504.65897, i.e. quantum / n = 504.66667 less quantum_div's truncation (65535 / 3 is exact,
// 65535 / 65536 is not: 1514 / 3 / 65536 = 0.0077). Every value of r: the mean is exact.
// With N = 65536 draws of a Prandom instead, each result is 504 + Bernoulli(p), p = 43186 /
// 65536 = 0.659, so the sample mean has standard deviation sqrt(p (1 - p) / N) = 0.00185;
// the bound 0.012 is 6.5 of those. Without the dither every result would be 504.
TEST(CakeTins, FlowQuantumMeanIsTheExactShare)
{
    const uint32_t div = CakeQuantumDiv(3);
    uint64_t sum = 0;
    for (uint32_t r = 0; r <= 0xFFFF; ++r)
    {
        sum += CakeFlowQuantum(1514, div, static_cast<uint16_t>(r));
    }
    EXPECT_EQ(sum, 33073330U);

    ns3::debloat::Prandom random;
    random.Seed(12345);
    constexpr uint32_t N = 65536;
    sum = 0;
    for (uint32_t i = 0; i < N; ++i)
    {
        sum += CakeFlowQuantum(1514, div, static_cast<uint16_t>(random.Next()));
    }
    EXPECT_LE(std::fabs(static_cast<double>(sum) / N - 33073330.0 / 65536), 0.012);
}

} // namespace
