#include "DockProportions.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QTimer>

namespace poolscope {

namespace {

bool isSideArea(Qt::DockWidgetArea area) {
    return area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
}

} // namespace

DockProportions::DockProportions(QMainWindow *window, QList<QDockWidget *> docks)
    : QObject(window)
    , m_window(window)
    , m_docks(std::move(docks)) {
    window->installEventFilter(this);
}

bool DockProportions::eventFilter(QObject *watched, QEvent *event) {
    if (watched != m_window)
        return false;
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        // Over a dock separator the window shows a split cursor; clicks elsewhere that reach
        // the window (propagated from a child) are no drag.
        const Qt::CursorShape shape = m_window->cursor().shape();
        m_separatorDrag = shape == Qt::SplitHCursor || shape == Qt::SplitVCursor ||
                          shape == Qt::SizeHorCursor || shape == Qt::SizeVerCursor;
        break;
    }
    case QEvent::MouseButtonRelease:
        if (!m_separatorDrag)
            break;
        m_separatorDrag = false;
        QTimer::singleShot(0, this, [this] {
            remember(); // the user's proportions
            fitPanels();
        });
        break;
    case QEvent::Show:
        QTimer::singleShot(0, this, &DockProportions::remember);
        break;
    case QEvent::Resize:
        // Seen before the layout reacts: apply once it has, from the event loop.
        if (!m_applyQueued && !m_shares.isEmpty()) {
            m_applyQueued = true;
            QTimer::singleShot(0, this, &DockProportions::apply);
        }
        break;
    default:
        break;
    }
    return false;
}

void DockProportions::remember() {
    const QSize size = m_window->size();
    if (size.isEmpty())
        return;
    for (const QDockWidget *dock : std::as_const(m_docks)) {
        if (dock->isFloating() || !dock->isVisible())
            continue;
        m_shares.insert(
            dock, {double(dock->width()) / size.width(), double(dock->height()) / size.height()});
    }
}

void DockProportions::apply() {
    m_applyQueued = false;
    const QSize size = m_window->size();
    QList<QDockWidget *> sideDocks;
    QList<int> widths;
    QList<int> sideHeights;
    QList<QDockWidget *> endDocks; // top or bottom: their area's height
    QList<int> endHeights;
    for (QDockWidget *dock : std::as_const(m_docks)) {
        if (dock->isFloating() || !dock->isVisible() || !m_shares.contains(dock))
            continue;
        const Share share = m_shares.value(dock);
        const int height = qRound(share.height * size.height());
        if (isSideArea(m_window->dockWidgetArea(dock))) {
            sideDocks.append(dock);
            widths.append(qRound(share.width * size.width()));
            sideHeights.append(height); // its part of the docks stacked there (Pool, Events)
        } else {
            endDocks.append(dock);
            endHeights.append(height);
        }
    }
    if (!sideDocks.isEmpty()) {
        m_window->resizeDocks(sideDocks, widths, Qt::Horizontal);
        m_window->resizeDocks(sideDocks, sideHeights, Qt::Vertical);
    }
    if (!endDocks.isEmpty())
        m_window->resizeDocks(endDocks, endHeights, Qt::Vertical);
    QTimer::singleShot(0, this, &DockProportions::fitPanels); // once the widths are applied
}

void DockProportions::fitPanels() {
    // A side dock's panel whose lines (a wrapped value included) need more than its share of the
    // height gets what it needs, the room coming from a list stacked with it, which scrolls: the
    // panel's text would be cut otherwise. Its minimum height follows its width (the dock layout
    // does not ask a panel's height for its width by itself).
    for (QDockWidget *dock : std::as_const(m_docks)) {
        QWidget *panel = dock->widget();
        if (dock->isFloating() || !dock->isVisible() || !panel || !panel->hasHeightForWidth() ||
            !isSideArea(m_window->dockWidgetArea(dock)))
            continue;
        const int needed = panel->heightForWidth(panel->width());
        if (needed > 0 && panel->minimumHeight() != needed)
            panel->setMinimumHeight(needed);
    }
}

} // namespace poolscope
