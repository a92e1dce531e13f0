#include "health/HealthChecker.h"

#include "health/Checkability.h"
#include "health/ProxyProbe.h"
#include "health/TlsStack.h"

#include <QElapsedTimer>

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace poolscope {
namespace {

using health::Clock;
using health::ProxyProbe;

// State shared by the round's threads.
struct RoundState {
    RoundState(const QList<QByteArray> &m, const CheckOptions &o)
        : members(m)
        , options(o) {}
    const QList<QByteArray> &members;
    const CheckOptions &options;
    SSL_CTX *tlsContext = nullptr;
    const std::atomic<bool> *stop = nullptr;
    std::vector<CheckResult> results;
    std::atomic<qsizetype> next{0};
    std::atomic<int> inFlight{0};
    std::atomic<qint64> opened{0};
    std::mutex rateMutex;
    Clock::time_point nextStart = Clock::now();

    bool stopping() const { return stop && stop->load(); }
    // Whether a check may start now; else how long until one may (rate cap).
    bool takeRateSlot(Clock::time_point now, std::chrono::milliseconds &wait) {
        if (options.ratePerSecond <= 0)
            return true;
        std::lock_guard lock(rateMutex);
        if (now < nextStart) {
            wait = std::chrono::duration_cast<std::chrono::milliseconds>(nextStart - now) +
                   std::chrono::milliseconds(1);
            return false;
        }
        const auto step = std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(1.0 / options.ratePerSecond));
        nextStart = std::max(nextStart + step, now - step * 10); // small bursts after idling
        return true;
    }
};

struct Resolved {
    sockaddr_storage address{};
    socklen_t length = 0;
};

// The proxy's address, or the reason it is not checked. Names are resolved here (blocking:
// getaddrinfo has no deadline; IP literals cost nothing).
std::optional<Resolved> resolve(const ProxyEntry &proxy, QString *reason) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *found = nullptr;
    const QByteArray host = proxy.host.toUtf8();
    const QByteArray port = QByteArray::number(proxy.port);
    if (const int error = getaddrinfo(host.constData(), port.constData(), &hints, &found);
        error != 0) {
        *reason = QStringLiteral("cannot resolve %1: %2")
                      .arg(proxy.host, QString::fromLocal8Bit(gai_strerror(error)));
        return std::nullopt;
    }
    std::optional<Resolved> result;
    if (const QString problem = notCheckableAddress(found->ai_addr); !problem.isEmpty()) {
        *reason = QStringLiteral("%1 %2").arg(proxy.host, problem);
    } else {
        result.emplace();
        std::memcpy(&result->address, found->ai_addr, found->ai_addrlen);
        result->length = found->ai_addrlen;
    }
    freeaddrinfo(found);
    return result;
}

