#pragma once

#include <QMenu>

class QActionGroup;

namespace poolscope::i18n {

// View > Language: follow the system, or one of the shipped languages, each in its own name.
// The choice is saved (QSettings) and applies the next time poolscope starts: the open window
// keeps its language (its widgets are built once, in one language).
class LanguageMenu : public QMenu {
    Q_OBJECT

public:
    explicit LanguageMenu(QWidget *parent = nullptr);

    // The entry that chooses CODE; an empty code is "the system's language".
    QAction *actionFor(const QString &code) const;
    // A language's name in the language shown now, for tooltips ("Uyghur").
    static QString languageName(const QString &code);

Q_SIGNALS:
    // A choice was saved; MESSAGE says what happens and when, for the status bar.
    void languageSaved(const QString &message);

private:
    void choose(const QString &code);

    QActionGroup *m_group;
};

} // namespace poolscope::i18n
