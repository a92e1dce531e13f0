#include "redis/RespParser.h"

#include "base/RedisError.h"
#include "redis/HiredisReply.h"

#include <memory>

#include <hiredis/hiredis.h>

#include <QString>

namespace poolscope {
namespace detail {

RedisReply copyHiredisReply(const redisReply &reply) {
    RedisReply copy;
    switch (reply.type) {
    case REDIS_REPLY_STRING:
        copy.type = RedisReply::Type::String;
        copy.text = QByteArray(reply.str, static_cast<qsizetype>(reply.len));
        break;
    case REDIS_REPLY_STATUS:
        copy.type = RedisReply::Type::Status;
        copy.text = QByteArray(reply.str, static_cast<qsizetype>(reply.len));
        break;
    case REDIS_REPLY_ERROR:
        copy.type = RedisReply::Type::Error;
        copy.text = QByteArray(reply.str, static_cast<qsizetype>(reply.len));
        break;
    case REDIS_REPLY_INTEGER:
        copy.type = RedisReply::Type::Integer;
        copy.integer = reply.integer;
        break;
    case REDIS_REPLY_ARRAY:
        copy.type = RedisReply::Type::Array;
        // hiredis leaves element null for an empty array.
        if (!reply.element)
            break;
        copy.elements.reserve(static_cast<qsizetype>(reply.elements));
        for (size_t i = 0; i < reply.elements; ++i) {
            if (reply.element[i])
                copy.elements.append(copyHiredisReply(*reply.element[i]));
            else
                copy.elements.append(RedisReply{});
        }
        break;
    default:
        copy.type = RedisReply::Type::Nil;
        break;
    }
    return copy;
}

} // namespace detail

namespace {

struct ReaderDeleter {
    void operator()(redisReader *reader) const { redisReaderFree(reader); }
};

// Installed as the reader's object functions: checks the limits, then lets hiredis's own
// functions build the reply. Returning null makes the reader stop with an error.
struct Budget {
    redisReplyObjectFunctions hiredisFunctions{};
    redisReplyObjectFunctions boundedFunctions{};
    RespLimits limits;
    qsizetype used = 0;
    QString refusal; // why we stopped the reader, when we did

    static Budget &of(const redisReadTask *task) { return *static_cast<Budget *>(task->privdata); }

    // Top-level replies cost one; nested ones were paid for by their array.
    bool admitObject(const redisReadTask *task) {
        if (task->parent)
            return true;
        return spend(1);
    }

    bool spend(qsizetype count) {
        if (count > limits.maxReplies - used) {
            refusal = QStringLiteral("more than %1 reply elements").arg(limits.maxReplies);
            return false;
        }
        used += count;
        return true;
    }

    static void *createString(const redisReadTask *task, char *text, size_t length) {
        Budget &budget = of(task);
        return budget.admitObject(task) ? budget.hiredisFunctions.createString(task, text, length)
                                        : nullptr;
    }
    static void *createInteger(const redisReadTask *task, long long value) {
        Budget &budget = of(task);
        return budget.admitObject(task) ? budget.hiredisFunctions.createInteger(task, value)
                                        : nullptr;
    }
    static void *createNil(const redisReadTask *task) {
        Budget &budget = of(task);
        return budget.admitObject(task) ? budget.hiredisFunctions.createNil(task) : nullptr;
    }
    static void *createArray(const redisReadTask *task, int elements) {
        Budget &budget = of(task);
        int depth = 1;
        for (const redisReadTask *parent = task->parent; parent; parent = parent->parent)
            ++depth;
        if (depth > budget.limits.maxDepth) {
            budget.refusal =
                QStringLiteral("arrays nested deeper than %1 levels").arg(budget.limits.maxDepth);
            return nullptr;
        }
        if (elements < 0) {
            budget.refusal = QStringLiteral("an array of negative length %1").arg(elements);
            return nullptr;
        }
        if (!budget.admitObject(task) || !budget.spend(elements))
            return nullptr;
        return budget.hiredisFunctions.createArray(task, elements);
    }
};

} // namespace

QList<RedisReply> parseRespReplies(QByteArrayView bytes, const RespLimits &limits) {
    // Declared before the reader: the reader calls into it until it is freed.
    Budget budget;
    budget.limits = limits;
    std::unique_ptr<redisReader, ReaderDeleter> reader(redisReaderCreate());
    if (!reader || !reader->fn)
        throw RedisError(RedisError::Kind::Connection,
                         QStringLiteral("cannot allocate a Redis reply reader"));
    budget.hiredisFunctions = *reader->fn;
    budget.boundedFunctions = {&Budget::createString, &Budget::createArray, &Budget::createInteger,
                               &Budget::createNil, budget.hiredisFunctions.freeObject};
    reader->fn = &budget.boundedFunctions;
    reader->privdata = &budget;

    auto fail = [&](const QString &reason) {
        return RedisError(RedisError::Kind::Connection,
                          QStringLiteral("malformed Redis reply: %1").arg(reason));
    };
    if (!bytes.isEmpty() &&
        redisReaderFeed(reader.get(), bytes.data(), static_cast<size_t>(bytes.size())) != REDIS_OK)
        throw fail(QString::fromLatin1(reader->errstr));

    QList<RedisReply> replies;
    while (true) {
        void *raw = nullptr;
        if (redisReaderGetReply(reader.get(), &raw) != REDIS_OK) {
            // Keep the reply count in the message: it tells where in a pipeline things broke.
            const QString reason = budget.refusal.isEmpty()
                                       ? QString::fromLatin1(reader->errstr)
                                       : QStringLiteral("refused %1").arg(budget.refusal);
            throw fail(
                QStringLiteral("%1 (after %2 complete replies)").arg(reason).arg(replies.size()));
        }
        if (!raw)
            break;
        const OwnedReply reply(static_cast<redisReply *>(raw));
        replies.append(detail::copyHiredisReply(*reply));
    }
    // A reply cut short leaves unread bytes, or an array whose elements never came (the reader
    // then keeps a task with a known type; an idle reader's first task has type -1).
    const bool midArray = reader->ridx >= 0 && reader->rstack[0].type != -1;
    if (reader->pos < reader->len || midArray)
        throw fail(QStringLiteral("the input ends inside a reply (after %1 complete replies)")
                       .arg(replies.size()));
    return replies;
}

} // namespace poolscope
