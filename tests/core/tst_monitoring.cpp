// The shipped monitoring files (resources/prometheus, resources/grafana) use only metrics the
// exporter serves: every metric name in every Grafana query and alert rule expression is checked
// against a real scrape of `poolscope-cli exporter` (a real redis-server, loopback, curl).
#include "RedisFixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

using namespace poolscope;
using namespace poolscope::testing;

namespace {

QString sourceFile(const char *relative) {
    return QStringLiteral(POOLSCOPE_SOURCE_DIR "/") + QLatin1String(relative);
}

QByteArray readAll(const QString &path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The metric names a PromQL expression selects. Grafana variables, strings, label matchers,
// ranges and grouping label lists go first; what is left that is a name and not a function,
// a keyword or a number is a metric name.
QSet<QString> metricNames(QString expression) {
    static const QRegularExpression variables(
        QString::fromLatin1(R"(\$\{[^}]*\}|\$\w+|\[\[\w+\]\])"));
    static const QRegularExpression strings(
        QString::fromLatin1(R"("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)"));
    static const QRegularExpression matchers(QString::fromLatin1(R"(\{[^}]*\})"));
    static const QRegularExpression ranges(QString::fromLatin1(R"(\[[^\]]*\])"));
    static const QRegularExpression grouping(
        QString::fromLatin1(R"(\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\))"));
    // Possessive, so that "rate(" is not read as the name "rat" before "e(".
    static const QRegularExpression name(
        QString::fromLatin1(R"((?<![\w.:])([A-Za-z_:][\w:]*+)(?!\s*\())"));
    static const QSet<QString> keywords = {
        QStringLiteral("and"),        QStringLiteral("or"),          QStringLiteral("unless"),
        QStringLiteral("bool"),       QStringLiteral("offset"),      QStringLiteral("by"),
        QStringLiteral("without"),    QStringLiteral("on"),          QStringLiteral("ignoring"),
        QStringLiteral("group_left"), QStringLiteral("group_right"), QStringLiteral("inf"),
        QStringLiteral("nan")};
    for (const QRegularExpression *pattern : {&variables, &strings, &matchers, &ranges, &grouping})
        expression.remove(*pattern);
    QSet<QString> names;
    for (const QRegularExpressionMatch &m : name.globalMatch(expression)) {
        const QString word = m.captured(1);
        if (!keywords.contains(word.toLower()))
            names.insert(word);
    }
    return names;
}

// A Grafana variable query: label_values(EXPR, label) selects EXPR's metrics.
QString variableExpression(const QString &query) {
    static const QRegularExpression labelValues(
        QString::fromLatin1(R"(^\s*label_values\((.*),\s*\w+\s*\)\s*$)"));
    const QRegularExpressionMatch m = labelValues.match(query);
    return m.hasMatch() ? m.captured(1) : query;
}

struct Query {
    QString where;
    QString expression;
};

// Every "expr" of every panel target (rows' nested panels too), and the variables' queries.
void collectPanelQueries(const QJsonValue &value, const QString &where, QList<Query> &out) {
    if (value.isArray()) {
        for (const QJsonValue &item : value.toArray())
            collectPanelQueries(item, where, out);
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        const QString here = object.contains(QLatin1String("title"))
                                 ? object.value(QLatin1String("title")).toString()
                                 : where;
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.key() == QLatin1String("expr") && it->isString())
                out.append({here, it->toString()});
            else
                collectPanelQueries(*it, here, out);
        }
    }
}

// The rule file's expressions, one per rule: `expr: ...` on one line or a block (>-, |) below.
QList<Query> ruleExpressions(const QByteArray &yaml) {
    QList<Query> out;
    const QList<QByteArray> lines = yaml.split('\n');
    static const QRegularExpression exprLine(QString::fromLatin1(R"(^(\s*)expr:\s*(.*)$)"));
    static const QRegularExpression alertLine(QString::fromLatin1(R"(^\s*-\s*alert:\s*(\S+))"));
    QString alert;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = QString::fromUtf8(lines[i]);
        if (const auto a = alertLine.match(line); a.hasMatch())
            alert = a.captured(1);
        const QRegularExpressionMatch m = exprLine.match(line);
        if (!m.hasMatch())
            continue;
        QString value = m.captured(2).trimmed();
        if (value.startsWith(QLatin1Char('>')) || value.startsWith(QLatin1Char('|'))) {
            value.clear();
            const qsizetype indent = m.captured(1).size();
            while (i + 1 < lines.size()) {
                const QString next = QString::fromUtf8(lines[i + 1]);
                const qsizetype nextIndent = next.size() - next.trimmed().size();
                if (!next.trimmed().isEmpty() && nextIndent <= indent)
                    break;
                value += next + QLatin1Char('\n');
                ++i;
            }
        } else if (value.startsWith(QLatin1Char('"')) || value.startsWith(QLatin1Char('\''))) {
            value = value.mid(1, value.size() - 2);
        }
        out.append({alert, value});
    }
    return out;
}

