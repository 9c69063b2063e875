/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for CakeTinData: the host bulk flow counters and cake_hash()'s use of
 * them. The kernel's rules (sch_cake.c, Linux 6.x, cake_inc/dec_srchost_bulk_flow_count()
 * and the dsthost pair): a count is incremented only when cake_dsrc() (source) or
 * cake_ddst() (destination) of the flow mode holds and it is below CAKE_QUEUES (1024), and
 * decremented only when that holds and it is not zero. cake_dsrc() holds for the modes
 * with both the SRC_IP and FLOWS bits (dual-srchost, triple-isolate), cake_ddst() for those
 * with DST_IP and FLOWS (dual-dsthost, triple-isolate).
 */

#include "ns3/cake-tin-data.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <memory>

namespace
{

using ns3::debloat::CAKE_QUEUES;
using ns3::debloat::CakeClassification;
using ns3::debloat::CakeFlow;
using ns3::debloat::CakeFlowMode;
using ns3::debloat::CakeFlowSet;
using ns3::debloat::CakeTinData;

/// @return a tin on the heap (it holds 1024 flows and hosts)
std::unique_ptr<CakeTinData>
MakeTin()
{
    return std::make_unique<CakeTinData>();
}

TEST(CakeTinData, DsrcAndDdstFollowTheModeBits)
{
    // Source counts: SRC_IP | FLOWS = 5 (dual-srchost) and 7 (triple-isolate); destination
    // counts: DST_IP | FLOWS = 6 (dual-dsthost) and 7. srchost (1), hosts (3) and flows (4)
    // keep none.
    EXPECT_TRUE(CakeTinData::Dsrc(CakeFlowMode::DUAL_SRC));
    EXPECT_TRUE(CakeTinData::Dsrc(CakeFlowMode::TRIPLE));
    EXPECT_FALSE(CakeTinData::Dsrc(CakeFlowMode::DUAL_DST));
    EXPECT_FALSE(CakeTinData::Dsrc(CakeFlowMode::SRC_IP));
    EXPECT_FALSE(CakeTinData::Dsrc(CakeFlowMode::HOSTS));
    EXPECT_FALSE(CakeTinData::Dsrc(CakeFlowMode::FLOWS));
    EXPECT_TRUE(CakeTinData::Ddst(CakeFlowMode::DUAL_DST));
    EXPECT_TRUE(CakeTinData::Ddst(CakeFlowMode::TRIPLE));
    EXPECT_FALSE(CakeTinData::Ddst(CakeFlowMode::DUAL_SRC));
    EXPECT_FALSE(CakeTinData::Ddst(CakeFlowMode::HOSTS));
}

TEST(CakeTinData, IncrementOnlyWhenTheModeKeepsTheCount)
{
    // Flow on source host 4 and destination host 9. dual-srchost counts the source only,
    // dual-dsthost the destination only, triple-isolate both, flows neither.
    auto tin = MakeTin();
    CakeFlow flow;
    flow.srchost = 4;
    flow.dsthost = 9;
    tin->IncSrcHostBulkFlowCount(flow, CakeFlowMode::DUAL_SRC);
    tin->IncDstHostBulkFlowCount(flow, CakeFlowMode::DUAL_SRC);
    EXPECT_EQ(tin->hosts[4].srchostBulkFlows, 1U);
    EXPECT_EQ(tin->hosts[9].dsthostBulkFlows, 0U);
    tin->IncSrcHostBulkFlowCount(flow, CakeFlowMode::DUAL_DST);
    tin->IncDstHostBulkFlowCount(flow, CakeFlowMode::DUAL_DST);
    EXPECT_EQ(tin->hosts[4].srchostBulkFlows, 1U);
    EXPECT_EQ(tin->hosts[9].dsthostBulkFlows, 1U);
    tin->IncSrcHostBulkFlowCount(flow, CakeFlowMode::TRIPLE);
    tin->IncDstHostBulkFlowCount(flow, CakeFlowMode::TRIPLE);
    EXPECT_EQ(tin->hosts[4].srchostBulkFlows, 2U);
    EXPECT_EQ(tin->hosts[9].dsthostBulkFlows, 2U);
    tin->IncSrcHostBulkFlowCount(flow, CakeFlowMode::FLOWS);
    tin->IncDstHostBulkFlowCount(flow, CakeFlowMode::FLOWS);
    EXPECT_EQ(tin->hosts[4].srchostBulkFlows, 2U);
    EXPECT_EQ(tin->hosts[9].dsthostBulkFlows, 2U);
}

TEST(CakeTinData, IncrementStopsAtCakeQueues)
{
    // 1023 -> 1024 is allowed (below CAKE_QUEUES); at 1024 the count stays.
    auto tin = MakeTin();
    CakeFlow flow;
    flow.srchost = 0;
    flow.dsthost = 1;
    tin->hosts[0].srchostBulkFlows = CAKE_QUEUES - 1;
    tin->hosts[1].dsthostBulkFlows = CAKE_QUEUES - 1;
    for (int i = 0; i < 3; ++i)
    {
        tin->IncSrcHostBulkFlowCount(flow, CakeFlowMode::TRIPLE);
        tin->IncDstHostBulkFlowCount(flow, CakeFlowMode::TRIPLE);
    }
    EXPECT_EQ(tin->hosts[0].srchostBulkFlows, CAKE_QUEUES);
    EXPECT_EQ(tin->hosts[1].dsthostBulkFlows, CAKE_QUEUES);
}

TEST(CakeTinData, DecrementStopsAtZero)
{
    // 2 -> 1 -> 0, then 0 stays (a uint16_t would otherwise wrap to 65535); a mode that
    // does not keep the count leaves it.
    auto tin = MakeTin();
    CakeFlow flow;
    flow.srchost = 3;
    flow.dsthost = 3;
    tin->hosts[3].srchostBulkFlows = 2;
    tin->hosts[3].dsthostBulkFlows = 2;
    tin->DecSrcHostBulkFlowCount(flow, CakeFlowMode::HOSTS);
    tin->DecDstHostBulkFlowCount(flow, CakeFlowMode::DUAL_SRC);
    EXPECT_EQ(tin->hosts[3].srchostBulkFlows, 2U);
    EXPECT_EQ(tin->hosts[3].dsthostBulkFlows, 2U);
    for (int i = 0; i < 4; ++i)
    {
        tin->DecSrcHostBulkFlowCount(flow, CakeFlowMode::TRIPLE);
        tin->DecDstHostBulkFlowCount(flow, CakeFlowMode::TRIPLE);
    }
    EXPECT_EQ(tin->hosts[3].srchostBulkFlows, 0U);
    EXPECT_EQ(tin->hosts[3].dsthostBulkFlows, 0U);
}

TEST(CakeTinData, HostLoadIsTheLargerKeptCount)
{
    // host_load = max(1, srchost count if cake_dsrc(), dsthost count if cake_ddst()).
    auto tin = MakeTin();
    CakeFlow flow;
    flow.srchost = 1;
    flow.dsthost = 2;
    EXPECT_EQ(tin->HostLoad(flow, CakeFlowMode::TRIPLE), 1U);
    tin->hosts[1].srchostBulkFlows = 3;
    tin->hosts[2].dsthostBulkFlows = 5;
    EXPECT_EQ(tin->HostLoad(flow, CakeFlowMode::TRIPLE), 5U);
    EXPECT_EQ(tin->HostLoad(flow, CakeFlowMode::DUAL_SRC), 3U);
    EXPECT_EQ(tin->HostLoad(flow, CakeFlowMode::DUAL_DST), 5U);
    EXPECT_EQ(tin->HostLoad(flow, CakeFlowMode::FLOWS), 1U);
}

TEST(CakeTinData, CollisionMovesABulkFlowToItsNewHost)
{
    // dual-srchost. Queues 0..7 (set 0) hold bulk flows with hashes i * 1024 + i, flow i on
    // source host i, each host counting one bulk flow. A ninth flow, hash 8 * 1024 + 3
    // (reduced 3), finds no tag and no idle way: a collision on queue 3. cake_hash() takes
    // the bulk flow out of host 3's count (1 -> 0), then assigns the source host of the new
    // hash 12: set 8..15, way 4; no tag matches, host 12 has no bulk flows, so it is host 12;
    // the queue is still BULK, so host 12 counts it (0 -> 1).
    auto tin = MakeTin();
    for (uint32_t i = 0; i < 8; ++i)
    {
        tin->tags[i] = i * 1024 + i;
        tin->flows[i].set = CakeFlowSet::BULK;
        tin->flows[i].srchost = static_cast<uint16_t>(i);
        tin->hosts[i].srchostTag = 100 + i;
        tin->hosts[i].srchostBulkFlows = 1;
    }
    CakeClassification where;
    where.flowHash = 8 * 1024 + 3;
    where.srcHostHash = 12;
    EXPECT_EQ(tin->Hash(where, CakeFlowMode::DUAL_SRC), 3U);
    EXPECT_EQ(tin->stats.wayCollisions, 1U);
    EXPECT_EQ(tin->flows[3].srchost, 12U);
    EXPECT_EQ(tin->hosts[3].srchostBulkFlows, 0U);
    EXPECT_EQ(tin->hosts[12].srchostBulkFlows, 1U);
    EXPECT_EQ(tin->hosts[12].srchostTag, 12U);
}

TEST(CakeTinData, CollisionInFlowsModeLeavesHostCountsAlone)
{
    // flows mode keeps no host counts: the collision's decrement and the reassignment do
    // nothing to them (the kernel's cake_dsrc()/cake_ddst() guards).
    auto tin = MakeTin();
    for (uint32_t i = 0; i < 8; ++i)
    {
        tin->tags[i] = i * 1024 + i;
        tin->flows[i].set = CakeFlowSet::BULK;
    }
    tin->hosts[0].srchostBulkFlows = 7;
    CakeClassification where;
    where.flowHash = 8 * 1024 + 3;
    EXPECT_EQ(tin->Hash(where, CakeFlowMode::FLOWS), 3U);
    EXPECT_EQ(tin->hosts[0].srchostBulkFlows, 7U);
    EXPECT_EQ(tin->hosts[0].dsthostBulkFlows, 0U);
}

} // namespace
