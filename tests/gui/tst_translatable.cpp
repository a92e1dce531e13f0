// Every string a person sees in the dashboard goes through Qt's translation system. The dashboard
// runs with a pseudo translation made from the sources at build time (tests/i18n/
// pseudo_translate.py: every translatable string shows as ⟦…⟧), against a real redis-server
// with a pool; the test opens every panel and dialog and reads every visible text (VisibleTexts).
// A word outside the marks that is not data (member ids, URLs, numbers, paths) was never
// translatable: the test lists each with its object path.
//
// Strings not translatable yet are listed in tests/i18n/untranslated-gui.txt: the test fails on
// any that is not on the list, so nothing new arrives untranslatable, and the list only shrinks.
// Emptying it is the goal. Rewrite it after a change with
//   POOLSCOPE_WRITE_ALLOWLIST=1 ctest -R tst_translatable
// and read the diff: lines may only go.
#include "MainWindow.h"
#include "tabs/TabbedWindow.h"
#include "actions/PoolActions.h"
#include "actions/ResetScenarioDialog.h"
#include "actions/RestoreDialog.h"
#include "actions/SeedDialog.h"
#include "actions/TestAllocationDialog.h"
#include "alerts/AlertRulesDialog.h"
#include "alerts/AlertsPanel.h"
#include "audit/AuditView.h"
#include "chart/ChartPanel.h"
#include "connection/ConnectionEditDialog.h"
#include "connection/ConnectionsDialog.h"
#include "health/HealthTarget.h"
#include "i18n/Languages.h"
#include "members/MembersPanel.h"
#include "pool/PoolOperations.h"
#include "pools/PoolsPanel.h"
#include "session/AuditSearch.h"
#include "session/PoolSession.h"

#include "RedisFixture.h"
#include "VisibleTexts.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeWidget>
#include <QTranslator>
#include <QTabBar>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;
using namespace std::chrono_literals;

namespace {

const QByteArray kKey = "pool:i18n-test";
const QString kAllowList = QStringLiteral(POOLSCOPE_SOURCE_DIR "/tests/i18n/untranslated-gui.txt");

QList<QByteArray> memberIds() {
    QList<QByteArray> ids;
    for (int i = 1; i <= 8; ++i)
        ids << "127.0.0.1:" + QByteArray::number(10080 + i);
    ids << "socks5://127.0.0.1:10099";
    return ids;
}

// Reads WINDOW with every page of its tab widgets shown in turn.
void collectEveryTab(VisibleTexts &texts, QWidget *window) {
    texts.collect(window);
    for (QTabWidget *tabs : window->findChildren<QTabWidget *>()) {
        const int shown = tabs->currentIndex();
        for (int i = 0; i < tabs->count(); ++i) {
            tabs->setCurrentIndex(i);
            texts.collect(window);
        }
        tabs->setCurrentIndex(shown);
    }
}

// Runs TRIGGER, which opens a modal dialog and waits in it; reads the dialog, then closes it
// (Cancel, No, Escape). True when a dialog was read.
bool readModal(VisibleTexts &texts, const std::function<void()> &trigger) {
    bool read = false;
    QTimer poll;
    poll.setInterval(20);
    QObject::connect(&poll, &QTimer::timeout, [&] {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal || !modal->isVisible())
            return;
        poll.stop();
        collectEveryTab(texts, modal);
        read = true;
        if (auto *dialog = qobject_cast<QDialog *>(modal))
            dialog->reject();
        else
            modal->close();
    });
    poll.start();
    trigger();
    poll.stop();
    return read;
}

QAction *aboutAction(MainWindow &window) {
    const QList<QAction *> menus = window.menuBar()->actions();
    return menus.isEmpty() || !menus.constLast()->menu()
               ? nullptr
               : menus.constLast()->menu()->actions().value(0);
}

} // namespace

class TestTranslatable : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void tellsDataFromWords_data();
    void tellsDataFromWords();
    void everyVisibleStringIsTranslatable();

