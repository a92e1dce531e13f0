// The dashboard's languages: which one a run takes (--lang, View > Language, the environment as
// gettext reads it), what installing one does (our translation, Qt's own strings, the locale of
// numbers, right to left under Uyghur), the Language menu, and a mirrored window whose ids, URLs
// and figures keep their left-to-right order while the chart's time still runs forward.
#include "MainWindow.h"
#include "chart/ChartPanel.h"
#include "connection/ConnectionBar.h"
#include "i18n/LanguageMenu.h"
#include "i18n/Languages.h"
#include "i18n/LeftToRight.h"
#include "members/MembersPanel.h"
#include "members/PoolTableModel.h"
#include "pools/PoolsPanel.h"
#include "pools/PoolsTableModel.h"
#include "session/PoolSession.h"
#include "startup/AppOptions.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QDockWidget>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLegend>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcessEnvironment>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::i18n;

namespace {

QProcessEnvironment environment(const QString &assignments) {
    QProcessEnvironment env;
    for (const QString &assignment : assignments.split(u' ', Qt::SkipEmptyParts)) {
        const qsizetype equals = assignment.indexOf(u'=');
        env.insert(assignment.left(equals), assignment.mid(equals + 1));
    }
    return env;
}

void installEnglish() {
    QVERIFY(installLanguage({shippedLanguages().constFirst(), LanguageSource::System}));
}

const QString kLri = QStringLiteral("\u2066");
const QString kFsi = QStringLiteral("\u2068");
const QString kPdi = QStringLiteral("\u2069");

} // namespace

class TestLanguages : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }
    void cleanup() { installEnglish(); }

    void matchesLocaleNames_data();
    void matchesLocaleNames();
    void readsTheEnvironmentAsGettext_data();
    void readsTheEnvironmentAsGettext();
    void choosesCommandLineThenMenuThenSystem_data();
    void choosesCommandLineThenMenuThenSystem();
    void langOptionIsChecked_data();
    void langOptionIsChecked();
    void everyShippedLanguageInstalls_data();
    void everyShippedLanguageInstalls();
    void englishHasItsPluralForms();
    void dataStaysLeftToRightUnderUyghur();
    void uyghurMirrorsTheWindow();
    void languageMenuSavesTheChoice();
    void fontsCoverEveryScript_data();
    void fontsCoverEveryScript();
};

void TestLanguages::matchesLocaleNames_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("code"); // empty: nothing shipped matches
    const QList<std::pair<const char *, const char *>> cases = {
        {"zh_CN.UTF-8", "zh_CN"},
        {"zh_CN", "zh_CN"},
        {"zh", "zh_CN"},
        {"zh_SG.UTF-8", "zh_CN"},
        {"zh-Hans-CN", "zh_CN"},
        {"ZH-cn", "zh_CN"},
        {"zh_TW.UTF-8", ""},
        {"zh_HK", ""},
        {"zh-Hant", ""},
        {"ug_CN.UTF-8", "ug"},
        {"ug", "ug"},
        {"ug-Arab-CN", "ug"},
        {"ug_CN@latin", ""},
        {"pa_IN.UTF-8", "pa"},
        {"pa", "pa"},
        {"pa-Guru-IN", "pa"},
        {"pa_PK.UTF-8", ""},
        {"pa-Arab-PK", ""},
        {"eo", "eo"},
        {"eo.UTF-8", "eo"},
        {"eo_XX.UTF-8", "eo"},
        {"en_GB.UTF-8", "en"},
        {"C", "en"},
        {"C.UTF-8", "en"},
        {"POSIX", "en"},
        {"de_DE.UTF-8", ""},
        {"de_DE@euro", ""},
        {"fr", ""},
        {"", ""},
    };
    for (const auto &[name, code] : cases)
        QTest::newRow(*name ? name : "(empty)")
            << QString::fromUtf8(name) << QString::fromUtf8(code);
}

void TestLanguages::matchesLocaleNames() {
    QFETCH(QString, name);
    QFETCH(QString, code);
    const std::optional<Language> language = matchLanguage(name);
    QCOMPARE(language ? language->code : QString(), code);
}

