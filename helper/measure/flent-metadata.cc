/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flent-metadata.h"

#include "ns3/boolean.h"
#include "ns3/byte-queue-limits.h"
#include "ns3/data-rate.h"
#include "ns3/flent-writer.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nic-net-device.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

namespace ns3
{
namespace debloat
{

namespace
{

/// @return the members as a JSON object; each value is JSON text already
std::string
Object(const std::vector<std::pair<std::string, std::string>>& members)
{
    std::string out = "{";
    for (const auto& [key, value] : members)
    {
        out += (out.size() > 1 ? "," : "") + FlentWriter::Quote(key) + ":" + value;
    }
    return out + "}";
}

/// @return the items as a JSON array; each item is JSON text already
std::string
Array(const std::vector<std::string>& items)
{
    std::string out = "[";
    for (const auto& item : items)
    {
        out += (out.size() > 1 ? "," : "") + item;
    }
    return out + "]";
}

/// @return the words of text, split at blanks
std::vector<std::string>
Words(const std::string& text)
{
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string word; in >> word;)
    {
        words.push_back(word);
    }
    return words;
}

/// @return the 64-bit FNV-1a hash of text
uint64_t
Fnv1a(const std::string& text)
{
    uint64_t hash = 0xcbf29ce484222325ULL;
    for (const unsigned char c : text)
    {
        hash = (hash ^ c) * 0x100000001b3ULL;
    }
    return hash;
}

} // namespace

std::string
FlentMetadata::EgressInfo(Ptr<NetDevice> device,
                          const std::string& iface,
                          const std::string& driver,
                          const std::string& tcText,
                          uint32_t txqueuelen)
{
    std::vector<std::pair<std::string, std::string>> info;
    info.emplace_back("iface", FlentWriter::Quote(iface));
    info.emplace_back("driver", FlentWriter::Quote(driver));

    // parse_tc(): the words after the kind, paired; an odd one out gets "".
    const std::string root = tcText.substr(0, tcText.find(';'));
    std::vector<std::string> words = Words(root);
    std::vector<std::pair<std::string, std::string>> params;
    for (std::size_t i = 1; i < words.size(); i += 2)
    {
        params.emplace_back(words[i], FlentWriter::Quote(i + 1 < words.size() ? words[i + 1] : ""));
    }
    info.emplace_back("qdiscs",
                      Array({Object({{"name", FlentWriter::Quote(words.empty() ? "" : words[0])},
                                     {"parent", FlentWriter::Quote("root")},
                                     {"params", Object(params)},
                                     {"tc", FlentWriter::Quote(tcText)}})}));

    // get_tc_stats(): one item per qdisc, its first line unindented, the rest indented.
    std::ostringstream stats;
    TcQdiscHelper::PrintStats(device, stats);
    std::vector<std::string> items;
    std::istringstream lines(stats.str());
    std::string item;
    for (std::string line; std::getline(lines, line);)
    {
        if (line.empty())
        {
            continue;
        }
        if (line[0] != ' ' && !item.empty())
        {
            items.push_back(FlentWriter::Quote(item));
            item.clear();
        }
        item += (item.empty() ? "" : "\n") + line;
    }
    if (!item.empty())
    {
        items.push_back(FlentWriter::Quote(item));
    }
    info.emplace_back("tc_stats_post", Array(items));

    // get_bql(): tx-N -> byte_queue_limits/limit_max, for the queues that have BQL.
    std::vector<std::pair<std::string, std::string>> bql;
    Ptr<NetDeviceQueueInterface> queues = device->GetObject<NetDeviceQueueInterface>();
    for (std::size_t i = 0; queues && i < queues->GetNTxQueues(); ++i)
    {
        Ptr<ByteQueueLimits> limits =
            DynamicCast<ByteQueueLimits>(queues->GetTxQueue(i)->GetQueueLimits());
        if (limits)
        {
            bql.emplace_back("tx-" + std::to_string(i),
                             FlentWriter::Quote(std::to_string(limits->GetLimitMax())));
        }
    }
    if (!bql.empty())
    {
        info.emplace_back("bql", Object(bql));
    }

    Ptr<NicNetDevice> nic = DynamicCast<NicNetDevice>(device);
    if (nic)
    {
        auto flag = [&nic](const char* attribute) {
            BooleanValue value;
            nic->GetAttribute(attribute, value);
            return std::string(value.Get() ? "true" : "false");
        };
        info.emplace_back("offloads",
                          Object({{"tcp-segmentation-offload", flag("Tso")},
                                  {"generic-segmentation-offload", flag("Gso")},
                                  {"generic-receive-offload", flag("Gro")}}));
        UintegerValue tx;
        UintegerValue rx;
        nic->GetAttribute("TxRingSize", tx);
        nic->GetAttribute("RxRingSize", rx);
        info.emplace_back(
            "ring",
            Object({{"tx", std::to_string(tx.Get())}, {"rx", std::to_string(rx.Get())}}));
        info.emplace_back("tx_queues", std::to_string(nic->GetNTxQueues()));
    }
    // get_link_params(): qlen from ip link, speed and duplex from ethtool ("1000Mb/s").
    DataRateValue rate;
    const bool haveRate = device->GetAttributeFailSafe("DataRate", rate);
    std::vector<std::pair<std::string, std::string>> link = {
        {"qlen", FlentWriter::Quote(std::to_string(txqueuelen))}};
    if (haveRate)
    {
        link.emplace_back(
            "speed",
            FlentWriter::Quote(std::to_string(rate.Get().GetBitRate() / 1000000) + "Mb/s"));
    }
    link.emplace_back("duplex", FlentWriter::Quote("Full"));
    info.emplace_back("link_params", Object(link));
    return Object(info);
}

std::string
FlentMetadata::Sysctls()
{
    std::map<std::string, std::string> settings;
    for (const auto& [path, value] : LinuxTcpDefaults::Settings())
    {
        settings[path] = value;
    }
    auto flag = [&settings](const std::string& path) {
        return FlentWriter::Quote(settings.at(path) == "true" ? "1" : "0");
    };
    // "ns3::TcpCubic" -> "cubic", as sysctl names the congestion control.
    std::string cc = settings.at("ns3::TcpL4Protocol::SocketType");
    cc = cc.substr(cc.rfind("::Tcp") + 5);
    for (char& c : cc)
    {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    // ns-3's sockets have fixed buffers: min, default and max alike.
    auto triple = [](const std::string& bytes) {
        return FlentWriter::Quote(bytes + " " + bytes + " " + bytes);
    };
    return Object({{"net.ipv4.tcp_congestion_control", FlentWriter::Quote(cc)},
                   {"net.ipv4.tcp_ecn", FlentWriter::Quote("0")}, // ns-3's UseEcn Off
                   {"net.ipv4.tcp_rmem", triple(settings.at("ns3::TcpSocket::RcvBufSize"))},
                   {"net.ipv4.tcp_sack", flag("ns3::TcpSocketBase::Sack")},
                   {"net.ipv4.tcp_timestamps", flag("ns3::TcpSocketBase::Timestamp")},
                   {"net.ipv4.tcp_window_scaling", flag("ns3::TcpSocketBase::WindowScaling")},
                   {"net.ipv4.tcp_wmem", triple(settings.at("ns3::TcpSocket::SndBufSize"))}});
}

std::string
FlentMetadata::BatchUuid(const std::string& text)
{
    const uint64_t high = Fnv1a(text);
    const uint64_t low = Fnv1a(text + std::string(1, '\0'));
    // RFC 9562: version 8 in bits 48-51, variant 10 in bits 64-65.
    const uint64_t versioned = (high & ~0xf000ULL) | 0x8000ULL;
    const uint64_t varied = (low & ~(3ULL << 62)) | (2ULL << 62);
    char out[40];
    std::snprintf(out,
                  sizeof(out),
                  "%08llx-%04llx-%04llx-%04llx-%012llx",
                  static_cast<unsigned long long>(versioned >> 32),
                  static_cast<unsigned long long>((versioned >> 16) & 0xffff),
                  static_cast<unsigned long long>(versioned & 0xffff),
                  static_cast<unsigned long long>(varied >> 48),
                  static_cast<unsigned long long>(varied & 0xffffffffffffULL));
    return out;
}

} // namespace debloat
} // namespace ns3
