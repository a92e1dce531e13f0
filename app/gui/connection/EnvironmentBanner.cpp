#include "connection/EnvironmentBanner.h"

#include "session/PoolSession.h"
#include "session/WriteLock.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace poolscope {

EnvironmentBanner::EnvironmentBanner(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_text(new QLabel(this))
    , m_button(new QPushButton(this))
    , m_status(new QLabel(this)) // moved into the status bar by the window
    , m_unlock(new QAction(tr("&Unlock writes for this session"), this)) {
    setObjectName(QStringLiteral("environmentBanner"));
    m_status->setObjectName(QStringLiteral("environmentStatus"));
    setAutoFillBackground(true);
    m_text->setWordWrap(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_button);
    m_unlock->setCheckable(true);
    m_unlock->setStatusTip(tr("Production connections open with writes locked; this unlocks them "
                              "until another connection is chosen"));

    WriteLock &lock = session->writeLock();
    connect(m_button, &QPushButton::clicked, this, [this] {
        WriteLock &lock = m_session->writeLock();
        lock.isLocked() ? lock.unlock() : lock.lock();
    });
    connect(m_unlock, &QAction::triggered, this, [this](bool unlocked) {
        WriteLock &lock = m_session->writeLock();
        unlocked ? lock.unlock() : lock.lock();
    });
    connect(&lock, &WriteLock::lockChanged, this, &EnvironmentBanner::update);
    connect(&lock, &WriteLock::environmentChanged, this, &EnvironmentBanner::update);
    update();
}

QString EnvironmentBanner::bannerText() const {
    return m_text->text();
}

void EnvironmentBanner::update() {
    const WriteLock &lock = m_session->writeLock();
    const Environment environment = lock.environment();
    const QColor colour = environmentColor(environment);
    setVisible(environment != Environment::None);
    m_status->setVisible(environment != Environment::None);
    m_unlock->setEnabled(lock.isProduction());
    m_unlock->setChecked(lock.isProduction() && !lock.isLocked());
    m_button->setVisible(lock.isProduction());
    if (environment == Environment::None) {
        m_text->clear();
        m_status->clear();
        return;
    }
    QPalette shades = palette();
    shades.setColor(QPalette::Window, colour);
    shades.setColor(QPalette::WindowText, Qt::white);
    setPalette(shades);
    const QString name = environmentLabel(environment);
    if (!lock.isProduction()) {
        m_text->setText(tr("%1 connection").arg(name));
        m_status->setText(name);
    } else if (lock.isLocked()) {
        m_text->setText(tr("<b>%1</b>: writes are locked. This pool is watched only; unlock "
                           "writes to seed, evict, restore or allocate.")
                            .arg(name));
        m_button->setText(tr("&Unlock writes"));
        m_status->setText(tr("%1 · writes locked").arg(name));
    } else {
        m_text->setText(tr("<b>%1</b>: writes are unlocked for this session. Several evictions, "
                           "restores at zero and the count-reset demo still ask for the pool's "
                           "name.")
                            .arg(name));
        m_button->setText(tr("&Lock writes"));
        m_status->setText(tr("%1 · writes unlocked for this session").arg(name));
    }
    m_status->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; padding: 1px "
                                           "6px; font-weight: bold; }")
                                .arg(colour.name()));
}

} // namespace poolscope
