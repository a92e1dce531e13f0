#include "transport/ssh/SshDestination.h"

namespace poolscope::transport {

SshDestinationParseResult parseSshDestination(const QString &text) {
    SshDestinationParseResult result;
    QString rest = text.trimmed();
    const auto fail = [&result, &text](const QString &why) {
        result.error = QStringLiteral("bad --ssh \"%1\": %2").arg(text, why);
        return result;
    };
    if (rest.isEmpty())
        return fail(QStringLiteral("empty; give [user@]host[:port] or a ~/.ssh/config Host"));
    if (rest.contains(QLatin1Char(' ')) || rest.contains(QLatin1Char('/')))
        return fail(QStringLiteral("not of the form [user@]host[:port]"));
    if (const qsizetype at = rest.lastIndexOf(QLatin1Char('@')); at >= 0) {
        result.destination.user = rest.left(at);
        rest = rest.mid(at + 1);
        if (result.destination.user.isEmpty())
            return fail(QStringLiteral("empty user name before '@'"));
    }
    QString portText;
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0)
            return fail(QStringLiteral("'[' without ']'"));
        result.destination.host = rest.mid(1, close - 1);
        const QString after = rest.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':')))
                return fail(QStringLiteral("unexpected \"%1\" after ']'").arg(after));
            portText = after.mid(1);
            if (portText.isEmpty())
                return fail(QStringLiteral("empty port after ':'"));
        }
    } else if (rest.count(QLatin1Char(':')) == 1) {
        const qsizetype colon = rest.indexOf(QLatin1Char(':'));
        result.destination.host = rest.left(colon);
        portText = rest.mid(colon + 1);
        if (portText.isEmpty())
            return fail(QStringLiteral("empty port after ':'"));
    } else {
        result.destination.host = rest; // a name, or a bare IPv6 address without a port
    }
    if (result.destination.host.isEmpty())
        return fail(QStringLiteral("no host"));
    if (!portText.isEmpty()) {
        bool ok = false;
        const int port = portText.toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return fail(
                QStringLiteral("port \"%1\" is not a number from 1 to 65535").arg(portText));
        result.destination.port = port;
    }
    return result;
}

} // namespace poolscope::transport
