// The connection toolbar: passwords are masked in the field and never stored, recent connections
// are remembered without them, bad URLs are reported, and picking a key while connected switches.

#include "connection/ConnectionBar.h"

#include <QAction>
#include <QComboBox>
#include <QSettings>
#include <QtTest>

using namespace poolscope;
using namespace std::chrono_literals;

class TestConnectionBar : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }
    void passwordIsMaskedAndNeverSaved();
    void badUrlIsReported();
    void connectTogglesToDisconnect();
    void pollIntervalIsRemembered();
};

void TestConnectionBar::passwordIsMaskedAndNeverSaved() {
    ConnectionBar bar;
    QSignalSpy requested(&bar, &ConnectionBar::connectRequested);
    bar.urlBox()->setEditText(QStringLiteral("redis://alice:s3cr%40t@192.0.2.5:6380/2"));
    bar.keyBox()->setEditText(QStringLiteral("pool:{a}"));
    bar.requestConnect();
    QCOMPARE(requested.count(), 1);
    const auto endpoint = requested.constFirst().at(0).value<Endpoint>();
    QCOMPARE(endpoint.password, QStringLiteral("s3cr@t"));
    QCOMPARE(endpoint.port, 6380);
    QCOMPARE(requested.constFirst().at(1).toByteArray(), QByteArray("pool:{a}"));
    // The field now shows the masked form, and connecting again still has the password.
    QVERIFY(!bar.urlBox()->currentText().contains(QStringLiteral("s3cr")));
    QVERIFY(bar.urlBox()->currentText().contains(QStringLiteral("****")));
    bar.requestConnect();
    QCOMPARE(requested.at(1).at(0).value<Endpoint>().password, QStringLiteral("s3cr@t"));

    bar.rememberConnection(endpoint, "pool:{a}");
    const QStringList recent = bar.recentUrls();
    QCOMPARE(recent.size(), 1);
    QVERIFY(!recent.constFirst().contains(QStringLiteral("s3cr")));
    QVERIFY(!recent.constFirst().contains(QStringLiteral("****")));
    QVERIFY(recent.constFirst().contains(QStringLiteral("192.0.2.5:6380")));
    QSettings settings;
    for (const QString &key : settings.allKeys())
        QVERIFY2(!settings.value(key).toString().contains(QStringLiteral("s3cr")), qPrintable(key));

    // A new bar offers the remembered connection.
    ConnectionBar again;
    QCOMPARE(again.urlBox()->currentText(), recent.constFirst());
}

void TestConnectionBar::badUrlIsReported() {
    ConnectionBar bar;
    QSignalSpy requested(&bar, &ConnectionBar::connectRequested);
    QSignalSpy rejected(&bar, &ConnectionBar::urlRejected);
    bar.urlBox()->setEditText(QStringLiteral("redis://host:notaport/0"));
    bar.keyBox()->setEditText(QStringLiteral("proxies"));
    bar.requestConnect();
    QCOMPARE(requested.count(), 0);
    QCOMPARE(rejected.count(), 1);
    QVERIFY(!rejected.constFirst().at(0).toString().isEmpty());
    bar.urlBox()->setEditText(QStringLiteral("redis://127.0.0.1:6379/0"));
    bar.keyBox()->setEditText(QString());
    bar.requestConnect();
    QCOMPARE(requested.count(), 0);
    QCOMPARE(rejected.count(), 2);
}

void TestConnectionBar::connectTogglesToDisconnect() {
    ConnectionBar bar;
    bar.setTarget(Endpoint{}, "proxies");
    QSignalSpy requested(&bar, &ConnectionBar::connectRequested);
    QSignalSpy disconnected(&bar, &ConnectionBar::disconnectRequested);
    QVERIFY(!bar.pauseAction()->isEnabled());
    bar.connectAction()->trigger();
    QCOMPARE(requested.count(), 1);
    bar.setConnectionState(ConnectionState::Connected);
    QCOMPARE(bar.connectAction()->text(), QStringLiteral("Disconnect"));
    QVERIFY(bar.pauseAction()->isEnabled());
    QVERIFY(bar.findKeysAction()->isEnabled());
    // Picking another key while connected switches to it.
    bar.setPoolKeys({QStringLiteral("other")});
    bar.keyBox()->setCurrentIndex(bar.keyBox()->findText(QStringLiteral("other")));
    Q_EMIT bar.keyBox()->activated(bar.keyBox()->currentIndex());
    QCOMPARE(requested.count(), 2);
    QCOMPARE(requested.at(1).at(1).toByteArray(), QByteArray("other"));
    bar.connectAction()->trigger();
    QCOMPARE(disconnected.count(), 1);
    bar.setConnectionState(ConnectionState::Disconnected);
    QCOMPARE(bar.connectAction()->text(), QStringLiteral("Connect"));
}

void TestConnectionBar::pollIntervalIsRemembered() {
    {
        ConnectionBar bar;
        QCOMPARE(bar.pollInterval(), 1000ms);
        QSignalSpy changed(&bar, &ConnectionBar::pollIntervalChanged);
        bar.setPollInterval(2000ms);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(bar.pollInterval(), 2000ms);
    }
    ConnectionBar again;
    QCOMPARE(again.pollInterval(), 2000ms);
}

QTEST_MAIN(TestConnectionBar)
#include "tst_connectionbar.moc"
