#include "redis/NodeConnection.h"

#include "base/RedisError.h"
#include "redis/ServerIdentity.h"
#include "transport/TcpDialer.h"
#include "transport/Transport.h"

#include <algorithm>
#include <cerrno>
#include <new>
#include <optional>
#include <vector>

#include <unistd.h>

#include <hiredis/hiredis.h>

namespace poolscope {
namespace {

timeval toTimeval(std::chrono::milliseconds duration) {
    timeval tv{};
    tv.tv_sec = static_cast<time_t>(duration.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((duration.count() % 1000) * 1000);
    return tv;
}

// An array's elements are allocated as soon as its header is read, so a broken or hostile server
// sending "*100000000" would make the reader take gigabytes before a single element arrives (a
// RedisReply is about 64 bytes: this limit is 256 MB). No reply poolscope's own reads ask for
// comes near it (pools are read in pages); a 1,000,000-member pool read whole is 2,000,000.
constexpr int kMaxReplyElements = 4 * 1024 * 1024;
const redisReplyObjectFunctions *g_hiredisFunctions = nullptr; // hiredis's own

// hiredis's objects with the element limit: what a context released to the load workers (which
// read hiredis replies themselves) goes back to.
void *createBoundedArray(const redisReadTask *task, int elements) {
    if (elements > kMaxReplyElements)
        return nullptr; // hiredis reports it as REDIS_ERR_OOM; failFromContext says what it was
    return g_hiredisFunctions->createArray(task, elements);
}
void *createString(const redisReadTask *task, char *text, size_t length) {
    return g_hiredisFunctions->createString(task, text, length);
}
void *createInteger(const redisReadTask *task, long long value) {
    return g_hiredisFunctions->createInteger(task, value);
}
void *createNil(const redisReadTask *task) {
    return g_hiredisFunctions->createNil(task);
}
void freeObject(void *reply) {
    g_hiredisFunctions->freeObject(reply);
}
redisReplyObjectFunctions g_boundedFunctions{createString, createBoundedArray, createInteger,
                                             createNil, freeObject};

// The reader builds our RedisReply directly, instead of hiredis's objects that were copied into
// one and freed: a page of a pool's scan is a few hundred strings, and a 10,000-member pool is
// read every second. A nested reply lives in its parent's elements (sized by the array's header,
// so never moved); the root is on the heap until readReply takes it.
void *place(const redisReadTask *task, RedisReply &&reply) {
    if (task->parent) {
        RedisReply &slot =
            static_cast<RedisReply *>(task->parent->obj)->elements[qsizetype(task->idx)];
        slot = std::move(reply);
        return &slot;
    }
    return new (std::nothrow) RedisReply(std::move(reply));
}
void *createReplyString(const redisReadTask *task, char *text, size_t length) {
    RedisReply reply;
    reply.type = task->type == REDIS_REPLY_ERROR    ? RedisReply::Type::Error
                 : task->type == REDIS_REPLY_STATUS ? RedisReply::Type::Status
                                                    : RedisReply::Type::String;
    reply.text = QByteArray(text, qsizetype(length));
    return place(task, std::move(reply));
}
void *createReplyArray(const redisReadTask *task, int elements) {
    if (elements > kMaxReplyElements)
        return nullptr;
    RedisReply reply;
    reply.type = RedisReply::Type::Array;
    reply.elements.resize(std::max(elements, 0));
    return place(task, std::move(reply));
}
void *createReplyInteger(const redisReadTask *task, long long value) {
    RedisReply reply;
    reply.type = RedisReply::Type::Integer;
    reply.integer = value;
    return place(task, std::move(reply));
}
void *createReplyNil(const redisReadTask *task) {
    return place(task, RedisReply{});
}
void freeReply(void *reply) {
    delete static_cast<RedisReply *>(reply); // only ever a root: its elements go with it
}
redisReplyObjectFunctions g_replyFunctions{createReplyString, createReplyArray, createReplyInteger,
                                           createReplyNil, freeReply};

void installReplyFunctions(redisContext *context) {
    if (!context->reader || context->reader->fn == &g_replyFunctions)
        return;
    // Every context starts with the same (static) hiredis functions.
    if (!g_hiredisFunctions)
        g_hiredisFunctions = context->reader->fn;
    context->reader->fn = &g_replyFunctions;
}

} // namespace

void NodeConnection::ContextDeleter::operator()(redisContext *context) const {
    redisFree(context);
}

NodeConnection::NodeConnection(const Endpoint &endpoint, const ConnectionOptions &options)
    : m_endpoint(endpoint)
    , m_options(options) {}

NodeConnection::~NodeConnection() = default;

std::unique_ptr<NodeConnection> NodeConnection::open(const Endpoint &endpoint,
                                                     const ConnectionOptions &options) {
    std::unique_ptr<NodeConnection> connection(new NodeConnection(endpoint, options));
    const timeval connectTimeout = toTimeval(options.connectTimeout);
    redisContext *raw = nullptr;
    // TLS (and later tunnels): the transport makes the stream, hiredis speaks RESP over it.
    if (const std::optional<int> stream = transport::openStream(endpoint, options.connectTimeout)) {
        raw = redisConnectFd(*stream);
        if (!raw)
            ::close(*stream);
    } else if (endpoint.transport == Endpoint::Transport::UnixSocket) {
        raw = redisConnectUnixWithTimeout(endpoint.socketPath.toLocal8Bit().constData(),
                                          connectTimeout);
    } else {
        raw = redisConnectWithTimeout(transport::resolverHost(endpoint.host).toUtf8().constData(),
                                      endpoint.port, connectTimeout);
    }
    if (!raw)
        throw RedisError(RedisError::Kind::Connection,
                         QStringLiteral("cannot allocate a Redis connection"));
    connection->m_context.reset(raw);
    if (raw->err) {
        const bool timedOut = raw->err == REDIS_ERR_IO &&
                              (errno == EAGAIN || errno == EINPROGRESS || errno == ETIMEDOUT);
        const QString reason = timedOut ? QStringLiteral("connect timed out after %1 ms")
                                              .arg(options.connectTimeout.count())
                                        : QString::fromLocal8Bit(raw->errstr);
        throw RedisError(
            timedOut ? RedisError::Kind::Timeout : RedisError::Kind::Connection,
            QStringLiteral("cannot connect to %1: %2").arg(endpoint.toDisplayString(), reason));
    }
    // redisConnectWithTimeout bounds only the connect; commands need their own timeout.
    redisSetTimeout(raw, toTimeval(options.commandTimeout));
    installReplyFunctions(raw);
    connection->handshake();
    connection->m_handshaken = true;
    return connection;
}

redisContext *NodeConnection::releaseContext() {
    m_broken = true; // nothing more can be sent through this object
    // Its new owner reads hiredis's own reply objects (with the element limit).
    if (m_context && m_context->reader && m_context->reader->fn == &g_replyFunctions)
        m_context->reader->fn = &g_boundedFunctions;
    return m_context.release();
}

void NodeConnection::handshake() {
    // A user name alone still needs AUTH: without it the connection would run as "default" and
    // the named user's restrictions would silently not apply. Redis accepts AUTH user "" for a
    // nopass user (and refuses it with WRONGPASS for any other).
    if (!m_endpoint.password.isEmpty() || !m_endpoint.username.isEmpty()) {
        RedisCommand auth{"AUTH"};
        if (!m_endpoint.username.isEmpty())
            auth << m_endpoint.username.toUtf8();
        auth << m_endpoint.password.toUtf8();
        const RedisReply reply = command(auth);
        if (reply.isError()) {
            const QString user =
                m_endpoint.username.isEmpty() ? QStringLiteral("default") : m_endpoint.username;
            throw RedisError(
                RedisError::Kind::Authentication,
                QStringLiteral("authentication as user \"%1\" on %2 failed: %3")
                    .arg(user, m_endpoint.toDisplayString(), QString::fromUtf8(reply.text)),
                reply.errorCode());
        }
    }
    if (m_endpoint.database != 0) {
        const RedisReply reply = command({"SELECT", QByteArray::number(m_endpoint.database)});
        if (reply.isError() && reply.text.contains("cluster mode"))
            throw RedisError(RedisError::Kind::Usage,
                             QStringLiteral("%1 is a Redis Cluster node, and a cluster has "
                                            "database 0 only: remove /%2 from the URL")
                                 .arg(m_endpoint.toDisplayString())
                                 .arg(m_endpoint.database),
                             reply.errorCode());
        if (reply.isError())
            throw RedisError(RedisError::Kind::Server,
                             QStringLiteral("cannot select database %1 on %2: %3")
                                 .arg(m_endpoint.database)
                                 .arg(m_endpoint.toDisplayString(), QString::fromUtf8(reply.text)),
                             reply.errorCode());
    }
    if (!m_options.clientName.isEmpty()) {
        // Naming is a courtesy for operators; a server that refuses it (ACL) is still usable.
        command({"CLIENT", "SETNAME", m_options.clientName.toUtf8()});
    }
    // One round trip for both: the version, and whether this is a cluster node.
    append({"INFO", "server"});
    append({"INFO", "cluster"});
    const RedisReply info = readReply();
    m_clusterNode = readReply().text.contains("cluster_enabled:1");
    if (info.isError() && info.errorCode() == "NOAUTH")
        throw RedisError(RedisError::Kind::Authentication,
                         QStringLiteral("%1 requires a password: %2")
                             .arg(m_endpoint.toDisplayString(), QString::fromUtf8(info.text)),
                         info.errorCode());
    if (info.type == RedisReply::Type::String)
        m_serverVersion = serverVersionFromInfo(info.text);
}

void NodeConnection::failFromContext(const char *during) {
    const int savedErrno = errno;
    m_broken = true;
    redisContext *context = m_context.get();
    const bool timedOut = context->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
    if (timedOut)
        throw RedisError(RedisError::Kind::Timeout,
                         QStringLiteral("no reply from %1 within %2 ms while %3")
                             .arg(m_endpoint.toDisplayString())
                             .arg(m_options.commandTimeout.count())
                             .arg(QLatin1String(during)));
    QString reason = QString::fromLocal8Bit(context->errstr);
    m_closedWhileIdle =
        m_handshaken && m_sentAfterIdle &&
        (context->err == REDIS_ERR_EOF ||
         (context->err == REDIS_ERR_IO && (savedErrno == ECONNRESET || savedErrno == EPIPE)));
    if (context->err == REDIS_ERR_EOF)
        reason = QStringLiteral("the server closed the connection");
    else if (context->err == REDIS_ERR_OOM)
        reason = QStringLiteral("a reply larger than poolscope accepts (over %1 elements), or out "
                                "of memory: is this a Redis server?")
                     .arg(kMaxReplyElements);
    // A TLS server drops a plain client at its first command, with a reset or garbage.
    if (!m_handshaken && !m_endpoint.tls.enabled &&
        m_endpoint.transport == Endpoint::Transport::Tcp &&
        (context->err == REDIS_ERR_EOF || context->err == REDIS_ERR_PROTOCOL ||
         (context->err == REDIS_ERR_IO && savedErrno == ECONNRESET)))
        reason += QStringLiteral(" (is this a TLS port? use rediss://)");
    throw RedisError(RedisError::Kind::Connection,
                     QStringLiteral("connection to %1 lost while %2: %3")
                         .arg(m_endpoint.toDisplayString(), QLatin1String(during), reason));
}

void NodeConnection::append(const RedisCommand &argv) {
    if (m_broken)
        throw RedisError(
            RedisError::Kind::Connection,
            QStringLiteral("connection to %1 is broken").arg(m_endpoint.toDisplayString()));
    std::vector<const char *> args;
    std::vector<size_t> lengths;
    args.reserve(static_cast<size_t>(argv.size()));
    lengths.reserve(static_cast<size_t>(argv.size()));
    for (const QByteArray &arg : argv) {
        args.push_back(arg.constData());
        lengths.push_back(static_cast<size_t>(arg.size()));
    }
    if (m_unanswered == 0)
        m_sentAfterIdle = std::chrono::steady_clock::now() - m_lastReplyAt >= kIdleGap;
    ++m_unanswered;
    // *Argv so member names with spaces, quotes or NUL bytes travel intact.
    if (redisAppendCommandArgv(m_context.get(), static_cast<int>(args.size()), args.data(),
                               lengths.data()) != REDIS_OK)
        failFromContext("sending a command");
}

RedisReply NodeConnection::readReply() {
    if (m_broken)
        throw RedisError(
            RedisError::Kind::Connection,
            QStringLiteral("connection to %1 is broken").arg(m_endpoint.toDisplayString()));
    void *raw = nullptr;
    if (redisGetReply(m_context.get(), &raw) != REDIS_OK || !raw)
        failFromContext("waiting for a reply");
    const std::unique_ptr<RedisReply> reply(static_cast<RedisReply *>(raw)); // see place()
    m_lastReplyAt = std::chrono::steady_clock::now();
    m_sentAfterIdle = false; // it answered: a later loss is no idle close
    m_unanswered = std::max<qsizetype>(0, m_unanswered - 1);
    return std::move(*reply);
}

RedisReply NodeConnection::command(const RedisCommand &argv) {
    append(argv);
    return readReply();
}

RedisReply NodeConnection::commandOrThrow(const RedisCommand &argv) {
    return replyOrThrow(argv, command(argv));
}

RedisReply replyOrThrow(const RedisCommand &argv, RedisReply reply) {
    if (reply.isError())
        throw RedisError(RedisError::Kind::Server,
                         QStringLiteral("%1 failed: %2")
                             .arg(QString::fromUtf8(argv.value(0)), QString::fromUtf8(reply.text)),
                         reply.errorCode());
    return reply;
}

QList<RedisReply> NodeConnection::pipeline(const QList<RedisCommand> &commands) {
    for (const RedisCommand &argv : commands)
        append(argv);
    QList<RedisReply> replies;
    replies.reserve(commands.size());
    for (qsizetype i = 0; i < commands.size(); ++i)
        replies.append(readReply());
    return replies;
}

} // namespace poolscope
