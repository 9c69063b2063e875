/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_TOPOLOGY_HELPER_H
#define NIC_TOPOLOGY_HELPER_H

#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat
 * @brief One end of a link: the NIC and what Linux puts in front of it, in the words of
 * ethtool, ip-link, sysfs and tc.
 */
struct NicInterfaceConfig
{
    std::string profile{"e1000e"}; ///< NicProfile name (the driver)
    /// This end's transmit rate, for an asymmetric line (DSL, DOCSIS: the modem's upstream
    /// and the head end's downstream); "": the link's rate
    std::string rate;
    uint32_t txRing{0};   ///< `ethtool -G DEV tx N`; 0: the profile's
    uint32_t txQueues{0}; ///< `ethtool -L DEV tx N`; 0: combined, else the profile's
    /// `ethtool -L DEV rx N`; 0: combined, else the profile's (one RX queue). Several RX
    /// queues spread the flows by RSS (NicNetDevice's RxQueues).
    uint32_t rxQueues{0};
    /// `ethtool -L DEV combined N`: N channels of a TX and an RX queue sharing a vector, for
    /// txQueues and rxQueues left at 0; 0: none.
    uint32_t combined{0};
    /// `ethtool -K DEV` words ("tso on gso on gro on"); "": every offload off. An end with
    /// any word gets its node a GsoTrafficControlLayer on every interface (OffloadHelper).
    std::string offloads;
    /// TCP small queues on this end's node with this net.ipv4.tcp_limit_output_bytes
    /// (131072 in Linux 3.6, 262144 from 4.2, 1048576 from 4.20); unset: no TSQ, as Linux
    /// 3.5 and older (a node's setting: any end of the node that sets it turns it on).
    std::optional<uint64_t> tsqLimitOutputBytes;
    /// Other NicNetDevice attributes (`ethtool -C`: TxUsecs, TxFrames, ...), applied last.
    std::map<std::string, std::string> attributes;
    /// `tc qdisc add dev DEV root ...` (TcQdiscHelper; "mq; parent :N ..." on a multiqueue
    /// device); "": Linux's default, pfifo_fast, or mq with pfifo_fast per TX queue on a
    /// multiqueue device (TcQdiscHelper::DefaultQdiscText())
    std::string qdisc;
    uint32_t txqueuelen{1000};           ///< `ip link set DEV txqueuelen N`
    bool bql{false};                     ///< ByteQueueLimits on every TX queue
    std::optional<uint32_t> bqlLimitMax; ///< `byte_queue_limits/limit_max`; unset: DQL_MAX_LIMIT
    std::optional<uint32_t> bqlLimitMin; ///< `byte_queue_limits/limit_min`; unset: 0
    std::optional<Time> bqlHoldTime;     ///< `byte_queue_limits/hold_time`; unset: 1 s
    /// Write the interface's frames (sent and received) to PREFIX-NODE-IFINDEX.pcap, PREFIX
    /// from NicTopologyHelper::SetPcapPrefix() (tcpdump -i DEV -w)
    bool pcap{false};
};

/**
 * @ingroup debloat
 * @brief A full-duplex link between two nodes and the interface at each end. The left end's
 * egress carries the left-to-right direction (a left host's uploads), the right end's the
 * other.
 */
struct NicLinkConfig
{
    std::string rate{
        "1Gbps"}; ///< line rate of both ends (`ethtool -s DEV speed`), unless an end sets its own
    Time delay{MicroSeconds(1)}; ///< propagation delay
    NicInterfaceConfig left;     ///< the left end
    NicInterfaceConfig right;    ///< the right end
};

/**
 * @ingroup debloat
 * @brief Builds host(s) -> router(s) -> host(s) out of NicNetDevice links, with each
 * interface's NIC profile, ring, BQL, txqueuelen and root qdisc (as tc text), and the
 * seeds' rigs as named presets.
 *
 * @verbatim
   left 0 ---.                                   .--- right 0
   left 1 ----+-- router 0 -- ... -- router R-1 --+--- right 1
   ...       '                                   '    ...
     left links           router links            right links
 @endverbatim
 *
 * With no router there must be one host on each side, joined by the left link: a chain of
 * two (laptop -> server). Left links have the host on their left end, right links the
 * router; router links join router k (left end) to router k + 1. Install() makes the nodes,
 * the links, the qdiscs, IPv4 addresses (10.1.i.0/24 on left link i, 10.2.k.0/24 on router
 * link k, 10.3.i.0/24 on right link i) and global routes.
 *
 * Every setting is checked when Install() runs; a bad one stops the program with a message
 * naming the link, the end and the accepted values.
 */
class NicTopologyHelper
{
  public:
    NicTopologyHelper();

    /**
     * Sets the hosts on the left and their links (all alike; see SetLeftLink()).
     * @param n number of hosts (1 to 254)
     * @param link each host's link, the host at its left end
     */
    void SetLeftHosts(uint32_t n, const NicLinkConfig& link);

