// The alert engine's state machine (pending -> firing -> resolved, no flapping) and the facts
// built from polls, as pure data: observations and facts written by hand, no server.
#include "alerts/AlertEngine.h"
#include "alerts/AlertFactsBuilder.h"
#include "pool/SnapshotOrder.h"

#include <algorithm>

#include <QRandomGenerator>

#include <QTest>

using namespace poolscope;

namespace {

// A pool of the given counts ("a" = 3 ...), read whole at timeMs.
PoolObservation fullPoll(qint64 timeMs, const QList<PoolMember> &members, qint64 evicted = 0) {
    PoolObservation observation;
    observation.timeMs = timeMs;
    observation.snapshot.members = members;
    QList<double> counts;
    for (const PoolMember &member : members)
        counts.append(member.count);
    observation.stats = computePoolStats(counts, evicted);
    return observation;
}

// Facts for the state machine: "E" an empty pool (pool-empty met), "F" a full one (clear), "U"
// the server unreachable (unknown).
AlertFacts factsFor(QChar state, qint64 timeMs) {
    AlertFacts facts;
    facts.timeMs = timeMs;
    facts.poolKey = "proxies";
    facts.reachable = state != u'U';
    if (!facts.reachable)
        facts.unreachableSinceMs = timeMs;
    facts.polled = true;
    facts.members = state == u'E' ? 0 : 3;
    return facts;
}

QString transitionsText(const QList<AlertTransition> &transitions) {
    QStringList parts;
    for (const AlertTransition &t : transitions)
        parts << QStringLiteral("%1@%2").arg(transitionKindName(t.kind)).arg(t.timeMs);
    return parts.join(u' ');
}

AlertRuleSet emptyRule(qint64 forMs, qint64 keepFiringMs) {
    AlertRule rule = AlertRule::defaults(AlertKind::PoolEmpty);
    rule.forMs = forMs;
    rule.keepFiringMs = keepFiringMs;
    return AlertRuleSet{{rule}};
}

} // namespace

