-- Move one member from the pool (KEYS[1]) to the evicted hash (KEYS[2]), keeping its count, and
-- record it in the pool's audit trail (KEYS[3], a capped stream) in the same script: no eviction
-- without its entry, no entry without its eviction.
-- ARGV[1] the trail's cap (XADD MAXLEN ~), ARGV[2..7] why and who: reason, Redis user, host,
-- program, process id, guard id (empty for an operator); ARGV[8] the member, ARGV[9] its id as
-- the trail shows it (credentials masked; empty: the id itself).
-- O(log N); returns {status, count}: "evicted", "already-evicted", "unknown", or "conflict" (the
-- member is in the pool AND has a saved count: nothing is touched, so no count is overwritten).
-- KEYS[4], when given, is the guard's marks hash (member -> id of the guard that evicted it):
-- with a guard's id the eviction is marked as that guard's; without it the eviction is an
-- operator's and the member's mark is dropped, in this same script, so the last action decides
-- whose eviction it is. An operator who may not write KEYS[4] still evicts; the reply's third
-- element is then 'mark-kept'.
-- Rights and the trail's type are checked before the first write, so a refusal leaves everything
-- as it was (Redis does not undo a script's earlier writes when a later one fails).
if not redis.acl_check_cmd('xadd', KEYS[3], '*', 'action', 'evict') then
    return redis.error_reply('NOPERM this user may not add to the audit trail ' .. KEYS[3] ..
        ' (XADD): nothing was done')
end
local trail = redis.call('TYPE', KEYS[3])['ok']
if trail ~= 'stream' and trail ~= 'none' then
    return redis.error_reply('WRONGTYPE the audit trail ' .. KEYS[3] .. ' holds a ' .. trail ..
        ', not a stream: nothing was done')
end
local member = ARGV[8]
local count = redis.call('ZSCORE', KEYS[1], member)
local saved = redis.call('HGET', KEYS[2], member)
if not count then
    if saved then
        return {'already-evicted', saved}
    end
    return {'unknown', false}
end
if saved then
    return {'conflict', count, saved}
end
local guard = ARGV[7]
local setMark = KEYS[4] and guard ~= ''
local dropMark = KEYS[4] and not setMark
local mark = false
if setMark and not redis.acl_check_cmd('hset', KEYS[4], member, guard) then
    return redis.error_reply('NOPERM this user may not write the guard marks hash ' .. KEYS[4])
end
if dropMark and not redis.acl_check_cmd('hdel', KEYS[4], member) then
    dropMark = false
    mark = 'mark-kept'
end
-- ZREM first: it frees memory, so a server at maxmemory still lets the whole move through.
redis.call('ZREM', KEYS[1], member)
redis.call('HSET', KEYS[2], member, count)
if setMark then
    redis.call('HSET', KEYS[4], member, guard)
elseif dropMark then
    redis.call('HDEL', KEYS[4], member)
end
local shown = ARGV[9] ~= '' and ARGV[9] or member
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[1], '*', 'action', 'evict', 'members',
    cjson.encode({{shown, count, count}}), 'count', 1, 'policy', '', 'detail', '',
    'reason', ARGV[2], 'user', ARGV[3], 'host', ARGV[4], 'program', ARGV[5], 'pid', ARGV[6],
    'guard', guard)
return {'evicted', count, mark}
