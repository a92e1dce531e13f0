-- An audit entry that goes with no change to the pool: the guard's held-back episodes ("capped"
-- when the cap starts holding evictions back, "uncapped" when it stops). KEYS[1] is the pool's
-- audit trail (a capped stream), KEYS[2] the guard's lease: the entry is added only while the
-- guard named in ARGV[7] holds it, so a guard that lost its lease writes nothing.
-- ARGV[1] the trail's cap (XADD MAXLEN ~), ARGV[2..7] why and who: reason, Redis user, host,
-- program, process id, guard id; ARGV[8] the action, ARGV[9] how many members it concerns.
-- O(1); returns the entry's id, or false when the lease is not this guard's.
if redis.call('GET', KEYS[2]) ~= ARGV[7] then
    return false
end
if not redis.acl_check_cmd('xadd', KEYS[1], '*', 'action', ARGV[8]) then
    return redis.error_reply('NOPERM this user may not add to the audit trail ' .. KEYS[1] ..
        ' (XADD)')
end
return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'action', ARGV[8], 'members',
    '[]', 'count', ARGV[9], 'policy', '', 'detail', '', 'reason', ARGV[2], 'user', ARGV[3],
    'host', ARGV[4], 'program', ARGV[5], 'pid', ARGV[6], 'guard', ARGV[7])
