// Proxy-list parser memory: writes test lists, then measures in a fresh child process per case
// the peak RSS (VmHWM) of reading one list the way the seed dialog and the CLI do
// (readProxyList), beside references measured the same way in the same run: the file's bytes
// alone, a naive read of every line into a QStringList, and parsing every entry before judging
// (parseProxyList + judgeProxyList, which holds a ProxyEntry per line as the old path did).
// Nothing here touches the network: the lists are parsed, never connected to.
#include "proxylist/Eligibility.h"
#include "proxylist/ProxyListParser.h"

#include <cstdio>
#include <cstdlib>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

using namespace poolscope;

namespace {

// "VmHWM" (peak) or "VmRSS" (now) of this process, in KiB.
qint64 statusKiB(const char *field) {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray prefix = QByteArray(field) + ':';
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith(prefix))
            return line.mid(prefix.size()).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

EligibilityRules benchRules() {
    EligibilityRules rules;
    rules.rejectNonPublicAddresses = true;
    return rules;
}

// Child: one measurement. Prints one JSON object.
int measure(const QString &mode, const QString &path) {
    const qint64 startKiB = statusKiB("VmRSS");
    QElapsedTimer timer;
    timer.start();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(path));
        return 2;
    }
    QByteArray data = file.readAll();
    QJsonObject result{{QStringLiteral("mode"), mode}};
    if (mode == u"load") {
        result.insert(QStringLiteral("bytes"), data.size());
    } else if (mode == u"lines") {
        const QStringList lines = QString::fromUtf8(data).split(u'\n');
        result.insert(QStringLiteral("lines"), lines.size());
    } else if (mode == u"twostep") {
        const ParsedProxyList parsed = parseProxyList(data);
        const EligibilityReport report = judgeProxyList(parsed, benchRules());
        result.insert(QStringLiteral("entries"), parsed.entries.size());
        result.insert(QStringLiteral("accepted"), report.accepted.size());
    } else if (mode == u"read") {
        const EligibilityReport report = readProxyList(data, benchRules());
        result.insert(QStringLiteral("accepted"), report.accepted.size());
        result.insert(QStringLiteral("duplicates"), report.duplicates);
        result.insert(QStringLiteral("rejected"), report.rejectedCount);
        result.insert(QStringLiteral("listed_rejected"), report.rejected.size());
        result.insert(QStringLiteral("collapsed_listed"), report.collapsed.size());
        result.insert(QStringLiteral("held_bytes"), report.accepted.bytesHeld());
        result.insert(QStringLiteral("fatal"), report.fatalError);
    } else {
        std::fprintf(stderr, "unknown mode %s\n", qPrintable(mode));
        return 2;
    }
    result.insert(QStringLiteral("seconds"), timer.elapsed() / 1000.0);
    result.insert(QStringLiteral("start_kib"), startKiB);
    result.insert(QStringLiteral("peak_kib"), statusKiB("VmHWM"));
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Compact).constData());
    return 0;
}

bool writeFile(const QString &path, const QByteArray &data) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

// Public addresses (45.0.0.0/8 and 46.0.0.0/8), one per index.
QByteArray publicHost(qint64 index) {
    return QByteArray::number(45 + (index >> 24) % 2) + '.' +
           QByteArray::number((index >> 16) & 255) + '.' + QByteArray::number((index >> 8) & 255) +
           '.' + QByteArray::number(index & 255);
}

struct ListCase {
    QString name;
    QString path;
    bool json = false; // held whole by QJsonDocument while it is read: not under the target
};

