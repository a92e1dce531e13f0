// The load workers' raw hiredis connection and the pre-formatted commands they send (private to
// src/load; hiredis itself stays in the .cpp files).
#pragma once

#include "client/RedisConnection.h"
#include "endpoint/Endpoint.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

struct redisContext;
struct redisReply;

namespace poolscope::loadrunner_detail {

struct ContextDeleter {
    void operator()(redisContext *context) const;
};
struct ReplyDeleter {
    void operator()(redisReply *reply) const;
};
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

std::string_view textOf(const redisReply &reply);
bool isNoScript(const redisReply &reply);

// A command in RESP, formatted once and sent many times: the hot loop only copies bytes into
// hiredis's output buffer (redis-benchmark does the same).
class FormattedCommand {
public:
    explicit FormattedCommand(const RedisCommand &argv);
    const std::string &bytes() const { return m_bytes; }

private:
    std::string m_bytes;
};

// The load workers' connection: raw hiredis, so a reply is read where hiredis put it instead of
// being copied. Opened and handshaken by NodeConnection, which then hands its context over; plus
// SCRIPT LOAD. Broken for good after any I/O error or timeout (a late reply would be misread).
class LoadConnection {
public:
    // To the server, or in a Redis Cluster to the primary owning `poolKey`'s slot.
    static std::unique_ptr<LoadConnection>
    open(const Endpoint &endpoint, const ConnectionOptions &options, const QByteArray &poolKey);

    void append(const FormattedCommand &command);
    void append(const RedisCommand &argv);
    // Throws RedisError (Timeout or Connection) when no reply comes.
    ReplyPtr read();
    template <typename Command> ReplyPtr command(const Command &command) {
        append(command);
        return read();
    }

    // The server reached: for a Sentinel endpoint, the primary the sentinels named.
    const Endpoint &endpoint() const { return m_endpoint; }
    // After the handshake, for the event loop: nothing below blocks.
    void makeNonBlocking();
    int fd() const;
    // Writes what fits of the buffered commands.
    void flush();
    bool hasUnflushed() const { return m_unflushed; }
    // Reads what has arrived into hiredis's reader.
    void readAvailable();
    // The next complete reply already read, or null.
    ReplyPtr nextReply();
    [[noreturn]] void timedOut() const;

private:
    explicit LoadConnection(const Endpoint &endpoint)
        : m_endpoint(endpoint) {}
    [[noreturn]] void fail(const char *during);

    std::unique_ptr<redisContext, ContextDeleter> m_context;
    Endpoint m_endpoint;
    std::chrono::milliseconds m_commandTimeout{0};
    bool m_unflushed = false;
};

} // namespace poolscope::loadrunner_detail
