#include "members/PoolTableModel.h"

#include "members/HealthCell.h"

#include "history/PoolHistory.h"
#include "session/DisplayFormat.h"
#include "session/MemberColors.h"
#include "session/PoolHealth.h"
#include "session/PoolSession.h"
#include "session/RateTracker.h"
#include "text/CredentialMask.h"

#include <algorithm>
#include <limits>
#include <vector>

#include <QColor>
#include <QDateTime>
#include <QFont>
#include <QLocale>
#include <QSet>

namespace poolscope {

namespace {

const QString kDash = QStringLiteral("–");
const QString kNotRead = QStringLiteral("…");
const QString kPinMark = QStringLiteral("⚑ ");

const PoolTableModel::Row &placeholderRow() {
    static const PoolTableModel::Row row;
    return row;
}

} // namespace

PoolTableModel::PoolTableModel(const MemberColors *colors, QObject *parent)
    : QAbstractTableModel(parent)
    , m_colors(colors) {}

void PoolTableModel::leaveSummaryMode() {
    if (!m_summary)
        return;
    beginResetModel();
    m_summary = false;
    m_rows.clear();
    m_rowOf.clear();
    m_window.clear();
    m_windowFrom = 0;
    m_poolMembers = 0;
    endResetModel();
}

void PoolTableModel::setSummary(qint64 poolSize, qint64 windowFrom, const QList<Row> &window,
                                const QList<Row> &evicted, qint64 nowMs) {
    m_nowMs = nowMs;
    m_live = false;
    const int size = int(std::clamp<qint64>(poolSize, 0, std::numeric_limits<int>::max() / 2));
    if (!m_summary) {
        beginResetModel();
        m_summary = true;
        m_poolMembers = size;
        m_windowFrom = windowFrom;
        m_window = window;
        m_rows = evicted;
        rebuildIndex();
        endResetModel();
        return;
    }

    // The evicted rows after the ranks: replaced as a block when their members changed.
    bool sameEvicted = evicted.size() == m_rows.size();
    for (qsizetype i = 0; sameEvicted && i < evicted.size(); ++i)
        sameEvicted = evicted[i].member == m_rows[i].member;
    if (!sameEvicted && !m_rows.isEmpty()) {
        beginRemoveRows({}, m_poolMembers, m_poolMembers + int(m_rows.size()) - 1);
        m_rows.clear();
        rebuildIndex();
        endRemoveRows();
    }

    // The pool grew or shrank: rows at the end of the ranks.
    if (size > m_poolMembers) {
        beginInsertRows({}, m_poolMembers, size - 1);
        m_poolMembers = size;
        endInsertRows();
    } else if (size < m_poolMembers) {
        beginRemoveRows({}, size, m_poolMembers - 1);
        m_poolMembers = size;
        if (m_windowFrom >= size)
            m_window.clear();
        else if (m_windowFrom + m_window.size() > size)
            m_window.resize(size - m_windowFrom);
        endRemoveRows();
    }

    const qint64 oldFrom = m_windowFrom;
    const qint64 oldEnd = m_windowFrom + m_window.size();
    m_windowFrom = windowFrom;
    m_window = window;
    if (m_windowFrom + m_window.size() > m_poolMembers)
        m_window.resize(std::max<qint64>(0, m_poolMembers - m_windowFrom));
    const qint64 newEnd = m_windowFrom + m_window.size();
    // Both the rows that left the window (back to "…") and those that entered it changed.
    const qint64 first = std::min(oldEnd > oldFrom ? oldFrom : m_windowFrom, m_windowFrom);
    const qint64 last = std::min<qint64>(std::max(oldEnd, newEnd), m_poolMembers) - 1;
    if (last >= first && first < m_poolMembers)
        Q_EMIT dataChanged(index(int(first), 0), index(int(last), ColumnCount - 1));

    if (!sameEvicted && !evicted.isEmpty()) {
        beginInsertRows({}, m_poolMembers, m_poolMembers + int(evicted.size()) - 1);
        m_rows = evicted;
        rebuildIndex();
        endInsertRows();
    } else if (sameEvicted && !m_rows.isEmpty()) {
        m_rows = evicted;
        Q_EMIT dataChanged(index(m_poolMembers, 0),
                           index(m_poolMembers + int(m_rows.size()) - 1, ColumnCount - 1));
    }
}

bool PoolTableModel::isRowLoaded(int row) const {
    if (!m_summary || row >= m_poolMembers)
        return row >= 0 && row < rowCount();
    return row >= m_windowFrom && row < m_windowFrom + m_window.size();
}

const PoolTableModel::Row &PoolTableModel::rowAt(int row) const {
    if (!m_summary) {
        const Row &found = m_rows.at(row);
        // Only the derived values are written, and m_rows is never shared while live.
        if (m_live && found.derivedFor != m_source.poll)
            derive(const_cast<Row &>(found));
        return found;
    }
    if (row >= m_poolMembers)
        return m_rows.at(row - m_poolMembers);
    if (row >= m_windowFrom && row < m_windowFrom + m_window.size())
        return m_window.at(row - m_windowFrom);
    return placeholderRow();
}

int PoolTableModel::rowOf(const QByteArray &member) const {
    if (!m_summary)
        return m_rowOf.value(member, -1);
    for (qsizetype i = 0; i < m_window.size(); ++i)
        if (m_window[i].member == member)
            return int(m_windowFrom + i);
    const int evicted = m_rowOf.value(member, -1);
    return evicted < 0 ? -1 : m_poolMembers + evicted;
}

bool PoolTableModel::updateRowsInPlace(const QList<Row> &rows) {
    if (rows.size() != m_rows.size() || m_rows.isEmpty())
        return false;
    // The same members as shown (in any order), each once: only values change. Checked before
    // anything is written, so a miss leaves the model as it was for the general path.
    QList<int> target(rows.size(), -1);
    std::vector<bool> taken(size_t(m_rows.size()), false);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const int at = m_rowOf.value(rows[i].member, -1);
        if (at < 0 || taken[size_t(at)])
            return false;
        taken[size_t(at)] = true;
        target[i] = at;
    }
    int poolMembers = 0;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        m_rows[target[i]] = rows[i];
        if (!rows[i].evicted)
            ++poolMembers;
    }
    m_poolMembers = poolMembers;
    Q_EMIT dataChanged(index(0, Member + 1), index(int(m_rows.size()) - 1, ColumnCount - 1));
    return true;
}

