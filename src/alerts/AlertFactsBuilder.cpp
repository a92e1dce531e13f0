#include "alerts/AlertFactsBuilder.h"

#include "text/CredentialMask.h"

#include <algorithm>
#include <cmath>

namespace poolscope {

namespace {

constexpr qint64 kGuardSeenFor = 24 * 3600 * 1000; // as the Prometheus rule's max_over_time[1d]

} // namespace

AlertFactsBuilder::AlertFactsBuilder(QByteArray poolKey)
    : AlertFactsBuilder(std::move(poolKey), Options{}) {}

AlertFactsBuilder::AlertFactsBuilder(QByteArray poolKey, Options options)
    : m_poolKey(std::move(poolKey))
    , m_options(options) {
    m_options.windowMs = std::max<qint64>(m_options.windowMs, 1);
    m_options.baselineMs = std::max<qint64>(m_options.baselineMs, 1);
    m_options.idleListed = std::max(m_options.idleListed, 1);
}

void AlertFactsBuilder::clear() {
    *this = AlertFactsBuilder(m_poolKey, m_options);
}

void AlertFactsBuilder::observe(const PoolObservation &observation) {
    const qint64 now = observation.timeMs;
    if (m_previousMs >= 0 && now <= m_previousMs)
        return; // an older or repeated poll changes nothing
    m_facts.reset();
    AlertFacts &last = m_last;
    last.reachable = true;
    last.unreachableSinceMs.reset();
    last.unreachableReason.clear();
    if (last.observedSinceMs < 0)
        last.observedSinceMs = now;
    const PoolStats &stats = observation.stats;
    last.polled = true;
    last.pollTimeMs = now;
    last.members = stats.size;
    last.evicted = stats.evicted;
    last.min = stats.min;
    last.median = stats.median;
    last.max = stats.max;
    last.spread = stats.spread;
    last.summaryMode = observation.summaryMode;
    // In summary mode Jain's index comes from the totals scan, 0 until its first pass is through.
    if (observation.summaryMode && stats.size > 0 && stats.jainIndex <= 0)
        last.jain.reset();
    else
        last.jain = stats.jainIndex;
    noteServer(FailoverFact::Kind::PrimaryChanged, m_primary, observation.primary, now);
    noteServer(FailoverFact::Kind::SlotMoved, m_servedBy, observation.servedBy, now);

    const quint64 poll = ++m_polls;
    const bool hasPrevious = m_previousMs >= 0;
    Tick tick{m_previousMs, now, std::nullopt, {}};
    double rises = 0;
    QList<QByteArray> marked; // their allocation (or first sight) is now: marked after the tick
    if (!observeChanges(observation, poll, tick, rises, marked))
        observeAll(observation, poll, tick, rises, marked);
    m_previousMs = now;
    if (hasPrevious) {
        tick.total = observation.summaryMode ? observation.allocationsSincePrevious
                                             : std::optional<double>(rises);
        if (tick.total) {
            m_cumulative += *tick.total;
            m_countedMs += tick.toMs - tick.fromMs;
        } else {
            tick.deltas.clear(); // shares of an unknown whole would mislead
        }
        recordTick(std::move(tick));
    }
    for (const QByteArray &member : std::as_const(marked))
        m_followed[member].cumulativeAt = m_cumulative;

    // The baseline: about one level a second, as far back as the window and the baseline reach.
    const qint64 spacing = std::max<qint64>(1000, m_options.baselineMs / 900);
    const Level level{now, m_cumulative, m_countedMs};
    if (m_levels.size() >= 2 && now - m_levels[m_levels.size() - 2].timeMs < spacing)
        m_levels.back() = level;
    else
        m_levels.push_back(level);
    const qint64 keepFrom = now - m_options.windowMs - m_options.baselineMs - spacing;
    while (m_levels.size() > 2 && m_levels[1].timeMs <= keepFrom)
        m_levels.pop_front();
}

void AlertFactsBuilder::observeAll(const PoolObservation &observation, quint64 poll, Tick &tick,
                                   double &rises, QList<QByteArray> &marked) {
    const qint64 now = observation.timeMs;
    // The members this poll read: all of them, or a big pool's bottom, top, pinned and shown.
    QList<PoolMember> seen;
    if (!observation.summaryMode) {
        seen = observation.snapshot.members;
    } else {
        const PoolSummary &summary = observation.summary;
        for (const QList<RankedMember> *rows :
             {&summary.bottom, &summary.top, &observation.visibleRows})
            for (const RankedMember &row : *rows)
                seen.append({row.member, row.count});
        seen += summary.pinned;
    }
    if (m_allSeen) { // their poll fields as observeChanges left them: all in the last poll
        for (Followed &followed : m_followed)
            followed.poll = poll - 1;
        m_allSeen = false;
    }
    qsizetype distinct = 0;
    m_followed.reserve(seen.size());
    for (const PoolMember &member : std::as_const(seen)) {
        auto followed = m_followed.find(member.member);
        if (followed == m_followed.end()) {
            m_followed.insert(member.member, {member.count, poll, now, 0});
            marked.append(member.member);
            ++distinct;
            continue;
        }
        if (followed->poll == poll)
            continue; // listed twice (bottom and pinned, say)
        ++distinct;
        const double delta = member.count - followed->count;
        if (followed->poll + 1 != poll) {
            // Out of view (or evicted) in between: its rise is no allocation we saw.
            followed->sinceMs = now;
            marked.append(member.member);
        } else if (delta > 0) {
            tick.deltas.emplace_back(member.member, delta);
            rises += delta;
            followed->sinceMs = now;
            marked.append(member.member);
        }
        followed->count = member.count;
        followed->poll = poll;
    }
    if (m_followed.size() > distinct)
        m_followed.removeIf([poll](const auto &entry) { return entry.value().poll != poll; });
    m_readId = observation.summaryMode ? 0 : observation.snapshot.readId;
}

bool AlertFactsBuilder::observeChanges(const PoolObservation &observation, quint64 poll, Tick &tick,
                                       double &rises, QList<QByteArray> &marked) {
    const PoolSnapshot &snapshot = observation.snapshot;
    // Only after a whole read of which every followed member was part: then the members this
    // read does not list as changed or gone are the rest of the followed ones, unchanged.
    if (observation.summaryMode || !snapshot.changes || snapshot.readId == 0 || m_readId == 0 ||
        snapshot.changes->sinceReadId != m_readId)
        return false;
    const PoolChanges &changes = *snapshot.changes;
    for (const MemberChange &change : changes.changed)
        if (std::isnan(change.before) == m_followed.contains(change.member))
            return false; // not as the last read had it: look at every member
    const qint64 now = observation.timeMs;
    for (const QByteArray &member : changes.gone)
        m_followed.remove(member);
    for (const MemberChange &change : changes.changed) {
        auto followed = m_followed.find(change.member);
        if (followed == m_followed.end()) { // came (seeded or restored): no allocation
            m_followed.insert(change.member, {change.now, poll, now, 0});
            marked.append(change.member);
            continue;
        }
        const double delta = change.now - followed->count;
        if (delta > 0) {
            tick.deltas.emplace_back(change.member, delta);
            rises += delta;
            followed->sinceMs = now;
            marked.append(change.member);
        }
        followed->count = change.now;
        followed->poll = poll;
    }
    m_allSeen = true;
    m_readId = snapshot.readId;
    return true;
}

void AlertFactsBuilder::noteServer(FailoverFact::Kind kind, QString &previous, const QString &now,
                                   qint64 timeMs) {
    if (now.isEmpty())
        return;
    if (!previous.isEmpty() && previous != now)
        m_last.lastFailover = FailoverFact{kind, timeMs, previous, now};
    previous = now;
}

void AlertFactsBuilder::recordTick(Tick tick) {
    for (const auto &[member, delta] : std::as_const(tick.deltas)) {
        InWindow &inWindow = m_windowMembers[member];
        inWindow.allocations += delta;
        ++inWindow.ticks;
    }
    m_ticks.push_back(std::move(tick));
    trimWindow();
}

void AlertFactsBuilder::trimWindow() {
    const qint64 cutoff = m_ticks.back().toMs - m_options.windowMs;
    // The tick that straddles the cutoff stays, so the window is never shorter than asked.
    while (m_ticks.size() > 1 && m_ticks[1].fromMs <= cutoff) {
        const Tick &oldest = m_ticks.front();
        for (const auto &[member, delta] : oldest.deltas) {
            const auto inWindow = m_windowMembers.find(member);
            if (inWindow == m_windowMembers.end())
                continue;
            if (--inWindow->ticks == 0)
                m_windowMembers.erase(inWindow);
            else
                inWindow->allocations -= delta;
        }
        m_ticks.pop_front();
    }
}

void AlertFactsBuilder::observeUnreachable(qint64 timeMs, const QString &reason) {
    m_facts.reset();
    if (m_last.reachable || !m_last.unreachableSinceMs)
        m_last.unreachableSinceMs = timeMs;
    m_last.reachable = false;
    m_last.unreachableReason = reason;
}

void AlertFactsBuilder::observeGuard(qint64 timeMs, const GuardStatus &status) {
    m_facts.reset();
    m_leaseSeen = m_leaseSeen || status.leaseHeld;
    GuardFacts guard;
    guard.seen =
        m_leaseSeen || (status.lastEventMs && timeMs - *status.lastEventMs < kGuardSeenFor);
    guard.leaseHeld = status.leaseHeld;
    guard.holder = status.holder;
    // A guard that died while held back leaves "capped" as its last word: only a live one counts.
    guard.capped = status.capped && status.leaseHeld;
    guard.capReason = guard.capped ? maskCredentialsInText(status.capReason) : QString();
    m_last.guard = guard;
}

AlertFacts AlertFactsBuilder::facts(qint64 nowMs) const {
    // Everything but the time of asking is made of what was fed, so between two feeds (the alert
    // timer's evaluations between polls) the figures are not worked out again.
    if (!m_facts)
        m_facts = workOutFacts();
    AlertFacts facts = *m_facts;
    facts.timeMs = nowMs;
    return facts;
}

AlertFacts AlertFactsBuilder::workOutFacts() const {
    AlertFacts facts = m_last;
    facts.poolKey = m_poolKey;
    facts.windowMs = m_options.windowMs;
    for (const Tick &tick : m_ticks) {
        if (!tick.total)
            continue;
        facts.windowAllocations += *tick.total;
        facts.coveredMs += tick.toMs - tick.fromMs;
    }
    if (facts.coveredMs > 0)
        facts.ratePerSecond = facts.windowAllocations * 1000.0 / double(facts.coveredMs);
    for (auto it = m_windowMembers.cbegin(); it != m_windowMembers.cend(); ++it)
        if (!facts.busiest || it->allocations > facts.busiest->allocations ||
            (it->allocations == facts.busiest->allocations && it.key() < facts.busiest->member))
            facts.busiest = MemberAllocations{it.key(), it->allocations};

    // The longest idle, kept in order while going through the followed members (a few of
    // 10,000), rather than a list of all of them sorted in part.
    const auto longerIdle = [](const IdleMember &a, const IdleMember &b) {
        return a.idleMs != b.idleMs ? a.idleMs > b.idleMs : a.member < b.member;
    };
    const qsizetype listed = std::max(0, m_options.idleListed);
    QList<IdleMember> idle;
    idle.reserve(listed + 1);
    for (auto it = m_followed.cbegin(); it != m_followed.cend() && listed > 0; ++it) {
        if (!m_allSeen && it->poll != m_polls)
            continue;
        const qint64 idleMs = m_previousMs - it->sinceMs;
        if (idle.size() == listed && idleMs < idle.back().idleMs)
            continue; // not among them (checked before the member is copied)
        const IdleMember member{it.key(), idleMs, m_cumulative - it->cumulativeAt};
        if (idle.size() == listed && !longerIdle(member, idle.back()))
            continue;
        idle.insert(std::upper_bound(idle.begin(), idle.end(), member, longerIdle), member);
        if (idle.size() > listed)
            idle.removeLast();
    }
    facts.idle = idle;

    // The baseline ends where the window starts.
    const qint64 windowStart = m_previousMs - m_options.windowMs;
    const Level *end = nullptr;
    for (const Level &level : m_levels)
        if (level.timeMs <= windowStart)
            end = &level;
    if (end && !m_levels.empty()) {
        const Level &start = m_levels.front();
        const qint64 counted = end->countedMs - start.countedMs;
        if (counted >= m_options.baselineMs / 2 && counted > 0) {
            facts.baselineRate = (end->cumulative - start.cumulative) * 1000.0 / double(counted);
            facts.baselineCoveredMs = counted;
        }
    }
    return facts;
}

} // namespace poolscope
