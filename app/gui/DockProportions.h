// Keeps the docks' share of the main window when the window is resized.
#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QSize>

class QDockWidget;
class QMainWindow;
class QTableView;

namespace poolscope {

// QMainWindow gives every pixel a resize takes or adds to the central widget only after the docks
// hit their minimum: a window made small squeezes the docks, and made big again leaves them
// squeezed (the Members dock stayed at 4 rows). This remembers each dock's share of the window
// (its width and its height) as the user last left it (on show, and when a separator drag ends)
// and gives each dock that share again after every resize of the window: the width of a dock on
// the left or right, the height of every dock (a bottom dock's area, or a side dock's part of the
// docks stacked beside the chart). Owned by the window.
//
// A bottom dock holding a table can be kept usable (keepRowsShown): whenever the layout is set
// (on show and after every resize of the window) it gets at least the height that shows the
// rows asked for, taken from the central widget, and when the space beside the side docks is
// narrower than its columns need, it spans the window's width under them instead. A separator
// drag is still the person's to make; it holds until the window is resized.
class DockProportions final : public QObject {
    Q_OBJECT

public:
    DockProportions(QMainWindow *window, QList<QDockWidget *> docks);

    void keepRowsShown(QDockWidget *dock, const QTableView *table, int rows);

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
    // Sets the corners and gives the kept dock its rows; returns its height (0: none).
    int fitKeptDock(int rememberedHeight);
    QSize keptDockWanted() const;

    QMainWindow *m_window;
    QList<QDockWidget *> m_docks;
    QHash<const QDockWidget *, Share> m_shares;
    bool m_applyQueued = false;
    bool m_separatorDrag = false;
    QDockWidget *m_kept = nullptr;
    const QTableView *m_keptTable = nullptr;
    int m_keptRows = 0;
};

} // namespace poolscope
