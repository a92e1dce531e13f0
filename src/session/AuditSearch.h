#pragma once

#include "audit/AuditEntry.h"
#include "audit/AuditTrail.h"
#include "base/Failure.h"
#include "endpoint/Endpoint.h"

#include <memory>

#include <QList>
#include <QObject>

namespace poolscope {

class BackgroundWorker;

// A search of a pool's whole audit trail for the Audit view: an AuditWalk (newest first, bounded
// XREVRANGE pages) on a thread of its own with its own connection ("poolscope-audit"), its
// matches delivered page by page. A new search or cancel() drops the one under way between two
// pages; at most kMaxFound entries are delivered (the view says when it stopped there).
class AuditSearch : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxFound = 20000;

    explicit AuditSearch(QObject *parent = nullptr);
    ~AuditSearch() override;

    void start(const Endpoint &endpoint, const QByteArray &poolKey, const AuditFilter &filter);
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    // The next matches, newest first.
    void entriesFound(const QList<poolscope::AuditEntry> &entries);
    // read: entries of the trail read; complete: the whole trail was walked (else it stopped at
    // kMaxFound matches).
    void searchFinished(qint64 read, bool complete);
    void searchFailed(const poolscope::Failure &failure);

private:
    bool m_running = false;
    std::unique_ptr<BackgroundWorker> m_background; // last: stopped first
};

} // namespace poolscope
