// The main window's layout: the docks' proportions across resizes. The pool comes from a scripted
// feed: no server, no load; what is tested is the layout.
#include "ElidedLabel.h"
#include "MainWindow.h"
#include "chart/ChartPanel.h"
#include "fairness/FairnessPanel.h"
#include "members/MembersPanel.h"
#include "session/PoolSession.h"

#include "ScriptedFeed.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QMenuBar>
#include <QScrollBar>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;

namespace {

const QByteArray kKey = "proxies";

// `size` members named like the demo's, member i having taken i allocations a second for
// `seconds`.
QList<PoolMember> counts(int seconds, int size = 6) {
    QList<PoolMember> members;
    for (int i = 0; i < size; ++i)
        members.append(
            {"socks5://198.51.100.17:" + QByteArray::number(1080 + i), double(i * seconds)});
    return members;
}

class PageHolder : public QWidget {
public:
    explicit PageHolder(QWidget *page)
        : m_page(page) {
        page->setParent(this);
        page->show();
    }
    QSize sizeHint() const override { return m_page->sizeHint(); }
    QSize minimumSizeHint() const override { return m_page->minimumSizeHint(); }

protected:
    void resizeEvent(QResizeEvent *) override { m_page->setGeometry(rect()); }

private:
    QWidget *m_page;
};

// Rows of the table shown whole in its viewport.
int wholeRowsShown(const QTableView *table) {
    int rows = 0;
    for (int row = table->rowAt(0); row >= 0 && row < table->model()->rowCount(); ++row) {
        const int top = table->rowViewportPosition(row);
        if (top < 0 || top + table->rowHeight(row) > table->viewport()->height())
            break;
        ++rows;
    }
    return rows;
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void docksKeepTheirProportions();
    void membersFitTheWindow_data();
    void membersFitTheWindow();
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

void TestWindowLayout::membersFitTheWindow_data() {
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("rows");
    // The window's client area as the dashboard sizes itself on these screens (a title bar and
    // borders left out): the default; 1024x700; 2560x1600 at scale 2 (1280x800).
    QTest::newRow("default") << QSize(1360, 835) << 8;
    QTest::newRow("1024x700 screen") << QSize(1008, 627) << 8;
    QTest::newRow("1280x800 screen") << QSize(1264, 727) << 8;
}

// Every column of the members table fits its width, and it shows at least `rows` rows of the
// demo's 24 members: a small window used to show four and a half, scrolled sideways, under a
// caption cut mid-word.
void TestWindowLayout::membersFitTheWindow() {
    QFETCH(QSize, size);
    QFETCH(int, rows);
    auto [feed, script] = testing::ScriptedFeed::make();
    PoolSession session(std::move(feed));
    // As the dashboard shows it: a tab's page, sized by its holder.
    QTabWidget tabs;
    MainWindow window(&session, &tabs);
    window.menuBar()->hide(); // the tabbed window's own menu bar shows its menus
    auto *holder = new PageHolder(&window);
    tabs.setDocumentMode(true);
    tabs.addTab(holder, QStringLiteral("x"));
    tabs.resize(size);
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    const QTemporaryDir dir;
    session.connectTo(testing::ScriptedFeed::nowhere(dir.path()), kKey);
    script->answerConnected();
    const qint64 start = QDateTime::currentMSecsSinceEpoch() - 3000;
    for (int second = 0; second <= 3; ++second)
        script->answerPoll(counts(second, 24), {}, start + second * 1000);
    const QTableView *table = window.membersPanel()->tableView();
    QTRY_COMPARE(table->model()->rowCount(), 24);
    QTRY_VERIFY2(wholeRowsShown(table) >= rows,
                 qPrintable(QStringLiteral("%1 rows shown in %2 px (window %3x%4)")
                                .arg(wholeRowsShown(table))
                                .arg(table->viewport()->height())
                                .arg(window.width())
                                .arg(window.height())));
    QTRY_VERIFY2(!table->horizontalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("columns %1 px wide in a table %2 px wide")
                                .arg(table->horizontalHeader()->length())
                                .arg(table->viewport()->width())));
    // The chart's caption, when it must be shortened, ends after a whole word.
    const auto *caption = window.chartPanel()->findChild<ElidedLabel *>();
    QVERIFY(caption);
    QTRY_VERIFY(!caption->fullText().isEmpty());
    const QString shown = caption->text();
    QVERIFY2(shown == caption->fullText() || (shown.endsWith(QStringLiteral(" …")) &&
                                              caption->fullText().startsWith(shown.chopped(1))),
             qPrintable(QStringLiteral("\"%1\" for \"%2\"").arg(shown, caption->fullText())));
}

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
