// poolscope: the dashboard. Parses the command line, starts the embedded redis-server when no
// server was named, shows the main window, and tears everything down in order on exit, Ctrl+C
// or SIGTERM. Everything else lives in the poolscope_widgets library.

#include "startup/AppOptions.h"
#include "startup/LastConnection.h"
#include "chart/ChartPanel.h"
#include "connection/ConnectionBar.h"
#include "connection/ConnectionPrompter.h"
#include "session/DemoDriver.h"
#include "MainWindow.h"
#include "tabs/TabbedWindow.h"
#include "actions/PoolActions.h"
#include "endpoint/ArgumentScrubber.h"
#include "health/HealthChecker.h"
#include "server/RedisServerProcess.h"
#include "session/PoolSession.h"
#include "session/SessionRecorder.h"
#include "startup/UnixSignalWatcher.h"
#include "i18n/Languages.h"

#include <csignal>
#include <cstdio>
#include <memory>

#include <QApplication>
#include <QGuiApplication>
#include <QIcon>
#include <QMessageBox>
#include <QProcessEnvironment>
#include <QTimer>

namespace {

void reportFatal(const QString &text, bool interactive) {
    std::fprintf(stderr, "poolscope: %s\n", qPrintable(text));
    if (interactive)
        QMessageBox::critical(nullptr, QStringLiteral("poolscope"), text);
}

} // namespace

