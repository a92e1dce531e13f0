// poolscope-cli exporter: serves the pools' figures to Prometheus until Ctrl+C or SIGTERM.
#include "CliApp.h"

#include "export/PrometheusExporter.h"

#include <thread>

#include <QEventLoop>
#include <QTimer>

namespace poolscope::cli {

int Cli::exporter(const QStringList &args) {
    if (!args.isEmpty())
        throw UsageError("exporter takes no positional arguments (name pools with --key)");
    ExporterOptions options;
    options.listen = m_parser.value(QStringLiteral("listen"));
    if (!options.listen.contains(QLatin1Char(':')))
        throw UsageError("--listen takes HOST:PORT, e.g. 127.0.0.1:9750");
    options.memberLimit = wholeOption(QStringLiteral("member-limit"), 1000, 0, 10'000'000);
    // Without --key, a --profile's pool key (poolKey()) rather than the default.
    const QStringList keys = m_parser.isSet(QStringLiteral("key"))
                                 ? m_parser.values(QStringLiteral("key"))
                                 : QStringList{QString::fromUtf8(poolKey())};
    for (const QString &key : keys) {
        if (key.isEmpty())
            throw UsageError("--key is empty: name the pool's sorted set");
        if (!options.keys.contains(key.toUtf8()))
            options.keys.append(key.toUtf8());
    }
    if (options.keys.isEmpty())
        options.keys.append(poolKey());
    auto [endpoint, connection] = target();
    connection.clientName = QStringLiteral("poolscope-exporter");

    PrometheusExporter server(endpoint, connection, options);
    server.setLogger([this](const QString &line) {
        m_err << "poolscope-cli: " << line << '\n';
        m_err.flush();
    });
    try {
        server.start();
    } catch (const std::runtime_error &e) {
        m_err << "poolscope-cli: " << e.what() << '\n';
        return kExitFailure;
    }
    const QString host = options.listen.left(options.listen.lastIndexOf(QLatin1Char(':')));
    m_out << "serving http://" << host << ':' << server.port() << "/metrics for "
          << options.keys.size() << (options.keys.size() == 1 ? " pool" : " pools") << " of "
          << endpoint.toDisplayString() << '\n';
    m_out.flush();

    // Scrapes run on the HTTP server's thread; this one only waits for Ctrl+C or SIGTERM.
    const InterruptGuard interrupt;
    const TerminateGuard terminate;
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (g_interrupted.load())
            loop.quit();
    });
    check.start(100);
    loop.exec();
    m_err << "poolscope-cli: exporter stopped\n";
    return stopExitCode();
}

} // namespace poolscope::cli
