#include "health/HealthChecker.h"

#include "health/Checkability.h"
#include "health/ProxyCheck.h"

#include <curl/curl.h>

#include <QElapsedTimer>

#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace poolscope {
namespace {

using health::Clock;
using health::ProxyCheck;

// State shared by the round's threads.
struct RoundState {
    RoundState(const QList<QByteArray> &m, const CheckOptions &o)
        : members(m)
        , options(o) {}
    const QList<QByteArray> &members;
    const CheckOptions &options;
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

// One thread's share of the round: its checks are transfers on one libcurl multi handle.
void runThread(RoundState &state, int share) {
    CURLM *multi = curl_multi_init();
    std::vector<std::unique_ptr<ProxyCheck>> active;
    std::vector<qsizetype> activeIndex;
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
            if (!proxy || !(reason = notCheckableReason(*proxy)).isEmpty()) {
                result.outcome = CheckOutcome::NotCheckable;
                result.detail = reason;
                state.inFlight.fetch_sub(1);
                continue;
            }
            active.push_back(
                std::make_unique<ProxyCheck>(member, *proxy, state.options, state.opened));
            activeIndex.push_back(index);
            curl_multi_add_handle(multi, active.back()->easyHandle());
        }
        if (active.empty()) {
            if (exhausted || state.stopping())
                break;
            // Waiting for the rate cap or for a free slot held by another thread.
            std::this_thread::sleep_for(
                std::max(rateWait, std::chrono::milliseconds(rateWait.count() ? 0 : 2)));
            continue;
        }
        int running = 0;
        curl_multi_perform(multi, &running);
        int queued = 0;
        while (CURLMsg *message = curl_multi_info_read(multi, &queued)) {
            ProxyCheck *check = nullptr;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, &check);
            if (message->msg == CURLMSG_DONE && check)
                check->finish(message->data.result);
        }
        now = Clock::now();
        Clock::time_point earliest = now + std::chrono::seconds(1);
        for (size_t i = active.size(); i-- > 0;) {
            ProxyCheck &check = *active[i];
            if (state.stopping())
                check.interrupt();
            check.checkDeadline(now);
            if (!check.finished()) {
                earliest = std::min(earliest, check.deadline());
                continue;
            }
            curl_multi_remove_handle(multi, check.easyHandle());
            state.results[size_t(activeIndex[i])] = check.result();
            state.inFlight.fetch_sub(1);
            active.erase(active.begin() + qsizetype(i));
            activeIndex.erase(activeIndex.begin() + qsizetype(i));
        }
        // Wake for the first deadline, and often enough to see a stop or a free slot.
        auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(earliest - now) +
                       std::chrono::milliseconds(1);
        if (state.stop)
            timeout = std::min(timeout, std::chrono::milliseconds(50));
        if (rateWait.count() > 0 || (!exhausted && int(active.size()) < share))
            timeout = std::min(timeout, std::max(rateWait, std::chrono::milliseconds(5)));
        if (!active.empty())
            curl_multi_poll(multi, nullptr, 0, int(std::max<qint64>(timeout.count(), 0)), nullptr);
    }
    curl_multi_cleanup(multi);
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
    static const CURLcode curlStarted =
        curl_global_init(CURL_GLOBAL_DEFAULT); // thread-safe in 7.84+
    const int threads = std::max(1, std::min(options.threads, int(members.size())));
    const int share = std::max(1, (std::max(1, options.concurrency) + threads - 1) / threads);
    if (curlStarted != CURLE_OK) {
        for (qsizetype i = 0; i < members.size(); ++i)
            state.results[size_t(i)] = {members[i], CheckOutcome::NetworkError,
                                        QStringLiteral("libcurl did not start")};
    } else {
        std::vector<std::thread> pool;
        for (int i = 1; i < threads; ++i)
            pool.emplace_back([&state, share] { runThread(state, share); });
        runThread(state, share);
        for (std::thread &thread : pool)
            thread.join();
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
