/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEBLOAT_COMPAT_H
#define DEBLOAT_COMPAT_H

/**
 * @file
 * @ingroup debloat
 * The one place where the module absorbs ns-3 API differences between ns-3.35 and the
 * latest release. Every build passes DEBLOAT_NS3_VERSION = 100 * major + minor (335, 337,
 * 348; 999 for ns-3-dev): CMakeLists.txt reads it from the tree's VERSION file or the
 * installed package, wscript from the tree's VERSION file.
 */

#include "ns3/arp-cache.h"
#include "ns3/channel.h"
#include "ns3/command-line.h"
#include "ns3/enum.h"
#include "ns3/event-id.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#if DEBLOAT_NS3_VERSION >= 337
#include "ns3/neighbor-cache-helper.h"
#endif

#include <functional>
#include <set>
#include <string>

#ifndef DEBLOAT_NS3_VERSION
#error "DEBLOAT_NS3_VERSION is not defined: build debloat through its CMakeLists.txt or wscript"
#endif

namespace ns3
{
namespace debloat
{
namespace compat
{

#if DEBLOAT_NS3_VERSION >= 342
/// TestCase duration for suites that finish in about a second (TestCase::Duration since 3.42).
constexpr auto TEST_QUICK = TestCase::Duration::QUICK;
/// TestCase duration for longer validation runs.
constexpr auto TEST_EXTENSIVE = TestCase::Duration::EXTENSIVE;
/// TestSuite type of the module's unit suites (TestSuite::Type since 3.42).
constexpr auto SUITE_UNIT = TestSuite::Type::UNIT;
/// TestSuite type of the module's system suites.
constexpr auto SUITE_SYSTEM = TestSuite::Type::SYSTEM;
#else
/// TestCase duration for suites that finish in about a second.
constexpr auto TEST_QUICK = TestCase::QUICK;
/// TestCase duration for longer validation runs.
constexpr auto TEST_EXTENSIVE = TestCase::EXTENSIVE;
/// TestSuite type of the module's unit suites.
constexpr auto SUITE_UNIT = TestSuite::UNIT;
/// TestSuite type of the module's system suites.
constexpr auto SUITE_SYSTEM = TestSuite::SYSTEM;
#endif

/**
 * Whether an event is still scheduled: EventId::IsPending() since 3.42, IsRunning() before
 * (removed in 3.46).
 * @param event the event
 * @return true if the event has neither run nor been cancelled
 */
inline bool
IsPending(const EventId& event)
{
#if DEBLOAT_NS3_VERSION >= 342
    return event.IsPending();
#else
    return event.IsRunning();
#endif
}

/**
 * MakeEnumAccessor: a template on the enum type since ns-3.41, a plain function before.
 * @tparam E the enum type
 * @tparam Args the member or the getter and setter
 * @param args the member or the getter and setter
 * @return the attribute accessor
 */
template <typename E, typename... Args>
auto
MakeEnumAccessor(Args... args)
{
#if DEBLOAT_NS3_VERSION >= 341
    return ns3::MakeEnumAccessor<E>(args...);
#else
    return ns3::MakeEnumAccessor(args...);
#endif
}

/**
 * A socket address that keeps a socket's TOS byte through Connect(). ns-3.36 to 3.41 copy
 * the TOS of the address given to Bind()/Connect() into the socket (IP_TOS), so the address
 * must carry it there; 3.42 removed the address's TOS and Socket::SetIpTos() alone holds.
 * @param address the IPv4 address
 * @param port the port
 * @param tos the TOS byte the socket also has (Socket::SetIpTos)
 * @return the address
 */
inline InetSocketAddress
InetAddressWithTos(Ipv4Address address, uint16_t port, uint8_t tos)
{
    InetSocketAddress socketAddress(address, port);
#if DEBLOAT_NS3_VERSION < 342
    socketAddress.SetTos(tos);
#endif
    return socketAddress;
}

/**
 * Stores a command-line value whole: CommandLine reads a std::string with operator>>, which
 * keeps only its first word ("cake" of --qdisc="cake bandwidth 50Mbit").
 * @param dest where to store it
 * @param value the value as given
 * @return true
 */
#if DEBLOAT_NS3_VERSION >= 338
inline bool
StoreWholeString(std::string* dest, const std::string& value)
#else
inline bool
StoreWholeString(std::string* dest, std::string value)
#endif
{
    *dest = value;
    return true;
}

/**
 * CommandLine::AddValue for a string that may contain spaces (the callback's argument type
 * changed in ns-3.38).
 * @param cmd the command line
 * @param name the option
 * @param help its help text
 * @param dest where the value goes (its value before parsing is the default)
 */
inline void
AddStringValue(CommandLine& cmd,
               const std::string& name,
               const std::string& help,
               std::string& dest)
{
    cmd.AddValue(name, help + " [" + dest + "]", MakeBoundCallback(&StoreWholeString, &dest));
}

/**
 * Calls a parser with a command-line value (the callback's argument type changed in
 * ns-3.38).
 * @param parser the parser
 * @param value the value as given
 * @return what the parser returns
 */
#if DEBLOAT_NS3_VERSION >= 338
inline bool
CallParser(const std::function<bool(const std::string&)>* parser, const std::string& value)
#else
inline bool
CallParser(const std::function<bool(const std::string&)>* parser, std::string value)
#endif
{
    return (*parser)(value);
}

/**
 * CommandLine::AddValue for an option whose value a function parses.
 * @param cmd the command line
 * @param name the option
 * @param help its help text
 * @param parser the parser; it must outlive cmd.Parse()
 */
inline void
AddParsedValue(CommandLine& cmd,
               const std::string& name,
               const std::string& help,
               const std::function<bool(const std::string&)>* parser)
{
    cmd.AddValue(name, help, MakeBoundCallback(&CallParser, parser));
}

/**
 * Fills the neighbour (ARP) caches of the nodes on a channel with each other's addresses, as
 * on hosts whose links have been in use before a test starts: otherwise every run's first
 * packets wait for address resolution at t = 0, and its first probe reads tens of ms.
 * ns-3.37 and later: NeighborCacheHelper (ARP and NDISC, auto-generated entries); ns-3.35 and
 * 3.36, which lack it: permanent ARP entries for the IPv4 addresses.
 * @param channel the link
 */
inline void
PopulateNeighborCache(Ptr<Channel> channel)
{
#if DEBLOAT_NS3_VERSION >= 337
    NeighborCacheHelper().PopulateNeighborCache(channel);
#else
    for (std::size_t i = 0; i < channel->GetNDevices(); ++i)
    {
        Ptr<NetDevice> device = channel->GetDevice(i);
        Ptr<Ipv4L3Protocol> ipv4 = device->GetNode()->GetObject<Ipv4L3Protocol>();
        const int32_t index = ipv4 ? ipv4->GetInterfaceForDevice(device) : -1;
        if (index < 0)
        {
            continue;
        }
        Ptr<ArpCache> cache = ipv4->GetInterface(index)->GetArpCache();
        for (std::size_t j = 0; cache && j < channel->GetNDevices(); ++j)
        {
            Ptr<NetDevice> peer = channel->GetDevice(j);
            Ptr<Ipv4L3Protocol> peerIpv4 = peer->GetNode()->GetObject<Ipv4L3Protocol>();
            const int32_t peerIndex = peerIpv4 ? peerIpv4->GetInterfaceForDevice(peer) : -1;
            if (j == i || peerIndex < 0)
            {
                continue;
            }
            for (uint32_t a = 0; a < peerIpv4->GetNAddresses(peerIndex); ++a)
            {
                ArpCache::Entry* entry = cache->Add(peerIpv4->GetAddress(peerIndex, a).GetLocal());
                entry->SetMacAddress(peer->GetAddress());
                entry->MarkPermanent();
            }
        }
    }
#endif
}

/**
 * PopulateNeighborCache() on every channel of every node's devices: for programs that wire
 * their own links.
 */
inline void
PopulateNeighborCaches()
{
    std::set<Ptr<Channel>> channels;
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        for (uint32_t i = 0; i < (*node)->GetNDevices(); ++i)
        {
            if (Ptr<Channel> channel = (*node)->GetDevice(i)->GetChannel())
            {
                channels.insert(channel);
            }
        }
    }
    for (const Ptr<Channel>& channel : channels)
    {
        PopulateNeighborCache(channel);
    }
}

/**
 * Connects a sink to the TrafficControlLayer's TcDrop trace (the packets the layer itself
 * drops), which ns-3.36 added; ns-3.35's layer has no trace sources, so there is nothing to
 * connect there.
 * @param layer the node's traffic control layer
 * @param sink a callback taking Ptr<const Packet>
 * @return whether the trace connected (always true on ns-3.35)
 */
inline bool
ConnectTcDrop(Ptr<Object> layer, const CallbackBase& sink)
{
#if DEBLOAT_NS3_VERSION >= 336
    return layer->TraceConnectWithoutContext("TcDrop", sink);
#else
    (void)layer;
    (void)sink;
    return true;
#endif
}

/// Runs a function: the event ScheduleFunction() schedules.
inline void
RunFunction(std::function<void()> function)
{
    function();
}

/**
 * Simulator::Schedule for a lambda or other function object: ns-3.35 schedules only
 * functions and methods with their arguments.
 * @param delay when, from now
 * @param function what to run
 * @return the event
 */
inline EventId
ScheduleFunction(Time delay, std::function<void()> function)
{
    return Simulator::Schedule(delay, &RunFunction, std::move(function));
}

/**
 * The end of a Queue's container, for use inside a Queue subclass: ns-3.35 has Queue::end(),
 * later releases Queue::GetContainer().
 */
#if DEBLOAT_NS3_VERSION >= 336
#define DEBLOAT_QUEUE_END() GetContainer().end()
#else
#define DEBLOAT_QUEUE_END() end()
#endif

/**
 * Declares GetInstanceTypeId() in a TrafficControlLayer subclass. Up to ns-3.44
 * TrafficControlLayer overrides it to return its own TypeId, so a subclass must override it
 * again or its attributes are looked up in the base's TypeId; from ns-3.45
 * Object::GetInstanceTypeId() is final and returns the TypeId the object was created with.
 */
#if DEBLOAT_NS3_VERSION < 345
#define DEBLOAT_TCL_INSTANCE_TYPE_ID                                                               \
    TypeId GetInstanceTypeId() const override                                                      \
    {                                                                                              \
        return GetTypeId();                                                                        \
    }
#else
#define DEBLOAT_TCL_INSTANCE_TYPE_ID
#endif

/**
 * @return the ns-3 release built against, as results record it ("3.37", or "3-dev")
 */
inline std::string
Ns3Version()
{
    return DEBLOAT_NS3_VERSION >= 999 ? std::string("3-dev")
                                      : "3." + std::to_string(DEBLOAT_NS3_VERSION % 100);
}

} // namespace compat
} // namespace debloat
} // namespace ns3

#endif /* DEBLOAT_COMPAT_H */
