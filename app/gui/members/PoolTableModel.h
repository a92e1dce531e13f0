#pragma once

#include "health/HealthStore.h"
#include "pool/PoolSummary.h"
#include "pool/PoolTypes.h"

#include <optional>

#include <QAbstractTableModel>
#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>

namespace poolscope {

class MemberColors;
class PoolHealth;
class PoolHistory;
class PoolSession;
class RateTracker;

// The pool as a table: one row per member in the pool and per evicted member (greyed, with its
// saved count). Rows keep their place across polls (new members are appended, gone members
// removed), so selections survive; sorting and filtering belong to a QSortFilterProxyModel.
//
// Summary mode (big pools, see PoolObservation::summaryMode): the model has one row per rank
// (rowCount = pool size, then the evicted members) but holds only a window of rows read by rank,
// the rows on screen; rows outside it show a "…" placeholder until the poller has read them.
// Rows are in rank order (count ascending, the next to be allocated first) and stay so.
class PoolTableModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Member, Count, Share, Rate, State, Debt, Health, LastChange, ColumnCount };
    enum Role {
        MemberRole = Qt::UserRole + 1, // QByteArray: the member id
        SortRole,                      // numbers as numbers, for the sort proxy
        EvictedRole,                   // bool
        RawRole,    // unformatted value, for CSV export (last change: ISO 8601 UTC)
        PinnedRole, // bool: pinned to the chart
    };

    struct Row {
        QByteArray member;
        double count = 0; // the saved count when evicted
        bool evicted = false;
        // Of all allocations counted in the pool; -1 when unknown (a big pool before its first
        // totals scan).
        double share = 0;
        // Allocations per second over the rate window; -1 when unknown (a big pool's member that
        // the poller does not follow poll to poll).
        double rate = 0;
        double debt = 0; // pool minimum of the others minus own count, when below
        std::optional<qint64> lastChangeMs;
        // Live rows (setLiveRows): the poll whose share, rate, debt and last change these are.
        quint64 derivedFor = 0;
    };

    explicit PoolTableModel(const MemberColors *colors = nullptr, QObject *parent = nullptr);

    // Rows from one observation, in allocation order (pool members) then evicted ones.
    static QList<Row> buildRows(const PoolSnapshot &snapshot, const RateTracker *rates,
                                const PoolHistory *history);
    // Rows of a big pool's rank window (summary mode). total: the sum of all counts (0 when not
    // known yet); lowest/secondLowest: the two lowest counts in the pool, for the debt.
    static QList<Row> buildRankRows(const QList<RankedMember> &ranked, double total, double lowest,
                                    double secondLowest, const RateTracker *rates,
                                    const PoolHistory *history);
    static QList<Row> buildEvictedRows(const QList<EvictedMember> &evicted,
                                       const PoolHistory *history);
    // Takes the new rows, keeping the place of rows already shown. nowMs: for "x s ago".
    // Leaves summary mode.
    void setRows(const QList<Row> &rows, qint64 nowMs);
    // The rows of a poll as setRows(buildRows(snapshot, rates, history)) makes them, but only the
    // member and count are kept per poll: share, rate, debt and last change are worked out when a
    // row is read (drawn, sorted, filtered, exported), from `rates` and `history` as they are
    // then. A poll whose read changed only counts against the read shown updates only those rows.
    // At 10,000 members this spares a hash lookup or two of every member on every poll.
    void setLiveRows(const PoolSnapshot &snapshot, const RateTracker *rates,
                     const PoolHistory *history, qint64 nowMs);
    // Summary mode: poolSize rows by rank, of which [windowFrom, windowFrom + window.size()) are
    // known, then the evicted rows.
    void setSummary(qint64 poolSize, qint64 windowFrom, const QList<Row> &window,
                    const QList<Row> &evicted, qint64 nowMs);
    bool isSummaryMode() const { return m_summary; }
    // Credentials in member ids (`user:pass@`) are masked in the text shown (display, tooltips)
    // unless this is on; RawRole always holds the id as it is (exports mask it themselves).
    void setCredentialsShown(bool shown);
    // False for a summary-mode row that has not been read yet (shown as "…").
    bool isRowLoaded(int row) const;
    void clear();
    // Where the pins come from (the session's): pinned members are marked in the member column
    // ("⚑") and the state. None: nothing is pinned.
    void setPinSource(const PoolSession *session);
    bool isPinned(const QByteArray &member) const;
    // Where the Health column's records come from (the session's); none: every member unknown.
    void setHealthSource(const PoolHealth *health);
    // The records changed: the Health column is drawn (and filtered) again.
    void healthChanged();
    // Null when the member has no record.
    const HealthRecord *healthOf(const QByteArray &member) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    const Row &rowAt(int row) const;
    // The SortRole value of a numeric column (every column but Member), without a QVariant.
    static double numericSortKey(const Row &row, int column);
    // -1 when not in the model (in summary mode: not in the window read, nor evicted).
    int rowOf(const QByteArray &member) const;
    int poolMemberCount() const { return m_poolMembers; }
    int evictedCount() const {
        return m_summary ? int(m_rows.size()) : int(m_rows.size()) - m_poolMembers;
    }

private:
    QVariant display(const Row &row, int column) const;
    QString memberText(const Row &row) const;
    QVariant sortValue(const Row &row, int column) const;
    QVariant rawValue(const Row &row, int column) const;
    void rebuildIndex();
    // setRows() when the rows are the members already shown: updates values in place.
    bool updateRowsInPlace(const QList<Row> &rows);
    void applyRows(const QList<Row> &rows, qint64 nowMs);
    // setLiveRows() when only counts changed since the read shown; false (nothing written) if not.
    bool updateLiveCounts(const PoolSnapshot &snapshot);
    void setLiveSource(const PoolSnapshot &snapshot, const RateTracker *rates,
                       const PoolHistory *history);
    // A live row's share, rate, debt and last change for the current poll.
    void derive(Row &row) const;

    void leaveSummaryMode();

    const MemberColors *m_colors;
    // Full mode: every row. Summary mode: the evicted rows only (after the m_poolMembers ranks).
    QList<Row> m_rows;
    bool m_summary = false;
    qint64 m_windowFrom = 0;
    QList<Row> m_window; // summary mode: rows read by rank, from m_windowFrom
    QHash<QByteArray, int> m_rowOf;
    const PoolSession *m_pinSource = nullptr;
    const PoolHealth *m_health = nullptr;
    int m_poolMembers = 0;
    qint64 m_nowMs = 0;
    bool m_credentialsShown = false;
    // Live rows (setLiveRows): where and from what poll their derived values come.
    struct LiveSource {
        const RateTracker *rates = nullptr;
        const PoolHistory *history = nullptr;
        double total = 0;
        double lowest = 0;
        double secondLowest = 0;
        qsizetype poolSize = 0;
        quint64 poll = 0;   // bumped by every setLiveRows(): rows derived before are stale
        quint64 readId = 0; // the read shown (PoolSnapshot::readId), 0: none known
    };
    bool m_live = false;
    LiveSource m_source;
};

} // namespace poolscope
