#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QPushButton;

namespace poolscope {

class PoolSession;

// What the session's WriteLock says, shown: a banner in the environment's colour above the chart
// (production: "writes locked" and one button to unlock them for this session, or to lock them
// again), and a label for the status bar that says the same in a word or two. Hidden for a
// connection without an environment.
class EnvironmentBanner : public QWidget {
    Q_OBJECT

public:
    explicit EnvironmentBanner(PoolSession *session, QWidget *parent = nullptr);

    QLabel *statusLabel() const { return m_status; }
    QPushButton *lockButton() const { return m_button; }
    // Pool ▸ Unlock writes (checkable: checked while unlocked), the button's twin for menus.
    QAction *unlockAction() const { return m_unlock; }
    QString bannerText() const;

private:
    void update();

    PoolSession *m_session;
    QLabel *m_text;
    QPushButton *m_button;
    QLabel *m_status;
    QAction *m_unlock;
};

} // namespace poolscope
