// Shared checks for the proxy list tests: line numbers and member ids of parse and judge results.
#pragma once

#include "proxylist/Eligibility.h"
#include "proxylist/ProxyListParser.h"

#include <QByteArray>
#include <QList>

namespace poolscope::testing {

inline QList<int> lineNumbersOf(const QList<ProxyEntry> &entries) {
    QList<int> numbers;
    for (const ProxyEntry &entry : entries)
        numbers << entry.lineNumber;
    return numbers;
}

inline QList<int> lineNumbersOf(const QList<RejectedLine> &rejected) {
    QList<int> numbers;
    for (const RejectedLine &line : rejected)
        numbers << line.lineNumber;
    return numbers;
}

inline QList<int> lineNumbersOf(const AcceptedProxies &accepted) {
    QList<int> numbers;
    for (const AcceptedProxy &proxy : accepted)
        numbers << proxy.lineNumber;
    return numbers;
}

inline QList<QByteArray> memberIdsOf(const AcceptedProxies &accepted) {
    return accepted.memberIds();
}

inline QList<QByteArray> memberIdsOf(const QList<ProxyEntry> &entries) {
    QList<QByteArray> ids;
    for (const ProxyEntry &entry : entries)
        ids << entry.memberId();
    return ids;
}

} // namespace poolscope::testing
