#pragma once

#include "client/RedisConnection.h"
#include "pool/PoolSummary.h"
#include "pool/PoolTypes.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace poolscope {

// What a search of a big pool by name has found so far.
struct MemberSearchResult {
    quint64 id = 0;  // the search this answers (PoolMonitor::setMemberSearch)
    QByteArray text; // what was typed: a whole member or the start of one
    bool exactFound = false;
    RankedMember exact; // the member named exactly, with its rank and count, when in the pool
    // Members whose id starts with text (the exact one too), in the order the scan met them.
    QList<PoolMember> matches;
    qint64 pagesRead = 0;   // ZSCAN pages so far
    bool complete = false;  // the scan has been through the whole pool
    bool truncated = false; // stopped at kMaxMatches: type more to narrow it
    QString error;          // the last command failed: why
};

// Finds members of a pool too big to read whole (summary mode), with short commands only:
// the member typed exactly is looked up with ZSCORE and ZRANK (O(log N) each); members that start
// with the text are collected by ZSCAN MATCH, a few pages of COUNT PoolOperations::kScanCount at a
// time (each ~0.2 ms of server time, whatever the pool's size), so a caller can spread the pass
// over many short steps. Blocking: run it on a worker thread.
class MemberSearch {
public:
    static constexpr int kMaxMatches = 200;

    // Starts a new search (an empty text: no search).
    void start(quint64 id, const QByteArray &text);
    void clear() { start(0, {}); }
    bool isActive() const { return !m_result.text.isEmpty(); }
    // Active and neither through the pool nor full.
    bool needsScan() const { return isActive() && !m_result.complete && !m_result.truncated; }

    // One step: the exact lookup first (two commands), then up to maxPages ZSCAN MATCH pages.
    // Throws RedisError when a command fails.
    void step(RedisConnection &connection, const QByteArray &poolKey, int maxPages);
    // Reads the counts of the members found again (one ZMSCORE, plus the exact lookup), dropping
    // those no longer in the pool. Throws RedisError when a command fails.
    void refresh(RedisConnection &connection, const QByteArray &poolKey);
    const MemberSearchResult &result() const { return m_result; }

    // The ZSCAN MATCH pattern for "starts with text": glob characters escaped, then '*'.
    static QByteArray prefixPattern(const QByteArray &text);

private:
    void lookUpExact(RedisConnection &connection, const QByteArray &poolKey);

    MemberSearchResult m_result;
    QByteArray m_cursor = "0";
    bool m_exactDone = false;
};

} // namespace poolscope
