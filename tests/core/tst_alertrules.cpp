// Alert rules as data (JSON in and out, errors that name the field) and each rule's condition at
// its edges, on facts written by hand: pure logic, no server.
#include "alerts/AlertEngine.h"
#include "alerts/AlertRules.h"
#include "profiles/ProfileStore.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace poolscope;

Q_DECLARE_METATYPE(poolscope::AlertCondition)
Q_DECLARE_METATYPE(poolscope::AlertKind)

namespace {

// Facts of a reachable pool of ten members at count 100, polled for a minute, allocating 50/s.
AlertFacts healthyFacts() {
    AlertFacts facts;
    facts.timeMs = 1'000'000;
    facts.poolKey = "proxies";
    facts.observedSinceMs = facts.timeMs - 60'000;
    facts.reachable = true;
    facts.polled = true;
    facts.pollTimeMs = facts.timeMs;
    facts.members = 10;
    facts.min = facts.median = facts.max = 100;
    facts.jain = 1.0;
    facts.windowMs = facts.coveredMs = 10'000;
    facts.ratePerSecond = 50;
    facts.windowAllocations = 500;
    facts.busiest = MemberAllocations{"m1", 50};
    facts.idle = {{"m2", 400, 20}};
    facts.baselineRate = 50;
    facts.guard = GuardFacts{true, true, "guard-1", false, {}};
    return facts;
}

using Tweak = std::function<void(AlertFacts &)>;

struct EdgeCase {
    const char *name;
    AlertKind kind;
    Tweak tweak;
    AlertCondition expected;
    AlertCheckMode mode = AlertCheckMode::Continuous;
};

// Each rule just below, at and just above its threshold (defaults), and where it cannot tell.
const QList<EdgeCase> &edgeCases() {
    using C = AlertCondition;
    using K = AlertKind;
    static const QList<EdgeCase> cases{
        {"empty: healthy", K::PoolEmpty, [](AlertFacts &) {}, C::Clear},
        {"empty: no member", K::PoolEmpty, [](AlertFacts &f) { f.members = 0; }, C::Met},
        {"empty: before the first poll", K::PoolEmpty, [](AlertFacts &f) { f.polled = false; },
         C::Unknown},
        {"empty: unreachable", K::PoolEmpty,
         [](AlertFacts &f) {
             f.reachable = false;
             f.unreachableSinceMs = f.timeMs - 5000;
             f.members = 0;
         },
         C::Unknown},
        {"small: 5 members", K::PoolSmall, [](AlertFacts &f) { f.members = 5; }, C::Clear},
        {"small: 4 members", K::PoolSmall, [](AlertFacts &f) { f.members = 4; }, C::Met},
        {"small: empty is the other rule's", K::PoolSmall, [](AlertFacts &f) { f.members = 0; },
         C::Clear},
        {"evicted: 29.9%", K::EvictedShare,
         [](AlertFacts &f) {
             f.members = 701;
             f.evicted = 299;
         },
         C::Clear},
        {"evicted: 30%", K::EvictedShare,
         [](AlertFacts &f) {
             f.members = 7;
             f.evicted = 3;
         },
         C::Met},
        {"evicted: none of none", K::EvictedShare, [](AlertFacts &f) { f.members = 0; }, C::Clear},
        {"flood: 50% is not more than 50%", K::MemberFlood,
         [](AlertFacts &f) { f.busiest->allocations = 250; }, C::Clear},
        {"flood: 50.2%", K::MemberFlood, [](AlertFacts &f) { f.busiest->allocations = 251; },
         C::Met},
        {"flood: too few allocations", K::MemberFlood,
         [](AlertFacts &f) {
             f.windowAllocations = 19;
             f.busiest->allocations = 19;
         },
         C::Clear},
        {"flood: 20 allocations are enough", K::MemberFlood,
         [](AlertFacts &f) {
             f.windowAllocations = 20;
             f.busiest->allocations = 20;
         },
         C::Met},
        {"flood: two members always share", K::MemberFlood,
         [](AlertFacts &f) {
             f.members = 2;
             f.busiest->allocations = 400;
         },
         C::Clear},
        {"flood: no rate yet", K::MemberFlood, [](AlertFacts &f) { f.ratePerSecond.reset(); },
         C::Unknown},
        {"starved: idle 15 min, two rounds", K::MemberStarved,
         [](AlertFacts &f) {
             f.idle = {{"m9", 900'000, 20}};
         },
         C::Met},
        {"starved: a moment short", K::MemberStarved,
         [](AlertFacts &f) {
             f.idle = {{"m9", 899'999, 20}};
         },
         C::Clear},
        {"starved: the pool made less than two rounds", K::MemberStarved,
         [](AlertFacts &f) {
             f.idle = {{"m9", 900'000, 19}};
         },
         C::Clear},
        {"starved: a quiet pool starves nobody", K::MemberStarved,
         [](AlertFacts &f) {
             f.members = 0;
             f.idle = {{"m9", 900'000, 0}};
         },
         C::Clear},
        {"starved one-shot: idle the whole window", K::MemberStarved,
         [](AlertFacts &f) {
             f.idle = {{"m9", 60'000, 20}};
         },
         C::Met, AlertCheckMode::OneShot},
        {"starved one-shot: idle for part of it", K::MemberStarved,
         [](AlertFacts &f) {
             f.idle = {{"m9", 59'000, 20}};
         },
         C::Clear, AlertCheckMode::OneShot},
        {"starved one-shot: one poll", K::MemberStarved,
         [](AlertFacts &f) { f.observedSinceMs = f.pollTimeMs; }, C::Unknown,
         AlertCheckMode::OneShot},
        {"spread: 1000", K::SpreadHigh, [](AlertFacts &f) { f.spread = 1000; }, C::Clear},
        {"spread: 1001", K::SpreadHigh, [](AlertFacts &f) { f.spread = 1001; }, C::Met},
        {"jain: 0.9", K::JainLow, [](AlertFacts &f) { f.jain = 0.9; }, C::Clear},
        {"jain: 0.8999", K::JainLow, [](AlertFacts &f) { f.jain = 0.8999; }, C::Met},
        {"jain: before the first totals scan", K::JainLow, [](AlertFacts &f) { f.jain.reset(); },
         C::Unknown},
        {"stopped: one allocation", K::WorkersStopped,
         [](AlertFacts &f) {
             f.windowAllocations = 1;
             f.ratePerSecond = 0.1;
         },
         C::Clear},
        {"stopped: none", K::WorkersStopped,
         [](AlertFacts &f) {
             f.windowAllocations = 0;
             f.ratePerSecond = 0;
         },
         C::Met},
        {"stopped: an empty pool is the other rule's", K::WorkersStopped,
         [](AlertFacts &f) {
             f.members = 0;
             f.windowAllocations = 0;
             f.ratePerSecond = 0;
         },
         C::Clear},
        {"rate: 3.9 times", K::RateChanged, [](AlertFacts &f) { f.ratePerSecond = 195; }, C::Clear},
        {"rate: 4 times", K::RateChanged, [](AlertFacts &f) { f.ratePerSecond = 200; }, C::Met},
        {"rate: a quarter", K::RateChanged, [](AlertFacts &f) { f.ratePerSecond = 12.5; }, C::Met},
        {"rate: zero is the other rule's", K::RateChanged,
         [](AlertFacts &f) { f.ratePerSecond = 0; }, C::Clear},
        {"rate: no baseline yet", K::RateChanged, [](AlertFacts &f) { f.baselineRate.reset(); },
         C::Unknown},
        {"rate: a baseline too small to judge", K::RateChanged,
         [](AlertFacts &f) {
             f.baselineRate = 0.5;
             f.ratePerSecond = 50;
         },
         C::Clear},
        {"capped: no", K::GuardCapped, [](AlertFacts &) {}, C::Clear},
        {"capped: yes", K::GuardCapped, [](AlertFacts &f) { f.guard->capped = true; }, C::Met},
        {"capped: guard not read", K::GuardCapped, [](AlertFacts &f) { f.guard.reset(); },
         C::Unknown},
        {"lease: held", K::GuardLeaseLost, [](AlertFacts &) {}, C::Clear},
        {"lease: lost", K::GuardLeaseLost, [](AlertFacts &f) { f.guard->leaseHeld = false; },
         C::Met},
        {"lease: no guard ever", K::GuardLeaseLost, [](AlertFacts &f) { f.guard = GuardFacts{}; },
         C::Clear},
        {"unreachable: answers", K::Unreachable, [](AlertFacts &) {}, C::Clear},
        {"unreachable: down", K::Unreachable,
         [](AlertFacts &f) {
             f.reachable = false;
             f.unreachableSinceMs = f.timeMs - 1;
         },
         C::Met},
        {"unreachable: not connected yet", K::Unreachable,
         [](AlertFacts &f) {
             f = AlertFacts{};
             f.timeMs = 5;
         },
         C::Unknown},
        {"failover: none", K::Failover, [](AlertFacts &) {}, C::Clear},
        {"failover: just now", K::Failover,
         [](AlertFacts &f) {
             f.lastFailover =
                 FailoverFact{FailoverFact::Kind::PrimaryChanged, f.timeMs - 299'999,
                              QStringLiteral("127.0.0.1:1"), QStringLiteral("127.0.0.1:2")};
         },
         C::Met},
        {"failover: five minutes ago", K::Failover,
         [](AlertFacts &f) {
             f.lastFailover =
                 FailoverFact{FailoverFact::Kind::SlotMoved, f.timeMs - 300'000,
                              QStringLiteral("127.0.0.1:1"), QStringLiteral("127.0.0.1:2")};
         },
         C::Clear},
    };
    return cases;
}

} // namespace

class TestAlertRules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void defaultsRoundTrip() {
        const AlertRuleSet defaults = AlertRuleSet::defaults();
        QCOMPARE(defaults.rules.size(), allAlertKinds().size());
        const AlertRulesParse parsed = parseAlertRules(defaults.toJson());
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(*parsed.rules, defaults);
        // The defaults the Prometheus rules share.
        QCOMPARE(AlertRule::defaults(AlertKind::PoolEmpty).forMs, 0);
        QCOMPARE(AlertRule::defaults(AlertKind::PoolEmpty).severity, AlertSeverity::Critical);
        QCOMPARE(AlertRule::defaults(AlertKind::Unreachable).forMs, 120'000);
        QCOMPARE(AlertRule::defaults(AlertKind::EvictedShare).parameter("maxPercent"), 30.0);
    }

    void leftOutFieldsTakeTheDefaults() {
        const AlertRulesParse parsed = parseAlertRules(
            R"({"rules": [{"kind": "spread-high", "maxSpread": 50, "severity": "critical"},
                          {"kind": "spread-high", "name": "spread-warning", "forSeconds": 0.5},
                          {"kind": "pool-empty", "enabled": false}]})");
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const QList<AlertRule> &rules = parsed.rules->rules;
        QCOMPARE(rules.size(), 3);
        QCOMPARE(rules[0].parameter("maxSpread"), 50.0);
        QCOMPARE(rules[0].severity, AlertSeverity::Critical);
        QCOMPARE(rules[0].forMs, AlertRule::defaults(AlertKind::SpreadHigh).forMs);
        QCOMPARE(rules[1].id(), QStringLiteral("spread-warning"));
        QCOMPARE(rules[1].forMs, 500);
        QCOMPARE(rules[1].parameter("maxSpread"), 1000.0);
        QVERIFY(!rules[2].enabled);
        // A disabled rule has no state machine; a file is the whole set.
        QCOMPARE(AlertEngine(*parsed.rules).statuses().size(), 2);
    }

    void badFilesNameTheField_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("not JSON") << QByteArray("{\"rules\": [\n  {\"kind\": \"pool-empty\"}\n"
                                                "  {\"kind\": \"pool-small\"}]}")
                                  << "line 3, column ";
        QTest::newRow("top level") << QByteArray("[]") << "the top level is not an object";
        QTest::newRow("no rules") << QByteArray("{}") << "rules: missing";
        QTest::newRow("unknown top field")
            << QByteArray(R"({"rules": [], "rule": []})") << "unknown field \"rule\"";
        QTest::newRow("version") << QByteArray(R"({"version": 2, "rules": []})")
                                 << "version: 2 is not 1";
        QTest::newRow("kind missing")
            << QByteArray(R"({"rules": [{"severity": "warning"}]})") << "rules[0].kind: missing";
        QTest::newRow("unknown kind")
            << QByteArray(R"({"rules": [{"kind": "pool-empty"}, {"kind": "pool-emtpy"}]})")
            << "rules[1].kind: \"pool-emtpy\" is not one of pool-empty, pool-small,";
        QTest::newRow("misspelt parameter")
            << QByteArray(R"({"rules": [{"kind": "spread-high", "maxSpred": 5}]})")
            << "rules[0].maxSpred: unknown field for a spread-high rule (it has name, enabled, "
               "severity, forSeconds, keepFiringSeconds, maxSpread)";
        QTest::newRow("severity") << QByteArray(R"({"rules": [{"kind": "failover",
                                                  "severity": "urgent"}]})")
                                  << "rules[0].severity: \"urgent\" is not warning or critical";
        QTest::newRow("negative for")
            << QByteArray(R"({"rules": [{"kind": "unreachable", "forSeconds": -1}]})")
            << "rules[0].forSeconds: -1 is not a number of seconds from 0 to 604800";
        QTest::newRow("for as text")
            << QByteArray(R"({"rules": [{"kind": "unreachable", "forSeconds": "5m"}]})")
            << "rules[0].forSeconds: \"5m\" is not a number of seconds";
        QTest::newRow("out of range")
            << QByteArray(R"({"rules": [{"kind": "jain-low", "minJain": 1.5}]})")
            << "rules[0].minJain: 1.5 is not a number from 0 to 1";
        QTest::newRow("fraction of a count")
            << QByteArray(R"({"rules": [{"kind": "pool-small", "minMembers": 2.5}]})")
            << "rules[0].minMembers: 2.5 is not a whole number of at least 2";
        QTest::newRow("enabled as text")
            << QByteArray(R"({"rules": [{"kind": "pool-small", "enabled": "yes"}]})")
            << "rules[0].enabled: \"yes\" is not true or false";
        QTest::newRow("two of one kind without names")
            << QByteArray(R"({"rules": [{"kind": "jain-low"}, {"kind": "jain-low"}]})")
            << "rules[1]: a second rule called \"jain-low\"";
        QTest::newRow("name with spaces")
            << QByteArray(R"({"rules": [{"kind": "jain-low", "name": " x"}]})")
            << "rules[0].name: \" x\" is not a name";
    }
    void badFilesNameTheField() {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        const AlertRulesParse parsed = parseAlertRules(json);
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.startsWith(error), qPrintable(parsed.error));
    }

    void everyKindExplainedWithItsFigures() {
        for (const AlertKind kind : allAlertKinds()) {
            AlertRule rule = AlertRule::defaults(kind);
            QVERIFY(!alertRuleTitle(kind).isEmpty());
            const QString text = explainAlertRule(rule);
            QVERIFY2(text.endsWith(u'.') &&
                         !text.contains(QRegularExpression(QStringLiteral("%\\d"))),
                     qPrintable(text));
            for (auto it = rule.parameters.begin(); it != rule.parameters.end(); ++it)
                *it = 7;
            if (!rule.parameters.isEmpty())
                QVERIFY2(explainAlertRule(rule).contains(u'7'), qPrintable(explainAlertRule(rule)));
        }
        QCOMPARE(explainAlertRule(AlertRule::defaults(AlertKind::MemberStarved)),
                 QStringLiteral("A member has had no allocation for 15 min while the pool made at "
                                "least 2 per member: its count is far above the others'."));
        QCOMPARE(formatAlertDuration(90'000), QStringLiteral("90 s"));
        QCOMPARE(formatAlertDuration(1500), QStringLiteral("1.5 s"));
        QCOMPARE(formatAlertDuration(5'400'000), QStringLiteral("90 min"));
        QCOMPARE(formatAlertDuration(3 * 3'600'000), QStringLiteral("3 h"));
    }

    void conditionEdges_data() {
        QTest::addColumn<int>("index");
        for (int i = 0; i < edgeCases().size(); ++i)
            QTest::newRow(edgeCases()[i].name) << i;
    }
    void conditionEdges() {
        QFETCH(int, index);
        const EdgeCase &edge = edgeCases()[index];
        AlertFacts facts = healthyFacts();
        edge.tweak(facts);
        const AlertCheck check = checkAlertRule(AlertRule::defaults(edge.kind), facts, edge.mode);
        QVERIFY2(check.condition == edge.expected,
                 qPrintable(QStringLiteral("got %1, expected %2: %3")
                                .arg(int(check.condition))
                                .arg(int(edge.expected))
                                .arg(check.message)));
        QVERIFY(!check.message.isEmpty());
    }

    // A saved connection keeps rules per pool key (any bytes) in the same settings file.
    void profileStoreKeepsRulesPerPool() {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("profiles.ini"));
        ConnectionProfile profile;
        profile.name = QStringLiteral("eu");
        profile.url = QStringLiteral("redis://127.0.0.1:6379/0");
        profile.poolKey = "{eu}:proxies";
        AlertRuleSet strict = AlertRuleSet::defaults();
        strict.rules[1].parameters[QStringLiteral("minMembers")] = 50;
        strict.rules[1].severity = AlertSeverity::Critical;
        strict.rules.removeLast();
        profile.alertRules.insert(profile.poolKey, strict);
        profile.alertRules.insert(QByteArray("odd/key %\n\x01", 11), AlertRuleSet{});
        QCOMPARE(ProfileStore(file).save(profile), QString());
        const ProfileLoadResult loaded = ProfileStore(file).load(profile.name);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error));
        QCOMPARE(*loaded.profile, profile);
        QCOMPARE(loaded.profile->alertRulesFor("{eu}:proxies"), strict);
        QCOMPARE(loaded.profile->alertRulesFor("other"), AlertRuleSet::defaults());
        // Damaged by hand: the connection, the pool and the field are named.
        {
            QSettings settings(file, QSettings::IniFormat);
            settings.setValue(
                QStringLiteral("connections/saved/eu/alerts/%7Beu%7D%3Aproxies"),
                QStringLiteral(R"({"rules": [{"kind": "pool-small", "minMembers": 0}]})"));
        }
        QCOMPARE(ProfileStore(file).load(profile.name).error,
                 QStringLiteral("connection \"eu\": alert rules of pool \"{eu}:proxies\": "
                                "rules[0].minMembers: 0 is not a whole number of at least 2 in the "
                                "settings file"));
    }

    void messagesMaskCredentials() {
        AlertFacts facts = healthyFacts();
        facts.busiest = MemberAllocations{"socks5://user:secret@127.0.0.1:1080", 400};
        const AlertCheck check = checkAlertRule(AlertRule::defaults(AlertKind::MemberFlood), facts);
        QCOMPARE(check.condition, AlertCondition::Met);
        QVERIFY2(!check.message.contains(QStringLiteral("secret")), qPrintable(check.message));
        QVERIFY2(check.message.contains(QStringLiteral("80.0%")), qPrintable(check.message));
    }
};

QTEST_GUILESS_MAIN(TestAlertRules)
#include "tst_alertrules.moc"
