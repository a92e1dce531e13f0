-- Move a pool's evicted hash from its pre-0.2 name (KEYS[1]) to its current one (KEYS[2]), for
-- the pool KEYS[3]; KEYS[4..] are the other pool keys that shared the old name. One RENAME, so
-- O(1) for the server; refuses (and changes nothing) when the move is not unambiguous.
-- Returns {status, detail}: "moved" (fields moved), "nothing" (no old hash), "not-hash" (its
-- type), "shared" (a pool key that also used the old name exists), "target-exists" (fields in
-- the new hash already).
if redis.call('EXISTS', KEYS[1]) == 0 then
    return {'nothing', false}
end
local oldType = redis.call('TYPE', KEYS[1])['ok']
if oldType ~= 'hash' then
    return {'not-hash', oldType}
end
for i = 4, #KEYS do
    if redis.call('EXISTS', KEYS[i]) == 1 then
        return {'shared', KEYS[i]}
    end
end
if redis.call('EXISTS', KEYS[2]) == 1 then
    return {'target-exists', redis.call('HLEN', KEYS[2])}
end
redis.call('RENAME', KEYS[1], KEYS[2])
return {'moved', redis.call('HLEN', KEYS[2])}