// "name{labels} value" lines: the names of the samples served; "# TYPE name" lines: the families.
void scrapeNames(const QString &text, QSet<QString> &sampled, QSet<QString> &families) {
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("# TYPE ")))
            families.insert(line.section(QLatin1Char(' '), 2, 2));
        else if (!line.isEmpty() && !line.startsWith(QLatin1Char('#')))
            sampled.insert(line.left(line.indexOf(QRegularExpression(QStringLiteral("[{ ]")))));
    }
}

// A unit's ExecStart as systemd runs it: %i, %I and %S replaced, ${VAR} one word and a lone $VAR
// zero or more, from the unit's Environment= lines overridden by the environment file's.
QStringList unitCommand(const QString &unit, const QString &instance, const QString &stateRoot,
                        const QHash<QString, QString> &environmentFile) {
    QHash<QString, QString> environment;
    QString execStart;
    for (const QString &line : QString::fromUtf8(readAll(unit)).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("Environment="))) {
            const QString assignment = line.mid(12);
            environment.insert(assignment.section(QLatin1Char('='), 0, 0),
                               assignment.section(QLatin1Char('='), 1));
        } else if (line.startsWith(QLatin1String("ExecStart="))) {
            execStart = line.mid(10);
        }
    }
    for (auto it = environmentFile.begin(); it != environmentFile.end(); ++it)
        environment.insert(it.key(), it.value());
    QStringList argv;
    static const QRegularExpression braced(QString::fromLatin1(R"(\$\{(\w+)\})"));
    for (QString word : execStart.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        word.replace(QLatin1String("%i"), instance)
            .replace(QLatin1String("%I"), instance)
            .replace(QLatin1String("%S"), stateRoot);
        if (word.startsWith(QLatin1Char('$')) && !word.startsWith(QLatin1String("${"))) {
            argv += environment.value(word.mid(1)).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            continue;
        }
        for (QRegularExpressionMatch m = braced.match(word); m.hasMatch(); m = braced.match(word))
            word.replace(m.capturedStart(), m.capturedLength(), environment.value(m.captured(1)));
        argv += word;
    }
    return argv;
}

} // namespace

class TestMonitoring : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<RedisFixture> m_redis;
    QProcess m_exporter;
    QSet<QString> m_served;
    int m_port = 0;

    QString curl(int port) {
        const CliRun run =
            runProgram(QStringLiteral("curl"),
                       {QStringLiteral("-sS"), QStringLiteral("--max-time"), QStringLiteral("10"),
                        QStringLiteral("http://127.0.0.1:%1/metrics").arg(port)});
        return run.exitCode == 0 ? QString::fromUtf8(run.out) : QString();
    }

    void checkNamesServed(const QList<Query> &queries) {
        for (const Query &query : queries) {
            const QSet<QString> names = metricNames(query.expression);
            QVERIFY2(!names.isEmpty(),
                     qPrintable(query.where + QLatin1String(": no metric in ") + query.expression));
            for (const QString &name : names)
                QVERIFY2(m_served.contains(name),
                         qPrintable(QStringLiteral("%1: %2 is not served by the exporter (%3)")
                                        .arg(query.where, name, query.expression)));
        }
    }