QList<ListCase> writeLists(const QString &dir, qint64 repeatedBytes, qint64 distinct) {
    QList<ListCase> cases;
    {
        const QByteArray line = "45.76.1.10:8080\n";
        QByteArray data;
        data.reserve(repeatedBytes + line.size());
        while (data.size() < repeatedBytes)
            data += line;
        cases.append({QStringLiteral("one entry repeated"), dir + "/repeated.txt"});
        writeFile(cases.last().path, data);
    }
    {
        QByteArray data;
        for (qint64 i = 0; i < distinct; ++i)
            data += publicHost(i) + ":8080\n";
        cases.append({QStringLiteral("distinct entries"), dir + "/distinct.txt"});
        writeFile(cases.last().path, data);
    }
    {
        // Ten lines at a time: 4 new members, 2 repeats, 2 private, port 0, a disallowed scheme
        // (or, every 200 lines, an unparseable line: under the 10,000 that make a list unusable).
        QByteArray data;
        qint64 fresh = 0;
        for (qint64 i = 0; i < distinct; i += 10) {
            for (int k = 0; k < 4; ++k)
                data += publicHost(fresh++) + ":3128\n";
            data += publicHost(fresh / 2) + ":3128\n";
            data += publicHost(fresh / 3) + ":3128\n";
            data += "10." + QByteArray::number((i >> 16) & 255) + '.' +
                    QByteArray::number((i >> 8) & 255) + '.' + QByteArray::number(i & 255) +
                    ":8080\n";
            data += "192.168." + QByteArray::number((i >> 8) & 255) + '.' +
                    QByteArray::number(i & 255) + ":8080\n";
            data += publicHost(i) + ":0\n";
            data += (i % 200 == 0 ? QByteArray("not a proxy at all")
                                  : "ftp://" + publicHost(i) + ":21") +
                    '\n';
        }
        cases.append({QStringLiteral("mixed, 40% rejected"), dir + "/mixed.txt"});
        writeFile(cases.last().path, data);
    }
    {
        QByteArray data = "[\n";
        for (qint64 i = 0; i < distinct; ++i)
            data += "\"" + publicHost(i) + ":8080\"" + (i + 1 < distinct ? ",\n" : "\n");
        data += "]\n";
        cases.append({QStringLiteral("distinct entries, JSON"), dir + "/distinct.json", true});
        writeFile(cases.last().path, data);
    }
    return cases;
}

QJsonObject runChild(const QString &mode, const QString &path) {
    QProcess child;
    child.start(QCoreApplication::applicationFilePath(), {QStringLiteral("measure"), mode, path});
    if (!child.waitForFinished(-1) || child.exitCode() != 0) {
        std::fprintf(stderr, "%s on %s failed: %s\n", qPrintable(mode), qPrintable(path),
                     child.readAllStandardError().constData());
        return {};
    }
    return QJsonDocument::fromJson(child.readAllStandardOutput()).object();
}

double mib(double kib) {
    return kib / 1024.0;
}

} // namespace

int main(int argc, char *argv[]) {
    if (argc == 4 && QByteArray(argv[1]) == "measure")
        return measure(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));

    QCoreApplication app(argc, argv);
    const qint64 repeatedBytes = argc > 1 ? std::atoll(argv[1]) : 52'000'000;
    const qint64 distinct = argc > 2 ? std::atoll(argv[2]) : 1'000'000;
    QTemporaryDir dir;
    if (!dir.isValid())
        return 2;
    const QList<ListCase> cases = writeLists(dir.path(), repeatedBytes, distinct);

    std::printf("Peak RSS above the process's RSS at start (MiB), each in a fresh process; the "
                "ratio is readProxyList's figure over the file size.\n\n");
    std::printf("| list | file | result (readProxyList) | file bytes only | naive QStringList | "
                "parse all, then judge | readProxyList | ratio | time |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    bool linesMet = true;
    bool jsonMet = true;
    for (const ListCase &list : cases) {
        const double fileMiB = double(QFileInfo(list.path).size()) / (1024.0 * 1024.0);
        QJsonObject results[4];
        const QString modes[4] = {QStringLiteral("load"), QStringLiteral("lines"),
                                  QStringLiteral("twostep"), QStringLiteral("read")};
        for (int m = 0; m < 4; ++m)
            results[m] = runChild(modes[m], list.path);
        const auto used = [](const QJsonObject &r) {
            return mib(r.value(QStringLiteral("peak_kib")).toDouble() -
                       r.value(QStringLiteral("start_kib")).toDouble());
        };
        const QJsonObject &read = results[3];
        const double ratio = used(read) / fileMiB;
        (list.json ? jsonMet : linesMet) &= ratio < 3.0;
        std::printf("| %s | %.1f MiB | %lld accepted, %lld duplicates, %lld rejected | %.0f | %.0f "
                    "| %.0f | %.0f | %.2f× | %.1f s |\n",
                    qPrintable(list.name), fileMiB,
                    qint64(read.value(QStringLiteral("accepted")).toDouble()),
                    qint64(read.value(QStringLiteral("duplicates")).toDouble()),
                    qint64(read.value(QStringLiteral("rejected")).toDouble()), used(results[0]),
                    used(results[1]), used(results[2]), used(read), ratio,
                    read.value(QStringLiteral("seconds")).toDouble());
    }
    std::printf("\ntarget: readProxyList under 3x the file size: %s for line lists, %s for JSON\n",
                linesMet ? "met" : "MISSED", jsonMet ? "met" : "MISSED");
    return 0;
}
