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
// (its width and its height) as the user last left it (on show, and when a separator drag ends)
// and gives each dock that share again after every resize of the window: the width of a dock on
// the left or right, the height of every dock (a bottom dock's area, or a side dock's part of the
// docks stacked beside the chart). Owned by the window.
class DockProportions final : public QObject {
    Q_OBJECT

public:
    DockProportions(QMainWindow *window, QList<QDockWidget *> docks);

    // The share of the window's width and height (0..1) remembered for a dock; 0 when unknown.
    struct Share {
        double width = 0;
        double height = 0;
    };
    Share share(const QDockWidget *dock) const { return m_shares.value(dock); }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void remember();
    void apply();
    void fitPanels();

    QMainWindow *m_window;
    QList<QDockWidget *> m_docks;
    QHash<const QDockWidget *, Share> m_shares;
    bool m_applyQueued = false;
    bool m_separatorDrag = false;
};

} // namespace poolscope
