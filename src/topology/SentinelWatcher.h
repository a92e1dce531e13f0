#pragma once

#include "endpoint/Endpoint.h"
#include "endpoint/ConnectionOptions.h"

#include <atomic>
#include <functional>
#include <thread>

#include <QString>

namespace poolscope::topology {

// Listens for +switch-master on one sentinel of a Sentinel endpoint (the first in the preferred
// order that takes the subscription; the next one when its connection breaks), so a poller can
// move to the new primary at once instead of at its next failed poll. Nothing relies on it: the
// poller resolves again on every reconnect anyway.
//
// onSwitched("host:port" of the new primary) is called on the watcher's own thread, for the
// endpoint's master name only. The destructor stops and joins it within about 100 ms (plus a
// connect attempt to a sentinel under way, bounded by 500 ms).
class SentinelWatcher {
public:
    using Callback = std::function<void(const QString &newPrimary)>;
    SentinelWatcher(const Endpoint &endpoint, const ConnectionOptions &options,
                    Callback onSwitched);
    ~SentinelWatcher();
    SentinelWatcher(const SentinelWatcher &) = delete;
    SentinelWatcher &operator=(const SentinelWatcher &) = delete;

private:
    void run();
    void listen(const NodeAddress &sentinel);

    const Endpoint m_endpoint;
    ConnectionOptions m_options;
    const Callback m_onSwitched;
    std::atomic<bool> m_stop{false};
    std::thread m_thread; // last: starts once everything above is set
};

} // namespace poolscope::topology
