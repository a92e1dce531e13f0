-- Move one member from the evicted hash (KEYS[2]) back into the pool (KEYS[1]), and record it in
-- the pool's audit trail (KEYS[3], a capped stream) in the same script.
-- ARGV[1] the trail's cap (XADD MAXLEN ~), ARGV[2..7] why and who: reason, Redis user, host,
-- program, process id, guard id (empty for an operator); ARGV[8] the member, ARGV[9] its id as
-- the trail shows it (credentials masked; empty: the id itself), ARGV[10] policy: keep | zero |
-- start | min, ARGV[11] the agreed starting count.
-- O(log N); returns {status, restored count, saved count, the pool's lowest finite count just
-- before the restore (false for a pool without one)}: read here so a flood forecast has an exact
-- baseline. Nothing is written when the member is also in the pool ("conflict") or when the
-- count the policy gives is not a finite number ("invalid-count": bad data such as inf or nan).
-- KEYS[4], when given, is the guard's marks hash (see evict.lua). With a guard's id the member
-- is restored only while a guard's mark is on it ("not-guards" otherwise: an operator acted on it
-- since), so a guard never undoes an operator's eviction; the mark is dropped with the restore,
-- whoever restores. The fifth element is 'mark-kept' when an operator may not write KEYS[4].
-- Rights and the trail's type are checked before the first write, so a refusal leaves everything
-- as it was (Redis does not undo a script's earlier writes when a later one fails).
if not redis.acl_check_cmd('xadd', KEYS[3], '*', 'action', 'restore') then
    return redis.error_reply('NOPERM this user may not add to the audit trail ' .. KEYS[3] ..
        ' (XADD): nothing was done')
end
local trail = redis.call('TYPE', KEYS[3])['ok']
if trail ~= 'stream' and trail ~= 'none' then
    return redis.error_reply('WRONGTYPE the audit trail ' .. KEYS[3] .. ' holds a ' .. trail ..
        ', not a stream: nothing was done')
end
local member = ARGV[8]
local saved = redis.call('HGET', KEYS[2], member)
local present = redis.call('ZSCORE', KEYS[1], member)
if not saved then
    if present then
        return {'in-pool', false, false, false}
    end
    return {'unknown', false, false, false}
end
if present then
    return {'conflict', present, saved, false}
end
local byGuard = ARGV[7] ~= ''
if byGuard and (not KEYS[4] or redis.call('HEXISTS', KEYS[4], member) == 0) then
    return {'not-guards', false, saved, false}
end
-- The lowest finite count: members at -inf (only bad data puts them there) are skipped.
local lowest = redis.call('ZRANGE', KEYS[1], '(-inf', '(+inf', 'BYSCORE', 'LIMIT', 0, 1,
    'WITHSCORES')[2]
local policy = ARGV[10]
local count
if policy == 'keep' then
    count = saved
elseif policy == 'zero' then
    count = '0'
elseif policy == 'start' then
    count = ARGV[11]
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
local dropMark = KEYS[4] ~= nil
local mark = false
if dropMark and not redis.acl_check_cmd('hdel', KEYS[4], member) then
    if byGuard then
        return redis.error_reply('NOPERM this user may not write the guard marks hash ' .. KEYS[4])
    end
    dropMark = false
    mark = 'mark-kept'
end
-- ZADD first: at maxmemory it is refused before anything is written.
redis.call('ZADD', KEYS[1], count, member)
redis.call('HDEL', KEYS[2], member)
if dropMark then
    redis.call('HDEL', KEYS[4], member)
end
local shown = ARGV[9] ~= '' and ARGV[9] or member
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[1], '*', 'action', 'restore', 'members',
    cjson.encode({{shown, saved, count}}), 'count', 1, 'policy', policy, 'detail', '',
    'reason', ARGV[2], 'user', ARGV[3], 'host', ARGV[4], 'program', ARGV[5], 'pid', ARGV[6],
    'guard', ARGV[7])
return {'restored', count, saved, lowest or false, mark}
