// ChartPanel's time controls: the window choice, the zoom steps and their actions and gestures.
#include "chart/ChartPanel.h"

#include "chart/ChartParts.h"

#include <algorithm>
#include <iterator>

#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QKeySequence>
#include <QToolButton>

namespace poolscope {

namespace {

struct WindowItem {
    ChartPanel::TimeWindow window;
    const char *label;
    const char *menuText;
};
constexpr WindowItem kWindowItems[] = {
    {ChartPanel::TimeWindow::FiveMinutes, "Last 5 min", "Window: last &5 minutes"},
    {ChartPanel::TimeWindow::OneHour, "Last hour", "Window: last &hour"},
    {ChartPanel::TimeWindow::Day, "Last 24 h", "Window: last &24 hours"},
    {ChartPanel::TimeWindow::Week, "Last 7 days", "Window: last &7 days"},
    {ChartPanel::TimeWindow::Everything, "All", "Window: &all the history"},
};

int windowIndex(ChartPanel::TimeWindow window) {
    for (int i = 0; i < int(std::size(kWindowItems)); ++i)
        if (kWindowItems[i].window == window)
            return i;
    return 0;
}

} // namespace

qint64 ChartPanel::windowSpanMs(TimeWindow window) {
    constexpr qint64 kMinuteMs = 60 * 1000;
    switch (window) {
    case TimeWindow::FiveMinutes:
        return 5 * kMinuteMs;
    case TimeWindow::OneHour:
        return 60 * kMinuteMs;
    case TimeWindow::Day:
        return 24 * 60 * kMinuteMs;
    case TimeWindow::Week:
        return 7 * 24 * 60 * kMinuteMs;
    case TimeWindow::Everything:
        break;
    }
    return 0; // no bound: from the first point held
}

void ChartPanel::buildTimeControls() {
    m_windowActions = new QActionGroup(this);
    m_windowActions->setExclusive(true);
    for (int i = 0; i < int(std::size(kWindowItems)); ++i) {
        const WindowItem &item = kWindowItems[i];
        m_windowBox->addItem(QString::fromUtf8(item.label));
        auto *action = new QAction(QString::fromUtf8(item.menuText), m_windowActions);
        action->setCheckable(true);
        action->setChecked(item.window == m_window);
        action->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        action->setShortcutContext(Qt::WindowShortcut);
        connect(action, &QAction::triggered, this,
                [this, window = item.window] { setTimeWindow(window); });
        addAction(action); // the shortcut works with or without the menu
    }
    m_windowBox->setToolTip(QStringLiteral(
        "Time window of the chart, ending at the latest poll (Alt+1 … Alt+5). Drag across the "
        "chart to zoom into a time range; Esc, a right click or Zoom out go back one step, a "
        "double click (Ctrl+0) back to the whole window"));
    connect(m_windowBox, &QComboBox::activated, this, [this](int index) {
        setTimeWindow(kWindowItems[std::clamp(index, 0, int(std::size(kWindowItems)) - 1)].window);
    });

    m_zoomOutAction = new QAction(QStringLiteral("Zoom out"), this);
    m_zoomOutAction->setShortcut(QKeySequence(Qt::Key_Escape));
    // Esc belongs to the chart only while it has the focus (or a child of it does).
    m_zoomOutAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_zoomOutAction->setToolTip(QStringLiteral("Back to the time range before the last zoom (Esc "
                                               "or a right click on the chart)"));
    connect(m_zoomOutAction, &QAction::triggered, this, &ChartPanel::zoomOut);
    addAction(m_zoomOutAction);
    m_wholeWindowAction = new QAction(QStringLiteral("Whole window"), this);
    m_wholeWindowAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_wholeWindowAction->setShortcutContext(Qt::WindowShortcut);
    m_wholeWindowAction->setToolTip(QStringLiteral(
        "Out of every zoom step, to the whole window (a double click on the chart)"));
    connect(m_wholeWindowAction, &QAction::triggered, this, &ChartPanel::showWholeWindow);
    addAction(m_wholeWindowAction);

    m_zoomOutButton = new QToolButton(this);
    m_zoomOutButton->setDefaultAction(m_zoomOutAction);
    m_zoomOutButton->setToolButtonStyle(Qt::ToolButtonTextOnly);

    MarkerChartView *view = m_charts->view;
    view->setFocusPolicy(Qt::ClickFocus); // a click on the chart makes Esc zoom out
    connect(view, &MarkerChartView::rangeDragged, this, &ChartPanel::zoomTo);
    connect(view, &MarkerChartView::zoomOutClicked, this, &ChartPanel::zoomOut);
    connect(view, &MarkerChartView::wholeWindowClicked, this, &ChartPanel::showWholeWindow);
    applyZoomState();
}

void ChartPanel::setTimeWindow(TimeWindow window) {
    const bool changed = window != m_window || isZoomed();
    m_window = window;
    m_zoomSteps.clear();
    m_windowBox->setCurrentIndex(windowIndex(window));
    m_windowActions->actions().at(windowIndex(window))->setChecked(true);
    if (!changed)
        return;
    applyZoomState();
    scheduleRefresh();
}

void ChartPanel::zoomTo(qint64 fromMs, qint64 toMs) {
    if (toMs < fromMs)
        std::swap(fromMs, toMs);
    if (toMs - fromMs < kMinimumZoomMs) {
        const qint64 middle = fromMs + (toMs - fromMs) / 2;
        fromMs = middle - kMinimumZoomMs / 2;
        toMs = fromMs + kMinimumZoomMs;
    }
    m_zoomSteps.emplace_back(fromMs, toMs);
    applyZoomState();
    refreshNow(); // at once: the user is looking at the drag they just made
}

void ChartPanel::zoomOut() {
    if (m_zoomSteps.empty())
        return;
    m_zoomSteps.pop_back();
    applyZoomState();
    refreshNow();
}

void ChartPanel::showWholeWindow() {
    if (m_zoomSteps.empty())
        return;
    m_zoomSteps.clear();
    applyZoomState();
    refreshNow();
}

void ChartPanel::applyZoomState() {
    const bool zoomed = isZoomed();
    m_zoomOutAction->setEnabled(zoomed);
    m_wholeWindowAction->setEnabled(zoomed);
    m_zoomOutButton->setVisible(zoomed);
    Q_EMIT zoomChanged();
}

QList<QAction *> ChartPanel::viewActions() const {
    QList<QAction *> actions = m_windowActions->actions();
    actions << m_zoomOutAction << m_wholeWindowAction;
    return actions;
}

QWidget *ChartPanel::chartView() const {
    return m_charts->view;
}

} // namespace poolscope
