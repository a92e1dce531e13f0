// The members table's sort by member: the natural order (PoolSortProxy: IPv4 by octets, then
// port; names with numbers as numbers) against the reference of sorting the same rows as text (a
// plain QSortFilterProxyModel on the sort role, what the table did before), in the same process
// on the same rows. Each sort is timed from an unsorted proxy, best and median of the rounds.
//
// Usage: bench_member_sort [rounds=7] [sizes=10000,100000]

#include "members/PoolSortProxy.h"
#include "members/PoolTableModel.h"

#include "ProxyIdRows.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLocale>
#include <QSortFilterProxyModel>

using namespace poolscope;

namespace {

struct Timing {
    double best = 0;
    double median = 0;
};

// A fresh, unsorted proxy each round: the first sort of a proxy is the whole sort.
Timing timeSorts(const std::function<std::unique_ptr<QSortFilterProxyModel>()> &makeProxy,
                 int rounds) {
    std::vector<double> times;
    for (int round = 0; round < rounds; ++round) {
        const std::unique_ptr<QSortFilterProxyModel> proxy = makeProxy();
        QElapsedTimer clock;
        clock.start();
        proxy->sort(PoolTableModel::Member, Qt::AscendingOrder);
        times.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    std::sort(times.begin(), times.end());
    return {times.front(), times[times.size() / 2]};
}

} // namespace

int main(int argc, char *argv[]) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int rounds = args.size() > 1 ? std::max(1, args[1].toInt()) : 7;
    const QStringList sizes = (args.size() > 2 ? args[2] : QStringLiteral("10000,100000"))
                                  .split(u',', Qt::SkipEmptyParts);
    std::printf(
        "| members | natural order (PoolSortProxy) best / median ms | as text (reference) best "
        "/ median ms | natural ÷ text (median) |\n|---|---|---|---|\n");
    for (const QString &size : sizes) {
        PoolTableModel model;
        model.setRows(testing::proxyIdRows(size.toInt()), 0);
        const Timing natural =
            timeSorts([&] { return std::make_unique<PoolSortProxy>(&model); }, rounds);
        const Timing text = timeSorts(
            [&] {
                auto byText = std::make_unique<QSortFilterProxyModel>();
                byText->setSourceModel(&model);
                byText->setSortRole(PoolTableModel::SortRole);
                return byText;
            },
            rounds);
        std::printf("| %s | %.1f / %.1f | %.1f / %.1f | %.2fx |\n",
                    QLocale(QLocale::English).toString(size.toInt()).toUtf8().constData(),
                    natural.best, natural.median, text.best, text.median,
                    natural.median / std::max(text.median, 0.001));
    }
    return 0;
}