private:
    QTranslator m_pseudo;
};

void TestTranslatable::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear(); // no saved check target, layout or connection from an earlier run
    QVERIFY2(m_pseudo.load(QStringLiteral(POOLSCOPE_PSEUDO_QM)), POOLSCOPE_PSEUDO_QM);
    QVERIFY(QCoreApplication::installTranslator(&m_pseudo));
    // The pseudo translation is in effect: a string of ours and one of Qt's own come marked.
    QCOMPARE(QCoreApplication::translate("poolscope::i18n::LanguageMenu", "&Language"),
             QStringLiteral("⟦&Language⟧"));
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("⟦Cancel⟧"));
}

void TestTranslatable::tellsDataFromWords_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("words"); // left to translate
    QTest::newRow("marked") << "⟦Members⟧"
                            << "";
    QTest::newRow("not marked") << "Members"
                                << "Members";
    QTest::newRow("a number inside") << "⟦12 members⟧"
                                     << "";
    QTest::newRow("nested") << "⟦Disabled: ⟦not connected⟧⟧"
                            << "";
    QTest::newRow("a member after") << "⟦Evict⟧ 127.0.0.1:10081"
                                    << "";
    QTest::newRow("a unit glued on") << "12 ms"
                                     << "ms";
    QTest::newRow("a rate glued on") << "39.4 /s"
                                     << "s";
    QTest::newRow("a word glued on") << "⟦seed⟧ +24 at 0"
                                     << "at";
    QTest::newRow("URL and key") << "redis://127.0.0.1:6379/0 · pool:i18n-test"
                                 << "";
    QTest::newRow("a path") << "/tmp/poolscope-x/rec.sqlite"
                            << "";
    QTest::newRow("an ISO 8601 time") << "2026-12-02T20:17:23.512 · ⟦poll⟧"
                                      << "";
    QTest::newRow("a word glued to a time") << "2026-12-02T20:17:23 Tuesday"
                                            << "Tuesday";
    QTest::newRow("proper nouns and a version") << "poolscope 0.1.0 · Redis 7.0.15"
                                                << "";
    QTest::newRow("a language's own name") << "ئۇيغۇرچە"
                                           << "";
}

void TestTranslatable::tellsDataFromWords() {
    QFETCH(QString, text);
    QFETCH(QString, words);
    VisibleTexts texts;
    texts.addData(QString::fromLatin1(kKey));
    texts.addData(QStringLiteral("ئۇيغۇرچە"));
    QCOMPARE(texts.untranslatedWords(text), words);
}