    /**
     * Sets the hosts on the right and their links.
     * @param n number of hosts (1 to 254)
     * @param link each host's link, the host at its right end
     */
    void SetRightHosts(uint32_t n, const NicLinkConfig& link);

    /**
     * Sets the routers in the middle and the links between them.
     * @param n number of routers (0 to 254; 0: one left host linked straight to one right)
     * @param link each router-to-router link
     */
    void SetRouters(uint32_t n, const NicLinkConfig& link = NicLinkConfig());

    /**
     * Changes one left host's link (say, a longer delay for rtt_fair).
     * @param i the host
     * @param link its link
     */
    void SetLeftLink(uint32_t i, const NicLinkConfig& link);

    /**
     * Changes one right host's link.
     * @param i the host
     * @param link its link
     */
    void SetRightLink(uint32_t i, const NicLinkConfig& link);

    /**
     * Names the nodes in Describe() and in results ("laptop", "rangeley", ...).
     * @param left the left hosts' name (numbered from 1 when there are several)
     * @param routers the routers' name (numbered likewise)
     * @param right the right hosts' name
     */
    void SetNames(const std::string& left, const std::string& routers, const std::string& right);

    /**
     * Sets the prefix of the pcap files of the ends whose pcap is on (default "debloat"):
     * PREFIX-NODE-IFINDEX.pcap, NODE the node's name (SetNames()).
     * @param prefix the prefix, a path if it has slashes
     */
    void SetPcapPrefix(const std::string& prefix);

    /**
     * Turns pcap on for every end of every link (each end's NicInterfaceConfig::pcap) and
     * sets the files' prefix: what an example's --pcap=PREFIX does.
     * @param prefix the files' prefix (SetPcapPrefix())
     */
    void EnablePcapAll(const std::string& prefix);

    /// @return the number of left hosts
    uint32_t GetNLeft() const;
    /// @return the number of right hosts
    uint32_t GetNRight() const;
    /// @return the number of routers
    uint32_t GetNRouters() const;

    /**
     * @param i a left host
     * @return its link's settings, to change before Install()
     */
    NicLinkConfig& LeftLink(uint32_t i);

    /**
     * @param i a right host
     * @return its link's settings, to change before Install()
     */
    NicLinkConfig& RightLink(uint32_t i);

    /**
     * @param k a router link (0 joins router 0 to router 1)
     * @return its settings, to change before Install()
     */
    NicLinkConfig& RouterLink(uint32_t k);

    /**
     * Makes the topology. Call once, before the simulation runs.
     */
    void Install();

    /// @return every node: left hosts, routers, right hosts
    NodeContainer GetNodes() const;

    /**
     * @param i index
     * @return left host i
     */
    Ptr<Node> GetLeft(uint32_t i) const;

    /**
     * @param i index
     * @return right host i
     */
    Ptr<Node> GetRight(uint32_t i) const;

    /**
     * @param k index
     * @return router k
     */
    Ptr<Node> GetRouter(uint32_t k) const;

    /**
     * @param i index
     * @return left host i's address
     */
    Ipv4Address GetLeftAddress(uint32_t i) const;

    /**
     * @param i index
     * @return right host i's address
     */
    Ipv4Address GetRightAddress(uint32_t i) const;

    /**
     * @param i index
     * @return left link i's devices: the host's, then the router's (or the right host's)
     */
    NetDeviceContainer GetLeftDevices(uint32_t i) const;

    /**
     * @param i index
     * @return right link i's devices: the router's, then the host's
     */
    NetDeviceContainer GetRightDevices(uint32_t i) const;

    /**
     * @param k index
     * @return router link k's devices: router k's, then router k + 1's
     */
    NetDeviceContainer GetRouterDevices(uint32_t k) const;

    /**
     * @param i index
     * @return left host i's name
     */
    std::string GetLeftName(uint32_t i) const;

    /**
     * @param i index
     * @return right host i's name
     */
    std::string GetRightName(uint32_t i) const;

    /**
     * @param k index
     * @return router k's name
     */
    std::string GetRouterName(uint32_t k) const;

    /**
     * Assigns fixed random streams, in this order: the nodes' stacks
     * (InternetStackHelper::AssignStreams), the NICs (NicHelper::AssignStreams, link by
     * link: left links, router links, right links), then the root queue discs Install()
     * put on every device, in the same link order and within a link the left end first,
     * through AssignQueueDiscStreams(): CAKE's and SFQ's hash keys and perturbation, the
     * leaves of an htb tree, pie's drop draws. The queue discs come last so that the stacks
     * and NICs keep the streams they had before the queue discs were covered. Call after
     * Install() and before the simulation runs.
     * @param stream first stream index
     * @return the number of streams used (stacks, NICs and queue discs)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Prints the topology, a line per link and end, as an example's header.
     * @param os the stream
     */
    void Describe(std::ostream& os) const;

