#include "base/Failure.h"

namespace poolscope {

Failure::Failure(const RedisError &error, const QString &text)
    : kind(error.kind())
    , serverCode(error.serverCode())
    , text(text.isEmpty() ? error.message() : text)
    , remedy(error.remedy())
    , retryCannotHelp(error.retryCannotHelp()) {}

RedisError Failure::toError() const {
    // The text already says the remedy in its own words: it is not appended again.
    RedisError error(kind, text, serverCode);
    if (retryCannotHelp)
        error.markRetryCannotHelp();
    return error;
}

void Failure::registerMetaType() {
    static const bool registered = [] {
        qRegisterMetaType<poolscope::Failure>("poolscope::Failure");
        QMetaType::registerConverter<Failure, QString>([](const Failure &f) { return f.text; });
        return true;
    }();
    Q_UNUSED(registered);
}

} // namespace poolscope
