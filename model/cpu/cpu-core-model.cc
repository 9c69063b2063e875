/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The host's CPU cores as Linux spends them. Follows net/core/dev.c (net_rx_action,
 * napi_poll) and kernel/softirq.c (handle_softirqs, invoke_softirq) of current kernels.
 */

#include "cpu-core-model.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace ns3
{
namespace debloat
{

CpuCoreModel::CpuCoreModel(const Config& config, LatencyGenerator latency)
    : m_config(config),
      m_latency(std::move(latency))
{
    const std::string error = CheckConfig(config);
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    if (!m_latency)
    {
        throw std::invalid_argument("CpuCoreModel: no scheduling-latency generator");
    }
    m_cores.resize(config.cores);
}

std::string
CpuCoreModel::CheckConfig(const Config& config)
{
    std::ostringstream error;
    if (config.cores < 1 || config.cores > 4096)
    {
        error << "Cores is " << config.cores << "; accepted: 1 to 4096";
    }
    else if (config.netdevBudget < 1)
    {
        error << "NetdevBudget (net.core.netdev_budget) is 0; accepted: 1 or more packets";
    }
    else if (config.netdevBudgetUsecs < 0)
    {
        error << "NetdevBudgetUsecs (net.core.netdev_budget_usecs) is " << config.netdevBudgetUsecs
              << " ns; accepted: 0 or more";
    }
    else if (config.maxSoftirqTime < 0)
    {
        error << "MaxSoftirqTime is " << config.maxSoftirqTime << " ns; accepted: 0 or more";
    }
    else if (config.maxSoftirqRestart < 1)
    {
        error << "MaxSoftirqRestart is 0; accepted: 1 or more";
    }
    else if (config.hardIrqCost < 0 || config.pollCost < 0 || config.rxPacketCost < 0 ||
             config.txPacketCost < 0)
    {
        error << "HardIrqCost, PollCost, RxPacketCost and TxPacketCost are " << config.hardIrqCost
              << ", " << config.pollCost << ", " << config.rxPacketCost << " and "
              << config.txPacketCost << " ns; accepted: 0 or more each";
    }
    else if (config.forwardCost < 0)
    {
        error << "ForwardCost is " << config.forwardCost << " ns; accepted: 0 or more";
    }
    return error.str();
}

uint64_t
CpuCoreModel::Submit(uint32_t core, CpuClass cls, int64_t cost, int64_t now)
{
    return SubmitAt(core, cls, cost, now, now);
}

uint64_t
CpuCoreModel::SubmitAt(uint32_t core, CpuClass cls, int64_t cost, int64_t now, int64_t release)
{
    if (cost < 0)
    {
        throw std::invalid_argument("CpuCoreModel: work cost " + std::to_string(cost) +
                                    " ns; accepted: 0 or more");
    }
    if (release < now)
    {
        throw std::invalid_argument("CpuCoreModel: release " + std::to_string(release) +
                                    " ns before now " + std::to_string(now));
    }
    Reach(core, now);
    return Add(core, cls, cost, release, false).id;
}

uint64_t
CpuCoreModel::HardIrq(uint32_t core, int64_t now)
{
    return Submit(core, CpuClass::HARDIRQ, m_config.hardIrqCost, now);
}

uint64_t
CpuCoreModel::WakeTask(uint32_t core, int64_t cost, int64_t now)
{
    Core& c = Reach(core, now);
    // try_to_wake_up() -> wakeup_preempt() -> resched_curr(): a softirq invocation on the core
    // sees need_resched() at its next restart test.
    if (InInvocation(c, ScanBacklog(c, now), now))
    {
        c.needResched = true;
    }
    return SubmitAt(core, CpuClass::TASK, cost, now, now + DrawLatency());
}

int64_t
CpuCoreModel::NapiPollCost(uint32_t rx, uint32_t tx, uint32_t forwarded) const
{
    return m_config.pollCost + static_cast<int64_t>(rx) * m_config.rxPacketCost +
           static_cast<int64_t>(tx) * m_config.txPacketCost +
           static_cast<int64_t>(forwarded) * m_config.forwardCost;
}

CpuCoreModel::Backlog
CpuCoreModel::ScanBacklog(const Core& c, int64_t now)
{
    Backlog backlog;
    backlog.end = now;
    for (const Item& item : c.items)
    {
        if (item.ksoftirqd)
        {
            backlog.ksoftirqd = true;
        }
        else if (item.cls == CpuClass::SOFTIRQ)
        {
            backlog.softirq = true;
            backlog.end = std::max(backlog.end, item.completion);
        }
    }
    return backlog;
}

CpuCoreModel::Core&
CpuCoreModel::Raise(uint32_t core, const char* what, int64_t cost, int64_t now, Backlog& backlog)
{
    if (cost < 0)
    {
        throw std::invalid_argument(std::string("CpuCoreModel: ") + what + " cost " +
                                    std::to_string(cost) + " ns; accepted: 0 or more");
    }
    Core& c = Reach(core, now);
    backlog = ScanBacklog(c, now);
    return c;
}

bool
CpuCoreModel::KsoftirqdRunning(const Core& c, const Backlog& backlog, int64_t now)
{
    // invoke_softirq(): pending softirqs are left to a running ksoftirqd, and ksoftirqd
    // keeps handling them while they are pending (run_ksoftirqd()).
    return backlog.ksoftirqd || c.lastKsoftirqdEnd == now;
}

bool
CpuCoreModel::InInvocation(const Core& c, const Backlog& backlog, int64_t now)
{
    return backlog.softirq || (c.runs > 0 && c.lastSoftirqEnd == now);
}

void
CpuCoreModel::StartInvocation(Core& c, int64_t now)
{
    // handle_softirqs(): end = jiffies + MAX_SOFTIRQ_TIME, max_restart = MAX_SOFTIRQ_RESTART.
    c.softirqStart = now;
    c.runs = 1;
    c.runOpen = true;
    c.runStart = now;
    c.budget = m_config.netdevBudget;
    c.napis.clear();
    c.needResched = false;
}

bool
CpuCoreModel::Restart(Core& c, int64_t backlogEnd)
{
    // handle_softirqs(): if (time_before(jiffies, end) && !need_resched() && --max_restart)
    // goto restart; wakeup_softirqd();
    if (backlogEnd - c.softirqStart < m_config.maxSoftirqTime &&
        c.runs < m_config.maxSoftirqRestart && !c.needResched)
    {
        c.runs++;
        c.runOpen = true;
        c.runStart = backlogEnd;
        c.budget = m_config.netdevBudget;
        c.napis.clear();
        return true;
    }
    c.ksoftirqdWakeups++;
    c.ksoftirqdRelease = backlogEnd + DrawLatency();
    c.runOpen = false;
    c.runs = 0;
    return false;
}

CpuCoreModel::PollPlacement
CpuCoreModel::InSoftirq(uint32_t index, const Core& c, int64_t cost, int64_t now)
{
    PollPlacement placement;
    placement.run = c.runs;
    const Item& item = Add(index, CpuClass::SOFTIRQ, cost, now, false);
    placement.id = item.id;
    placement.completion = item.completion;
    return placement;
}

CpuCoreModel::PollPlacement
CpuCoreModel::InKsoftirqd(uint32_t index, int64_t cost, int64_t release)
{
    PollPlacement placement;
    placement.ksoftirqd = true;
    const Item& item = Add(index, CpuClass::TASK, cost, release, true);
    placement.id = item.id;
    placement.completion = item.completion;
    return placement;
}

CpuCoreModel::PollPlacement
CpuCoreModel::NapiPoll(uint32_t core, uint64_t napi, uint32_t work, int64_t cost, int64_t now)
{
    Backlog backlog;
    Core& c = Raise(core, "poll", cost, now, backlog);
    if (KsoftirqdRunning(c, backlog, now))
    {
        return InKsoftirqd(core, cost, std::max(now, c.ksoftirqdRelease));
    }
    // A poll raised when the last softirq work ends now is the loop's next pending softirq
    // (the NAPI instance repolled, or raised again); otherwise irq_exit() starts a new
    // invocation.
    if (!InInvocation(c, backlog, now))
    {
        StartInvocation(c, now);
    }
    else if ((!c.runOpen || std::find(c.napis.begin(), c.napis.end(), napi) != c.napis.end()) &&
             !Restart(c, backlog.end))
    {
        return InKsoftirqd(core, cost, c.ksoftirqdRelease);
    }
    PollPlacement placement = InSoftirq(core, c, cost, now);
    // net_rx_action(): budget -= napi_poll(n, &repoll); then the run breaks when
    // budget <= 0 || time_after_eq(jiffies, time_limit), counting time_squeeze.
    c.napis.push_back(napi);
    c.budget -= static_cast<int64_t>(work);
    if (c.budget <= 0 || placement.completion - c.runStart >= m_config.netdevBudgetUsecs)
    {
        c.timeSqueeze++;
        c.runOpen = false;
        placement.timeSqueeze = true;
    }
    return placement;
}

CpuCoreModel::PollPlacement
CpuCoreModel::NetTx(uint32_t core, int64_t cost, int64_t now)
{
    Backlog backlog;
    Core& c = Raise(core, "net_tx_action", cost, now, backlog);
    if (KsoftirqdRunning(c, backlog, now))
    {
        return InKsoftirqd(core, cost, std::max(now, c.ksoftirqdRelease));
    }
    if (!InInvocation(c, backlog, now))
    {
        // Raised outside softirq context: irq_exit() or local_bh_enable() runs it, in a pass
        // with no net_rx_action() (a poll raised later needs a restart).
        StartInvocation(c, now);
        c.runOpen = false;
    }
    else if (!Restart(c, backlog.end))
    {
        return InKsoftirqd(core, cost, c.ksoftirqdRelease);
    }
    return InSoftirq(core, c, cost, now);
}

void
CpuCoreModel::AdvanceTo(int64_t now)
{
    for (uint32_t i = 0; i < m_cores.size(); ++i)
    {
        const Core& c = m_cores[i];
        // Reach()'s fast paths, without its checks: most cores stand at now already.
        if (c.now != now || !(c.items.empty() || c.settled))
        {
            Reach(i, now);
        }
    }
}

std::vector<CpuCoreModel::Finished>
CpuCoreModel::TakeFinished()
{
    std::vector<Finished> out;
    out.swap(m_finished);
    return out;
}

std::vector<CpuCoreModel::Transition>
CpuCoreModel::TakeTransitions()
{
    std::vector<Transition> out;
    out.swap(m_transitions);
    return out;
}

void
CpuCoreModel::TakeFinished(std::vector<Finished>& out)
{
    out.insert(out.end(), m_finished.begin(), m_finished.end());
    m_finished.clear();
}

void
CpuCoreModel::TakeTransitions(std::vector<Transition>& out)
{
    out.insert(out.end(), m_transitions.begin(), m_transitions.end());
    m_transitions.clear();
}

void
CpuCoreModel::DiscardTransitions()
{
    m_transitions.clear();
}

int64_t
CpuCoreModel::GetCompletion(uint64_t id) const
{
    for (const Core& c : m_cores)
    {
        for (const Item& item : c.items)
        {
            if (item.id == id)
            {
                return item.completion;
            }
        }
    }
    return NEVER;
}

int64_t
CpuCoreModel::GetNextCompletion(uint32_t core) const
{
    int64_t next = NEVER;
    for (const Item& item : m_cores.at(core).items)
    {
        next = std::min(next, item.completion);
    }
    return next;
}

const CpuCoreModel::Usage&
CpuCoreModel::GetUsage(uint32_t core) const
{
    return m_cores.at(core).usage;
}

uint32_t
CpuCoreModel::GetState(uint32_t core) const
{
    return m_cores.at(core).state;
}

uint64_t
CpuCoreModel::GetTimeSqueeze(uint32_t core) const
{
    return m_cores.at(core).timeSqueeze;
}

uint64_t
CpuCoreModel::GetKsoftirqdWakeups(uint32_t core) const
{
    return m_cores.at(core).ksoftirqdWakeups;
}

const CpuCoreModel::Config&
CpuCoreModel::GetConfig() const
{
    return m_config;
}

double
CpuCoreModel::BusyFraction(const Usage& from, const Usage& to)
{
    int64_t busy = 0;
    for (std::size_t i = 0; i < to.busy.size(); ++i)
    {
        busy += to.busy[i] - from.busy[i];
    }
    const int64_t total = busy + (to.idle - from.idle);
    return total > 0 ? static_cast<double>(busy) / static_cast<double>(total) : 0.0;
}

double
CpuCoreModel::ClassFraction(const Usage& from, const Usage& to, CpuClass cls)
{
    int64_t total = to.idle - from.idle;
    for (std::size_t i = 0; i < to.busy.size(); ++i)
    {
        total += to.busy[i] - from.busy[i];
    }
    const auto k = static_cast<std::size_t>(cls);
    return total > 0 ? static_cast<double>(to.busy[k] - from.busy[k]) / static_cast<double>(total)
                     : 0.0;
}

uint32_t
CpuCoreModel::Runnable(const Core& c)
{
    uint32_t best = IDLE;
    for (const Item& item : c.items)
    {
        if (item.release <= c.now)
        {
            best = std::min(best, static_cast<uint32_t>(item.cls));
        }
    }
    return best;
}

void
CpuCoreModel::UpdateState(uint32_t index, Core& c)
{
    SetState(index, c, Runnable(c));
}

void
CpuCoreModel::SetState(uint32_t index, Core& c, uint32_t state)
{
    if (state != c.state)
    {
        m_transitions.push_back({c.now, index, c.state, state});
        c.state = state;
    }
}

void
CpuCoreModel::Run(uint32_t index, Core& c, int64_t until)
{
    // c.now <= until throughout: each step stops at until at the latest.
    while (!c.items.empty())
    {
        // The highest released class runs; the first submitted of it (FIFO).
        std::size_t running = c.items.size();
        int64_t nextRelease = NEVER;
        for (std::size_t i = 0; i < c.items.size(); ++i)
        {
            const Item& item = c.items[i];
            if (item.release <= c.now)
            {
                if (running == c.items.size() || item.cls < c.items[running].cls)
                {
                    running = i;
                }
            }
            else
            {
                nextRelease = std::min(nextRelease, item.release);
            }
        }
        SetState(index,
                 c,
                 running == c.items.size() ? IDLE : static_cast<uint32_t>(c.items[running].cls));
        if (running == c.items.size())
        {
            // Idle until the next release.
            const int64_t to = std::min(until, nextRelease);
            if (to == c.now)
            {
                break;
            }
            c.usage.idle += to - c.now;
            c.now = to;
            continue;
        }
        Item& item = c.items[running];
        const int64_t end = c.now + item.remaining;
        const int64_t stop = std::min({end, nextRelease, until});
        if (stop == c.now && item.remaining > 0)
        {
            break; // reached `until`
        }
        c.usage.busy[static_cast<std::size_t>(item.cls)] += stop - c.now;
        item.remaining -= stop - c.now;
        c.now = stop;
        if (item.remaining == 0)
        {
            item.completion = c.now;
            m_finished.push_back({item.id, index, c.now});
            if (item.ksoftirqd)
            {
                c.lastKsoftirqdEnd = c.now;
            }
            else if (item.cls == CpuClass::SOFTIRQ)
            {
                c.lastSoftirqEnd = c.now;
            }
            c.items.erase(c.items.begin() + static_cast<std::ptrdiff_t>(running));
        }
    }
    // A break left the state set for c.now; otherwise the core ran out of work.
    if (c.items.empty())
    {
        SetState(index, c, IDLE);
        c.usage.idle += until - c.now;
        c.now = until;
    }
    // Either way the core stands at until with nothing left to retire there.
    c.settled = true;
}

void
CpuCoreModel::Project(Core& c)
{
    // The same schedule as Run() to the end, on the items' times and costs only.
    if (c.items.size() == 1)
    {
        // Alone on the core (the usual case): it runs from its release, unpreempted.
        Item& item = c.items.front();
        item.completion = std::max(c.now, item.release) + item.remaining;
        return;
    }
    std::vector<Pending>& pending = m_scratch;
    pending.clear();
    for (std::size_t i = 0; i < c.items.size(); ++i)
    {
        pending.push_back({c.items[i].release, c.items[i].remaining, c.items[i].cls, i});
    }
    int64_t now = c.now;
    while (!pending.empty())
    {
        std::size_t running = pending.size();
        int64_t nextRelease = NEVER;
        for (std::size_t i = 0; i < pending.size(); ++i)
        {
            if (pending[i].release <= now)
            {
                if (running == pending.size() || pending[i].cls < pending[running].cls)
                {
                    running = i;
                }
            }
            else
            {
                nextRelease = std::min(nextRelease, pending[i].release);
            }
        }
        if (running == pending.size())
        {
            now = nextRelease; // idle until the next release
            continue;
        }
        Pending& item = pending[running];
        const int64_t stop = std::min(now + item.remaining, nextRelease);
        item.remaining -= stop - now;
        now = stop;
        if (item.remaining == 0)
        {
            c.items[item.index].completion = now;
            pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(running));
        }
    }
}

const CpuCoreModel::Item&
CpuCoreModel::Add(uint32_t index, CpuClass cls, int64_t cost, int64_t release, bool ksoftirqd)
{
    Core& c = m_cores[index];
    const uint64_t id = m_nextId++;
    c.items.push_back({id, cls, release, cost, NEVER, ksoftirqd});
    // Reached now before every Add(): a Run() to now would retire a zero-cost item, and
    // otherwise only find the state UpdateState() sets.
    c.settled = c.settled && cost > 0;
    UpdateState(index, c);
    Project(c);
    return c.items.back();
}

CpuCoreModel::Core&
CpuCoreModel::Reach(uint32_t core, int64_t now)
{
    if (core >= m_cores.size())
    {
        throw std::invalid_argument("CpuCoreModel: core " + std::to_string(core) +
                                    " does not exist; accepted: 0 to " +
                                    std::to_string(m_cores.size() - 1));
    }
    Core& c = m_cores[core];
    if (now < c.now)
    {
        throw std::invalid_argument("CpuCoreModel: time " + std::to_string(now) +
                                    " ns is before the core's " + std::to_string(c.now));
    }
    if (c.items.empty())
    {
        // Idle since it was last run (Run() would only count the gap).
        c.usage.idle += now - c.now;
        c.now = now;
        return c;
    }
    if (c.settled && now == c.now)
    {
        return c; // run to now already, nothing added since: callers reach now many times
    }
    Run(core, c, now);
    return c;
}

int64_t
CpuCoreModel::DrawLatency()
{
    const int64_t latency = m_latency();
    if (latency < 0)
    {
        throw std::invalid_argument("CpuCoreModel: the scheduling latency drew " +
                                    std::to_string(latency) + " ns; accepted: 0 or more");
    }
    return latency;
}

} // namespace debloat
} // namespace ns3
