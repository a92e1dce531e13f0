#pragma once

#include "pool/PoolTypes.h"

#include <optional>

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

namespace poolscope {

struct HistoryPoint {
    qint64 timeMs = 0; // milliseconds since the epoch
    double count = 0;
    bool operator==(const HistoryPoint &) const = default;
};

struct BandPoint {
    qint64 timeMs = 0;
    double min = 0;
    double median = 0;
    double max = 0;
};

// Something an operator did (or saw) that the chart marks with a vertical line.
struct HistoryEvent {
    enum class Kind { Seed, Evict, Restore, Gap, Note };
    qint64 timeMs = 0;
    Kind kind = Kind::Note;
    QByteArray member; // empty for pool-wide events
    QString label;     // e.g. "restore 192.0.2.10:8080 (zero)"
    // Set for an event read from elsewhere that may be read again (the guard's stream entry id):
    // it is recorded once however often it is seen.
    QByteArray sourceId{};
};

// Per-member allocation counts over time, in bounded memory however long the dashboard runs.
//
// Each tracked member has tiered ring buffers: full resolution (one point per poll, at least
// 0.9 s apart) for the last hour, 10 s buckets for a day, 5 min buckets for a week; older data
// falls off. A bucket keeps the last count seen in it (counts are cumulative, so the last value
// is exact). Pool-wide min / median / max and the total are kept in the same tiers. At most
// maxTrackedMembers unpinned members have a series: past that, a new member takes the place of the
// one seen longest ago (if it was not in the same poll), else it gets no series and only the band
// covers it. Pinned members are always tracked and never replaced.
// A slot gathers the samples of one resolution (9/10 of it in the finest tier, so that a poll
// timer's jitter never merges two 1 s polls) from its first sample on; its point carries the
// time of the last sample in it. Counts take 2 bytes a point (16-bit offsets from a base per
// block of 64 slots) while a block's counts are whole numbers within 65,534 of each other, 8
// bytes otherwise. A member whose every point has aged out of the oldest tier is forgotten, which
// makes room for members seen later.
//
// Line breaks: series(), band() and totalSeries() return a point whose value is NaN (all three
// values for band()) where the chart must not join its neighbours: at a time passed to markGap(),
// and where a member was missing from the polls (evicted) between two points it has.
// Not thread-safe: use it from one thread (the GUI thread).
class PoolHistory {
public:
    struct Limits {
        int maxTrackedMembers = 2000;
        qint64 fineResolutionMs = 1000;
        int finePoints = 3600;
        qint64 mediumResolutionMs = 10000;
        int mediumPoints = 8640;
        qint64 coarseResolutionMs = 300000;
        int coarsePoints = 2016;
    };

    PoolHistory();
    explicit PoolHistory(Limits limits);
    ~PoolHistory();

    // Records one poll. members: the counts read at timeMs (any order). Members seen before but
    // missing now keep their series (evicted members stay charted up to their eviction). The band
    // and total come from these counts. A timeMs older than latestTimeMs() is ignored.
    void record(qint64 timeMs, const QList<PoolMember> &members);
    // Records the pool-wide band only (for big pools where not every member is read). Called
    // after record() for the same poll, it replaces the band record() computed from the members.
    void recordBand(qint64 timeMs, double min, double median, double max, double total);
    // Keeps the latest 10,000 events (and gaps); older ones are dropped.
    void addEvent(const HistoryEvent &event);
    // Marks a hole in the data (disconnect): series are not joined across it.
    void markGap(qint64 timeMs, const QString &reason);

    // Track these members even past maxTrackedMembers and never replace them. The pins are
    // owned by the session (PoolSession::pins), which hands them to each history it shows.
    void setPinned(const QList<QByteArray> &members);

    // Points of one member between fromMs and toMs (inclusive), oldest first, finest tier
    // available for each part of the range.
    QList<HistoryPoint> series(const QByteArray &member, qint64 fromMs, qint64 toMs) const;
    QList<BandPoint> band(qint64 fromMs, qint64 toMs) const;
    QList<HistoryPoint> totalSeries(qint64 fromMs, qint64 toMs) const;
    QList<HistoryEvent> events(qint64 fromMs, qint64 toMs) const;
    QList<QByteArray> trackedMembers() const;
    int maxTrackedMembers() const;

    // Allocations per second of one member over the last windowMs (from its count's rise);
    // 0 when unknown.
    double ratePerSecond(const QByteArray &member, qint64 windowMs) const;
    // Per-member rise of the count over the last windowMs, for "share of the last window".
    QHash<QByteArray, double> deltas(qint64 windowMs) const;
    // When the member's count last changed; nullopt when never seen changing (or not tracked).
    std::optional<qint64> lastChangeMs(const QByteArray &member) const;
    qint64 latestTimeMs() const;

    // Bytes held by the store (buffers and keys), for the memory benchmark.
    qint64 bytesHeld() const;
    void clear();

private:
    struct Data;
    std::unique_ptr<Data> m_data;
};

} // namespace poolscope
