// The members' colours: stable for a pool, and far apart for as many members as a chart shows
// one by one. No server, no window.

#include "session/MemberColors.h"

#include <array>
#include <cmath>
#include <numbers>

#include <QSet>
#include <QtTest>

using namespace poolscope;

namespace {

using Lab = std::array<double, 3>;

Lab lab(const QColor &color) {
    const auto linear = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const double r = linear(color.redF());
    const double g = linear(color.greenF());
    const double b = linear(color.blueF());
    const auto f = [](double v) { return v > 0.008856 ? std::cbrt(v) : 7.787 * v + 16.0 / 116; };
    const double x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
    const double y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
    const double z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
    return {116 * y - 16, 500 * (x - y), 200 * (y - z)};
}

double chroma(const Lab &c) {
    return std::hypot(c[1], c[2]);
}

// CIEDE2000 (Sharma, Wu and Dalal's formulation): unlike the plain distance in CIELAB it does not
// call two blues far apart because they are saturated.
double deltaE2000(const Lab &one, const Lab &two) {
    constexpr double pi = std::numbers::pi;
    const auto radians = [](double degrees) { return degrees * pi / 180; };
    const auto degrees = [](double angle) {
        const double d = angle * 180 / pi;
        return d < 0 ? d + 360 : d;
    };
    const double meanC = (chroma(one) + chroma(two)) / 2;
    const double c7 = std::pow(meanC, 7);
    const double g = 0.5 * (1 - std::sqrt(c7 / (c7 + std::pow(25.0, 7))));
    const double a1 = (1 + g) * one[1];
    const double a2 = (1 + g) * two[1];
    const double c1 = std::hypot(a1, one[2]);
    const double c2 = std::hypot(a2, two[2]);
    const double h1 = degrees(std::atan2(one[2], a1));
    const double h2 = degrees(std::atan2(two[2], a2));
    double dh = 0;
    if (c1 * c2 != 0) {
        dh = h2 - h1;
        dh += dh > 180 ? -360 : (dh < -180 ? 360 : 0);
    }
    const double dL = two[0] - one[0];
    const double dC = c2 - c1;
    const double dH = 2 * std::sqrt(c1 * c2) * std::sin(radians(dh / 2));
    const double meanL = (one[0] + two[0]) / 2;
    const double meanCp = (c1 + c2) / 2;
    double meanH = h1 + h2;
    if (c1 * c2 != 0)
        meanH = std::abs(h1 - h2) <= 180 ? meanH / 2
                                         : (meanH < 360 ? (meanH + 360) / 2 : (meanH - 360) / 2);
    const double t = 1 - 0.17 * std::cos(radians(meanH - 30)) +
                     0.24 * std::cos(radians(2 * meanH)) + 0.32 * std::cos(radians(3 * meanH + 6)) -
                     0.20 * std::cos(radians(4 * meanH - 63));
    const double rotation = 30 * std::exp(-std::pow((meanH - 275) / 25, 2));
    const double cp7 = std::pow(meanCp, 7);
    const double rc = 2 * std::sqrt(cp7 / (cp7 + std::pow(25.0, 7)));
    const double sl = 1 + 0.015 * std::pow(meanL - 50, 2) / std::sqrt(20 + std::pow(meanL - 50, 2));
    const double sc = 1 + 0.045 * meanCp;
    const double sh = 1 + 0.015 * meanCp * t;
    const double rt = -std::sin(radians(2 * rotation)) * rc;
    return std::sqrt(std::pow(dL / sl, 2) + std::pow(dC / sc, 2) + std::pow(dH / sh, 2) +
                     rt * (dC / sc) * (dH / sh));
}

} // namespace

class TestMemberColors : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void deltaE2000MatchesPublishedPairs_data();
    void deltaE2000MatchesPublishedPairs();
    void stableAndDistinct();
    void wellSeparated_data();
    void wellSeparated();
};

