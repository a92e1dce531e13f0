#include "recording/RecordingTypes.h"

#include <algorithm>
#include <tuple>

#include <QCryptographicHash>
#include <QDir>
#include <QStandardPaths>

namespace poolscope {

namespace {

struct KindName {
    RecordingEventKind kind;
    const char *name;
};

constexpr KindName kKindNames[] = {
    {RecordingEventKind::Seed, "seed"},         {RecordingEventKind::Evict, "evict"},
    {RecordingEventKind::Restore, "restore"},   {RecordingEventKind::Forecast, "forecast"},
    {RecordingEventKind::Failover, "failover"}, {RecordingEventKind::Reconnect, "reconnect"},
    {RecordingEventKind::Gap, "gap"},           {RecordingEventKind::Note, "note"},
};

// Letters, digits, '.', '-' and '_' kept; every run of anything else becomes one '_'.
QString safePart(const QString &text, int maxLength) {
    QString safe;
    for (const QChar c : text) {
        const bool keep = (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
                          (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) ||
                          (c >= QLatin1Char('0') && c <= QLatin1Char('9')) ||
                          c == QLatin1Char('.') || c == QLatin1Char('-') || c == QLatin1Char('_');
        if (keep)
            safe.append(c);
        else if (!safe.endsWith(QLatin1Char('_')))
            safe.append(QLatin1Char('_'));
    }
    while (safe.startsWith(QLatin1Char('.')) || safe.startsWith(QLatin1Char('_')))
        safe.remove(0, 1);
    return safe.left(maxLength);
}

// The server as a recording names it: where it is, never who logs in or with what password.
QString serverIdentity(const Endpoint &endpoint) {
    QString where;
    if (endpoint.topology != Endpoint::Topology::Direct && !endpoint.masterName.isEmpty())
        where = endpoint.masterName;
    else if (endpoint.transport == Endpoint::Transport::UnixSocket)
        where = endpoint.socketPath;
    else
        where = endpoint.host + QLatin1Char('-') + QString::number(endpoint.port);
    if (endpoint.topology == Endpoint::Topology::Cluster && !endpoint.seeds.isEmpty())
        where = endpoint.seeds.first().host + QLatin1Char('-') +
                QString::number(endpoint.seeds.first().port);
    return where + QStringLiteral("-db") + QString::number(endpoint.database);
}

} // namespace

RecordingTiers defaultRecordingTiers() {
    return {RecordingTier{1000, 3'600'000}, RecordingTier{10'000, 86'400'000},
            RecordingTier{300'000, 30LL * 86'400'000}};
}

QString recordingEventKindName(RecordingEventKind kind) {
    for (const KindName &entry : kKindNames)
        if (entry.kind == kind)
            return QString::fromLatin1(entry.name);
    return QStringLiteral("note");
}

std::optional<RecordingEventKind> parseRecordingEventKind(const QString &name) {
    for (const KindName &entry : kKindNames)
        if (name == QLatin1String(entry.name))
            return entry.kind;
    return std::nullopt;
}

bool RecordingEvent::breaksLines() const {
    return kind == RecordingEventKind::Gap || kind == RecordingEventKind::Reconnect ||
           kind == RecordingEventKind::Failover;
}

HistoryEvent RecordingEvent::toHistoryEvent() const {
    HistoryEvent event;
    event.timeMs = timeMs;
    event.member = member;
    event.label = label;
    switch (kind) {
    case RecordingEventKind::Seed:
        event.kind = HistoryEvent::Kind::Seed;
        break;
    case RecordingEventKind::Evict:
        event.kind = HistoryEvent::Kind::Evict;
        break;
    case RecordingEventKind::Restore:
        event.kind = HistoryEvent::Kind::Restore;
        break;
    case RecordingEventKind::Gap:
        event.kind = HistoryEvent::Kind::Gap;
        break;
    case RecordingEventKind::Note:
        event.kind = HistoryEvent::Kind::Note;
        break;
    case RecordingEventKind::Forecast:
    case RecordingEventKind::Failover:
    case RecordingEventKind::Reconnect:
        event.kind = breaksLines() ? HistoryEvent::Kind::Gap : HistoryEvent::Kind::Note;
        if (!label.startsWith(recordingEventKindName(kind)))
            event.label = recordingEventKindName(kind) +
                          (label.isEmpty() ? QString() : QStringLiteral(": ") + label);
        break;
    }
    return event;
}

RecordingEvent RecordingEvent::fromHistoryEvent(const HistoryEvent &event) {
    RecordingEvent recorded;
    recorded.timeMs = event.timeMs;
    recorded.member = event.member;
    recorded.label = event.label;
    switch (event.kind) {
    case HistoryEvent::Kind::Seed:
        recorded.kind = RecordingEventKind::Seed;
        break;
    case HistoryEvent::Kind::Evict:
        recorded.kind = RecordingEventKind::Evict;
        break;
    case HistoryEvent::Kind::Restore:
        recorded.kind = RecordingEventKind::Restore;
        break;
    case HistoryEvent::Kind::Gap:
        recorded.kind = RecordingEventKind::Gap;
        break;
    case HistoryEvent::Kind::Note:
        recorded.kind = RecordingEventKind::Note;
        break;
    }
    return recorded;
}

QString recordingServerIdentity(const QString &server) {
    const EndpointParseResult parsed = parseEndpoint(server);
    if (!parsed.ok())
        return server.trimmed();
    Endpoint endpoint = *parsed.endpoint;
    endpoint.username.clear();
    endpoint.password.clear();
    endpoint.sentinelPassword.clear();
    endpoint.tls = TlsOptions();
    endpoint.host = endpoint.host.toLower();
    for (NodeAddress &seed : endpoint.seeds)
        seed.host = seed.host.toLower();
    std::sort(endpoint.seeds.begin(), endpoint.seeds.end(),
              [](const NodeAddress &a, const NodeAddress &b) {
                  return std::tie(a.host, a.port) < std::tie(b.host, b.port);
              });
    return endpoint.toSafeUrl();
}

QString recordingFileName(const Endpoint &endpoint, const QByteArray &poolKey) {
    const QString server = serverIdentity(endpoint);
    QCryptographicHash hash(QCryptographicHash::Sha1);
    hash.addData(server.toUtf8());
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(poolKey);
    const QString shortHash = QString::fromLatin1(hash.result().toHex().left(10));
    QString key = safePart(QString::fromUtf8(poolKey), 60);
    if (key.isEmpty())
        key = QStringLiteral("pool");
    return safePart(server, 60) + QLatin1Char('_') + key + QLatin1Char('_') + shortHash +
           QStringLiteral(".sqlite");
}

QString defaultRecordingDirectory() {
    // The dashboard's AppDataLocation (organization and application "poolscope"), spelled out
    // so that poolscope-cli (another application name) records to the same place.
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return QDir(base).filePath(QStringLiteral("poolscope/poolscope/recordings"));
}

QString defaultRecordingPath(const Endpoint &endpoint, const QByteArray &poolKey) {
    return QDir(defaultRecordingDirectory()).filePath(recordingFileName(endpoint, poolKey));
}

} // namespace poolscope
