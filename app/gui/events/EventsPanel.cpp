#include "events/EventsPanel.h"

#include "session/PoolSession.h"
#include "i18n/LeftToRight.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QVBoxLayout>

namespace poolscope {

namespace {

constexpr int kTextRole = Qt::UserRole + 1;    // the line as shown, without the time
constexpr int kRawTextRole = Qt::UserRole + 2; // as logged: credentials unmasked
constexpr int kTimeRole = Qt::UserRole + 3;    // ms since the epoch
constexpr int kKindRole = Qt::UserRole + 4;

QIcon severityIcon(LogSeverity severity) {
    static const auto make = [](const QColor &color) {
        QPixmap pixmap(10, 10);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawEllipse(QRectF(1, 1, 8, 8));
        return QIcon(pixmap);
    };
    switch (severity) {
    case LogSeverity::Info:
        return make(QColor(0x43, 0xa0, 0x47));
    case LogSeverity::Warning:
        return make(QColor(0xef, 0x6c, 0x00));
    case LogSeverity::Error:
        return make(QColor(0xc6, 0x28, 0x28));
    }
    return {};
}

// The kinds the session logs under, shown in the window's language; any other stays as it is.
const char *const kKinds[] = {
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "connection"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "demo"),
    //: Evict: taking members out of rotation, their counts kept.
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "evict"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "export"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "guard"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "health"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "load"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "poll"),
    //: The proxy pool (the sorted set the dashboard watches).
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "pool"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "recording"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "restore"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "scan"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "scenario"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "seed"),
    QT_TRANSLATE_NOOP("poolscope::EventsPanel", "server"),
};

QString kindText(const QString &kind) {
    for (const char *known : kKinds)
        if (kind == QLatin1String(known))
            return QCoreApplication::translate("poolscope::EventsPanel", known);
    return kind;
}

} // namespace

EventsPanel::EventsPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_view(new QListWidget(this)) {
    m_view->setWordWrap(true);
    m_view->setTextElideMode(Qt::ElideNone);
    m_view->setResizeMode(QListView::Adjust);
    m_view->setUniformItemSizes(false);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_view->setToolTip(tr("Operations and errors, newest first"));
    // Two lines at least, not the list's usual five: in a small window the members table below
    // needs the height more than a log that scrolls.
    m_view->setMinimumHeight(2 * m_view->fontMetrics().lineSpacing() + 2 * m_view->frameWidth() +
                             4);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view);
    connect(session, &PoolSession::messageLogged, this, &EventsPanel::addEntry);
    connect(session, &PoolSession::credentialsShownChanged, this, &EventsPanel::renderAll);
}

EventsPanel::~EventsPanel() = default;

void EventsPanel::addEntry(const LogEntry &entry) {
    const QString text = entry.severity == LogSeverity::Info
                             ? entry.text
                             : QStringLiteral("%1: %2").arg(kindText(entry.kind), entry.text);
    auto *item = new QListWidgetItem(severityIcon(entry.severity), QString());
    item->setData(kRawTextRole, text);
    item->setData(kTimeRole, entry.timeMs);
    item->setData(kKindRole, entry.kind);
    renderEntry(item);
    if (entry.severity == LogSeverity::Error)
        item->setForeground(QColor(0xb7, 0x1c, 0x1c));
    m_view->insertItem(0, item);
    while (m_view->count() > kMaxEntries)
        delete m_view->takeItem(m_view->count() - 1);
}

void EventsPanel::renderEntry(QListWidgetItem *item) {
    const QDateTime time = QDateTime::fromMSecsSinceEpoch(item->data(kTimeRole).toLongLong());
    const QString text = m_session->displayText(item->data(kRawTextRole).toString());
    // Right to left: the time keeps its order, the line takes its own first letter's direction.
    item->setText(i18n::leftToRight(time.toString(QStringLiteral("HH:mm:ss"))) +
                  QStringLiteral("  ") + i18n::firstStrong(text));
    item->setData(kTextRole, text);
    item->setToolTip(QStringLiteral("%1 · %2\n%3")
                         .arg(time.toString(Qt::ISODateWithMs),
                              kindText(item->data(kKindRole).toString()), text));
}

void EventsPanel::renderAll() {
    for (int row = 0; row < m_view->count(); ++row)
        renderEntry(m_view->item(row));
}

int EventsPanel::entryCount() const {
    return m_view->count();
}

QString EventsPanel::entryText(int row) const {
    const QListWidgetItem *item = m_view->item(row);
    return item ? item->data(kTextRole).toString() : QString();
}

} // namespace poolscope
