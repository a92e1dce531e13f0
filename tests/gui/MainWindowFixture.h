// Shared by the main window tests: the pool key, member names, and a dashboard over a session.
#pragma once

#include "MainWindow.h"
#include "actions/PoolActions.h"
#include "members/MembersPanel.h"
#include "members/PoolTableModel.h"
#include "session/PoolSession.h"

#include "RedisFixture.h"

#include <chrono>

#include <QSignalSpy>

namespace poolscope::testing {

inline const QByteArray kKey = "proxies";

inline QList<QByteArray> names(int count, const char *prefix = "m") {
    QList<QByteArray> members;
    for (int i = 0; i < count; ++i)
        members.append(prefix + QByteArray::number(i));
    return members;
}

// A window over a session, connected to the fixture, polling fast.
struct Dashboard {
    PoolSession session;
    MainWindow window{&session};

    explicit Dashboard(bool readOnly = false) {
        session.setReadOnly(readOnly);
        // Every eviction asks first (tst_controls drives the real question); here the answer
        // is yes unless a test says otherwise.
        window.actions()->setConfirmFunction([](const QString &, const QString &) { return true; });
    }
    bool connectTo(RedisFixture &redis, const QByteArray &key = kKey,
                   std::chrono::milliseconds interval = std::chrono::milliseconds(100)) {
        session.setPollInterval(interval);
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        session.connectTo(redis.endpoint(), key);
        return observed.wait(10000);
    }
    // Waits for the next poll to reach the panels.
    bool nextPoll() {
        QSignalSpy observed(&session, &PoolSession::observationApplied);
        return observed.wait(10000);
    }
    PoolTableModel *model() const { return window.membersPanel()->model(); }
    const PoolTableModel::Row *row(const QByteArray &member) const {
        const int index = model()->rowOf(member);
        return index < 0 ? nullptr : &model()->rowAt(index);
    }
    PoolActions *actions() const { return window.actions(); }
};

} // namespace poolscope::testing
