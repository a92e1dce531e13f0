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
    const ListenParseResult listen = parseListenAddress(m_parser.value(QStringLiteral("listen")));
    if (!listen.address)
        throw UsageError(listen.error.toStdString());
    options.listen = listen.address->text();
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
        if (m_json)
            printJson({{QStringLiteral("error"), QString::fromUtf8(e.what())}});
        return kExitFailure;
    }
    ListenAddress bound = *listen.address;
    bound.port = server.port();
    const QString url = QStringLiteral("http://%1/metrics").arg(bound.text());
    if (m_json) {
        QJsonArray pools;
        for (const QByteArray &key : options.keys)
            pools.append(QString::fromUtf8(key));
        printJson({{QStringLiteral("event"), QStringLiteral("serving")},
                   {QStringLiteral("url"), url},
                   {QStringLiteral("listen"), bound.text()},
                   {QStringLiteral("loopback_only"), bound.loopback},
                   {QStringLiteral("pools"), pools},
                   {QStringLiteral("server"), endpoint.toDisplayString()},
                   {QStringLiteral("threads"), kExporterThreads},
                   {QStringLiteral("request_timeout_ms"), kExporterRequestTimeoutMs}});
    } else {
        m_out << "serving " << url << " for " << options.keys.size()
              << (options.keys.size() == 1 ? " pool" : " pools") << " of "
              << endpoint.toDisplayString() << '\n';
    }
    m_out.flush();
    if (!bound.loopback) {
        // Asked for with --listen, but worth saying: anyone who reaches this address can scrape.
        m_err << "poolscope-cli: listening beyond loopback on " << bound.text()
              << ": the metrics (pool names, member counts) are served to other machines\n";
        m_err.flush();
    }

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
    if (m_json)
        printJson({{QStringLiteral("event"), QStringLiteral("stopped")}});
    else
        m_err << "poolscope-cli: exporter stopped\n";
    return stopExitCode();
}

} // namespace poolscope::cli
