#include "session/WriteLock.h"

#include <QCoreApplication>

namespace poolscope {

WriteLock::WriteLock(QObject *parent)
    : QObject(parent) {}

void WriteLock::setEnvironment(Environment environment) {
    const bool wasLocked = isLocked();
    const bool changed = environment != m_environment;
    m_environment = environment;
    m_unlocked = false; // a connection chosen again starts locked again
    if (changed)
        Q_EMIT environmentChanged(environment);
    emitIfChanged(wasLocked);
}

void WriteLock::unlock() {
    const bool wasLocked = isLocked();
    m_unlocked = true;
    emitIfChanged(wasLocked);
}

void WriteLock::lock() {
    const bool wasLocked = isLocked();
    m_unlocked = false;
    emitIfChanged(wasLocked);
}

void WriteLock::emitIfChanged(bool wasLocked) {
    if (wasLocked != isLocked())
        Q_EMIT lockChanged(isLocked());
}

QString WriteLock::lockedReason() {
    return tr("production: writes are locked for this connection; unlock them for this session "
              "first (Pool ▸ Unlock writes)");
}

QColor environmentColor(Environment environment) {
    switch (environment) {
    case Environment::Production:
        return QColor(0xc6, 0x28, 0x28); // red
    case Environment::Staging:
        return QColor(0xe6, 0x7e, 0x00); // amber
    case Environment::Development:
        return QColor(0x2e, 0x7d, 0x32); // green
    case Environment::None:
        break;
    }
    return {};
}

QString environmentLabel(Environment environment) {
    switch (environment) {
    case Environment::Production:
        return QCoreApplication::translate("WriteLock", "Production");
    case Environment::Staging:
        return QCoreApplication::translate("WriteLock", "Staging");
    case Environment::Development:
        return QCoreApplication::translate("WriteLock", "Development");
    case Environment::None:
        break;
    }
    return {};
}

} // namespace poolscope
