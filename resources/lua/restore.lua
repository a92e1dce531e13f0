-- Move one member from the evicted hash (KEYS[2]) back into the pool (KEYS[1]).
-- ARGV[1] member, ARGV[2] policy: keep | zero | start | min, ARGV[3] the agreed starting count.
-- O(log N); returns {status, restored count, saved count, the pool's lowest count just before
-- the restore (false for an empty pool)}: read here so a flood forecast has an exact baseline.
local saved = redis.call('HGET', KEYS[2], ARGV[1])
if not saved then
    if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
        return {'in-pool', false, false, false}
    end
    return {'unknown', false, false, false}
end
local lowest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
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
    -- An empty pool has no minimum: keep the saved count.
    count = lowest or saved
else
    return redis.error_reply('ERR unknown restore policy ' .. tostring(policy))
end
redis.call('ZADD', KEYS[1], count, ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return {'restored', count, saved, lowest or false}
