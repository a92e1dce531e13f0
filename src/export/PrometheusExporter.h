// Serves pools' figures to Prometheus: /metrics over HTTP (prometheus-cpp), fresh on every scrape.
#pragma once

#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

// The HTTP server: this many worker threads; a client that has not sent its whole request within
// the timeout is dropped, and at most kExporterThreads + kExporterConnectionQueue connections are
// held open (more wait in the kernel's backlog), so idle or slow clients cannot stop scrapes.
constexpr int kExporterThreads = 8;
constexpr int kExporterRequestTimeoutMs = 5000;
constexpr int kExporterConnectionQueue = 32;

// One listening address: an IPv4 address or an IPv6 one in brackets (or "localhost"), and a port
// from 0 (any free one) to 65535.
struct ListenAddress {
    QString host; // as given (brackets removed); "localhost" becomes 127.0.0.1
    int port = 0;
    bool ipv6 = false;
    bool loopback = false; // 127.0.0.0/8 or ::1; anything else is reachable from elsewhere
    QString text() const;  // host:port, [host]:port for IPv6
};
struct ListenParseResult {
    std::optional<ListenAddress> address;
    QString error; // what is wrong, naming the text
};
ListenParseResult parseListenAddress(const QString &text);

struct ExporterOptions {
    QString listen = QStringLiteral("127.0.0.1:9750"); // host:port; port 0 picks a free one
    QList<QByteArray> keys;                            // the pools to export
    qint64 memberLimit = 1000; // per-member series only for pools up to this size
    int scanPagesPerScrape = 50;
};

// Each scrape opens (or reuses) one Redis connection and reads every pool with the poller's
// bounded commands (PoolMetricsReader), then builds the metric families from scratch, so a member
// that left the pool is gone from the next scrape. While Redis cannot be reached the exporter
// keeps serving: poolscope_up 0 and no pool series. Scrapes run on the HTTP server's threads and
// are serialised (one Redis connection, one reader per pool).
class PrometheusExporter {
public:
    PrometheusExporter(const Endpoint &endpoint, const ConnectionOptions &connection,
                       const ExporterOptions &options);
    ~PrometheusExporter();
    PrometheusExporter(const PrometheusExporter &) = delete;
    PrometheusExporter &operator=(const PrometheusExporter &) = delete;

    // Starts listening; throws std::runtime_error naming the address and the reason when it
    // cannot (not one valid address, the port in use, the address not on this machine).
    void start();
    // The port actually listened on (after start()).
    int port() const;
    // One scrape in the text format, exactly as /metrics serves it.
    std::string scrapeText();
    // Called (on a server thread) when Redis becomes unreachable or reachable again, or a pool
    // cannot be read: one line each time the state changes.
    void setLogger(std::function<void(const QString &)> logger);

private:
    class Collector;
    std::shared_ptr<Collector> m_collector;
    struct Server;
    std::unique_ptr<Server> m_server;
    QString m_listen;
};

} // namespace poolscope