void TestLanguages::readsTheEnvironmentAsGettext_data() {
    QTest::addColumn<QString>("env");
    QTest::addColumn<QStringList>("requested");
    QTest::newRow("nothing set") << QString() << QStringList();
    QTest::newRow("LANG") << "LANG=zh_CN.UTF-8" << QStringList{"zh_CN.UTF-8"};
    QTest::newRow("LC_MESSAGES over LANG")
        << "LC_MESSAGES=pa_IN.UTF-8 LANG=de_DE.UTF-8" << QStringList{"pa_IN.UTF-8"};
    QTest::newRow("LC_ALL over both")
        << "LC_ALL=eo.UTF-8 LC_MESSAGES=pa_IN LANG=de_DE" << QStringList{"eo.UTF-8"};
    QTest::newRow("LANGUAGE over all, a list")
        << "LANGUAGE=de:ug:zh_CN LC_ALL=eo.UTF-8" << QStringList{"de", "ug", "zh_CN"};
    // gettext ignores LANGUAGE in the C locale (measured with coreutils here), not in C.UTF-8.
    QTest::newRow("LANGUAGE ignored under C") << "LANGUAGE=ug LANG=C" << QStringList{"C"};
    QTest::newRow("LANGUAGE ignored under POSIX")
        << "LANGUAGE=ug LC_ALL=POSIX" << QStringList{"POSIX"};
    QTest::newRow("LANGUAGE ignored without a locale") << "LANGUAGE=ug" << QStringList();
    QTest::newRow("LANGUAGE kept under C.UTF-8") << "LANGUAGE=ug LANG=C.UTF-8" << QStringList{"ug"};
    QTest::newRow("empty LANGUAGE") << "LANGUAGE= LANG=eo" << QStringList{"eo"};
}

void TestLanguages::readsTheEnvironmentAsGettext() {
    QFETCH(QString, env);
    QFETCH(QStringList, requested);
    QCOMPARE(requestedLanguages(environment(env)), requested);
}

void TestLanguages::choosesCommandLineThenMenuThenSystem_data() {
    QTest::addColumn<QString>("commandLine");
    QTest::addColumn<QString>("saved");
    QTest::addColumn<QString>("env");
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("source");
    const int commandLine = int(LanguageSource::CommandLine);
    const int menu = int(LanguageSource::Menu);
    const int system = int(LanguageSource::System);
    QTest::newRow("system zh") << ""
                               << ""
                               << "LANG=zh_CN.UTF-8"
                               << "zh_CN" << system;
    QTest::newRow("first shipped of LANGUAGE") << ""
                                               << ""
                                               << "LANGUAGE=de:pa:ug LANG=de_DE.UTF-8"
                                               << "pa" << system;
    QTest::newRow("none shipped: English") << ""
                                           << ""
                                           << "LANGUAGE=de:fr LANG=de_DE.UTF-8"
                                           << "en" << system;
    QTest::newRow("Traditional Chinese: English") << ""
                                                  << ""
                                                  << "LANG=zh_TW.UTF-8"
                                                  << "en" << system;
    QTest::newRow("menu over system") << ""
                                      << "ug"
                                      << "LANG=zh_CN.UTF-8"
                                      << "ug" << menu;
    QTest::newRow("menu English over system") << ""
                                              << "en"
                                              << "LANG=zh_CN.UTF-8"
                                              << "en" << menu;
    QTest::newRow("a saved code no longer shipped") << ""
                                                    << "xx"
                                                    << "LANG=eo.UTF-8"
                                                    << "eo" << system;
    QTest::newRow("--lang over menu") << "eo"
                                      << "ug"
                                      << "LANG=zh_CN.UTF-8"
                                      << "eo" << commandLine;
}

void TestLanguages::choosesCommandLineThenMenuThenSystem() {
    QFETCH(QString, commandLine);
    QFETCH(QString, saved);
    QFETCH(QString, env);
    QFETCH(QString, code);
    QFETCH(int, source);
    const LanguageChoice choice = chooseLanguage(commandLine, saved, environment(env));
    QCOMPARE(choice.language.code, code);
    QCOMPARE(int(choice.source), source);
}

void TestLanguages::langOptionIsChecked_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("code"); // empty: refused
    QTest::newRow("ug") << "ug"
                        << "ug";
    QTest::newRow("zh-CN") << "zh-CN"
                           << "zh_CN";
    QTest::newRow("en") << "en"
                        << "en";
    QTest::newRow("de") << "de"
                        << "";
    QTest::newRow("zh_TW") << "zh_TW"
                           << "";
}

