#include "export/PrometheusExporter.h"

#include "base/RedisError.h"
#include "export/MetricLabels.h"
#include "export/PoolMetrics.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include <arpa/inet.h>

#include <QDateTime>

#include <CivetServer.h>
#include <prometheus/collectable.h>
#include <prometheus/exposer.h>
#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

namespace poolscope {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

MetricFamily gaugeFamily(const char *name, const char *help) {
    MetricFamily family;
    family.name = name;
    family.help = help;
    family.type = MetricType::Gauge;
    return family;
}

ClientMetric gauge(double value, std::vector<ClientMetric::Label> labels = {}) {
    ClientMetric metric;
    metric.label = std::move(labels);
    metric.gauge.value = value;
    return metric;
}

// The families in the order they are served; each scrape fills them from scratch.
struct Families {
    MetricFamily up = gaugeFamily("poolscope_up", "1 when the last scrape reached Redis, else 0.");
    MetricFamily duration = gaugeFamily("poolscope_scrape_duration_seconds",
                                        "Wall time of the last scrape's Redis reads, in seconds.");
    MetricFamily poolUp =
        gaugeFamily("poolscope_pool_up", "1 when the pool could be read in this scrape, else 0.");
    MetricFamily info = gaugeFamily(
        "poolscope_pool_info",
        "How the pool is read: read_mode full (every member) or summary (by rank, totals from a "
        "background scan); member_series exported, or omitted above the member limit.");
    MetricFamily members = gaugeFamily("poolscope_pool_members", "Members in the pool.");
    MetricFamily evicted =
        gaugeFamily("poolscope_pool_evicted_members", "Members evicted, with their saved counts.");
    MetricFamily allocations = gaugeFamily(
        "poolscope_pool_allocations",
        "Sum of the members' counts (a gauge: eviction and resets lower it). In summary mode from "
        "the last complete background scan.");
    MetricFamily minimum =
        gaugeFamily("poolscope_pool_min_allocations", "Lowest member count in the pool.");
    MetricFamily median =
        gaugeFamily("poolscope_pool_median_allocations", "Median member count in the pool.");
    MetricFamily maximum =
        gaugeFamily("poolscope_pool_max_allocations", "Highest member count in the pool.");
    MetricFamily spread =
        gaugeFamily("poolscope_pool_spread_allocations", "Highest minus lowest member count.");
    MetricFamily jain = gaugeFamily("poolscope_pool_jain_fairness_ratio",
                                    "Jain's fairness index of the counts, 1/n to 1 (1 = fair).");
    MetricFamily rate =
        gaugeFamily("poolscope_pool_allocation_rate",
                    "Allocations per second since the previous scrape, from the members' count "
                    "rises (full read mode only).");
    MetricFamily scanProgress =
        gaugeFamily("poolscope_pool_totals_scan_progress_ratio",
                    "Share of the current background scan done (summary read mode), 0 to 1.");
    MetricFamily guardLease =
        gaugeFamily("poolscope_pool_guard_lease_held",
                    "1 while a guard holds the pool's lease (one guard acts on a pool), else 0.");
    MetricFamily memberCount = gaugeFamily(
        "poolscope_member_allocations",
        "A member's allocation count (pools up to the member limit only; credentials masked).");

    std::vector<MetricFamily> all() && {
        return {std::move(up),          std::move(duration),     std::move(poolUp),
                std::move(info),        std::move(members),      std::move(evicted),
                std::move(allocations), std::move(minimum),      std::move(median),
                std::move(maximum),     std::move(spread),       std::move(jain),
                std::move(rate),        std::move(scanProgress), std::move(guardLease),
                std::move(memberCount)};
    }
};

void addPool(Families &f, const PoolMetrics &m) {
    const std::string pool = metricLabelValue(m.key);
    const ClientMetric::Label poolLabel{"pool", pool};
    f.poolUp.metric.push_back(gauge(1, {poolLabel}));
    f.info.metric.push_back(
        gauge(1, {poolLabel,
                  {"read_mode", m.mode == PoolMetrics::ReadMode::Full ? "full" : "summary"},
                  {"member_series", m.memberSeriesExported ? "exported" : "omitted"}}));
    f.members.metric.push_back(gauge(double(m.members), {poolLabel}));
    f.evicted.metric.push_back(gauge(double(m.evicted), {poolLabel}));
    if (m.total)
        f.allocations.metric.push_back(gauge(*m.total, {poolLabel}));
    if (m.members > 0) {
        f.minimum.metric.push_back(gauge(m.min, {poolLabel}));
        f.median.metric.push_back(gauge(m.median, {poolLabel}));
        f.maximum.metric.push_back(gauge(m.max, {poolLabel}));
        f.spread.metric.push_back(gauge(m.max - m.min, {poolLabel}));
    }
    if (m.jainIndex)
        f.jain.metric.push_back(gauge(*m.jainIndex, {poolLabel}));
    if (m.allocationRate)
        f.rate.metric.push_back(gauge(*m.allocationRate, {poolLabel}));
    if (m.mode == PoolMetrics::ReadMode::Summary)
        f.scanProgress.metric.push_back(gauge(m.scanProgress, {poolLabel}));
    if (m.guardLeaseHeld)
        f.guardLease.metric.push_back(gauge(*m.guardLeaseHeld ? 1 : 0, {poolLabel}));
    for (const PoolMember &member : m.memberCounts)
        f.memberCount.metric.push_back(
            gauge(member.count, {poolLabel, {"member", metricMemberLabel(member.member)}}));
}

// civetweb says why it cannot start only through its log callback, on the starting thread.
thread_local std::string t_serverMessage;

int keepServerMessage(const struct mg_connection *, const char *message) {
    // "cannot bind to ...: 98 (Address already in use)" comes first, then "Failed to setup
    // server ports": keep them all.
    if (message && *message && t_serverMessage.size() < 1000) // bounded on the worker threads
        t_serverMessage += (t_serverMessage.empty() ? "" : "; ") + std::string(message);
    return 1; // handled: civetweb prints nothing itself
}

} // namespace

