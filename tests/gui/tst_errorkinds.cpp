// The dashboard decides on an error's kind and code, never on its words. A real redis-server
// behind a relay that keeps every NOPERM, WRONGTYPE and READONLY code and rewords the rest (as
// another server might): the session still turns read-only for a user without write rights and
// for a read-only replica, and still names a key of another type as the key's problem. And
// errors whose words say "NOPERM", "lacks the right", "read-only replica" or "not a sorted set"
// (a member or a key named so) while their kind says otherwise change nothing.
#include "ErrorRewritingRelay.h"
#include "RedisFixture.h"

#include "session/PoolSession.h"

#include <QSignalSpy>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

class TestErrorKinds : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void relayRewordsErrorsOnly();
    void noPermissionMakesReadOnly();
    void readOnlyReplicaMakesReadOnly();
    void wrongTypeIsTheKeysProblem();
    void wordsOfAnotherErrorChangeNothing();

private:
    // On TCP, so the relay can stand in front of it.
    static RedisServerOptions tcp() {
        RedisServerOptions options;
        options.useTcp = true;
        return options;
    }
    static Endpoint through(const ErrorRewritingRelay &relay, Endpoint endpoint) {
        endpoint.port = relay.port();
        return endpoint;
    }
    static Failure failureIn(const QSignalSpy &spy, int argument) {
        return spy.constLast().at(argument).value<Failure>();
    }
};

// The relay itself: codes kept, words replaced, other replies (and errors) untouched, split
// replies waited for.
void TestErrorKinds::relayRewordsErrorsOnly() {
    const QByteArray in = "*3\r\n-NOPERM User may not\r\n$5\r\nhe-lo\r\n:7\r\n"
                          "-ERR unknown command\r\n+OK\r\n-WRONGTYPE Operation against a key\r\n";
    QByteArray out;
    int errors = 0;
    qsizetype at = 0;
    for (qsizetype end; (end = ErrorRewritingRelay::rewriteReply(in, at, out, &errors)) > 0;)
        at = end;
    QCOMPARE(at, in.size());
    QCOMPARE(errors, 2);
    const QByteArray reworded = QByteArray(" ") + ErrorRewritingRelay::kText + "\r\n";
    QCOMPARE(out, "*3\r\n-NOPERM" + reworded + "$5\r\nhe-lo\r\n:7\r\n-ERR unknown command\r\n" +
                      "+OK\r\n-WRONGTYPE" + reworded);
    QByteArray partial;
    QCOMPARE(ErrorRewritingRelay::rewriteReply("*2\r\n:1\r\n$3\r\nab", 0, partial, &errors), -1);
}

void TestErrorKinds::noPermissionMakesReadOnly() {
    RedisFixture redis(tcp());
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.run({"ZADD", "proxies", "1", "192.0.2.1:80", "2", "192.0.2.2:80"});
    // A monitoring user (docs/key-layout.md): reads only.
    QVERIFY(!redis
                 .run({"ACL",         "SETUSER",  "watcher",         "on",
                       ">watcher-pw", "~proxies", "~{proxies}:*",    "-@all",
                       "+ping",       "+info",    "+client|setname", "+type",
                       "+zcard",      "+zrange",  "+zscan",          "+zmscore",
                       "+zscore",     "+hscan",   "+hlen",           "+hget",
                       "+hmget",      "+scan",    "+xrange",         "+xrevrange",
                       "+acl|whoami"})
                 .isError());
    ErrorRewritingRelay relay(redis.endpoint().port);
    QVERIFY2(relay.start(), qPrintable(relay.error()));
    Endpoint endpoint = through(relay, redis.endpoint());
    endpoint.username = QStringLiteral("watcher");
    endpoint.password = QStringLiteral("watcher-pw");

    PoolSession session;
    QSignalSpy failures(&session, &PoolSession::commandFailed);
    session.connectTo(endpoint, "proxies");
    QTRY_VERIFY_WITH_TIMEOUT(session.isConnected() && session.canWrite(), 10000);
    QVERIFY(session.evict({"192.0.2.1:80"}));
    QVERIFY(failures.wait(10000));
    const Failure failure = failureIn(failures, 1);
    // Redis's own words are gone: whatever decides, decides without them.
    QVERIFY2(!failure.text.contains(QLatin1String("no permissions")), qPrintable(failure.text));
    QVERIFY2(failure.noPermission(), qPrintable(failure.text));
    QCOMPARE_GT(relay.rewritten(), 0);
    QVERIFY(!session.canWrite());
    QVERIFY2(session.writeBlockReason().contains(QStringLiteral("refuses writes")),
             qPrintable(session.writeBlockReason()));
    QCOMPARE(redis.run({"ZCARD", "proxies"}).integer, 2LL);
}