class TestAlertEngine : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Sequences of "<state><time ms>" evaluated in order, and the transitions they make.
    void stateMachine_data() {
        QTest::addColumn<qint64>("forMs");
        QTest::addColumn<qint64>("keepFiringMs");
        QTest::addColumn<QString>("sequence");
        QTest::addColumn<QString>("expected");
        QTest::newRow("for 0 fires at the first poll that sees it")
            << 0LL << 0LL << "F0 E100 E200 F300"
            << "fired@100 resolved@300";
        QTest::newRow("fires once the for has passed")
            << 300LL << 0LL << "E0 E100 E299 E300 E400 F500"
            << "pending@0 fired@300 resolved@500";
        QTest::newRow("a flicker while pending never fires")
            << 300LL << 0LL << "E0 F100 E200 F300 E400 F500 E600 F700"
            << "pending@0 cleared@100 pending@200 cleared@300 pending@400 cleared@500 pending@600 "
               "cleared@700";
        QTest::newRow("a flicker while firing never resolves")
            << 0LL << 500LL << "E0 F100 E200 F300 E400 F500 E600 F700 E800"
            << "fired@0";
        QTest::newRow("resolves once clear for the keep-firing time")
            << 0LL << 500LL << "E0 F100 F400 F599 F600 E700"
            << "fired@0 resolved@600 fired@700";
        QTest::newRow("clear again restarts the keep-firing time")
            << 0LL << 500LL << "E0 F100 E500 F600 F1000 F1100"
            << "fired@0 resolved@1100";
        QTest::newRow("unknown changes nothing for a firing alert")
            << 0LL << 200LL << "E0 U100 U5000 E6000 F7000 U7100 F7200"
            << "fired@0 resolved@7200";
        QTest::newRow("unknown sends a pending alert back to the start")
            << 300LL << 0LL << "E0 E200 U250 E300 E500 E600"
            << "pending@0 cleared@250 pending@300 "
               "fired@600";
        QTest::newRow("a long for, met all along") << 60'000LL << 0LL << "E0 E30000 E59999 E60000"
                                                   << "pending@0 fired@60000";
    }
    void stateMachine() {
        QFETCH(qint64, forMs);
        QFETCH(qint64, keepFiringMs);
        QFETCH(QString, sequence);
        QFETCH(QString, expected);
        AlertEngine engine(emptyRule(forMs, keepFiringMs));
        QList<AlertTransition> all;
        for (const QString &step : sequence.split(u' '))
            all += engine.evaluate(factsFor(step.front(), step.mid(1).toLongLong()));
        QCOMPARE(transitionsText(all), expected);
    }

    void firingAlertSaysSinceWhenAndWhat() {
        AlertEngine engine(emptyRule(100, 100));
        engine.evaluate(factsFor(u'E', 0));
        QCOMPARE(engine.active().size(), 1);
        QCOMPARE(engine.active().front().state, AlertState::Pending);
        const QList<AlertTransition> fired = engine.evaluate(factsFor(u'E', 100));
        QCOMPARE(fired.size(), 1);
        QCOMPARE(fired.front().rule.kind, AlertKind::PoolEmpty);
        QCOMPARE(fired.front().check.message,
                 QStringLiteral("pool \"proxies\" is empty: every allocation returns nil"));
        const AlertStatus status = engine.active().front();
        QCOMPARE(status.state, AlertState::Firing);
        QCOMPARE(status.activeSinceMs, 0);
        QCOMPARE(status.firingSinceMs, 100);
        QCOMPARE(engine.worstFiring(), std::optional(AlertSeverity::Critical));
        engine.evaluate(factsFor(u'F', 150));
        QCOMPARE(engine.active().front().clearSinceMs, 150); // resolving, still firing
        const QList<AlertTransition> resolved = engine.evaluate(factsFor(u'F', 250));
        QCOMPARE(transitionsText(resolved), QStringLiteral("resolved@250"));
        QCOMPARE(resolved.front().sinceMs, 100);
        QVERIFY(engine.active().isEmpty());
        QVERIFY(!engine.worstFiring());
    }

    void changedRulesEndTheirAlerts() {
        AlertRuleSet rules = emptyRule(0, 0);
        rules.rules.append(AlertRule::defaults(AlertKind::PoolSmall));
        rules.rules.back().forMs = 0;
        AlertEngine engine(rules);
        AlertFacts small = factsFor(u'F', 0); // 3 members: small
        QCOMPARE(transitionsText(engine.evaluate(small)), QStringLiteral("fired@0"));
        QCOMPARE(engine.worstFiring(), std::optional(AlertSeverity::Warning));
        // The same rules again: nothing ends.
        QVERIFY(engine.setRules(rules, 10).isEmpty());
        QCOMPARE(engine.active().size(), 1);
        // A changed threshold is another rule: the old alert resolves, the new one starts over.
        rules.rules.back().parameters[QStringLiteral("minMembers")] = 3;
        QCOMPARE(transitionsText(engine.setRules(rules, 20)), QStringLiteral("resolved@20"));
        QVERIFY(engine.evaluate(factsFor(u'F', 30)).isEmpty());
        rules.rules.back().parameters[QStringLiteral("minMembers")] = 10;
        engine.setRules(rules, 40);
        engine.evaluate(factsFor(u'F', 50));
        QCOMPARE(transitionsText(engine.reset(60)), QStringLiteral("resolved@60"));
    }

    void judgeOnceDoesNotWaitForTheFor() {
        const AlertRuleSet rules = emptyRule(3'600'000, 0);
        const QList<AlertStatus> judged = AlertEngine::judgeOnce(rules, factsFor(u'E', 5));
        QCOMPARE(judged.size(), 1);
        QCOMPARE(judged.front().state, AlertState::Firing);
        QCOMPARE(AlertEngine::judgeOnce(rules, factsFor(u'F', 5)).front().state,
                 AlertState::Inactive);
    }

    void ratesSharesAndRestoresFromFullSnapshots() {
        AlertFactsBuilder builder("proxies", {10'000, 60'000, 5});
        builder.observe(fullPoll(0, {{"a", 10}, {"b", 10}, {"c", 10}}));
        AlertFacts facts = builder.facts(0);
        QVERIFY(!facts.ratePerSecond); // two polls are needed
        QCOMPARE(facts.observedSinceMs, 0);
        builder.observe(fullPoll(1000, {{"a", 14}, {"b", 12}, {"c", 10}}));
        // c is evicted, then restored at 0: its return is no allocation.
        builder.observe(fullPoll(2000, {{"a", 16}, {"b", 14}}, 1));
        builder.observe(fullPoll(3000, {{"c", 0}, {"a", 16}, {"b", 14}}));
        builder.observe(fullPoll(4000, {{"c", 8}, {"a", 16}, {"b", 14}}));
        facts = builder.facts(4000);
        QCOMPARE(facts.windowAllocations, 18.0); // 6 + 4 + 0 + 8
        QCOMPARE(facts.coveredMs, 4000);
        QCOMPARE(*facts.ratePerSecond, 4.5);
        QCOMPARE(facts.busiest->member, QByteArray("c"));
        QCOMPARE(facts.busiest->allocations, 8.0);
        QCOMPARE(facts.members, 3);
        // Idle: a and b since 2000 (their last rise), c allocated at 4000.
        QCOMPARE(facts.idle.front().member, QByteArray("a"));
        QCOMPARE(facts.idle.front().idleMs, 2000);
        QCOMPARE(facts.idle.front().poolAllocationsSince, 8.0);
        QCOMPARE(facts.idle.back().member, QByteArray("c"));
        QCOMPARE(facts.idle.back().idleMs, 0);
        // Allocations leave the window: 12 s later only the last ticks count.
        builder.observe(fullPoll(16'000, {{"c", 8}, {"a", 17}, {"b", 14}}));
        facts = builder.facts(16'000);
        QCOMPARE(facts.windowAllocations, 1.0);
        QCOMPARE(facts.busiest->member, QByteArray("a"));
        // An older poll changes nothing.
        builder.observe(fullPoll(15'000, {{"c", 100}}));
        QCOMPARE(builder.facts(16'000).members, 3);
    }

    void summaryModeCountsThePoolsLevels() {
        AlertFactsBuilder builder("big");
        auto summaryPoll = [](qint64 timeMs, std::optional<double> allocations, double bottomCount,
                              double jain) {
            PoolObservation observation;
            observation.timeMs = timeMs;
            observation.summaryMode = true;
            observation.summary.size = 50'000;
            observation.summary.bottom = {{0, "low", bottomCount}};
            observation.summary.top = {{49'999, "high", 900}};
            observation.summary.pinned = {{"low", bottomCount}}; // also in the bottom rows
            observation.stats.size = 50'000;
            observation.stats.jainIndex = jain;
            observation.allocationsSincePrevious = allocations;
            return observation;
        };
        builder.observe(summaryPoll(0, std::nullopt, 0, 0));
        QVERIFY(!builder.facts(0).jain); // no totals scan through yet
        builder.observe(summaryPoll(1000, 100, 40, 0));
        builder.observe(summaryPoll(2000, std::nullopt, 60, 0.97)); // levels unknown: left out
        builder.observe(summaryPoll(3000, 100, 90, 0.97));
        const AlertFacts facts = builder.facts(3000);
        QCOMPARE(facts.windowAllocations, 200.0);
        QCOMPARE(facts.coveredMs, 2000);
        QCOMPARE(*facts.ratePerSecond, 100.0);
        QCOMPARE(*facts.jain, 0.97);
        QCOMPARE(facts.busiest->member, QByteArray("low"));
        QCOMPARE(facts.busiest->allocations, 70.0); // 40 + 30: the unknown stretch's 20 left out
        QCOMPARE(facts.idle.front().member, QByteArray("high"));
        QCOMPARE(facts.idle.front().idleMs, 3000);
        QCOMPARE(facts.idle.front().poolAllocationsSince, 200.0);
    }

    void baselineIsTheStretchBeforeTheWindow() {
        AlertFactsBuilder builder("proxies", {1000, 10'000, 5});
        double count = 0;
        qint64 t = 0;
        for (; t <= 12'000; t += 100, count += 1) // 10/s
            builder.observe(fullPoll(t, {{"a", count}}));
        AlertFacts facts = builder.facts(t);
        QVERIFY(facts.baselineRate);
        QCOMPARE(qRound(*facts.baselineRate * 100), 1000);
        for (qint64 end = t + 1000; t <= end; t += 100, count += 5) // 50/s for a second
            builder.observe(fullPoll(t, {{"a", count}}));
        facts = builder.facts(t);
        QCOMPARE(qRound(*facts.ratePerSecond), 50);
        QVERIFY2(*facts.baselineRate < 15, qPrintable(QString::number(*facts.baselineRate)));
        // Too short a history gives no baseline.
        AlertFactsBuilder young("proxies", {1000, 10'000, 5});
        for (qint64 s = 0; s <= 5000; s += 100)
            young.observe(fullPoll(s, {{"a", double(s)}}));
        QVERIFY(!young.facts(5000).baselineRate);
    }

    void reachabilityAndFailovers() {
        AlertFactsBuilder builder("proxies");
        QVERIFY(!builder.facts(0).reachable);
        QVERIFY(!builder.facts(0).unreachableSinceMs);
        builder.observeUnreachable(100, QStringLiteral("connection refused"));
        builder.observeUnreachable(900, QStringLiteral("timed out"));
        AlertFacts facts = builder.facts(1000);
        QCOMPARE(*facts.unreachableSinceMs, 100);
        QCOMPARE(facts.unreachableReason, QStringLiteral("timed out"));
        PoolObservation poll = fullPoll(2000, {{"a", 1}});
        poll.primary = QStringLiteral("127.0.0.1:7001");
        builder.observe(poll);
        facts = builder.facts(2000);
        QVERIFY(facts.reachable && !facts.unreachableSinceMs && !facts.lastFailover);
        builder.observeUnreachable(2500, QStringLiteral("the sentinels switched the primary"));
        poll = fullPoll(3000, {{"a", 1}});
        poll.primary = QStringLiteral("127.0.0.1:7002");
        builder.observe(poll);
        facts = builder.facts(3000);
        QVERIFY(facts.lastFailover);
        QCOMPARE(facts.lastFailover->kind, FailoverFact::Kind::PrimaryChanged);
        QCOMPARE(facts.lastFailover->from, QStringLiteral("127.0.0.1:7001"));
        QCOMPARE(facts.lastFailover->to, QStringLiteral("127.0.0.1:7002"));
        QCOMPARE(facts.lastFailover->timeMs, 3000);
        poll = fullPoll(4000, {{"a", 1}});
        poll.servedBy = QStringLiteral("127.0.0.1:7003");
        builder.observe(poll);
        QCOMPARE(builder.facts(4000).lastFailover->timeMs, 3000); // a first owner is no move
        builder.clear();
        QVERIFY(!builder.facts(5000).lastFailover && !builder.facts(5000).polled);
    }

    void guardSeenHeldAndCapped() {
        const qint64 day = 24 * 3600 * 1000;
        AlertFactsBuilder builder("proxies");
        builder.observeGuard(10 * day, GuardStatus{});
        QVERIFY(!builder.facts(10 * day).guard->seen); // never a guard here
        builder.observeGuard(10 * day, GuardStatus{false, {}, 8 * day, true, {}});
        QVERIFY(!builder.facts(10 * day).guard->seen); // its last word is two days old
        builder.observeGuard(10 * day, GuardStatus{false, {}, 10 * day - 5000, true, {}});
        GuardFacts guard = *builder.facts(10 * day).guard;
        QVERIFY(guard.seen && !guard.leaseHeld);
        QVERIFY(!guard.capped); // a dead guard's last "capped" does not count
        builder.observeGuard(10 * day, GuardStatus{true, "g1", std::nullopt, true,
                                                   QStringLiteral("down via http://u:pw@h:1")});
        guard = *builder.facts(10 * day).guard;
        QVERIFY(guard.leaseHeld && guard.capped);
        QVERIFY2(!guard.capReason.contains(QStringLiteral("pw@")), qPrintable(guard.capReason));
        // Once seen holding the lease, a guard stays seen for as long as we watch.
        builder.observeGuard(20 * day, GuardStatus{});
        guard = *builder.facts(20 * day).guard;
        QVERIFY(guard.seen && !guard.leaseHeld && !guard.capped);
    }
    // A whole read's changes against the read before (what the poller gives) lead to the same
    // facts as looking at every member: random pools with members allocated, come, evicted,
    // restored and gone, and a summary-mode poll in between.
    void changesGiveTheSameFactsAsEveryMember() {
        QRandomGenerator random(7);
        AlertFactsBuilder fromChanges("proxies", {5000, 20'000, 1000});
        AlertFactsBuilder fromAll("proxies", {5000, 20'000, 1000});
        AlertFactsBuilder fewIdle("proxies", {5000, 20'000, 3}); // the first 3 of all, in order
        SnapshotOrder order;
        QMap<QByteArray, double> pool;
        for (int i = 0; i < 30; ++i)
            pool.insert("m" + QByteArray::number(i), random.bounded(3));
        int withChanges = 0;
        for (int poll = 0; poll < 80; ++poll) {
            const qint64 now = 1000 * (poll + 1);
            QList<PoolMember> read;
            for (auto it = pool.cbegin(); it != pool.cend(); ++it)
                read.append({it.key(), it.value()});
            std::shuffle(read.begin(), read.end(), random);
            PoolObservation observation = fullPoll(now, {});
            observation.snapshot.members = order.order(read, &observation.snapshot);
            if (poll == 40) { // a poll in summary mode: the next whole read starts afresh
                observation.summaryMode = true;
                observation.summary.bottom = {{0, read.first().member, read.first().count}};
                order.reset();
            }
            withChanges += observation.snapshot.changes ? 1 : 0;
            fromChanges.observe(observation);
            fewIdle.observe(observation);
            observation.snapshot.changes.reset();
            fromAll.observe(observation);
            const AlertFacts expected = fromAll.facts(now);
            const AlertFacts got = fromChanges.facts(now);
            QCOMPARE(got.toJson(), expected.toJson());
            QCOMPARE(got.idle.size(), expected.idle.size());
            for (qsizetype i = 0; i < got.idle.size(); ++i) {
                QCOMPARE(got.idle[i].member, expected.idle[i].member);
                QCOMPARE(got.idle[i].idleMs, expected.idle[i].idleMs);
                QCOMPARE(got.idle[i].poolAllocationsSince, expected.idle[i].poolAllocationsSince);
            }
            const QList<IdleMember> few = fewIdle.facts(now).idle;
            QCOMPARE(few.size(), std::min<qsizetype>(3, expected.idle.size()));
            for (qsizetype i = 0; i < few.size(); ++i) {
                QCOMPARE(few[i].member, expected.idle[i].member);
                QCOMPARE(few[i].idleMs, expected.idle[i].idleMs);
            }
            QCOMPARE(got.busiest.has_value(), expected.busiest.has_value());
            if (got.busiest)
                QCOMPARE(got.busiest->member, expected.busiest->member);
            // The next poll: allocations, and now and then a member come, evicted or gone.
            for (int i = 0; i < int(random.bounded(8)); ++i)
                pool[pool.keys()[random.bounded(int(pool.size()))]] += 1;
            if (poll % 9 == 4)
                pool.insert("new" + QByteArray::number(poll), 0);
            if (poll % 11 == 6 && pool.size() > 5)
                pool.remove(pool.firstKey());
            if (poll % 13 == 2)
                pool[pool.lastKey()] -= 1; // an operator lowered a count
        }
        QCOMPARE_GT(withChanges, 60);
    }
};

QTEST_GUILESS_MAIN(TestAlertEngine)
#include "tst_alertengine.moc"
