#include "endpoint/Endpoint.h"

#include <QUrl>

#include <algorithm>
#include <limits>

namespace poolscope {

namespace {

constexpr int kMinPort = 1;
constexpr int kMaxPort = 65535;
constexpr int kDefaultSentinelPort = 26379;
constexpr auto kMaskedPassword = "****";

EndpointParseResult failure(const QString &message) {
    return {std::nullopt, message};
}

QString percentDecoded(const QString &text) {
    return QUrl::fromPercentEncoding(text.toUtf8());
}

// Encodes everything except RFC 3986 "unreserved" characters (and keepAsIs), so that ':', '@',
// '/', '?', '%' inside user names and passwords cannot be mistaken for URL delimiters.
QString percentEncoded(const QString &text, const QByteArray &keepAsIs = {}) {
    return QString::fromLatin1(QUrl::toPercentEncoding(text, keepAsIs));
}

bool isAsciiDigit(QChar character) {
    return character >= u'0' && character <= u'9';
}

bool isAsciiAlphaNumeric(QChar character) {
    return isAsciiDigit(character) || (character >= u'a' && character <= u'z') ||
           (character >= u'A' && character <= u'Z');
}

bool isAsciiHexDigit(QChar character) {
    return isAsciiDigit(character) || (character >= u'a' && character <= u'f') ||
           (character >= u'A' && character <= u'F');
}

// Plain digits only: QString::toLongLong() alone would also accept "+5" and surrounding spaces.
bool isDigitsOnly(const QString &text) {
    if (text.isEmpty())
        return false;
    for (const QChar character : text) {
        if (!isAsciiDigit(character))
            return false;
    }
    return true;
}

bool isValidHostName(const QString &host) {
    // Deliberately permissive (underscores appear in container/compose service names); the
    // resolver decides whether the name exists.
    for (const QChar character : host) {
        if (!isAsciiAlphaNumeric(character) && character != u'.' && character != u'-' &&
            character != u'_')
            return false;
    }
    return true;
}

bool isValidIpv6Address(const QString &address) {
    // Loose check: hex groups, ':' and '.' (IPv4-mapped tail), optionally a "%zone" suffix.
    const qsizetype zoneStart = address.indexOf(u'%');
    const QString groups = zoneStart < 0 ? address : address.left(zoneStart);
    if (!groups.contains(u':'))
        return false;
    for (const QChar character : groups) {
        if (!isAsciiHexDigit(character) && character != u':' && character != u'.')
            return false;
    }
    if (zoneStart >= 0) {
        const QString zone = address.mid(zoneStart + 1);
        return !zone.isEmpty() && isValidHostName(zone);
    }
    return true;
}

// Each parse* helper returns an error message, or an empty string on success.

QString parsePort(const QString &text, int &port) {
    if (text.isEmpty())
        return QStringLiteral("port is empty");
    const bool isNegative = text.startsWith(u'-');
    if (!isDigitsOnly(isNegative ? text.mid(1) : text))
        return QStringLiteral("port \"%1\" is not a number").arg(text);
    bool fitsInteger = false;
    const qlonglong value = text.toLongLong(&fitsInteger);
    if (!fitsInteger || value < kMinPort || value > kMaxPort)
        return QStringLiteral("port %1 is out of range %2-%3")
            .arg(text)
            .arg(kMinPort)
            .arg(kMaxPort);
    port = static_cast<int>(value);
    return {};
}

QString parseDatabase(const QString &text, int &database) {
    const bool isNegative = text.startsWith(u'-');
    if (!isDigitsOnly(isNegative ? text.mid(1) : text))
        return QStringLiteral("database \"%1\" is not a number").arg(text);
    if (isNegative)
        return QStringLiteral("database %1 is negative").arg(text);
    bool fitsInteger = false;
    const qlonglong value = text.toLongLong(&fitsInteger);
    if (!fitsInteger || value > std::numeric_limits<int>::max())
        return QStringLiteral("database %1 is out of range 0-%2")
            .arg(text)
            .arg(std::numeric_limits<int>::max());
    database = static_cast<int>(value);
    return {};
}

// The only query parameter understood is db=N (common in client libraries, and the only way to
// give a database for unix:// URLs).
QString parseQuery(const QString &query, std::optional<int> &database) {
    const QStringList parameters = query.split(u'&', Qt::SkipEmptyParts);
    for (const QString &parameter : parameters) {
        const qsizetype equalsIndex = parameter.indexOf(u'=');
        const QString name = equalsIndex < 0 ? parameter : parameter.left(equalsIndex);
        const QString value = equalsIndex < 0 ? QString() : parameter.mid(equalsIndex + 1);
        if (name != QLatin1String("db"))
            return QStringLiteral("unsupported query parameter \"%1\" (only db=N is supported)")
                .arg(name);
        if (database.has_value())
            return QStringLiteral("database is given twice (?db= repeated)");
        int parsedDatabase = 0;
        if (QString error = parseDatabase(value, parsedDatabase); !error.isEmpty())
            return error;
        database = parsedDatabase;
    }
    return {};
}

void applyUserInfo(const QString &userInfo, Endpoint &endpoint) {
    // Split at the first ':' so that an unencoded ':' inside the password still works.
    const qsizetype colonIndex = userInfo.indexOf(u':');
    if (colonIndex < 0) {
        endpoint.username = percentDecoded(userInfo);
        return;
    }
    endpoint.username = percentDecoded(userInfo.left(colonIndex));
    endpoint.password = percentDecoded(userInfo.mid(colonIndex + 1));
}

// Splits "rest?query" and returns the query (without '?').
QString takeQuery(QString &rest) {
    const qsizetype queryStart = rest.indexOf(u'?');
    if (queryStart < 0)
        return {};
    const QString query = rest.mid(queryStart + 1);
    rest.truncate(queryStart);
    return query;
}

QString parseHostAndPort(const QString &hostAndPort, Endpoint &endpoint) {
    if (hostAndPort.isEmpty())
        return QStringLiteral("missing host");

    QString portText;
    bool hasPort = false;
    if (hostAndPort.startsWith(u'[')) {
        const qsizetype closingIndex = hostAndPort.indexOf(u']');
        if (closingIndex < 0)
            return QStringLiteral("unterminated \"[\" in host \"%1\"").arg(hostAndPort);
        const QString address = hostAndPort.mid(1, closingIndex - 1);
        if (address.isEmpty())
            return QStringLiteral("missing host (empty brackets)");
        if (!isValidIpv6Address(address))
            return QStringLiteral("\"%1\" is not a valid IPv6 address").arg(address);
        const QString afterAddress = hostAndPort.mid(closingIndex + 1);
        if (!afterAddress.isEmpty()) {
            if (!afterAddress.startsWith(u':'))
                return QStringLiteral("unexpected \"%1\" after IPv6 address [%2]")
                    .arg(afterAddress, address);
            portText = afterAddress.mid(1);
            hasPort = true;
        }
        endpoint.host = address;
    } else {
        const qsizetype colonCount = hostAndPort.count(u':');
        if (colonCount > 1)
            return QStringLiteral("host \"%1\" looks like an IPv6 address; put it in brackets, "
                                  "e.g. redis://[::1]:6379")
                .arg(hostAndPort);
        const qsizetype colonIndex = hostAndPort.indexOf(u':');
        const QString host = colonIndex < 0 ? hostAndPort : hostAndPort.left(colonIndex);
        if (host.isEmpty())
            return QStringLiteral("missing host");
        if (!isValidHostName(host))
            return QStringLiteral("host \"%1\" contains invalid characters").arg(host);
        if (colonIndex >= 0) {
            portText = hostAndPort.mid(colonIndex + 1);
            hasPort = true;
        }
        endpoint.host = host;
    }

    if (hasPort)
        return parsePort(portText, endpoint.port);
    return {};
}

// rest = everything after "redis://"
EndpointParseResult parseTcpEndpoint(QString rest) {
    Endpoint endpoint;

    // Host, port, path and query never contain '@', so the last '@' ends the user info; this also
    // accepts passwords with unencoded '@', '/', '?' or ':'.
    const qsizetype userInfoEnd = rest.lastIndexOf(u'@');
    if (userInfoEnd >= 0) {
        applyUserInfo(rest.left(userInfoEnd), endpoint);
        rest = rest.mid(userInfoEnd + 1);
    }

    const QString query = takeQuery(rest);
    const qsizetype pathStart = rest.indexOf(u'/');
    const QString hostAndPort = pathStart < 0 ? rest : rest.left(pathStart);
    const QString path = pathStart < 0 ? QString() : rest.mid(pathStart); // with leading '/'

    if (QString error = parseHostAndPort(hostAndPort, endpoint); !error.isEmpty())
        return failure(error);

    std::optional<int> pathDatabase;
    if (path.size() > 1) {
        QString databaseText = path.mid(1);
        const qsizetype extraStart = databaseText.indexOf(u'/');
        const QString extra = extraStart < 0 ? QString() : databaseText.mid(extraStart);
        if (extraStart >= 0)
            databaseText.truncate(extraStart);
        int database = 0;
        if (QString error = parseDatabase(databaseText, database); !error.isEmpty())
            return failure(error);
        if (!extra.isEmpty())
            return failure(
                QStringLiteral("unexpected \"%1\" after database %2").arg(extra, databaseText));
        pathDatabase = database;
    }

    std::optional<int> queryDatabase;
    if (QString error = parseQuery(query, queryDatabase); !error.isEmpty())
        return failure(error);
    if (pathDatabase && queryDatabase)
        return failure(QStringLiteral("database is given twice (in the path and as ?db=)"));

    endpoint.database = pathDatabase.value_or(queryDatabase.value_or(0));
    return {endpoint, {}};
}

// rest = everything after "unix://"
EndpointParseResult parseUnixEndpoint(QString rest) {
    Endpoint endpoint;
    endpoint.transport = Endpoint::Transport::UnixSocket;

    // unix://user:pass@/path : the user info ends at the "@/" that starts the path. Searching for
    // the first one keeps socket paths containing "@/" working (our own URLs encode '@' in the
    // user info).
    if (!rest.startsWith(u'/')) {
        const qsizetype userInfoEnd = rest.indexOf(QLatin1String("@/"));
        if (userInfoEnd >= 0) {
            applyUserInfo(rest.left(userInfoEnd), endpoint);
            rest = rest.mid(userInfoEnd + 1);
        }
    }

    const QString query = takeQuery(rest);
    if (rest.isEmpty() || rest == QLatin1String("/"))
        return failure(
            QStringLiteral("unix socket path is empty (expected unix:///path/to/socket)"));
    if (!rest.startsWith(u'/')) {
        // Do not echo anything that may contain a password.
        if (rest.contains(u'@'))
            return failure(QStringLiteral("unix socket path is missing after the user info "
                                          "(expected unix://user:password@/path/to/socket)"));
        const QString hostPart = rest.left(rest.indexOf(u'/'));
        return failure(QStringLiteral("unix URL must not have a host (\"%1\"); expected "
                                      "unix:///path/to/socket")
                           .arg(hostPart));
    }
    endpoint.socketPath = percentDecoded(rest);

    std::optional<int> queryDatabase;
    if (QString error = parseQuery(query, queryDatabase); !error.isEmpty())
        return failure(error);
    endpoint.database = queryDatabase.value_or(0);
    return {endpoint, {}};
}

// rest = everything after "redis+sentinel://": [user[:password]@]s1[:port],s2[:port]/NAME[/db].
// The user info is for the primary (and its replicas); sentinels get Endpoint::sentinelPassword.
EndpointParseResult parseSentinelEndpoint(QString rest) {
    Endpoint endpoint;
    endpoint.topology = Endpoint::Topology::Sentinel;
    const qsizetype userInfoEnd = rest.lastIndexOf(u'@');
    if (userInfoEnd >= 0) {
        applyUserInfo(rest.left(userInfoEnd), endpoint);
        rest = rest.mid(userInfoEnd + 1);
    }
    if (rest.contains(u'?'))
        return failure(QStringLiteral("a sentinel URL takes no query (the database goes after "
                                      "the master name: /MASTER_NAME/db)"));
    const qsizetype pathStart = rest.indexOf(u'/');
    const QString seedList = pathStart < 0 ? rest : rest.left(pathStart);
    const QStringList path = pathStart < 0 ? QStringList() : rest.mid(pathStart + 1).split(u'/');
    for (const QString &seedText : seedList.split(u',')) {
        Endpoint seed;
        seed.port = kDefaultSentinelPort;
        if (QString error = parseHostAndPort(seedText, seed); !error.isEmpty())
            return failure(
                QStringLiteral("sentinel %1: %2").arg(endpoint.seeds.size() + 1).arg(error));
        endpoint.seeds.append({seed.host, seed.port});
    }
    if (path.isEmpty() || path.first().isEmpty())
        return failure(QStringLiteral("missing master name (expected "
                                      "redis+sentinel://s1:26379,s2:26379/MASTER_NAME[/db])"));
    endpoint.masterName = percentDecoded(path.first());
    if (path.size() > 2)
        return failure(QStringLiteral("unexpected \"/%1\" after database %2")
                           .arg(path.mid(2).join(u'/'), path.at(1)));
    if (path.size() == 2 && !path.at(1).isEmpty()) {
        if (QString error = parseDatabase(path.at(1), endpoint.database); !error.isEmpty())
            return failure(error);
    }
    // host/port hold the primary in use once resolved; until then, the first sentinel.
    endpoint.host = endpoint.seeds.first().host;
    endpoint.port = endpoint.seeds.first().port;
    return {endpoint, {}};
}

// rest = everything after "redis+cluster://": user info, then seeds "host[:port],host[:port]...",
// then an optional "/0" or "?db=0" (Redis Cluster has database 0 only).
EndpointParseResult parseClusterEndpoint(QString rest) {
    QString userInfo;
    const qsizetype userInfoEnd = rest.lastIndexOf(u'@');
    if (userInfoEnd >= 0) {
        userInfo = rest.left(userInfoEnd + 1);
        rest = rest.mid(userInfoEnd + 1);
    }
    const qsizetype seedsEnd = [&rest] {
        const qsizetype slash = rest.indexOf(u'/');
        const qsizetype question = rest.indexOf(u'?');
        if (slash < 0)
            return question < 0 ? rest.size() : question;
        return question < 0 ? slash : std::min(slash, question);
    }();
    const QStringList seedTexts = rest.left(seedsEnd).split(u',');
    // The first seed with the user info, path and query is an ordinary redis:// URL.
    EndpointParseResult result =
        parseTcpEndpoint(userInfo + seedTexts.first() + rest.mid(seedsEnd));
    if (!result.endpoint)
        return failure(QStringLiteral("cluster node 1: %1").arg(result.error));
    Endpoint &endpoint = *result.endpoint;
    if (endpoint.database != 0)
        return failure(QStringLiteral("database %1 is not possible in Redis Cluster, which has "
                                      "database 0 only: remove it from the URL")
                           .arg(endpoint.database));
    endpoint.topology = Endpoint::Topology::Cluster;
    for (qsizetype i = 0; i < seedTexts.size(); ++i) {
        Endpoint seed;
        if (QString error = parseHostAndPort(seedTexts[i], seed); !error.isEmpty())
            return failure(QStringLiteral("cluster node %1: %2").arg(i + 1).arg(error));
        endpoint.seeds.append({seed.host, seed.port});
    }
    return result;
}

enum class PasswordMode { Include, Mask, Omit };

QString hostText(const QString &host) {
    // IPv6 addresses need brackets so that their ':' is not read as the port separator.
    return host.contains(u':') ? QString(u'[' + host + u']') : host;
}

QString buildUrl(const Endpoint &endpoint, PasswordMode passwordMode) {
    const bool writePassword = !endpoint.password.isEmpty() && passwordMode != PasswordMode::Omit;
    QString userInfo;
    if (!endpoint.username.isEmpty() || writePassword) {
        userInfo = percentEncoded(endpoint.username);
        if (writePassword) {
            userInfo += u':';
            userInfo += passwordMode == PasswordMode::Mask ? QString::fromLatin1(kMaskedPassword)
                                                           : percentEncoded(endpoint.password);
        }
        userInfo += u'@';
    }

    if (endpoint.transport == Endpoint::Transport::UnixSocket) {
        return QStringLiteral("unix://") + userInfo + percentEncoded(endpoint.socketPath, "/") +
               QStringLiteral("?db=") + QString::number(endpoint.database);
    }

    if (endpoint.topology == Endpoint::Topology::Sentinel) {
        QStringList seeds;
        for (const NodeAddress &seed : endpoint.seeds)
            seeds.append(hostText(seed.host) + u':' + QString::number(seed.port));
        const QString scheme = endpoint.tls.enabled ? QStringLiteral("rediss+sentinel://")
                                                    : QStringLiteral("redis+sentinel://");
        return scheme + userInfo + seeds.join(u',') + u'/' + percentEncoded(endpoint.masterName) +
               u'/' + QString::number(endpoint.database);
    }
    if (endpoint.topology == Endpoint::Topology::Cluster && !endpoint.seeds.isEmpty()) {
        QStringList seeds;
        for (const NodeAddress &seed : endpoint.seeds)
            seeds.append(hostText(seed.host) + u':' + QString::number(seed.port));
        return (endpoint.tls.enabled ? QStringLiteral("rediss+cluster://")
                                     : QStringLiteral("redis+cluster://")) +
               userInfo + seeds.join(u',');
    }

    const QString hostPart = hostText(endpoint.host);
    const QString scheme = endpoint.tls.enabled ? QStringLiteral("rediss://") // TLS
                                                : QStringLiteral("redis://");
    return scheme + userInfo + hostPart + u':' + QString::number(endpoint.port) + u'/' +
           QString::number(endpoint.database);
}

} // namespace

QString Endpoint::toUrl() const {
    return buildUrl(*this, PasswordMode::Include);
}

QString Endpoint::toDisplayString() const {
    return buildUrl(*this, PasswordMode::Mask);
}

QString Endpoint::toSafeUrl() const {
    return buildUrl(*this, PasswordMode::Omit);
}

EndpointParseResult parseEndpoint(const QString &url) {
    const QString trimmedUrl = url.trimmed();
    if (trimmedUrl.isEmpty())
        return failure(QStringLiteral("URL is empty (expected redis://host:port/db or "
                                      "unix:///path/to/socket)"));

    // The whole URL is never quoted in errors: it may contain a password.
    const qsizetype schemeEnd = trimmedUrl.indexOf(QLatin1String("://"));
    if (schemeEnd <= 0)
        return failure(QStringLiteral("missing scheme (expected redis:// or unix://)"));

    QString scheme = trimmedUrl.left(schemeEnd).toLower();
    const QString rest = trimmedUrl.mid(schemeEnd + 3);
    // Valkey's clients spell the same URLs valkey:// and valkeys://.
    if (scheme == QLatin1String("valkey"))
        scheme = QStringLiteral("redis");
    else if (scheme == QLatin1String("valkeys"))
        scheme = QStringLiteral("rediss");
    if (scheme == QLatin1String("redis"))
        return parseTcpEndpoint(rest);
    if (scheme == QLatin1String("unix"))
        return parseUnixEndpoint(rest);
    if (scheme == QLatin1String("redis+sentinel") || scheme == QLatin1String("rediss+sentinel")) {
        EndpointParseResult result = parseSentinelEndpoint(rest); // src/topology resolves it
        if (result.endpoint)
            result.endpoint->tls.enabled = scheme.startsWith(QLatin1String("rediss"));
        return result;
    }
    if (scheme == QLatin1String("redis+cluster") || scheme == QLatin1String("rediss+cluster")) {
        EndpointParseResult result = parseClusterEndpoint(rest);
        if (result.endpoint)
            result.endpoint->tls.enabled = scheme.startsWith(QLatin1String("rediss"));
        return result;
    }
    if (scheme == QLatin1String("rediss")) { // TLS (src/transport)
        EndpointParseResult result = parseTcpEndpoint(rest);
        if (result.endpoint)
            result.endpoint->tls.enabled = true;
        return result;
    }
    return failure(QStringLiteral("unsupported scheme \"%1\" (expected redis://, rediss://, "
                                  "redis+sentinel://, redis+cluster://, unix://, or valkey:// "
                                  "and valkeys:// for redis:// and rediss://)")
                       .arg(trimmedUrl.left(schemeEnd)));
}

QString defaultRedisUrl() {
    const QString fromEnvironment = qEnvironmentVariable("REDIS_URL").trimmed();
    return fromEnvironment.isEmpty() ? QStringLiteral("redis://127.0.0.1:6379/0") : fromEnvironment;
}

} // namespace poolscope