// Pairs from Sharma, Wu and Dalal's test data for CIEDE2000: the measure itself is right.
void TestMemberColors::deltaE2000MatchesPublishedPairs_data() {
    QTest::addColumn<double>("l1");
    QTest::addColumn<double>("a1");
    QTest::addColumn<double>("b1");
    QTest::addColumn<double>("l2");
    QTest::addColumn<double>("a2");
    QTest::addColumn<double>("b2");
    QTest::addColumn<double>("expected");
    QTest::newRow("1") << 50.0 << 2.6772 << -79.7751 << 50.0 << 0.0 << -82.7485 << 2.0425;
    QTest::newRow("7") << 50.0 << 0.0 << 0.0 << 50.0 << -1.0 << 2.0 << 2.3669;
    QTest::newRow("17") << 50.0 << 2.5 << 0.0 << 73.0 << 25.0 << -18.0 << 27.1492;
    QTest::newRow("25") << 60.2574 << -34.0099 << 36.2677 << 60.4626 << -34.1751 << 39.4387
                        << 1.2644;
    QTest::newRow("34") << 2.0776 << 0.0795 << -1.135 << 0.9033 << -0.0636 << -0.5514 << 0.9082;
}

void TestMemberColors::deltaE2000MatchesPublishedPairs() {
    QFETCH(double, l1);
    QFETCH(double, a1);
    QFETCH(double, b1);
    QFETCH(double, l2);
    QFETCH(double, a2);
    QFETCH(double, b2);
    QFETCH(double, expected);
    QVERIFY2(std::abs(deltaE2000({l1, a1, b1}, {l2, a2, b2}) - expected) < 1e-4,
             qPrintable(QString::number(deltaE2000({l1, a1, b1}, {l2, a2, b2}), 'f', 4)));
    QVERIFY(std::abs(deltaE2000({l2, a2, b2}, {l1, a1, b1}) - expected) < 1e-4);
}

void TestMemberColors::stableAndDistinct() {
    MemberColors first;
    first.assign({"c", "a", "b"});
    MemberColors second;
    second.assign({"b", "c", "a"});
    for (const QByteArray &member : {QByteArray("a"), QByteArray("b"), QByteArray("c")})
        QCOMPARE(first.colorFor(member), second.colorFor(member));
    QSet<QRgb> seen;
    for (int i = 0; i < 40; ++i)
        seen.insert(MemberColors::colorAt(i).rgb());
    QCOMPARE(seen.size(), 40);
}

void TestMemberColors::wellSeparated_data() {
    QTest::addColumn<int>("members");
    QTest::addColumn<double>("apart"); // the least CIEDE2000 distance between any two
    QTest::newRow("10 members") << 10 << 18.0;
    QTest::newRow("20 members") << 20 << 15.0;
    QTest::newRow("30 members") << 30 << 14.0;
}

// The colours a pool of `members` members gets, as the chart and the table show them: any two
// clearly apart, none grey (grey means evicted), none too light for a thin line on white.
void TestMemberColors::wellSeparated() {
    QFETCH(int, members);
    QFETCH(double, apart);
    QList<QByteArray> names;
    for (int i = 0; i < members; ++i)
        names.append("socks5://198.51.100." + QByteArray::number(i) + ":1080");
    MemberColors colors;
    colors.assign(names);
    for (int i = 0; i < members; ++i) {
        const QColor one = colors.colorFor(names[i]);
        const Lab a = lab(one);
        QVERIFY2(
            chroma(a) >= 30 && a[0] >= 28 && a[0] <= 70,
            qPrintable(QStringLiteral("%1: L %2, C %3").arg(one.name()).arg(a[0]).arg(chroma(a))));
        for (int j = i + 1; j < members; ++j) {
            const QColor two = colors.colorFor(names[j]);
            const double distance = deltaE2000(a, lab(two));
            QVERIFY2(
                distance >= apart,
                qPrintable(
                    QStringLiteral("%1 and %2: %3").arg(one.name(), two.name()).arg(distance)));
        }
    }
}

QTEST_MAIN(TestMemberColors)
#include "tst_membercolors.moc"
