#include "i18n/LanguageMenu.h"

#include "i18n/Languages.h"
#include "i18n/LeftToRight.h"

#include <QActionGroup>
#include <QProcessEnvironment>

namespace poolscope::i18n {

LanguageMenu::LanguageMenu(QWidget *parent)
    : QMenu(tr("&Language"), parent)
    , m_group(new QActionGroup(this)) {
    setObjectName(QStringLiteral("languageMenu"));
    const LanguageChoice system = chooseLanguage({}, {}, QProcessEnvironment::systemEnvironment());
    QAction *follow = addAction(tr("System language (%1)").arg(system.language.nativeName));
    follow->setData(QString());
    follow->setToolTip(tr("The language the desktop asks for (LANGUAGE, LC_ALL, LC_MESSAGES, "
                          "LANG), English when poolscope does not have it"));
    addSeparator();
    for (const Language &language : shippedLanguages()) {
        QAction *action = addAction(language.nativeName);
        action->setData(language.code);
        action->setToolTip(languageName(language.code));
    }
    const QString saved = savedLanguage();
    for (QAction *action : actions()) {
        if (action->isSeparator())
            continue;
        action->setCheckable(true);
        action->setChecked(action->data().toString() == saved);
        action->setStatusTip(action->toolTip());
        m_group->addAction(action);
    }
    if (!m_group->checkedAction())
        follow->setChecked(true); // a saved code no longer shipped: the system's
    addSeparator();
    QAction *when = addAction(tr("Applies the next time poolscope starts"));
    when->setEnabled(false);
    setToolTipsVisible(true);
    connect(m_group, &QActionGroup::triggered, this,
            [this](QAction *action) { choose(action->data().toString()); });
}

QAction *LanguageMenu::actionFor(const QString &code) const {
    for (QAction *action : m_group->actions())
        if (action->data().toString() == code)
            return action;
    return nullptr;
}

QString LanguageMenu::languageName(const QString &code) {
    if (code == QLatin1String("zh_CN"))
        return tr("Chinese (Simplified)");
    if (code == QLatin1String("ug"))
        return tr("Uyghur");
    if (code == QLatin1String("pa"))
        return tr("Punjabi (Gurmukhi)");
    if (code == QLatin1String("eo"))
        return tr("Esperanto");
    return tr("English");
}

void LanguageMenu::choose(const QString &code) {
    saveLanguage(code);
    const LanguageChoice next = chooseLanguage({}, code, QProcessEnvironment::systemEnvironment());
    const LanguageChoice now = installedLanguage();
    QString message;
    if (now.source == LanguageSource::CommandLine)
        message = tr("Saved: %1 from the next start of poolscope without %2")
                      .arg(next.language.nativeName, leftToRight(QStringLiteral("--lang")));
    else if (next.language.code == now.language.code)
        message = tr("Saved: poolscope stays in %1").arg(next.language.nativeName);
    else
        message = tr("Saved: poolscope starts in %1 the next time; this window keeps its language")
                      .arg(next.language.nativeName);
    Q_EMIT languageSaved(message);
}

} // namespace poolscope::i18n
