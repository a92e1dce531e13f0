// The dashboard on a pool above the full-snapshot threshold (lowered to 100 so a 2,000-member pool
// is "big"), against a real redis-server, offscreen: the lazy table has one row per rank and shows
// the right members at the top, the bottom and a middle scroll position; the chart has the band
// and the top/bottom members; pinning (also from the table) adds a series; the fairness panel says
// which mode it is in and why. QAbstractItemModelTester watches the table model throughout.
// findMembersByName: in summary mode the filter searches the server (exact member by ZSCORE/ZRANK,
// prefix by ZSCAN MATCH in the background) and the members found can be pinned and evicted; the
// read-mode text is one elided line that does not widen the window.

#include "chart/ChartPanel.h"
#include "fairness/FairnessPanel.h"
#include "ElidedLabel.h"
#include "MainWindow.h"
#include "members/MembersPanel.h"
#include "actions/PoolActions.h"
#include "session/PoolSession.h"
#include "members/PoolTableModel.h"

#include "pool/LuaScript.h"

#include "RedisFixture.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

using namespace poolscope;
using namespace std::chrono_literals;

namespace {

const QByteArray kKey = "big";
constexpr int kMembers = 2000;
constexpr int kThreshold = 100;

// Member i is "s<i, 4 digits>" with count 3 * i: rank i holds member i.
QByteArray memberAt(int i) {
    return 's' + QByteArray::number(i).rightJustified(4, '0');
}

// With POOLSCOPE_SHOTS set to a folder, saves a screenshot of widget there (for a look by eye).
void saveShot(QWidget &widget, const char *name) {
    const QString dir = qEnvironmentVariable("POOLSCOPE_SHOTS");
    if (!dir.isEmpty())
        widget.grab().save(QDir(dir).filePath(QString::fromLatin1(name)));
}

QString text(const PoolTableModel *model, int row, int column) {
    return model->index(row, column).data().toString();
}

} // namespace