void TestLanguages::langOptionIsChecked() {
    QFETCH(QString, value);
    QFETCH(QString, code);
    const AppOptionsResult parsed = parseAppOptions(
        {QStringLiteral("poolscope"), QStringLiteral("--lang"), value}, {}, QStringLiteral("1"));
    if (code.isEmpty()) {
        QVERIFY(!parsed.options);
        QVERIFY2(parsed.error.contains(QStringLiteral("en, zh_CN, ug, pa, eo")),
                 qPrintable(parsed.error));
    } else {
        QVERIFY2(parsed.options, qPrintable(parsed.error));
        QCOMPARE(parsed.options->language, code);
    }
}

void TestLanguages::everyShippedLanguageInstalls_data() {
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("cancel");   // Qt's own button, from qtbase or from our file
    QTest::addColumn<QString>("language"); // the Language menu's title
    QTest::addColumn<int>("locale");
    QTest::addColumn<bool>("rightToLeft");
    QTest::newRow("en") << "en"
                        << "Cancel"
                        << "&Language" << int(QLocale::English) << false;
    QTest::newRow("zh_CN") << "zh_CN"
                           << "取消"
                           << "语言(&L)" << int(QLocale::Chinese) << false;
    QTest::newRow("ug") << "ug"
                        << "ۋاز كەچ"
                        << "تىل(&L)" << int(QLocale::Uyghur) << true;
    QTest::newRow("pa") << "pa"
                        << "ਰੱਦ ਕਰੋ"
                        << "ਭਾਸ਼ਾ(&L)" << int(QLocale::Punjabi) << false;
    QTest::newRow("eo") << "eo"
                        << "Nuligi"
                        << "&Lingvo" << int(QLocale::Esperanto) << false;
}

void TestLanguages::everyShippedLanguageInstalls() {
    QFETCH(QString, code);
    QFETCH(QString, cancel);
    QFETCH(QString, language);
    QFETCH(int, locale);
    QFETCH(bool, rightToLeft);
    const std::optional<Language> shipped = matchLanguage(code);
    QVERIFY(shipped);
    QString error;
    QVERIFY2(installLanguage({*shipped, LanguageSource::CommandLine}, &error), qPrintable(error));
    QCOMPARE(installedLanguage().language.code, code);
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), cancel);
    QCOMPARE(QCoreApplication::translate("poolscope::i18n::LanguageMenu", "&Language"), language);
    QCOMPARE(int(QLocale().language()), locale); // numbers and times follow the language
    QCOMPARE(QGuiApplication::layoutDirection(), rightToLeft ? Qt::RightToLeft : Qt::LeftToRight);
    QCOMPARE(shipped->rightToLeft, rightToLeft);
    // Back to English: the direction and the locale follow again.
    installEnglish();
    QCOMPARE(QGuiApplication::layoutDirection(), Qt::LeftToRight);
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Cancel"));
    QCOMPARE(QLocale(), QLocale::system());
}

void TestLanguages::englishHasItsPluralForms() {
    // Without poolscope_en.qm, "%n pool(s)" would read "1 pool(s)".
    QVERIFY(installLanguage({*matchLanguage(QStringLiteral("en")), LanguageSource::Menu}));
    QCOMPARE(QCoreApplication::translate("poolscope::PoolsPanel", "%n pool(s)", nullptr, 1),
             QStringLiteral("1 pool"));
    QCOMPARE(QCoreApplication::translate("poolscope::PoolsPanel", "%n pool(s)", nullptr, 3),
             QStringLiteral("3 pools"));
}

