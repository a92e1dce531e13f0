#include "tray/AlertTray.h"

#include "notify/DesktopNotifier.h"
#include "session/PoolAlerts.h"
#include "session/PoolSession.h"

#include <QAction>
#include <QApplication>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QSettings>
#include <QSystemTrayIcon>
#include <QWidget>

namespace poolscope {

namespace {

constexpr int kMessageMs = 10000;

QColor colourOf(AlertTray::State state) {
    switch (state) {
    case AlertTray::State::Ok:
        return QColor(0x2e, 0x9e, 0x48);
    case AlertTray::State::Warning:
        return QColor(0xf0, 0xa0, 0x1c);
    case AlertTray::State::Critical:
        return QColor(0xd6, 0x2a, 0x2a);
    }
    return {};
}

} // namespace

AlertTray::AlertTray(PoolSession *session, bool trayAvailable, QObject *parent)
    : QObject(parent)
    , m_keepWatching(new QAction(tr("Keep watching in the &tray when closed"), this)) {
    m_keepWatching->setObjectName(QStringLiteral("keepWatchingAction"));
    m_keepWatching->setCheckable(true);
    m_keepWatching->setChecked(QSettings().value(QLatin1String(kKeepWatchingKey), false).toBool());
    connect(m_keepWatching, &QAction::toggled, this,
            [](bool on) { QSettings().setValue(QLatin1String(kKeepWatchingKey), on); });
    if (session)
        watch(session);
    setTrayAvailable(trayAvailable);
}

void AlertTray::watch(PoolSession *session) {
    m_sessions.append(session);
    connect(&session->alerts(), &PoolAlerts::activeAlertsChanged, this, &AlertTray::refresh);
    connect(session, &PoolSession::targetChanged, this, &AlertTray::refresh);
    // The pointer is already cleared when this comes: the closed tab's pool leaves the tooltip.
    connect(session, &QObject::destroyed, this, [this] {
        m_sessions.removeAll(nullptr);
        refresh();
    });
    refresh();
}

void AlertTray::setTrayAvailable(bool available) {
    m_available = available;
    if (!available) {
        m_icon.reset();
        m_menu.reset();
        m_showWindow = m_quit = nullptr;
        m_keepWatching->setEnabled(false);
        m_keepWatching->setToolTip(tr("This desktop has no system tray: closing the window "
                                      "ends poolscope."));
        refresh();
        return;
    }
    m_keepWatching->setEnabled(true);
    m_keepWatching->setToolTip(tr("Closing the window hides it: the pool is still watched and "
                                  "its alerts still shown. Quit from the tray icon's menu."));
    if (m_icon)
        return;
    m_menu = std::make_unique<QMenu>();
    m_menu->setObjectName(QStringLiteral("trayMenu"));
    m_showWindow = m_menu->addAction(tr("&Show window"), this, &AlertTray::showWindowRequested);
    m_menu->addSeparator();
    m_quit = m_menu->addAction(tr("&Quit poolscope"), this, &AlertTray::quitRequested);
    m_icon = std::make_unique<QSystemTrayIcon>();
    m_icon->setContextMenu(m_menu.get());
    connect(m_icon.get(), &QSystemTrayIcon::activated, this,
            [this](QSystemTrayIcon::ActivationReason reason) {
                if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
                    Q_EMIT showWindowRequested();
            });
    // Not messageClicked: X11's own tray reports any click on the icon while a message shows as
    // one, and a right click for the menu would bring the window up.
    refresh();
    m_icon->show();
}

AlertTray::~AlertTray() = default;

AlertTray::State AlertTray::stateOf(std::optional<AlertSeverity> worstFiring) {
    if (!worstFiring)
        return State::Ok;
    return *worstFiring == AlertSeverity::Critical ? State::Critical : State::Warning;
}

QIcon AlertTray::iconFor(State state) {
    QIcon icon;
    const QIcon application = QApplication::windowIcon();
    for (const int side : {16, 22, 24, 32, 48, 64}) {
        QPixmap pixmap(side, side);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        if (!application.isNull())
            application.paint(&painter, pixmap.rect());
        // The state as a dot in the lower right corner, ringed so it shows on any panel.
        const qreal dot = side * 0.55;
        const QRectF circle(side - dot, side - dot, dot, dot);
        painter.setPen(QPen(Qt::white, std::max(1.0, side / 16.0)));
        painter.setBrush(colourOf(state));
        painter.drawEllipse(circle.adjusted(0.5, 0.5, -0.5, -0.5));
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

bool AlertTray::isTrayShown() const {
    return m_icon && m_icon->isVisible();
}

bool AlertTray::keepsWatchingWhenClosed() const {
    return m_available && m_keepWatching->isChecked();
}

namespace {

bool watchesLive(const PoolSession *session) {
    return session && session->hasTarget() && !session->isShowingRecording();
}

} // namespace

QString AlertTray::toolTip() const {
    QStringList pools; // one paragraph per live pool, in the tabs' order
    for (const PoolSession *session : m_sessions) {
        if (!watchesLive(session))
            continue;
        const PoolAlerts &alerts = session->alerts();
        QStringList firing;
        for (const AlertStatus &status : alerts.statuses())
            if (status.state == AlertState::Firing)
                firing.append(alertRuleTitle(status.rule.kind));
        pools.append(firing.isEmpty()
                         ? tr("poolscope: %1\nNo alert firing.").arg(alerts.poolText())
                         : tr("poolscope: %1\n%n alert(s) firing: %2", nullptr, int(firing.size()))
                               .arg(alerts.poolText(), QLocale().createSeparatedList(firing)));
    }
    if (pools.isEmpty())
        return tr("poolscope: no live pool watched");
    return pools.join(QStringLiteral("\n\n"));
}

void AlertTray::refresh() {
    std::optional<AlertSeverity> worst;
    for (const PoolSession *session : m_sessions) {
        if (!watchesLive(session))
            continue;
        const std::optional<AlertSeverity> firing = session->alerts().worstFiring();
        if (firing && (!worst || *firing == AlertSeverity::Critical))
            worst = firing;
    }
    const State state = stateOf(worst);
    if (!m_icon) {
        m_state = state;
        return;
    }
    if (state != m_state || m_icon->icon().isNull())
        m_icon->setIcon(iconFor(state));
    m_state = state;
    const QString tip = toolTip();
    if (m_icon->toolTip() != tip)
        m_icon->setToolTip(tip);
}

AlertTray::Fallback AlertTray::showUnnotified(const DesktopNotification &notification) {
    const Fallback fallback = fallbackFor(isTrayShown());
    if (fallback == Fallback::TrayMessage) {
        const QSystemTrayIcon::MessageIcon icon =
            notification.urgency == DesktopNotification::Urgency::Critical
                ? QSystemTrayIcon::Critical
                : QSystemTrayIcon::Warning;
        m_icon->showMessage(notification.summary, notification.body, icon, kMessageMs);
        Q_EMIT trayMessageShown(notification.summary, notification.body);
    }
    return fallback;
}

void AlertTray::followWindow(QWidget *window, std::function<bool()> closeForGood) {
    connect(this, &AlertTray::showWindowRequested, window, [window] {
        QApplication::setQuitOnLastWindowClosed(true);
        window->showNormal();
        window->raise();
        window->activateWindow();
    });
    connect(this, &AlertTray::quitRequested, window, [closeForGood = std::move(closeForGood)] {
        closeForGood();
        QApplication::quit();
    });
}

bool AlertTray::hideInsteadOfClosing(QWidget *window) {
    if (!keepsWatchingWhenClosed())
        return false;
    // Closing another window (the overview) must not end the watch either.
    QApplication::setQuitOnLastWindowClosed(false);
    window->hide();
    tellStillWatching();
    return true;
}

void AlertTray::tellStillWatching() {
    if (m_toldStillWatching || !isTrayShown())
        return;
    m_toldStillWatching = true;
    const QString title = tr("poolscope is still watching");
    const QString text = tr("The window is closed; alerts still come here. Quit from this icon's "
                            "menu.");
    m_icon->showMessage(title, text, QSystemTrayIcon::Information, kMessageMs);
    Q_EMIT trayMessageShown(title, text);
}

} // namespace poolscope
