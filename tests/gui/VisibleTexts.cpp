#include "VisibleTexts.h"

#include "ElidedLabel.h"

#include <algorithm>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabBar>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QTextEdit>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>

namespace poolscope::testing {

namespace {

constexpr QChar kOpen(0x27e6);
constexpr QChar kClose(0x27e7);
constexpr int kRowsRead = 40; // of each item view: the first rows show what every row says

// Names that stay as they are in every language.
const QStringList kProperNouns = {QStringLiteral("poolscope"), QStringLiteral("Redis"),
                                  QStringLiteral("Lua"), QStringLiteral("Qt")};

const QRegularExpression &urlPattern() {
    static const QRegularExpression pattern(QStringLiteral("[A-Za-z][A-Za-z0-9+.\\-]*://\\S*"));
    return pattern;
}

const QRegularExpression &pathPattern() {
    // At least two levels ("/tmp/x"), so that a unit such as "/s" stays a word.
    static const QRegularExpression pattern(
        QStringLiteral("(?<![\\w.])/(?:[\\w.\\-~]+/)+[\\w.\\-~]*"));
    return pattern;
}

const QRegularExpression &addressPattern() {
    static const QRegularExpression pattern(
        QStringLiteral("\\d{1,3}(\\.\\d{1,3}){3}(:\\d+)?|\\[[0-9a-fA-F:]+\\](:\\d+)?"));
    return pattern;
}

// An ISO 8601 time (the events' tooltips): figures and a "T" that no language translates.
const QRegularExpression &timestampPattern() {
    static const QRegularExpression pattern(QStringLiteral(
        "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?"));
    return pattern;
}

const QRegularExpression &numberPattern() {
    static const QRegularExpression pattern(QStringLiteral("\\d+"));
    return pattern;
}

const QRegularExpression &wordPattern() {
    static const QRegularExpression pattern(QStringLiteral("\\p{L}[\\p{L}\\p{M}'’\\-]*"));
    return pattern;
}

QString withoutMarkedParts(const QString &text) {
    QString rest;
    int depth = 0;
    for (const QChar c : text) {
        if (c == kOpen)
            ++depth;
        else if (c == kClose && depth > 0)
            --depth;
        else if (depth == 0)
            rest += c;
    }
    return rest;
}

QString oneLine(QString text) {
    text.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    return text.simplified();
}

// What a label shows: rich text without its markup (a colour in a style is not a word).
QString shownText(const QLabel *label) {
    const bool rich = label->textFormat() == Qt::RichText ||
                      (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()));
    return rich ? QTextDocumentFragment::fromHtml(label->text()).toPlainText() : label->text();
}

bool isFileListing(const QAbstractItemView *view) {
    // A file dialog's listing and places are the disk's, not ours: headers are read, not rows.
    return view->model()->inherits("QFileSystemModel") || view->window()->inherits("QFileDialog");
}

} // namespace

