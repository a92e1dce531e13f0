#pragma once

#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace poolscope {

class PoolSession;
struct LogEntry;

// What happened, newest first: connections, seeds, evictions, restores (with their forecast),
// test runs and every error, with the time. Long lines wrap instead of being cut. Errors come
// here and to the status bar, never into a pile of modal boxes. Bounded: the oldest entries fall
// off past kMaxEntries. Proxy credentials in the text are masked unless the session shows them
// (PoolSession::credentialsShown); toggling that re-renders every entry.
class EventsPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMaxEntries = 2000;

    explicit EventsPanel(PoolSession *session, QWidget *parent = nullptr);
    ~EventsPanel() override;

    void addEntry(const LogEntry &entry);
    int entryCount() const;
    // The text of the entry at row (0 = newest), without the time, as shown (masked or not).
    QString entryText(int row) const;
    QListWidget *view() const { return m_view; }

private:
    void renderEntry(QListWidgetItem *item);
    void renderAll();

    PoolSession *m_session;
    QListWidget *m_view;
};

} // namespace poolscope
