#include "i18n/Languages.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QPointer>
#include <QProcessEnvironment>
#include <QSettings>
#include <QTranslator>

namespace poolscope::i18n {

namespace {

const QString kSetting = QStringLiteral("ui/language");

struct Installed {
    LanguageChoice choice{shippedLanguages().constFirst(), LanguageSource::System};
    QPointer<QTranslator> ours;
    QPointer<QTranslator> qt;
    QPointer<QTranslator> english; // under another language: its untranslated plurals
};

Installed &installed() {
    static Installed state;
    return state;
}

std::optional<Language> shipped(const QString &code) {
    for (const Language &language : shippedLanguages())
        if (language.code == code)
            return language;
    return std::nullopt;
}

// The numbers' and times' locale: the system's own when it speaks the chosen language (its
// territory's formats, e.g. zh_SG), the chosen language's otherwise. Following the system into
// English because nothing of ours matched keeps the system's formats (de_DE's "1.234,5").
QLocale localeFor(const LanguageChoice &choice) {
    const QLocale system = QLocale::system();
    if (choice.source == LanguageSource::System &&
        (system.language() == QLocale(choice.language.code).language() ||
         choice.language.code == QLatin1String("en")))
        return system;
    return QLocale(choice.language.code);
}

} // namespace

const QList<Language> &shippedLanguages() {
    static const QList<Language> languages = {
        {QStringLiteral("en"), QStringLiteral("English"), false},
        {QStringLiteral("zh_CN"), QStringLiteral("简体中文"), false},
        {QStringLiteral("ug"), QStringLiteral("ئۇيغۇرچە"), true},
        {QStringLiteral("pa"), QStringLiteral("ਪੰਜਾਬੀ"), false},
        {QStringLiteral("eo"), QStringLiteral("Esperanto"), false},
    };
    return languages;
}

QStringList shippedLanguageCodes() {
    QStringList codes;
    for (const Language &language : shippedLanguages())
        codes << language.code;
    return codes;
}

std::optional<Language> matchLanguage(const QString &localeName) {
    QString name = localeName.trimmed();
    QString modifier;
    if (const qsizetype at = name.indexOf(QLatin1Char('@')); at >= 0) {
        modifier = name.mid(at + 1).toLower();
        name.truncate(at);
    }
    if (const qsizetype dot = name.indexOf(QLatin1Char('.')); dot >= 0)
        name.truncate(dot); // the codeset: "zh_CN.UTF-8"
    if (name == QLatin1String("C") || name == QLatin1String("POSIX"))
        return shipped(QStringLiteral("en"));
    const QStringList parts = name.replace(QLatin1Char('-'), QLatin1Char('_')).split(u'_');
    const QString language = parts.constFirst().toLower();
    QString script; // a BCP 47 script subtag: "zh-Hans-CN"
    QString territory;
    for (qsizetype i = 1; i < parts.size(); ++i) {
        if (parts[i].size() == 4)
            script = parts[i].toLower();
        else
            territory = parts[i].toUpper();
    }
    if (language == QLatin1String("en"))
        return shipped(QStringLiteral("en"));
    // "@euro" names a currency; any other modifier a script or variant we do not ship.
    if (!modifier.isEmpty() && modifier != QLatin1String("euro"))
        return std::nullopt;
    if (language == QLatin1String("zh")) {
        const bool traditional = script == QLatin1String("hant") ||
                                 (script.isEmpty() && (territory == QLatin1String("TW") ||
                                                       territory == QLatin1String("HK") ||
                                                       territory == QLatin1String("MO")));
        return traditional ? std::nullopt : shipped(QStringLiteral("zh_CN"));
    }
    if (language == QLatin1String("ug"))
        return script.isEmpty() || script == QLatin1String("arab") ? shipped(language)
                                                                   : std::nullopt;
    if (language == QLatin1String("pa")) {
        // Punjabi in Pakistan is written in Shahmukhi (Arabic script); we ship Gurmukhi.
        const bool gurmukhi = script == QLatin1String("guru") ||
                              (script.isEmpty() && territory != QLatin1String("PK"));
        return gurmukhi ? shipped(language) : std::nullopt;
    }
    return shipped(language);
}

QStringList requestedLanguages(const QProcessEnvironment &environment) {
    QString locale;
    for (const QString &name :
         {QStringLiteral("LC_ALL"), QStringLiteral("LC_MESSAGES"), QStringLiteral("LANG")}) {
        locale = environment.value(name);
        if (!locale.isEmpty())
            break;
    }
    // gettext ignores LANGUAGE in the C locale (an unset one is C too), not in C.UTF-8.
    const bool cLocale =
        locale.isEmpty() || locale == QLatin1String("C") || locale == QLatin1String("POSIX");
    const QString languages = environment.value(QStringLiteral("LANGUAGE"));
    if (!cLocale && !languages.isEmpty())
        return languages.split(QLatin1Char(':'), Qt::SkipEmptyParts);
    return locale.isEmpty() ? QStringList() : QStringList{locale};
}

LanguageChoice chooseLanguage(const QString &commandLine, const QString &saved,
                              const QProcessEnvironment &environment) {
    if (const std::optional<Language> language = matchLanguage(commandLine);
        !commandLine.isEmpty() && language)
        return {*language, LanguageSource::CommandLine};
    if (const std::optional<Language> language = shipped(saved); language)
        return {*language, LanguageSource::Menu};
    // gettext takes the first entry it has a catalog for; English when none.
    for (const QString &name : requestedLanguages(environment))
        if (const std::optional<Language> language = matchLanguage(name))
            return {*language, LanguageSource::System};
    return {shippedLanguages().constFirst(), LanguageSource::System};
}

QString savedLanguage() {
    return QSettings().value(kSetting).toString();
}

void saveLanguage(const QString &code) {
    QSettings settings;
    if (code.isEmpty())
        settings.remove(kSetting);
    else
        settings.setValue(kSetting, code);
}

bool installLanguage(const LanguageChoice &choice, QString *error) {
    Installed &state = installed();
    delete state.ours; // a translator removes itself from the application
    delete state.qt;
    delete state.english;
    auto *ours = new QTranslator(QCoreApplication::instance());
    // English has a translation too: the plural forms of its %n messages.
    const QString file = QStringLiteral(":/i18n/poolscope_%1.qm").arg(choice.language.code);
    if (!ours->load(file)) {
        delete ours;
        if (error)
            *error = QStringLiteral("cannot load the translation %1").arg(file);
        return false;
    }
    // English plural forms at the bottom: a %n string not translated yet in the language
    // reads "3 members", not "3 member(s)".
    auto *english = new QTranslator(QCoreApplication::instance());
    if (choice.language.code != QLatin1String("en") &&
        english->load(QStringLiteral(":/i18n/poolscope_en.qm"))) {
        QCoreApplication::installTranslator(english);
    } else {
        delete english;
        english = nullptr;
    }
    // Qt's own strings next, ours over them: ours translate what Qt has no file for.
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(QStringLiteral("qtbase_%1").arg(choice.language.code),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
    } else {
        delete qt;
        qt = nullptr;
    }
    QCoreApplication::installTranslator(ours);
    state.ours = ours;
    state.qt = qt;
    state.english = english;
    state.choice = choice;
    QLocale::setDefault(localeFor(choice));
    return true;
}

LanguageChoice installedLanguage() {
    return installed().choice;
}

} // namespace poolscope::i18n
