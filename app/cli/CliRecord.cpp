// poolscope-cli record: polls the pool like the dashboard and records it until SIGINT/SIGTERM.
#include "CliApp.h"

#include "monitor/PoolMonitor.h"
#include "recording/PoolRecorder.h"

#include <QDateTime>
#include <QEventLoop>
#include <QTimer>

namespace poolscope::cli {

int Cli::record(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("record takes no positional arguments (the file is given with --db)");
    const int intervalMs = wholeOption(QStringLiteral("interval"), 1000, 10, 3'600'000);
    const int threshold =
        wholeOption(QStringLiteral("full-snapshot-threshold"), 10000, 1, 100'000'000);
    double seconds = 0;
    if (m_parser.isSet(QStringLiteral("duration")))
        seconds = numberOption(QStringLiteral("duration"), 0, 0.001, 1e9);
    auto [endpoint, options] = target();
    options.clientName = QStringLiteral("poolscope-recorder");
    const QByteArray key = poolKey();
    QString path = m_parser.value(QStringLiteral("db"));
    if (m_parser.isSet(QStringLiteral("db")) && path.isEmpty())
        throw UsageError("--db is empty: name the recording's file");
    if (path.isEmpty())
        path = defaultRecordingPath(endpoint, key);

    PoolRecorder recorder;
    RecordingInfo info;
    info.server = endpoint.toSafeUrl();
    info.poolKey = key;
    QString error;
    // Refused when the file holds another pool, server or database (RecordingWriter::open).
    if (!recorder.open(path, info, &error)) {
        m_err << "poolscope-cli: " << error << '\n';
        if (m_json)
            printJson({{QStringLiteral("error"), error}, {QStringLiteral("path"), path}});
        return kExitFailure;
    }
    if (m_json)
        printJson({{QStringLiteral("event"), QStringLiteral("recording")},
                   {QStringLiteral("pool"), QString::fromUtf8(key)},
                   {QStringLiteral("server"), endpoint.toDisplayString()},
                   {QStringLiteral("interval_ms"), intervalMs},
                   {QStringLiteral("path"), path}});
    else
        m_out << "recording pool \"" << QString::fromUtf8(key) << "\" of "
              << endpoint.toDisplayString() << " every " << intervalMs << " ms to " << path << '\n';
    m_out.flush();

    PoolMonitor monitor;
    monitor.setPollInterval(std::chrono::milliseconds(intervalMs));
    monitor.setFullSnapshotThreshold(threshold);
    QEventLoop loop;
    qint64 polls = 0;
    qint64 written = 0;
    QString lastWriteError;
    QObject::connect(&monitor, &PoolMonitor::observationArrived, &loop,
                     [&recorder, &polls](const PoolObservation &observation) {
                         ++polls;
                         recorder.recordObservation(observation);
                     });
    QObject::connect(&recorder, &PoolRecorder::pollWritten, &loop, [&written] { ++written; });
    QObject::connect(&recorder, &PoolRecorder::writeFailed, &loop,
                     [this, &lastWriteError](const QString &message) {
                         // Printed once per different message: a full disk fails every poll.
                         if (message.section(QLatin1Char(':'), -1) !=
                             lastWriteError.section(QLatin1Char(':'), -1)) {
                             m_err << "poolscope-cli: " << message << '\n';
                             m_err.flush();
                         }
                         lastWriteError = message;
                     });
    QObject::connect(&monitor, &PoolMonitor::pollFailed, &loop, [this](const Failure &failure) {
        m_err << "poolscope-cli: " << failure.text << '\n';
        m_err.flush();
    });
    bool wasConnected = false;
    QObject::connect(&monitor, &PoolMonitor::stateChanged, &loop,
                     [&](ConnectionState state, const QString &detail) {
                         if (state == ConnectionState::Connected) {
                             wasConnected = true;
                             return;
                         }
                         if (state != ConnectionState::Reconnecting || !wasConnected)
                             return;
                         wasConnected = false;
                         RecordingEvent event;
                         event.timeMs = QDateTime::currentMSecsSinceEpoch();
                         event.kind = RecordingEventKind::Reconnect;
                         event.label = QStringLiteral("connection lost: ") + detail;
                         recorder.recordEvent(event);
                         m_err << "poolscope-cli: connection lost, reconnecting: " << detail
                               << '\n';
                         m_err.flush();
                     });
    const InterruptGuard interrupt;
    const TerminateGuard terminate;
    int exitCode = kExitOk;
    QTimer signalCheck;
    QObject::connect(&signalCheck, &QTimer::timeout, &loop, [&] {
        if (g_interrupted.load()) {
            exitCode = stopExitCode();
            loop.quit();
        }
    });
    signalCheck.start(100);
    if (seconds > 0)
        QTimer::singleShot(std::chrono::milliseconds(qint64(seconds * 1000)), &loop,
                           &QEventLoop::quit);
    monitor.connectTo(endpoint, key, options);
    loop.exec();
    monitor.disconnectFromServer();
    recorder.close(); // writes what is queued, then closes the file
    if (m_json)
        printJson({{QStringLiteral("event"), QStringLiteral("stopped")},
                   {QStringLiteral("polls"), polls},
                   {QStringLiteral("written"), written},
                   {QStringLiteral("path"), path}});
    else
        m_out << "recorded " << written << " of " << polls << " polls to " << path << '\n';
    // A recording with holes, or none at all, is a failure to report, not a success.
    if (written < polls) {
        m_err << "poolscope-cli: " << polls - written << " of " << polls
              << " polls were lost (not recorded)\n";
        return kExitFailure;
    }
    if (polls == 0 && exitCode == kExitOk) {
        m_err << "poolscope-cli: no poll was recorded (the server never answered)\n";
        return kExitFailure;
    }
    return exitCode;
}

} // namespace poolscope::cli
