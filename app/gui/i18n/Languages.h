#pragma once

#include <optional>

#include <QList>
#include <QString>
#include <QStringList>

class QCoreApplication;
class QProcessEnvironment;

namespace poolscope::i18n {

// A language the dashboard ships: its translation is compiled into the program
// (:/i18n/poolscope_<code>.qm). English is the source language.
struct Language {
    QString code;       // "en", "zh_CN", "ug", "pa", "eo": the .ts file's suffix
    QString nativeName; // in its own language and script, for the language menu
    bool rightToLeft = false;
};

// Every shipped language, English first.
const QList<Language> &shippedLanguages();
QStringList shippedLanguageCodes();

// The shipped language that one locale name asks for, as gettext matches catalogs:
// "zh_CN.UTF-8" -> zh_CN, "ug_CN" -> ug, "eo" -> eo, "C" and "en_GB" -> en. Only the script we ship
// matches: zh_TW and zh_HK (Traditional), pa_PK (Shahmukhi) and an "@latin" modifier do not.
// "zh-CN" and any letter case are accepted too (typed with --lang).
std::optional<Language> matchLanguage(const QString &localeName);

// The locale names the environment asks for, in gettext's order of precedence: LANGUAGE (a
// colon-separated list, ignored when the locale is C or POSIX), else the first set of LC_ALL,
// LC_MESSAGES and LANG.
QStringList requestedLanguages(const QProcessEnvironment &environment);

// Where a run's language came from.
enum class LanguageSource { CommandLine, Menu, System };

struct LanguageChoice {
    Language language;
    LanguageSource source = LanguageSource::System;
};

// --lang first (already checked by the option parser), then the one chosen in View > Language
// (empty: follow the system), then the environment's first shipped language, else English.
LanguageChoice chooseLanguage(const QString &commandLine, const QString &saved,
                              const QProcessEnvironment &environment);

// View > Language, kept in QSettings: a shipped language's code, or empty to follow the system.
QString savedLanguage();
void saveLanguage(const QString &code);

// Installs the chosen language before any window exists: our translation, Qt's own for its
// dialogs where the system has it (qtbase_<code>.qm, from qt6-translations-l10n), and the default
// QLocale for numbers and times. Qt lays the widgets out right to left when the translation
// says so (QT_LAYOUT_DIRECTION). Calling it again replaces the previous language.
// False, with the reason, when our translation cannot be loaded.
bool installLanguage(const LanguageChoice &choice, QString *error = nullptr);

// The language installed last (English before any).
LanguageChoice installedLanguage();

} // namespace poolscope::i18n