void TestLanguages::dataStaysLeftToRightUnderUyghur() {
    const DirectionDelegate ids(DirectionDelegate::Mode::LeftToRight);
    const DirectionDelegate phrases(DirectionDelegate::Mode::FirstStrong);
    const QString member = QStringLiteral("socks5://127.0.0.1:1080");
    QCOMPARE(ids.displayedText(member, Qt::LeftToRight), member);
    QCOMPARE(ids.displayedText(member, Qt::RightToLeft), kLri + member + kPdi);
    QCOMPARE(phrases.displayedText(QStringLiteral("12 s ago"), Qt::RightToLeft),
             kFsi + QStringLiteral("12 s ago") + kPdi);
    QCOMPARE(ids.displayedText(QString(), Qt::RightToLeft), QString());
    // Fragments follow the application's direction.
    QCOMPARE(leftToRight(member), member);
    QVERIFY(installLanguage({*matchLanguage(QStringLiteral("ug")), LanguageSource::CommandLine}));
    QCOMPARE(leftToRight(member), kLri + member + kPdi);
    QCOMPARE(firstStrong(QStringLiteral("seed +24 at 0")),
             kFsi + QStringLiteral("seed +24 at 0") + kPdi);
    // A proxy list box's example lines start at its left edge, like what is typed into it.
    QPlainTextEdit box;
    box.setPlaceholderText(QStringLiteral("192.0.2.10:8080\nsocks5://203.0.113.5:1080"));
    keepLeftToRight(&box);
    box.setCursorWidth(0); // only the text is looked for
    box.resize(400, 120);
    box.show();
    QVERIFY(QTest::qWaitForWindowExposed(&box));
    const QImage image = box.viewport()->grab().toImage();
    const QRgb base = image.pixel(image.width() / 2, image.height() - 2);
    int leftmost = image.width();
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < leftmost; ++x)
            if (image.pixel(x, y) != base)
                leftmost = x;
    QVERIFY2(leftmost < image.width() / 4, qPrintable(QString::number(leftmost)));
}

void TestLanguages::uyghurMirrorsTheWindow() {
    QVERIFY(installLanguage({*matchLanguage(QStringLiteral("ug")), LanguageSource::CommandLine}));
    PoolSession session;
    MainWindow window(&session);
    window.resize(1360, 860);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.isRightToLeft());

    // The docks of the right-hand area stand on the left of the chart, and so does the menu.
    QDockWidget *pool = window.findChild<QDockWidget *>(QStringLiteral("poolDock"));
    QVERIFY(pool);
    const QRect chart(window.chartPanel()->mapTo(&window, QPoint()), window.chartPanel()->size());
    QVERIFY2(pool->geometry().right() < chart.left(),
             qPrintable(QStringLiteral("pool dock %1, chart %2")
                            .arg(pool->geometry().right())
                            .arg(chart.left())));

    // The members table's first column (the member) is its rightmost; its ids, counts and
    // shares are drawn between isolates, its phrases by their own first letter.
    QTableView *members = window.membersPanel()->tableView();
    QHeaderView *header = members->horizontalHeader();
    QCOMPARE_GT(header->sectionViewportPosition(PoolTableModel::Member),
                header->sectionViewportPosition(PoolTableModel::Count));
    const auto modeOf = [](QAbstractItemView *view, int column) {
        auto *delegate = qobject_cast<DirectionDelegate *>(view->itemDelegateForColumn(column));
        return delegate ? int(delegate->mode()) : -1;
    };
    const int ids = int(DirectionDelegate::Mode::LeftToRight);
    const int phrases = int(DirectionDelegate::Mode::FirstStrong);
    for (const int column : {PoolTableModel::Member, PoolTableModel::Count, PoolTableModel::Share,
                             PoolTableModel::Rate, PoolTableModel::Debt})
        QCOMPARE(modeOf(members, column), ids);
    for (const int column :
         {PoolTableModel::State, PoolTableModel::Health, PoolTableModel::LastChange})
        QCOMPARE(modeOf(members, column), phrases);
    auto *pools = window.poolsPanel()->findChild<QTableView *>();
    QVERIFY(pools);
    for (int column = 0; column < PoolsTableModel::ColumnCount; ++column)
        QCOMPARE(modeOf(pools, column), ids);

    // URLs and keys are typed left to right.
    const QList<QComboBox *> fields = window.connectionBar()->findChildren<QComboBox *>();
    int leftToRightFields = 0;
    for (QComboBox *field : fields)
        if (field->isEditable() && !field->lineEdit()->isRightToLeft())
            ++leftToRightFields;
    QCOMPARE(leftToRightFields, 2);
    QVERIFY(!window.membersPanel()->filterEdit()->isRightToLeft());

    // The chart: its legend at the left, its time axis still running forward, left to right.
    auto *view = window.chartPanel()->findChild<QChartView *>();
    QVERIFY(view);
    QCOMPARE(view->chart()->legend()->alignment(), Qt::AlignLeft);
    const QList<QAbstractAxis *> timeAxes = view->chart()->axes(Qt::Horizontal);
    QCOMPARE(timeAxes.size(), 1);
    auto *time = qobject_cast<QDateTimeAxis *>(timeAxes.constFirst());
    QVERIFY(time && !time->isReverse());
    const QRectF plot = view->chart()->plotArea();
    const QPointF earlier =
        view->chart()->mapToPosition(QPointF(double(time->min().toMSecsSinceEpoch()), 0));
    const QPointF later =
        view->chart()->mapToPosition(QPointF(double(time->max().toMSecsSinceEpoch()), 0));
    QVERIFY2(earlier.x() < later.x() && qAbs(earlier.x() - plot.left()) < 2,
             qPrintable(QStringLiteral("earlier %1, later %2").arg(earlier.x()).arg(later.x())));
    QCOMPARE_LE(view->chart()->legend()->geometry().right(), plot.left());
}