private Q_SLOTS:
    // The exporter as the CLI runs it: a pool read whole (member series, the rate from the
    // second scrape on) and one above the member limit (summary mode, the background scan).
    void initTestCase() {
        m_redis = std::make_unique<RedisFixture>();
        QVERIFY2(m_redis->start(), qPrintable(m_redis->error()));
        m_redis->makePool("small", {"m0", "m1", "m2"}, 3);
        m_redis->makePool("big", {"b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7"}, 1);
        m_exporter.start(QStringLiteral(POOLSCOPE_CLI_PATH),
                         {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--key"),
                          QStringLiteral("small"), QStringLiteral("--key"), QStringLiteral("big"),
                          QStringLiteral("exporter"), QStringLiteral("--listen"),
                          QStringLiteral("127.0.0.1:0"), QStringLiteral("--member-limit"),
                          QStringLiteral("5"), QStringLiteral("--json")});
        QVERIFY(m_exporter.waitForReadyRead(10000));
        const QJsonObject started = QJsonDocument::fromJson(m_exporter.readLine()).object();
        const QString listen = started.value(QStringLiteral("listen")).toString();
        const int port = listen.section(QLatin1Char(':'), -1).toInt();
        QVERIFY2(listen.startsWith(QLatin1String("127.0.0.1:")) && port > 0, qPrintable(listen));
        m_port = port;

        QSet<QString> families;
        QString first = curl(port);
        QVERIFY(!first.isEmpty());
        scrapeNames(first, m_served, families);
        m_redis->run({"ZINCRBY", "small", "1", "m0"});
        QString second = curl(port);
        QVERIFY(!second.isEmpty());
        scrapeNames(second, m_served, families);
        // The scrapes cover every family the exporter has (prometheus-cpp's own summary is
        // served as _sum and _count too), so a name missing below is one it never serves.
        for (const QString &family : std::as_const(families))
            QVERIFY2(m_served.contains(family) ||
                         m_served.contains(family + QLatin1String("_count")),
                     qPrintable(family + QLatin1String(" has no sample in the scrapes")));
        QVERIFY(m_served.contains(QStringLiteral("poolscope_member_allocations")));
        QVERIFY(m_served.contains(QStringLiteral("poolscope_pool_totals_scan_progress_ratio")));
    }

    void cleanupTestCase() {
        if (m_exporter.state() != QProcess::NotRunning) {
            m_exporter.terminate();
            if (!m_exporter.waitForFinished(10000))
                m_exporter.kill();
        }
    }

    // Each unit's command line, expanded as systemd would with REDIS_URL in the environment (as
    // from /etc/poolscope/POOL.env), starts its command, which stops cleanly on SIGTERM.
    void unitsStartTheirCommands_data() {
        QTest::addColumn<QString>("unit");
        QTest::addColumn<QString>("started"); // a line the command prints once it runs
        QTest::newRow("exporter") << "poolscope-exporter@.service"
                                  << "\"listen\"";
        QTest::newRow("record") << "poolscope-record@.service"
                                << "recording pool";
        QTest::newRow("guard") << "poolscope-guard@.service"
                               << "round 1:";
    }
    void unitsStartTheirCommands() {
        QFETCH(QString, unit);
        QFETCH(QString, started);
        QTemporaryDir state;
        QVERIFY(QDir(state.path()).mkpath(QStringLiteral("poolscope"))); // StateDirectory=
        // The guard's pool is empty, so it checks nobody; its target is this test's exporter.
        const QString instance = unit.contains(QLatin1String("guard")) ? QStringLiteral("unguarded")
                                                                       : QStringLiteral("small");
        const QHash<QString, QString> environmentFile = {
            {QStringLiteral("POOLSCOPE_EXPORTER_LISTEN"), QStringLiteral("127.0.0.1:0")},
            {QStringLiteral("POOLSCOPE_EXPORTER_ARGS"), QStringLiteral("--json")},
            {QStringLiteral("POOLSCOPE_RECORD_ARGS"), QStringLiteral("--interval 100")},
            {QStringLiteral("POOLSCOPE_GUARD_TARGET"),
             QStringLiteral("http://127.0.0.1:%1/metrics").arg(m_port)},
            {QStringLiteral("POOLSCOPE_GUARD_ARGS"), QStringLiteral("--interval 1")}};
        QStringList argv = unitCommand(sourceFile("resources/systemd/") + unit, instance,
                                       state.path(), environmentFile);
        QCOMPARE(argv.value(0), QStringLiteral("/usr/bin/poolscope-cli"));
        QVERIFY2(!argv.join(QLatin1Char(' ')).contains(QLatin1String("redis")),
                 qPrintable(argv.join(QLatin1Char(' '))));
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("REDIS_URL"), m_redis->url());
        process.setProcessEnvironment(environment);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(QStringLiteral(POOLSCOPE_CLI_PATH), argv.mid(1));
        QByteArray output;
        QTRY_VERIFY2_WITH_TIMEOUT((output += process.readAll()).contains(started.toUtf8()),
                                  output.constData(), 15000);
        if (unit.contains(QLatin1String("record")))
            QTRY_VERIFY(QFile::exists(state.path() + QLatin1String("/poolscope/small.sqlite")));
        process.terminate();
        QVERIFY(process.waitForFinished(15000));
        output += process.readAll();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 0, output.constData());
    }

    void extractsMetricNames_data() {
        QTest::addColumn<QString>("expression");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("selector") << R"(poolscope_up{instance=~"$instance"} == 0)"
                                  << QStringList{"poolscope_up"};
        QTest::newRow("function and range")
            << R"(rate(poolscope_member_allocations{pool="a b"}[$__rate_interval]))"
            << QStringList{"poolscope_member_allocations"};
        QTest::newRow("grouping and matching")
            << "sum without (member) (increase(a_total[5m])) / ignoring(member) group_left b > "
               "0.5 and on(pool) c"
            << QStringList{"a_total", "b", "c"};
        QTest::newRow("group_left with labels")
            << "x * on(pool) group_left(read_mode) y" << QStringList{"x", "y"};
        QTest::newRow("numbers, durations, offset")
            << "topk(10, foo:rate5m offset 5m) * 1e3 > bool 2.5" << QStringList{"foo:rate5m"};
        QTest::newRow("a name that is not ours") << "up == 0" << QStringList{"up"};
        QTest::newRow("only a number") << "1 / 3" << QStringList{};
    }
    void extractsMetricNames() {
        QFETCH(QString, expression);
        QFETCH(QStringList, names);
        const QStringList found = metricNames(expression).values();
        QCOMPARE(QSet<QString>(found.begin(), found.end()),
                 QSet<QString>(names.begin(), names.end()));
    }

    void dashboardUsesServedMetricsOnly() {
        const QJsonDocument dashboard = QJsonDocument::fromJson(
            readAll(sourceFile("resources/grafana/poolscope-dashboard.json")));
        QVERIFY(dashboard.isObject());
        QList<Query> queries;
        collectPanelQueries(dashboard.object().value(QLatin1String("panels")), {}, queries);
        QVERIFY2(queries.size() >= 15, qPrintable(QString::number(queries.size())));
        // Per exporter and pool: every panel query is filtered by the variables.
        for (const Query &query : std::as_const(queries))
            QVERIFY2(
                query.expression.contains(QLatin1String("$instance")),
                qPrintable(query.where + QLatin1String(": not per exporter: ") + query.expression));
        QSet<QString> variables;
        const QJsonArray list = dashboard.object()
                                    .value(QLatin1String("templating"))
                                    .toObject()
                                    .value(QLatin1String("list"))
                                    .toArray();
        for (const QJsonValue &variable : list) {
            const QJsonObject v = variable.toObject();
            variables.insert(v.value(QLatin1String("name")).toString());
            if (v.value(QLatin1String("type")).toString() != QLatin1String("query"))
                continue;
            const QJsonValue query = v.value(QLatin1String("query"));
            const QString text = query.isObject()
                                     ? query.toObject().value(QLatin1String("query")).toString()
                                     : query.toString();
            queries.append({QLatin1String("variable ") + v.value(QLatin1String("name")).toString(),
                            variableExpression(text)});
        }
        QCOMPARE(variables, (QSet<QString>{QStringLiteral("datasource"), QStringLiteral("instance"),
                                           QStringLiteral("pool")}));
        checkNamesServed(queries);
    }

    void alertRulesUseServedMetricsOnly() {
        const QByteArray yaml = readAll(sourceFile("resources/prometheus/poolscope-alerts.yml"));
        const QList<Query> rules = ruleExpressions(yaml);
        QCOMPARE(rules.size(), yaml.count("- alert:"));
        QCOMPARE_GE(rules.size(), 10);
        checkNamesServed(rules);
    }
};

QTEST_GUILESS_MAIN(TestMonitoring)
#include "tst_monitoring.moc"
