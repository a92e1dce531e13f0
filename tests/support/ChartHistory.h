// Shared by the chart panel tests: a made-up history to chart, and where screenshots go.
#pragma once

#include "history/PoolHistory.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QList>
#include <QString>

namespace poolscope::testing {

// Records poll number `poll` at timeMs: member i has counted (i + 1) per poll.
inline void recordPoll(PoolHistory &history, int members, int poll, qint64 timeMs) {
    QList<PoolMember> counts;
    for (int i = 0; i < members; ++i)
        counts.append({"m" + QByteArray::number(i), double(poll * (i + 1))});
    history.record(timeMs, counts);
}

// Records `seconds` polls ending now, one per second (recordPoll).
inline qint64 feed(PoolHistory &history, int members, int seconds) {
    const qint64 end = QDateTime::currentMSecsSinceEpoch();
    const qint64 start = end - qint64(seconds - 1) * 1000;
    for (int s = 0; s < seconds; ++s)
        recordPoll(history, members, s, start + s * 1000);
    return end;
}

// Where the tests leave the screenshots of what they checked, for a person to look at.
inline QString screenshotPath(const QString &name) {
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir + QStringLiteral("/chart-%1.png").arg(name);
}

} // namespace poolscope::testing
