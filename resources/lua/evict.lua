-- Move one member from the pool (KEYS[1]) to the evicted hash (KEYS[2]), keeping its count.
-- O(log N); returns {status, count}: "evicted", "already-evicted", "unknown", or "conflict" (the
-- member is in the pool AND has a saved count: nothing is touched, so no count is overwritten).
local count = redis.call('ZSCORE', KEYS[1], ARGV[1])
local saved = redis.call('HGET', KEYS[2], ARGV[1])
if not count then
    if saved then
        return {'already-evicted', saved}
    end
    return {'unknown', false}
end
if saved then
    return {'conflict', count, saved}
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], count)
return {'evicted', count}
