// The main window's layout: the docks' proportions across resizes. The pool comes from a scripted
// feed: no server, no load; what is tested is the layout.
#include "MainWindow.h"
#include "fairness/FairnessPanel.h"
#include "session/PoolSession.h"

#include "ScriptedFeed.h"

#include <QDockWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;

namespace {

const QByteArray kKey = "proxies";

// Six members named like the demo's, member i having taken i allocations a second for `seconds`.
QList<PoolMember> counts(int seconds) {
    QList<PoolMember> members;
    for (int i = 0; i < 6; ++i)
        members.append(
            {"socks5://198.51.100.17:" + QByteArray::number(1080 + i), double(i * seconds)});
    return members;
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void docksKeepTheirProportions();
};

// After a resize to 800x500 and back, every dock has its size again (the Members dock stayed at 4
// rows, the Pool dock kept what the small window left it).
void TestWindowLayout::docksKeepTheirProportions() {
    // A pool under load, with members named like the demo's: the Pool panel's "Busiest" value
    // (share and member) is wider than the panel of a small window and wraps.
    auto [feed, script] = testing::ScriptedFeed::make();
    PoolSession session(std::move(feed));
    MainWindow window(&session);
    window.resize(1360, 860);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QTemporaryDir dir;
    session.connectTo(testing::ScriptedFeed::nowhere(dir.path()), kKey);
    script->answerConnected();
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 3000;
    for (int second = 0; second <= 3; ++second)
        script->answerPoll(counts(second), {}, start + second * 1000);
    QTRY_VERIFY(window.fairnessPanel()
                    ->valueText(FairnessPanel::Field::Busiest)
                    .contains(QStringLiteral("socks5://")));
    const QList<QDockWidget *> docks = window.findChildren<QDockWidget *>();
    // Pool, Events, Members, (a tab behind Members) Pools and (tabs behind Events) Guard and
    // Alerts
    QCOMPARE(docks.size(), 6);
    QCoreApplication::processEvents();
    QHash<QString, QSize> before;
    for (const QDockWidget *dock : docks)
        before.insert(dock->objectName(), dock->size());
    window.resize(800, 500);
    QTRY_COMPARE(window.centralWidget()->width() < 700, true);
    // Small, the Pool panel still has the height its lines need at its width ("Busiest" and its
    // member wrapped, not cut); Events, a list that scrolls, gives up the room.
    const QWidget *poolPanel = window.fairnessPanel();
    QTRY_VERIFY2(poolPanel->height() >= poolPanel->heightForWidth(poolPanel->width()),
                 qPrintable(QStringLiteral("%1 < %2")
                                .arg(poolPanel->height())
                                .arg(poolPanel->heightForWidth(poolPanel->width()))));
    window.resize(1360, 860);
    const auto near = [](int a, int b) { return std::abs(a - b) <= 8; };
    for (const QDockWidget *dock : docks) {
        const QSize was = before.value(dock->objectName());
        QTRY_VERIFY2(near(dock->width(), was.width()) && near(dock->height(), was.height()),
                     qPrintable(QStringLiteral("%1: %2x%3, was %4x%5")
                                    .arg(dock->objectName())
                                    .arg(dock->width())
                                    .arg(dock->height())
                                    .arg(was.width())
                                    .arg(was.height())));
    }
}

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
