-- Add a small batch of members (ARGV[4..]) to the pool (KEYS[1]).
-- ARGV[1] is the count new members get, or 'min': the pool's lowest finite count at the moment
-- this batch runs (so no batch lands below a minimum that moved during the seed), ARGV[3] when
-- the pool has no finite count yet.
-- ARGV[2] = '1' overwrites the count of members already in the pool.
-- Members in the evicted hash (KEYS[2]) are never re-added here: restore them instead.
-- The caller sends at most a few hundred members per call, so the loop stays short.
-- Returns {the count used, {one status per member: 0 added, 1 already present (kept),
-- 2 overwritten, 3 evicted}}.
local count = ARGV[1]
if count == 'min' then
    count = redis.call('ZRANGE', KEYS[1], '(-inf', '(+inf', 'BYSCORE', 'LIMIT', 0, 1,
        'WITHSCORES')[2] or ARGV[3]
end
local result = {}
for i = 4, #ARGV do
    local member = ARGV[i]
    if redis.call('HEXISTS', KEYS[2], member) == 1 then
        result[#result + 1] = 3
    elseif redis.call('ZSCORE', KEYS[1], member) then
        if ARGV[2] == '1' then
            redis.call('ZADD', KEYS[1], count, member)
            result[#result + 1] = 2
        else
            result[#result + 1] = 1
        end
    else
        redis.call('ZADD', KEYS[1], count, member)
        result[#result + 1] = 0
    end
end
return {count, result}