int main(int argc, char *argv[]) {
    using namespace poolscope;
    initialiseNetworkLibraries();
    {
        // --help and --version are answered before QApplication, which needs a display.
        QCoreApplication probe(argc, argv);
        const AppOptionsResult early =
            parseAppOptions(probe.arguments(), {}, QStringLiteral(POOLSCOPE_VERSION));
        if (early.exitEarly) {
            std::fputs(qPrintable(early.earlyOutput), stdout);
            return 0;
        }
    }
    QApplication app(argc, argv);
    Q_INIT_RESOURCE(poolscope); // the icon is in poolscope_core's resources
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/poolscope.svg")));
    QGuiApplication::setDesktopFileName(QStringLiteral("poolscope")); // poolscope.desktop
    QApplication::setOrganizationName(QStringLiteral("poolscope"));
    QApplication::setApplicationName(QStringLiteral("poolscope"));
    QApplication::setApplicationVersion(QStringLiteral(POOLSCOPE_VERSION));

    const AppOptionsResult parsed =
        parseAppOptions(QApplication::arguments(), qEnvironmentVariable("REDIS_URL"),
                        QStringLiteral(POOLSCOPE_VERSION));
    // Parsed: the password no longer needs to stand in the process list for everyone to read.
    scrubPasswordsFromArguments(argc, argv);
    if (parsed.exitEarly) {
        std::fputs(qPrintable(parsed.earlyOutput), stdout);
        return 0;
    }
    if (!parsed.options) {
        std::fprintf(stderr, "poolscope: %s\nTry poolscope --help.\n", qPrintable(parsed.error));
        return 2;
    }
    AppOptions options = *parsed.options;
    // The language before any window: --lang, else View > Language, else the system's.
    const i18n::LanguageChoice language = i18n::chooseLanguage(
        options.language, i18n::savedLanguage(), QProcessEnvironment::systemEnvironment());
    if (QString error; !i18n::installLanguage(language, &error))
        std::fprintf(stderr, "poolscope: %s; the window stays in English\n", qPrintable(error));
    // Started without a server named: the tabs open at the last close, else the connection
    // watched last (a saved connection's name, or a typed URL without its password); the demo
    // otherwise.
    const bool nothingNamed = usesEmbeddedServer(options) && !options.demoRequested &&
                              qEnvironmentVariableIsEmpty("REDIS_URL");
    const bool reopenTabs = nothingNamed && !loadOpenTabs().tabs.isEmpty();
    const LastConnection last = loadLastConnection();
    const bool reopenLast = nothingNamed && !reopenTabs && !last.isEmpty();
    if (reopenTabs)
        options.demo = false;
    if (reopenLast) {
        options.demo = false;
        if (!last.profile.isEmpty()) {
            options.profileName = last.profile;
        } else {
            options.url = last.url;
            if (!last.poolKey.isEmpty())
                options.key = last.poolKey;
        }
    }
    const bool interactive = !options.wantsScreenshot() &&
                             QGuiApplication::platformName() != QStringLiteral("offscreen");

    // Declared first so it is destroyed last: the dashboard's threads are gone by then.
    std::unique_ptr<RedisServerProcess> server;
    Endpoint endpoint;
    if (usesEmbeddedServer(options) && !reopenTabs) {
        QString advice;
        if (RedisServerProcess::findExecutable({}, &advice).isEmpty()) {
            reportFatal(advice, interactive);
            return 1;
        }
        server = std::make_unique<RedisServerProcess>();
        QString error;
        if (!server->start(&error)) {
            reportFatal(QCoreApplication::translate(
                            "main", "cannot start the embedded redis-server: %1. Or connect to "
                                    "a server with --url redis://host:6379/0.")
                            .arg(error),
                        interactive);
            return 1;
        }
        endpoint = server->endpoint();
    } else if (!reopenTabs && options.recordingPath.isEmpty() && options.profileName.isEmpty()) {
        const EndpointParseResult url = parseEndpoint(options.url);
        if (!url.ok()) {
            std::fprintf(stderr, "poolscope: %s\n", qPrintable(url.error));
            return 2;
        }
        endpoint = *url.endpoint;
        endpoint.tls = options.tls; // rediss:// and the --tls-* options
        endpoint.ssh = options.ssh; // --ssh: the address is reached from the SSH host
        endpoint.sentinelPassword = options.sentinelPassword;
    }

    // Pools side by side: each tab its own session, recorder and questions (SessionTab).
    TabbedWindow window;
    window.setReadOnly(options.readOnly);
    window.setFullSnapshotThreshold(options.fullSnapshotThreshold);
    if (server)
        window.setEmbeddedServer(server->endpoint());
    MainWindow *first = nullptr;
    if (reopenTabs && window.restoreTabs() > 0) {
        first = window.current();
    } else {
        // The demo belongs to the server it was started for (the embedded one, or the --url
        // named with --demo) and stays in this first tab: any other server the person goes on
        // to, in this tab or another, is left as it is.
        first = window.newDemoTab(server ? server->endpoint() : endpoint, options.demo);
    }
    PoolSession &session = *first->session();
    if (!options.pinned.isEmpty())
        session.pin(options.pinned);
    if (!reopenTabs && options.recordingPath.isEmpty() && options.profileName.isEmpty())
        first->connectionBar()->setTarget(endpoint, options.key);

    // Ctrl+C and SIGTERM close the window like the user would (even one kept in the tray):
    // settings saved, threads joined, the embedded server stopped by its destructor.
    UnixSignalWatcher signalWatcher({SIGINT, SIGTERM});
    QObject::connect(&signalWatcher, &UnixSignalWatcher::signalReceived, &app, [&window] {
        window.closeForGood();
        QApplication::quit();
    });

    if (server)
        session.log(LogSeverity::Info, QStringLiteral("server"),
                    QCoreApplication::translate(
                        "main", "embedded redis-server started (pid %1, %2); it stops when "
                                "poolscope exits")
                        .arg(server->pid())
                        .arg(endpoint.toDisplayString()));
    window.show();
    if (reopenLast)
        session.log(LogSeverity::Info, QStringLiteral("connection"),
                    QCoreApplication::translate("main", "reopening the last connection %1 "
                                                        "(poolscope --demo starts the demo "
                                                        "instead)")
                        .arg(last.profile.isEmpty() ? last.url : last.profile));
    if (!options.profileName.isEmpty()) {
        QString error;
        if (!first->connectProfile(options.profileName, &error) && !reopenLast) {
            reportFatal(error, interactive);
            return 2;
        }
    } else if (reopenTabs) {
        // the restored tabs connect themselves
    } else if (options.recordingPath.isEmpty()) {
        session.connectTo(endpoint, options.key);
    } else {
        first->openRecording(options.recordingPath);
    }

    if (options.wantsScreenshot()) {
        QTimer::singleShot(qint64(options.screenshotAfterSeconds * 1000.0), &window,
                           [&window, &options] {
                               window.current()->chartPanel()->refreshNow();
                               const bool saved = window.grab().save(options.screenshotPath, "PNG");
                               if (!saved)
                                   std::fprintf(stderr, "poolscope: cannot write %s\n",
                                                qPrintable(options.screenshotPath));
                               QApplication::exit(saved ? 0 : 1);
                           });
    }
    return QApplication::exec();
}
