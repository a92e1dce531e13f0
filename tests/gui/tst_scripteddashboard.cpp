// The dashboard's widgets over a scripted feed (no server, no process): what they show and what
// they ask the session for, and how the keyboard moves through the window and its menus. What
// the same actions do to a real server is tst_mainwindow's and tst_controls' to prove.

#include "actions/PoolActions.h"
#include "chart/ChartPanel.h"
#include "connection/ConnectionBar.h"
#include "connection/StatusBarPanel.h"
#include "fairness/FairnessPanel.h"

#include "MainWindowFixture.h"
#include "ScriptedFeed.h"

#include <QMenuBar>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

QList<PoolMember> pool(const QList<QByteArray> &members, double count) {
    QList<PoolMember> counts;
    for (const QByteArray &member : members)
        counts.append({member, count});
    return counts;
}

// A window over a session fed by a script, connected to a pool that is not anywhere.
struct ScriptedDashboard {
    ScriptedFeed *script = nullptr;
    std::unique_ptr<PoolSession> session;
    std::unique_ptr<MainWindow> window;
    QTemporaryDir dir;

    ScriptedDashboard() {
        auto [feed, raw] = ScriptedFeed::make();
        script = raw;
        session = std::make_unique<PoolSession>(std::move(feed));
        window = std::make_unique<MainWindow>(session.get());
        window->actions()->setConfirmFunction(
            [](const QString &, const QString &) { return true; });
    }
    ~ScriptedDashboard() { window.reset(); }
    void connect() {
        session->connectTo(ScriptedFeed::nowhere(dir.path()), kKey);
        script->answerConnected();
    }
    PoolTableModel *model() const { return window->membersPanel()->model(); }
    // The menu bar's menu titled `title` ("&Pool"), or null.
    QMenu *menu(const QString &title) const {
        for (QAction *action : window->menuBar()->actions())
            if (action->text() == title)
                return action->menu();
        return nullptr;
    }
};

// A key pressed as a person presses it: through the window system, to whichever widget has focus.
void press(QWidget *window, Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QTest::keyClick(window->windowHandle(), key, modifiers);
}

QString describe(const QWidget *widget) {
    if (!widget)
        return QStringLiteral("nothing");
    const auto *button = qobject_cast<const QToolButton *>(widget);
    return QStringLiteral("%1 \"%2\"")
        .arg(QString::fromLatin1(widget->metaObject()->className()),
             button ? button->text() : widget->objectName());
}

} // namespace

class TestScriptedDashboard : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }
    void pollReachesThePanels();
    void evictSeveralAsksFirst();
    void emptyPoolHasHelpfulStates();
    void readingsLeaveTheWindowsLayoutAlone();
    void tabLeavesTheMembersTableAndReachesTheToolbar();
    void menusOpenOnHarmlessItems();
};

void TestScriptedDashboard::pollReachesThePanels() {
    ScriptedDashboard d;
    d.connect();
    QCOMPARE(d.script->target->second, kKey);
    d.script->answerPoll(pool({"192.0.2.10:8080", "198.51.100.7:3128", "203.0.113.5:1080"}, 7));
    QTRY_COMPARE(d.model()->rowCount(), 3);
    const int row = d.model()->rowOf("198.51.100.7:3128");
    QCOMPARE_GE(row, 0);
    QCOMPARE(d.model()->rowAt(row).count, 7.0);
    QVERIFY(!d.model()->rowAt(row).evicted);
    FairnessPanel *fairness = d.window->fairnessPanel();
    QCOMPARE(fairness->valueText(FairnessPanel::Field::Members), QStringLiteral("3"));
    QCOMPARE(fairness->valueText(FairnessPanel::Field::Spread), QStringLiteral("0"));
    StatusBarPanel *status = d.window->statusPanel();
    QTRY_COMPARE(status->versionText(), QStringLiteral("Redis 7.0.15"));
    QVERIFY(status->roundTripText().startsWith(QStringLiteral("rtt ")));
    QVERIFY(status->sizeText().startsWith(QStringLiteral("3 ")));
    QVERIFY(status->stateText().contains(QStringLiteral("onnected")));
    QTRY_COMPARE(d.window->chartPanel()->frame().members().size(), 3);
    QVERIFY(d.window->membersPanel()->emptyStateText().isEmpty());
}

