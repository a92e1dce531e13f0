#include "recording/RecordingWriter.h"

#include "recording/RecordingLock.h"
#include "recording/RecordingStore.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSqlError>
#include <QSqlQuery>

namespace poolscope {

using namespace recordingdetail;

namespace {

// How long a slot of this tier gathers polls from its first one: 9/10 of the resolution in the
// finest tier, so that a poll timer's jitter never merges two polls meant to be a second apart.
qint64 slotWindow(const RecordingTier &tier, int index) {
    return index == 0 ? std::max<qint64>(1, tier.resolutionMs * 9 / 10) : tier.resolutionMs;
}

bool fail(QString *error, const QString &message) {
    if (error)
        *error = message;
    return false;
}

} // namespace

struct RecordingWriter::Data {
    // Member names to ids: looked up for every member of every poll (10,000 at a time).
    struct NameHash {
        size_t operator()(const QByteArray &name) const {
            return std::hash<std::string_view>()(
                std::string_view(name.constData(), size_t(name.size())));
        }
    };

    QString path;
    std::unique_ptr<RecordingLock> lock; // released after the database is closed
    QSqlDatabase database;
    RecordingInfo info;
    std::unordered_map<QByteArray, qint64, NameHash> memberIds;
    qint64 latestTimeMs = 0;
    qint64 pollsWritten = 0;
    bool resumed = false; // the file had polls before this writer: mark a gap at the first one
    std::array<qint64, kRecordingTierCount> slotStartMs{}; // of each tier's newest slot; -1: none
    std::unique_ptr<QSqlQuery> upsertFrame;
    std::unique_ptr<QSqlQuery> pruneFrames;
    std::unique_ptr<QSqlQuery> pruneEvents;
    std::unique_ptr<QSqlQuery> insertMember;
    std::unique_ptr<QSqlQuery> insertEvent;
    std::unique_ptr<QSqlQuery> findEvent;
    std::vector<FrameEntry> entries; // reused by every poll

    ~Data() {
        upsertFrame.reset();
        pruneFrames.reset();
        pruneEvents.reset();
        insertMember.reset();
        insertEvent.reset();
        findEvent.reset();
        if (database.isValid()) {
            // Folds the WAL back into the file, so the recording is one file again when closed.
            QSqlQuery(database).exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
            closeConnection(database);
        }
        lock.reset();
    }

