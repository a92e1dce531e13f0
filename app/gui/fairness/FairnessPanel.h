#pragma once

#include <memory>

#include <QWidget>

namespace Ui {
class FairnessPanel;
}
class QLabel;

namespace poolscope {

class PoolSession;
struct PoolObservation;

// How evenly the pool is being used: members, min / median / max, spread, Jain's index, the
// busiest member's share of the last window, the allocation rate and the poller's read mode.
class FairnessPanel : public QWidget {
    Q_OBJECT

public:
    enum class Field { Members, Range, Spread, Jain, Busiest, Rate, Total, Mode };

    explicit FairnessPanel(PoolSession *session, QWidget *parent = nullptr);
    ~FairnessPanel() override;

    QString valueText(Field field) const;
    // "Stale: …" while polls fail (the figures are then greyed out), empty while they are live.
    QString staleText() const;

private:
    void showObservation(const PoolObservation &observation);
    void showEmpty();
    void showSummaryFigures(const PoolObservation &observation);
    void showStaleness();
    void showRecordingRate();

    PoolSession *m_session;
    std::unique_ptr<Ui::FairnessPanel> m_ui;
    QLabel *m_stale;
};

} // namespace poolscope
