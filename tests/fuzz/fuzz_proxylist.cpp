// Fuzzes parseProxyList() + judgeProxyList() and the one-pass readProxyList() in every format,
// with default and strict rules, and checks invariants that are cheap to state: unique accepted
// member ids, rejections sorted by line, line numbers inside the input, counts that add up,
// member ids that parse back, the two paths agreeing, and the JSON front-end's fast path for
// arrays of plain strings giving exactly what QJsonDocument gives.
#include "proxylist/Eligibility.h"
#include "proxylist/ParserDetail.h"
#include "proxylist/ProxyListParser.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringView>

using namespace poolscope;

namespace {

void check(bool condition, const char *what, ProxyListFormat format, int lineNumber = 0) {
    if (condition)
        return;
    std::fprintf(stderr, "invariant broken: %s (format %s, line %d)\n", what,
                 qPrintable(proxyListFormatName(format)), lineNumber);
    std::abort();
}

// Lines as the parser counts them: \n, \r\n and a lone \r each end one; a last line needs no end.
int lineCount(QByteArrayView body) {
    int lines = 0;
    qsizetype i = 0;
    qsizetype lineStart = 0;
    while (i < body.size()) {
        if (body[i] == '\n' || body[i] == '\r') {
            ++lines;
            i += (body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n') ? 2 : 1;
            lineStart = i;
        } else {
            ++i;
        }
    }
    return lines + (lineStart < body.size() ? 1 : 0);
}

bool containsSpace(const QString &text) {
    for (const QChar c : text)
        if (c.isSpace())
            return true;
    return false;
}

void checkList(const QByteArray &data, ProxyListFormat format, const EligibilityRules &rules) {
    const ParsedProxyList parsed = parseProxyList(data, format);
    const ProxyListFormat detected = parsed.detectedFormat;
    check(detected != ProxyListFormat::Auto, "detected format is never auto", format);
    check(format == ProxyListFormat::Auto || detected == format, "explicit format is kept", format);
    check(parsed.problems.size() <= kMaxParseProblems, "problems are bounded", format);

    QByteArrayView body(data);
    if (body.startsWith("\xEF\xBB\xBF"))
        body = body.sliced(3);
    // JSON numbers array elements; each element needs at least one byte.
    const qsizetype maxLine = detected == ProxyListFormat::Json ? body.size() : lineCount(body);
    auto lineInRange = [&](int lineNumber) { return lineNumber >= 1 && lineNumber <= maxLine; };
    for (const ParseProblem &problem : parsed.problems) {
        check(lineInRange(problem.lineNumber), "problem line number within the input", format,
              problem.lineNumber);
        check(problem.text.size() <= kMaxDisplayTextChars, "problem text is elided", format,
              problem.lineNumber);
        check(!problem.reason.isEmpty(), "problem has a reason", format, problem.lineNumber);
    }
    int previousLine = 0;
    for (const ProxyEntry &entry : parsed.entries) {
        check(lineInRange(entry.lineNumber), "entry line number within the input", format,
              entry.lineNumber);
        check(entry.lineNumber > previousLine, "one entry per line, in input order", format,
              entry.lineNumber);
        check(entry.sourceText.size() <= kMaxDisplayTextChars, "source text is elided", format,
              entry.lineNumber);
        previousLine = entry.lineNumber;
    }

    const EligibilityReport report = judgeProxyList(parsed, rules);
    check(report.fatalError == parsed.fatalError, "fatal error is passed on", format);
    if (!report.fatalError.isEmpty())
        check(report.accepted.isEmpty(), "nothing is accepted from an unusable input", format);
    else
        check(report.accepted.size() + report.duplicates +
                      (report.rejectedCount - parsed.problems.size()) ==
                  parsed.entries.size(),
              "every entry is accepted, a duplicate or rejected", format);
    check(report.rejected.size() == qMin(report.rejectedCount, kMaxListedRejections),
          "the first rejections are listed", format);
    qsizetype collapsedEntries = 0;
    for (const CollapsedDuplicate &duplicate : report.collapsed) {
        check(duplicate.occurrences >= 2 &&
                  duplicate.duplicateLines.size() ==
                      qMin(duplicate.occurrences - 1, kMaxListedDuplicateLines),
              "a collapsed member lists its first repetitions", format, duplicate.firstLine);
        collapsedEntries += duplicate.occurrences - 1;
    }
    check(collapsedEntries <= report.duplicates, "collapsed members add up", format);

    const EligibilityReport streamed = readProxyList(data, rules, format);
    check(streamed.fatalError == report.fatalError &&
              streamed.accepted.memberIds() == report.accepted.memberIds() &&
              streamed.rejectedCount == report.rejectedCount &&
              streamed.duplicates == report.duplicates &&
              streamed.collapsed.size() == report.collapsed.size(),
          "one pass and two steps agree", format);
    for (qsizetype i = 1; i < report.rejected.size(); ++i)
        check(report.rejected[i - 1].lineNumber <= report.rejected[i].lineNumber,
              "rejections sorted by line number", format, report.rejected[i].lineNumber);
    for (const RejectedLine &line : report.rejected) {
        check(lineInRange(line.lineNumber), "rejected line number within the input", format,
              line.lineNumber);
        check(!line.reason.isEmpty(), "rejection has a reason", format, line.lineNumber);
    }

    QSet<QByteArray> ids;
    previousLine = 0;
    // Entries by line, to look the accepted ones up in full.
    QHash<int, ProxyEntry> entryAtLine;
    for (const ProxyEntry &entry : parsed.entries)
        entryAtLine.insert(entry.lineNumber, entry);
    for (const AcceptedProxy &accepted : report.accepted) {
        const QByteArray &id = accepted.memberId;
        check(!ids.contains(id), "accepted member ids are unique", format, accepted.lineNumber);
        ids.insert(id);
        check(accepted.lineNumber > previousLine, "accepted entries in input order", format,
              accepted.lineNumber);
        previousLine = accepted.lineNumber;
        check(entryAtLine.contains(accepted.lineNumber), "accepted line was parsed", format,
              accepted.lineNumber);
        const ProxyEntry entry = entryAtLine.value(accepted.lineNumber);
        check(entry.memberId() == id && entry.sourceText == accepted.sourceText,
              "accepted member is the entry of its line", format, accepted.lineNumber);
        check(entry.port >= 1 && entry.port <= 65535, "accepted port in range", format,
              entry.lineNumber);
        check(eligibilityViolation(entry, rules).isEmpty(), "accepted entries obey the rules",
              format, entry.lineNumber);
        // toUtf8() would silently replace a lone surrogate (from a JSON escape) with '?'.
        check(QStringView(entry.username).isValidUtf16() &&
                  QStringView(entry.password).isValidUtf16() &&
                  QStringView(entry.host).isValidUtf16(),
              "accepted fields are valid Unicode", format, entry.lineNumber);
        // The id stored in Redis must read back as the same proxy (the lines format forbids
        // whitespace, which CSV and JSON passwords may hold).
        if (!containsSpace(QString::fromUtf8(id))) {
            const ParsedProxyList again = parseProxyList(id, ProxyListFormat::Lines);
            check(again.entries.size() == 1 && again.problems.isEmpty() &&
                      again.entries.first().memberId() == id,
                  "member id parses back to itself", format, entry.lineNumber);
        }
    }
}

// Everything the JSON front-end hands on, for comparing its two readings of one input.
struct JsonReadingResult final : proxylist_detail::ProxyListSink {
    void formatDetected(ProxyListFormat) override {}
    void entryParsed(ProxyEntry &&entry) override { entries.append(std::move(entry)); }
    void problemFound(ParseProblem &&problem) override { problems.append(std::move(problem)); }
    QList<ProxyEntry> entries;
    QList<ParseProblem> problems;
    QString fatalError;
};

JsonReadingResult readJson(const QByteArray &json, proxylist_detail::JsonReading reading) {
    JsonReadingResult result;
    proxylist_detail::ListParser parser(ProxyListFormat::Json, result);
    proxylist_detail::parseJson(json, parser, reading);
    result.fatalError = parser.fatalError();
    return result;
}

void checkJsonReadings(const QByteArray &json) {
    const ProxyListFormat format = ProxyListFormat::Json;
    const JsonReadingResult fast =
        readJson(json, proxylist_detail::JsonReading::PlainStringsFromBytes);
    const JsonReadingResult full = readJson(json, proxylist_detail::JsonReading::FullReaderOnly);
    check(fast.fatalError == full.fatalError && fast.entries.size() == full.entries.size() &&
              fast.problems.size() == full.problems.size(),
          "plain-string fast path and QJsonDocument agree", format);
    for (qsizetype i = 0; i < fast.entries.size(); ++i) {
        const ProxyEntry &a = fast.entries[i];
        const ProxyEntry &b = full.entries[i];
        check(
            a.lineNumber == b.lineNumber && a.sourceText == b.sourceText &&
                a.memberId() == b.memberId() && a.scheme == b.scheme && a.username == b.username &&
                a.password == b.password && a.host == b.host && a.port == b.port,
            "plain-string fast path and QJsonDocument give the same entries", format, a.lineNumber);
    }
    for (qsizetype i = 0; i < fast.problems.size(); ++i) {
        const ParseProblem &a = fast.problems[i];
        const ParseProblem &b = full.problems[i];
        check(a.lineNumber == b.lineNumber && a.text == b.text && a.reason == b.reason,
              "plain-string fast path and QJsonDocument give the same problems", format,
              a.lineNumber);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray input(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const EligibilityRules defaults;
    EligibilityRules strict;
    strict.rejectNonPublicAddresses = true;
    strict.allowedPorts = {80, 443, 1080, 3128, 8080};
    for (const ProxyListFormat format : {ProxyListFormat::Auto, ProxyListFormat::Lines,
                                         ProxyListFormat::Csv, ProxyListFormat::Json})
        checkList(input, format, defaults);
    checkList(input, ProxyListFormat::Auto, strict);
    checkJsonReadings(input);
    return 0;
}
