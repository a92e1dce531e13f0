#pragma once

#include <QStyledItemDelegate>

class QAbstractItemView;
class QLineEdit;
class QPlainTextEdit;
class QString;

namespace poolscope::i18n {

// Data in a right-to-left window (Uyghur): member ids, URLs, keys, addresses and numbers keep
// their left-to-right order inside the mirrored layout. The window mirrors; these fragments do not.

// FRAGMENT between U+2066 LEFT-TO-RIGHT ISOLATE and U+2069 POP DIRECTIONAL ISOLATE when the
// application lays out right to left, unchanged otherwise: for data put into a sentence
// (tr("Evict %1?").arg(leftToRight(member))) or into a label of its own.
QString leftToRight(const QString &fragment);

// TEXT between U+2068 FIRST STRONG ISOLATE and U+2069 when right to left, unchanged otherwise:
// a line whose direction is its own first letter's, e.g. an event that is not translated yet.
QString firstStrong(const QString &text);

// Draws a column's cells with leftToRight() (or firstStrong()) applied to their text; the cell's
// alignment, icon and position still follow the view's direction. Only the painting changes:
// the model's data, copies and exports stay as they are.
class DirectionDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    enum class Mode { LeftToRight, FirstStrong };
    explicit DirectionDelegate(Mode mode, QObject *parent = nullptr);

    Mode mode() const { return m_mode; }
    // TEXT as the cell draws it in a view laid out in DIRECTION.
    QString displayedText(const QString &text, Qt::LayoutDirection direction) const;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;

private:
    Mode m_mode;
};

// Sets a DirectionDelegate on each of COLUMNS of VIEW (owned by the view): LeftToRight for ids,
// URLs, keys and figures, FirstStrong for phrases ("12 s ago", a state) that may not be
// translated yet.
void keepColumnsLeftToRight(QAbstractItemView *view, std::initializer_list<int> columns);
void keepColumnsFirstStrong(QAbstractItemView *view, std::initializer_list<int> columns);

// A field for a URL, a key or a member id: typed and shown left to right, aligned to the left,
// in any window direction.
void keepLeftToRight(QLineEdit *edit);
// A box for a list of addresses, the same; its placeholder (example lines) too, which Qt would
// draw in the application's direction whatever the box's own (right-aligned under Uyghur).
void keepLeftToRight(QPlainTextEdit *edit);

} // namespace poolscope::i18n
