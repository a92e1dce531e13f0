#include "base/RedisError.h"

namespace poolscope {

QString RedisError::remedyText(Remedy remedy) {
    switch (remedy) {
    case Remedy::None:
        break;
    case Remedy::TlsCaFile:
        return QStringLiteral("give the CA with --tls-ca FILE");
    case Remedy::TlsServerName:
        return QStringLiteral("connect by one of those names, or name the expected one with "
                              "--tls-server-name");
    case Remedy::TrustSshHostKey:
        return QStringLiteral("check its fingerprint, then connect once with --ssh-accept-new to "
                              "trust and record it");
    }
    return {};
}

QString RedisError::withRemedyText(const QString &text, Remedy remedy, const QString &words) {
    if (remedy == Remedy::None || words.isEmpty())
        return text;
    // The host-key remedy is a step of its own; the TLS ones are an aside.
    return remedy == Remedy::TrustSshHostKey ? QStringLiteral("%1; %2").arg(text, words)
                                             : QStringLiteral("%1 (%2)").arg(text, words);
}

} // namespace poolscope
