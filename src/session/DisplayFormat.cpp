#include "session/DisplayFormat.h"

#include "base/RedisError.h"
#include "load/LoadRunner.h"

#include <cmath>

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace poolscope {

QString formatRate(double perSecond) {
    const QLocale locale;
    if (!std::isfinite(perSecond))
        return QStringLiteral("–");
    if (std::abs(perSecond) >= 100)
        return locale.toString(perSecond, 'f', 0);
    return locale.toString(perSecond, 'f', 1);
}

QString formatShare(double fraction) {
    if (!std::isfinite(fraction))
        return QStringLiteral("–");
    //: A percentage: the number, then its sign.
    return QCoreApplication::translate("DisplayFormat", "%1 %")
        .arg(QLocale().toString(fraction * 100.0, 'f', 1));
}

QString formatSeconds(double seconds) {
    const QLocale locale;
    if (!std::isfinite(seconds) || seconds < 0)
        return QStringLiteral("–");
    if (seconds < 0.1)
        return QCoreApplication::translate("DisplayFormat", "%1 s")
            .arg(locale.toString(seconds, 'f', 3));
    if (seconds < 10)
        return QCoreApplication::translate("DisplayFormat", "%1 s")
            .arg(locale.toString(seconds, 'f', 1));
    if (seconds < 120)
        return QCoreApplication::translate("DisplayFormat", "%1 s")
            .arg(locale.toString(seconds, 'f', 0));
    if (seconds < 7200)
        return QCoreApplication::translate("DisplayFormat", "%1 min")
            .arg(locale.toString(seconds / 60.0, 'f', 1));
    return QCoreApplication::translate("DisplayFormat", "%1 h")
        .arg(locale.toString(seconds / 3600.0, 'f', 1));
}

QString formatAgo(qint64 elapsedMs) {
    const QLocale locale;
    if (elapsedMs < 0)
        elapsedMs = 0;
    if (elapsedMs < 10000)
        return QCoreApplication::translate("DisplayFormat", "%1 s ago")
            .arg(locale.toString(double(elapsedMs) / 1000.0, 'f', 1));
    if (elapsedMs < 120000)
        return QCoreApplication::translate("DisplayFormat", "%1 s ago")
            .arg(locale.toString(elapsedMs / 1000));
    if (elapsedMs < 7200000)
        return QCoreApplication::translate("DisplayFormat", "%1 min ago")
            .arg(locale.toString(elapsedMs / 60000));
    return QCoreApplication::translate("DisplayFormat", "%1 h ago")
        .arg(locale.toString(elapsedMs / 3600000));
}

QString formatMilliseconds(double milliseconds) {
    const QLocale locale;
    if (!std::isfinite(milliseconds) || milliseconds < 0)
        return QStringLiteral("–");
    if (milliseconds < 10)
        return QCoreApplication::translate("DisplayFormat", "%1 ms")
            .arg(locale.toString(milliseconds, 'f', 2));
    return QCoreApplication::translate("DisplayFormat", "%1 ms")
        .arg(locale.toString(milliseconds, 'f', 0));
}

QString describeLoadReport(const LoadReport &report) {
    const QLocale locale;
    QStringList lines;
    const qint64 errors = report.errors();
    if (report.allocated == 0 && report.empty > 0 && errors == 0 && report.unknown == 0) {
        lines << QCoreApplication::translate("LoadReport",
                                             "pool is empty: no proxy allocated (%1 empty answers)")
                     .arg(locale.toString(report.empty));
    } else {
        lines << QCoreApplication::translate("LoadReport", "allocated %1 in %2 (%3/s)%4")
                     .arg(locale.toString(report.allocated), formatSeconds(report.elapsedSeconds),
                          formatRate(report.ratePerSecond()),
                          report.cancelled
                              ? QCoreApplication::translate("LoadReport", ", cancelled")
                              : QString());
        if (report.empty > 0)
            lines << QCoreApplication::translate(
                         "LoadReport", "empty-pool answers: %1 (pool is empty: no proxy allocated)")
                         .arg(locale.toString(report.empty));
        else
            lines << QCoreApplication::translate("LoadReport", "empty-pool answers: 0");
    }
    QStringList kinds;
    for (auto it = report.errorsByKind.cbegin(); it != report.errorsByKind.cend(); ++it)
        kinds << QStringLiteral("%1 %2").arg(it.key(), locale.toString(it.value()));
    lines << (errors > 0 ? QCoreApplication::translate("LoadReport", "errors: %1 (%2)")
                               .arg(locale.toString(errors), kinds.join(QStringLiteral(", ")))
                         : QCoreApplication::translate("LoadReport", "errors: 0"));
    lines << QCoreApplication::translate("LoadReport",
                                         "outcome unknown (no reply, never retried): %1")
                 .arg(locale.toString(report.unknown));
    // The same accounting as poolscope-cli allocate's report: losses, failovers, what was lost.
    if (report.connectionLosses > 0)
        lines << QCoreApplication::translate("LoadReport",
                                             "connections lost mid-run: %1, reconnected: %2")
                     .arg(locale.toString(report.connectionLosses),
                          locale.toString(report.reconnects));
    if (report.primaries.size() > 1)
        lines << QCoreApplication::translate("LoadReport", "failover: the primary went from %1")
                     .arg(report.primaries.join(QCoreApplication::translate("LoadReport", " to ")));
    if (report.lossChecked)
        lines << QCoreApplication::translate(
                     "LoadReport", "lost in failover: %1 acknowledged allocations on %2 members "
                                   "(sum of counts %3 before, %4 after)")
                     .arg(locale.toString(report.lostInFailover),
                          locale.toString(report.lostMembers),
                          locale.toString(report.baselineSum, 'f', 0),
                          locale.toString(report.finalSum, 'f', 0));
    else if (!report.lossCheck.isEmpty())
        lines << QCoreApplication::translate("LoadReport", "lost in failover: not checked (%1)")
                     .arg(report.lossCheck);
    if (report.allocated > 0)
        lines << QCoreApplication::translate("LoadReport", "latency p50 %1 · p99 %2 · max %3")
                     .arg(formatMilliseconds(report.latencyP50Ms),
                          formatMilliseconds(report.latencyP99Ms),
                          formatMilliseconds(report.latencyMaxMs));
    if (!report.atomic)
        lines << QCoreApplication::translate(
                     "LoadReport",
                     "naive mode: %1 collisions, %2 duplicate picks (the script: always 0)")
                     .arg(locale.toString(report.collisions),
                          locale.toString(report.duplicatePicks));
    lines << QCoreApplication::translate("LoadReport", "%1 worker(s), pipeline %2, %3")
                 .arg(locale.toString(report.workers), locale.toString(report.pipeline))
                 .arg(report.atomic
                          ? QCoreApplication::translate("LoadReport", "atomic script")
                          : QCoreApplication::translate("LoadReport", "naive ZRANGE + ZINCRBY"));
    return lines.join(QLatin1Char('\n'));
}

QString dashboardErrorText(const RedisError &error) {
    QString words;
    switch (error.remedy()) {
    case RedisError::Remedy::None:
        return error.message();
    case RedisError::Remedy::TlsCaFile:
        words = QCoreApplication::translate(
            "poolscope", "choose the server's CA in File ▸ Connections... ▸ Edit... ▸ CA file");
        break;
    case RedisError::Remedy::TlsServerName:
        words = QCoreApplication::translate(
            "poolscope", "connect by one of those names, or enter the expected one in File ▸ "
                         "Connections... ▸ Edit... ▸ Server name");
        break;
    case RedisError::Remedy::TrustSshHostKey:
        words = QCoreApplication::translate(
            "poolscope",
            "check its fingerprint, then connect again and choose Trust, or tick "
            "\"Accept and record an unknown host key\" in File ▸ Connections... ▸ Edit...");
        break;
    }
    return RedisError::withRemedyText(error.bareMessage(), error.remedy(), words);
}

bool naturalLess(const QByteArray &a, const QByteArray &b) {
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < a.size() && j < b.size()) {
        if (isDigit(a[i]) && isDigit(b[j])) {
            // Compare the numbers without converting them (any length): skip leading zeros, then
            // the longer run is larger, then the first differing digit decides.
            qsizetype ia = i;
            qsizetype jb = j;
            while (ia < a.size() && a[ia] == '0')
                ++ia;
            while (jb < b.size() && b[jb] == '0')
                ++jb;
            qsizetype ea = ia;
            qsizetype eb = jb;
            while (ea < a.size() && isDigit(a[ea]))
                ++ea;
            while (eb < b.size() && isDigit(b[eb]))
                ++eb;
            if (ea - ia != eb - jb)
                return ea - ia < eb - jb;
            for (qsizetype k = 0; k < ea - ia; ++k)
                if (a[ia + k] != b[jb + k])
                    return a[ia + k] < b[jb + k];
            i = ea;
            j = eb;
            continue;
        }
        if (a[i] != b[j])
            return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
        ++i;
        ++j;
    }
    if ((i < a.size()) != (j < b.size()))
        return j < b.size(); // the shorter one first
    return a < b; // equal as numbers ("m01" and "m1"): bytewise, so the order stays strict
}

} // namespace poolscope
