#pragma once

// What the recording tests share: a redis-server and a directory for the files, started once per
// test file, the tiers' expected frames and a file's size and rows per tier.
#include "RecordingPolls.h"
#include "RedisFixture.h"

#include "load/LoadRunner.h"
#include "monitor/PoolMonitor.h"
#include "recording/PoolRecorder.h"
#include "recording/RecordingReader.h"
#include "recording/RecordingWriter.h"

#include <cmath>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

namespace poolscope::testing {

// What a tier should hold after these polls: a slot opens at a poll and takes the later polls
// of its window (9/10 of the resolution in the finest tier), keeping the last; slots that
// started longer than the retention before the newest poll are gone.
inline QList<RecordingPoll> expectedFrames(const QList<RecordingPoll> &polls,
                                           const RecordingTier &tier, int index) {
    const qint64 window = index == 0 ? tier.resolutionMs * 9 / 10 : tier.resolutionMs;
    QList<std::pair<qint64, RecordingPoll>> opened;
    for (const RecordingPoll &poll : polls) {
        if (opened.isEmpty() || poll.timeMs - opened.back().first >= window)
            opened.append({poll.timeMs, poll});
        else
            opened.back().second = poll;
    }
    QList<RecordingPoll> frames;
    const qint64 newest = polls.isEmpty() ? 0 : polls.back().timeMs;
    for (const auto &[start, poll] : opened)
        if (start >= newest - tier.retentionMs)
            frames.append(poll);
    return frames;
}

inline RecordingTiers smallTiers() {
    return {RecordingTier{100, 60'000}, RecordingTier{500, 600'000},
            RecordingTier{2000, 3'600'000}};
}

// The wantedPoints that makes the reader pick `tier` for a range of spanMs.
inline int wantedFor(const RecordingTiers &tiers, int tier, qint64 spanMs) {
    return tier == 0 ? 10'000'000 : int(spanMs / tiers[size_t(tier)].resolutionMs) + 1;
}

inline qint64 fileBytes(const QString &path) {
    return QFileInfo(path).size() + QFileInfo(path + QStringLiteral("-wal")).size();
}

// Rows per tier, read with a connection of its own.
inline QList<qint64> framesPerTier(const QString &path) {
    QList<qint64> counts(kRecordingTierCount, 0);
    {
        QSqlDatabase database =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("count"));
        database.setDatabaseName(path);
        database.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (database.open()) {
            QSqlQuery query(database);
            query.exec(QStringLiteral("SELECT tier, COUNT(*) FROM frames GROUP BY tier"));
            while (query.next())
                counts[query.value(0).toInt()] = query.value(1).toLongLong();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("count"));
    return counts;
}

class RecordingCase {
protected:
    std::unique_ptr<RedisFixture> m_redis;
    QTemporaryDir m_dir;

    QString file(const QString &name) const { return m_dir.filePath(name); }

    RecordingInfo info(const QByteArray &key, RecordingTiers tiers = defaultRecordingTiers()) {
        RecordingInfo result;
        result.server = m_redis->endpoint().toSafeUrl();
        result.poolKey = key;
        result.tiers = tiers;
        return result;
    }

    // The servers and files every test case of the file shares; from initTestCase.
    void startCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
    }
};

} // namespace poolscope::testing