    /**
     * A seed's rig:
     * - "laptop-server" (seed 000): laptop -> server, e1000e at 100 Mbit/s, TX ring 64, 1 ms;
     * - "wifi-ap" (seed 001): laptop's iwl3945-like card -> access point -> wired host at
     *   100 Mbit/s (e1000e);
     * - "nuc-rangeley-nuc" (seed 002): e1000e hosts and an igb/i354 router with 8 TX queues,
     *   GigE;
     * - "wrt1200ac" (seed 003): e1000e hosts and an mvneta router, GigE;
     * - "forcedeth-gige" (seed 004): a forcedeth host -> a GigE peer (forcedeth), 50 us.
     * Every egress runs pfifo_fast without BQL; examples change what they compare.
     *
     * Access lines (a home router's case; client -- router1 (home) == line == router2 (ISP)
     * -- server, GigE e1000e either side of the line), each end of the line at its own rate,
     * the home router running CAKE (SQM) on its WAN egress at 95% of the upstream and on
     * its LAN egress at 95% of the downstream in ingress mode, the ISP's end a FIFO:
     * - "home-50-1": 50/1 Mbit/s Ethernet-framed (cable-like), CAKE "ethernet ack-filter"
     *   up, 5 ms;
     * - "docsis-100-20": 100/20 Mbit/s with DOCSIS framing (18 bytes, no preamble), CAKE
     *   "docsis", 5 ms;
     * - "adsl-20-1": 20/1 Mbit/s ADSL in ATM cells (PPPoE over LLC/SNAP, NicNetDevice
     *   AtmCells), CAKE "pppoe-llcsnap ack-filter" up, 10 ms.
     *
     * With seedHosts the ends also get the offloads and TCP small queues the seed's machines
     * ran (off otherwise, so earlier results stay as they were): every NIC "tso on gso on
     * gro on" where its driver can TSO, else "gso on gro on" (the iwl3945 card); TSQ on the
     * hosts of seeds 002 (Linux 3.18) and 003 (2015) with 3.6 to 4.1's
     * tcp_limit_output_bytes 131072; none for seeds 000 (3.2), 001 (2010) and 004 (the 2011
     * BQL series), which predate TSQ.
     * @param name the preset
     * @param seedHosts whether to set the seed's offloads and TSQ
     * @return a helper set to it
     */
    static NicTopologyHelper Preset(const std::string& name, bool seedHosts = false);

    /// @return the presets' names
    static std::vector<std::string> GetPresetNames();

  private:
    /// Enables pcap on the ends whose pcap is on (after the links are made).
    void EnablePcaps() const;
    /**
     * Makes one link and its qdiscs, and numbers it.
     * @param a left node
     * @param b right node
     * @param link the settings
     * @param what the link's name for messages ("left link 0")
     * @param network its /24
     * @return the two devices, a's first
     */
    NetDeviceContainer MakeLink(Ptr<Node> a,
                                Ptr<Node> b,
                                const NicLinkConfig& link,
                                const std::string& what,
                                Ipv4Address network);

    /**
     * @param base a name
     * @param i index
     * @param n how many share it
     * @return base, numbered from 1 when n > 1
     */
    static std::string Numbered(const std::string& base, uint32_t i, uint32_t n);

    std::vector<NicLinkConfig> m_leftLinks;          ///< one per left host
    std::vector<NicLinkConfig> m_rightLinks;         ///< one per right host
    std::vector<NicLinkConfig> m_routerLinks;        ///< one per pair of adjacent routers
    uint32_t m_nRouters{1};                          ///< routers
    std::string m_leftName{"client"};                ///< left hosts' name
    std::string m_routerName{"router"};              ///< routers' name
    std::string m_rightName{"server"};               ///< right hosts' name
    NodeContainer m_left;                            ///< left hosts
    NodeContainer m_routers;                         ///< routers
    NodeContainer m_right;                           ///< right hosts
    std::vector<NetDeviceContainer> m_leftDevices;   ///< per left link
    std::vector<NetDeviceContainer> m_rightDevices;  ///< per right link
    std::vector<NetDeviceContainer> m_routerDevices; ///< per router link
    std::vector<Ipv4Address> m_leftAddresses;        ///< left hosts'
    std::vector<Ipv4Address> m_rightAddresses;       ///< right hosts'
    InternetStackHelper m_internet;                  ///< the stacks
    bool m_installed{false};                         ///< Install() ran
    std::string m_pcapPrefix{"debloat"};             ///< SetPcapPrefix()
    std::map<uint32_t, uint64_t> m_tsqNodes;         ///< node id: tcp_limit_output_bytes
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_TOPOLOGY_HELPER_H */
