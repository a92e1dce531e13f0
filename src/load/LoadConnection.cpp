// The load workers' raw hiredis connection: sending pre-formatted commands, non-blocking reads,
// and turning hiredis failures into RedisError.
#include "load/LoadConnection.h"

#include "base/RedisError.h"
#include "pool/LuaScript.h"

#include <cerrno>
#include <new>
#include <vector>

#include <fcntl.h>
#include <hiredis/hiredis.h>

namespace poolscope::loadrunner_detail {

void ContextDeleter::operator()(redisContext *context) const {
    redisFree(context);
}

void ReplyDeleter::operator()(redisReply *reply) const {
    freeReplyObject(reply);
}

std::string_view textOf(const redisReply &reply) {
    return {reply.str, reply.len};
}

bool isNoScript(const redisReply &reply) {
    // By its code alone: the text after it differs between Redis and Valkey.
    const std::string_view text = textOf(reply);
    return reply.type == REDIS_REPLY_ERROR && text.starts_with("NOSCRIPT") &&
           (text.size() == 8 || text[8] == ' ');
}

FormattedCommand::FormattedCommand(const RedisCommand &argv) {
    std::vector<const char *> args;
    std::vector<size_t> lengths;
    for (const QByteArray &arg : argv) {
        args.push_back(arg.constData());
        lengths.push_back(static_cast<size_t>(arg.size()));
    }
    char *raw = nullptr;
    const int length =
        redisFormatCommandArgv(&raw, static_cast<int>(args.size()), args.data(), lengths.data());
    if (length < 0 || !raw)
        throw std::bad_alloc();
    m_bytes.assign(raw, static_cast<size_t>(length));
    redisFreeCommand(raw);
}

void LoadConnection::append(const FormattedCommand &command) {
    if (redisAppendFormattedCommand(m_context.get(), command.bytes().data(),
                                    command.bytes().size()) != REDIS_OK)
        fail("sending a command");
    m_unflushed = true;
}

void LoadConnection::append(const RedisCommand &argv) {
    std::vector<const char *> args;
    std::vector<size_t> lengths;
    for (const QByteArray &arg : argv) {
        args.push_back(arg.constData());
        lengths.push_back(static_cast<size_t>(arg.size()));
    }
    // *Argv so member names with spaces, quotes or NUL bytes travel intact.
    if (redisAppendCommandArgv(m_context.get(), static_cast<int>(args.size()), args.data(),
                               lengths.data()) != REDIS_OK)
        fail("sending a command");
}

ReplyPtr LoadConnection::read() {
    void *raw = nullptr;
    if (redisGetReply(m_context.get(), &raw) != REDIS_OK || !raw)
        fail("waiting for a reply");
    return ReplyPtr(static_cast<redisReply *>(raw));
}

void LoadConnection::makeNonBlocking() {
    const int flags = fcntl(m_context->fd, F_GETFL);
    if (flags < 0 || fcntl(m_context->fd, F_SETFL, flags | O_NONBLOCK) < 0)
        throw RedisError(RedisError::Kind::Connection,
                         QStringLiteral("cannot make the connection to %1 non-blocking")
                             .arg(m_endpoint.toDisplayString()));
    m_context->flags &= ~REDIS_BLOCK;
}

int LoadConnection::fd() const {
    return m_context->fd;
}

void LoadConnection::flush() {
    int done = 0;
    if (redisBufferWrite(m_context.get(), &done) != REDIS_OK)
        fail("sending commands");
    m_unflushed = done == 0;
}

void LoadConnection::readAvailable() {
    if (redisBufferRead(m_context.get()) != REDIS_OK)
        fail("reading replies");
}

ReplyPtr LoadConnection::nextReply() {
    void *raw = nullptr;
    if (redisGetReplyFromReader(m_context.get(), &raw) != REDIS_OK)
        fail("parsing a reply");
    return ReplyPtr(static_cast<redisReply *>(raw));
}

void LoadConnection::timedOut() const {
    throw RedisError(RedisError::Kind::Timeout, QStringLiteral("no reply from %1 within %2 ms")
                                                    .arg(m_endpoint.toDisplayString())
                                                    .arg(m_commandTimeout.count()));
}

std::unique_ptr<LoadConnection> LoadConnection::open(const Endpoint &endpoint,
                                                     const ConnectionOptions &options,
                                                     const QByteArray &poolKey) {
    // Connected and handshaken (timeouts, AUTH, SELECT, CLIENT SETNAME) the way every poolscope
    // connection is; from then on the raw context is driven here.
    std::unique_ptr<NodeConnection> handshaken =
        RedisConnection::openOwnerOf(poolKey, endpoint, options);
    // Named after the server it reached (for Sentinel endpoints, the primary in use).
    std::unique_ptr<LoadConnection> connection(new LoadConnection(handshaken->endpoint()));
    connection->m_context.reset(handshaken->releaseContext());
    connection->m_commandTimeout = options.commandTimeout;
    // Once per connection: after a restart or failover the script cache is empty. A refusal
    // (ACL) is not fatal: EVALSHA answers NOSCRIPT and the allocation goes out as EVAL.
    connection->command(RedisCommand{"SCRIPT", "LOAD", LuaScript::allocate().source()});
    return connection;
}

void LoadConnection::fail(const char *during) {
    const int error = errno; // before anything else can change it
    redisContext *context = m_context.get();
    if (context->err == REDIS_ERR_IO && (error == EAGAIN || error == EWOULDBLOCK))
        throw RedisError(RedisError::Kind::Timeout,
                         QStringLiteral("no reply from %1 within %2 ms while %3")
                             .arg(m_endpoint.toDisplayString())
                             .arg(m_commandTimeout.count())
                             .arg(QLatin1String(during)));
    const QString reason = context->err == REDIS_ERR_EOF
                               ? QStringLiteral("the server closed the connection")
                               : QString::fromLocal8Bit(context->errstr);
    throw RedisError(RedisError::Kind::Connection,
                     QStringLiteral("connection to %1 lost while %2: %3")
                         .arg(m_endpoint.toDisplayString(), QLatin1String(during), reason));
}

} // namespace poolscope::loadrunner_detail
