-- Move a pool's evicted hash from its pre-0.2 name (KEYS[1]) to its current one (KEYS[2]), for
-- the pool KEYS[3], and record the move in the pool's audit trail (KEYS[4], a capped stream) in
-- the same script; KEYS[5..] are the other pool keys that shared the old name. ARGV[1] the
-- trail's cap (XADD MAXLEN ~), ARGV[2..7] why and who: reason, Redis user, host, program,
-- process id, guard id (empty). One RENAME, so O(1) for the server; refuses (and changes nothing)
-- when the move is not unambiguous.
-- Returns {status, detail}: "moved" (fields moved), "nothing" (no old hash), "not-hash" (its
-- type), "shared" (a pool key that also used the old name exists), "target-exists" (fields in
-- the new hash already).
-- Rights and the trail's type are checked before the first write, so a refusal leaves everything
-- as it was (Redis does not undo a script's earlier writes when a later one fails).
if not redis.acl_check_cmd('xadd', KEYS[4], '*', 'action', 'migrate-companion') then
    return redis.error_reply('NOPERM this user may not add to the audit trail ' .. KEYS[4] ..
        ' (XADD): nothing was done')
end
local trail = redis.call('TYPE', KEYS[4])['ok']
if trail ~= 'stream' and trail ~= 'none' then
    return redis.error_reply('WRONGTYPE the audit trail ' .. KEYS[4] .. ' holds a ' .. trail ..
        ', not a stream: nothing was done')
end
if redis.call('EXISTS', KEYS[1]) == 0 then
    return {'nothing', false}
end
local oldType = redis.call('TYPE', KEYS[1])['ok']
if oldType ~= 'hash' then
    return {'not-hash', oldType}
end
for i = 5, #KEYS do
    if redis.call('EXISTS', KEYS[i]) == 1 then
        return {'shared', KEYS[i]}
    end
end
if redis.call('EXISTS', KEYS[2]) == 1 then
    return {'target-exists', redis.call('HLEN', KEYS[2])}
end
redis.call('RENAME', KEYS[1], KEYS[2])
local moved = redis.call('HLEN', KEYS[2])
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[1], '*', 'action', 'migrate-companion',
    'members', '[]', 'count', moved, 'policy', '', 'detail', KEYS[1] .. ' -> ' .. KEYS[2],
    'reason', ARGV[2], 'user', ARGV[3], 'host', ARGV[4], 'program', ARGV[5], 'pid', ARGV[6],
    'guard', ARGV[7])
return {'moved', moved}
