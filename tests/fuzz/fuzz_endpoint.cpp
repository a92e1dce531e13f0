// Fuzzes parseEndpoint(): any text gives an endpoint or an error; an endpoint survives a round
// trip through toUrl(); the display and safe forms, and error messages, never show a password.
#include "endpoint/Endpoint.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include <QString>

using namespace poolscope;

namespace {

void check(bool condition, const char *what, const QString &url) {
    if (condition)
        return;
    std::fprintf(stderr, "invariant broken: %s\nurl: %s\n", what, url.toUtf8().constData());
    std::abort();
}

// Where the password the user typed sits in the input, for inputs shaped
// "scheme://user:password@rest" (tcp) or "unix://user:password@/path"; {-1, 0} otherwise. Only
// passwords made of characters with no meaning in a URL count, so that replacing them with 'X's
// cannot change how the rest is parsed.
std::pair<qsizetype, qsizetype> typedPassword(const QString &url) {
    const qsizetype schemeEnd = url.indexOf(QLatin1String("://"));
    if (schemeEnd <= 0)
        return {-1, 0};
    const QString rest = url.mid(schemeEnd + 3);
    const bool isUnix =
        url.left(schemeEnd).trimmed().compare(QLatin1String("unix"), Qt::CaseInsensitive) == 0;
    // unix:///path has no user info, even when its query holds "user:password@/".
    if (isUnix && rest.startsWith(u'/'))
        return {-1, 0};
    const qsizetype userInfoEnd =
        isUnix ? rest.indexOf(QLatin1String("@/")) : rest.lastIndexOf(u'@');
    const qsizetype colon = userInfoEnd < 0 ? -1 : rest.left(userInfoEnd).indexOf(u':');
    if (colon < 0 || userInfoEnd - colon - 1 < 4)
        return {-1, 0};
    for (qsizetype i = colon + 1; i < userInfoEnd; ++i) {
        const QChar c = rest[i];
        if (!c.isLetterOrNumber() || c.unicode() > 0x7f)
            return {-1, 0};
    }
    return {schemeEnd + 3 + colon + 1, userInfoEnd - colon - 1};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QString url =
        QString::fromUtf8(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const EndpointParseResult result = parseEndpoint(url);
    check(result.ok() == result.error.isEmpty(), "exactly one of endpoint and error", url);
    if (!result.ok()) {
        // Error messages never repeat the password: if it shows up, it must also show up when
        // the password is replaced (a coincidence with a fixed text or another part of the URL).
        const auto [start, length] = typedPassword(url);
        if (start >= 0) {
            const QString password = url.mid(start, length);
            QString masked = url;
            masked.replace(start, length, QString(length, u'X'));
            check(!result.error.contains(password) ||
                      parseEndpoint(masked).error.contains(password),
                  "error messages do not repeat the password", url);
        }
        return 0;
    }

    const Endpoint &endpoint = *result.endpoint;
    check(endpoint.port >= 1 && endpoint.port <= 65535, "port in range", url);
    check(endpoint.database >= 0, "database not negative", url);
    const QString full = endpoint.toUrl();
    const EndpointParseResult again = parseEndpoint(full);
    check(again.ok(), "toUrl() parses again", url);
    check(*again.endpoint == endpoint, "parseEndpoint(toUrl()) == endpoint", url);

    // "Never shows the password" in its strongest form: the safe and display forms do not depend
    // on it at all (a substring test would trip over passwords that happen to match the host).
    Endpoint withoutPassword = endpoint;
    withoutPassword.password.clear();
    Endpoint otherPassword = endpoint;
    otherPassword.password = endpoint.password.isEmpty() ? QString() : QStringLiteral("x");
    check(endpoint.toSafeUrl() == withoutPassword.toUrl(),
          "toSafeUrl() is the URL without the password", url);
    check(endpoint.toDisplayString() == otherPassword.toDisplayString(),
          "toDisplayString() does not depend on the password", url);
    check(endpoint.password.isEmpty() || endpoint.toDisplayString().contains(u"****"),
          "toDisplayString() masks a password", url);
    const EndpointParseResult safe = parseEndpoint(endpoint.toSafeUrl());
    check(safe.ok() && safe.endpoint->password.isEmpty() &&
              safe.endpoint->username == endpoint.username,
          "toSafeUrl() parses back without a password", url);
    return 0;
}