void PoolTableModel::setRows(const QList<Row> &rows, qint64 nowMs) {
    m_live = false;
    applyRows(rows, nowMs);
}

void PoolTableModel::applyRows(const QList<Row> &rows, qint64 nowMs) {
    leaveSummaryMode();
    m_nowMs = nowMs;
    // The common case on every poll of a steady pool: no hash of the incoming rows, no new index.
    if (updateRowsInPlace(rows))
        return;
    QHash<QByteArray, qsizetype> incoming;
    incoming.reserve(rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i)
        incoming.insert(rows[i].member, i);

    int poolMembers = 0;
    for (const Row &row : rows)
        if (!row.evicted)
            ++poolMembers;

    // A new pool (or most of it replaced): one reset is cheaper and clearer than many moves.
    qsizetype gone = 0;
    for (const Row &row : m_rows)
        if (!incoming.contains(row.member))
            ++gone;
    if (m_rows.isEmpty() || gone > 64 || gone * 2 > m_rows.size()) {
        beginResetModel();
        m_rows = rows;
        m_poolMembers = poolMembers;
        rebuildIndex();
        endResetModel();
        return;
    }

    for (int i = int(m_rows.size()) - 1; i >= 0; --i) {
        if (incoming.contains(m_rows[i].member))
            continue;
        beginRemoveRows({}, i, i);
        m_rows.removeAt(i);
        endRemoveRows();
    }
    rebuildIndex();

    QList<Row> added;
    for (const Row &row : rows) {
        const auto existing = m_rowOf.constFind(row.member);
        if (existing == m_rowOf.constEnd())
            added.append(row);
        else
            m_rows[*existing] = row;
    }
    m_poolMembers = poolMembers;
    // A row's member never changes, only its values: leaving the Member column out of the range
    // spares a proxy sorted by member (the default) a re-sort and layout change of every row on
    // every poll, which stalled the window for tens of milliseconds on 10,000 members.
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, Member + 1), index(int(m_rows.size()) - 1, ColumnCount - 1));
    if (!added.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_rows.append(added);
        rebuildIndex();
        endInsertRows();
    }
}

void PoolTableModel::clear() {
    beginResetModel();
    m_live = false;
    m_source = {};
    m_summary = false;
    m_window.clear();
    m_windowFrom = 0;
    m_rows.clear();
    m_rowOf.clear();
    m_poolMembers = 0;
    endResetModel();
}

void PoolTableModel::setPinSource(const PoolSession *session) {
    if (m_pinSource)
        disconnect(m_pinSource, &PoolSession::pinsChanged, this, nullptr);
    m_pinSource = session;
    if (session)
        connect(session, &PoolSession::pinsChanged, this, [this] {
            // Rare (a person's click): every row's pin mark and state drawn again.
            if (rowCount() > 0)
                Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        });
}