void TestTranslatable::everyVisibleStringIsTranslatable() {
    RedisFixture redis;
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    const QList<QByteArray> ids = memberIds();
    redis.makePool(kKey, ids, 5);
    QCOMPARE(PoolOperations(redis.admin(), kKey).evict(ids.constLast()).member, ids.constLast());
    // Check selected asks for its target (nothing saved): the question is read and declined,
    // so no member is ever probed.
    QVERIFY(savedHealthTargetUrl().isEmpty());

    VisibleTexts texts;
    for (const QByteArray &id : ids)
        texts.addData(QString::fromUtf8(id));
    texts.addData(QString::fromLatin1(kKey));
    texts.addData(redis.endpoint().toDisplayString());
    for (const i18n::Language &language : i18n::shippedLanguages())
        texts.addData(language.nativeName); // the Language menu names each in its own language

    PoolSession session;
    MainWindow window(&session);
    window.resize(1360, 860);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    session.setPollInterval(200ms);
    QSignalSpy polled(&session, &PoolSession::observationApplied);
    session.connectTo(redis.endpoint(), kKey);
    QVERIFY(polled.wait(10000));
    QVERIFY(polled.wait(10000));
    PoolActions *actions = window.actions();

    // The window, with each dock raised in turn (tabbed docks show one page at a time).
    for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
        dock->show();
        dock->raise();
    }
    auto *pools = window.poolsPanel()->findChild<QTableView *>();
    QTRY_VERIFY_WITH_TIMEOUT(pools->model()->rowCount() > 0, 10000);
    for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
        dock->raise();
        QCoreApplication::processEvents();
        texts.collect(&window);
    }
    // With members selected, the actions say what they would do to them.
    window.membersPanel()->selectMembers({ids.constFirst()});
    QCoreApplication::processEvents();
    texts.collect(&window);

    // The chart draws its own texts.
    ChartPanel *chart = window.chartPanel();
    chart->refreshNow();
    for (const QString &label : chart->frame().markerLabels())
        texts.add(QStringLiteral("chart"), chart, label);
    for (const QString &label : chart->frame().legendLabels())
        texts.add(QStringLiteral("chart"), chart, label);
    texts.add(QStringLiteral("chart"), chart, chart->frame().placeholder);
    texts.add(QStringLiteral("chart"), chart, chart->frame().caption);
    if (auto *view = chart->findChild<QChartView *>()) {
        texts.add(QStringLiteral("chart"), view, view->chart()->title());
        for (QAbstractAxis *axis : view->chart()->axes())
            texts.add(QStringLiteral("chart"), view, axis->titleText());
    }

    // The dialogs the actions open.
    SeedDialog *seed = actions->openSeedDialog();
    QVERIFY(seed);
    texts.addData(QStringLiteral("not a proxy")); // a line typed in, shown back as it is
    seed->setText(QStringLiteral("127.0.0.1:10181\nsocks5://127.0.0.1:10182\nnot a proxy\n"));
    QCoreApplication::processEvents();
    collectEveryTab(texts, seed);
    seed->close();
    TestAllocationDialog *allocations = actions->openTestAllocationDialog();
    QVERIFY(allocations);
    collectEveryTab(texts, allocations);
    allocations->close();
    ResetScenarioDialog *scenario = actions->openResetScenarioDialog();
    QVERIFY(scenario);
    collectEveryTab(texts, scenario);
    scenario->close();
    window.membersPanel()->selectMembers({ids.constLast()}); // the evicted one
    QCoreApplication::processEvents();
    RestoreDialog *restore = actions->openRestoreDialog();
    QVERIFY(restore);
    collectEveryTab(texts, restore);
    restore->reject();

    // Saved connections and the editor of a new one.
    ConnectionsDialog *connections = window.showConnections();
    bool edited = false;
    connections->setEditFunction([&](ConnectionEditDialog &editor) {
        editor.show();
        collectEveryTab(texts, &editor);
        edited = true;
        return false;
    });
    connections->newButton()->click();
    QVERIFY(edited);
    collectEveryTab(texts, connections);
    connections->reject();

    // The alert rules and the audit trail.
    window.alertsPanel()->editRules();
    auto *rules = window.alertsPanel()->findChild<AlertRulesDialog *>();
    QVERIFY(rules);
    collectEveryTab(texts, rules);
    rules->reject();
    AuditView audit(&session, &window);
    audit.show();
    QSignalSpy searched(audit.searcher(), &AuditSearch::searchFinished);
    QVERIFY(searched.wait(10000));
    for (int row = 0; row < audit.table()->topLevelItemCount(); ++row) // who: user@host (program)
        texts.addData(audit.table()->topLevelItem(row)->text(AuditView::Actor));
    collectEveryTab(texts, &audit);
    audit.close();

    // Modal questions: eviction, the health check's target, About, the file dialogs.
    window.membersPanel()->selectMembers({ids.constFirst()});
    QVERIFY(readModal(texts, [actions] { QVERIFY(!actions->evictSelected()); }));
    QVERIFY(readModal(texts, [actions] { QVERIFY(!actions->checkSelected()); }));
    QVERIFY(savedHealthTargetUrl().isEmpty());
    QAction *about = aboutAction(window);
    QVERIFY(about);
    QVERIFY(readModal(texts, [about] { about->trigger(); }));
    QVERIFY(readModal(texts, [&window] { window.openRecordingAction()->trigger(); }));
    QVERIFY(readModal(texts, [actions] { actions->exportChartAction()->trigger(); }));
    QCOMPARE(session.poolKey(), kKey); // nothing was opened, nothing changed

    // The tabs: an empty one and one on the pool, their titles, the window's menus and actions.
    {
        TabbedWindow tabs;
        tabs.newTab();
        MainWindow *page = tabs.newTab();
        QSignalSpy tabPolled(page->session(), &PoolSession::observationApplied);
        page->session()->connectTo(redis.endpoint(), kKey);
        QVERIFY(tabPolled.wait(10000));
        texts.addData(
            QStringLiteral("%1:%2").arg(redis.endpoint().host).arg(redis.endpoint().port));
        texts.addData(redis.endpoint().socketPath);
        tabs.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tabs));
        // The tab bar and the window's own actions (each page is the main window read above).
        QTabBar *bar = tabs.tabWidget()->tabBar();
        for (int i = 0; i < bar->count(); ++i) {
            texts.add(QStringLiteral("text"), bar, bar->tabText(i));
            for (QTabBar::ButtonPosition side : {QTabBar::LeftSide, QTabBar::RightSide})
                if (const QWidget *button = bar->tabButton(i, side))
                    texts.add(QStringLiteral("tooltip"), button, button->toolTip());
        }
        for (const QAction *action : {tabs.newTabAction(), tabs.closeTabAction(),
                                      tabs.nextTabAction(), tabs.previousTabAction()}) {
            texts.add(QStringLiteral("action"), &tabs, action->text());
            texts.add(QStringLiteral("statustip"), &tabs, action->statusTip());
        }
    }

    // What is not translatable, against the list of what is known not to be yet.
    QMap<QString, QString> found; // allow-list line -> where
    for (const VisibleText &text : texts.untranslated())
        found.insert(texts.allowListKey(text), text.path);
    QFile file(kAllowList);
    QSet<QString> allowed;
    if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        for (const QString &line : QString::fromUtf8(file.readAll()).split(u'\n'))
            if (!line.isEmpty() && !line.startsWith(u'#'))
                allowed.insert(line);
        file.close(); // reopened below to rewrite it
    }
    QStringList fresh;
    int seenAllowed = 0;
    for (auto it = found.cbegin(); it != found.cend(); ++it) {
        if (allowed.contains(it.key())) {
            ++seenAllowed;
        } else {
            fresh << it.key();
            qWarning("not translatable: %s\n        at %s", qPrintable(it.key()),
                     qPrintable(it.value()));
        }
    }
    qInfo("%lld visible texts read; %lld not translatable: %d on the allow list (%lld lines), "
          "%lld new",
          qlonglong(texts.texts().size()), qlonglong(found.size()), seenAllowed,
          qlonglong(allowed.size()), qlonglong(fresh.size()));
    // Lines no longer seen: translated now, or not shown in this run (delete them if translated).
    for (const QString &line : std::as_const(allowed))
        if (!found.contains(line))
            qInfo("on the allow list, not seen: %s", qPrintable(line));
    if (qEnvironmentVariableIsSet("POOLSCOPE_WRITE_ALLOWLIST")) {
        QStringList lines = found.keys();
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text));
        file.write(
            "# Visible dashboard texts not translatable yet (tests/gui/tst_translatable.cpp):\n"
            "# kind, a tab, the text (numbers as #, data as <data>, <url>, <address>,\n"
            "# <path>). Wrap each in tr() and delete its line; the goal is an empty list.\n");
        file.write(lines.join(u'\n').toUtf8() + "\n");
        qInfo("wrote %lld lines to %s", qlonglong(lines.size()), qPrintable(kAllowList));
        return;
    }
    QVERIFY2(fresh.isEmpty(),
             qPrintable(QStringLiteral("%1 visible texts are not translatable (listed above): "
                                       "wrap them in tr(); the allow list takes no new lines")
                            .arg(fresh.size())));
}

QTEST_MAIN(TestTranslatable)
#include "tst_translatable.moc"
