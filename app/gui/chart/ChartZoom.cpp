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

constexpr ChartPanel::TimeWindow kWindows[] = {
    ChartPanel::TimeWindow::FiveMinutes, ChartPanel::TimeWindow::OneHour,
    ChartPanel::TimeWindow::Day,         ChartPanel::TimeWindow::Week,
    ChartPanel::TimeWindow::Everything,
};

// The window's name in the box beside the chart.
QString windowLabel(ChartPanel::TimeWindow window) {
    switch (window) {
    case ChartPanel::TimeWindow::FiveMinutes:
        return ChartPanel::tr("Last %Ln min", "the chart's time span, in a box", 5);
    case ChartPanel::TimeWindow::OneHour:
        return ChartPanel::tr("Last hour", "the chart's time span, in a box");
    case ChartPanel::TimeWindow::Day:
        return ChartPanel::tr("Last %Ln h", "the chart's time span, in a box; h: hours", 24);
    case ChartPanel::TimeWindow::Week:
        return ChartPanel::tr("Last %Ln days", "the chart's time span, in a box", 7);
    case ChartPanel::TimeWindow::Everything:
        break;
    }
    return ChartPanel::tr("All", "the chart's time span, in a box: all the history held");
}

// The window's name in the View menu, with its accelerator.
QString windowMenuText(ChartPanel::TimeWindow window) {
    switch (window) {
    case ChartPanel::TimeWindow::FiveMinutes:
        return ChartPanel::tr("Window: last &%Ln minutes",
                              "View menu: the chart's time span; & marks the accelerator", 5);
    case ChartPanel::TimeWindow::OneHour:
        return ChartPanel::tr("Window: last &hour",
                              "View menu: the chart's time span; & marks the accelerator");
    case ChartPanel::TimeWindow::Day:
        return ChartPanel::tr("Window: last &%Ln hours",
                              "View menu: the chart's time span; & marks the accelerator", 24);
    case ChartPanel::TimeWindow::Week:
        return ChartPanel::tr("Window: last &%Ln days",
                              "View menu: the chart's time span; & marks the accelerator", 7);
    case ChartPanel::TimeWindow::Everything:
        break;
    }
    return ChartPanel::tr("Window: &all the history",
                          "View menu: the chart's time span; & marks the accelerator");
}

int windowIndex(ChartPanel::TimeWindow window) {
    for (int i = 0; i < int(std::size(kWindows)); ++i)
        if (kWindows[i] == window)
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
    for (int i = 0; i < int(std::size(kWindows)); ++i) {
        const TimeWindow window = kWindows[i];
        m_windowBox->addItem(windowLabel(window));
        auto *action = new QAction(windowMenuText(window), m_windowActions);
        action->setCheckable(true);
        action->setChecked(window == m_window);
        action->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        action->setShortcutContext(Qt::WindowShortcut);
        connect(action, &QAction::triggered, this, [this, window] { setTimeWindow(window); });
        addAction(action); // the shortcut works with or without the menu
    }
    const auto keys = [](const QKeyCombination &key) {
        return QKeySequence(key).toString(QKeySequence::NativeText);
    };
    m_windowBox->setToolTip(
        tr("Time window of the chart, ending at the latest poll (%1 … %2). Drag across the "
           "chart to zoom into a time range; %3, a right click or Zoom out go back one step, a "
           "double click (%4) back to the whole window",
           "%1 … %2: the shortcuts of the first and last time windows; %3: the Esc key; %4: "
           "the shortcut to the whole window. \"Zoom out\" is the button's name")
            .arg(keys(Qt::ALT | Qt::Key_1), keys(Qt::ALT | Qt::Key_5), keys(Qt::Key_Escape),
                 keys(Qt::CTRL | Qt::Key_0)));
    connect(m_windowBox, &QComboBox::activated, this, [this](int index) {
        setTimeWindow(kWindows[std::clamp(index, 0, int(std::size(kWindows)) - 1)]);
    });

    m_zoomOutAction = new QAction(tr("Zoom out", "the chart's time range, back one step"), this);
    m_zoomOutAction->setShortcut(QKeySequence(Qt::Key_Escape));
    // Esc belongs to the chart only while it has the focus (or a child of it does).
    m_zoomOutAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_zoomOutAction->setToolTip(
        tr("Back to the time range before the last zoom (%1 or a right click on the chart)",
           "%1: the Esc key")
            .arg(keys(Qt::Key_Escape)));
    connect(m_zoomOutAction, &QAction::triggered, this, &ChartPanel::zoomOut);
    addAction(m_zoomOutAction);
    m_wholeWindowAction = new QAction(
        tr("Whole window", "the chart's whole time span again, out of every zoom step"), this);
    m_wholeWindowAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_wholeWindowAction->setShortcutContext(Qt::WindowShortcut);
    m_wholeWindowAction->setToolTip(
        tr("Out of every zoom step, to the whole window (a double click on the chart)",
           "window: the chart's time span, not a window on the screen"));
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
