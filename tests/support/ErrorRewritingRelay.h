#pragma once

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include <QByteArray>
#include <QByteArrayList>
#include <QString>

namespace poolscope::testing {

// A relay on 127.0.0.1 in front of a real redis-server that the test started: every byte goes
// through, except that each NOPERM, WRONGTYPE and READONLY error reply keeps its code (the first
// word) and gets another text after it, as another server (Valkey, a newer Redis) might word it. A
// dashboard that decides on the code decides the same through it; one that matched Redis's words no
// longer would. Blocking I/O, a thread per connection: simple, and enough here.
class ErrorRewritingRelay {
public:
    // The text those errors get after their code.
    static constexpr const char *kText = "refused, in words no Redis uses (test relay)";
    inline static const QByteArrayList kCodes{"NOPERM", "WRONGTYPE", "READONLY"};

    explicit ErrorRewritingRelay(quint16 serverPort);
    ~ErrorRewritingRelay();
    ErrorRewritingRelay(const ErrorRewritingRelay &) = delete;
    ErrorRewritingRelay &operator=(const ErrorRewritingRelay &) = delete;

    // QVERIFY-friendly: false with the reason in error().
    bool start();
    void stop();
    const QString &error() const { return m_error; }
    quint16 port() const { return m_port; }
    // Error replies rewritten so far.
    int rewritten() const { return m_rewritten.load(); }

    // Copies one complete RESP2 reply at `at` into `out` with its errors (nested ones too)
    // rewritten; returns where it ends, or -1 when the reply is not complete yet.
    static qsizetype rewriteReply(const QByteArray &in, qsizetype at, QByteArray &out, int *errors);

private:
    void acceptLoop();
    void relay(int client);

    quint16 m_serverPort;
    quint16 m_port = 0;
    QString m_error;
    int m_listener = -1;
    int m_wakePipe[2] = {-1, -1};
    std::atomic<bool> m_stopping{false};
    std::atomic<int> m_rewritten{0};
    std::thread m_acceptThread;
    std::mutex m_mutex;
    std::vector<std::thread> m_threads;
    std::vector<int> m_sockets;
};

} // namespace poolscope::testing
