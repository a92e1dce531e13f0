#pragma once

// Members-table rows of proxy ids as the free lists give them (credentials, scattered IPv4
// addresses and ports): the natural-order test and bench/member_sort.cpp sort the same rows.
// Header-only: it needs the widgets' table model, which poolscope_test_support does not link.

#include "members/PoolTableModel.h"

namespace poolscope::testing {

inline QList<PoolTableModel::Row> proxyIdRows(int count) {
    QList<PoolTableModel::Row> rows;
    rows.reserve(count);
    for (int i = 0; i < count; ++i) {
        PoolTableModel::Row row;
        row.member = QByteArrayLiteral("socks5://user:pw@45.") +
                     QByteArray::number((i * 7919) % 256) + '.' +
                     QByteArray::number((i * 31) % 256) + '.' + QByteArray::number(i % 256) + ':' +
                     QByteArray::number(1000 + (i * 13) % 9000);
        rows.append(row);
    }
    return rows;
}

} // namespace poolscope::testing
