#include "overview/OverviewModel.h"

#include "text/MemberText.h"

#include <algorithm>
#include <cmath>

#include <QDateTime>
#include <QHash>
#include <QLocale>

namespace poolscope {
namespace {

constexpr int kSparkPoints = 12; // the text trend: the last minute at the default 5 s

QString unknownText() {
    return QStringLiteral("\u2014"); // an em dash: no figure
}

QString countText(double count) {
    const QLocale locale;
    if (std::floor(count) == count && std::fabs(count) < 9e15)
        return locale.toString(qint64(count));
    return locale.toString(count, 'f', 1);
}

QString timeText(qint64 ms) {
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(ms);
    const QLocale locale;
    if (time.date() == QDate::currentDate())
        return locale.toString(time.time(), QStringLiteral("HH:mm:ss"));
    return locale.toString(time, QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString environmentText(Environment environment) {
    switch (environment) {
    case Environment::None:
        return {};
    case Environment::Production:
        return OverviewModel::tr("production");
    case Environment::Staging:
        return OverviewModel::tr("staging");
    case Environment::Development:
        return OverviewModel::tr("development");
    }
    return {};
}

QString stateText(RowState state) {
    switch (state) {
    case RowState::Waiting:
        return OverviewModel::tr("waiting");
    case RowState::Ok:
        return OverviewModel::tr("ok");
    case RowState::NotAPool:
        return OverviewModel::tr("not a pool");
    case RowState::NodeUnreachable:
        return OverviewModel::tr("node unreachable");
    case RowState::Unreachable:
        return OverviewModel::tr("unreachable");
    case RowState::NotPolled:
        return OverviewModel::tr("not polled");
    }
    return {};
}

QVariantList trendValues(const OverviewRow &row, bool rates) {
    QVariantList values;
    for (const TrendPoint &point : row.trend.points()) {
        if (!rates)
            values.append(point.spread);
        else if (point.allocationRate)
            values.append(*point.allocationRate);
        else
            values.append(QVariant());
    }
    return values;
}

bool isNumeric(OverviewModel::Column column) {
    return column >= OverviewModel::Members && column <= OverviewModel::HealthDown;
}

} // namespace

OverviewModel::OverviewModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int OverviewModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OverviewModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void OverviewModel::setRows(const QList<OverviewRow> &rows) {
    QHash<QString, qsizetype> wanted;
    for (qsizetype i = 0; i < rows.size(); ++i)
        wanted.insert(rows[i].id(), i);
    // Gone: removed from the bottom up, so the indexes above stay right.
    for (qsizetype i = m_rows.size() - 1; i >= 0; --i) {
        if (wanted.contains(m_rows[i].id()))
            continue;
        beginRemoveRows({}, int(i), int(i));
        m_rows.removeAt(i);
        endRemoveRows();
    }
    QHash<QString, qsizetype> present;
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        present.insert(m_rows[i].id(), i);
    QList<OverviewRow> added;
    for (const OverviewRow &row : rows)
        if (!present.contains(row.id()))
            added.append(row);
    if (!added.isEmpty()) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + added.size() - 1));
        m_rows += added;
        endInsertRows();
    }
    // Now the same rows, perhaps in another order: put them in the order given.
    bool sameOrder = true;
    for (qsizetype i = 0; i < m_rows.size() && sameOrder; ++i)
        sameOrder = m_rows[i].id() == rows[i].id();
    if (!sameOrder) {
        Q_EMIT layoutAboutToBeChanged();
        const QModelIndexList before = persistentIndexList();
        QModelIndexList after;
        for (const QModelIndex &index : before)
            after.append(index.isValid() ? this->index(int(wanted.value(m_rows[index.row()].id())),
                                                       index.column())
                                         : index);
        m_rows = rows;
        changePersistentIndexList(before, after);
        Q_EMIT layoutChanged();
    } else {
        m_rows = rows;
    }
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

QString OverviewModel::columnKey(Column column) {
    switch (column) {
    case Connection:
        return QStringLiteral("connection");
    case Group:
        return QStringLiteral("group");
    case EnvironmentColumn:
        return QStringLiteral("environment");
    case Pool:
        return QStringLiteral("pool");
    case Node:
        return QStringLiteral("node");
    case Members:
        return QStringLiteral("members");
    case Evicted:
        return QStringLiteral("evicted");
    case Minimum:
        return QStringLiteral("min");
    case Median:
        return QStringLiteral("median");
    case Maximum:
        return QStringLiteral("max");
    case Spread:
        return QStringLiteral("spread");
    case Jain:
        return QStringLiteral("jain");
    case AllocationRate:
        return QStringLiteral("allocations_per_s");
    case HealthUp:
        return QStringLiteral("health_up");
    case HealthDown:
        return QStringLiteral("health_down");
    case Guard:
        return QStringLiteral("guard_holder");
    case Alerts:
        return QStringLiteral("alerts");
    case LastPoll:
        return QStringLiteral("last_good_poll_ms");
    case RateTrend:
        return QStringLiteral("allocations_per_s_trend");
    case SpreadTrend:
        return QStringLiteral("spread_trend");
    case Status:
        return QStringLiteral("state");
    case Why:
        return QStringLiteral("why");
    case ColumnCount:
        break;
    }
    return {};
}

QVariant OverviewModel::rawValue(const OverviewRow &row, Column column) {
    const bool figures = row.hasFigures;
    switch (column) {
    case Connection:
        return row.connection;
    case Group:
        return row.group;
    case EnvironmentColumn:
        return environmentName(row.environment);
    case Pool:
        return row.placeholder ? QVariant() : QVariant(memberText(row.pool));
    case Node:
        return row.node.isEmpty() ? QVariant() : QVariant(row.node);
    case Members:
        return figures ? QVariant(row.members) : QVariant();
    case Evicted:
        return figures || row.state == RowState::NotAPool ? QVariant(row.evicted) : QVariant();
    case Minimum:
        return figures ? QVariant(row.minimum) : QVariant();
    case Median:
        return figures ? QVariant(row.median) : QVariant();
    case Maximum:
        return figures ? QVariant(row.maximum) : QVariant();
    case Spread:
        return figures ? QVariant(row.spread()) : QVariant();
    case Jain:
        return figures && row.jainIndex ? QVariant(*row.jainIndex) : QVariant();
    case AllocationRate:
        return row.allocationRate ? QVariant(*row.allocationRate) : QVariant();
    case HealthUp:
        return row.health.known() ? QVariant(row.health.up) : QVariant();
    case HealthDown:
        return row.health.known() ? QVariant(row.health.down) : QVariant();
    case Guard:
        return row.guardKnown ? QVariant(QString::fromUtf8(row.guardHolder)) : QVariant();
    case Alerts:
        return row.alertsKnown ? QVariant(row.alerts) : QVariant();
    case LastPoll:
        return row.lastGoodPollMs > 0 ? QVariant(row.lastGoodPollMs) : QVariant();
    case RateTrend:
        return trendValues(row, true);
    case SpreadTrend:
        return trendValues(row, false);
    case Status:
        return rowStateName(row.state);
    case Why:
        return row.problem.isEmpty() ? QVariant() : QVariant(row.problem);
    case ColumnCount:
        break;
    }
    return {};
}

QString OverviewModel::sparkline(const QList<std::optional<double>> &values) {
    static const QString blocks =
        QStringLiteral("\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588");
    double highest = 0;
    for (const std::optional<double> &value : values)
        if (value)
            highest = std::max(highest, *value);
    QString text;
    for (const std::optional<double> &value : values) {
        if (!value || !std::isfinite(*value)) {
            text += QChar(u' ');
            continue;
        }
        const int level =
            highest > 0 ? std::clamp(int(std::lround(*value / highest * 7)), 0, 7) : 0;
        text += blocks.at(level);
    }
    return text;
}

QString OverviewModel::displayText(const OverviewRow &row, Column column) {
    const QVariant raw = rawValue(row, column);
    const QLocale locale;
    switch (column) {
    case EnvironmentColumn:
        return environmentText(row.environment);
    case Pool:
        return raw.isValid() ? raw.toString() : unknownText();
    case Members:
    case Evicted:
    case HealthUp:
    case HealthDown:
        return raw.isValid() ? locale.toString(raw.toLongLong()) : unknownText();
    case Minimum:
    case Median:
    case Maximum:
    case Spread:
        return raw.isValid() ? countText(raw.toDouble()) : unknownText();
    case Jain:
        if (raw.isValid())
            return locale.toString(raw.toDouble(), 'f', 4);
        return row.hasFigures ? tr("unknown") : unknownText();
    case AllocationRate:
        if (!raw.isValid())
            return unknownText();
        return (row.rateEstimated ? QStringLiteral("~") : QString()) +
               locale.toString(raw.toDouble(), 'f', 1);
    case Guard:
        if (!raw.isValid())
            return row.hasFigures ? tr("unknown") : unknownText();
        return raw.toString().isEmpty() ? tr("none") : raw.toString();
    case Alerts:
        if (!raw.isValid())
            return unknownText();
        return row.alerts.isEmpty() ? tr("none") : row.alerts.join(QStringLiteral(", "));
    case LastPoll:
        return raw.isValid() ? timeText(raw.toLongLong()) : tr("never");
    case RateTrend:
    case SpreadTrend: {
        QList<std::optional<double>> values;
        for (const TrendPoint &point : row.trend.points())
            values.append(column == RateTrend ? point.allocationRate
                                              : std::optional<double>(point.spread));
        return sparkline(values.mid(std::max<qsizetype>(0, values.size() - kSparkPoints)));
    }
    case Status:
        return stateText(row.state);
    case Node:
    case Why:
        return raw.toString();
    case Connection:
    case Group:
    case ColumnCount:
        return raw.toString();
    }
    return {};
}

QVariant OverviewModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= ColumnCount)
        return {};
    const OverviewRow &row = m_rows[index.row()];
    const auto column = Column(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, column);
    case SortRole:
        if (column == Status)
            return int(row.state);
        if (column == RateTrend || column == SpreadTrend)
            return {};
        return rawValue(row, column);
    case ExportRole:
        return rawValue(row, column);
    case Qt::TextAlignmentRole:
        return isNumeric(column) ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::ToolTipRole:
        if (column == Jain && row.hasFigures && !row.jainIndex)
            return tr("Not known: pools of more than %1 members are never read whole, only by "
                      "rank")
                .arg(QLocale().toString(PoolCatalog::kExactSumLimit));
        if ((column == HealthUp || column == HealthDown) &&
            row.health.source == OverviewHealth::Source::Walk)
            return tr("From the last complete walk over the health hash (one page a poll), "
                      "finished at %1")
                .arg(timeText(row.health.asOfMs));
        if (column == Guard && row.hasFigures && !row.guardKnown)
            return tr("The guard lease could not be read");
        if (column == Status || column == Why)
            return row.problem;
        return {};
    case RowIdRole:
        return row.id();
    case StateRole:
        return int(row.state);
    case EnvironmentRole:
        return int(row.environment);
    case TrendRole:
        return QVariant::fromValue(row.trend.points());
    case ErrorKindRole:
        return row.state == RowState::Ok || row.state == RowState::Waiting
                   ? QVariant()
                   : QVariant(int(row.errorKind));
    default:
        return {};
    }
}

QVariant OverviewModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    const auto column = Column(section);
    if (role == ColumnKeyRole)
        return columnKey(column);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Connection:
        return tr("Connection");
    case Group:
        return tr("Group");
    case EnvironmentColumn:
        return tr("Environment");
    case Pool:
        return tr("Pool");
    case Node:
        return tr("Node");
    case Members:
        return tr("Members");
    case Evicted:
        return tr("Evicted");
    case Minimum:
        return tr("Min");
    case Median:
        return tr("Median");
    case Maximum:
        return tr("Max");
    case Spread:
        return tr("Spread");
    case Jain:
        return tr("Jain");
    case AllocationRate:
        return tr("Alloc/s");
    case HealthUp:
        return tr("Up");
    case HealthDown:
        return tr("Down");
    case Guard:
        return tr("Guard");
    case Alerts:
        return tr("Alerts");
    case LastPoll:
        return tr("Last poll");
    case RateTrend:
        return tr("Alloc/s trend");
    case SpreadTrend:
        return tr("Spread trend");
    case Status:
        return tr("Status");
    case Why:
        return tr("Why");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace poolscope
