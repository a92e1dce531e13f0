#include "alerts/AlertsPanel.h"

#include "alerts/AlertRulesDialog.h"
#include "notify/DesktopNotifier.h"
#include "profiles/ProfileStore.h"
#include "session/PoolAlerts.h"
#include "session/PoolSession.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace poolscope {

namespace {

enum Column { Alert, State, Since, Value, Severity, Message, ColumnCount };

} // namespace

AlertsPanel::AlertsPanel(PoolSession *session, ProfileStore *profiles, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_profiles(profiles)
    , m_summary(new QLabel(this))
    , m_table(new QTreeWidget(this))
    , m_rulesButton(new QPushButton(tr("&Rules…"), this))
    , m_notifier(new DesktopNotifier(this)) {
    setObjectName(QStringLiteral("alertsPanel"));
    m_table->setObjectName(QStringLiteral("alertsTable"));
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setColumnCount(ColumnCount);
    m_table->setHeaderLabels(
        {tr("Alert"), tr("State"), tr("Since"), tr("Value now"), tr("Severity"), tr("What")});
    m_table->header()->setStretchLastSection(true);
    m_table->setAccessibleName(tr("Active alerts"));
    // One line whatever it says: a text that wraps would resize the docks beside this tab.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_rulesButton->setToolTip(tr("Edit this pool's alert rules"));
    auto *top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_rulesButton);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    PoolAlerts &alerts = session->alerts();
    connect(&alerts, &PoolAlerts::activeAlertsChanged, this, &AlertsPanel::refresh);
    connect(&alerts, &PoolAlerts::alertFired, this, &AlertsPanel::notify);
    connect(&alerts, &PoolAlerts::alertResolved, this, &AlertsPanel::notify);
    connect(m_rulesButton, &QPushButton::clicked, this, &AlertsPanel::editRules);
    connect(m_notifier, &DesktopNotifier::notificationFailed, this,
            [this](quint64, const NotificationError &, const DesktopNotification &notification) {
                Q_EMIT notificationUnavailable(notification);
            });
    refresh();
}

AlertsPanel::~AlertsPanel() = default;

void AlertsPanel::useProfile(const QString &name) {
    m_profile = name;
    AlertRuleSet rules = AlertRuleSet::defaults();
    if (!name.isEmpty() && m_profiles) {
        const ProfileLoadResult loaded = m_profiles->load(name);
        if (loaded.profile)
            rules = loaded.profile->alertRulesFor(m_session->poolKey());
    }
    m_session->alerts().setRules(rules);
}

void AlertsPanel::editRules() {
    auto *dialog = new AlertRulesDialog(m_session->alerts().rules(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setSavedIn(m_profile, QString::fromUtf8(m_session->poolKey()));
    connect(dialog, &AlertRulesDialog::rulesAccepted, this, [this](const AlertRuleSet &rules) {
        m_session->alerts().setRules(rules);
        if (m_profile.isEmpty() || !m_profiles)
            return; // a connection typed in: for this window only
        ProfileLoadResult loaded = m_profiles->load(m_profile);
        QString error = loaded.error;
        if (loaded.profile) {
            loaded.profile->alertRules.insert(m_session->poolKey(), rules);
            error = m_profiles->save(*loaded.profile, m_profile);
        }
        if (!error.isEmpty())
            m_session->log(
                LogSeverity::Error, QStringLiteral("alert"),
                tr("the alert rules could not be saved in \"%1\": %2").arg(m_profile, error));
        else
            m_session->log(LogSeverity::Info, QStringLiteral("alert"),
                           tr("alert rules saved in the connection \"%1\"").arg(m_profile));
    });
    dialog->open();
}

void AlertsPanel::refresh() {
    const PoolAlerts &alerts = m_session->alerts();
    const QList<AlertStatus> active = alerts.active();
    const QLocale locale;
    m_table->setUpdatesEnabled(false);
    while (m_table->topLevelItemCount() > active.size())
        delete m_table->takeTopLevelItem(m_table->topLevelItemCount() - 1);
    for (int i = 0; i < active.size(); ++i) {
        const AlertStatus &status = active[i];
        QTreeWidgetItem *item = m_table->topLevelItem(i);
        if (!item)
            item = new QTreeWidgetItem(m_table);
        const bool firing = status.state == AlertState::Firing;
        const qint64 since = firing ? status.firingSinceMs : status.activeSinceMs;
        item->setText(Alert, alertRuleTitle(status.rule.kind));
        item->setText(State, firing ? tr("firing") : tr("pending"));
        // Digits only, as the Events panel writes times; the date when it is not today's.
        const QDateTime sinceTime = QDateTime::fromMSecsSinceEpoch(since);
        item->setText(Since,
                      since < 0 ? QString()
                      : sinceTime.date() == QDate::currentDate()
                          ? locale.toString(sinceTime, QStringLiteral("HH:mm:ss"))
                          : locale.toString(sinceTime, QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        item->setText(Value, status.check.value ? locale.toString(*status.check.value, 'g', 4)
                                                : QString());
        item->setText(Severity, status.rule.severity == AlertSeverity::Critical ? tr("critical")
                                                                                : tr("warning"));
        item->setText(Message, m_session->displayText(status.check.message));
        item->setToolTip(Message, item->text(Message));
        const QColor colour = !firing ? palette().color(QPalette::Text)
                              : status.rule.severity == AlertSeverity::Critical
                                  ? QColor(0xc6, 0x28, 0x28)
                                  : QColor(0xb2, 0x6a, 0x00);
        for (int column = 0; column < ColumnCount; ++column)
            item->setForeground(column, colour);
    }
    for (int column = 0; column < Message; ++column)
        m_table->resizeColumnToContents(column); // a few rows at most
    m_table->setUpdatesEnabled(true);
    int firing = 0;
    for (const AlertStatus &status : active)
        firing += status.state == AlertState::Firing ? 1 : 0;
    if (!m_session->hasTarget() || m_session->isShowingRecording())
        m_summary->setText(tr("No live pool watched: no alerts are judged."));
    else if (active.isEmpty())
        m_summary->setText(
            tr("No alert: %n rule(s) watching this pool.", nullptr, int(alerts.statuses().size())));
    else
        m_summary->setText(tr("%n alert(s) firing, %1 pending.", nullptr, firing)
                               .arg(locale.toString(int(active.size()) - firing)));
}

void AlertsPanel::notify(const AlertTransition &transition) {
    m_notifier->notifyAlert(m_session->alerts().poolText(), transition);
}

} // namespace poolscope
