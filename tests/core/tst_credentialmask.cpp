// Masking proxy credentials in member ids and in free text (maskCredentials,
// maskCredentialsInText): the one function every view and export of the dashboard goes through.

#include "text/CredentialMask.h"

#include <QtTest>

using namespace poolscope;

class TestCredentialMask : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void member_data() {
        QTest::addColumn<QString>("member");
        QTest::addColumn<QString>("masked");
        const auto row = [](const char *name, const char *member, const char *masked) {
            QTest::newRow(name) << QString::fromUtf8(member) << QString::fromUtf8(masked);
        };
        row("host:port", "192.0.2.1:8080", "192.0.2.1:8080");
        row("scheme, no credentials", "socks5://192.0.2.1:1080", "socks5://192.0.2.1:1080");
        row("user:pass with scheme", "socks5://alice:s3cret@192.0.2.1:1080",
            "socks5://alice:****~1ec1c2@192.0.2.1:1080");
        row("user:pass without scheme", "alice:s3cret@192.0.2.1:1080",
            "alice:****~1ec1c2@192.0.2.1:1080");
        row("user only, scheme", "socks5://alice@192.0.2.1:1080",
            "socks5://****~2bd806@192.0.2.1:1080");
        row("user only, no scheme", "alice@192.0.2.1:1080", "****~2bd806@192.0.2.1:1080");
        row("token as user", "socks5://TOKEN@192.0.2.1:1080",
            "socks5://****~f98103@192.0.2.1:1080");
        row("nothing before the @", "socks5://@192.0.2.1:1080", "socks5://@192.0.2.1:1080");
        row("@ in the password", "http://bob:p@ss@w0rd@proxy.example:3128",
            "http://bob:****~b1d9d4@proxy.example:3128");
        row("@ in the password, no scheme", "bob:p@ss@proxy.example:3128",
            "bob:****~a4048c@proxy.example:3128");
        row("colon in the password", "https://bob:a:b:c@proxy.example:443",
            "https://bob:****~b0ee04@proxy.example:443");
        row("empty password", "socks5://alice:@192.0.2.1:1080", "socks5://alice:@192.0.2.1:1080");
        row("empty user", "socks5://:s3cret@192.0.2.1:1080",
            "socks5://:****~1ec1c2@192.0.2.1:1080");
        row("ipv6 host", "socks5://alice:s3cret@[2001:db8::1]:1080",
            "socks5://alice:****~1ec1c2@[2001:db8::1]:1080");
        row("ipv6 host, no credentials", "socks5://[2001:db8::1]:1080",
            "socks5://[2001:db8::1]:1080");
        row("already masked", "socks5://alice:****@192.0.2.1:1080",
            "socks5://alice:****@192.0.2.1:1080");
        row("already masked with its mark", "socks5://alice:****~1ec1c2@192.0.2.1:1080",
            "socks5://alice:****~1ec1c2@192.0.2.1:1080");
        row("user already masked", "socks5://****~f98103@192.0.2.1:1080",
            "socks5://****~f98103@192.0.2.1:1080");
        row("empty", "", "");
    }
    void member() {
        QFETCH(QString, member);
        QFETCH(QString, masked);
        QCOMPARE(maskCredentials(member), masked);
        QVERIFY(!maskCredentials(member).contains(QStringLiteral("s3cret")));
        QVERIFY(!maskCredentials(member).contains(QStringLiteral("w0rd")));
    }

    // Members that differ only in their secret must not merge once masked (a Prometheus label, a
    // row of `check`), and masking twice must change nothing.
    void distinctMembersStayDistinct() {
        const QStringList members{
            QStringLiteral("socks5://u:old@192.0.2.4:1080"),
            QStringLiteral("socks5://u:new@192.0.2.4:1080"),
            QStringLiteral("socks5://u:x@y@192.0.2.4:1080"),
            QStringLiteral("socks5://TOKEN@192.0.2.4:1080"),
            QStringLiteral("socks5://OTHER@192.0.2.4:1080"),
        };
        QSet<QString> masked;
        for (const QString &member : members) {
            const QString once = maskCredentials(member);
            masked.insert(once);
            QCOMPARE(maskCredentials(once), once);
            QCOMPARE(maskCredentialsInText(once), once);
        }
        QCOMPARE(masked.size(), members.size());
        QCOMPARE(maskCredentials(members[2]),
                 QStringLiteral("socks5://u:****~da8ab1@192.0.2.4:1080"));
    }

    void text_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("masked");
        const auto row = [](const char *name, const char *text, const char *masked) {
            QTest::newRow(name) << QString::fromUtf8(text) << QString::fromUtf8(masked);
        };
        row("event", "evict socks5://alice:s3cret@192.0.2.1:1080 (saved 12)",
            "evict socks5://alice:****~1ec1c2@192.0.2.1:1080 (saved 12)");
        row("quoted", "member \"alice:s3cret@192.0.2.1:1080\" is not in the pool",
            "member \"alice:****~1ec1c2@192.0.2.1:1080\" is not in the pool");
        row("in brackets", "restore (http://bob:p@ss@proxy.example:3128) at 3",
            "restore (http://bob:****~a4048c@proxy.example:3128) at 3");
        row("two members", "a:x1@h1:1, b:x2@h2:2", "a:****~ec3168@h1:1, b:****~844ecc@h2:2");
        row("no member", "connected to redis://127.0.0.1:6379 (Redis 7.0.15)",
            "connected to redis://127.0.0.1:6379 (Redis 7.0.15)");
        row("times stay, a lone user is masked", "at 12:30 by alice@example",
            "at 12:30 by ****~2bd806@example");
        row("line breaks kept", "one a:s3cret@h:1\ntwo", "one a:****~1ec1c2@h:1\ntwo");
    }
    void text() {
        QFETCH(QString, text);
        QFETCH(QString, masked);
        QCOMPARE(maskCredentialsInText(text), masked);
    }
};

QTEST_GUILESS_MAIN(TestCredentialMask)
#include "tst_credentialmask.moc"