void TestLanguages::languageMenuSavesTheChoice() {
    LanguageMenu menu;
    // The system's entry, then every shipped language in its own name.
    QStringList names;
    for (QAction *action : menu.actions())
        if (action->isCheckable())
            names << action->text();
    QCOMPARE(names.size(), 6);
    QCOMPARE(names.mid(1), QStringList({QStringLiteral("English"), QStringLiteral("简体中文"),
                                        QStringLiteral("ئۇيغۇرچە"), QStringLiteral("ਪੰਜਾਬੀ"),
                                        QStringLiteral("Esperanto")}));
    QVERIFY(menu.actionFor(QString())->isChecked()); // nothing saved: the system's
    QCOMPARE(menu.actionFor(QStringLiteral("ug"))->toolTip(), QStringLiteral("Uyghur"));

    QSignalSpy saved(&menu, &LanguageMenu::languageSaved);
    menu.actionFor(QStringLiteral("ug"))->trigger();
    QCOMPARE(savedLanguage(), QStringLiteral("ug"));
    QCOMPARE(saved.size(), 1);
    const QString message = saved.constFirst().constFirst().toString();
    QVERIFY2(message.contains(QStringLiteral("ئۇيغۇرچە")) &&
                 message.contains(QStringLiteral("next time")),
             qPrintable(message));
    // A new menu shows the saved choice; following the system again forgets it.
    LanguageMenu again;
    QVERIFY(again.actionFor(QStringLiteral("ug"))->isChecked());
    again.actionFor(QString())->trigger();
    QCOMPARE(savedLanguage(), QString());
    QVERIFY(!QSettings().contains(QStringLiteral("ui/language")));
}

// The test set-up brings a font for each script (scripts/install-deps.sh): Uyghur's own letters
// (ۆ ۈ ۋ ې ى) in DejaVu Sans, Gurmukhi, Simplified Chinese.
void TestLanguages::fontsCoverEveryScript_data() {
    QTest::addColumn<int>("system");
    QTest::addColumn<QString>("letters");
    QTest::newRow("ug") << int(QFontDatabase::Arabic) << QStringLiteral("ۆۈۋېىئۇيغۇرچە");
    QTest::newRow("pa") << int(QFontDatabase::Gurmukhi) << QStringLiteral("ਪੰਜਾਬੀਪਰਾਕਸੀ");
    QTest::newRow("zh_CN") << int(QFontDatabase::SimplifiedChinese)
                           << QStringLiteral("简体中文代理池分配");
}

void TestLanguages::fontsCoverEveryScript() {
    QFETCH(int, system);
    QFETCH(QString, letters);
    QStringList covering;
    for (const QString &family : QFontDatabase::families(QFontDatabase::WritingSystem(system))) {
        const QFontMetrics metrics{QFont(family)};
        if (std::all_of(letters.cbegin(), letters.cend(),
                        [&](QChar c) { return metrics.inFont(c); }))
            covering << family;
    }
    QVERIFY2(!covering.isEmpty(), "no font has these letters: scripts/install-deps.sh installs "
                                  "fonts-lohit-guru and fonts-wqy-microhei (DejaVu for Uyghur)");
}

QTEST_MAIN(TestLanguages)
#include "tst_languages.moc"