    bool prepare(QString *error) {
        const auto make = [this, error](std::unique_ptr<QSqlQuery> &query, const QString &sql) {
            query = std::make_unique<QSqlQuery>(database);
            if (!query->prepare(sql))
                return fail(
                    error, QStringLiteral("recording %1: %2").arg(path, query->lastError().text()));
            return true;
        };
        return make(upsertFrame,
                    QStringLiteral(
                        "INSERT OR REPLACE INTO frames(tier, start_ms, time_ms, min, median, "
                        "max, total, member_count, evicted_count, data) "
                        "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) &&
               make(pruneFrames,
                    QStringLiteral("DELETE FROM frames WHERE tier = ? AND start_ms < ?")) &&
               make(pruneEvents, QStringLiteral("DELETE FROM events WHERE time_ms < ?")) &&
               make(insertMember, QStringLiteral("INSERT INTO members(name) VALUES(?)")) &&
               make(insertEvent, QStringLiteral("INSERT INTO events(time_ms, kind, member, label) "
                                                "VALUES(?, ?, ?, ?)")) &&
               make(findEvent, QStringLiteral("SELECT 1 FROM events WHERE time_ms = ? AND kind = ? "
                                              "AND member IS ? AND label = ? LIMIT 1"));
    }

    bool load(QString *error) {
        QSqlQuery query(database);
        if (!query.exec(QStringLiteral("SELECT id, name FROM members")))
            return fail(error,
                        QStringLiteral("recording %1: %2").arg(path, query.lastError().text()));
        while (query.next())
            memberIds.emplace(query.value(1).toByteArray(), query.value(0).toLongLong());
        if (!query.exec(QStringLiteral("SELECT MAX(time_ms) FROM frames")) || !query.next())
            return fail(error,
                        QStringLiteral("recording %1: %2").arg(path, query.lastError().text()));
        latestTimeMs = query.value(0).isNull() ? 0 : query.value(0).toLongLong();
        for (int tier = 0; tier < kRecordingTierCount; ++tier) {
            query.prepare(QStringLiteral("SELECT MAX(start_ms) FROM frames WHERE tier = ?"));
            query.addBindValue(tier);
            if (!query.exec() || !query.next())
                return fail(error,
                            QStringLiteral("recording %1: %2").arg(path, query.lastError().text()));
            slotStartMs[size_t(tier)] = query.value(0).isNull() ? -1 : query.value(0).toLongLong();
        }
        return true;
    }

    bool storeEvent(const RecordingEvent &event) {
        insertEvent->addBindValue(event.timeMs);
        insertEvent->addBindValue(recordingEventKindName(event.kind));
        insertEvent->addBindValue(event.member.isEmpty() ? QVariant() : QVariant(event.member));
        insertEvent->addBindValue(event.label);
        return insertEvent->exec();
    }

    bool writePoll(const RecordingPoll &poll) {
        if (resumed) {
            resumed = false;
            // The first poll after a gap opens a new slot in every tier: it must not replace the
            // earlier writer's last frame (a reader that has already taken the time range would
            // lose that frame, and with it the last value before the gap).
            slotStartMs.fill(-1);
            RecordingEvent gap;
            gap.timeMs = poll.timeMs;
            gap.kind = RecordingEventKind::Gap;
            gap.label = QStringLiteral("recording resumed");
            if (!storeEvent(gap))
                return false;
        }
        entries.clear();
        entries.reserve(size_t(poll.members.size()));
        for (const PoolMember &member : poll.members) {
            auto found = memberIds.find(member.member);
            if (found == memberIds.end()) {
                insertMember->addBindValue(member.member);
                if (!insertMember->exec())
                    return false;
                found = memberIds.emplace(member.member, insertMember->lastInsertId().toLongLong())
                            .first;
            }
            entries.push_back({found->second, member.count});
        }
        std::sort(entries.begin(), entries.end(),
                  [](const FrameEntry &a, const FrameEntry &b) { return a.id < b.id; });
        // A member listed twice in one poll keeps its last count.
        entries.erase(
            std::unique(entries.begin(), entries.end(),
                        [](const FrameEntry &a, const FrameEntry &b) { return a.id == b.id; }),
            entries.end());
        const QByteArray blob = encodeFrame(entries);
        for (int tier = 0; tier < kRecordingTierCount; ++tier) {
            const RecordingTier &t = info.tiers[size_t(tier)];
            qint64 &start = slotStartMs[size_t(tier)];
            if (start < 0 || poll.timeMs - start >= slotWindow(t, tier))
                start = poll.timeMs; // a new slot; else the poll replaces the slot's last one
            upsertFrame->addBindValue(tier);
            upsertFrame->addBindValue(start);
            upsertFrame->addBindValue(poll.timeMs);
            upsertFrame->addBindValue(poll.min);
            upsertFrame->addBindValue(poll.median);
            upsertFrame->addBindValue(poll.max);
            upsertFrame->addBindValue(poll.total);
            upsertFrame->addBindValue(poll.memberCount);
            upsertFrame->addBindValue(poll.evictedCount);
            upsertFrame->addBindValue(blob);
            if (!upsertFrame->exec())
                return false;
            pruneFrames->addBindValue(tier);
            pruneFrames->addBindValue(poll.timeMs - t.retentionMs);
            if (!pruneFrames->exec())
                return false;
        }
        pruneEvents->addBindValue(poll.timeMs - info.tiers.back().retentionMs);
        return pruneEvents->exec();
    }
};

RecordingWriter::RecordingWriter(std::unique_ptr<Data> data)
    : m_data(std::move(data)) {}

RecordingWriter::~RecordingWriter() = default;

std::unique_ptr<RecordingWriter> RecordingWriter::open(const QString &path,
                                                       const RecordingInfo &info, QString *error) {
    if (path.isEmpty()) {
        fail(error, QStringLiteral("no recording file given"));
        return nullptr;
    }
    const QFileInfo file(path);
    if (!QDir().mkpath(file.absolutePath())) {
        fail(error, QStringLiteral("cannot create the directory %1 for recording %2")
                        .arg(file.absolutePath(), path));
        return nullptr;
    }
    auto data = std::make_unique<Data>();
    data->path = path;
    data->lock = RecordingLock::acquire(path, error);
    if (!data->lock)
        return nullptr;
    data->database = openConnection(path, false, error);
    if (!data->database.isValid())
        return nullptr;
    QSqlQuery pragma(data->database);
    if (!pragma.exec(QStringLiteral("PRAGMA journal_mode=WAL")) || !pragma.next() ||
        pragma.value(0).toString().compare(QStringLiteral("wal"), Qt::CaseInsensitive) != 0) {
        if (isDamaged(pragma.lastError()))
            fail(error, damagedMessage(path, pragma.lastError()));
        else
            fail(error, QStringLiteral("recording %1: cannot switch to WAL mode (%2)")
                            .arg(path, pragma.lastError().text()));
        return nullptr;
    }
    // Each commit reaches the WAL before returning; a crash of the process loses nothing
    // committed (only a power loss may lose the last commits).
    pragma.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    // The WAL is reused after each checkpoint; this keeps it from staying at its largest size.
    pragma.exec(QStringLiteral("PRAGMA journal_size_limit=4194304"));
    pragma.finish();
    RecordingInfo created = info;
    created.schemaVersion = kRecordingSchemaVersion;
    QString detail;
    if (!ensureSchema(data->database, created, &detail)) {
        fail(error, QStringLiteral("cannot create recording %1: %2").arg(path, detail));
        return nullptr;
    }
    const auto stored = readInfo(data->database, path, error);
    if (!stored)
        return nullptr;
    if (!info.poolKey.isEmpty() && stored->poolKey != info.poolKey) {
        fail(error,
             QStringLiteral("recording %1 is of pool \"%2\", not \"%3\": give another file")
                 .arg(path, QString::fromUtf8(stored->poolKey), QString::fromUtf8(info.poolKey)));
        return nullptr;
    }
    if (!info.server.isEmpty() && !stored->server.isEmpty() &&
        recordingServerIdentity(stored->server) != recordingServerIdentity(info.server)) {
        fail(error, QStringLiteral("recording %1 is of server %2, not %3: one server and database "
                                   "per file, give another file")
                        .arg(path, stored->server, info.server));
        return nullptr;
    }
    data->info = *stored;
    if (!data->prepare(error) || !data->load(error))
        return nullptr;
    data->resumed = data->latestTimeMs > 0;
    return std::unique_ptr<RecordingWriter>(new RecordingWriter(std::move(data)));
}

bool RecordingWriter::appendPoll(const RecordingPoll &poll, QString *error) {
    Data &d = *m_data;
    if (poll.timeMs <= d.latestTimeMs)
        return true;
    if (!d.database.transaction())
        return fail(error,
                    QStringLiteral("recording %1: %2").arg(d.path, d.database.lastError().text()));
    if (!d.writePoll(poll)) {
        QString detail = d.database.lastError().text();
        for (const auto *query : {d.upsertFrame.get(), d.pruneFrames.get(), d.pruneEvents.get(),
                                  d.insertMember.get(), d.insertEvent.get()})
            if (query->lastError().isValid())
                detail = query->lastError().text();
        d.database.rollback();
        // Ids and slots handed out in the rolled-back transaction are gone: read them again.
        d.memberIds.clear();
        QString reload;
        d.load(&reload);
        return fail(error, QStringLiteral("recording %1: the poll at %2 was not stored: %3")
                               .arg(d.path)
                               .arg(poll.timeMs)
                               .arg(detail));
    }
    if (!d.database.commit()) {
        const QString detail = d.database.lastError().text();
        d.database.rollback();
        d.memberIds.clear();
        QString reload;
        d.load(&reload);
        return fail(error, QStringLiteral("recording %1: the poll at %2 was not stored: %3")
                               .arg(d.path)
                               .arg(poll.timeMs)
                               .arg(detail));
    }
    d.latestTimeMs = poll.timeMs;
    ++d.pollsWritten;
    return true;
}

bool RecordingWriter::appendEvent(const RecordingEvent &event, QString *error) {
    if (!m_data->storeEvent(event))
        return fail(error, QStringLiteral("recording %1: the event was not stored: %2")
                               .arg(m_data->path, m_data->insertEvent->lastError().text()));
    return true;
}

bool RecordingWriter::appendEventOnce(const RecordingEvent &event, QString *error) {
    QSqlQuery &find = *m_data->findEvent;
    find.addBindValue(event.timeMs);
    find.addBindValue(recordingEventKindName(event.kind));
    find.addBindValue(event.member.isEmpty() ? QVariant() : QVariant(event.member));
    find.addBindValue(event.label);
    if (!find.exec())
        return fail(error, QStringLiteral("recording %1: the event was not stored: %2")
                               .arg(m_data->path, find.lastError().text()));
    const bool stored = find.next();
    find.finish();
    return stored || appendEvent(event, error);
}

const QString &RecordingWriter::path() const {
    return m_data->path;
}

RecordingInfo RecordingWriter::info() const {
    return m_data->info;
}

qint64 RecordingWriter::latestTimeMs() const {
    return m_data->latestTimeMs;
}

qint64 RecordingWriter::pollsWritten() const {
    return m_data->pollsWritten;
}

} // namespace poolscope
