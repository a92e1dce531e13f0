#pragma once

#include <memory>

#include <hiredis/hiredis.h>

namespace poolscope {

// An owned hiredis reply, freed with freeReplyObject: one definition for the files that read
// replies straight from hiredis (the connection, the RESP parser, the sentinel watcher).
struct HiredisReplyDeleter {
    void operator()(void *reply) const { freeReplyObject(reply); }
};
using OwnedReply = std::unique_ptr<redisReply, HiredisReplyDeleter>;

} // namespace poolscope
