#include "fairness/FairnessPanel.h"

#include "ui_FairnessPanel.h"

#include "session/DisplayFormat.h"
#include "session/PoolSession.h"
#include "pool/PoolStats.h"

#include <QDateTime>
#include <QLabel>
#include <QLocale>

namespace poolscope {

namespace {

// Setting a style sheet restyles the widget even when the sheet is the same: skip that on every
// poll.
void setStyleSheetIfChanged(QWidget *widget, const QString &styleSheet) {
    if (widget->styleSheet() != styleSheet)
        widget->setStyleSheet(styleSheet);
}

} // namespace

FairnessPanel::FairnessPanel(PoolSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_ui(std::make_unique<Ui::FairnessPanel>())
    , m_stale(new QLabel(this)) {
    m_ui->setupUi(this);
    m_stale->setWordWrap(true);
    m_stale->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_stale->setVisible(false);
    m_ui->outerLayout->insertWidget(0, m_stale);
    for (QLabel *value : std::initializer_list<QLabel *>{
             m_ui->membersValue, m_ui->rangeValue, m_ui->spreadValue, m_ui->jainValue,
             m_ui->busiestValue, static_cast<QLabel *>(m_ui->rateValue)}) {
        QFont font = value->font();
        font.setBold(true);
        font.setPointSizeF(font.pointSizeF() * 1.1);
        value->setFont(font);
    }
    // Long values wrap instead of widening the dock (and the window) by themselves.
    for (QLabel *value : {m_ui->busiestValue, m_ui->jainValue, m_ui->totalValue})
        value->setWordWrap(true);
    connect(m_session, &PoolSession::observationApplied, this, &FairnessPanel::showObservation);
    connect(m_session, &PoolSession::targetChanged, this, &FairnessPanel::showEmpty);
    connect(m_session, &PoolSession::modeChanged, this, &FairnessPanel::showStaleness);
    connect(m_session, &PoolSession::historyLoaded, this, [this] {
        if (m_session->isShowingRecording())
            showRecordingRate();
    });
    showEmpty();
}

FairnessPanel::~FairnessPanel() = default;

void FairnessPanel::showEmpty() {
    for (QLabel *value :
         std::initializer_list<QLabel *>{m_ui->membersValue, m_ui->rangeValue, m_ui->spreadValue,
                                         m_ui->jainValue, m_ui->busiestValue, m_ui->totalValue})
        value->setText(QStringLiteral("–"));
    m_ui->rateValue->setFullText(QStringLiteral("–"));
    m_ui->modeValue->setFullText(QStringLiteral("–"));
}

void FairnessPanel::showStaleness() {
    const bool stale = m_session->isStale();
    m_stale->setText(stale ? tr("Stale: no good poll since %1. These figures are from then.")
                                 .arg(QDateTime::fromMSecsSinceEpoch(m_session->lastGoodPollMs())
                                          .toString(QStringLiteral("HH:mm:ss")))
                           : QString());
    m_stale->setVisible(stale);
    // Disabled labels are drawn greyed out; the Jain colour would override that.
    for (QLabel *value : std::initializer_list<QLabel *>{
             m_ui->membersValue, m_ui->rangeValue, m_ui->spreadValue, m_ui->jainValue,
             m_ui->busiestValue, m_ui->rateValue, m_ui->totalValue, m_ui->modeValue})
        value->setEnabled(!stale);
    if (stale)
        setStyleSheetIfChanged(m_ui->jainValue, QString());
}

QString FairnessPanel::staleText() const {
    return m_stale->isVisibleTo(this) ? m_stale->text() : QString();
}

void FairnessPanel::showObservation(const PoolObservation &observation) {
    const QLocale locale;
    const PoolStats &stats = observation.stats;
    m_ui->membersValue->setText(
        stats.evicted > 0 ? tr("%1 (+%2 evicted)")
                                .arg(locale.toString(stats.size), locale.toString(stats.evicted))
                          : locale.toString(stats.size));
    if (stats.size == 0) {
        for (QLabel *value : {m_ui->rangeValue, m_ui->spreadValue, m_ui->jainValue,
                              m_ui->busiestValue, m_ui->totalValue})
            value->setText(QStringLiteral("–"));
    } else {
        m_ui->rangeValue->setText(
            QStringLiteral("%1 / %2 / %3")
                .arg(formatCount(stats.min), formatCount(stats.median), formatCount(stats.max)));
        m_ui->spreadValue->setText(formatCount(stats.spread));
        m_ui->jainValue->setText(locale.toString(stats.jainIndex, 'f', 4));
        m_ui->jainValue->setToolTip(QString());
        setStyleSheetIfChanged(m_ui->jainValue,
                               stats.jainIndex >= 0.99  ? QStringLiteral("color: #2e7d32;")
                               : stats.jainIndex >= 0.9 ? QStringLiteral("color: #ef6c00;")
                                                        : QStringLiteral("color: #c62828;"));
        // The sum of the counts now; evicted members' saved counts (when listed) in brackets,
        // so that an eviction does not look like allocations going away.
        double saved = 0;
        for (const EvictedMember &member : observation.snapshot.evicted)
            saved += member.savedCount;
        m_ui->totalValue->setText(
            observation.snapshot.evicted.isEmpty()
                ? formatCount(stats.total)
                : tr("%1 (%2 with the %3 evicted)")
                      .arg(formatCount(stats.total), formatCount(stats.total + saved),
                           locale.toString(observation.snapshot.evicted.size())));

        const QHash<QByteArray, double> &allocations = m_session->rates().memberAllocations();
        const double windowSeconds = double(m_session->rateWindowMs()) / 1000.0;
        m_ui->busiestTitle->setText(tr("Busiest (last %1)").arg(formatSeconds(windowSeconds)));
        if (allocations.isEmpty()) {
            m_ui->busiestValue->setText(tr("– (no allocations)"));
        } else {
            QByteArray busiest;
            double most = -1;
            for (auto it = allocations.cbegin(); it != allocations.cend(); ++it)
                if (it.value() > most || (it.value() == most && it.key() < busiest)) {
                    most = it.value();
                    busiest = it.key();
                }
            const double share = busiestShare(allocations.values());
            m_ui->busiestValue->setText(QStringLiteral("%1 · %2").arg(
                formatShare(share), m_session->displayMember(busiest)));
        }
    }
    m_ui->rateValue->setFullText(tr("%1 /s").arg(formatRate(m_session->poolRatePerSecond())));
    if (m_session->isShowingRecording())
        showRecordingRate();
    if (observation.summaryMode) {
        showSummaryFigures(observation);
        return;
    }
    // One line, elided: the full text (what exactly is read) is in the tooltip.
    m_ui->modeValue->setFullText(observation.mode.isEmpty() ? tr("full snapshot")
                                                            : observation.mode);
}

void FairnessPanel::showSummaryFigures(const PoolObservation &observation) {
    // A big pool: min / median / max come from the quantiles of every poll, the sum and Jain's
    // index need every member, so they come from the background scan and wait for its first pass.
    const QLocale locale;
    const PoolStats &stats = observation.stats;
    const QString mode =
        tr("summary: %1 members > %2 (quantiles, top/bottom, pinned and the rows on "
           "screen are read)")
            .arg(locale.toString(observation.summary.size),
                 locale.toString(m_session->fullSnapshotThreshold()));
    m_ui->modeValue->setFullText(mode);
    m_ui->modeValue->setToolTip(mode + QStringLiteral("\n") + observation.mode);
    if (stats.size == 0)
        return;
    const bool totalsKnown = stats.total > 0 || stats.jainIndex > 0;
    if (!totalsKnown) {
        const qint64 percent = observation.summary.size > 0
                                   ? 100 * observation.scanProgress / observation.summary.size
                                   : 0;
        const QString pending = tr("pending: first totals scan %1 %").arg(locale.toString(percent));
        m_ui->jainValue->setText(pending);
        setStyleSheetIfChanged(m_ui->jainValue, QStringLiteral("color: palette(mid);"));
        m_ui->jainValue->setToolTip(
            tr("Jain's index needs every member's count: a low-rate background scan "
               "reads the whole pool in small pages and the index appears when its "
               "first pass completes"));
        m_ui->totalValue->setText(pending);
    }
    m_ui->busiestValue->setText(
        observation.summary.top.isEmpty()
            ? QStringLiteral("–")
            //: count: the allocation count (the sorted set's score).
            : tr("highest count: %1 (%2)")

                  .arg(m_session->displayMember(observation.summary.top.constFirst().member),
                       formatCount(observation.summary.top.constFirst().count)));
    if (!m_session->rates().hasPoolAllocations() && !m_session->isShowingRecording())
        m_ui->rateValue->setFullText(tr("– (summary mode: counted from the next polls)"));
}

void FairnessPanel::showRecordingRate() {
    // Not a live rate: the recording's own, over its last polls, or nothing.
    const std::optional<double> rate = m_session->recordingRatePerSecond();
    m_ui->rateValue->setFullText(
        rate
            ? tr("%1 /s (the recording's last %2)")
                  .arg(formatRate(*rate), formatSeconds(double(m_session->rateWindowMs()) / 1000.0))
            : tr("– (not in the recording)"));
    m_ui->busiestValue->setText(QStringLiteral("–"));
}

QString FairnessPanel::valueText(Field field) const {
    switch (field) {
    case Field::Members:
        return m_ui->membersValue->text();
    case Field::Range:
        return m_ui->rangeValue->text();
    case Field::Spread:
        return m_ui->spreadValue->text();
    case Field::Jain:
        return m_ui->jainValue->text();
    case Field::Busiest:
        return m_ui->busiestValue->text();
    case Field::Rate:
        return m_ui->rateValue->fullText();
    case Field::Total:
        return m_ui->totalValue->text();
    case Field::Mode:
        return m_ui->modeValue->fullText();
    }
    return {};
}

} // namespace poolscope
