/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * A wifi card's 224-packet ring under an upload, against the seed's 8-packet patch, and the
 * PRIO qdisc that works only once the ring is small (Nathaniel Smith, "[RFC] wireless:
 * reduce iwlwifi's TX ring buffers", linux-wireless, 2010).
 *
 * Topology (NicTopologyHelper preset "wifi-ap"):
 *
 *     laptop ~~~~~~~~~~~~~~~~~~~~~~~ ap ========================= frances
 *     iwl3945-like card, 5.5 Mbit/s      e1000e, 100 Mbit/s
 *     (about 2.8 Mbit/s of 1500-byte frames once per-frame airtime is paid)
 *
 * flent's tcp_upload test: one TCP upload from the laptop to frances (nttcp in the seed) and
 * a ping every STEP_SIZE, LENGTH seconds of load (default 60, as the seed's "sleep 60").
 * Configurations of the laptop's wifi interface:
 * - ring224: the stock driver (a 256-entry queue stopped below high_mark 32 + 2 free
 *   entries: 223 frames), txqueuelen 1000 with pfifo_fast;
 * - ring224-txqlen0: the same with `ip link set wlan0 txqueuelen 0` (noqueue);
 * - ring8-txqlen0: the seed's one-character patch (high_mark = n_window - 8: the queue
 *   stops once 7 frames wait, TxStopThreshold 250) with txqueuelen 0;
 * - ring224-prio, ring8-prio: the PRIO qdisc (three bands of txqueuelen 1000 packets) with
 *   the ping marked Minimize-Delay (`ping -Q 0x10`: Linux gives it socket priority 6,
 *   TC_PRIO_INTERACTIVE, which the default priomap sends to band 0) on either ring.
 *
 * Options: --configs (comma-separated, default all five), --length, --delay, --step,
 * --jobs, --outputDir, --db (default wifi-ring-latency.sqlite, none for none), --check
 * (exit 1 unless the seed's qualitative result holds), and ns-3's --RngRun.
 *
 * Expected result (the seed, an iwl3945 at "Bit Rate: 5.5 Mb/s", nttcp at about
 * 2.8 Mbit/s):
 *   stock, txqueuelen 1000: "rtt min/avg/max/mdev = 2058.065/3646.303/5672.363/1093.343 ms"
 *   stock, txqueuelen 0:    "rtt min/avg/max/mdev = 1023.633/2936.387/5291.846/1424.396 ms"
 *                           (at 1.75 Mbit/s)
 *   patched, txqueuelen 0:  "rtt min/avg/max/mdev = 4.551/25.640/49.847/16.672 ms", at the
 *                           same 2.8 Mbit/s: "speeds up interactive network use by a factor
 *                           of ~140"
 *   "using the PRIO qdisc to prioritize latency-sensitive traffic seems to actually work
 *    now, which it doesn't without this patch"
 * What the example shows: a 1500-byte frame holds the air for 1514 x 8 / 5.5 Mbit/s +
 * 2083 us = 4.29 ms, so 223 frames drain in 0.96 s and 1000 more of pfifo_fast add 4.3 s; the
 * patch leaves the ping behind at most 7 frames, about 30 ms, at the same goodput. PRIO with
 * the ping in band 0 brings it to the ring's 30 ms with the patch, but not below the ring's
 * second without it. --check follows from these: the patch's median 20 times below the stock
 * one (the seed: ~140) at 90% of the goodput or better, PRIO on the stock ring above 500 ms
 * (half the ring's 0.96 s) and ten times lower on the patched ring. The manual's chapter on
 * this seed (Seed 001) has the measured numbers and why they differ from the seed's.
 * Deviation from the seed's kernel: with noqueue, Linux's TCP keeps a segment the stack
 * refused and ns-3's loses it (NoQueueDisc counts it), so the patched runs' TCP recovers
 * from local losses the seed's did not have; the wifi link is modelled full duplex.
 */

#include "ns3/core-module.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/run-summary.h"
#include "ns3/seed-experiment.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <stdexcept>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// One configuration of the laptop's wifi interface.
struct WifiConfig
{
    std::string label;   ///< its name
    bool patched;        ///< the seed's 8-frame high_mark patch
    std::string qdisc;   ///< root qdisc (tc text)
    uint32_t txqueuelen; ///< ip link txqueuelen
    uint8_t pingTos;     ///< ping -Q
};

/// The seed's configurations and the PRIO ones.
const std::vector<WifiConfig> CONFIGS = {
    {"ring224", false, "pfifo_fast", 1000, 0},
    {"ring224-txqlen0", false, "pfifo_fast", 0, 0},
    {"ring8-txqlen0", true, "pfifo_fast", 0, 0},
    {"ring224-prio", false, "prio", 1000, 0x10},
    {"ring8-prio", true, "prio", 1000, 0x10},
};

/// flent's timing, from the command line.
struct Timing
{
    double length{60}; ///< LENGTH, s
    double delay{5};   ///< DELAY, s
    double step{0.2};  ///< STEP_SIZE, s
};

/**
 * @param timing LENGTH, DELAY and STEP_SIZE
 * @return tcp_upload's definition
 */
FlentTestSpec
Spec(const Timing& timing)
{
    FlentTestOptions options;
    options.length = timing.length;
    options.delay = timing.delay;
    options.stepSize = timing.step;
    options.hosts = {"frances"};
    options.qdiscStats = {{"laptop", "wlan0"}};
    return FlentTest::Get("tcp_upload", options);
}

/**
 * Builds and runs one configuration (in its own process).
 * @param config the configuration
 * @param timing flent's timing
 * @return the run
 */
RunRecord
Run(const WifiConfig& config, const Timing& timing)
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology = NicTopologyHelper::Preset("wifi-ap");
    NicInterfaceConfig& wlan0 = topology.LeftLink(0).left;
    wlan0.qdisc = config.qdisc;
    wlan0.txqueuelen = config.txqueuelen;
    if (config.patched)
    {
        // q->high_mark = q->n_window - 8: stop once fewer than 248 + 2 of 256 entries are
        // free, and wake (space > low_mark) at the first reclaim after that.
        wlan0.attributes = {{"TxStopThreshold", "250"}, {"TxWakeThreshold", "250"}};
    }
    topology.Install();
    topology.AssignStreams(1);

    FlentTestSpec spec = Spec(timing);
    for (FlowSpec& flow : spec.flows)
    {
        if (flow.kind == FlowKind::ICMP_PING)
        {
            flow.tos = config.pingTos;
        }
    }
    FlentTestHelper flent(spec);
    flent.SetClient(topology.GetLeft(0), topology.GetLeftName(0));
    flent.AddHost(topology.GetRight(0), topology.GetRightAddress(0));
    flent.AddQdiscStats(topology.GetLeftDevices(0).Get(0));
    flent.SetProgress(false);
    flent.Install(Seconds(1));
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();
    RunRecord run = flent.Collect();
    Simulator::Destroy();
    run.title = config.label;
    run.epoch = 1767225600; // 2026-01-01: the same seed writes the same file
    run.config = {{"topology", std::string("wifi-ap")},
                  {"patched", static_cast<int64_t>(config.patched)},
                  {"qdisc", config.qdisc},
                  {"txqueuelen", static_cast<int64_t>(config.txqueuelen)},
                  {"ping_tos", static_cast<int64_t>(config.pingTos)}};
    return run;
}

/**
 * The seed's qualitative result, for the configurations that ran: the patch cuts the
 * median RTT by more than 20 times at 90% of the goodput or better, and PRIO helps the
 * ping only on the patched ring.
 * @param runs the runs
 * @return whether it holds (each failure printed)
 */
bool
CheckRuns(const std::vector<RunRecord>& runs)
{
    std::map<std::string, RunSummary::Headline> h;
    for (const RunRecord& run : runs)
    {
        h[run.title] = RunSummary::GetHeadline(run);
    }
    bool ok = true;
    auto expect = [&ok](bool condition, const std::string& what) {
        if (!condition)
        {
            std::cerr << "check: " << what << "\n";
            ok = false;
        }
    };
    uint32_t compared = 0;
    auto have = [&h, &compared](const char* a, const char* b) {
        const bool both = h.count(a) && h.count(b);
        compared += both ? 1 : 0;
        return both;
    };
    if (have("ring224", "ring8-txqlen0"))
    {
        const auto& stock = h["ring224"];
        const auto& patched = h["ring8-txqlen0"];
        expect(patched.rttP50Ms * 20 < stock.rttP50Ms,
               "the patch's median RTT is not 20 times below the stock ring's");
        expect(patched.uploadMbps >= 0.9 * stock.uploadMbps,
               "the patch loses more than 10% of the upload");
    }
    if (have("ring224-prio", "ring8-prio"))
    {
        // Without the patch the ping still waits behind the ring: 223 frames of 4.29 ms.
        expect(h["ring224-prio"].rttP50Ms > 500, "PRIO on the stock ring beat the ring");
        expect(h["ring8-prio"].rttP50Ms * 10 < h["ring224-prio"].rttP50Ms,
               "PRIO on the patched ring is not 10 times better than on the stock ring");
    }
    // A check that compared nothing must not pass.
    expect(compared > 0,
           "no comparison ran; --check needs ring224 and ring8-txqlen0, or ring224-prio and "
           "ring8-prio");
    return ok;
}

/// The seed on the shared driver: its options, configurations and check.
class WifiRingLatency : public SeedExperiment
{
  public:
    WifiRingLatency()
        : SeedExperiment("wifi-ring-latency")
    {
        for (const WifiConfig& config : CONFIGS)
        {
            m_all += (m_all.empty() ? "" : ",") + config.label;
        }
        m_configs = m_all;
    }

  protected:
    void AddOptions(CommandLine& cmd) override
    {
        cmd.AddValue("configs", "comma-separated configurations: " + m_all, m_configs);
        cmd.AddValue("length", "LENGTH: seconds of upload", m_timing.length);
        cmd.AddValue("delay", "DELAY: seconds of idle before and after it", m_timing.delay);
        cmd.AddValue("step", "STEP_SIZE: seconds between pings", m_timing.step);
    }

    void Configure() override
    {
        for (const std::string& item : SplitList(m_configs))
        {
            const auto config =
                std::find_if(CONFIGS.begin(), CONFIGS.end(), [&item](const WifiConfig& c) {
                    return c.label == item;
                });
            if (config == CONFIGS.end())
            {
                throw std::invalid_argument("--configs: \"" + item +
                                            "\" is unknown; accepted: " + m_all);
            }
            m_list.push_back(*config);
        }
        Spec(m_timing); // checks LENGTH and DELAY against STEP_SIZE now
        for (const WifiConfig& config : m_list)
        {
            AddRun(config.label, [config, timing = m_timing]() { return Run(config, timing); });
        }
    }

    void Describe(std::ostream& os) const override
    {
        os << "flent tcp_upload over laptop ~~ ap == frances (LENGTH " << m_timing.length << " s), "
           << m_list.size() << " configurations, " << GetJobs() << " at a time\n";
        NicTopologyHelper::Preset("wifi-ap").Describe(os);
        os << "\n";
    }

    void Report(const std::vector<RunRecord>& runs, std::ostream& os) const override
    {
        SeedExperiment::Report(runs, os);
        os << "\nSeed (iwl3945 at 5.5 Mb/s, nttcp at ~2.8 Mbit/s, 2010): ping avg 3646 ms "
              "stock; 2936 ms with txqueuelen 0\n(at 1.75 Mbit/s); 25.6 ms with the 8-frame "
              "patch and txqueuelen 0, same throughput; PRIO works\nonly with the patch.\n";
    }

    bool Check(const std::vector<RunRecord>& runs) const override
    {
        return CheckRuns(runs);
    }

  private:
    Timing m_timing;                ///< flent's timing
    std::string m_all;              ///< every configuration, comma-separated
    std::string m_configs;          ///< --configs
    std::vector<WifiConfig> m_list; ///< parsed --configs
};

} // namespace

int
main(int argc, char* argv[])
{
    return WifiRingLatency().Main(argc, argv, __FILE__);
}
