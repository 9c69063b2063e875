/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sqm-helper.h"

#include "tc-qdisc-helper.h"

#include "ns3/string.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

std::string
SqmHelper::GetTcText(Script script, uint64_t kbit, const std::string& qdisc)
{
    std::ostringstream text;
    const std::string r = std::to_string(kbit) + "kbit";
    switch (script)
    {
    case PIECE_OF_CAKE:
        text << "cake bandwidth " << r << " besteffort";
        break;
    case SIMPLEST:
        text << "htb default 10; class parent 1: classid 1:1 rate " << r << " ceil " << r
             << "; class parent 1:1 classid 1:10 rate " << r << " ceil " << r
             << " prio 0; qdisc parent 1:10 " << qdisc;
        break;
    case SIMPLE: {
        // simple.qos's egress(): PRIO_RATE = CEIL / 3, BE_RATE = BK_RATE = CEIL / 6,
        // BE_CEIL = CEIL - 16, all in kbit with integer division.
        const std::string prio = std::to_string(kbit / 3) + "kbit";
        const std::string be = std::to_string(kbit / 6) + "kbit";
        const std::string beCeil = std::to_string(kbit > 16 ? kbit - 16 : 1) + "kbit";
        text << "htb default 12; class parent 1: classid 1:1 rate " << r << " ceil " << r
             << "; class parent 1:1 classid 1:10 rate " << r << " ceil " << r << " prio 0"
             << "; class parent 1:1 classid 1:11 rate 128kbit ceil " << prio << " prio 1"
             << "; class parent 1:1 classid 1:12 rate " << be << " ceil " << beCeil
             << " prio 2; class parent 1:1 classid 1:13 rate " << be << " ceil " << beCeil
             << " prio 3; qdisc parent 1:10 pfifo; qdisc parent 1:11 " << qdisc
             << "; qdisc parent 1:12 " << qdisc << "; qdisc parent 1:13 " << qdisc;
        break;
    }
    }
    return text.str();
}

void
SqmHelper::SetRootQueueDisc(TrafficControlHelper& helper,
                            Script script,
                            DataRate linkRate,
                            double percent,
                            const std::string& qdisc)
{
    if (!(percent > 0 && percent <= 100))
    {
        throw std::invalid_argument("sqm: percent " + std::to_string(percent) +
                                    ": expected a share of the link in (0, 100]");
    }
    const auto kbit = static_cast<uint64_t>(linkRate.GetBitRate() * percent / 100 / 1000);
    if (kbit == 0)
    {
        throw std::invalid_argument("sqm: the shaped rate rounds to 0 kbit/s");
    }
    TcQdiscHelper::SetRootQueueDisc(helper, GetTcText(script, kbit, qdisc));
    if (script == SIMPLE)
    {
        // simple.qos's iptables marks and fw filters: CS6, EF, AF42 and Minimize-Delay to
        // 1:11, CS1 to 1:13, the rest to the default 1:12.
        helper.AddPacketFilter(0,
                               "ns3::debloat::DscpPacketFilter",
                               "Map",
                               StringValue("CS6=1:11,EF=1:11,AF42=1:11,TOSLD=1:11,CS1=1:13"));
    }
}

} // namespace debloat
} // namespace ns3
