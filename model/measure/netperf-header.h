/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETPERF_HEADER_H
#define NETPERF_HEADER_H

#include "ns3/header.h"

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief The netperf tests that NetperfClient and NetperfServer run.
 *
 * Unscoped, because ns-3 before 3.41 stores enum attributes as int; write the qualified
 * names anyway (NetperfTest::TCP_RR).
 */
enum NetperfTest : uint8_t
{
    TCP_STREAM = 1, ///< bulk transfer from the client to the server (upload)
    TCP_MAERTS = 2, ///< bulk transfer from the server to the client (download)
    TCP_RR = 3,     ///< request/response transactions, one outstanding at a time
};

/**
 * @ingroup debloat-measurement
 * @brief The test request that opens every netperf data connection.
 *
 * Real netperf negotiates the test over a separate control connection to netserver
 * (port 12865) and then opens the data connection. Deviation from netperf: here the
 * request rides in these 16 bytes at the start of the data connection, so the server needs
 * no second socket; they are not counted as test data.
 *
 * Layout (network byte order): magic "NPRF" (4), test (1), TOS byte for the server's
 * direction (1), reserved (2), request size (4), response size (4).
 */
class NetperfHeader : public Header
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /// @return true when the magic matched on the last Deserialize
    bool IsValid() const;

    NetperfTest test{NetperfTest::TCP_STREAM}; ///< the test to run
    uint8_t tos{0};                            ///< TOS byte of the server's data (netperf -Y)
    uint32_t requestSize{1};                   ///< TCP_RR request bytes (netperf -r req,)
    uint32_t responseSize{1};                  ///< TCP_RR response bytes (netperf -r ,resp)

    /// The serialized size, for readers that must wait for the whole header.
    static constexpr uint32_t SIZE = 16;

  private:
    bool m_valid{true}; ///< the magic matched
};

} // namespace debloat
} // namespace ns3

#endif /* NETPERF_HEADER_H */
