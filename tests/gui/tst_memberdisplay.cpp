// How members are shown and exported, on a scripted feed (no server), offscreen: proxy credentials
// (`user:pass@`) are masked in the table, its tooltips, the chart legend and markers, the events,
// the status bar and the CSV exports unless "Show credentials" / "Include credentials in CSV
// exports" is on (both off at start, never saved); the table CSV writes "last change" as ISO 8601
// UTC. Set POOLSCOPE_SHOTS to a folder to get screenshots of the masked and unmasked window.

#include "actions/PoolActions.h"
#include "chart/ChartPanel.h"
#include "events/EventsPanel.h"
#include "MainWindow.h"
#include "members/MembersPanel.h"
#include "members/PoolTableModel.h"
#include "session/PoolSession.h"

#include "ScriptedFeed.h"

#include <QAction>
#include <QRegularExpression>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;

namespace {

// The names of the chart's lines, as their legend entries say them.
QStringList lineNames(const ChartPanel &chart) {
    QStringList names;
    for (const ChartLine &line : chart.frame().lines)
        names.append(line.name);
    return names;
}

const QByteArray kKey = "proxies";
const QByteArray kAlice = "socks5://alice:p@ss@proxy.example:1080";
const QByteArray kBob = "http://bob:hunter2@proxy2.example:3128";
const QByteArray kPlain = "192.0.2.1:80";
const QString kAliceMasked = QStringLiteral("socks5://alice:****~a4048c@proxy.example:1080");
const QString kBobMasked = QStringLiteral("http://bob:****~f52fbd@proxy2.example:3128");

bool hasSecret(const QString &text) {
    return text.contains(QStringLiteral("p@ss")) || text.contains(QStringLiteral("hunter2"));
}

// Every cell's display text and tooltip of the table.
QString tableText(const QAbstractItemModel &model) {
    QString text;
    for (int row = 0; row < model.rowCount(); ++row)
        for (int column = 0; column < model.columnCount(); ++column) {
            text += model.index(row, column).data().toString() + QLatin1Char('\n');
            text += model.index(row, column).data(Qt::ToolTipRole).toString() + QLatin1Char('\n');
        }
    return text;
}

QString eventsText(const EventsPanel &events) {
    QString text;
    for (int row = 0; row < events.entryCount(); ++row)
        text += events.entryText(row) + QLatin1Char('\n');
    return text;
}

QString readFile(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

void saveShot(QWidget &window, const char *name) {
    const QString dir = qEnvironmentVariable("POOLSCOPE_SHOTS");
    if (!dir.isEmpty())
        window.grab().save(QDir(dir).filePath(QString::fromLatin1(name)));
}

} // namespace

class TestMemberDisplay : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void credentialsMaskedEverywhereUnlessShown() {
        auto [feed, script] = testing::ScriptedFeed::make();
        PoolSession session(std::move(feed));
        MainWindow window(&session);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        PoolActions *actions = window.actions();
        actions->setConfirmFunction([](const QString &, const QString &) { return true; });
        QVERIFY(!actions->showCredentialsAction()->isChecked());
        QVERIFY(!actions->exportCredentialsAction()->isChecked());
        PoolTableModel *model = window.membersPanel()->model();
        const QTemporaryDir socketDir;
        session.connectTo(testing::ScriptedFeed::nowhere(socketDir.path()), kKey);
        script->answerConnected();
        script->answerPoll({{kAlice, 5}, {kBob, 5}, {kPlain, 5}});
        QTRY_COMPARE(model->rowCount(), 3);

        // The table and its tooltips.
        QCOMPARE(model->index(model->rowOf(kAlice), PoolTableModel::Member).data().toString(),
                 kAliceMasked);
        QCOMPARE(model->index(model->rowOf(kBob), PoolTableModel::Member).data().toString(),
                 kBobMasked);
        QVERIFY(!hasSecret(tableText(*model)));
        // The chart's legend.
        ChartPanel *chart = window.chartPanel();
        QTRY_COMPARE_WITH_TIMEOUT(lineNames(*chart).size(), 3, 5000);
        QVERIFY2(lineNames(*chart).contains(kAliceMasked),
                 qPrintable(lineNames(*chart).join(", ")));
        QVERIFY(!hasSecret(lineNames(*chart).join(QLatin1Char(' '))));

