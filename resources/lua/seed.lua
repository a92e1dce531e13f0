-- Add a small batch of members (ARGV[3..]) to the pool (KEYS[1]) at the count ARGV[1].
-- ARGV[2] = '1' overwrites the count of members already in the pool.
-- Members in the evicted hash (KEYS[2]) are never re-added here: restore them instead.
-- The caller sends at most a few hundred members per call, so the loop stays short.
-- Returns one status per member: 0 added, 1 already present (kept), 2 overwritten, 3 evicted.
local result = {}
for i = 3, #ARGV do
    local member = ARGV[i]
    if redis.call('HEXISTS', KEYS[2], member) == 1 then
        result[#result + 1] = 3
    elseif redis.call('ZSCORE', KEYS[1], member) then
        if ARGV[2] == '1' then
            redis.call('ZADD', KEYS[1], ARGV[1], member)
            result[#result + 1] = 2
        else
            result[#result + 1] = 1
        end
    else
        redis.call('ZADD', KEYS[1], ARGV[1], member)
        result[#result + 1] = 0
    end
end
return result