void VisibleTexts::addData(const QString &data) {
    if (data.isEmpty() || m_data.contains(data))
        return;
    m_data.append(data);
    std::sort(m_data.begin(), m_data.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
}

QString VisibleTexts::pathOf(const QObject *object) {
    QStringList parts;
    for (const QObject *o = object; o; o = o->parent()) {
        QString part = o->objectName();
        if (part.isEmpty() || part.startsWith(QLatin1String("qt_")))
            part = QString::fromLatin1(o->metaObject()->className()).section(u':', -1);
        parts.prepend(part);
        if (o->isWidgetType() && static_cast<const QWidget *>(o)->isWindow())
            break;
    }
    return parts.join(u'/');
}

void VisibleTexts::add(const QString &kind, const QObject *owner, const QString &text) {
    if (text.trimmed().isEmpty())
        return;
    VisibleText visible{kind, pathOf(owner), text};
    for (const VisibleText &known : std::as_const(m_texts))
        if (known.kind == kind && known.path == visible.path && known.text == text)
            return;
    m_texts.append(visible);
}

void VisibleTexts::collect(QWidget *window) {
    collectWidget(window);
    for (QWidget *child : window->findChildren<QWidget *>()) {
        // Another window (a dialog, a menu's popup) is read on its own, when it is shown.
        if (child->window() != window || !child->isVisibleTo(window))
            continue;
        collectWidget(child);
    }
}

void VisibleTexts::collectWidget(QWidget *widget) {
    if (widget->isWindow() || qobject_cast<QDockWidget *>(widget))
        add(QStringLiteral("title"), widget, widget->windowTitle());
    add(QStringLiteral("tooltip"), widget, widget->toolTip());
    add(QStringLiteral("statustip"), widget, widget->statusTip());
    add(QStringLiteral("whatsthis"), widget, widget->whatsThis());
    if (auto *elided = qobject_cast<ElidedLabel *>(widget))
        add(QStringLiteral("text"), widget, elided->fullText());
    else if (auto *label = qobject_cast<QLabel *>(widget))
        add(QStringLiteral("text"), widget, shownText(label));
    if (auto *button = qobject_cast<QAbstractButton *>(widget))
        add(QStringLiteral("text"), widget, button->text());
    if (auto *group = qobject_cast<QGroupBox *>(widget))
        add(QStringLiteral("title"), widget, group->title());
    if (auto *tabs = qobject_cast<QTabBar *>(widget)) {
        for (int i = 0; i < tabs->count(); ++i) {
            add(QStringLiteral("text"), widget, tabs->tabText(i));
            add(QStringLiteral("tooltip"), widget, tabs->tabToolTip(i));
        }
    }
    // A file dialog's "Look in" lists folders of the disk.
    const bool folders = widget->objectName() == QLatin1String("lookInCombo");
    if (auto *combo = qobject_cast<QComboBox *>(widget);
        combo && !combo->isEditable() && !folders) {
        for (int i = 0; i < combo->count(); ++i) {
            add(QStringLiteral("item"), widget, combo->itemText(i));
            add(QStringLiteral("tooltip"), widget, combo->itemData(i, Qt::ToolTipRole).toString());
        }
    }
    if (auto *edit = qobject_cast<QLineEdit *>(widget))
        add(QStringLiteral("placeholder"), widget, edit->placeholderText());
    if (auto *edit = qobject_cast<QPlainTextEdit *>(widget)) {
        add(QStringLiteral("placeholder"), widget, edit->placeholderText());
        if (edit->isReadOnly())
            add(QStringLiteral("text"), widget, edit->toPlainText());
    }
    if (auto *edit = qobject_cast<QTextEdit *>(widget)) {
        add(QStringLiteral("placeholder"), widget, edit->placeholderText());
        if (edit->isReadOnly())
            add(QStringLiteral("text"), widget, edit->toPlainText());
    }
    if (auto *spin = qobject_cast<QAbstractSpinBox *>(widget)) {
        add(QStringLiteral("text"), widget, spin->specialValueText());
        if (auto *whole = qobject_cast<QSpinBox *>(widget)) {
            add(QStringLiteral("text"), widget, whole->prefix());
            add(QStringLiteral("text"), widget, whole->suffix());
        } else if (auto *real = qobject_cast<QDoubleSpinBox *>(widget)) {
            add(QStringLiteral("text"), widget, real->prefix());
            add(QStringLiteral("text"), widget, real->suffix());
        }
    }
    if (auto *progress = qobject_cast<QProgressBar *>(widget);
        progress && progress->isTextVisible())
        add(QStringLiteral("text"), widget, progress->text());

    auto *view = qobject_cast<QAbstractItemView *>(widget);
    if (view && !qobject_cast<QHeaderView *>(widget) && view->model()) {
        const QAbstractItemModel *model = view->model();
        auto *table = qobject_cast<QTableView *>(widget);
        auto *tree = qobject_cast<QTreeView *>(widget);
        const bool headerShown =
            (table && !table->horizontalHeader()->isHidden()) || (tree && !tree->isHeaderHidden());
        const auto columnShown = [&](int column) {
            return !(table && table->isColumnHidden(column)) &&
                   !(tree && tree->isColumnHidden(column));
        };
        for (int column = 0; column < model->columnCount(); ++column) {
            if (!columnShown(column) || !headerShown)
                continue;
            add(QStringLiteral("header"), widget,
                model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString());
            add(QStringLiteral("tooltip"), widget,
                model->headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString());
        }
        const std::function<void(const QModelIndex &, int)> readRows =
            [&](const QModelIndex &parent, int depth) {
                const int rows = std::min(model->rowCount(parent), kRowsRead);
                for (int row = 0; row < rows; ++row) {
                    for (int column = 0; column < model->columnCount(parent); ++column) {
                        if (!columnShown(column))
                            continue;
                        const QModelIndex index = model->index(row, column, parent);
                        const QVariant display = index.data(Qt::DisplayRole);
                        if (display.typeId() == QMetaType::QString)
                            add(QStringLiteral("cell"), widget, display.toString());
                        add(QStringLiteral("tooltip"), widget,
                            index.data(Qt::ToolTipRole).toString());
                    }
                    if (depth < 2 && tree)
                        readRows(model->index(row, 0, parent), depth + 1);
                }
            };
        if (!isFileListing(view))
            readRows(QModelIndex(), 0);
    }

    if (auto *bar = qobject_cast<QMenuBar *>(widget))
        collectActions(bar->actions(), pathOf(widget));
    else if (auto *toolbar = qobject_cast<QToolBar *>(widget))
        collectActions(toolbar->actions(), pathOf(widget));
    else if (widget->contextMenuPolicy() == Qt::ActionsContextMenu)
        collectActions(widget->actions(), pathOf(widget) + QStringLiteral("/contextMenu"));
    if (auto *button = qobject_cast<QToolButton *>(widget); button && button->menu())
        collectActions(button->menu()->actions(), pathOf(widget) + QStringLiteral("/menu"));
}

void VisibleTexts::collectActions(const QList<QAction *> &actions, const QString &path, int depth) {
    for (QAction *action : actions) {
        if (action->isSeparator() || !action->isVisible())
            continue;
        const QString here =
            path + u'/' +
            (action->objectName().isEmpty() ? action->text().remove(u'&') : action->objectName());
        const auto addHere = [&](const QString &kind, const QString &text) {
            if (text.trimmed().isEmpty())
                return;
            VisibleText visible{kind, here, text};
            for (const VisibleText &known : std::as_const(m_texts))
                if (known.kind == kind && known.path == here && known.text == text)
                    return;
            m_texts.append(visible);
        };
        addHere(QStringLiteral("menu"), action->text());
        // An action without a tooltip of its own shows its text: read it once.
        QString plain = action->text();
        plain.remove(u'&');
        if (action->toolTip() != plain && action->toolTip() != action->text())
            addHere(QStringLiteral("tooltip"), action->toolTip());
        addHere(QStringLiteral("statustip"), action->statusTip());
        addHere(QStringLiteral("whatsthis"), action->whatsThis());
        if (action->menu() && depth < 4)
            collectActions(action->menu()->actions(), here, depth + 1);
    }
}

QString VisibleTexts::withoutData(QString text) const {
    for (const QString &data : m_data)
        text.replace(data, QStringLiteral(" "));
    text.replace(urlPattern(), QStringLiteral(" "));
    text.replace(timestampPattern(), QStringLiteral(" "));
    text.replace(addressPattern(), QStringLiteral(" "));
    text.replace(pathPattern(), QStringLiteral(" "));
    return text;
}

QString VisibleTexts::untranslatedWords(const QString &text) const {
    const QString rest = withoutData(withoutMarkedParts(text));
    QStringList words;
    for (auto match = wordPattern().globalMatch(rest); match.hasNext();) {
        const QString word = match.next().captured();
        if (!kProperNouns.contains(word))
            words << word;
    }
    return words.join(u' ');
}

QList<VisibleText> VisibleTexts::untranslated() const {
    QList<VisibleText> found;
    for (const VisibleText &text : m_texts)
        if (!untranslatedWords(text.text).isEmpty())
            found << text;
    return found;
}

QString VisibleTexts::allowListKey(const VisibleText &text) const {
    QString key = text.text;
    for (const QString &data : m_data)
        key.replace(data, QStringLiteral("<data>"));
    key.replace(urlPattern(), QStringLiteral("<url>"));
    key.replace(addressPattern(), QStringLiteral("<address>"));
    key.replace(pathPattern(), QStringLiteral("<path>"));
    key.replace(numberPattern(), QStringLiteral("#"));
    return text.kind + u'\t' + oneLine(key);
}

} // namespace poolscope::testing