QString ListenAddress::text() const {
    return (ipv6 ? QLatin1Char('[') + host + QLatin1Char(']') : host) + QLatin1Char(':') +
           QString::number(port);
}

ListenParseResult parseListenAddress(const QString &text) {
    const auto failure = [&text](const QString &why) {
        return ListenParseResult{std::nullopt,
                                 QStringLiteral("--listen \"%1\": %2").arg(text, why)};
    };
    const QString trimmed = text.trimmed();
    if (trimmed.contains(QLatin1Char(',')) || trimmed.contains(QLatin1Char(' ')))
        return failure(QStringLiteral("give one address, HOST:PORT"));
    const qsizetype colon = trimmed.lastIndexOf(QLatin1Char(':'));
    if (colon < 0)
        return failure(QStringLiteral("expected HOST:PORT, e.g. 127.0.0.1:9750"));
    ListenAddress address;
    QString host = trimmed.left(colon);
    const QString portText = trimmed.mid(colon + 1);
    bool ok = false;
    const int port = portText.toInt(&ok);
    if (portText.isEmpty() || !ok || port < 0 || port > 65535 ||
        !std::all_of(portText.begin(), portText.end(), [](QChar c) { return c.isDigit(); }))
        return failure(QStringLiteral("the port must be a number from 0 (any free port) to 65535"));
    address.port = port;
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) {
        host = host.mid(1, host.size() - 2);
        in6_addr v6{};
        if (inet_pton(AF_INET6, host.toLatin1().constData(), &v6) != 1)
            return failure(QStringLiteral("\"%1\" is not an IPv6 address").arg(host));
        address.ipv6 = true;
        address.loopback = IN6_IS_ADDR_LOOPBACK(&v6);
    } else if (host.contains(QLatin1Char(':'))) {
        return failure(QStringLiteral("an IPv6 address goes in brackets, e.g. [::1]:9750"));
    } else {
        if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
            host = QStringLiteral("127.0.0.1");
        in_addr v4{};
        // inet_pton takes only the dotted quad (no "1", no octal, no host names).
        if (inet_pton(AF_INET, host.toLatin1().constData(), &v4) != 1)
            return failure(QStringLiteral("\"%1\" is not an IPv4 address (or [IPv6], or localhost)")
                               .arg(host));
        address.loopback = (ntohl(v4.s_addr) >> 24) == 127;
    }
    address.host = host;
    return ListenParseResult{address, {}};
}

class PrometheusExporter::Collector final : public prometheus::Collectable {
public:
    Collector(const Endpoint &endpoint, const ConnectionOptions &connection,
              const ExporterOptions &options)
        : m_endpoint(endpoint)
        , m_connectionOptions(connection) {
        for (const QByteArray &key : options.keys)
            m_readers.emplace(
                key, PoolMetricsReader(key, options.memberLimit, options.scanPagesPerScrape));
    }

    std::vector<MetricFamily> Collect() const override {
        const std::lock_guard lock(m_mutex);
        return collectLocked();
    }

