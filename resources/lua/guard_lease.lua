-- The guard's lease on a pool (KEYS[1], a string in the pool's slot): only one guard acts at a
-- time. ARGV[1] = this guard's id, ARGV[2] = time to live in ms, ARGV[3] = "hold" or "release".
-- hold: takes a free lease or renews our own; returns {1, id} when we hold it, else {0, holder}.
-- release: deletes the lease only if it is ours. O(1).
local holder = redis.call('GET', KEYS[1])
if ARGV[3] == 'release' then
    if holder == ARGV[1] then
        redis.call('DEL', KEYS[1])
        return {1, ARGV[1]}
    end
    return {0, holder or ''}
end
if not holder then
    redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
    return {1, ARGV[1]}
end
if holder == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {1, ARGV[1]}
end
return {0, holder}
