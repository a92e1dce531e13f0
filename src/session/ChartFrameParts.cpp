// The frame's small parts: axis labels, look-ups in a frame, and the pool-wide lines' colours.

#include "session/ChartFrame.h"

#include <limits>

#include <QDateTime>

namespace poolscope {

namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

} // namespace

QStringList ChartValueAxis::labels() const {
    QStringList out;
    for (int i = 0; i < tickCount && tickCount > 1; ++i)
        out.append(
            QString::asprintf(qPrintable(labelFormat), low + (high - low) * i / (tickCount - 1)));
    return out;
}

int ChartTimeAxis::tickCount() const {
    return stepMs > 0 ? int((toMs - fromMs) / stepMs) + 1 : 2;
}

QStringList ChartTimeAxis::labels() const {
    QStringList out;
    const int count = tickCount();
    for (int i = 0; i < count && count > 1; ++i)
        out.append(QDateTime::fromMSecsSinceEpoch(fromMs + (toMs - fromMs) * i / (count - 1))
                       .toString(format));
    return out;
}

const ChartLine *ChartFrame::line(const QByteArray &member) const {
    for (const ChartLine &line : lines)
        if (line.member == member)
            return &line;
    return nullptr;
}

QList<QByteArray> ChartFrame::members() const {
    QList<QByteArray> out;
    for (const ChartLine &line : lines)
        out.append(line.member);
    return out;
}

qsizetype ChartFrame::pointCount(const QByteArray &member) const {
    const ChartLine *found = line(member);
    return found ? found->points.size() : 0;
}

double ChartFrame::lastValue(const QByteArray &member) const {
    const ChartLine *found = line(member);
    return found && !found->points.isEmpty() ? found->points.constLast().y() : kNoValue;
}

QList<double> ChartFrame::bandLastValues() const {
    if (!bandShown || band.isEmpty())
        return {};
    const ChartBandRun &last = band.constLast();
    return {last.lower.constLast().y(), last.median.constLast().y(), last.upper.constLast().y()};
}

QStringList ChartFrame::markerLabels() const {
    QStringList out;
    for (const ChartMarker &marker : markers)
        out.append(marker.label);
    return out;
}

QStringList ChartFrame::legendLabels() const {
    QStringList out;
    for (const ChartLegendEntry &entry : legend)
        out.append(entry.label);
    return out;
}

QColor ChartColors::band() {
    return QColor(0x90, 0xa4, 0xae, 70);
}

QColor ChartColors::bandBorder() {
    return QColor(0x90, 0xa4, 0xae, 140);
}

QColor ChartColors::median() {
    return QColor(0x54, 0x6e, 0x7a);
}

QColor ChartColors::minimum() {
    return QColor(0x37, 0x47, 0x4f);
}

QColor ChartColors::rate() {
    return QColor(0x42, 0x42, 0x42, 210);
}

} // namespace poolscope
