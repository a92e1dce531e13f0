-- Move one member from the evicted hash (KEYS[2]) back into the pool (KEYS[1]).
-- ARGV[1] member, ARGV[2] policy: keep | zero | start | min, ARGV[3] the agreed starting count.
-- O(log N); returns {status, restored count, saved count, the pool's lowest finite count just
-- before the restore (false for a pool without one)}: read here so a flood forecast has an exact
-- baseline. Nothing is written when the member is also in the pool ("conflict") or when the
-- count the policy gives is not a finite number ("invalid-count": bad data such as inf or nan).
-- KEYS[3], when given, is the guard's marks hash (see evict.lua). With ARGV[4] = 'guard' the
-- member is restored only while a guard's mark is on it ("not-guards" otherwise: an operator
-- acted on it since), so a guard never undoes an operator's eviction; the mark is dropped with
-- the restore, whoever restores. The fifth element is 'mark-kept' when an operator may not write
-- KEYS[3].
local saved = redis.call('HGET', KEYS[2], ARGV[1])
local present = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not saved then
    if present then
        return {'in-pool', false, false, false}
    end
    return {'unknown', false, false, false}
end
if present then
    return {'conflict', present, saved, false}
end
local byGuard = ARGV[4] == 'guard'
if byGuard and (not KEYS[3] or redis.call('HEXISTS', KEYS[3], ARGV[1]) == 0) then
    return {'not-guards', false, saved, false}
end
-- The lowest finite count: members at -inf (only bad data puts them there) are skipped.
local lowest = redis.call('ZRANGE', KEYS[1], '(-inf', '(+inf', 'BYSCORE', 'LIMIT', 0, 1,
    'WITHSCORES')[2]
local policy = ARGV[2]
local count
if policy == 'keep' then
    count = saved
elseif policy == 'zero' then
    count = '0'
elseif policy == 'start' then
    count = ARGV[3]
elseif policy == 'min' then
    -- The lowest count in the pool, so the member joins the rotation without a flood.
    -- A pool without a finite count has no minimum: keep the saved count.
    count = lowest or saved
else
    return redis.error_reply('ERR unknown restore policy ' .. tostring(policy))
end
local number = tonumber(count)
if not number or number ~= number or number == math.huge or number == -math.huge then
    return {'invalid-count', count, saved, lowest or false}
end
-- Rights are checked before the first write, so a refusal leaves everything as it was.
local dropMark = KEYS[3] ~= nil
local mark = false
if dropMark and not redis.acl_check_cmd('hdel', KEYS[3], ARGV[1]) then
    if byGuard then
        return redis.error_reply('NOPERM this user may not write the guard marks hash ' .. KEYS[3])
    end
    dropMark = false
    mark = 'mark-kept'
end
-- ZADD first: at maxmemory it is refused before anything is written.
redis.call('ZADD', KEYS[1], count, ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
if dropMark then
    redis.call('HDEL', KEYS[3], ARGV[1])
end
return {'restored', count, saved, lowest or false, mark}