void TestErrorKinds::readOnlyReplicaMakesReadOnly() {
    RedisFixture primary(tcp());
    RedisFixture replica(tcp());
    QVERIFY2(primary.start(), qPrintable(primary.error()));
    QVERIFY2(replica.start(), qPrintable(replica.error()));
    primary.run({"ZADD", "proxies", "1", "192.0.2.1:80", "2", "192.0.2.2:80"});
    QVERIFY(!replica.run({"REPLICAOF", "127.0.0.1", QByteArray::number(primary.endpoint().port)})
                 .isError());
    QTRY_COMPARE_WITH_TIMEOUT(replica.run({"ZCARD", "proxies"}).integer, 2LL, 10000);
    ErrorRewritingRelay relay(replica.endpoint().port);
    QVERIFY2(relay.start(), qPrintable(relay.error()));

    PoolSession session;
    QSignalSpy failures(&session, &PoolSession::commandFailed);
    session.connectTo(through(relay, replica.endpoint()), "proxies");
    QTRY_VERIFY_WITH_TIMEOUT(session.isConnected() && session.canWrite(), 10000);
    QVERIFY(session.evict({"192.0.2.1:80"}));
    QVERIFY(failures.wait(10000));
    const Failure failure = failureIn(failures, 1);
    // Redis's own words are gone: whatever decides, decides without them.
    QVERIFY2(!failure.text.contains(QLatin1String("read only replica")), qPrintable(failure.text));
    QVERIFY2(failure.readOnlyReplica(), qPrintable(failure.text));
    QCOMPARE_GT(relay.rewritten(), 0);
    QVERIFY2(session.writeBlockReason().contains(QStringLiteral("read-only replica")),
             qPrintable(session.writeBlockReason()));
    QCOMPARE(primary.run({"ZCARD", "proxies"}).integer, 2LL);
}

void TestErrorKinds::wrongTypeIsTheKeysProblem() {
    RedisFixture redis(tcp());
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    redis.run({"SET", "plain", "a string"});
    ErrorRewritingRelay relay(redis.endpoint().port);
    QVERIFY2(relay.start(), qPrintable(relay.error()));

    PoolSession session;
    QSignalSpy failures(&session, &PoolSession::pollFailed);
    QSignalSpy problems(&session, &PoolSession::keyProblemChanged);
    session.connectTo(through(relay, redis.endpoint()), "plain");
    QVERIFY(failures.wait(10000));
    const Failure failure = failureIn(failures, 0);
    // Redis's own words are gone: whatever decides, decides without them.
    QVERIFY2(!failure.text.contains(QLatin1String("wrong kind of value")),
             qPrintable(failure.text));
    QVERIFY2(failure.wrongType(), qPrintable(failure.text));
    QCOMPARE_GT(relay.rewritten(), 0);
    QVERIFY(!problems.isEmpty());
    QVERIFY2(session.keyProblem().kind == KeyProblem::Kind::WrongType &&
                 session.keyProblem().text.contains(QStringLiteral("not a sorted set")),
             qPrintable(session.keyProblem().text));
    // A good key: the problem goes with its first poll.
    redis.run({"ZADD", "pool", "0", "192.0.2.1:80"});
    session.connectTo(through(relay, redis.endpoint()), "pool");
    QTRY_VERIFY_WITH_TIMEOUT(session.latestObservation().has_value(), 10000);
    QVERIFY(session.keyProblem().isNone());
}

void TestErrorKinds::wordsOfAnotherErrorChangeNothing() {
    RedisFixture redis(tcp());
    QVERIFY2(redis.start(), qPrintable(redis.error()));
    const QByteArray key = "WRONGTYPE: not a sorted set";
    redis.run({"ZADD", key, "1", "192.0.2.1:80"});
    // Everything but counting the pool's members: polls fail with NOPERM, naming the key.
    QVERIFY(
        !redis.run({"ACL", "SETUSER", "decoy", "on", ">decoy-pw", "~*", "&*", "+@all", "-zcard"})
             .isError());
    Endpoint endpoint = redis.endpoint();
    endpoint.username = QStringLiteral("decoy");
    endpoint.password = QStringLiteral("decoy-pw");

    PoolSession session;
    QSignalSpy polls(&session, &PoolSession::pollFailed);
    QSignalSpy commands(&session, &PoolSession::commandFailed);
    session.connectTo(endpoint, key);
    QVERIFY(polls.wait(10000));
    const Failure poll = failureIn(polls, 0);
    QVERIFY2(poll.noPermission() && poll.text.contains(QStringLiteral("not a sorted set")),
             qPrintable(poll.text));
    // The refusal's code names the problem, not the words "not a sorted set" in it.
    QCOMPARE(session.keyProblem().kind, KeyProblem::Kind::NoPermission);
    QVERIFY(!session.keyProblem().blocksPoolCommands());
    QTRY_VERIFY(session.isConnected() && session.canWrite());
    // A member named like a refusal, and not in the pool: a usage error, nothing refused.
    const QByteArray decoy = "NOPERM: this user lacks the right, a read-only replica";
    QVERIFY(session.evict({decoy}));
    QVERIFY(commands.wait(10000));
    const Failure command = failureIn(commands, 1);
    QCOMPARE(command.kind, RedisError::Kind::Usage);
    QVERIFY2(command.text.contains(QStringLiteral("lacks the right")), qPrintable(command.text));
    QVERIFY2(session.canWrite(), qPrintable(session.writeBlockReason()));
    QCOMPARE(session.keyProblem().kind, KeyProblem::Kind::NoPermission);
}

QTEST_MAIN(TestErrorKinds)
#include "tst_errorkinds.moc"
