// Internals shared by RecordingWriter and RecordingReader: the SQLite schema, opening a Qt SQL
// connection, and the packed form of one frame's member counts.
#pragma once

#include "recording/RecordingTypes.h"

#include <optional>
#include <vector>

#include <QByteArray>
#include <QSqlDatabase>
#include <QSqlError>
#include <QString>

namespace poolscope::recordingdetail {

// One member's count in a frame; members are stored by id (the members table).
struct FrameEntry {
    qint64 id = 0;
    double count = 0;
};

// Packs entries sorted by id. Whole counts (the usual case) are stored as varints of their
// distance from the frame's smallest count, the ids as varints of their distance from the
// previous id: about 2 bytes a member for a fair pool. Other counts are stored as doubles.
// The frame is self-contained: any frame decodes without the others.
QByteArray encodeFrame(const std::vector<FrameEntry> &entries);
// False when the blob is damaged (out is then incomplete).
bool decodeFrame(const QByteArray &blob, std::vector<FrameEntry> &out);

// A connection of its own (unique name) to `path`; readOnly opens with QSQLITE_OPEN_READONLY.
// Returns an invalid, closed database and sets *error when it fails.
QSqlDatabase openConnection(const QString &path, bool readOnly, QString *error);
// Closes and unregisters the connection (every query on it must be gone).
void closeConnection(QSqlDatabase &database);

// Creates the tables (and the meta of `info`) in a file that has none, in one write transaction;
// leaves a file with tables as it is. False with *error on failure.
bool ensureSchema(QSqlDatabase &database, const RecordingInfo &info, QString *error);
// Reads the meta table; nullopt with *error when the file is not a recording this build reads.
std::optional<RecordingInfo> readInfo(QSqlDatabase &database, const QString &path, QString *error);

// SQLite found the file damaged (SQLITE_CORRUPT, SQLITE_NOTADB), e.g. a truncated copy.
bool isDamaged(const QSqlError &error);
QString damagedMessage(const QString &path, const QSqlError &error);

QString tiersToText(const RecordingTiers &tiers);
std::optional<RecordingTiers> tiersFromText(const QString &text);

} // namespace poolscope::recordingdetail
