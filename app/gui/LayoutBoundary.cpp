#include "LayoutBoundary.h"

#include <QEvent>

namespace poolscope {

LayoutBoundary::LayoutBoundary(QWidget *content, QWidget *parent)
    : QWidget(parent)
    , m_content(content) {
    content->setParent(this);
    setSizePolicy(content->sizePolicy());
    takeContentHints();
}

void LayoutBoundary::shrinkToContent() {
    m_hint = QSize();
    m_minimum = QSize();
    takeContentHints();
    updateGeometry();
}

bool LayoutBoundary::hasHeightForWidth() const {
    return m_content && m_content->hasHeightForWidth();
}

int LayoutBoundary::heightForWidth(int width) const {
    return m_content ? m_content->heightForWidth(width) : -1;
}

bool LayoutBoundary::takeContentHints() {
    if (!m_content)
        return false;
    const QSize hint = m_hint.expandedTo(m_content->sizeHint());
    const QSize minimum = m_minimum.expandedTo(m_content->minimumSizeHint());
    const bool grew = hint != m_hint || minimum != m_minimum;
    m_hint = hint;
    m_minimum = minimum;
    return grew;
}

bool LayoutBoundary::event(QEvent *event) {
    // The content's updateGeometry() arrives here as a posted request (this widget has no layout).
    if (event->type() == QEvent::LayoutRequest) {
        if (takeContentHints())
            updateGeometry();
        if (m_content)
            m_content->setGeometry(rect());
        return true;
    }
    return QWidget::event(event);
}

void LayoutBoundary::resizeEvent(QResizeEvent *) {
    if (m_content)
        m_content->setGeometry(rect());
}

} // namespace poolscope