void TestScriptedDashboard::evictSeveralAsksFirst() {
    ScriptedDashboard d;
    d.connect();
    d.script->answerPoll(pool(names(4), 1));
    QTRY_COMPARE(d.model()->rowCount(), 4);
    int questions = 0;
    bool answer = false;
    d.window->actions()->setConfirmFunction([&](const QString &, const QString &question) {
        ++questions;
        // Names the two selected members, and only them (the count is a translated plural).
        return question.contains(u"m0") && question.contains(u"m2") && !question.contains(u"m1") &&
               !question.contains(u"m3") && answer;
    });
    d.window->membersPanel()->selectMembers({"m0", "m2"});
    QVERIFY(!d.window->actions()->evictSelected());
    QCOMPARE(questions, 1);
    QVERIFY(d.script->evictions.isEmpty()); // "no": nothing asked of the server
    answer = true;
    QVERIFY(d.window->actions()->evictSelected());
    QCOMPARE(questions, 2);
    QCOMPARE(d.script->evictions.size(), 1);
    QList<QByteArray> asked = d.script->evictions.constFirst();
    std::sort(asked.begin(), asked.end());
    QCOMPARE(asked, QList<QByteArray>({"m0", "m2"}));
    d.script->answerEvicted({{"m0", 1}, {"m2", 1}});
    d.script->answerPoll(pool({"m1", "m3"}, 1), {{"m0", 1}, {"m2", 1}});
    QTRY_COMPARE(d.model()->evictedCount(), 2);
}

void TestScriptedDashboard::emptyPoolHasHelpfulStates() {
    ScriptedDashboard d;
    QVERIFY(d.window->membersPanel()->emptyStateText().contains(QStringLiteral("Not connected")));
    QVERIFY(!d.window->actions()->seedAction()->isEnabled());
    d.connect();
    d.script->answerPoll({}); // a key that holds nothing
    QTRY_VERIFY(d.window->membersPanel()->emptyStateText().contains(
        QStringLiteral("No pool at \"proxies\" yet: Seed…")));
    QTRY_COMPARE(d.window->chartPanel()->frame().placeholder,
                 QStringLiteral("No pool at this key yet: Seed… to add proxies"));
    QVERIFY(d.window->actions()->seedAction()->isEnabled());
}

namespace {

// Counts the layout requests a widget receives.
class LayoutRequests : public QObject {
public:
    explicit LayoutRequests(QWidget *watched) { watched->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject *, QEvent *event) override {
        if (event->type() == QEvent::LayoutRequest)
            ++count;
        return false;
    }
};

} // namespace

void TestScriptedDashboard::readingsLeaveTheWindowsLayoutAlone() {
    // The status bar's round trip and poll age change several times a second; each change used to
    // lay out the whole window again, docks and all (a few % of the dashboard's CPU).
    ScriptedDashboard d;
    d.window->resize(1200, 800);
    d.window->show();
    QVERIFY(QTest::qWaitForWindowExposed(d.window.get()));
    d.connect();
    const QList<PoolMember> members = pool(names(6), 3);
    StatusBarPanel *status = d.window->statusPanel();
    // Two polls with their frames drawn and their tables filled first (the table in an event of
    // its own, which a loaded machine runs late): the window takes its shape for this pool.
    for (int poll = 0; poll < 2; ++poll) {
        const QSignalSpy tableFilled(d.window->membersPanel(), &MembersPanel::refreshed);
        d.script->answerPoll(members);
        QTRY_COMPARE(d.window->chartPanel()->frame().members().size(), 6);
        QTRY_VERIFY(status->sinceText().contains(QStringLiteral("polled")));
        QTRY_COMPARE(tableFilled.count(), 1);
    }
    QCoreApplication::sendPostedEvents();
    const LayoutRequests requests(d.window.get());
    QStringList shown;
    const auto sinceChanged = [&] {
        if (shown.isEmpty() || shown.constLast() != status->sinceText())
            shown.append(status->sinceText());
        return shown.size();
    };
    QTRY_VERIFY(sinceChanged() >= 4); // the poll's age ticking
    d.script->answerPoll(members);    // another poll, its age starting again
    QTRY_VERIFY(status->sinceText() != shown.constLast());
    QCoreApplication::sendPostedEvents();
    QCOMPARE(requests.count, 0);
}

