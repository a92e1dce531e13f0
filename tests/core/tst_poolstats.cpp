#include "pool/PoolStats.h"

#include <QTest>

#include <cmath>

using poolscope::PoolStats;

// QCOMPARE on doubles is fuzzy (relative 1e-12), which would accept 1e12+1 for 1e12+2; the exact
// statistics (min, median, max, spread, total) must be compared exactly.
#define COMPARE_EXACTLY(actual, expected)                                                          \
    QVERIFY2((actual) == (expected), qPrintable(QStringLiteral("%1: got %2, expected %3")          \
                                                    .arg(QLatin1String(#actual))                   \
                                                    .arg(double(actual), 0, 'g', 17)               \
                                                    .arg(double(expected), 0, 'g', 17)))

#define COMPARE_WITHIN(actual, expected, tolerance)                                                \
    QVERIFY2(std::abs((actual) - (expected)) <= (tolerance),                                       \
             qPrintable(QStringLiteral("%1: got %2, expected %3 +- %4")                            \
                            .arg(QLatin1String(#actual))                                           \
                            .arg(double(actual), 0, 'g', 17)                                       \
                            .arg(double(expected), 0, 'g', 17)                                     \
                            .arg(double(tolerance))))

namespace {

constexpr double kJainTolerance = 1e-12;

QList<double> hotMember(qsizetype memberCount, double hotCount) {
    QList<double> counts(memberCount, 0.0);
    counts.front() = hotCount;
    return counts;
}

} // namespace

class TestPoolStats : public QObject {
    Q_OBJECT

private slots:
    void defaultStatsDescribeEmptyPool();
    void computePoolStats_data();
    void computePoolStats();
    void jainFairnessIndex_data();
    void jainFairnessIndex();
    void jainIsScaleInvariant_data();
    void jainIsScaleInvariant();
    void jainStaysInRange_data();
    void jainStaysInRange();
    void busiestShare_data();
    void busiestShare();
};

void TestPoolStats::defaultStatsDescribeEmptyPool() {
    const PoolStats defaults;
    const PoolStats computed = poolscope::computePoolStats({});
    COMPARE_EXACTLY(computed.size, defaults.size);
    COMPARE_EXACTLY(computed.total, defaults.total);
    COMPARE_EXACTLY(computed.jainIndex, defaults.jainIndex);
    COMPARE_EXACTLY(defaults.jainIndex, 1.0);
}

void TestPoolStats::computePoolStats_data() {
    QTest::addColumn<QList<double>>("counts");
    QTest::addColumn<qint64>("evictedCount");
    QTest::addColumn<qint64>("expectedSize");
    QTest::addColumn<double>("expectedMin");
    QTest::addColumn<double>("expectedMedian");
    QTest::addColumn<double>("expectedMax");
    QTest::addColumn<double>("expectedSpread");
    QTest::addColumn<double>("expectedTotal");
    QTest::addColumn<double>("expectedJain");

    QTest::newRow("empty") << QList<double>{} << qint64(0) << qint64(0) << 0.0 << 0.0 << 0.0 << 0.0
                           << 0.0 << 1.0;
    QTest::newRow("empty with evicted")
        << QList<double>{} << qint64(3) << qint64(0) << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << 1.0;
    QTest::newRow("single") << QList<double>{5} << qint64(0) << qint64(1) << 5.0 << 5.0 << 5.0
                            << 0.0 << 5.0 << 1.0;
    QTest::newRow("single zero") << QList<double>{0} << qint64(0) << qint64(1) << 0.0 << 0.0 << 0.0
                                 << 0.0 << 0.0 << 1.0;
    QTest::newRow("all equal") << QList<double>{4, 4, 4, 4} << qint64(2) << qint64(4) << 4.0 << 4.0
                               << 4.0 << 0.0 << 16.0 << 1.0;
    QTest::newRow("all zeros") << QList<double>{0, 0, 0} << qint64(0) << qint64(3) << 0.0 << 0.0
                               << 0.0 << 0.0 << 0.0 << 1.0;
    // One member took everything: Jain = 1/n.
    QTest::newRow("one hot member") << QList<double>{0, 0, 10, 0, 0} << qint64(0) << qint64(5)
                                    << 0.0 << 0.0 << 10.0 << 10.0 << 10.0 << 0.2;
    // Hand-computed: sum 10, sum of squares 30, Jain = 100 / (4 * 30) = 5/6; median (2+3)/2.
    QTest::newRow("hand computed, unsorted") << QList<double>{3, 1, 4, 2} << qint64(1) << qint64(4)
                                             << 1.0 << 2.5 << 4.0 << 3.0 << 10.0 << 5.0 / 6.0;
    // Odd count: median is the middle value; sum 11, squares 59, Jain = 121 / 177.
    QTest::newRow("odd median") << QList<double>{7, 1, 3} << qint64(0) << qint64(3) << 1.0 << 3.0
                                << 7.0 << 6.0 << 11.0 << 121.0 / 177.0;
    // Even count: mean of 4 and 8; sum 24, squares 184, Jain = 576 / 736.
    QTest::newRow("even median") << QList<double>{10, 2, 8, 4} << qint64(0) << qint64(4) << 2.0
                                 << 6.0 << 10.0 << 8.0 << 24.0 << 576.0 / 736.0;
    QTest::newRow("even median, equal middle")
        << QList<double>{9, 5, 1, 5} << qint64(0) << qint64(4) << 1.0 << 5.0 << 9.0 << 8.0 << 20.0
        << 400.0 / (4.0 * 132.0);
    // Sorted-set scores are doubles, not necessarily integers: sum 2, squares 2.5, Jain 0.8.
    QTest::newRow("fractional scores") << QList<double>{1.5, 0.5} << qint64(0) << qint64(2) << 0.5
                                       << 1.0 << 1.5 << 1.0 << 2.0 << 0.8;
    // Huge counts: differences of 1 at 1e12 must survive (fuzzy comparison would not notice).
    QTest::newRow("huge, odd") << QList<double>{1e12 + 3, 1e12 + 1, 1e12 + 2} << qint64(0)
                               << qint64(3) << 1e12 + 1 << 1e12 + 2 << 1e12 + 3 << 2.0 << 3e12 + 6
                               << 1.0;
    QTest::newRow("huge, even") << QList<double>{1e12 + 1, 1e12} << qint64(0) << qint64(2) << 1e12
                                << 1e12 + 0.5 << 1e12 + 1 << 1.0 << 2e12 + 1 << 1.0;
    QTest::newRow("huge, one hot member") << hotMember(4, 1e12) << qint64(0) << qint64(4) << 0.0
                                          << 0.0 << 1e12 << 1e12 << 1e12 << 0.25;
    // Small counts next to huge ones must not be rounded away: the total is exact here ...
    QTest::newRow("small counts next to a huge one")
        << QList<double>{1, 1e16, 1} << qint64(0) << qint64(3) << 1.0 << 1.0 << 1e16 << 1e16 - 1
        << 1e16 + 2 << 1.0 / 3.0;
    // ... and correctly rounded here: the exact sum 2e16+3 rounds to the double 2e16+4, while
    // naive summation in double (even in ascending order) yields 2e16.
    QTest::newRow("total correctly rounded")
        << QList<double>{1e16 + 2, 1, 1e16} << qint64(0) << qint64(3) << 1.0 << 1e16 << 1e16 + 2
        << (1e16 + 2) - 1 << 2e16 + 4 << 2.0 / 3.0;
}

void TestPoolStats::computePoolStats() {
    QFETCH(QList<double>, counts);
    QFETCH(qint64, evictedCount);
    QFETCH(qint64, expectedSize);
    QFETCH(double, expectedMin);
    QFETCH(double, expectedMedian);
    QFETCH(double, expectedMax);
    QFETCH(double, expectedSpread);
    QFETCH(double, expectedTotal);
    QFETCH(double, expectedJain);

    const PoolStats stats = poolscope::computePoolStats(counts, evictedCount);
    QCOMPARE(stats.size, expectedSize);
    QCOMPARE(stats.evicted, evictedCount);
    COMPARE_EXACTLY(stats.min, expectedMin);
    COMPARE_EXACTLY(stats.median, expectedMedian);
    COMPARE_EXACTLY(stats.max, expectedMax);
    COMPARE_EXACTLY(stats.spread, expectedSpread);
    COMPARE_EXACTLY(stats.total, expectedTotal);
    COMPARE_WITHIN(stats.jainIndex, expectedJain, kJainTolerance);
    // The pool's index is the stand-alone function's.
    COMPARE_EXACTLY(stats.jainIndex, poolscope::jainFairnessIndex(counts));
}

void TestPoolStats::jainFairnessIndex_data() {
    QTest::addColumn<QList<double>>("counts");
    QTest::addColumn<double>("expectedJain");

    QTest::newRow("empty") << QList<double>{} << 1.0;
    QTest::newRow("all zeros") << QList<double>{0, 0} << 1.0;
    QTest::newRow("single") << QList<double>{42} << 1.0;
    QTest::newRow("equal") << QList<double>{3, 3, 3} << 1.0;
    QTest::newRow("hot member of 2") << hotMember(2, 7) << 0.5;
    QTest::newRow("hot member of 10") << hotMember(10, 1) << 0.1;
    QTest::newRow("hot member of 1000") << hotMember(1000, 123456) << 0.001;
    QTest::newRow("half used") << QList<double>{1e12, 1e12, 0, 0} << 0.5;
    // (3 + 1)^2 / (2 * (9 + 1)) = 0.8
    QTest::newRow("three to one, huge") << QList<double>{3e12, 1e12} << 0.8;
    // x^2 would overflow to inf (naively NaN) or underflow to 0 (naively 0/0) without scaling.
    QTest::newRow("overflowing squares") << QList<double>{1e200, 1e200, 0} << 2.0 / 3.0;
    QTest::newRow("underflowing squares") << QList<double>{1e-200, 3e-200} << 0.8;
    // 1000 members at 1e12 and one at 0: (1000e12)^2 / (1001 * 1000 * 1e24) = 1000/1001.
    QTest::newRow("many huge, one idle") << [] {
        QList<double> counts(1000, 1e12);
        counts.append(0);
        return counts;
    }() << 1000.0 / 1001.0;
}

void TestPoolStats::jainFairnessIndex() {
    QFETCH(QList<double>, counts);
    QFETCH(double, expectedJain);

    const double jain = poolscope::jainFairnessIndex(counts);
    QVERIFY2(std::isfinite(jain), qPrintable(QString::number(jain)));
    COMPARE_WITHIN(jain, expectedJain, kJainTolerance);
}

void TestPoolStats::jainIsScaleInvariant_data() {
    QTest::addColumn<double>("scale");

    QTest::newRow("x1e-6") << 1e-6;
    QTest::newRow("x7") << 7.0;
    QTest::newRow("x1e12") << 1e12;
    QTest::newRow("x1e150") << 1e150;
}

void TestPoolStats::jainIsScaleInvariant() {
    QFETCH(double, scale);

    const QList<double> counts{5, 1, 0, 9, 3, 3, 12};
    QList<double> scaledCounts;
    for (const double count : counts)
        scaledCounts.append(count * scale);
    // sum 33, squares 269: 1089 / (7 * 269)
    const double expected = 1089.0 / (7.0 * 269.0);
    COMPARE_WITHIN(poolscope::jainFairnessIndex(counts), expected, kJainTolerance);
    COMPARE_WITHIN(poolscope::jainFairnessIndex(scaledCounts), expected, kJainTolerance);
}

void TestPoolStats::jainStaysInRange_data() {
    QTest::addColumn<QList<double>>("counts");

    QTest::newRow("near equal huge") << QList<double>{1e15 + 1, 1e15, 1e15 - 1, 1e15};
    QTest::newRow("near equal fractional") << QList<double>{0.1, 0.1 + 1e-17, 0.1, 0.3 - 0.2};
    QTest::newRow("skewed") << QList<double>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
}

void TestPoolStats::jainStaysInRange() {
    QFETCH(QList<double>, counts);

    // Cauchy-Schwarz: 1/n <= J <= 1 for non-negative counts that are not all zero.
    const double jain = poolscope::jainFairnessIndex(counts);
    const double lowerBound = 1.0 / counts.size();
    QVERIFY2(jain >= lowerBound && jain <= 1.0, qPrintable(QString::number(jain, 'g', 17)));
}

void TestPoolStats::busiestShare_data() {
    QTest::addColumn<QList<double>>("deltas");
    QTest::addColumn<double>("expectedShare");

    QTest::newRow("empty") << QList<double>{} << 0.0;
    QTest::newRow("no allocations") << QList<double>{0, 0, 0} << 0.0;
    QTest::newRow("single member") << QList<double>{5} << 1.0;
    QTest::newRow("even") << QList<double>{2, 2, 2, 2} << 0.25;
    QTest::newRow("hand computed") << QList<double>{3, 6, 1} << 0.6;
    QTest::newRow("one hot member") << QList<double>{0, 10, 0} << 1.0;
    QTest::newRow("huge") << QList<double>{1e12, 3e12} << 0.75;
    QTest::newRow("fractional") << QList<double>{0.5, 1.5, 2.0} << 0.5;
    // Negative deltas (a count that went down) count as no allocations.
    QTest::newRow("negative delta ignored") << QList<double>{-5, 5, 5} << 0.5;
    QTest::newRow("only negative deltas") << QList<double>{-3, -1} << 0.0;
    QTest::newRow("negatives cancelling positives") << QList<double>{-10, 4, 6} << 0.6;
}

void TestPoolStats::busiestShare() {
    QFETCH(QList<double>, deltas);
    QFETCH(double, expectedShare);

    COMPARE_WITHIN(poolscope::busiestShare(deltas), expectedShare, 1e-15);
}

QTEST_GUILESS_MAIN(TestPoolStats)
#include "tst_poolstats.moc"
