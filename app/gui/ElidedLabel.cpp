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
    const QFontMetrics metrics = fontMetrics();
    if (metrics.horizontalAdvance(m_fullText) <= width) {
        QLabel::setText(m_fullText);
        return;
    }
    // Cut after a whole word ("top 5, …", not "top 5, bott…"); within the first word only when
    // not even that fits.
    const QString ellipsis(QChar(0x2026));
    for (qsizetype space = m_fullText.lastIndexOf(QLatin1Char(' ')); space > 0;
         space = m_fullText.lastIndexOf(QLatin1Char(' '), space - 1)) {
        const QString shown = m_fullText.left(space + 1) + ellipsis;
        if (metrics.horizontalAdvance(shown) <= width) {
            QLabel::setText(shown);
            return;
        }
    }
    QLabel::setText(metrics.elidedText(m_fullText, Qt::ElideRight, width));
}

} // namespace poolscope
