// What the programs say about themselves: the dashboard's --version and --help (answered without
// a display), one version string for both programs, and the icon compiled in as window icon.
#include "RedisFixture.h"

#include <QIcon>
#include <QImage>
#include <QProcess>
#include <QtTest>

using namespace poolscope::testing;

namespace {

// Runs the dashboard with no display at all: no DISPLAY, no WAYLAND_DISPLAY, no platform forced.
CliRun runDashboard(const QStringList &arguments) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QString::fromLatin1(name));
    return runProgram(QStringLiteral(POOLSCOPE_GUI_PATH), arguments, {}, 30000, environment);
}

QByteArray versionOf(const QByteArray &versionLine) {
    return versionLine.trimmed().split(' ').value(1);
}

} // namespace

class TestProgramInfo : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void dashboardVersionWithoutDisplay() {
        const CliRun run = runDashboard({QStringLiteral("--version")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QByteArray("poolscope " POOLSCOPE_VERSION "\n"));
    }

    void bothProgramsPrintOneVersion() {
        const CliRun dashboard = runDashboard({QStringLiteral("--version")});
        const CliRun cli = runCli({QStringLiteral("--version")});
        QCOMPARE(cli.exitCode, 0);
        QVERIFY(!versionOf(dashboard.out).isEmpty());
        QCOMPARE(versionOf(dashboard.out), versionOf(cli.out));
    }

    void dashboardHelpListsOptions_data() {
        QTest::addColumn<QString>("option");
        for (const char *option :
             {"--url <URL>", "--key <KEY>", "--demo", "--read-only", "--screenshot <FILE>",
              "--after <SECONDS>", "--full-snapshot-threshold <N>", "--pin <MEMBER>", "--help",
              "--version", "--lang <CODE>"})
            QTest::newRow(option) << QString::fromLatin1(option);
    }
    void dashboardHelpListsOptions() {
        QFETCH(QString, option);
        const CliRun run = runDashboard({QStringLiteral("--help")});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("Usage: "), run.out);
        QVERIFY2(run.out.contains(option.toUtf8()), run.out);
    }

    // The command-line tool stays English for scripts, whatever the locale, and says so.
    void cliStaysEnglish() {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("LANGUAGE"), QStringLiteral("ug"));
        environment.insert(QStringLiteral("LANG"), QStringLiteral("zh_CN.UTF-8"));
        const CliRun run = runProgram(QStringLiteral(POOLSCOPE_CLI_PATH),
                                      {QStringLiteral("--help")}, {}, 30000, environment);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith("Usage: poolscope-cli"), run.out);
        QVERIFY2(run.out.contains("Text and JSON are in English whatever the locale"), run.out);
    }

    // The SVG is drawn through Qt's SVG icon engine (libqt6svg6, a plugin the .deb depends on).
    void windowIconRenders() {
        Q_INIT_RESOURCE(poolscope);
        const QIcon icon(QStringLiteral(":/icons/poolscope.svg"));
        QVERIFY(!icon.isNull());
        const QImage image = icon.pixmap(64, 64).toImage();
        QCOMPARE(image.size(), QSize(64, 64));
        // Not blank: the bars differ from the background, and the corners are transparent.
        QCOMPARE(image.pixelColor(0, 0).alpha(), 0);
        QCOMPARE(image.pixelColor(32, 32).alpha(), 255);
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }
};

QTEST_MAIN(TestProgramInfo)
#include "tst_programinfo.moc"
