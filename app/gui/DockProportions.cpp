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
        QTimer::singleShot(0, this, &DockProportions::remember); // the user's proportions
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
        const bool side = isSideArea(m_window->dockWidgetArea(const_cast<QDockWidget *>(dock)));
        m_shares.insert(dock, side ? double(dock->width()) / size.width()
                                   : double(dock->height()) / size.height());
    }
}

void DockProportions::apply() {
    m_applyQueued = false;
    const QSize size = m_window->size();
    QList<QDockWidget *> sideDocks;
    QList<int> widths;
    QList<QDockWidget *> endDocks;
    QList<int> heights;
    for (QDockWidget *dock : std::as_const(m_docks)) {
        if (dock->isFloating() || !dock->isVisible() || !m_shares.contains(dock))
            continue;
        const double share = m_shares.value(dock);
        if (isSideArea(m_window->dockWidgetArea(dock))) {
            sideDocks.append(dock);
            widths.append(qRound(share * size.width()));
        } else {
            endDocks.append(dock);
            heights.append(qRound(share * size.height()));
        }
    }
    if (!sideDocks.isEmpty())
        m_window->resizeDocks(sideDocks, widths, Qt::Horizontal);
    if (!endDocks.isEmpty())
        m_window->resizeDocks(endDocks, heights, Qt::Vertical);
}

} // namespace poolscope
