// What a person can read in a window, gathered widget by widget, and which of it did not go
// through Qt's translation system: with the pseudo translation installed
// (tests/i18n/pseudo_translate.py) every translated string shows between ⟦ and ⟧, so any word
// outside the marks that is not data (a member id, a URL, a number) was never translatable.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QAction;
class QObject;
class QWidget;

namespace poolscope::testing {

struct VisibleText {
    QString kind; // title, text, tooltip, statustip, whatsthis, placeholder, item, header, cell,
                  // menu, chart
    QString path; // object names (or class names) from the window down
    QString text;
};

class VisibleTexts {
public:
    // Strings that are data wherever they appear: member ids, the pool key, the server's address.
    void addData(const QString &data);

    // Every visible text of WINDOW and its visible children: titles, labels, buttons, tooltips,
    // placeholders, combo box items, headers and cells of item views (the first rows), the
    // actions of menus, tool bars and context menus.
    void collect(QWidget *window);
    // A text drawn by the widget itself (a chart's markers, legend, axis titles).
    void add(const QString &kind, const QObject *owner, const QString &text);

    const QList<VisibleText> &texts() const { return m_texts; }
    // The texts with words outside the marks that are not data.
    QList<VisibleText> untranslated() const;

    // TEXT without its marked parts and its data; empty when nothing is left to translate.
    QString untranslatedWords(const QString &text) const;
    // The allow-list's line for an untranslated text: KIND, a tab, the text with its numbers,
    // addresses and data replaced (the same on every run), on one line.
    QString allowListKey(const VisibleText &text) const;

    static QString pathOf(const QObject *object);

private:
    void collectWidget(QWidget *widget);
    void collectActions(const QList<QAction *> &actions, const QString &path, int depth = 0);
    QString withoutData(QString text) const;

    QStringList m_data; // longest first
    QList<VisibleText> m_texts;
};

} // namespace poolscope::testing
