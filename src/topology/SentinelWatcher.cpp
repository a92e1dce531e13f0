#include "topology/SentinelWatcher.h"

#include "base/RedisError.h"
#include "redis/HiredisReply.h"
#include "redis/NodeConnection.h"
#include "topology/SentinelResolver.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>

#include <hiredis/hiredis.h>
#include <poll.h>

#include <QStringList>

namespace poolscope::topology {

namespace {

constexpr int kPollSliceMs = 100; // how often the stop flag is looked at
constexpr int kPauseSlices = 10;  // between passes over sentinels that all failed

struct ContextDeleter {
    void operator()(redisContext *context) const { redisFree(context); }
};

QString textOf(const redisReply *reply) {
    return QString::fromUtf8(reply->str, static_cast<qsizetype>(reply->len));
}

} // namespace

SentinelWatcher::SentinelWatcher(const Endpoint &endpoint, const ConnectionOptions &options,
                                 Callback onSwitched)
    : m_endpoint(endpoint)
    , m_options(options)
    , m_onSwitched(std::move(onSwitched))
    , m_thread([this] { run(); }) {}

SentinelWatcher::~SentinelWatcher() {
    m_stop.store(true);
    if (m_thread.joinable())
        m_thread.join();
}

void SentinelWatcher::run() {
    m_options.connectTimeout = std::min(m_options.connectTimeout, kSentinelTimeout);
    m_options.commandTimeout = std::min(m_options.commandTimeout, kSentinelTimeout);
    m_options.clientName = QStringLiteral("poolscope-sentinel-watch");
    while (!m_stop.load()) {
        for (const NodeAddress &sentinel : sentinelOrder(m_endpoint)) {
            if (m_stop.load())
                return;
            listen(sentinel); // returns when its connection fails or on stop
        }
        for (int i = 0; i < kPauseSlices && !m_stop.load(); ++i)
            ::poll(nullptr, 0, kPollSliceMs);
    }
}

void SentinelWatcher::listen(const NodeAddress &sentinel) {
    std::unique_ptr<redisContext, ContextDeleter> context;
    try {
        std::unique_ptr<NodeConnection> connection =
            NodeConnection::open(sentinelNodeEndpoint(m_endpoint, sentinel), m_options);
        if (connection->command({"SUBSCRIBE", "+switch-master"}).isError())
            return;
        context.reset(connection->releaseContext());
    } catch (const RedisError &) {
        return;
    }
    while (!m_stop.load()) {
        pollfd descriptor{context->fd, POLLIN, 0};
        const int ready = ::poll(&descriptor, 1, kPollSliceMs);
        if (ready < 0 && errno != EINTR)
            return;
        if (ready <= 0)
            continue;
        if (redisBufferRead(context.get()) != REDIS_OK)
            return; // the sentinel went away: the next one
        void *raw = nullptr;
        while (redisGetReplyFromReader(context.get(), &raw) == REDIS_OK && raw) {
            const OwnedReply owned(static_cast<redisReply *>(raw));
            const auto *reply = static_cast<const redisReply *>(raw);
            // ["message", "+switch-master", "<name> <old-ip> <old-port> <new-ip> <new-port>"]
            if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 3 ||
                reply->element[2]->type != REDIS_REPLY_STRING ||
                textOf(reply->element[0]) != QLatin1String("message"))
                continue;
            const QStringList parts = textOf(reply->element[2]).split(u' ');
            if (parts.size() == 5 && parts[0] == m_endpoint.masterName)
                m_onSwitched(nodeText({parts[3], parts[4].toInt()}));
        }
        if (context->err)
            return;
    }
}

} // namespace poolscope::topology
