// The overview's alerts column: the default rules judged on rows as the overview reads them (pure
// logic, time given): an empty pool fires at once, a small one after its rule's five minutes, an
// unreachable server after two and resolves a minute after it answers again, placeholders and
// connections never polled get no verdict, and a row gone and back starts afresh.
#include "overview/OverviewAlerts.h"

#include <QtTest>

using namespace poolscope;

namespace {

constexpr qint64 kMinute = 60000;
constexpr qint64 kStart = 1'800'000'000'000;

OverviewRow row(const QByteArray &pool, qint64 members, RowState state = RowState::Ok) {
    OverviewRow r;
    r.connection = QStringLiteral("prod");
    r.pool = pool;
    r.state = state;
    r.hasFigures = true;
    r.members = members;
    r.minimum = 10;
    r.median = 11;
    r.maximum = 12;
    r.jainIndex = 0.99;
    r.allocationRate = 5.0;
    r.lastGoodPollMs = kStart;
    r.guardKnown = true;
    return r;
}

QStringList firingOf(const QList<OverviewAlerts::Verdict> &verdicts, const QByteArray &pool) {
    for (const auto &verdict : verdicts)
        if (verdict.pool == pool)
            return verdict.firing;
    return {QStringLiteral("<no verdict>")};
}

} // namespace

class TestOverviewAlerts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void emptyFiresAtOnceSmallAfterItsFor() {
        OverviewAlerts alerts;
        const QList<OverviewRow> rows{row("empty", 0), row("small", 3), row("fine", 40)};
        QList<OverviewAlerts::Verdict> verdicts = alerts.evaluate(rows, kStart);
        QCOMPARE(verdicts.size(), 3);
        QCOMPARE(firingOf(verdicts, "empty"), QStringList{QStringLiteral("Pool empty")});
        QCOMPARE(firingOf(verdicts, "small"), QStringList());
        QCOMPARE(firingOf(verdicts, "fine"), QStringList());
        verdicts = alerts.evaluate(rows, kStart + 5 * kMinute + 1000);
        QCOMPARE(firingOf(verdicts, "small"), QStringList{QStringLiteral("Few members")});
        QCOMPARE(firingOf(verdicts, "fine"), QStringList());
    }

    void unreachableFiresThenResolves() {
        OverviewAlerts alerts;
        QCOMPARE(firingOf(alerts.evaluate({row("p", 40)}, kStart), "p"), QStringList());
        OverviewRow down = row("p", 40, RowState::Unreachable);
        down.problem = QStringLiteral("connection refused");
        QCOMPARE(firingOf(alerts.evaluate({down}, kStart + kMinute), "p"), QStringList());
        const QStringList unreachable{QStringLiteral("Server unreachable")};
        QCOMPARE(firingOf(alerts.evaluate({down}, kStart + 3 * kMinute + 1000), "p"), unreachable);
        // Back: still firing for its keep-firing minute, then resolved.
        OverviewRow back = row("p", 40);
        back.lastGoodPollMs = kStart + 4 * kMinute;
        QCOMPARE(firingOf(alerts.evaluate({back}, kStart + 4 * kMinute), "p"), unreachable);
        QCOMPARE(firingOf(alerts.evaluate({back}, kStart + 5 * kMinute + 1000), "p"),
                 QStringList());
    }

    void placeholdersAndUnpolledConnectionsHaveNoVerdict() {
        OverviewAlerts alerts;
        OverviewRow placeholder = row({}, 0);
        placeholder.placeholder = true;
        OverviewRow unpolled = row("q", 0, RowState::NotPolled);
        QVERIFY(alerts.evaluate({placeholder, unpolled}, kStart).isEmpty());
    }

    void aRowGoneAndBackStartsAfresh() {
        OverviewAlerts alerts;
        alerts.evaluate({row("small", 3)}, kStart);
        alerts.evaluate({}, kStart + kMinute); // its connection was removed
        // Had it been remembered, its five minutes would be over here.
        const auto verdicts = alerts.evaluate({row("small", 3)}, kStart + 5 * kMinute + 1000);
        QCOMPARE(firingOf(verdicts, "small"), QStringList());
    }

    void theRowsFactsAreWhatTheRulesRead() {
        OverviewRow r = row("p", 7);
        r.evicted = 2;
        r.guardHolder = "guard-1";
        const AlertFacts facts = OverviewAlerts::factsOf(r, kStart, kStart - 1000, {}, false);
        QVERIFY(facts.reachable);
        QVERIFY(facts.polled);
        QCOMPARE(facts.members, 7);
        QCOMPARE(facts.evicted, 2);
        QCOMPARE(facts.spread, 2.0);
        QCOMPARE(facts.ratePerSecond, std::optional<double>(5.0));
        QVERIFY(facts.guard && facts.guard->leaseHeld && facts.guard->seen);
        // Unreachable: no figures judged, only the failure.
        r.state = RowState::Unreachable;
        const AlertFacts down =
            OverviewAlerts::factsOf(r, kStart, kStart - 1000, kStart - 500, true);
        QVERIFY(!down.reachable);
        QVERIFY(!down.polled);
        QCOMPARE(down.unreachableSinceMs, std::optional<qint64>(kStart - 500));
    }
};

QTEST_GUILESS_MAIN(TestOverviewAlerts)
#include "tst_overviewalerts.moc"
