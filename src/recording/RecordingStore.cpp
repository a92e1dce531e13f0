#include "recording/RecordingStore.h"

#include "recording/RecordingWriter.h"

#include <atomic>
#include <cmath>
#include <cstring>

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

namespace poolscope::recordingdetail {

namespace {

constexpr char kFormatWhole = 0;
constexpr char kFormatDouble = 1;
constexpr double kMaxWhole = 9.0e15; // whole numbers a double holds exactly, with room

void putVarint(QByteArray &out, quint64 value) {
    while (value >= 0x80) {
        out.append(char((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.append(char(value));
}

bool getVarint(const char *&cursor, const char *end, quint64 &value) {
    value = 0;
    for (int shift = 0; shift < 64 && cursor < end; shift += 7) {
        const auto byte = quint8(*cursor++);
        value |= quint64(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}

quint64 zigzag(qint64 value) {
    return (quint64(value) << 1) ^ quint64(value >> 63);
}

qint64 unzigzag(quint64 value) {
    return qint64(value >> 1) ^ -qint64(value & 1);
}

bool isWhole(double value) {
    return std::isfinite(value) && std::floor(value) == value && std::abs(value) < kMaxWhole;
}

QString sqlError(const QSqlQuery &query) {
    return query.lastError().text();
}

} // namespace

QByteArray encodeFrame(const std::vector<FrameEntry> &entries) {
    QByteArray out;
    bool whole = true;
    double base = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        if (!isWhole(entries[i].count)) {
            whole = false;
            break;
        }
        base = i == 0 ? entries[i].count : std::min(base, entries[i].count);
    }
    out.reserve(qsizetype(16 + entries.size() * (whole ? 3 : 10)));
    out.append(whole ? kFormatWhole : kFormatDouble);
    putVarint(out, entries.size());
    if (whole)
        putVarint(out, zigzag(qint64(base)));
    qint64 previousId = 0;
    for (const FrameEntry &entry : entries) {
        putVarint(out, quint64(entry.id - previousId));
        previousId = entry.id;
        if (whole) {
            putVarint(out, quint64(qint64(entry.count) - qint64(base)));
        } else {
            char bytes[sizeof(double)];
            std::memcpy(bytes, &entry.count, sizeof(double));
            out.append(bytes, sizeof(double));
        }
    }
    return out;
}

bool decodeFrame(const QByteArray &blob, std::vector<FrameEntry> &out) {
    out.clear();
    const char *cursor = blob.constData();
    const char *end = cursor + blob.size();
    if (cursor == end)
        return false;
    const char format = *cursor++;
    if (format != kFormatWhole && format != kFormatDouble)
        return false;
    quint64 size = 0;
    if (!getVarint(cursor, end, size) || size > quint64(blob.size()))
        return false;
    quint64 base = 0;
    if (format == kFormatWhole && !getVarint(cursor, end, base))
        return false;
    const qint64 baseCount = unzigzag(base);
    out.reserve(size_t(size));
    qint64 id = 0;
    for (quint64 i = 0; i < size; ++i) {
        quint64 step = 0;
        if (!getVarint(cursor, end, step))
            return false;
        id += qint64(step);
        if (format == kFormatWhole) {
            quint64 offset = 0;
            if (!getVarint(cursor, end, offset))
                return false;
            out.push_back({id, double(baseCount + qint64(offset))});
        } else {
            if (end - cursor < qsizetype(sizeof(double)))
                return false;
            double count = 0;
            std::memcpy(&count, cursor, sizeof(double));
            cursor += sizeof(double);
            out.push_back({id, count});
        }
    }
    return true;
}

QSqlDatabase openConnection(const QString &path, bool readOnly, QString *error) {
    static std::atomic<quint64> counter{0};
    const QString name = QStringLiteral("poolscope-recording-%1").arg(++counter);
    QSqlDatabase database = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    if (!database.isValid()) {
        if (error)
            *error = QStringLiteral("the SQLite driver of Qt SQL (QSQLITE) is missing: install "
                                    "libqt6sql6-sqlite");
        database = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        return QSqlDatabase();
    }
    database.setDatabaseName(path);
    database.setConnectOptions(readOnly ? QStringLiteral("QSQLITE_OPEN_READONLY;"
                                                         "QSQLITE_BUSY_TIMEOUT=5000")
                                        : QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    if (!database.open()) {
        if (error)
            *error = QStringLiteral("cannot open recording %1: %2")
                         .arg(path, database.lastError().text());
        closeConnection(database);
        return QSqlDatabase();
    }
    return database;
}

void closeConnection(QSqlDatabase &database) {
    const QString name = database.connectionName();
    database.close();
    database = QSqlDatabase();
    if (!name.isEmpty())
        QSqlDatabase::removeDatabase(name);
}

bool ensureSchema(QSqlDatabase &database, const RecordingInfo &info, QString *error) {
    const QStringList statements = {
        QStringLiteral(
            "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
        QStringLiteral("CREATE TABLE IF NOT EXISTS members(id INTEGER PRIMARY KEY, name BLOB NOT "
                       "NULL UNIQUE)"),
        // One frame per tier and slot: a slot starts with a poll (start_ms) and gathers those
        // of the tier's resolution (9/10 of it in the finest tier); time_ms is its last poll's.
        QStringLiteral(
            "CREATE TABLE IF NOT EXISTS frames(tier INTEGER NOT NULL, start_ms INTEGER NOT NULL, "
            "time_ms INTEGER NOT NULL, min REAL, median REAL, max REAL, total REAL, "
            "member_count INTEGER, evicted_count INTEGER, data BLOB NOT NULL, "
            "PRIMARY KEY(tier, start_ms))"),
        QStringLiteral(
            "CREATE TABLE IF NOT EXISTS events(id INTEGER PRIMARY KEY, time_ms INTEGER NOT NULL, "
            "kind TEXT NOT NULL, member BLOB, label TEXT)"),
        QStringLiteral("CREATE INDEX IF NOT EXISTS events_time ON events(time_ms)"),
    };
    QSqlQuery query(database);
    const auto failed = [&](const QString &detail) {
        if (error)
            *error = detail;
        query.exec(QStringLiteral("ROLLBACK"));
        return false;
    };
    // Decided and created in one write transaction: of two writers racing on a new file, the
    // second sees the first's schema.
    if (!query.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return failed(sqlError(query));
    if (!query.exec(QStringLiteral("SELECT COUNT(*) FROM sqlite_master")) || !query.next())
        return failed(sqlError(query));
    if (query.value(0).toLongLong() > 0) { // a file with tables: readInfo() judges it
        query.finish();
        if (!query.exec(QStringLiteral("COMMIT")))
            return failed(sqlError(query));
        return true;
    }
    for (const QString &statement : statements) {
        if (!query.exec(statement))
            return failed(sqlError(query));
    }
    RecordingInfo created = info;
    if (created.createdMs == 0)
        created.createdMs = QDateTime::currentMSecsSinceEpoch();
    const QList<std::pair<QString, QString>> meta = {
        {QStringLiteral("schema_version"), QString::number(kRecordingSchemaVersion)},
        {QStringLiteral("server"), created.server},
        {QStringLiteral("pool_key_hex"), QString::fromLatin1(created.poolKey.toHex())},
        {QStringLiteral("created_ms"), QString::number(created.createdMs)},
        {QStringLiteral("tiers"), tiersToText(created.tiers)},
    };
    query.prepare(QStringLiteral("INSERT INTO meta(key, value) VALUES(?, ?)"));
    for (const auto &[key, value] : meta) {
        query.addBindValue(key);
        query.addBindValue(value);
        if (!query.exec())
            return failed(sqlError(query));
    }
    if (!query.exec(QStringLiteral("COMMIT")))
        return failed(sqlError(query));
    return true;
}

std::optional<RecordingInfo> readInfo(QSqlDatabase &database, const QString &path, QString *error) {
    QSqlQuery query(database);
    if (!query.exec(QStringLiteral("SELECT key, value FROM meta"))) {
        if (error && isDamaged(query.lastError()))
            *error = damagedMessage(path, query.lastError());
        else if (error)
            *error = QStringLiteral("%1 is not a poolscope recording (%2)")
                         .arg(path, query.lastError().text());
        return std::nullopt;
    }
    QHash<QString, QString> meta;
    while (query.next())
        meta.insert(query.value(0).toString(), query.value(1).toString());
    bool ok = false;
    RecordingInfo info;
    info.schemaVersion = meta.value(QStringLiteral("schema_version")).toInt(&ok);
    if (!ok) {
        if (error)
            *error =
                QStringLiteral("%1 is not a poolscope recording (no schema version)").arg(path);
        return std::nullopt;
    }
    if (info.schemaVersion > kRecordingSchemaVersion || info.schemaVersion < 1) {
        if (error)
            *error = QStringLiteral("%1 is a recording of schema version %2; this poolscope "
                                    "reads version %3")
                         .arg(path)
                         .arg(info.schemaVersion)
                         .arg(kRecordingSchemaVersion);
        return std::nullopt;
    }
    const auto tiers = tiersFromText(meta.value(QStringLiteral("tiers")));
    if (!tiers) {
        if (error)
            *error = QStringLiteral("%1: its tiers (\"%2\") are damaged")
                         .arg(path, meta.value(QStringLiteral("tiers")));
        return std::nullopt;
    }
    info.tiers = *tiers;
    info.server = meta.value(QStringLiteral("server"));
    info.poolKey = QByteArray::fromHex(meta.value(QStringLiteral("pool_key_hex")).toLatin1());
    info.createdMs = meta.value(QStringLiteral("created_ms")).toLongLong();
    return info;
}

bool isDamaged(const QSqlError &error) {
    bool ok = false;
    const int code = error.nativeErrorCode().toInt(&ok) & 0xff; // the primary of an extended code
    constexpr int kSqliteCorrupt = 11;
    constexpr int kSqliteNotADatabase = 26;
    return ok && (code == kSqliteCorrupt || code == kSqliteNotADatabase);
}

QString damagedMessage(const QString &path, const QSqlError &error) {
    return QStringLiteral("recording %1 is damaged (%2): a truncated or overwritten file; move it "
                          "away or give another file")
        .arg(path, error.databaseText());
}

QString tiersToText(const RecordingTiers &tiers) {
    QStringList parts;
    for (const RecordingTier &tier : tiers)
        parts.append(QString::number(tier.resolutionMs) + QLatin1Char(':') +
                     QString::number(tier.retentionMs));
    return parts.join(QLatin1Char(','));
}

std::optional<RecordingTiers> tiersFromText(const QString &text) {
    const QStringList parts = text.split(QLatin1Char(','));
    if (parts.size() != kRecordingTierCount)
        return std::nullopt;
    RecordingTiers tiers;
    for (int i = 0; i < kRecordingTierCount; ++i) {
        const QStringList fields = parts[i].split(QLatin1Char(':'));
        bool okResolution = false;
        bool okRetention = false;
        if (fields.size() != 2)
            return std::nullopt;
        tiers[size_t(i)].resolutionMs = fields[0].toLongLong(&okResolution);
        tiers[size_t(i)].retentionMs = fields[1].toLongLong(&okRetention);
        if (!okResolution || !okRetention || tiers[size_t(i)].resolutionMs < 1 ||
            tiers[size_t(i)].retentionMs < tiers[size_t(i)].resolutionMs)
            return std::nullopt;
    }
    return tiers;
}

} // namespace poolscope::recordingdetail
