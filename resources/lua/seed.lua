-- Add a small batch of members to the pool (KEYS[1]) and record what it changed in the pool's
-- audit trail (KEYS[3], a capped stream) in the same script.
-- ARGV[1] the trail's cap (XADD MAXLEN ~), ARGV[2..7] why and who: reason, Redis user, host,
-- program, process id, guard id (empty).
-- ARGV[8] is the count new members get, or 'min': the pool's lowest finite count at the moment
-- this batch runs (so no batch lands below a minimum that moved during the seed), ARGV[10] when
-- the pool has no finite count yet. ARGV[9] = '1' overwrites the count of members already in the
-- pool. ARGV[11..] are pairs: a member, then its id as the trail shows it (credentials masked;
-- empty: the id itself).
-- Members in the evicted hash (KEYS[2]) are never re-added here: restore them instead.
-- The caller sends at most a few hundred members per call, so the loop stays short.
-- Returns {the count used, {one status per member: 0 added, 1 already present (kept),
-- 2 overwritten, 3 evicted}}. A batch that changes nothing adds no entry.
-- Rights and the trail's type are checked before the first write, so a refusal leaves everything
-- as it was (Redis does not undo a script's earlier writes when a later one fails).
if not redis.acl_check_cmd('xadd', KEYS[3], '*', 'action', 'seed') then
    return redis.error_reply('NOPERM this user may not add to the audit trail ' .. KEYS[3] ..
        ' (XADD): nothing was done')
end
local trail = redis.call('TYPE', KEYS[3])['ok']
if trail ~= 'stream' and trail ~= 'none' then
    return redis.error_reply('WRONGTYPE the audit trail ' .. KEYS[3] .. ' holds a ' .. trail ..
        ', not a stream: nothing was done')
end
local count = ARGV[8]
if count == 'min' then
    count = redis.call('ZRANGE', KEYS[1], '(-inf', '(+inf', 'BYSCORE', 'LIMIT', 0, 1,
        'WITHSCORES')[2] or ARGV[10]
end
local result = {}
local changed = {}
local kept, evicted = 0, 0
for i = 11, #ARGV, 2 do
    local member = ARGV[i]
    local shown = ARGV[i + 1] ~= '' and ARGV[i + 1] or member
    if redis.call('HEXISTS', KEYS[2], member) == 1 then
        result[#result + 1] = 3
        evicted = evicted + 1
    else
        local before = redis.call('ZSCORE', KEYS[1], member)
        if before and ARGV[9] ~= '1' then
            result[#result + 1] = 1
            kept = kept + 1
        else
            redis.call('ZADD', KEYS[1], count, member)
            result[#result + 1] = before and 2 or 0
            changed[#changed + 1] = {shown, before or cjson.null, count}
        end
    end
end
if #changed > 0 then
    redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[1], '*', 'action', 'seed', 'members',
        cjson.encode(changed), 'count', #changed, 'policy',
        (ARGV[8] == 'min' and 'min' or 'start') .. (ARGV[9] == '1' and ' overwrite' or ''),
        'detail', 'kept ' .. kept .. ', evicted ' .. evicted, 'reason', ARGV[2], 'user', ARGV[3],
        'host', ARGV[4], 'program', ARGV[5], 'pid', ARGV[6], 'guard', ARGV[7])
end
return {count, result}
