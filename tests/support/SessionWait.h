// Shared by the dialog tests (GUI only): a dashboard session connected to a fixture's pool.
#pragma once

#include "session/PoolSession.h"

#include "RedisFixture.h"

#include <QSignalSpy>

#include <chrono>

namespace poolscope::testing {

// Connects `session` to `key` on `redis`, polling every 100 ms; true once the first poll applied.
inline bool connectAndWait(PoolSession &session, RedisFixture &redis, const QByteArray &key) {
    using namespace std::chrono_literals;
    session.setPollInterval(100ms);
    session.connectTo(redis.endpoint(), key);
    QSignalSpy observed(&session, &PoolSession::observationApplied);
    return observed.wait(10000);
}

} // namespace poolscope::testing
