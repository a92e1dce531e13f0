#include "health/HealthTypes.h"

#include <QStringList>
#include <QUrl>

namespace poolscope {
namespace {

struct OutcomeName {
    CheckOutcome outcome;
    const char *name;
};
constexpr OutcomeName kNames[] = {
    {CheckOutcome::Ok, "ok"},
    {CheckOutcome::NotCheckable, "not-checkable"},
    {CheckOutcome::Refused, "refused"},
    {CheckOutcome::TimeoutConnect, "timeout-connect"},
    {CheckOutcome::TimeoutProxy, "timeout-proxy"},
    {CheckOutcome::TimeoutTarget, "timeout-target"},
    {CheckOutcome::ProxyAuthRequired, "proxy-auth"},
    {CheckOutcome::ProxyRefusedTarget, "proxy-refused-target"},
    {CheckOutcome::TlsError, "tls-error"},
    {CheckOutcome::UnexpectedStatus, "unexpected-status"},
    {CheckOutcome::Garbage, "garbage"},
    {CheckOutcome::NetworkError, "network-error"},
};

} // namespace

QString outcomeName(CheckOutcome outcome) {
    for (const OutcomeName &entry : kNames)
        if (entry.outcome == outcome)
            return QLatin1String(entry.name);
    return QStringLiteral("unknown");
}

std::optional<CheckOutcome> parseOutcomeName(const QString &name) {
    for (const OutcomeName &entry : kNames)
        if (name == QLatin1String(entry.name))
            return entry.outcome;
    return std::nullopt;
}

QByteArray CheckTarget::authority() const {
    const QByteArray shownHost = host.contains(':') ? '[' + host + ']' : host;
    return shownHost + ':' + QByteArray::number(port);
}

std::optional<CheckTarget> CheckTarget::parse(const QString &text, QString *error) {
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != u"http" && scheme != u"https") || url.host().isEmpty()) {
        *error =
            QStringLiteral("target \"%1\" is not an http:// or https:// URL with a host").arg(text);
        return std::nullopt;
    }
    if (!url.userInfo().isEmpty()) {
        *error = QStringLiteral("the target URL must not carry credentials");
        return std::nullopt;
    }
    CheckTarget target;
    target.https = scheme == u"https";
    target.host = url.host(QUrl::FullyEncoded).toUtf8();
    if (target.host.startsWith('['))
        target.host = target.host.mid(1, target.host.size() - 2);
    target.port = quint16(url.port(target.https ? 443 : 80));
    target.path = url.path(QUrl::FullyEncoded).toUtf8();
    if (target.path.isEmpty())
        target.path = "/";
    if (url.hasQuery())
        target.path += '?' + url.query(QUrl::FullyEncoded).toUtf8();
    return target;
}

bool StatusRanges::contains(int status) const {
    for (const auto &[low, high] : ranges)
        if (status >= low && status <= high)
            return true;
    return false;
}

QString StatusRanges::text() const {
    QStringList parts;
    for (const auto &[low, high] : ranges)
        parts << (low == high ? QString::number(low) : QStringLiteral("%1-%2").arg(low).arg(high));
    return parts.join(u',');
}

CheckCounts CheckCounts::of(const QList<CheckResult> &results) {
    CheckCounts counts;
    for (const CheckResult &result : results) {
        if (result.outcome == CheckOutcome::Ok)
            ++counts.ok;
        else if (isFailure(result.outcome))
            ++counts.failed;
        else
            ++counts.notCheckable;
    }
    return counts;
}

std::optional<StatusRanges> StatusRanges::parse(const QString &text, QString *error) {
    StatusRanges result;
    result.ranges.clear();
    for (const QString &part : text.split(u',')) {
        const QStringList ends = part.trimmed().split(u'-');
        bool ok1 = false, ok2 = false;
        const int low = ends.value(0).toInt(&ok1);
        const int high = ends.size() == 2 ? ends[1].toInt(&ok2) : low;
        if (ends.size() > 2 || !ok1 || (ends.size() == 2 && !ok2) || low < 100 || high > 599 ||
            low > high) {
            *error = QStringLiteral("status \"%1\" is not a status or range from 100 to 599 "
                                    "(e.g. 200-399 or 200,204)")
                         .arg(part.trimmed());
            return std::nullopt;
        }
        result.ranges.append({low, high});
    }
    return result;
}

} // namespace poolscope