bool PoolTableModel::isPinned(const QByteArray &member) const {
    return m_pinSource && m_pinSource->isPinned(member);
}

void PoolTableModel::setHealthSource(const PoolHealth *health) {
    m_health = health;
    healthChanged();
}

void PoolTableModel::healthChanged() {
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, Health), index(rowCount() - 1, Health));
}

const HealthRecord *PoolTableModel::healthOf(const QByteArray &member) const {
    return m_health ? m_health->recordOf(member) : nullptr;
}

void PoolTableModel::rebuildIndex() {
    m_rowOf.clear();
    m_rowOf.reserve(m_rows.size());
    for (int i = 0; i < int(m_rows.size()); ++i)
        m_rowOf.insert(m_rows[i].member, i);
}

int PoolTableModel::rowCount(const QModelIndex &parent) const {
    if (parent.isValid())
        return 0;
    return m_summary ? m_poolMembers + int(m_rows.size()) : int(m_rows.size());
}

int PoolTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

Qt::ItemFlags PoolTableModel::flags(const QModelIndex &index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemNeverHasChildren;
}

void PoolTableModel::setCredentialsShown(bool shown) {
    if (shown == m_credentialsShown)
        return;
    m_credentialsShown = shown;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, Member), index(rowCount() - 1, Member));
}

QString PoolTableModel::memberText(const Row &row) const {
    const QString text = QString::fromUtf8(row.member);
    return m_credentialsShown ? text : maskCredentials(text);
}

QVariant PoolTableModel::display(const Row &row, int column) const {
    switch (Column(column)) {
    case Member:
        return isPinned(row.member) ? kPinMark + memberText(row) : memberText(row);
    case Count:
        return formatCount(row.count);
    case Share:
        return row.evicted || row.share < 0 ? kDash : formatShare(row.share);
    case Rate:
        return row.evicted || row.rate < 0 ? kDash : formatRate(row.rate);
    case State: {
        const QString state = row.evicted
                                  ? tr("evicted (saved %1)").arg(formatCount(row.count))
                                  : (row.debt > 0 ? tr("in pool · catching up") : tr("in pool"));
        return isPinned(row.member) ? tr("%1 · pinned").arg(state) : state;
    }
    case Debt:
        return row.evicted ? kDash : formatCount(row.debt);
    case LastChange:
        return row.lastChangeMs ? formatAgo(m_nowMs - *row.lastChangeMs) : kDash;
    case Health:
        return healthText(healthOf(row.member));
    case ColumnCount:
        break;
    }
    return {};
}

double PoolTableModel::numericSortKey(const Row &row, int column) {
    switch (Column(column)) {
    case Count:
        return row.count;
    case Share:
        return row.evicted ? -1.0 : row.share;
    case Rate:
        return row.evicted ? -1.0 : row.rate;
    case State:
        return row.evicted ? 1 : 0;
    case Debt:
        return row.evicted ? -1.0 : row.debt;
    case LastChange:
        return row.lastChangeMs ? double(*row.lastChangeMs) : -1.0;
    case Member:
    case Health: // by healthSortKey(), which needs the model's records (sortValue)
    case ColumnCount:
        break;
    }
    return 0;
}

QVariant PoolTableModel::sortValue(const Row &row, int column) const {
    if (column == Member)
        return QString::fromUtf8(row.member);
    if (column < 0 || column >= ColumnCount)
        return {};
    if (column == Health)
        return healthSortKey(healthOf(row.member));
    return numericSortKey(row, column);
}

QVariant PoolTableModel::rawValue(const Row &row, int column) const {
    switch (Column(column)) {
    case Member:
        return QString::fromUtf8(row.member);
    case Count:
        return QString::number(row.count, 'f', 0);
    case Share:
        return row.evicted || row.share < 0 ? QString() : QString::number(row.share, 'f', 6);
    case Rate:
        return row.evicted || row.rate < 0 ? QString() : QString::number(row.rate, 'f', 3);
    case State:
        return row.evicted ? QStringLiteral("evicted") : QStringLiteral("in pool");
    case Debt:
        return row.evicted ? QString() : QString::number(row.debt, 'f', 0);
    case LastChange:
        return row.lastChangeMs ? QDateTime::fromMSecsSinceEpoch(*row.lastChangeMs, Qt::UTC)
                                      .toString(Qt::ISODateWithMs)
                                : QString();
    case Health:
        return healthStateName(healthState(healthOf(row.member)));
    case ColumnCount:
        break;
    }
    return {};
}

