#include "ElidedLabel.h"

#include <algorithm>

#include <QFontMetrics>
#include <QResizeEvent>

namespace poolscope {

ElidedLabel::ElidedLabel(QWidget *parent)
    : QLabel(parent) {
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString &text) {
    if (text == m_fullText && !text.isEmpty())
        return;
    m_fullText = text;
    setToolTip(text);
    updateElided();
    updateGeometry();
}

QSize ElidedLabel::sizeHint() const {
    const QFontMetrics metrics(font());
    // Up to about 45 characters: enough for short texts, never the whole of a long one.
    const int wanted =
        std::min(metrics.horizontalAdvance(m_fullText), metrics.averageCharWidth() * 45);
    return {wanted + 2 * margin() + 4, QLabel::sizeHint().height()};
}

QSize ElidedLabel::minimumSizeHint() const {
    const QFontMetrics metrics(font());
    return {metrics.horizontalAdvance(QStringLiteral("…")) * 3, QLabel::minimumSizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent *event) {
    QLabel::resizeEvent(event);
    updateElided();
}

void ElidedLabel::updateElided() {
    const int width = std::max(0, contentsRect().width() - 2 * margin());
    QLabel::setText(fontMetrics().elidedText(m_fullText, Qt::ElideRight, width));
}

} // namespace poolscope
