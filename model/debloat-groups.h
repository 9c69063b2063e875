/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEBLOAT_GROUPS_H
#define DEBLOAT_GROUPS_H

/**
 * @defgroup debloat debloat
 * NICs with descriptor rings and TX-completion timing, Byte Queue Limits, Linux queue
 * disciplines and bufferbloat measurement (see doc/debloat.rst).
 */

/**
 * @defgroup debloat-bql Byte Queue Limits
 * @ingroup debloat
 * Linux's dynamic queue limits and their ns-3 QueueLimits object.
 */

/**
 * @defgroup debloat-nic NIC model
 * @ingroup debloat
 * NicNetDevice, its rings, interrupt moderation, NAPI and driver profiles.
 */

/**
 * @defgroup debloat-offload Offloads
 * @ingroup debloat
 * TSO, GSO and GRO: super-packets from the sending socket to the receiving one.
 */

/**
 * @defgroup debloat-qdisc Queue disciplines
 * @ingroup debloat
 * SFQ, CAKE and the shared cores: flow dissection, tc-style options, RED, COBALT, link-layer
 * overhead.
 */

/**
 * @defgroup debloat-measurement Measurement
 * @ingroup debloat
 * netperf, ping and irtt-like applications, flent tests, samplers, flent files, the results
 * database and summaries.
 */

#endif /* DEBLOAT_GROUPS_H */