        // An evict: the events list, the chart marker, the status bar.
        window.membersPanel()->selectMembers({kAlice});
        QVERIFY(actions->evictSelected());
        QCOMPARE(script->evictions, QList<QList<QByteArray>>({{kAlice}}));
        script->answerEvicted({{kAlice, 5}});
        script->answerPoll({{kBob, 5}, {kPlain, 5}}, {{kAlice, 5}});
        EventsPanel *events = window.eventsPanel();
        QTRY_VERIFY_WITH_TIMEOUT(eventsText(*events).contains(kAliceMasked), 5000);
        QVERIFY2(!hasSecret(eventsText(*events)), qPrintable(eventsText(*events)));
        QTRY_VERIFY_WITH_TIMEOUT(!chart->frame().markerLabels().isEmpty(), 5000);
        QVERIFY(chart->frame().markerLabels().join(QLatin1Char(' ')).contains(kAliceMasked));
        QVERIFY(!hasSecret(chart->frame().markerLabels().join(QLatin1Char(' '))));
        // A refused evict of a member no longer in the pool names it, masked, everywhere.
        QVERIFY(session.evict({kAlice}));
        script->answerCommandFailed(
            QStringLiteral("evict"),
            Failure::usage(QStringLiteral("cannot evict \"%1\": it is not a member of pool \"%2\"")
                               .arg(QString::fromUtf8(kAlice), QString::fromUtf8(kKey))));
        QTRY_VERIFY_WITH_TIMEOUT(
            eventsText(*events).count(QStringLiteral("alice:****~a4048c@")) >= 2, 5000);
        QVERIFY2(!hasSecret(eventsText(*events)), qPrintable(eventsText(*events)));
        QVERIFY(!hasSecret(window.statusBar()->currentMessage()));
        QVERIFY(!hasSecret(window.windowTitle()));
        QTRY_VERIFY_WITH_TIMEOUT(
            model->rowOf(kAlice) >= 0 && model->rowAt(model->rowOf(kAlice)).evicted, 5000);
        QVERIFY(!hasSecret(tableText(*model)));
        saveShot(window, "credentials-masked.png");

        // Exports: masked unless asked, also with credentials shown on screen.
        script->answerPoll({{kBob, 9}, {kPlain, 5}}, {{kAlice, 5}}); // a last change to export
        QTRY_VERIFY_WITH_TIMEOUT(model->rowAt(model->rowOf(kBob)).lastChangeMs.has_value(), 5000);
        QTemporaryDir dir;
        const QString table = dir.filePath(QStringLiteral("table.csv"));
        const QString history = dir.filePath(QStringLiteral("history.csv"));
        QVERIFY(actions->exportTableCsv(table));
        QVERIFY(actions->exportHistoryCsv(history));
        const QString tableCsv = readFile(table);
        const QString historyCsv = readFile(history);
        QVERIFY2(tableCsv.contains(kBobMasked), qPrintable(tableCsv));
        QVERIFY2(!hasSecret(tableCsv), qPrintable(tableCsv));
        QVERIFY2(historyCsv.contains(kBobMasked), qPrintable(historyCsv));
        QVERIFY2(!hasSecret(historyCsv), qPrintable(historyCsv));
        // The table's last change: ISO 8601 in UTC, the header says so.
        QVERIFY2(tableCsv.startsWith(QStringLiteral(
                     "member,count,share,rate/s,state,debt,health,last change (ISO 8601 UTC)\n")),
                 qPrintable(tableCsv));
        const QString bobLine = tableCsv.split(QLatin1Char('\n')).filter(kBobMasked).value(0);
        QVERIFY2(QRegularExpression(
                     QStringLiteral(",\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$"))
                     .match(bobLine)
                     .hasMatch(),
                 qPrintable(bobLine));
        const QDateTime changed =
            QDateTime::fromString(bobLine.section(QLatin1Char(','), -1), Qt::ISODateWithMs);
        QVERIFY(changed.isValid());
        QCOMPARE_LT(qAbs(changed.msecsTo(QDateTime::currentDateTimeUtc())), 60000);

        actions->showCredentialsAction()->setChecked(true);
        QVERIFY(session.credentialsShown());
        QVERIFY(actions->exportTableCsv(table));
        QVERIFY(!hasSecret(readFile(table)));
        actions->exportCredentialsAction()->setChecked(true);
        QVERIFY(actions->exportTableCsv(table));
        QVERIFY(actions->exportHistoryCsv(history));
        QVERIFY(readFile(table).contains(QString::fromUtf8(kBob)));
        QVERIFY(readFile(history).contains(QString::fromUtf8(kBob)));

        // Shown: the table, the legend and the events (re-rendered) have the ids as they are.
        QCOMPARE(model->index(model->rowOf(kBob), PoolTableModel::Member).data().toString(),
                 QString::fromUtf8(kBob));
        QVERIFY(eventsText(*events).contains(QString::fromUtf8(kAlice)));
        QTRY_VERIFY_WITH_TIMEOUT(lineNames(*chart).contains(QString::fromUtf8(kBob)), 5000);
        saveShot(window, "credentials-shown.png");
        // And hidden again.
        actions->showCredentialsAction()->setChecked(false);
        QVERIFY(!hasSecret(tableText(*model)));
        QVERIFY(!hasSecret(eventsText(*events)));
        QTRY_VERIFY_WITH_TIMEOUT(!hasSecret(lineNames(*chart).join(QLatin1Char(' '))), 5000);

        // Never remembered: nothing about credentials reaches the settings.
        window.close();
        const QSettings settings;
        for (const QString &key : settings.allKeys())
            QVERIFY2(!key.contains(QStringLiteral("redential"), Qt::CaseInsensitive),
                     qPrintable(key));
    }
};

QTEST_MAIN(TestMemberDisplay)
#include "tst_memberdisplay.moc"
