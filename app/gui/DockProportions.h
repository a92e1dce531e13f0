// Keeps the docks' share of the main window when the window is resized.
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QSize>

class QDockWidget;
class QMainWindow;

namespace poolscope {

// QMainWindow gives every pixel a resize takes or adds to the central widget only after the docks
// hit their minimum: a window made small squeezes the docks, and made big again leaves them
// squeezed (the Members dock stayed at 4 rows). This remembers each dock's share of the window
// (width for a dock on the left or right, height for one at the top or bottom) as the user last
// left it (on show, and when a separator drag ends) and gives each dock that share again after
// every resize of the window. Owned by the window.
class DockProportions final : public QObject {
    Q_OBJECT

public:
    DockProportions(QMainWindow *window, QList<QDockWidget *> docks);

    // The share of the window (0..1) remembered for a dock; 0 when unknown.
    double share(const QDockWidget *dock) const { return m_shares.value(dock, 0.0); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void remember();
    void apply();

    QMainWindow *m_window;
    QList<QDockWidget *> m_docks;
    QHash<const QDockWidget *, double> m_shares;
    bool m_applyQueued = false;
    bool m_separatorDrag = false;
};

} // namespace poolscope
