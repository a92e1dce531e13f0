#include "i18n/LeftToRight.h"

#include <QAbstractItemView>
#include <QGuiApplication>
#include <QEvent>
#include <QLineEdit>
#include <QPainter>
#include <QPlainTextEdit>
#include <QTextDocument>

namespace poolscope::i18n {

namespace {

constexpr QChar kLeftToRightIsolate(0x2066);
constexpr QChar kFirstStrongIsolate(0x2068);
constexpr QChar kPopDirectionalIsolate(0x2069);

QString isolate(QChar opening, const QString &text) {
    if (text.isEmpty() || QGuiApplication::layoutDirection() != Qt::RightToLeft)
        return text;
    return opening + text + kPopDirectionalIsolate;
}

} // namespace

QString leftToRight(const QString &fragment) {
    return isolate(kLeftToRightIsolate, fragment);
}

QString firstStrong(const QString &text) {
    return isolate(kFirstStrongIsolate, text);
}

DirectionDelegate::DirectionDelegate(Mode mode, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_mode(mode) {}

void DirectionDelegate::initStyleOption(QStyleOptionViewItem *option,
                                        const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    option->text = displayedText(option->text, option->direction);
}

QString DirectionDelegate::displayedText(const QString &text, Qt::LayoutDirection direction) const {
    // The view's direction, not the application's: a view kept left to right needs nothing.
    if (direction != Qt::RightToLeft || text.isEmpty())
        return text;
    const QChar opening = m_mode == Mode::LeftToRight ? kLeftToRightIsolate : kFirstStrongIsolate;
    return opening + text + kPopDirectionalIsolate;
}

namespace {

void setColumnsDelegate(QAbstractItemView *view, DirectionDelegate::Mode mode,
                        std::initializer_list<int> columns) {
    auto *delegate = new DirectionDelegate(mode, view);
    for (const int column : columns)
        view->setItemDelegateForColumn(column, delegate);
}

} // namespace

void keepColumnsLeftToRight(QAbstractItemView *view, std::initializer_list<int> columns) {
    setColumnsDelegate(view, DirectionDelegate::Mode::LeftToRight, columns);
}

void keepColumnsFirstStrong(QAbstractItemView *view, std::initializer_list<int> columns) {
    setColumnsDelegate(view, DirectionDelegate::Mode::FirstStrong, columns);
}

void keepLeftToRight(QLineEdit *edit) {
    edit->setLayoutDirection(Qt::LeftToRight);
}

namespace {

// Draws the box's placeholder itself, aligned to the left, once Qt has filled the background
// and before the (empty) document is drawn over it.
class LeftToRightPlaceholder : public QObject {
public:
    explicit LeftToRightPlaceholder(QPlainTextEdit *edit)
        : QObject(edit)
        , m_edit(edit)
        , m_text(edit->placeholderText()) {
        edit->setPlaceholderText(QString());
        edit->viewport()->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override {
        if (event->type() != QEvent::Paint || watched != m_edit->viewport() ||
            !m_edit->document()->isEmpty() || m_text.isEmpty())
            return false;
        QPainter painter(m_edit->viewport());
        painter.setLayoutDirection(Qt::LeftToRight);
        painter.setPen(m_edit->palette().placeholderText().color());
        const int margin = int(m_edit->document()->documentMargin());
        const QRect area = m_edit->viewport()->rect().adjusted(margin, margin, -margin, 0);
        painter.drawText(area, Qt::AlignTop | Qt::AlignLeft | Qt::AlignAbsolute | Qt::TextWordWrap,
                         m_text);
        return false; // the document and the cursor are drawn over it as usual
    }

private:
    QPlainTextEdit *m_edit;
    QString m_text;
};

} // namespace

void keepLeftToRight(QPlainTextEdit *edit) {
    edit->setLayoutDirection(Qt::LeftToRight);
    new LeftToRightPlaceholder(edit); // owned by the edit
}

} // namespace poolscope::i18n
