#include "DockProportions.h"

#include <QDockWidget>
#include <QEvent>
#include <QHeaderView>
#include <QMainWindow>
#include <QScrollBar>
#include <QStyle>
#include <QTableView>
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
        QTimer::singleShot(0, this, [this] {
            if (m_kept) {
                const int height = fitKeptDock(m_kept->height());
                if (height > 0 && height != m_kept->height())
                    m_window->resizeDocks({m_kept}, {height}, Qt::Vertical);
            }
            QTimer::singleShot(0, this, &DockProportions::remember); // once that is laid out
        });
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

void DockProportions::keepRowsShown(QDockWidget *dock, const QTableView *table, int rows) {
    m_kept = dock;
    m_keptTable = table;
    m_keptRows = rows;
}

QSize DockProportions::keptDockWanted() const {
    // What the dock holds besides the table (title, filter row), as laid out now, plus the
    // table's frame and header, the rows, and every column at its width (the stretched last one
    // at the default width) with room for a vertical scroll bar. A table not shown yet (a page of
    // a stack, an empty state shown in its place) is not laid out: its place is the stack's.
    const QTableView *table = m_keptTable;
    const QWidget *place =
        table->isVisible() || !table->parentWidget() ? table : table->parentWidget();
    if (place->width() <= 0 || m_kept->width() <= 0)
        return {};
    const int frame = 2 * table->frameWidth();
    const QHeaderView *header = table->horizontalHeader();
    const int height = m_kept->height() - place->height() + frame +
                       (header->isHidden() ? 0 : header->sizeHint().height()) +
                       m_keptRows * table->verticalHeader()->defaultSectionSize();
    int columns = 0;
    int last = -1;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (header->isSectionHidden(logical))
            continue;
        columns += header->sectionSize(logical);
        last = logical;
    }
    if (last >= 0 && header->stretchLastSection())
        columns += header->defaultSectionSize() - header->sectionSize(last);
    const int width = m_kept->width() - place->width() + frame +
                      table->verticalScrollBar()->sizeHint().width() + columns;
    return {width, height};
}

int DockProportions::fitKeptDock(int rememberedHeight) {
    if (!m_kept || m_kept->isFloating() || !m_kept->isVisible() ||
        m_window->dockWidgetArea(m_kept) != Qt::BottomDockWidgetArea)
        return 0;
    const QSize wanted = keptDockWanted();
    if (wanted.isEmpty())
        return 0;
    // The side docks' widths as they are about to be: their remembered shares.
    const int windowWidth = m_window->width();
    int right = -1; // none
    int left = -1;
    const auto all = m_window->findChildren<QDockWidget *>(Qt::FindDirectChildrenOnly);
    for (QDockWidget *dock : all) {
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
        if (dock->isFloating() || !dock->isVisible() || !isSideArea(area))
            continue;
        const auto share = m_shares.constFind(dock);
        const int width =
            share != m_shares.constEnd() ? qRound(share->width * windowWidth) : dock->width();
        int &column = area == Qt::RightDockWidgetArea ? right : left;
        column = std::max(column, width);
    }
    const int separator =
        m_window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, m_window);
    int beside = windowWidth;
    for (const int column : {right, left})
        if (column >= 0)
            beside -= column + separator;
    const bool spans = beside < wanted.width();
    m_window->setCorner(Qt::BottomRightCorner,
                        right >= 0 && !spans ? Qt::RightDockWidgetArea : Qt::BottomDockWidgetArea);
    m_window->setCorner(Qt::BottomLeftCorner,
                        left >= 0 && !spans ? Qt::LeftDockWidgetArea : Qt::BottomDockWidgetArea);
    return std::max(rememberedHeight, wanted.height());
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
            endHeights.append(dock == m_kept ? std::max(height, fitKeptDock(height)) : height);
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