class TestSummaryMode : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<testing::RedisFixture> m_redis;

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        m_redis = std::make_unique<testing::RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
        RedisConnection &admin = m_redis->admin();
        for (int batch = 0; batch < kMembers; batch += 1000) {
            RedisCommand zadd{"ZADD", kKey};
            for (int i = batch; i < batch + 1000; ++i)
                zadd << QByteArray::number(3 * i) << memberAt(i);
            admin.append(zadd);
        }
        for (int batch = 0; batch < kMembers; batch += 1000)
            QVERIFY(!admin.readReply().isError());
        QCOMPARE(m_redis->run({"ZCARD", kKey}).integer, qint64(kMembers));
    }
    void cleanupTestCase() { m_redis.reset(); }

    void lazyTableChartAndFairness() {
        PoolSession session;
        session.setFullSnapshotThreshold(kThreshold);
        MainWindow window(&session);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        MembersPanel *members = window.membersPanel();
        PoolTableModel *model = members->model();
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            members->proxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        session.setPollInterval(200ms);
        session.connectTo(m_redis->endpoint(), kKey);

        // One row per rank, in rank order; the top rows are read at once.
        QTRY_VERIFY_WITH_TIMEOUT(model->isSummaryMode(), 10000);
        QCOMPARE(model->rowCount(), kMembers);
        QCOMPARE(members->proxyModel()->rowCount(), kMembers);
        QTRY_COMPARE_WITH_TIMEOUT(text(model, 0, PoolTableModel::Member),
                                  QString::fromUtf8(memberAt(0)), 5000);
        QCOMPARE(model->index(0, PoolTableModel::Count).data(PoolTableModel::RawRole).toString(),
                 QStringLiteral("0"));
        QCOMPARE(text(model, 1, PoolTableModel::Member), QString::fromUtf8(memberAt(1)));
        // Rows far from the screen are not read: a placeholder until scrolled to.
        QCOMPARE(text(model, 1500, PoolTableModel::Member), QStringLiteral("…"));
        QVERIFY(!model->isRowLoaded(1500));
        QVERIFY(members->filterEdit()->isEnabled()); // a search on the server (findMembersByName)
        QVERIFY(!members->tableView()->isSortingEnabled());

        // The bottom: the last rank after scrolling there.
        QTableView *view = members->tableView();
        view->scrollToBottom();
        QTRY_COMPARE_WITH_TIMEOUT(text(model, kMembers - 1, PoolTableModel::Member),
                                  QString::fromUtf8(memberAt(kMembers - 1)), 5000);
        QCOMPARE(model->index(kMembers - 1, PoolTableModel::Count)
                     .data(PoolTableModel::RawRole)
                     .toString(),
                 QString::number(3 * (kMembers - 1)));
        QCOMPARE_GE(view->rowAt(view->viewport()->height() - 2), kMembers - 3);

        // A middle scroll position.
        view->scrollTo(members->proxyModel()->index(1000, 0), QAbstractItemView::PositionAtTop);
        QTRY_COMPARE_WITH_TIMEOUT(text(model, 1000, PoolTableModel::Member),
                                  QString::fromUtf8(memberAt(1000)), 5000);
        QCOMPARE(text(model, 1001, PoolTableModel::Member), QString::fromUtf8(memberAt(1001)));
        QCOMPARE(model->index(1000, PoolTableModel::Count).data(PoolTableModel::RawRole).toString(),
                 QStringLiteral("3000"));
        QCOMPARE_LE(members->requestedFromRank(), 1000);
        QCOMPARE_GT(members->requestedFromRank() + members->requestedRowCount(), 1000);
        // The rows left behind at the top went back to placeholders.
        QTRY_COMPARE(text(model, 0, PoolTableModel::Member), QStringLiteral("…"));

        // The chart: the band, the top members as lines and the bottom as the pool minimum
        // line (the bottom members change every poll under load: as lines they would flicker).
        ChartPanel *chart = window.chartPanel();
        QTRY_VERIFY_WITH_TIMEOUT(chart->frame().bandShown, 5000);
        QTRY_VERIFY(chart->frame().members().contains(memberAt(kMembers - 1)));
        QTRY_VERIFY(chart->frame().minimumShown && !chart->frame().minimum.isEmpty());
        // memberAt(0)'s count, the pool's bottom
        QCOMPARE(chart->frame().minimum.constLast().y(), 0.0);
        QVERIFY(!chart->frame().members().contains(memberAt(0)));
        QVERIFY(!chart->frame().members().contains(memberAt(1000)));
        QCOMPARE(chart->frame().members().size(), ChartPanel::kEdgeMembers);
        QCOMPARE(chart->frame().lastValue(memberAt(kMembers - 1)), 3.0 * (kMembers - 1));

        // Pin to chart from the table: the row on screen is read by name on every poll.
        members->selectMembers({memberAt(1000)});
        QCOMPARE(members->selectedPoolMembers(), QList<QByteArray>{memberAt(1000)});
        window.actions()->pinAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(chart->frame().members().contains(memberAt(1000)), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(chart->frame().lastValue(memberAt(1000)), 3000.0, 5000);
        // And one off screen, pinned by name.
        session.pin({memberAt(1234)});
        QTRY_COMPARE_WITH_TIMEOUT(chart->frame().lastValue(memberAt(1234)), 3.0 * 1234, 5000);
        QCOMPARE(chart->frame().members().size(), ChartPanel::kEdgeMembers + 2);

        // Fairness: the mode and why; Jain's index once the background scan has passed.
        FairnessPanel *fairness = window.fairnessPanel();
        QTRY_VERIFY(fairness->valueText(FairnessPanel::Field::Mode).startsWith("summary: "));
        const QString mode = fairness->valueText(FairnessPanel::Field::Mode);
        QVERIFY2(mode.contains(QStringLiteral("> 100")), qPrintable(mode));
        QVERIFY2(mode.contains(QLocale().toString(kMembers)), qPrintable(mode));
        // Counts 0, 3, ..., 3(n-1): Jain's index is 6(n-1) / (4(2n-1)) = 0.74981 for n = 2,000.
        QTRY_COMPARE_WITH_TIMEOUT(fairness->valueText(FairnessPanel::Field::Jain),
                                  QLocale().toString(0.74981, 'f', 4), 10000);
    }

    void findMembersByName() {
        // A pool of 2,000 above a threshold of 1,000: "f0000".."f1999" with count i, plus one
        // member with a glob character in its id.
        const QByteArray key = "findable";
        RedisConnection &admin = m_redis->admin();
        for (int batch = 0; batch < kMembers; batch += 1000) {
            RedisCommand zadd{"ZADD", key};
            for (int i = batch; i < batch + 1000; ++i)
                zadd << QByteArray::number(i) << 'f' + QByteArray::number(i).rightJustified(4, '0');
            admin.append(zadd);
        }
        for (int batch = 0; batch < kMembers; batch += 1000)
            QVERIFY(!admin.readReply().isError());
        QCOMPARE(m_redis->run({"ZADD", key, "5000", "f1*star"}).integer, 1);

        PoolSession session;
        session.setFullSnapshotThreshold(1000);
        MainWindow window(&session);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.actions()->setConfirmFunction([](const QString &, const QString &) { return true; });
        MembersPanel *members = window.membersPanel();
        PoolTableModel *model = members->model();
        QAbstractItemModelTester tester(model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        session.setPollInterval(200ms);
        session.connectTo(m_redis->endpoint(), key);
        QTRY_VERIFY_WITH_TIMEOUT(model->isSummaryMode(), 10000);
        QLineEdit *filter = members->filterEdit();
        QVERIFY(filter->isEnabled());

        // The member typed exactly: one row, with its count.
        filter->setText(QStringLiteral("f1234"));
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 5000);
        QCOMPARE(text(model, 0, PoolTableModel::Member), QStringLiteral("f1234"));
        QCOMPARE(model->index(0, PoolTableModel::Count).data(PoolTableModel::RawRole).toString(),
                 QStringLiteral("1234"));
        QVERIFY(session.memberSearch()->exactFound);
        QCOMPARE(session.memberSearch()->exact.rank, qint64(1234));

        // A prefix: every member starting with it, found by a background scan in small pages.
        filter->setText(QStringLiteral("f12"));
        QTRY_VERIFY_WITH_TIMEOUT(session.memberSearch() && session.memberSearch()->complete, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 100, 5000); // f1200 .. f1299
        QCOMPARE_GT(session.memberSearch()->pagesRead, 1);       // never the pool in one command
        for (int row = 0; row < model->rowCount(); ++row)
            QVERIFY(text(model, row, PoolTableModel::Member).startsWith(QStringLiteral("f12")));
        QCOMPARE_GE(model->rowOf("f1250"), 0);
        saveShot(window, "summary-search-prefix.png");

        // A glob character is matched as itself.
        filter->setText(QStringLiteral("f1*"));
        QTRY_VERIFY_WITH_TIMEOUT(session.memberSearch() && session.memberSearch()->text == "f1*" &&
                                     session.memberSearch()->complete,
                                 10000);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 5000);
        QCOMPARE(text(model, 0, PoolTableModel::Member), QStringLiteral("f1*star"));

        // Nothing found says so.
        filter->setText(QStringLiteral("zzz"));
        QTRY_VERIFY_WITH_TIMEOUT(members->emptyStateText().startsWith(QStringLiteral("No member")),
                                 10000);

        // Found members can be pinned...
        filter->setText(QStringLiteral("f12"));
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 100, 10000);
        members->selectMembers({"f1250"});
        QCOMPARE(members->selectedPoolMembers(), QList<QByteArray>{"f1250"});
        window.actions()->pinAction()->trigger();
        ChartPanel *chart = window.chartPanel();
        QTRY_VERIFY_WITH_TIMEOUT(chart->frame().members().contains("f1250"), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(chart->frame().lastValue("f1250"), 1250.0, 5000);
        // ... and evicted: the row turns into the evicted member.
        members->selectMembers({"f1260"});
        QVERIFY(window.actions()->evictSelected());
        QTRY_VERIFY_WITH_TIMEOUT(m_redis->run({"ZSCORE", key, "f1260"}).isNil(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(
            model->rowOf("f1260") >= 0 && model->rowAt(model->rowOf("f1260")).evicted, 5000);
        QCOMPARE(model->rowCount(), 100); // 99 in the pool, 1 evicted
        saveShot(window, "summary-search-pinned-evicted.png");

        // Clearing the field goes back to the rows by rank.
        filter->clear();
        QTRY_VERIFY_WITH_TIMEOUT(model->isSummaryMode(), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), kMembers + 1, 5000); // 2,000 + 1 evicted
        members->tableView()->scrollToTop();
        QTRY_COMPARE_WITH_TIMEOUT(text(model, 0, PoolTableModel::Member), QStringLiteral("f0000"),
                                  5000);
        // A row read by rank for the screen only has no known rate: "–", not 0.0.
        QTRY_COMPARE_WITH_TIMEOUT(text(model, 30, PoolTableModel::Member), QStringLiteral("f0030"),
                                  5000);
        QCOMPARE(text(model, 30, PoolTableModel::Rate), QStringLiteral("–"));
        saveShot(window, "summary-ranks-after-search.png");

        // The read-mode text (and the summary-mode rate) is one elided line, in full in the
        // tooltip, and asks for little width: the Pool panel never widens the window for it.
        FairnessPanel *fairness = window.fairnessPanel();
        auto *mode = fairness->findChild<ElidedLabel *>(QStringLiteral("modeValue"));
        QVERIFY(mode);
        QVERIFY(mode->fullText().startsWith(QStringLiteral("summary: ")));
        QVERIFY(mode->toolTip().contains(mode->fullText()));
        QCOMPARE_LE(mode->width(), fairness->width());
        QVERIFY2(fairness->minimumSizeHint().width() < 300,
                 qPrintable(QString::number(fairness->minimumSizeHint().width())));
    }

    void jainPendingUntilFirstScan() {
        // A pool the scan cannot finish in one poll: 30,000 members at 10 pages of ~100.
        RedisConnection &admin = m_redis->admin();
        for (int batch = 0; batch < 30000; batch += 1000) {
            RedisCommand zadd{"ZADD", "bigger"};
            for (int i = batch; i < batch + 1000; ++i)
                zadd << QByteArray::number(i % 7) << ('b' + QByteArray::number(i));
            admin.append(zadd);
        }
        for (int batch = 0; batch < 30000; batch += 1000)
            QVERIFY(!admin.readReply().isError());
        PoolSession session;
        session.setFullSnapshotThreshold(kThreshold);
        FairnessPanel fairness(&session);
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.setPollInterval(10s);
        session.connectTo(m_redis->endpoint(), "bigger");
        QVERIFY(observed.wait(10000));
        const QString jain = fairness.valueText(FairnessPanel::Field::Jain);
        QVERIFY2(jain.startsWith(QStringLiteral("pending: first totals scan ")), qPrintable(jain));
        QVERIFY2(jain.endsWith(QStringLiteral(" %")), qPrintable(jain));
    }

    // A big pool's allocation rate is counted exactly (its members at the levels above the
    // minimum), and an eviction does not send the first totals scan back to the start.
    void bigPoolRateAndScanProgress() {
        RedisConnection &admin = m_redis->admin();
        const QByteArray key = "rated";
        for (int batch = 0; batch < 30000; batch += 1000) {
            RedisCommand zadd{"ZADD", key};
            for (int i = batch; i < batch + 1000; ++i)
                zadd << "10" << ('r' + QByteArray::number(i));
            admin.append(zadd);
        }
        for (int batch = 0; batch < 30000; batch += 1000)
            QVERIFY(!admin.readReply().isError());
        PoolSession session;
        session.setFullSnapshotThreshold(kThreshold);
        FairnessPanel fairness(&session);
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.setPollInterval(60s); // polls only when asked
        session.connectTo(m_redis->endpoint(), key);
        QVERIFY(observed.wait(10000));
        const auto observation = [&observed](qsizetype i) {
            return observed.at(i).at(0).value<PoolObservation>();
        };
        constexpr int kAllocations = 700;
        for (int i = 0; i < kAllocations; ++i)
            admin.append({"EVAL", LuaScript::allocate().source(), "1", key});
        for (int i = 0; i < kAllocations; ++i)
            QVERIFY(!admin.readReply().isError());
        session.pollNow();
        QTRY_COMPARE_WITH_TIMEOUT(observed.size(), 2, 10000);
        const double seconds = double(observation(1).timeMs - observation(0).timeMs) / 1000.0;
        QCOMPARE_GT(seconds, 0);
        QVERIFY2(qAbs(session.poolRatePerSecond() - kAllocations / seconds) < 1e-6,
                 qPrintable(QString::number(session.poolRatePerSecond())));
        const QString rate = fairness.valueText(FairnessPanel::Field::Rate);
        QVERIFY2(!rate.startsWith(QStringLiteral("–")), qPrintable(rate));

        const qint64 progress = observation(1).scanProgress;
        QVERIFY(progress > 0 && progress < 30000);
        QSignalSpy evicted(&session, &PoolSession::membersEvicted);
        QVERIFY(session.evict({"r29999"}));
        QVERIFY(evicted.wait(10000));
        session.pollNow();
        QTRY_VERIFY_WITH_TIMEOUT(observed.size() >= 3, 10000);
        QVERIFY2(observed.last().at(0).value<PoolObservation>().scanProgress > progress,
                 qPrintable(
                     QString::number(observed.last().at(0).value<PoolObservation>().scanProgress)));
    }
};

QTEST_MAIN(TestSummaryMode)
#include "tst_summarymode.moc"
