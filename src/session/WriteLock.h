#pragma once

#include "profiles/ConnectionProfile.h"

#include <QColor>
#include <QObject>
#include <QString>

namespace poolscope {

// Production safety for one watched connection: a connection saved as production starts with its
// writes locked, and stays locked until the person unlocks them for this session (one click).
// Choosing a connection again (setEnvironment) locks it again: an unlock never outlives the
// connection it was given for. On production, destructive writes (evicting several members, a
// restore at zero, the count-reset demo) also ask for the pool's name to be typed.
class WriteLock : public QObject {
    Q_OBJECT

public:
    explicit WriteLock(QObject *parent = nullptr);

    // The saved connection's environment (none for a typed URL or a recording).
    void setEnvironment(Environment environment);
    Environment environment() const { return m_environment; }
    bool isProduction() const { return m_environment == Environment::Production; }
    bool isLocked() const { return isProduction() && !m_unlocked; }
    void unlock();
    void lock();
    // Destructive writes ask for the pool's name typed.
    bool needsTypedConfirmation() const { return isProduction(); }
    // Why writes are refused while locked, for tooltips and the events.
    static QString lockedReason();

Q_SIGNALS:
    void lockChanged(bool locked);
    void environmentChanged(poolscope::Environment environment);

private:
    void emitIfChanged(bool wasLocked);

    Environment m_environment = Environment::None;
    bool m_unlocked = false;
};

// The colour that marks an environment (banner, status bar, overview rows, Connections tree);
// invalid for none.
QColor environmentColor(Environment environment);
// The environment's name for people, translated ("Production"); empty for none.
QString environmentLabel(Environment environment);

} // namespace poolscope
