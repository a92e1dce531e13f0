#pragma once

#include <QList>
#include <QObject>

class QSocketNotifier;

namespace poolscope {

// Turns SIGINT/SIGTERM (or any given signals) into a Qt signal on the thread that created the
// watcher, with the self-pipe trick: the handler only write()s the signal number to a pipe, a
// QSocketNotifier reads it in the event loop. One watcher per process.
class UnixSignalWatcher : public QObject {
    Q_OBJECT

public:
    explicit UnixSignalWatcher(const QList<int> &signalNumbers, QObject *parent = nullptr);
    ~UnixSignalWatcher() override; // restores the previous handlers

    bool isActive() const { return m_notifier != nullptr; }

Q_SIGNALS:
    void signalReceived(int signalNumber);

private:
    void readPipe();

    QList<int> m_signals;
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace poolscope
