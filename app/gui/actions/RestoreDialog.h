#pragma once

#include "session/Forecast.h"
#include "pool/PoolTypes.h"

#include <memory>

#include <QByteArray>
#include <QDialog>
#include <QList>

class QPushButton;

namespace Ui {
class RestoreDialog;
}

namespace poolscope {

class ReasonField;

class PoolSession;

// Chooses how evicted members come back (keep, zero, start, min), explains each policy in one
// line and shows, live with every poll, the forecast: "this member will receive the next ~N
// allocations, about T s at the current rate", N = pool minimum - restored count; or, above the
// minimum, how many allocations it waits for before its first one.
class RestoreDialog : public QDialog {
    Q_OBJECT

public:
    RestoreDialog(PoolSession *session, const QList<QByteArray> &members,
                  QWidget *parent = nullptr);
    ~RestoreDialog() override;

    const QList<QByteArray> &members() const { return m_members; }
    void setPolicy(RestorePolicy policy);
    RestorePolicy policy() const;
    double startCount() const;
    // Why, for the pool's audit trail (empty: none).
    QString reason() const;
    ReasonField *reasonField() const { return m_reason; }
    void setStartCount(const QString &text);
    FloodForecast forecast() const;
    // The wait of members restored above the pool minimum (no allocations until it catches up).
    StarvationForecast starvation() const;
    QString forecastText() const;
    QString descriptionText() const;
    QPushButton *restoreButton() const { return m_restoreButton; }

private:
    void updateForecast();
    QList<double> savedCounts() const;

    PoolSession *m_session;
    QList<QByteArray> m_members;
    std::unique_ptr<Ui::RestoreDialog> m_ui;
    ReasonField *m_reason;
    QPushButton *m_restoreButton;
};

} // namespace poolscope
