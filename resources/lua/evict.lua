-- Move one member from the pool (KEYS[1]) to the evicted hash (KEYS[2]), keeping its count.
-- O(log N); returns {status, count}: "evicted", "already-evicted", "unknown", or "conflict" (the
-- member is in the pool AND has a saved count: nothing is touched, so no count is overwritten).
-- KEYS[3], when given, is the guard's marks hash (member -> id of the guard that evicted it):
-- with ARGV[2] (a guard's id) the eviction is marked as that guard's; without it the eviction is
-- an operator's and the member's mark is dropped, in this same script, so the last action decides
-- whose eviction it is. An operator who may not write KEYS[3] still evicts; the reply's third
-- element is then 'mark-kept'.
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
-- Rights are checked before the first write, so a refusal leaves everything as it was.
local setMark = KEYS[3] and ARGV[2] and ARGV[2] ~= ''
local dropMark = KEYS[3] and not setMark
local mark = false
if setMark and not redis.acl_check_cmd('hset', KEYS[3], ARGV[1], ARGV[2]) then
    return redis.error_reply('NOPERM this user may not write the guard marks hash ' .. KEYS[3])
end
if dropMark and not redis.acl_check_cmd('hdel', KEYS[3], ARGV[1]) then
    dropMark = false
    mark = 'mark-kept'
end
-- ZREM first: it frees memory, so a server at maxmemory still lets the whole move through.
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], count)
if setMark then
    redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
elseif dropMark then
    redis.call('HDEL', KEYS[3], ARGV[1])
end
return {'evicted', count, mark}
