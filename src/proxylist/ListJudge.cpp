// Judging a proxy list as it is parsed: rule checks, duplicates collapsed into their first
// occurrence, and a report that keeps only what it shows.
#include "proxylist/Eligibility.h"

#include "proxylist/ParserDetail.h"
#include "proxylist/RuleChecker.h"

#include <QHash>

#include <algorithm>
#include <utility>

namespace poolscope {

namespace {

class ListJudge final : public proxylist_detail::ProxyListSink {
public:
    // input: the list being parsed, to size the storage once (null: grow as needed).
    ListJudge(const EligibilityRules &rules, const QByteArray *input)
        : m_checker(rules)
        , m_input(input) {}

    void formatDetected(ProxyListFormat format) override {
        m_isJson = format == ProxyListFormat::Json;
        // Every accepted member came from a line (lines, CSV) of the input; the ids take about
        // as many bytes as the lines. Reserved but untouched memory costs no RSS.
        if (m_input && !m_isJson)
            m_report.accepted.reserveForInput(m_input->size(), m_input->count('\n') + 1);
    }

    void entryParsed(ProxyEntry &&entry) override { judge(entry); }

    void problemFound(ParseProblem &&problem) override {
        reject(problem.lineNumber, std::move(problem.text), std::move(problem.reason));
    }

    void judge(const ProxyEntry &entry) {
        if (m_tooBig)
            return;
        const QByteArray memberId = entry.memberId();
        if (memberId.contains('\0')) { // the parser lets none through; the storage relies on it
            reject(entry.lineNumber, entry.sourceText, located(entry, "contains a NUL byte"));
            return;
        }
        // Equal member ids get equal verdicts, so a member already accepted is a duplicate and
        // needs no second look. Rejected ids are not remembered: each such line is reported.
        if (const qsizetype held = m_report.accepted.indexOf(memberId); held >= 0) {
            recordDuplicate(held, entry.lineNumber, memberId);
            return;
        }
        const QString violation = m_checker.violation(entry);
        if (!violation.isEmpty()) {
            reject(entry.lineNumber, entry.sourceText, located(entry, violation));
            return;
        }
        if (!m_report.accepted.append(memberId, entry.lineNumber, entry.sourceText))
            m_tooBig = true;
    }

    EligibilityReport finish(QString fatalError) {
        if (fatalError.isEmpty() && m_tooBig)
            fatalError = QStringLiteral("the list is too big: its accepted members exceed 4 GiB");
        m_report.fatalError = std::move(fatalError);
        // An unusable input is rejected as a whole: nothing from it may be imported.
        if (!m_report.fatalError.isEmpty()) {
            m_report.accepted.clear();
            m_report.duplicates = 0;
            m_report.collapsed.clear();
        }
        m_report.accepted.finishBuilding();
        return std::move(m_report);
    }

private:
    // JSON "line numbers" are array element indexes; the reason says so.
    QString located(const ProxyEntry &entry, const QString &violation) const {
        return m_isJson
                   ? QStringLiteral("array element %1: %2").arg(entry.lineNumber).arg(violation)
                   : violation;
    }
    QString located(const ProxyEntry &entry, const char *violation) const {
        return located(entry, QString::fromLatin1(violation));
    }

    void reject(int lineNumber, QString text, QString reason) {
        ++m_report.rejectedCount;
        if (m_report.rejected.size() < kMaxListedRejections)
            m_report.rejected.append({lineNumber, std::move(text), std::move(reason)});
    }

    void recordDuplicate(qsizetype acceptedIndex, int lineNumber, const QByteArray &memberId) {
        ++m_report.duplicates;
        if (const auto listed = m_collapsedIndex.constFind(acceptedIndex);
            listed != m_collapsedIndex.cend()) {
            CollapsedDuplicate &duplicate = m_report.collapsed[listed.value()];
            ++duplicate.occurrences;
            if (duplicate.duplicateLines.size() < kMaxListedDuplicateLines)
                duplicate.duplicateLines.append(lineNumber);
            return;
        }
        if (m_report.collapsed.size() >= kMaxListedDuplicates)
            return;
        m_collapsedIndex.insert(acceptedIndex, m_report.collapsed.size());
        m_report.collapsed.append(
            {memberId, m_report.accepted.lineNumber(acceptedIndex), 2, {lineNumber}});
    }

    const RuleChecker m_checker;
    const QByteArray *m_input;
    EligibilityReport m_report;
    QHash<qsizetype, qsizetype> m_collapsedIndex; // accepted index -> index in collapsed
    bool m_isJson = false;
    bool m_tooBig = false;
};

} // namespace

EligibilityReport judgeProxyList(const ParsedProxyList &parsed, const EligibilityRules &rules) {
    ListJudge judge(rules, nullptr);
    judge.formatDetected(parsed.detectedFormat);
    // Entries and problems are each in line order; merged, the report lists them in line order.
    const QList<ProxyEntry> &entries = parsed.entries;
    const QList<ParseProblem> &problems = parsed.problems;
    qsizetype e = 0;
    qsizetype p = 0;
    while (e < entries.size() || p < problems.size()) {
        const bool problemFirst =
            e >= entries.size() ||
            (p < problems.size() && problems[p].lineNumber < entries[e].lineNumber);
        if (problemFirst) {
            ParseProblem problem = problems[p++];
            judge.problemFound(std::move(problem));
        } else {
            judge.judge(entries[e++]);
        }
    }
    return judge.finish(parsed.fatalError);
}

EligibilityReport readProxyList(const QByteArray &data, const EligibilityRules &rules,
                                ProxyListFormat format) {
    ListJudge judge(rules, &data);
    QString fatalError = proxylist_detail::parseProxyListInto(data, format, judge);
    return judge.finish(std::move(fatalError));
}

} // namespace poolscope