QVariant PoolTableModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int column = index.column();
    if (!isRowLoaded(index.row())) {
        switch (role) {
        case Qt::DisplayRole:
        case RawRole:
            return kNotRead;
        case Qt::ForegroundRole:
            return QColor(0x9e, 0x9e, 0x9e);
        case Qt::ToolTipRole:
            return tr("Rank %1 of a big pool: read on the next poll (only the rows on "
                      "screen are read)")
                .arg(QLocale().toString(index.row()));

        case Qt::TextAlignmentRole:
            return QVariant(Qt::AlignCenter);
        default:
            return {};
        }
    }
    const Row &row = rowAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case SortRole:
        return sortValue(row, column);
    case RawRole:
        return rawValue(row, column);
    case MemberRole:
        return row.member;
    case EvictedRole:
        return row.evicted;
    case PinnedRole:
        return isPinned(row.member);
    case Qt::DecorationRole:
        if (column == Member && m_colors) {
            QColor color = m_colors->colorFor(row.member);
            if (row.evicted)
                color.setAlpha(90);
            return color;
        }
        return {};
    case Qt::ForegroundRole:
        if (row.evicted)
            return QColor(0x80, 0x80, 0x80);
        if ((column == Debt && row.debt > 0) ||
            (column == Health && healthState(healthOf(row.member)) == HealthState::Down))
            return QColor(0xb0, 0x3a, 0x2e);
        if (column == Health && healthState(healthOf(row.member)) == HealthState::Up)
            return QColor(0x2e, 0x7d, 0x32);
        return {};
    case Qt::FontRole:
        if (row.evicted) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == Member || column == State || column == Health)
            return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column == Health)
            return healthTooltip(healthOf(row.member), QDateTime::currentMSecsSinceEpoch(),
                                 m_credentialsShown);
        if (column == Member && isPinned(row.member))
            return tr("%1 is pinned to the chart (Ctrl+P again to unpin)")
                .arg(QString::fromUtf8(row.member));
        if (row.evicted)
            return tr("%1 is evicted: it gets no allocations. Saved count %2; restore "
                      "it with Ctrl+R.")
                .arg(memberText(row), formatCount(row.count));
        if (row.debt > 0)
            return tr("%1 is %2 below the lowest of the others: it will take about "
                      "the next %2 allocations.")
                .arg(memberText(row), formatCount(row.debt));
        return memberText(row);
    default:
        return {};
    }
}

QVariant PoolTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    // The CSV header (RawRole) stays English for scripts; the window shows it translated.
    static const char *const kNames[ColumnCount] = {
        QT_TR_NOOP("member"),
        //: The allocation count (the sorted set's score) column.
        QT_TR_NOOP("count"), QT_TR_NOOP("share"), QT_TR_NOOP("rate/s"), QT_TR_NOOP("state"),
        QT_TR_NOOP("debt"), QT_TR_NOOP("health"), QT_TR_NOOP("last change")};
    if (role == Qt::DisplayRole)
        return tr(kNames[section]);
    if (role == RawRole && section != LastChange)
        return QString::fromLatin1(kNames[section]);
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case Member:
            return tr("Proxy id (the sorted set's member); the swatch is its chart "
                      "colour");
        case Count:
            return tr("Allocations recorded so far (the score); for evicted members "
                      "the saved count");
        case Share:
            return tr("Share of all allocations counted in the pool");
        case Rate:
            return tr("Allocations per second over the last window (– for a big "
                      "pool's members that are not charted: only those are read "
                      "from poll to poll)");
        case State:
            return tr("In the pool, or evicted (kept aside with its saved count)");
        case Debt:
            return tr("Catch-up debt: how far the count is below the lowest count "
                      "of the others. A member with debt takes every allocation "
                      "until it has caught up.");
        case LastChange:
            return tr("When the count last changed");
        case Health:
            return tr("The last health check through the member's proxy (shared in "
                      "Redis by every dashboard, check and guard): up with its "
                      "latency, down with its failure, not checkable, or unknown");
        case ColumnCount:
            break;
        }
    }
    if (role == RawRole && section == LastChange)
        return QStringLiteral("last change (ISO 8601 UTC)");
    if (role == Qt::TextAlignmentRole)
        return QVariant((section == Member || section == State || section == Health
                             ? Qt::AlignLeft
                             : Qt::AlignRight) |
                        Qt::AlignVCenter);
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace poolscope