void runThread(RoundState &state, int share) {
    std::vector<std::unique_ptr<ProxyProbe>> active;
    std::vector<qsizetype> activeIndex;
    std::vector<pollfd> fds;
    bool exhausted = false;
    for (;;) {
        Clock::time_point now = Clock::now();
        std::chrono::milliseconds rateWait{0};
        // Start what the limits allow.
        while (!exhausted && !state.stopping() && int(active.size()) < share) {
            if (state.inFlight.fetch_add(1) >= state.options.concurrency) {
                state.inFlight.fetch_sub(1);
                break;
            }
            if (!state.takeRateSlot(now, rateWait)) {
                state.inFlight.fetch_sub(1);
                break;
            }
            const qsizetype index = state.next.fetch_add(1);
            if (index >= state.members.size()) {
                state.inFlight.fetch_sub(1);
                exhausted = true;
                break;
            }
            const QByteArray &member = state.members[index];
            CheckResult &result = state.results[size_t(index)];
            result.member = member;
            QString reason;
            const std::optional<ProxyEntry> proxy = proxyOfMember(member, &reason);
            std::optional<Resolved> address;
            if (proxy && (reason = notCheckableReason(*proxy)).isEmpty())
                address = resolve(*proxy, &reason);
            if (!address) {
                result.outcome = CheckOutcome::NotCheckable;
                result.detail = reason;
                state.inFlight.fetch_sub(1);
                continue;
            }
            auto probe =
                std::make_unique<ProxyProbe>(member, *proxy, state.options, state.tlsContext);
            state.opened.fetch_add(1);
            probe->start(reinterpret_cast<const sockaddr *>(&address->address), address->length,
                         now);
            if (probe->finished()) {
                result = probe->result();
                state.inFlight.fetch_sub(1);
                continue;
            }
            active.push_back(std::move(probe));
            activeIndex.push_back(index);
        }
        if (active.empty()) {
            if (exhausted || state.stopping())
                break;
            // Waiting for the rate cap or for a free slot held by another thread.
            std::this_thread::sleep_for(
                std::max(rateWait, std::chrono::milliseconds(rateWait.count() ? 0 : 2)));
            continue;
        }
        Clock::time_point earliest = active.front()->deadline();
        fds.resize(active.size());
        for (size_t i = 0; i < active.size(); ++i) {
            fds[i] = {active[i]->fd(), active[i]->pollEvents(), 0};
            earliest = std::min(earliest, active[i]->deadline());
        }
        auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(earliest - now) +
                       std::chrono::milliseconds(1);
        if (rateWait.count() > 0 || (!exhausted && int(active.size()) < share))
            timeout = std::min(timeout, std::max(rateWait, std::chrono::milliseconds(5)));
        ::poll(fds.data(), nfds_t(fds.size()), int(std::max<qint64>(timeout.count(), 0)));
        now = Clock::now();
        for (size_t i = 0; i < active.size(); ++i) {
            if (fds[i].revents)
                active[i]->handle(fds[i].revents, now);
            active[i]->checkDeadline(now);
        }
        for (size_t i = active.size(); i-- > 0;) {
            if (!active[i]->finished())
                continue;
            state.results[size_t(activeIndex[i])] = active[i]->result();
            state.inFlight.fetch_sub(1);
            active.erase(active.begin() + qsizetype(i));
            activeIndex.erase(activeIndex.begin() + qsizetype(i));
        }
    }
}

} // namespace

CheckRound runCheckRound(const QList<QByteArray> &members, const CheckOptions &options,
                         const std::atomic<bool> *stop) {
    QElapsedTimer timer;
    timer.start();
    CheckRound round;
    RoundState state(members, options);
    state.stop = stop;
    state.results.resize(size_t(members.size()));
    QString tlsError;
    state.tlsContext =
        health::TlsStack::makeContext(options.caFile, options.tlsInsecure, &tlsError);
    const int threads = std::max(1, std::min(options.threads, int(members.size())));
    const int share = std::max(1, (std::max(1, options.concurrency) + threads - 1) / threads);
    if (!state.tlsContext) {
        for (qsizetype i = 0; i < members.size(); ++i)
            state.results[size_t(i)] = {members[i], CheckOutcome::TlsError, tlsError};
    } else {
        std::vector<std::thread> pool;
        for (int i = 1; i < threads; ++i)
            pool.emplace_back([&state, share] { runThread(state, share); });
        runThread(state, share);
        for (std::thread &thread : pool)
            thread.join();
        health::TlsStack::freeContext(state.tlsContext);
    }
    for (qsizetype i = 0; i < members.size(); ++i) {
        CheckResult &result = state.results[size_t(i)];
        if (result.member.isEmpty()) { // never started: the round was stopped
            result.member = members[i];
            result.outcome = CheckOutcome::NotCheckable;
            result.detail = QStringLiteral("interrupted before this check started");
        }
    }
    round.results = QList<CheckResult>(state.results.begin(), state.results.end());
    round.elapsedMs = timer.elapsed();
    round.connectionsOpened = state.opened.load();
    return round;
}

} // namespace poolscope