    void setLogger(std::function<void(const QString &)> logger) {
        const std::lock_guard lock(m_mutex);
        m_logger = std::move(logger);
    }

private:
    std::vector<MetricFamily> collectLocked() const {
        Families families;
        const auto started = std::chrono::steady_clock::now();
        bool up = false;
        for (int attempt = 0; attempt < 2 && !up; ++attempt) {
            try {
                if (!m_connection || m_connection->isBroken())
                    m_connection = RedisConnection::open(m_endpoint, m_connectionOptions);
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                for (auto &[key, reader] : m_readers)
                    readPool(families, key, reader, now);
                up = true;
            } catch (const RedisError &e) {
                families = Families{}; // no half scrape: pools read before the loss go too
                // Closed by the server's `timeout` between scrapes: a scrape only reads, so it
                // runs once more on a fresh connection; down only if that fails too.
                const bool idleClose = attempt == 0 && m_connection &&
                                       e.kind() == RedisError::Kind::Connection &&
                                       m_connection->closedWhileIdle();
                m_connection.reset();
                if (idleClose)
                    continue;
                report(QStringLiteral("Redis at %1 unreachable: %2")
                           .arg(m_endpoint.toDisplayString(), e.message()));
                break;
            }
        }
        if (up && m_wasDown)
            report(QStringLiteral("Redis at %1 reachable again").arg(m_endpoint.toDisplayString()));
        m_wasDown = !up;
        families.up.metric.push_back(gauge(up ? 1 : 0));
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
        families.duration.metric.push_back(gauge(took.count()));
        return std::move(families).all();
    }

    // A pool that cannot be read (wrong type, no permission) is reported as down on its own;
    // a lost connection ends the scrape.
    void readPool(Families &families, const QByteArray &key, PoolMetricsReader &reader,
                  qint64 now) const {
        try {
            addPool(families, reader.read(*m_connection, now));
        } catch (const RedisError &e) {
            if (e.connectionLost())
                throw;
            families.poolUp.metric.push_back(gauge(0, {{"pool", metricLabelValue(key)}}));
            report(e.message());
        }
    }

    void report(const QString &line) const {
        if (m_logger && line != m_lastReport)
            m_logger(line);
        m_lastReport = line;
    }

    Endpoint m_endpoint;
    ConnectionOptions m_connectionOptions;
    mutable std::mutex m_mutex;
    mutable std::unique_ptr<RedisConnection> m_connection;
    mutable std::map<QByteArray, PoolMetricsReader> m_readers;
    mutable bool m_wasDown = false;
    mutable QString m_lastReport;
    std::function<void(const QString &)> m_logger;
};

struct PrometheusExporter::Server {
    std::unique_ptr<prometheus::Exposer> exposer;
};

PrometheusExporter::PrometheusExporter(const Endpoint &endpoint,
                                       const ConnectionOptions &connection,
                                       const ExporterOptions &options)
    : m_collector(std::make_shared<Collector>(endpoint, connection, options))
    , m_server(std::make_unique<Server>())
    , m_listen(options.listen) {}

PrometheusExporter::~PrometheusExporter() = default;

void PrometheusExporter::start() {
    const ListenParseResult parsed = parseListenAddress(m_listen);
    if (!parsed.address)
        throw std::runtime_error(parsed.error.toStdString());
    const QString address = parsed.address->text();
    constexpr unsigned kCivetwebIpv6 = 8; // mg_check_feature(): "IPv6 supported"
    if (parsed.address->ipv6 && !mg_check_feature(kCivetwebIpv6))
        throw std::runtime_error(QStringLiteral("cannot listen on %1: this build's HTTP server "
                                                "(civetweb) has no IPv6; give an IPv4 address, "
                                                "e.g. 127.0.0.1:%2")
                                     .arg(address)
                                     .arg(parsed.address->port)
                                     .toStdString());
    // Several workers, a deadline for each request and a bounded queue: an idle or slow client
    // holds one worker for at most the timeout, and scrapes go on beside it.
    const std::vector<std::string> options = {
        "listening_ports",    address.toStdString(),
        "num_threads",        std::to_string(kExporterThreads),
        "request_timeout_ms", std::to_string(kExporterRequestTimeoutMs),
        "connection_queue",   std::to_string(kExporterConnectionQueue),
        "enable_keep_alive",  "no",
    };
    CivetCallbacks callbacks;
    callbacks.log_message = keepServerMessage;
    t_serverMessage.clear();
    try {
        m_server->exposer = std::make_unique<prometheus::Exposer>(options, &callbacks);
    } catch (const std::exception &e) {
        // civetweb's own reason ("cannot bind to ...: 98 (Address already in use)") when it gave
        // one; its exception says only "null context when constructing CivetServer".
        const QString reason = QString::fromStdString(t_serverMessage).trimmed();
        throw std::runtime_error(
            QStringLiteral("cannot listen on %1: %2")
                .arg(address, reason.isEmpty() ? QString::fromUtf8(e.what()) : reason)
                .toStdString());
    }
    m_server->exposer->RegisterCollectable(m_collector);
}

int PrometheusExporter::port() const {
    if (!m_server->exposer)
        return 0;
    const std::vector<int> ports = m_server->exposer->GetListeningPorts();
    return ports.empty() ? 0 : ports.front();
}

std::string PrometheusExporter::scrapeText() {
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, m_collector->Collect());
    return out.str();
}

void PrometheusExporter::setLogger(std::function<void(const QString &)> logger) {
    m_collector->setLogger(std::move(logger));
}

} // namespace poolscope
