#include "i18n/LeftToRight.h"

#include <QAbstractItemView>
#include <QGuiApplication>
#include <QLineEdit>

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

} // namespace poolscope::i18n