// Tab from the members table (50 rows, wider than its dock) leaves the table at once without
// scrolling it sideways, and one full round of Tab reaches the Actions toolbar's buttons and comes
// back to the table.
void TestScriptedDashboard::tabLeavesTheMembersTableAndReachesTheToolbar() {
    ScriptedDashboard d;
    // Narrower than the members' columns (about 840 px), which a small window's table now spans.
    d.window->resize(640, 700);
    d.window->show();
    QVERIFY(QTest::qWaitForWindowActive(d.window.get()));
    d.connect();
    d.script->answerPoll(pool(names(50, "member-"), 3));
    QTRY_COMPARE(d.model()->rowCount(), 50);
    QTableView *table = d.window->membersPanel()->tableView();
    const QScrollBar *sideways = table->horizontalScrollBar();
    // The columns do not all fit: a table that followed Tab from cell to cell would scroll.
    QTRY_VERIFY2(sideways->maximum() > 0, "the members table fits its dock: make the window "
                                          "narrower so that a sideways scroll can be seen");
    const auto *actionsBar = d.window->findChild<QToolBar *>(QStringLiteral("actionsBar"));
    QVERIFY(actionsBar);
    table->setFocus();
    table->setCurrentIndex(table->model()->index(0, 0));
    QTRY_VERIFY(table->hasFocus());

    // Focus leaves the table within a few presses (at once, in fact), and the table did not
    // scroll sideways on the way.
    bool left = false;
    for (int presses = 0; presses < 3 && !left; ++presses) {
        press(d.window.get(), Qt::Key_Tab);
        QCOMPARE(sideways->value(), 0);
        left = !table->hasFocus() && !table->isAncestorOf(QApplication::focusWidget());
    }
    QVERIFY2(left, qPrintable(QStringLiteral("after 3 Tabs the focus is still on %1")
                                  .arg(describe(QApplication::focusWidget()))));

    QStringList visited;
    bool toolbarReached = false;
    bool backInTable = false;
    for (int presses = 1; presses <= 120 && !backInTable; ++presses) {
        QWidget *focused = QApplication::focusWidget();
        visited.append(describe(focused));
        toolbarReached = toolbarReached || (qobject_cast<QToolButton *>(focused) &&
                                            focused->parentWidget() == actionsBar);
        QCOMPARE(sideways->value(), 0);
        press(d.window.get(), Qt::Key_Tab);
        backInTable = table->hasFocus();
    }
    QVERIFY2(toolbarReached, qPrintable(QStringLiteral("no button of the Actions toolbar in: ") +
                                        visited.join(QStringLiteral(", "))));
    QVERIFY2(backInTable, qPrintable(QStringLiteral("Tab never came back to the table: ") +
                                     visited.join(QStringLiteral(", "))));
    // Back in the table, its member column is still in view.
    QCOMPARE(sideways->value(), 0);
    QCOMPARE(table->columnViewportPosition(PoolTableModel::Member), 0);
}

// The first item of a menu is the one hit by accident: Disconnect is the Pool menu's last, Show
// credentials is View's last, and Alt+V opens View on a harmless item.
void TestScriptedDashboard::menusOpenOnHarmlessItems() {
    ScriptedDashboard d;
    d.window->show();
    QVERIFY(QTest::qWaitForWindowActive(d.window.get()));
    d.connect();
    d.script->answerPoll(pool(names(3), 1));
    QTRY_COMPARE(d.model()->rowCount(), 3);

    QMenu *poolMenu = d.menu(QStringLiteral("&Pool"));
    QVERIFY(poolMenu);
    QAction *disconnect = d.window->connectionBar()->connectAction();
    QCOMPARE(disconnect->text(), QStringLiteral("Disconnect"));
    QCOMPARE(poolMenu->actions().constLast(), disconnect);
    QVERIFY(poolMenu->actions().constFirst() != disconnect);

    QMenu *viewMenu = d.menu(QStringLiteral("&View"));
    QVERIFY(viewMenu);
    QAction *showCredentials = d.window->actions()->showCredentialsAction();
    const QList<QAction *> viewItems = viewMenu->actions();
    QCOMPARE(viewItems.constLast(), showCredentials);
    QVERIFY(viewItems.at(viewItems.size() - 2)->isSeparator()); // set apart from the rest

    press(d.window.get(), Qt::Key_V, Qt::AltModifier);
    QTRY_COMPARE(QApplication::activePopupWidget(), viewMenu);
    QAction *landed = viewMenu->activeAction();
    QVERIFY(landed);
    QVERIFY(landed != showCredentials);
    QCOMPARE(landed, viewItems.constFirst()); // the overview: it only opens a window
    QVERIFY(!landed->isCheckable());
    press(viewMenu, Qt::Key_Escape);
    QTRY_VERIFY(!viewMenu->isVisible());
    QVERIFY(!showCredentials->isChecked());
}

QTEST_MAIN(TestScriptedDashboard)
#include "tst_scripteddashboard.moc"
