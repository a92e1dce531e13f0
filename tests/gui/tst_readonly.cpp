// Automatic read-only mode: a user the server refuses writes to gets a dashboard that watches,
// with every write disabled and the reason said.
#include "RedisFixture.h"

#include "session/PoolSession.h"

#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestReadOnly : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void refusedWriteSwitchesToReadOnly() {
        RedisFixture redis;
        QVERIFY2(redis.start(), qPrintable(redis.error()));
        redis.run({"ZADD", "proxies", "1", "192.0.2.1:80", "2", "192.0.2.2:80"});
        // A monitoring user as docs/key-layout.md documents it: reads only.
        QVERIFY(!redis
                     .run({"ACL",
                           "SETUSER",
                           "watcher",
                           "on",
                           ">watcher-pw",
                           "~proxies",
                           "~{proxies}:evicted:proxies",
                           "-@all",
                           "+ping",
                           "+info",
                           "+client|setname",
                           "+type",
                           "+zcard",
                           "+zrange",
                           "+zscan",
                           "+zmscore",
                           "+zscore",
                           "+hscan",
                           "+hlen",
                           "+hget",
                           "+hmget",
                           "+scan"})
                     .isError());
        Endpoint endpoint = redis.endpoint();
        endpoint.username = QStringLiteral("watcher");
        endpoint.password = QStringLiteral("watcher-pw");

        PoolSession session;
        QSignalSpy availability(&session, &PoolSession::writeAvailabilityChanged);
        QSignalSpy failures(&session, &PoolSession::commandFailed);
        session.connectTo(endpoint, "proxies");
        QTRY_VERIFY_WITH_TIMEOUT(session.isConnected(), 10000);
        QTRY_VERIFY(!availability.isEmpty() && availability.last().at(0).toBool());

        QVERIFY(session.evict({"192.0.2.1:80"}));
        QTRY_VERIFY_WITH_TIMEOUT(!failures.isEmpty(), 10000);
        QTRY_VERIFY(!availability.last().at(0).toBool());
        const QString reason = availability.last().at(1).toString();
        QVERIFY2(reason.contains(QStringLiteral("refuses writes")), qPrintable(reason));
        QVERIFY(!session.writeBlockReason().isEmpty());
        // Nothing changed on the server, and watching goes on.
        QCOMPARE(redis.run({"ZCARD", "proxies"}).integer, 2LL);
        QVERIFY(session.isConnected());
    }
};

QTEST_MAIN(TestReadOnly)
#include "tst_readonly.moc"
