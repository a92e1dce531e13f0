#pragma once

#include "pool/PoolTypes.h"

#include <optional>

#include <QAbstractTableModel>
#include <QByteArray>
#include <QHash>
#include <QList>

namespace poolscope {

class MemberColors;
class PoolHistory;
class RateTracker;

// The pool as a table: one row per member in the pool and per evicted member (greyed, with its
// saved count). Rows keep their place across polls (new members are appended, gone members
// removed), so selections survive; sorting and filtering belong to a QSortFilterProxyModel.
class PoolTableModel final : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Member, Count, Share, Rate, State, Debt, LastChange, ColumnCount };
    enum Role {
        MemberRole = Qt::UserRole + 1, // QByteArray: the member id
        SortRole,                      // numbers as numbers, for the sort proxy
        EvictedRole,                   // bool
        RawRole,                       // unformatted value, for CSV export
    };

    struct Row {
        QByteArray member;
        double count = 0; // the saved count when evicted
        bool evicted = false;
        double share = 0; // of all allocations counted in the pool
        double rate = 0;  // allocations per second over the rate window
        double debt = 0;  // pool minimum of the others minus own count, when below
        std::optional<qint64> lastChangeMs;
    };

    explicit PoolTableModel(const MemberColors *colors = nullptr, QObject *parent = nullptr);

    // Rows from one observation, in allocation order (pool members) then evicted ones.
    static QList<Row> buildRows(const PoolSnapshot &snapshot, const RateTracker *rates,
                                const PoolHistory *history);
    // Takes the new rows, keeping the place of rows already shown. nowMs: for "x s ago".
    void setRows(const QList<Row> &rows, qint64 nowMs);
    void clear();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    const Row &rowAt(int row) const { return m_rows.at(row); }
    int rowOf(const QByteArray &member) const { return m_rowOf.value(member, -1); }
    int poolMemberCount() const { return m_poolMembers; }
    int evictedCount() const { return int(m_rows.size()) - m_poolMembers; }

private:
    QVariant display(const Row &row, int column) const;
    QVariant sortValue(const Row &row, int column) const;
    QVariant rawValue(const Row &row, int column) const;
    void rebuildIndex();

    const MemberColors *m_colors;
    QList<Row> m_rows;
    QHash<QByteArray, int> m_rowOf;
    int m_poolMembers = 0;
    qint64 m_nowMs = 0;
};

} // namespace poolscope
