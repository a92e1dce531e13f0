<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pa_IN">
<context>
    <name>DisplayFormat</name>
    <message>
        <source>%1 %</source>
        <extracomment>A percentage: the number, then its sign.</extracomment>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 ਮਿੰਟ</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 ਘੰਟੇ</translation>
    </message>
    <message>
        <source>%1 s ago</source>
        <translation>%1 ਸਕਿੰਟ ਪਹਿਲਾਂ</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>%1 ਮਿੰਟ ਪਹਿਲਾਂ</translation>
    </message>
    <message>
        <source>%1 h ago</source>
        <translation>%1 ਘੰਟੇ ਪਹਿਲਾਂ</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ਮਿਲੀਸਕਿੰਟ</translation>
    </message>
</context>
<context>
    <name>FairnessPanel</name>
    <message>
        <source>Members in the pool, and how many are evicted</source>
        <translation>ਪੂਲ ਵਿੱਚ ਮੈਂਬਰ, ਅਤੇ ਕਿੰਨੇ ਹਟਾਏ ਗਏ ਹਨ</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Lowest, median and highest allocation count in the pool</source>
        <translation>ਪੂਲ ਵਿੱਚ ਸਭ ਤੋਂ ਘੱਟ, ਮੱਧਿਕਾ ਅਤੇ ਸਭ ਤੋਂ ਵੱਧ ਨਿਰਧਾਰਨ ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>Min / median / max</source>
        <translation>ਘੱਟੋ-ਘੱਟ / ਮੱਧਿਕਾ / ਵੱਧ ਤੋਂ ਵੱਧ</translation>
    </message>
    <message>
        <source>Highest count minus lowest count: 0 or 1 in a pool served only by allocate.lua</source>
        <translation>ਸਭ ਤੋਂ ਵੱਧ ਗਿਣਤੀ ਘਟਾਓ ਸਭ ਤੋਂ ਘੱਟ ਗਿਣਤੀ: ਸਿਰਫ਼ allocate.lua ਵੱਲੋਂ ਸੇਵਾ ਕੀਤੇ ਪੂਲ ਵਿੱਚ 0 ਜਾਂ 1</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>ਫੈਲਾਅ</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index of the counts: 1.0 is perfectly even, 1/n is one member taking everything</source>
        <translation>ਗਿਣਤੀਆਂ ਦਾ Jain ਨਿਰਪੱਖਤਾ ਸੂਚਕ: 1.0 ਪੂਰੀ ਤਰ੍ਹਾਂ ਬਰਾਬਰ ਹੈ, 1/n ਇੱਕ ਮੈਂਬਰ ਸਭ ਕੁਝ ਲੈ ਰਿਹਾ ਹੈ</translation>
    </message>
    <message>
        <source>Jain index</source>
        <translation>Jain ਸੂਚਕ</translation>
    </message>
    <message>
        <source>The member that took the largest share of the allocations in the last window</source>
        <translation>ਉਹ ਮੈਂਬਰ ਜਿਸ ਨੇ ਪਿਛਲੀ ਵਿੰਡੋ ਵਿੱਚ ਨਿਰਧਾਰਨਾਂ ਦਾ ਸਭ ਤੋਂ ਵੱਡਾ ਹਿੱਸਾ ਲਿਆ</translation>
    </message>
    <message>
        <source>Busiest (last window)</source>
        <translation>ਸਭ ਤੋਂ ਰੁੱਝਿਆ (ਪਿਛਲੀ ਵਿੰਡੋ)</translation>
    </message>
    <message>
        <source>Allocations per second over the last window, all members together</source>
        <translation>ਪਿਛਲੀ ਵਿੰਡੋ ਵਿੱਚ ਪ੍ਰਤੀ ਸਕਿੰਟ ਨਿਰਧਾਰਨ, ਸਾਰੇ ਮੈਂਬਰ ਮਿਲਾ ਕੇ</translation>
    </message>
    <message>
        <source>Allocation rate</source>
        <translation>ਨਿਰਧਾਰਨ ਦਰ</translation>
    </message>
    <message>
        <source>The pool&apos;s current total: the sum of the counts of the members in the pool now. It falls when members are evicted (their counts are saved with them, shown in brackets) or when counts are reset; it is not the number of allocations ever made.</source>
        <translation>ਪੂਲ ਦਾ ਮੌਜੂਦਾ ਜੋੜ: ਹੁਣ ਪੂਲ ਵਿੱਚ ਮੌਜੂਦ ਮੈਂਬਰਾਂ ਦੀਆਂ ਗਿਣਤੀਆਂ ਦਾ ਜੋੜ। ਇਹ ਘਟਦਾ ਹੈ ਜਦੋਂ ਮੈਂਬਰ ਹਟਾਏ ਜਾਂਦੇ ਹਨ (ਉਹਨਾਂ ਦੀਆਂ ਗਿਣਤੀਆਂ ਉਹਨਾਂ ਨਾਲ ਸੰਭਾਲੀਆਂ ਜਾਂਦੀਆਂ ਹਨ, ਬਰੈਕਟਾਂ ਵਿੱਚ ਦਿਖਾਈਆਂ) ਜਾਂ ਜਦੋਂ ਗਿਣਤੀਆਂ ਰੀਸੈੱਟ ਹੁੰਦੀਆਂ ਹਨ; ਇਹ ਕਦੇ ਵੀ ਕੀਤੇ ਗਏ ਸਾਰੇ ਨਿਰਧਾਰਨਾਂ ਦੀ ਗਿਣਤੀ ਨਹੀਂ ਹੈ।</translation>
    </message>
    <message>
        <source>Sum of counts now</source>
        <translation>ਹੁਣ ਗਿਣਤੀਆਂ ਦਾ ਜੋੜ</translation>
    </message>
    <message>
        <source>How the poller reads the pool</source>
        <translation>ਪੋਲਰ ਪੂਲ ਨੂੰ ਕਿਵੇਂ ਪੜ੍ਹਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Read mode</source>
        <translation>ਪੜ੍ਹਨ ਦਾ ਢੰਗ</translation>
    </message>
</context>
<context>
    <name>Forecast</name>
    <message>
        <source>No flood: joining at %1, above the pool minimum (%2).</source>
        <translation>ਕੋਈ ਹੜ੍ਹ ਨਹੀਂ: %1 &apos;ਤੇ ਸ਼ਾਮਲ ਹੋ ਰਿਹਾ ਹੈ, ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ (%2) ਤੋਂ ਉੱਪਰ।</translation>
    </message>
    <message>
        <source>above the pool maximum (%1)</source>
        <translation>ਪੂਲ ਦੀ ਵੱਧ ਤੋਂ ਵੱਧ (%1) ਤੋਂ ਉੱਪਰ</translation>
    </message>
    <message>
        <source>above the pool minimum (%1)</source>
        <translation>ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ (%1) ਤੋਂ ਉੱਪਰ</translation>
    </message>
    <message>
        <source>about %1 at the current rate</source>
        <translation>ਮੌਜੂਦਾ ਦਰ &apos;ਤੇ ਲਗਭਗ %1</translation>
    </message>
    <message>
        <source>no allocations measured right now, so no time estimate</source>
        <translation>ਇਸ ਵੇਲੇ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਾਪੇ ਗਏ, ਇਸ ਲਈ ਸਮੇਂ ਦਾ ਕੋਈ ਅੰਦਾਜ਼ਾ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>Starvation warning: joining at %1, %2, it gets none of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>ਭੁੱਖਮਰੀ ਦੀ ਚੇਤਾਵਨੀ: %1 &apos;ਤੇ ਸ਼ਾਮਲ ਹੋ ਕੇ, %2, ਇਸ ਨੂੰ ਅਗਲੇ %3 ਨਿਰਧਾਰਨਾਂ (%4) ਵਿੱਚੋਂ ਕੋਈ ਨਹੀਂ ਮਿਲਦਾ: ਬਾਕੀ ਪੂਲ ਪਹਿਲਾਂ ਪੂਰਾ ਹੁੰਦਾ ਹੈ।</translation>
    </message>
    <message numerus="yes">
        <source>Starvation warning: joining at %1 or more, %2, none of these %n members gets any of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>
            <numerusform>ਭੁੱਖਮਰੀ ਦੀ ਚੇਤਾਵਨੀ: %1 ਜਾਂ ਵੱਧ &apos;ਤੇ ਸ਼ਾਮਲ ਹੋ ਕੇ, %2, ਇਸ ਮੈਂਬਰ ਨੂੰ ਅਗਲੇ %3 ਨਿਰਧਾਰਨਾਂ (%4) ਵਿੱਚੋਂ ਕੋਈ ਨਹੀਂ ਮਿਲਦਾ: ਬਾਕੀ ਪੂਲ ਪਹਿਲਾਂ ਪੂਰਾ ਹੁੰਦਾ ਹੈ।</numerusform>
            <numerusform>ਭੁੱਖਮਰੀ ਦੀ ਚੇਤਾਵਨੀ: %1 ਜਾਂ ਵੱਧ &apos;ਤੇ ਸ਼ਾਮਲ ਹੋ ਕੇ, %2, ਇਹਨਾਂ %n ਮੈਂਬਰਾਂ ਵਿੱਚੋਂ ਕਿਸੇ ਨੂੰ ਵੀ ਅਗਲੇ %3 ਨਿਰਧਾਰਨਾਂ (%4) ਵਿੱਚੋਂ ਕੋਈ ਨਹੀਂ ਮਿਲਦਾ: ਬਾਕੀ ਪੂਲ ਪਹਿਲਾਂ ਪੂਰਾ ਹੁੰਦਾ ਹੈ।</numerusform>
        </translation>
    </message>
    <message>
        <source> (no allocations measured right now, so no time estimate)</source>
        <translation> (ਇਸ ਵੇਲੇ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਾਪਿਆ ਗਿਆ, ਇਸ ਲਈ ਸਮੇਂ ਦਾ ਕੋਈ ਅੰਦਾਜ਼ਾ ਨਹੀਂ)</translation>
    </message>
    <message>
        <source>, about %1 at the current rate</source>
        <translation>, ਮੌਜੂਦਾ ਦਰ ਨਾਲ ਲਗਭਗ %1</translation>
    </message>
    <message>
        <source>The pool is empty: this member will receive every allocation until others join.</source>
        <translation>ਪੂਲ ਖਾਲੀ ਹੈ: ਜਦੋਂ ਤੱਕ ਹੋਰ ਸ਼ਾਮਲ ਨਹੀਂ ਹੁੰਦੇ, ਇਸ ਮੈਂਬਰ ਨੂੰ ਹਰ ਨਿਰਧਾਰਨ ਮਿਲੇਗਾ।</translation>
    </message>
    <message>
        <source>The pool is empty: these %L1 members will share every allocation between them.</source>
        <translation>ਪੂਲ ਖਾਲੀ ਹੈ: ਇਹ %L1 ਮੈਂਬਰ ਹਰ ਨਿਰਧਾਰਨ ਆਪਸ ਵਿੱਚ ਵੰਡਣਗੇ।</translation>
    </message>
    <message>
        <source>No flood: joining at %1, at or above the pool minimum (%2), so it joins the rotation.</source>
        <translation>ਕੋਈ ਹੜ੍ਹ ਨਹੀਂ: %1 &apos;ਤੇ ਸ਼ਾਮਲ ਹੋ ਕੇ, ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ (%2) ਦੇ ਬਰਾਬਰ ਜਾਂ ਉੱਪਰ, ਇਹ ਵਾਰੀ ਵਿੱਚ ਸ਼ਾਮਲ ਹੁੰਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>This member will receive the next ~%1 allocations%2.</source>
        <translation>ਇਸ ਮੈਂਬਰ ਨੂੰ ਅਗਲੇ ~%1 ਨਿਰਧਾਰਨ ਮਿਲਣਗੇ%2।</translation>
    </message>
    <message>
        <source>These %L1 members will receive the next ~%2 allocations (~%3 each)%4.</source>
        <translation>ਇਹਨਾਂ %L1 ਮੈਂਬਰਾਂ ਨੂੰ ਅਗਲੇ ~%2 ਨਿਰਧਾਰਨ ਮਿਲਣਗੇ (ਹਰੇਕ ਨੂੰ ~%3)%4।</translation>
    </message>
    <message>
        <source>No flood: they join at or above the pool minimum (%1), so they join the rotation.</source>
        <translation>ਕੋਈ ਹੜ੍ਹ ਨਹੀਂ: ਉਹ ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ (%1) ਦੇ ਬਰਾਬਰ ਜਾਂ ਉੱਪਰ ਸ਼ਾਮਲ ਹੁੰਦੇ ਹਨ, ਇਸ ਲਈ ਉਹ ਵਾਰੀ ਵਿੱਚ ਸ਼ਾਮਲ ਹੁੰਦੇ ਹਨ।</translation>
    </message>
    <message>
        <source>These %L1 members will receive the next ~%2 allocations between them%3.</source>
        <translation>ਇਹਨਾਂ %L1 ਮੈਂਬਰਾਂ ਨੂੰ ਆਪਸ ਵਿੱਚ ਅਗਲੇ ~%2 ਨਿਰਧਾਰਨ ਮਿਲਣਗੇ%3।</translation>
    </message>
</context>
<context>
    <name>HealthCell</name>
    <message>
        <source>up</source>
        <translation>ਚਾਲੂ</translation>
    </message>
    <message>
        <source>down</source>
        <translation>ਬੰਦ</translation>
    </message>
    <message>
        <source>not checkable</source>
        <translation>ਜਾਂਚਣਯੋਗ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>ਅਣਜਾਣ</translation>
    </message>
    <message>
        <source>up · %1 ms</source>
        <translation>ਚਾਲੂ · %1 ਮਿਲੀਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>down · %1</source>
        <translation>ਬੰਦ · %1</translation>
    </message>
    <message>
        <source>Never checked (Ctrl+K checks the selected members)</source>
        <translation>ਕਦੇ ਜਾਂਚਿਆ ਨਹੀਂ (Ctrl+K ਚੁਣੇ ਮੈਂਬਰਾਂ ਦੀ ਜਾਂਚ ਕਰਦਾ ਹੈ)</translation>
    </message>
    <message>
        <source>Last check %1: %2</source>
        <translation>ਆਖਰੀ ਜਾਂਚ %1: %2</translation>
    </message>
    <message>
        <source>Latency %1 ms</source>
        <translation>ਵਿਲੰਬ %1 ਮਿਲੀਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>Target answered HTTP %1</source>
        <translation>ਟੀਚੇ ਨੇ HTTP %1 ਜਵਾਬ ਦਿੱਤਾ</translation>
    </message>
    <message>
        <source>%1 consecutive successes, %2 consecutive failures</source>
        <translation>%1 ਲਗਾਤਾਰ ਸਫਲਤਾਵਾਂ, %2 ਲਗਾਤਾਰ ਅਸਫਲਤਾਵਾਂ</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>ਆਖਰੀ ਗਲਤੀ: %1</translation>
    </message>
    <message>
        <source>Evicted by the guard</source>
        <translation>ਰਾਖੇ ਨੇ ਹਟਾਇਆ</translation>
    </message>
</context>
<context>
    <name>LoadReport</name>
    <message>
        <source>connections lost mid-run: %1, reconnected: %2</source>
        <translation>ਚੱਲਦੇ ਸਮੇਂ ਗੁਆਚੇ ਕਨੈਕਸ਼ਨ: %1, ਮੁੜ ਜੁੜੇ: %2</translation>
    </message>
    <message>
        <source>failover: the primary went from %1</source>
        <translation>ਫੇਲਓਵਰ, ਪ੍ਰਾਇਮਰੀ ਦੀ ਤਬਦੀਲੀ: %1</translation>
    </message>
    <message>
        <source> to </source>
        <translation> → </translation>
    </message>
    <message>
        <source>lost in failover: %1 acknowledged allocations on %2 members (sum of counts %3 before, %4 after)</source>
        <translation>ਫੇਲਓਵਰ ਵਿੱਚ ਗੁਆਚੇ: %2 ਮੈਂਬਰਾਂ &apos;ਤੇ %1 ਪੁਸ਼ਟੀ ਕੀਤੇ ਨਿਰਧਾਰਨ (ਗਿਣਤੀਆਂ ਦਾ ਜੋੜ ਪਹਿਲਾਂ %3, ਬਾਅਦ ਵਿੱਚ %4)</translation>
    </message>
    <message>
        <source>lost in failover: not checked (%1)</source>
        <translation>ਫੇਲਓਵਰ ਵਿੱਚ ਗੁਆਚੇ: ਜਾਂਚ ਨਹੀਂ ਕੀਤੀ (%1)</translation>
    </message>
    <message>
        <source>pool is empty: no proxy allocated (%1 empty answers)</source>
        <translation>ਪੂਲ ਖਾਲੀ ਹੈ: ਕੋਈ ਪਰਾਕਸੀ ਨਿਰਧਾਰਤ ਨਹੀਂ ਹੋਈ (%1 ਖਾਲੀ ਜਵਾਬ)</translation>
    </message>
    <message>
        <source>allocated %1 in %2 (%3/s)%4</source>
        <translation>%2 ਵਿੱਚ %1 ਨਿਰਧਾਰਤ ਕੀਤੇ (%3/ਸਕਿੰਟ)%4</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>, ਰੱਦ ਕੀਤਾ</translation>
    </message>
    <message>
        <source>empty-pool answers: %1 (pool is empty: no proxy allocated)</source>
        <translation>ਖਾਲੀ-ਪੂਲ ਜਵਾਬ: %1 (ਪੂਲ ਖਾਲੀ ਹੈ: ਕੋਈ ਪਰਾਕਸੀ ਨਿਰਧਾਰਤ ਨਹੀਂ ਹੋਈ)</translation>
    </message>
    <message>
        <source>empty-pool answers: 0</source>
        <translation>ਖਾਲੀ-ਪੂਲ ਜਵਾਬ: 0</translation>
    </message>
    <message>
        <source>errors: %1 (%2)</source>
        <translation>ਗਲਤੀਆਂ: %1 (%2)</translation>
    </message>
    <message>
        <source>errors: 0</source>
        <translation>ਗਲਤੀਆਂ: 0</translation>
    </message>
    <message>
        <source>outcome unknown (no reply, never retried): %1</source>
        <translation>ਨਤੀਜਾ ਅਣਜਾਣ (ਕੋਈ ਜਵਾਬ ਨਹੀਂ, ਕਦੇ ਦੁਬਾਰਾ ਕੋਸ਼ਿਸ਼ ਨਹੀਂ): %1</translation>
    </message>
    <message>
        <source>latency p50 %1 · p99 %2 · max %3</source>
        <translation>ਵਿਲੰਬ p50 %1 · p99 %2 · ਵੱਧ ਤੋਂ ਵੱਧ %3</translation>
    </message>
    <message>
        <source>naive mode: %1 collisions, %2 duplicate picks (the script: always 0)</source>
        <translation>ਭੋਲਾ ਢੰਗ: %1 ਟੱਕਰਾਂ, %2 ਦੋਹਰੀਆਂ ਚੋਣਾਂ (ਸਕ੍ਰਿਪਟ: ਹਮੇਸ਼ਾ 0)</translation>
    </message>
    <message>
        <source>%1 worker(s), pipeline %2, %3</source>
        <translation>%1 ਵਰਕਰ, ਪਾਈਪਲਾਈਨ %2, %3</translation>
    </message>
    <message>
        <source>atomic script</source>
        <translation>ਪਰਮਾਣੂ ਸਕ੍ਰਿਪਟ</translation>
    </message>
    <message>
        <source>naive ZRANGE + ZINCRBY</source>
        <translation>ਭੋਲਾ ZRANGE + ZINCRBY</translation>
    </message>
</context>
<context>
    <name>OutsideChanges</name>
    <message>
        <source> and %L1 more</source>
        <translation type="vanished"> ਅਤੇ %L1 ਹੋਰ</translation>
    </message>
    <message>
        <source>pool vanished: %1 members gone (server restarted or key deleted?)</source>
        <translation>ਪੂਲ ਗਾਇਬ ਹੋ ਗਿਆ: %1 ਮੈਂਬਰ ਚਲੇ ਗਏ (ਸਰਵਰ ਮੁੜ ਸ਼ੁਰੂ ਹੋਇਆ ਜਾਂ ਕੁੰਜੀ ਮਿਟਾਈ ਗਈ?)</translation>
    </message>
    <message>
        <source>counts went back by %1 allocations on %L2 members after the primary changed (%3): acknowledged by %4, never replicated</source>
        <translation>ਪ੍ਰਾਇਮਰੀ ਬਦਲਣ ਤੋਂ ਬਾਅਦ (%3) %L2 ਮੈਂਬਰਾਂ &apos;ਤੇ ਗਿਣਤੀਆਂ %1 ਨਿਰਧਾਰਨ ਪਿੱਛੇ ਚਲੀਆਂ ਗਈਆਂ: %4 ਵੱਲੋਂ ਮੰਨੀਆਂ, ਕਦੇ ਰੈਪਲੀਕੇਟ ਨਹੀਂ ਹੋਈਆਂ</translation>
    </message>
    <message>
        <source>counts went back by %1 allocations on %L2 members (%3), not by poolscope: reset by another client?</source>
        <translation>%L2 ਮੈਂਬਰਾਂ &apos;ਤੇ ਗਿਣਤੀਆਂ %1 ਨਿਰਧਾਰਨ ਪਿੱਛੇ ਚਲੀਆਂ ਗਈਆਂ (%3), poolscope ਵੱਲੋਂ ਨਹੀਂ: ਕਿਸੇ ਹੋਰ ਕਲਾਇੰਟ ਨੇ ਰੀਸੈੱਟ ਕੀਤੀਆਂ?</translation>
    </message>
    <message>
        <source>%L1 members left the pool without an eviction here (%2)</source>
        <translation>%L1 ਮੈਂਬਰ ਇੱਥੇ ਹਟਾਏ ਬਿਨਾਂ ਪੂਲ ਛੱਡ ਗਏ (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %Ln more</source>
        <comment>%1: member ids, then how many more are not named</comment>
        <translation>
            <numerusform>%1 ਅਤੇ %Ln ਹੋਰ</numerusform>
            <numerusform>%1 ਅਤੇ %Ln ਹੋਰ</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PoolMonitor</name>
    <message>
        <source>full snapshot (%1 members)</source>
        <translation>ਪੂਰਾ ਸਨੈਪਸ਼ਾਟ (%1 ਮੈਂਬਰ)</translation>
    </message>
</context>
<context>
    <name>ProxyList</name>
    <message>
        <source>unknown comment style &quot;%1&quot; (comment lines start with # or ;)</source>
        <translation>ਅਣਜਾਣ ਟਿੱਪਣੀ ਸ਼ੈਲੀ &quot;%1&quot; (ਟਿੱਪਣੀ ਲਾਈਨਾਂ # ਜਾਂ ; ਨਾਲ ਸ਼ੁਰੂ ਹੁੰਦੀਆਂ ਹਨ)</translation>
    </message>
    <message>
        <source>contains an unpaired surrogate (a \uD800-\uDFFF escape without its pair), which is not valid Unicode</source>
        <translation>ਇਸ ਵਿੱਚ ਬਿਨਾਂ ਜੋੜੀ ਵਾਲਾ ਸਰੋਗੇਟ ਹੈ (ਆਪਣੀ ਜੋੜੀ ਤੋਂ ਬਿਨਾਂ \uD800-\uDFFF ਐਸਕੇਪ), ਜੋ ਵੈਧ ਯੂਨੀਕੋਡ ਨਹੀਂ ਹੈ</translation>
    </message>
    <message>
        <source>contains a NUL byte</source>
        <translation>ਇਸ ਵਿੱਚ NUL ਬਾਈਟ ਹੈ</translation>
    </message>
    <message>
        <source>unexpected whitespace inside the entry (expected one proxy per line, as host:port)</source>
        <translation>ਐਂਟਰੀ ਦੇ ਅੰਦਰ ਅਣਕਿਆਸੀ ਖਾਲੀ ਥਾਂ (ਹਰ ਲਾਈਨ &apos;ਤੇ ਇੱਕ ਪਰਾਕਸੀ ਦੀ ਉਮੀਦ ਸੀ, host:port ਵਾਂਗ)</translation>
    </message>
    <message>
        <source>contains the control character U+%1</source>
        <translation>ਇਸ ਵਿੱਚ ਕੰਟਰੋਲ ਅੱਖਰ U+%1 ਹੈ</translation>
    </message>
    <message>
        <source>contains a byte-order mark (U+FEFF, invisible), which only the file&apos;s first character may be</source>
        <translation>ਇਸ ਵਿੱਚ ਬਾਈਟ-ਆਰਡਰ ਨਿਸ਼ਾਨ ਹੈ (U+FEFF, ਅਦਿੱਖ), ਜੋ ਸਿਰਫ਼ ਫ਼ਾਈਲ ਦਾ ਪਹਿਲਾ ਅੱਖਰ ਹੋ ਸਕਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>missing port</source>
        <translation>ਪੋਰਟ ਗੁੰਮ ਹੈ</translation>
    </message>
    <message>
        <source>port %1 is not a number</source>
        <translation>ਪੋਰਟ %1 ਇੱਕ ਨੰਬਰ ਨਹੀਂ ਹੈ</translation>
    </message>
    <message>
        <source>port %1 is out of range 1-65535</source>
        <translation>ਪੋਰਟ %1 ਸੀਮਾ 1-65535 ਤੋਂ ਬਾਹਰ ਹੈ</translation>
    </message>
    <message>
        <source>missing host</source>
        <translation>ਹੋਸਟ ਗੁੰਮ ਹੈ</translation>
    </message>
    <message>
        <source>unterminated [ in IPv6 address</source>
        <translation>IPv6 ਪਤੇ ਵਿੱਚ [ ਬੰਦ ਨਹੀਂ ਕੀਤਾ</translation>
    </message>
    <message>
        <source>%1 is not a valid IPv6 address</source>
        <translation>%1 ਵੈਧ IPv6 ਪਤਾ ਨਹੀਂ ਹੈ</translation>
    </message>
    <message>
        <source>host %1 contains &quot;:&quot; but is not a valid IPv6 address</source>
        <translation>ਹੋਸਟ %1 ਵਿੱਚ &quot;:&quot; ਹੈ ਪਰ ਇਹ ਵੈਧ IPv6 ਪਤਾ ਨਹੀਂ ਹੈ</translation>
    </message>
    <message>
        <source>missing scheme before &quot;://&quot;</source>
        <translation>&quot;://&quot; ਤੋਂ ਪਹਿਲਾਂ ਸਕੀਮ ਗੁੰਮ ਹੈ</translation>
    </message>
    <message>
        <source>invalid scheme %1</source>
        <translation>ਅਵੈਧ ਸਕੀਮ %1</translation>
    </message>
    <message>
        <source>empty credentials before &quot;@&quot;</source>
        <translation>&quot;@&quot; ਤੋਂ ਪਹਿਲਾਂ ਖਾਲੀ ਪ੍ਰਮਾਣ-ਪੱਤਰ</translation>
    </message>
    <message>
        <source>unexpected path %1 after the port</source>
        <translation>ਪੋਰਟ ਤੋਂ ਬਾਅਦ ਅਣਕਿਆਸਿਆ ਪਾਥ %1</translation>
    </message>
    <message>
        <source>missing host and port</source>
        <translation>ਹੋਸਟ ਅਤੇ ਪੋਰਟ ਗੁੰਮ ਹਨ</translation>
    </message>
    <message>
        <source>empty [] where an IPv6 address belongs</source>
        <translation>ਜਿੱਥੇ IPv6 ਪਤਾ ਹੋਣਾ ਚਾਹੀਦਾ ਹੈ ਉੱਥੇ ਖਾਲੀ []</translation>
    </message>
    <message>
        <source>unexpected text %1 after &quot;]&quot;</source>
        <translation>&quot;]&quot; ਤੋਂ ਬਾਅਦ ਅਣਕਿਆਸਿਆ ਟੈਕਸਟ %1</translation>
    </message>
    <message>
        <source>IPv6 address must be written in brackets, as in [2001:db8::1]:8080</source>
        <translation>IPv6 ਪਤਾ ਬਰੈਕਟਾਂ ਵਿੱਚ ਲਿਖਣਾ ਲਾਜ਼ਮੀ ਹੈ, ਜਿਵੇਂ [2001:db8::1]:8080</translation>
    </message>
    <message>
        <source>too many &quot;:&quot; (expected host:port; write credentials as scheme://user:pass@host:port)</source>
        <translation>ਬਹੁਤ ਸਾਰੇ &quot;:&quot; (host:port ਦੀ ਉਮੀਦ ਸੀ; ਪ੍ਰਮਾਣ-ਪੱਤਰ scheme://user:pass@host:port ਵਾਂਗ ਲਿਖੋ)</translation>
    </message>
    <message>
        <source>not valid UTF-8</source>
        <translation>ਵੈਧ UTF-8 ਨਹੀਂ</translation>
    </message>
    <message>
        <source>hexadecimal</source>
        <comment>a way of writing an IPv4 address: 0x7f.0.0.1</comment>
        <translation>ਹੈਕਸਾਡੈਸੀਮਲ</translation>
    </message>
    <message>
        <source>octal</source>
        <comment>a way of writing an IPv4 address: 0177.0.0.1</comment>
        <translation>ਔਕਟਲ</translation>
    </message>
    <message>
        <source>shortened</source>
        <comment>a way of writing an IPv4 address: 127.1 (fewer than 4 parts)</comment>
        <translation>ਛੋਟਾ ਕੀਤਾ</translation>
    </message>
    <message>
        <source>%1 is an unspecified address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ਇੱਕ ਅਨਿਸ਼ਚਿਤ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a reserved address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ਇੱਕ ਰਾਖਵਾਂ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a private address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ਇੱਕ ਨਿੱਜੀ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a CGNAT address</source>
        <comment>%1: an IP address; CGNAT: carrier-grade NAT, 100.64.0.0/10</comment>
        <translation>%1 ਇੱਕ CGNAT ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a loopback address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ਇੱਕ ਲੂਪਬੈਕ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a link-local address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ਇੱਕ ਲਿੰਕ-ਲੋਕਲ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a site-local address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ਇੱਕ ਸਾਈਟ-ਲੋਕਲ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a documentation address</source>
        <comment>%1: an IP address in a range reserved for examples in documentation</comment>
        <translation>%1 ਇੱਕ ਦਸਤਾਵੇਜ਼ੀ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a multicast address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ਇੱਕ ਮਲਟੀਕਾਸਟ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a broadcast address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ਇੱਕ ਬ੍ਰੌਡਕਾਸਟ ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a reserved (deprecated IPv4-compatible) address</source>
        <comment>%1: an IPv6 address of the form ::a.b.c.d</comment>
        <translation>%1 ਇੱਕ ਰਾਖਵਾਂ (ਪੁਰਾਣਾ ਪੈ ਚੁੱਕਾ IPv4-compatible) ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>unspecified</source>
        <comment>a kind of IP address: 0.0.0.0 (unspecified)</comment>
        <translation>ਅਨਿਸ਼ਚਿਤ</translation>
    </message>
    <message>
        <source>reserved</source>
        <comment>a kind of IP address: 240.0.0.1 (reserved)</comment>
        <translation>ਰਾਖਵਾਂ</translation>
    </message>
    <message>
        <source>private</source>
        <comment>a kind of IP address: 10.0.0.1 (private)</comment>
        <translation>ਨਿੱਜੀ</translation>
    </message>
    <message>
        <source>CGNAT</source>
        <comment>a kind of IP address: 100.64.0.1 (CGNAT)</comment>
        <translation>CGNAT</translation>
    </message>
    <message>
        <source>loopback</source>
        <comment>a kind of IP address: 127.0.0.1 (loopback)</comment>
        <translation>ਲੂਪਬੈਕ</translation>
    </message>
    <message>
        <source>link-local</source>
        <comment>a kind of IP address: 169.254.0.1 (link-local)</comment>
        <translation>ਲਿੰਕ-ਲੋਕਲ</translation>
    </message>
    <message>
        <source>site-local</source>
        <comment>a kind of IP address</comment>
        <translation>ਸਾਈਟ-ਲੋਕਲ</translation>
    </message>
    <message>
        <source>documentation</source>
        <comment>a kind of IP address: 192.0.2.1 (documentation), a range reserved for examples</comment>
        <translation>ਦਸਤਾਵੇਜ਼ੀ</translation>
    </message>
    <message>
        <source>multicast</source>
        <comment>a kind of IP address: 224.0.0.1 (multicast)</comment>
        <translation>ਮਲਟੀਕਾਸਟ</translation>
    </message>
    <message>
        <source>broadcast</source>
        <comment>a kind of IP address: 255.255.255.255 (broadcast)</comment>
        <translation>ਬ੍ਰੌਡਕਾਸਟ</translation>
    </message>
    <message>
        <source>%1 is an IPv4-mapped address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1, %2 (%3) ਲਈ ਇੱਕ IPv4-mapped ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is an IPv4-compatible address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1, %2 (%3) ਲਈ ਇੱਕ IPv4-compatible ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a NAT64 address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1, %2 (%3) ਲਈ ਇੱਕ NAT64 ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a 6to4 address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1, %2 (%3) ਲਈ ਇੱਕ 6to4 ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a Teredo address for client %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the Teredo client&apos;s IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1, ਕਲਾਇੰਟ %2 (%3) ਲਈ ਇੱਕ Teredo ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 is a Teredo address for server %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the Teredo server&apos;s IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1, ਸਰਵਰ %2 (%3) ਲਈ ਇੱਕ Teredo ਪਤਾ ਹੈ</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no scheme is allowed: (allowed: none)</comment>
        <translation>ਕੋਈ ਨਹੀਂ</translation>
    </message>
    <message numerus="yes">
        <source>%n more</source>
        <comment>ports not listed</comment>
        <translation>
            <numerusform>%n ਹੋਰ</numerusform>
            <numerusform>%n ਹੋਰ</numerusform>
        </translation>
    </message>
    <message>
        <source>scheme %1 is not allowed (allowed: %2)</source>
        <comment>%1: a URL scheme such as socks5, %2: a list of them</comment>
        <translation>ਸਕੀਮ %1 ਦੀ ਇਜਾਜ਼ਤ ਨਹੀਂ ਹੈ (ਇਜਾਜ਼ਤ ਵਾਲੀਆਂ: %2)</translation>
    </message>
    <message>
        <source>port %1 is not in the allowed ports (%2)</source>
        <comment>%2: a list of port numbers</comment>
        <translation>ਪੋਰਟ %1 ਇਜਾਜ਼ਤ ਵਾਲੀਆਂ ਪੋਰਟਾਂ (%2) ਵਿੱਚ ਨਹੀਂ ਹੈ</translation>
    </message>
    <message>
        <source>IPv4 address %1 (= %2) is not accepted in %3 form: write it as %2</source>
        <comment>%1: the address as written, %2: the same in dotted decimal, %3: how it departs from dotted decimal (hexadecimal, octal, shortened; several joined by /)</comment>
        <translation>IPv4 ਪਤਾ %1 (= %2) %3 ਰੂਪ ਵਿੱਚ ਸਵੀਕਾਰ ਨਹੀਂ ਹੈ: ਇਸ ਨੂੰ %2 ਵਾਂਗ ਲਿਖੋ</translation>
    </message>
    <message>
        <source>%1 is a loopback name</source>
        <comment>%1: a host name such as localhost</comment>
        <translation>%1 ਇੱਕ ਲੂਪਬੈਕ ਨਾਮ ਹੈ</translation>
    </message>
    <message>
        <source>host %1 is not a valid IPv4 address, IPv6 address or DNS name</source>
        <translation>ਹੋਸਟ %1 ਵੈਧ IPv4 ਪਤਾ, IPv6 ਪਤਾ ਜਾਂ DNS ਨਾਮ ਨਹੀਂ ਹੈ</translation>
    </message>
</context>
<context>
    <name>QAbstractSpinBox</name>
    <message>
        <source>Step &amp;down</source>
        <translation>ਇੱਕ ਕਦਮ ਘਟਾਓ(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Step up</source>
        <translation>ਇੱਕ ਕਦਮ ਵਧਾਓ(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Select All</source>
        <translation>ਸਭ ਚੁਣੋ(&amp;S)</translation>
    </message>
</context>
<context>
    <name>QDialogButtonBox</name>
    <message>
        <source>OK</source>
        <translation>ਠੀਕ ਹੈ</translation>
    </message>
</context>
<context>
    <name>QDockWidget</name>
    <message>
        <source>Close</source>
        <translation>ਬੰਦ ਕਰੋ</translation>
    </message>
    <message>
        <source>Float</source>
        <translation>ਵੱਖ ਕਰੋ</translation>
    </message>
    <message>
        <source>Undocks and re-attaches the dock widget</source>
        <translation>ਪੈਨਲ ਨੂੰ ਵੱਖ ਕਰਦਾ ਹੈ ਅਤੇ ਮੁੜ ਜੋੜਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Closes the dock widget</source>
        <translation>ਪੈਨਲ ਨੂੰ ਬੰਦ ਕਰਦਾ ਹੈ</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Back</source>
        <translation>ਪਿੱਛੇ</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ਫ਼ਾਈਲ</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>ਖੋਲ੍ਹੋ</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>ਖੋਲ੍ਹੋ(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>ਸੰਭਾਲੋ(&amp;S)</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>ਫ਼ਾਈਲਾਂ</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is write protected.
Do you want to delete it anyway?</source>
        <translation>&apos;%1&apos; ਲਿਖਣ ਤੋਂ ਸੁਰੱਖਿਅਤ ਹੈ।
ਕੀ ਤੁਸੀਂ ਫਿਰ ਵੀ ਇਸਨੂੰ ਮਿਟਾਉਣਾ ਚਾਹੁੰਦੇ ਹੋ?</translation>
    </message>
    <message>
        <source>Are you sure you want to delete &apos;%1&apos;?</source>
        <translation>ਕੀ ਤੁਸੀਂ ਯਕੀਨਨ &apos;%1&apos; ਨੂੰ ਮਿਟਾਉਣਾ ਚਾਹੁੰਦੇ ਹੋ?</translation>
    </message>
    <message>
        <source>List of places and bookmarks</source>
        <translation>ਥਾਵਾਂ ਅਤੇ ਬੁੱਕਮਾਰਕਾਂ ਦੀ ਸੂਚੀ</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>ਫ਼ਾਈਲ ਦਾ ਨਾਂ(&amp;N):</translation>
    </message>
    <message>
        <source>Alt+Left</source>
        <translation>Alt+Left</translation>
    </message>
    <message>
        <source>Alt+Up</source>
        <translation>Alt+Up</translation>
    </message>
    <message>
        <source>File Folder</source>
        <translation>ਫ਼ਾਈਲ ਫੋਲਡਰ</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>ਮਿਟਾਓ</translation>
    </message>
    <message>
        <source>New Folder</source>
        <translation>ਨਵਾਂ ਫੋਲਡਰ</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>ਫੋਲਡਰ</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>ਉੱਪਰਲੀ ਡਾਇਰੈਕਟਰੀ</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>ਨਵਾਂ ਫੋਲਡਰ(&amp;N)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>ਕੱਢੋ</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>ਮੇਰਾ ਕੰਪਿਊਟਰ</translation>
    </message>
    <message>
        <source>Look in:</source>
        <translation>ਇੱਥੇ ਵੇਖੋ:</translation>
    </message>
    <message>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <source>Create a New Folder</source>
        <translation>ਨਵਾਂ ਫੋਲਡਰ ਬਣਾਓ</translation>
    </message>
    <message>
        <source>%1 File</source>
        <translation>%1 ਫ਼ਾਈਲ</translation>
    </message>
    <message>
        <source>Files of type:</source>
        <translation>ਫ਼ਾਈਲਾਂ ਦੀ ਕਿਸਮ:</translation>
    </message>
    <message>
        <source>Find Directory</source>
        <translation>ਡਾਇਰੈਕਟਰੀ ਲੱਭੋ</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>ਲੁਕੀਆਂ ਫ਼ਾਈਲਾਂ ਵੇਖਾਓ(&amp;H)</translation>
    </message>
    <message>
        <source>Save As</source>
        <translation>ਇਸ ਵਜੋਂ ਸੰਭਾਲੋ</translation>
    </message>
    <message>
        <source>%1
Directory not found.
Please verify the correct directory name was given.</source>
        <translation>%1
ਡਾਇਰੈਕਟਰੀ ਨਹੀਂ ਲੱਭੀ।
ਕਿਰਪਾ ਕਰਕੇ ਜਾਂਚੋ ਕਿ ਡਾਇਰੈਕਟਰੀ ਦਾ ਨਾਂ ਸਹੀ ਦਿੱਤਾ ਗਿਆ ਹੈ।</translation>
    </message>
    <message>
        <source>Sidebar</source>
        <translation>ਸਾਈਡਬਾਰ</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>ਸੂਚੀ ਦ੍ਰਿਸ਼</translation>
    </message>
    <message>
        <source>&amp;Choose</source>
        <translation>ਚੁਣੋ(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>ਮਿਟਾਓ(&amp;D)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>ਸਾਰੀਆਂ ਫ਼ਾਈਲਾਂ (*)</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>ਸਾਰੀਆਂ ਫ਼ਾਈਲਾਂ (*)</translation>
    </message>
    <message>
        <source>Directories</source>
        <translation>ਡਾਇਰੈਕਟਰੀਆਂ</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>ਨਾਂ ਬਦਲੋ(&amp;R)</translation>
    </message>
    <message>
        <source>Could not delete directory.</source>
        <translation>ਡਾਇਰੈਕਟਰੀ ਮਿਟਾਈ ਨਹੀਂ ਜਾ ਸਕੀ।</translation>
    </message>
    <message>
        <source>Directory:</source>
        <translation>ਡਾਇਰੈਕਟਰੀ:</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>ਅਣਜਾਣ</translation>
    </message>
    <message>
        <source>%1 already exists.
Do you want to replace it?</source>
        <translation>%1 ਪਹਿਲਾਂ ਹੀ ਮੌਜੂਦ ਹੈ।
ਕੀ ਤੁਸੀਂ ਇਸਨੂੰ ਬਦਲਣਾ ਚਾਹੁੰਦੇ ਹੋ?</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>ਅੱਗੇ</translation>
    </message>
    <message>
        <source>Go forward</source>
        <translation>ਅੱਗੇ ਜਾਓ</translation>
    </message>
    <message>
        <source>Go to the parent directory</source>
        <translation>ਉੱਪਰਲੀ ਡਾਇਰੈਕਟਰੀ ਵਿੱਚ ਜਾਓ</translation>
    </message>
    <message>
        <source>Recent Places</source>
        <translation>ਹਾਲੀਆ ਥਾਵਾਂ</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>ਪਿੱਛੇ ਜਾਓ</translation>
    </message>
    <message>
        <source>Change to detail view mode</source>
        <translation>ਵੇਰਵਾ ਦ੍ਰਿਸ਼ ਵਿੱਚ ਬਦਲੋ</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>ਨਵਾਂ ਫੋਲਡਰ ਬਣਾਓ</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>ਵੇਰਵਾ ਦ੍ਰਿਸ਼</translation>
    </message>
    <message>
        <source>%1
File not found.
Please verify the correct file name was given.</source>
        <translation>%1
ਫ਼ਾਈਲ ਨਹੀਂ ਲੱਭੀ।
ਕਿਰਪਾ ਕਰਕੇ ਜਾਂਚੋ ਕਿ ਫ਼ਾਈਲ ਦਾ ਨਾਂ ਸਹੀ ਦਿੱਤਾ ਗਿਆ ਹੈ।</translation>
    </message>
    <message>
        <source>Change to list view mode</source>
        <translation>ਸੂਚੀ ਦ੍ਰਿਸ਼ ਵਿੱਚ ਬਦਲੋ</translation>
    </message>
    <message>
        <source>Show </source>
        <translation>ਦਿਖਾਓ </translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Kind</source>
        <translation>ਪ੍ਰਕਾਰ</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>ਨਾਂ</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>ਆਕਾਰ</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>ਕਿਸਮ</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>ਮੇਰਾ ਕੰਪਿਊਟਰ</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>ਕੰਪਿਊਟਰ</translation>
    </message>
    <message>
        <source>Invalid filename</source>
        <translation>ਗਲਤ ਫ਼ਾਈਲ ਨਾਂ</translation>
    </message>
    <message>
        <source>&lt;b&gt;The name &quot;%1&quot; cannot be used.&lt;/b&gt;&lt;p&gt;Try using another name, with fewer characters or no punctuation marks.</source>
        <translation>&lt;b&gt;&quot;%1&quot; ਨਾਂ ਵਰਤਿਆ ਨਹੀਂ ਜਾ ਸਕਦਾ।&lt;/b&gt;&lt;p&gt;ਘੱਟ ਅੱਖਰਾਂ ਵਾਲਾ ਜਾਂ ਬਿਨਾਂ ਵਿਸ਼ਰਾਮ ਚਿੰਨ੍ਹਾਂ ਵਾਲਾ ਕੋਈ ਹੋਰ ਨਾਂ ਵਰਤ ਕੇ ਵੇਖੋ।</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>ਸੋਧਣ ਦੀ ਮਿਤੀ</translation>
    </message>
</context>
<context>
    <name>QGuiApplication</name>
    <message>
        <source>QT_LAYOUT_DIRECTION</source>
        <comment>Translate this string to the string &apos;LTR&apos; in left-to-right languages or to &apos;RTL&apos; in right-to-left languages (such as Hebrew and Arabic) to get proper widget layout.</comment>
        <translation>LTR</translation>
    </message>
</context>
<context>
    <name>QInputDialog</name>
    <message>
        <source>Enter a value:</source>
        <translation>ਮੁੱਲ ਦਿਓ:</translation>
    </message>
</context>
<context>
    <name>QLineEdit</name>
    <message>
        <source>Cu&amp;t</source>
        <translation>ਕੱਟੋ(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>ਕਾਪੀ ਕਰੋ(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>ਮੁੜ ਕਰੋ(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>ਵਾਪਸ ਲਓ(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>ਚਿਪਕਾਓ(&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>ਮਿਟਾਓ</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>ਸਭ ਚੁਣੋ</translation>
    </message>
</context>
<context>
    <name>QMessageBox</name>
    <message>
        <source>Show Details...</source>
        <translation>ਵੇਰਵੇ ਵੇਖਾਓ...</translation>
    </message>
    <message>
        <source>Hide Details...</source>
        <translation>ਵੇਰਵੇ ਲੁਕਾਓ...</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>ਠੀਕ ਹੈ</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>ਨਹੀਂ(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>ਹਾਂ(&amp;Y)</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>ਮਦਦ</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>ਖੋਲ੍ਹੋ</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>ਸੰਭਾਲੋ</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>ਅਧੂਰਾ ਛੱਡੋ</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>ਲਾਗੂ ਕਰੋ</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>ਬੰਦ ਕਰੋ</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>ਮੁੜ-ਸੈੱਟ ਕਰੋ</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>ਮੁੜ ਕੋਸ਼ਿਸ਼ ਕਰੋ</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>ਮੂਲ ਮੁੱਲ ਮੁੜ ਲਾਗੂ ਕਰੋ</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>ਰੱਦ ਕਰੋ</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>ਅਣਡਿੱਠਾ ਕਰੋ</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>ਸਭ ਲਈ ਨਹੀਂ(&amp;O)</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>ਸਭ ਸੰਭਾਲੋ</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>ਤਿਆਗੋ</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>ਸਭ ਲਈ ਹਾਂ(&amp;A)</translation>
    </message>
</context>
<context>
    <name>QProgressDialog</name>
    <message>
        <source>Cancel</source>
        <translation>ਰੱਦ ਕਰੋ</translation>
    </message>
</context>
<context>
    <name>QScrollBar</name>
    <message>
        <source>Top</source>
        <translation>ਸਿਖਰ</translation>
    </message>
    <message>
        <source>Scroll down</source>
        <translation>ਹੇਠਾਂ ਸਕ੍ਰੋਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Scroll here</source>
        <translation>ਇੱਥੇ ਸਕ੍ਰੋਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Scroll left</source>
        <translation>ਖੱਬੇ ਸਕ੍ਰੋਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Bottom</source>
        <translation>ਹੇਠਲਾ ਸਿਰਾ</translation>
    </message>
    <message>
        <source>Page up</source>
        <translation>ਪੰਨਾ ਉੱਪਰ</translation>
    </message>
    <message>
        <source>Page right</source>
        <translation>ਪੰਨਾ ਸੱਜੇ</translation>
    </message>
    <message>
        <source>Scroll up</source>
        <translation>ਉੱਪਰ ਸਕ੍ਰੋਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Scroll right</source>
        <translation>ਸੱਜੇ ਸਕ੍ਰੋਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Left edge</source>
        <translation>ਖੱਬਾ ਕਿਨਾਰਾ</translation>
    </message>
    <message>
        <source>Page down</source>
        <translation>ਪੰਨਾ ਹੇਠਾਂ</translation>
    </message>
    <message>
        <source>Page left</source>
        <translation>ਪੰਨਾ ਖੱਬੇ</translation>
    </message>
    <message>
        <source>Right edge</source>
        <translation>ਸੱਜਾ ਕਿਨਾਰਾ</translation>
    </message>
</context>
<context>
    <name>QTabBar</name>
    <message>
        <source>Scroll Left</source>
        <translation>ਖੱਬੇ ਸਕ੍ਰੋਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Scroll Right</source>
        <translation>ਸੱਜੇ ਸਕ੍ਰੋਲ ਕਰੋ</translation>
    </message>
</context>
<context>
    <name>QUnicodeControlCharacterMenu</name>
    <message>
        <source>RLE Start of right-to-left embedding</source>
        <translation>RLE ਸੱਜੇ ਤੋਂ ਖੱਬੇ ਸ਼ਾਮਲ ਕਰਨ ਦੀ ਸ਼ੁਰੂਆਤ</translation>
    </message>
    <message>
        <source>ZWSP Zero width space</source>
        <translation>ZWSP ਜ਼ੀਰੋ ਚੌੜਾਈ ਵਾਲੀ ਖਾਲੀ ਥਾਂ</translation>
    </message>
    <message>
        <source>LRI Left-to-right isolate</source>
        <translation>LRI ਖੱਬੇ ਤੋਂ ਸੱਜੇ ਨਿਖੇੜ</translation>
    </message>
    <message>
        <source>Insert Unicode control character</source>
        <translation>ਯੂਨੀਕੋਡ ਕੰਟਰੋਲ ਅੱਖਰ ਪਾਓ</translation>
    </message>
    <message>
        <source>LRO Start of left-to-right override</source>
        <translation>LRO ਖੱਬੇ ਤੋਂ ਸੱਜੇ ਓਵਰਰਾਈਡ ਦੀ ਸ਼ੁਰੂਆਤ</translation>
    </message>
    <message>
        <source>LRE Start of left-to-right embedding</source>
        <translation>LRE ਖੱਬੇ ਤੋਂ ਸੱਜੇ ਸ਼ਾਮਲ ਕਰਨ ਦੀ ਸ਼ੁਰੂਆਤ</translation>
    </message>
    <message>
        <source>RLI Right-to-left isolate</source>
        <translation>RLI ਸੱਜੇ ਤੋਂ ਖੱਬੇ ਨਿਖੇੜ</translation>
    </message>
    <message>
        <source>RLM Right-to-left mark</source>
        <translation>RLM ਸੱਜੇ ਤੋਂ ਖੱਬੇ ਚਿੰਨ੍ਹ</translation>
    </message>
    <message>
        <source>PDF Pop directional formatting</source>
        <translation>PDF ਦਿਸ਼ਾ ਫਾਰਮੈਟਿੰਗ ਦਾ ਅੰਤ</translation>
    </message>
    <message>
        <source>ZWNJ Zero width non-joiner</source>
        <translation>ZWNJ ਜ਼ੀਰੋ ਚੌੜਾਈ ਨਾ-ਜੋੜਕ</translation>
    </message>
    <message>
        <source>RLO Start of right-to-left override</source>
        <translation>RLO ਸੱਜੇ ਤੋਂ ਖੱਬੇ ਓਵਰਰਾਈਡ ਦੀ ਸ਼ੁਰੂਆਤ</translation>
    </message>
    <message>
        <source>PDI Pop directional isolate</source>
        <translation>PDI ਦਿਸ਼ਾ ਨਿਖੇੜ ਦਾ ਅੰਤ</translation>
    </message>
    <message>
        <source>ZWJ Zero width joiner</source>
        <translation>ZWJ ਜ਼ੀਰੋ ਚੌੜਾਈ ਜੋੜਕ</translation>
    </message>
    <message>
        <source>LRM Left-to-right mark</source>
        <translation>LRM ਖੱਬੇ ਤੋਂ ਸੱਜੇ ਚਿੰਨ੍ਹ</translation>
    </message>
    <message>
        <source>FSI First strong isolate</source>
        <translation>FSI ਪਹਿਲੇ ਮਜ਼ਬੂਤ ਅੱਖਰ ਅਨੁਸਾਰ ਨਿਖੇੜ</translation>
    </message>
</context>
<context>
    <name>QWidgetTextControl</name>
    <message>
        <source>Cu&amp;t</source>
        <translation>ਕੱਟੋ(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>ਕਾਪੀ ਕਰੋ(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>ਮੁੜ ਕਰੋ(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>ਵਾਪਸ ਲਓ(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>ਚਿਪਕਾਓ(&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>ਮਿਟਾਓ</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>ਸਭ ਚੁਣੋ</translation>
    </message>
    <message>
        <source>Copy &amp;Link Location</source>
        <translation>ਲਿੰਕ ਦਾ ਪਤਾ ਕਾਪੀ ਕਰੋ(&amp;L)</translation>
    </message>
</context>
<context>
    <name>ResetScenarioDialog</name>
    <message>
        <source>Demo: count reset</source>
        <translation>ਡੈਮੋ: ਗਿਣਤੀ ਰੀਸੈੱਟ</translation>
    </message>
    <message>
        <source>Seeds a fresh pool at the scenario key, runs steady allocations, evicts one member halfway, restores it with the chosen policy and keeps allocating. The dashboard switches to the scenario pool so the chart shows the restore and the flood (or its absence). Then the forecast is compared with what happened.</source>
        <translation>ਦ੍ਰਿਸ਼ ਦੀ ਕੁੰਜੀ &apos;ਤੇ ਇੱਕ ਨਵੇਂ ਪੂਲ ਵਿੱਚ ਸੂਚੀ ਤੋਂ ਮੈਂਬਰ ਜੋੜਦਾ ਹੈ, ਸਥਿਰ ਨਿਰਧਾਰਨ ਚਲਾਉਂਦਾ ਹੈ, ਅੱਧ ਵਿਚਾਲੇ ਇੱਕ ਮੈਂਬਰ ਹਟਾਉਂਦਾ ਹੈ, ਚੁਣੀ ਨੀਤੀ ਨਾਲ ਉਸ ਨੂੰ ਬਹਾਲ ਕਰਦਾ ਹੈ ਅਤੇ ਨਿਰਧਾਰਨ ਜਾਰੀ ਰੱਖਦਾ ਹੈ। ਡੈਸ਼ਬੋਰਡ ਦ੍ਰਿਸ਼ ਦੇ ਪੂਲ &apos;ਤੇ ਚਲਾ ਜਾਂਦਾ ਹੈ ਤਾਂ ਜੋ ਚਾਰਟ ਬਹਾਲੀ ਅਤੇ ਹੜ੍ਹ (ਜਾਂ ਉਸ ਦੀ ਗੈਰਹਾਜ਼ਰੀ) ਦਿਖਾਏ। ਫਿਰ ਪੂਰਵ-ਅਨੁਮਾਨ ਦੀ ਤੁਲਨਾ ਹੋਈ ਘਟਨਾ ਨਾਲ ਕੀਤੀ ਜਾਂਦੀ ਹੈ।</translation>
    </message>
    <message>
        <source>Restore policy</source>
        <translation>ਬਹਾਲੀ ਨੀਤੀ</translation>
    </message>
    <message>
        <source>What the restored member&apos;s count becomes</source>
        <translation>ਬਹਾਲ ਕੀਤੇ ਮੈਂਬਰ ਦੀ ਗਿਣਤੀ ਕੀ ਬਣਦੀ ਹੈ</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>Size of the scenario pool (proxy-00, proxy-01, ...)</source>
        <translation>ਦ੍ਰਿਸ਼ ਦੇ ਪੂਲ ਦਾ ਆਕਾਰ (proxy-00, proxy-01, ...)</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>ਦਰ</translation>
    </message>
    <message>
        <source>Steady allocations per second</source>
        <translation>ਪ੍ਰਤੀ ਸਕਿੰਟ ਸਥਿਰ ਨਿਰਧਾਰਨ</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> /ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>Load before restore</source>
        <translation>ਬਹਾਲੀ ਤੋਂ ਪਹਿਲਾਂ ਲੋਡ</translation>
    </message>
    <message>
        <source>Seconds of load before the restore; the member is evicted halfway</source>
        <translation>ਬਹਾਲੀ ਤੋਂ ਪਹਿਲਾਂ ਲੋਡ ਦੇ ਸਕਿੰਟ; ਮੈਂਬਰ ਅੱਧ ਵਿਚਾਲੇ ਹਟਾਇਆ ਜਾਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source> s</source>
        <translation> ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>Load after restore</source>
        <translation>ਬਹਾਲੀ ਤੋਂ ਬਾਅਦ ਲੋਡ</translation>
    </message>
    <message>
        <source>Seconds of load after the restore</source>
        <translation>ਬਹਾਲੀ ਤੋਂ ਬਾਅਦ ਲੋਡ ਦੇ ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>Scenario key</source>
        <translation>ਦ੍ਰਿਸ਼ ਦੀ ਕੁੰਜੀ</translation>
    </message>
    <message>
        <source>The scenario writes its own pool here, replacing what is there</source>
        <translation>ਦ੍ਰਿਸ਼ ਆਪਣਾ ਪੂਲ ਇੱਥੇ ਲਿਖਦਾ ਹੈ, ਜੋ ਇੱਥੇ ਹੈ ਉਸ ਦੀ ਥਾਂ</translation>
    </message>
    <message>
        <source>poolscope:reset-demo</source>
        <translation>poolscope:reset-demo</translation>
    </message>
    <message>
        <source>Time elapsed in the scenario</source>
        <translation>ਦ੍ਰਿਸ਼ ਵਿੱਚ ਬੀਤਿਆ ਸਮਾਂ</translation>
    </message>
    <message>
        <source>The forecast next to what happened</source>
        <translation>ਪੂਰਵ-ਅਨੁਮਾਨ ਅਤੇ ਜੋ ਹੋਇਆ, ਨਾਲ-ਨਾਲ</translation>
    </message>
</context>
<context>
    <name>RestoreDialog</name>
    <message>
        <source>Restore evicted members</source>
        <translation>ਹਟਾਏ ਮੈਂਬਰ ਬਹਾਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Restore with count</source>
        <translation>ਇਸ ਗਿਣਤੀ ਨਾਲ ਬਹਾਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>What the restored member&apos;s count becomes</source>
        <translation>ਬਹਾਲ ਕੀਤੇ ਮੈਂਬਰ ਦੀ ਗਿਣਤੀ ਕੀ ਬਣਦੀ ਹੈ</translation>
    </message>
    <message>
        <source>Starting count</source>
        <translation>ਸ਼ੁਰੂਆਤੀ ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>The agreed starting count, used by the &quot;start&quot; policy</source>
        <translation>ਸਹਿਮਤ ਸ਼ੁਰੂਆਤੀ ਗਿਣਤੀ, &quot;ਸ਼ੁਰੂਆਤ&quot; ਨੀਤੀ ਵੱਲੋਂ ਵਰਤੀ ਜਾਂਦੀ</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>Forecast</source>
        <translation>ਪੂਰਵ-ਅਨੁਮਾਨ</translation>
    </message>
    <message>
        <source>allocate.lua always picks the lowest count: a member restored below the pool minimum takes every allocation until it has caught up. Updated with every poll.</source>
        <translation>allocate.lua ਹਮੇਸ਼ਾ ਸਭ ਤੋਂ ਘੱਟ ਗਿਣਤੀ ਚੁਣਦਾ ਹੈ: ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਤੋਂ ਹੇਠਾਂ ਬਹਾਲ ਕੀਤਾ ਮੈਂਬਰ ਹਰ ਨਿਰਧਾਰਨ ਲੈਂਦਾ ਹੈ ਜਦ ਤੱਕ ਉਹ ਪੂਰਾ ਨਹੀਂ ਹੋ ਜਾਂਦਾ। ਹਰ ਪੋਲ ਨਾਲ ਅੱਪਡੇਟ ਹੁੰਦਾ ਹੈ।</translation>
    </message>
</context>
<context>
    <name>RestorePolicy</name>
    <message>
        <source>keep</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy keep).</extracomment>
        <translation>ਰੱਖੋ</translation>
    </message>
    <message>
        <source>zero</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy zero).</extracomment>
        <translation>ਜ਼ੀਰੋ</translation>
    </message>
    <message>
        <source>start</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy start).</extracomment>
        <translation>ਸ਼ੁਰੂਆਤ</translation>
    </message>
    <message>
        <source>min</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy min): the pool&apos;s minimum.</extracomment>
        <translation>ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message>
        <source>keep: back at its saved count, where it left off</source>
        <translation>ਰੱਖੋ: ਆਪਣੀ ਸੰਭਾਲੀ ਗਿਣਤੀ &apos;ਤੇ ਵਾਪਸ, ਜਿੱਥੇ ਇਹ ਰੁਕਿਆ ਸੀ</translation>
    </message>
    <message>
        <source>zero: back at 0; it takes every allocation until it catches up</source>
        <translation>ਜ਼ੀਰੋ: 0 &apos;ਤੇ ਵਾਪਸ; ਪੂਰਾ ਹੋਣ ਤੱਕ ਇਹ ਹਰ ਨਿਰਧਾਰਨ ਲੈਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>start: back at the agreed starting count</source>
        <translation>ਸ਼ੁਰੂਆਤ: ਸਹਿਮਤ ਸ਼ੁਰੂਆਤੀ ਗਿਣਤੀ &apos;ਤੇ ਵਾਪਸ</translation>
    </message>
    <message>
        <source>min: back at the pool&apos;s lowest count; joins the rotation, no flood</source>
        <translation>ਘੱਟੋ-ਘੱਟ: ਪੂਲ ਦੀ ਸਭ ਤੋਂ ਘੱਟ ਗਿਣਤੀ &apos;ਤੇ ਵਾਪਸ; ਵਾਰੀ ਵਿੱਚ ਸ਼ਾਮਲ ਹੁੰਦਾ ਹੈ, ਕੋਈ ਹੜ੍ਹ ਨਹੀਂ</translation>
    </message>
</context>
<context>
    <name>SeedDialog</name>
    <message>
        <source>Seed the pool</source>
        <translation>ਪੂਲ ਵਿੱਚ ਸੂਚੀ ਤੋਂ ਮੈਂਬਰ ਜੋੜੋ</translation>
    </message>
    <message>
        <source>The pool this dialog writes to</source>
        <translation>ਉਹ ਪੂਲ ਜਿਸ ਵਿੱਚ ਇਹ ਡਾਇਲਾਗ ਲਿਖਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Import a proxy list: open a file, paste it, or drop a file here. One proxy per line (host:port, scheme://host:port, CSV with a host/port header, or a JSON array). Nothing is written until you press Seed.</source>
        <translation>ਪਰਾਕਸੀ ਸੂਚੀ ਆਯਾਤ ਕਰੋ: ਫ਼ਾਈਲ ਖੋਲ੍ਹੋ, ਉਸ ਨੂੰ ਚਿਪਕਾਓ, ਜਾਂ ਫ਼ਾਈਲ ਇੱਥੇ ਸੁੱਟੋ। ਹਰ ਲਾਈਨ ਵਿੱਚ ਇੱਕ ਪਰਾਕਸੀ (host:port, scheme://host:port, host/port ਸਿਰਲੇਖ ਵਾਲੀ CSV, ਜਾਂ JSON ਐਰੇ)। ਜਦ ਤੱਕ ਤੁਸੀਂ &quot;ਜੋੜੋ&quot; ਨਹੀਂ ਦਬਾਉਂਦੇ, ਕੁਝ ਨਹੀਂ ਲਿਖਿਆ ਜਾਂਦਾ।</translation>
    </message>
    <message>
        <source>Read a proxy list from a file</source>
        <translation>ਫ਼ਾਈਲ ਤੋਂ ਪਰਾਕਸੀ ਸੂਚੀ ਪੜ੍ਹੋ</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>ਫ਼ਾਈਲ ਖੋਲ੍ਹੋ…</translation>
    </message>
    <message>
        <source>Replace the text below with the clipboard</source>
        <translation>ਹੇਠਲੇ ਟੈਕਸਟ ਨੂੰ ਕਲਿੱਪਬੋਰਡ ਨਾਲ ਬਦਲੋ</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>ਚਿਪਕਾਓ</translation>
    </message>
    <message>
        <source>Reject private, loopback, link-local, CGNAT, multicast, reserved and documentation addresses, and IPv6 addresses that carry one (IPv4-mapped, 6to4, Teredo, NAT64)</source>
        <translation>ਨਿੱਜੀ, ਲੂਪਬੈਕ, ਲਿੰਕ-ਲੋਕਲ, CGNAT, ਮਲਟੀਕਾਸਟ, ਰਾਖਵੇਂ ਅਤੇ ਦਸਤਾਵੇਜ਼ੀ ਪਤੇ, ਅਤੇ ਅਜਿਹਾ ਪਤਾ ਰੱਖਣ ਵਾਲੇ IPv6 ਪਤੇ (IPv4-mapped, 6to4, Teredo, NAT64) ਰੱਦ ਕਰੋ</translation>
    </message>
    <message>
        <source>Public addresses only</source>
        <translation>ਸਿਰਫ਼ ਜਨਤਕ ਪਤੇ</translation>
    </message>
    <message>
        <source>The proxy list. Drop a file or paste text here.</source>
        <translation>ਪਰਾਕਸੀ ਸੂਚੀ। ਫ਼ਾਈਲ ਇੱਥੇ ਸੁੱਟੋ ਜਾਂ ਟੈਕਸਟ ਚਿਪਕਾਓ।</translation>
    </message>
    <message>
        <source>192.0.2.10:8080
http://198.51.100.7:3128
socks5://203.0.113.5:1080</source>
        <translation>192.0.2.10:8080
http://198.51.100.7:3128
socks5://203.0.113.5:1080</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>ਸਵੀਕਾਰ ਕੀਤੇ</translation>
    </message>
    <message>
        <source>Members that will be written, with the line they came from</source>
        <translation>ਮੈਂਬਰ ਜੋ ਲਿਖੇ ਜਾਣਗੇ, ਉਸ ਲਾਈਨ ਸਮੇਤ ਜਿਸ ਤੋਂ ਉਹ ਆਏ</translation>
    </message>
    <message>
        <source>line</source>
        <translation>ਲਾਈਨ</translation>
    </message>
    <message>
        <source>member</source>
        <translation>ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>note</source>
        <translation>ਟਿੱਪਣੀ</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>ਰੱਦ ਕੀਤੇ</translation>
    </message>
    <message>
        <source>Lines that will not be written, and why (long reasons wrap; hover a row for the whole of it)</source>
        <translation>ਲਾਈਨਾਂ ਜੋ ਨਹੀਂ ਲਿਖੀਆਂ ਜਾਣਗੀਆਂ, ਅਤੇ ਕਿਉਂ (ਲੰਮੇ ਕਾਰਨ ਲਪੇਟੇ ਜਾਂਦੇ ਹਨ; ਪੂਰਾ ਦੇਖਣ ਲਈ ਕਤਾਰ ਉੱਤੇ ਮਾਊਸ ਰੱਖੋ)</translation>
    </message>
    <message>
        <source>text</source>
        <translation>ਟੈਕਸਟ</translation>
    </message>
    <message>
        <source>reason</source>
        <translation>ਕਾਰਨ</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>ਦੁਹਰਾਅ</translation>
    </message>
    <message>
        <source>Members that occur more than once in the list: each is written once, from the line kept</source>
        <translation>ਮੈਂਬਰ ਜੋ ਸੂਚੀ ਵਿੱਚ ਇੱਕ ਤੋਂ ਵੱਧ ਵਾਰ ਆਉਂਦੇ ਹਨ: ਹਰ ਇੱਕ ਰੱਖੀ ਲਾਈਨ ਤੋਂ ਇੱਕ ਵਾਰ ਲਿਖਿਆ ਜਾਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>kept line</source>
        <translation>ਰੱਖੀ ਲਾਈਨ</translation>
    </message>
    <message>
        <source>times in the list</source>
        <translation>ਸੂਚੀ ਵਿੱਚ ਵਾਰ</translation>
    </message>
    <message>
        <source>collapsed lines</source>
        <translation>ਮਿਲਾਈਆਂ ਲਾਈਨਾਂ</translation>
    </message>
    <message>
        <source>Starting count</source>
        <translation>ਸ਼ੁਰੂਆਤੀ ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>New members start at this count</source>
        <translation>ਨਵੇਂ ਮੈਂਬਰ ਇਸ ਗਿਣਤੀ ਤੋਂ ਸ਼ੁਰੂ ਹੁੰਦੇ ਹਨ</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>ਨਿਰਧਾਰਨ ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>A whole number from 0 to 2^53</source>
        <translation>0 ਤੋਂ 2^53 ਤੱਕ ਪੂਰਨ ਸੰਖਿਆ</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>New members start at the pool&apos;s lowest count when they are written: no flood</source>
        <translation>ਨਵੇਂ ਮੈਂਬਰ ਲਿਖੇ ਜਾਣ ਵੇਲੇ ਪੂਲ ਦੀ ਸਭ ਤੋਂ ਘੱਟ ਗਿਣਤੀ ਤੋਂ ਸ਼ੁਰੂ ਹੁੰਦੇ ਹਨ: ਕੋਈ ਹੜ੍ਹ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>Pool minimum</source>
        <translation>ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message>
        <source>Also reset the count of members that are already in the pool</source>
        <translation>ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ ਮੌਜੂਦ ਮੈਂਬਰਾਂ ਦੀ ਗਿਣਤੀ ਵੀ ਰੀਸੈੱਟ ਕਰੋ</translation>
    </message>
    <message>
        <source>Reset members already in the pool</source>
        <translation>ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ ਮੌਜੂਦ ਮੈਂਬਰ ਰੀਸੈੱਟ ਕਰੋ</translation>
    </message>
    <message>
        <source>Members written so far</source>
        <translation>ਹੁਣ ਤੱਕ ਲਿਖੇ ਮੈਂਬਰ</translation>
    </message>
</context>
<context>
    <name>TestAllocationDialog</name>
    <message>
        <source>Test allocations</source>
        <translation>ਟੈਸਟ ਨਿਰਧਾਰਨ</translation>
    </message>
    <message>
        <source>Allocate proxies the way workers do: allocate.lua by EVALSHA, each worker on its own connection. Every allocation really increments a count.</source>
        <translation>ਪਰਾਕਸੀਆਂ ਉਵੇਂ ਨਿਰਧਾਰਤ ਕਰੋ ਜਿਵੇਂ ਵਰਕਰ ਕਰਦੇ ਹਨ: EVALSHA ਰਾਹੀਂ allocate.lua, ਹਰ ਵਰਕਰ ਆਪਣੇ ਕਨੈਕਸ਼ਨ &apos;ਤੇ। ਹਰ ਨਿਰਧਾਰਨ ਸੱਚਮੁੱਚ ਇੱਕ ਗਿਣਤੀ ਵਧਾਉਂਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Stop after this many allocations</source>
        <translation>ਇੰਨੇ ਨਿਰਧਾਰਨਾਂ ਤੋਂ ਬਾਅਦ ਰੁਕੋ</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>ਨਿਰਧਾਰਨ</translation>
    </message>
    <message>
        <source>How many allocations in all</source>
        <translation>ਕੁੱਲ ਕਿੰਨੇ ਨਿਰਧਾਰਨ</translation>
    </message>
    <message>
        <source>Run for this long instead of a fixed number</source>
        <translation>ਨਿਸ਼ਚਿਤ ਗਿਣਤੀ ਦੀ ਥਾਂ ਇੰਨੀ ਦੇਰ ਚਲਾਓ</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>ਮਿਆਦ</translation>
    </message>
    <message>
        <source>Seconds to run</source>
        <translation>ਚਲਾਉਣ ਦੇ ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source> s</source>
        <translation> ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>ਵਰਕਰ</translation>
    </message>
    <message>
        <source>Threads, each with its own Redis connection</source>
        <translation>ਥ੍ਰੈੱਡ, ਹਰ ਇੱਕ ਦਾ ਆਪਣਾ Redis ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>ਪਾਈਪਲਾਈਨ</translation>
    </message>
    <message>
        <source>Allocations in flight per worker</source>
        <translation>ਪ੍ਰਤੀ ਵਰਕਰ ਰਾਹ ਵਿੱਚ ਨਿਰਧਾਰਨ</translation>
    </message>
    <message>
        <source>Rate limit</source>
        <translation>ਦਰ ਸੀਮਾ</translation>
    </message>
    <message>
        <source>Allocations per second, all workers together; 0 = as fast as the server allows</source>
        <translation>ਪ੍ਰਤੀ ਸਕਿੰਟ ਨਿਰਧਾਰਨ, ਸਾਰੇ ਵਰਕਰ ਮਿਲਾ ਕੇ; 0 = ਜਿੰਨਾ ਤੇਜ਼ ਸਰਵਰ ਇਜਾਜ਼ਤ ਦੇਵੇ</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>ਅਸੀਮਤ</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> /ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>ਢੰਗ</translation>
    </message>
    <message>
        <source>The atomic script, or the naive ZRANGE then ZINCRBY (the race demo: counts collisions)</source>
        <translation>ਪਰਮਾਣੂ ਸਕ੍ਰਿਪਟ, ਜਾਂ ਭੋਲਾ ZRANGE ਫਿਰ ZINCRBY (ਦੌੜ ਦਾ ਡੈਮੋ: ਟਕਰਾਅ ਗਿਣਦਾ ਹੈ)</translation>
    </message>
    <message>
        <source>Allocations done</source>
        <translation>ਹੋਏ ਨਿਰਧਾਰਨ</translation>
    </message>
    <message>
        <source>Current allocation rate of this run</source>
        <translation>ਇਸ ਦੌੜ ਦੀ ਮੌਜੂਦਾ ਨਿਰਧਾਰਨ ਦਰ</translation>
    </message>
    <message>
        <source>Summary of the last run</source>
        <translation>ਪਿਛਲੀ ਦੌੜ ਦਾ ਸਾਰ</translation>
    </message>
</context>
<context>
    <name>WriteLock</name>
    <message>
        <source>Production</source>
        <translation>ਪ੍ਰੋਡਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>Staging</source>
        <translation>ਸਟੇਜਿੰਗ</translation>
    </message>
    <message>
        <source>Development</source>
        <translation>ਡਿਵੈਲਪਮੈਂਟ</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>reopening the last connection %1 (poolscope --demo starts the demo instead)</source>
        <translation>ਪਿਛਲਾ ਕਨੈਕਸ਼ਨ %1 ਮੁੜ ਖੋਲ੍ਹਿਆ ਜਾ ਰਿਹਾ ਹੈ (poolscope --demo ਇਸ ਦੀ ਥਾਂ ਡੈਮੋ ਸ਼ੁਰੂ ਕਰਦਾ ਹੈ)</translation>
    </message>
    <message>
        <source>cannot start the embedded redis-server: %1. Or connect to a server with --url redis://host:6379/0.</source>
        <translation>ਅੰਦਰੂਨੀ redis-server ਸ਼ੁਰੂ ਨਹੀਂ ਹੋ ਸਕਦਾ: %1। ਜਾਂ --url redis://host:6379/0 ਨਾਲ ਕਿਸੇ ਸਰਵਰ ਨਾਲ ਜੁੜੋ।</translation>
    </message>
    <message>
        <source>embedded redis-server started (pid %1, %2); it stops when poolscope exits</source>
        <translation>ਅੰਦਰੂਨੀ redis-server ਸ਼ੁਰੂ ਹੋਇਆ (pid %1, %2); poolscope ਬੰਦ ਹੋਣ &apos;ਤੇ ਇਹ ਰੁਕ ਜਾਂਦਾ ਹੈ</translation>
    </message>
</context>
<context>
    <name>poolscope</name>
    <message>
        <source>choose the server&apos;s CA in File ▸ Connections... ▸ Edit... ▸ CA file</source>
        <translation>ਸਰਵਰ ਦਾ CA ਫ਼ਾਈਲ ▸ ਕਨੈਕਸ਼ਨ... ▸ ਸੋਧੋ... ▸ CA ਫ਼ਾਈਲ ਵਿੱਚ ਚੁਣੋ</translation>
    </message>
    <message>
        <source>connect by one of those names, or enter the expected one in File ▸ Connections... ▸ Edit... ▸ Server name</source>
        <translation>ਉਹਨਾਂ ਨਾਵਾਂ ਵਿੱਚੋਂ ਕਿਸੇ ਇੱਕ ਨਾਲ ਜੁੜੋ, ਜਾਂ ਉਮੀਦ ਕੀਤਾ ਨਾਂ ਫ਼ਾਈਲ ▸ ਕਨੈਕਸ਼ਨ... ▸ ਸੋਧੋ... ▸ ਸਰਵਰ ਦਾ ਨਾਂ ਵਿੱਚ ਦਿਓ</translation>
    </message>
    <message>
        <source>check its fingerprint, then connect again and choose Trust, or tick &quot;Accept and record an unknown host key&quot; in File ▸ Connections... ▸ Edit...</source>
        <translation>ਉਸ ਦਾ ਫਿੰਗਰਪ੍ਰਿੰਟ ਜਾਂਚੋ, ਫਿਰ ਮੁੜ ਜੁੜੋ ਅਤੇ &quot;ਭਰੋਸਾ ਕਰੋ&quot; ਚੁਣੋ, ਜਾਂ ਫ਼ਾਈਲ ▸ ਕਨੈਕਸ਼ਨ... ▸ ਸੋਧੋ... ਵਿੱਚ &quot;ਅਣਜਾਣ ਹੋਸਟ ਕੁੰਜੀ ਸਵੀਕਾਰ ਕਰੋ ਅਤੇ ਦਰਜ ਕਰੋ&quot; &apos;ਤੇ ਨਿਸ਼ਾਨ ਲਾਓ</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertRules</name>
    <message>
        <source>Pool empty</source>
        <translation>ਪੂਲ ਖਾਲੀ</translation>
    </message>
    <message>
        <source>Few members</source>
        <translation>ਥੋੜ੍ਹੇ ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>Fewest members</source>
        <translation>ਸਭ ਤੋਂ ਘੱਟ ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>Many evicted</source>
        <translation>ਬਹੁਤ ਸਾਰੇ ਹਟਾਏ</translation>
    </message>
    <message>
        <source>Evicted share (%)</source>
        <translation>ਹਟਾਏ ਗਏ ਹਿੱਸਾ (%)</translation>
    </message>
    <message>
        <source>One member floods</source>
        <translation>ਇੱਕ ਮੈਂਬਰ ਹੜ੍ਹ ਲਿਆਉਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Share of the allocations (%)</source>
        <translation>ਨਿਰਧਾਰਨਾਂ ਦਾ ਹਿੱਸਾ (%)</translation>
    </message>
    <message>
        <source>Allocations in the window, at least</source>
        <translation>ਵਿੰਡੋ ਵਿੱਚ ਨਿਰਧਾਰਨ, ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message>
        <source>Members in the pool, at least</source>
        <translation>ਪੂਲ ਵਿੱਚ ਮੈਂਬਰ, ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message>
        <source>A member starves</source>
        <translation>ਇੱਕ ਮੈਂਬਰ ਭੁੱਖਾ ਹੈ</translation>
    </message>
    <message>
        <source>Without allocation for (s)</source>
        <translation>ਬਿਨਾਂ ਨਿਰਧਾਰਨ ਦੇ ਸਮਾਂ (ਸਕਿੰਟ)</translation>
    </message>
    <message>
        <source>While the pool allocated, per member, at least</source>
        <translation>ਜਦੋਂ ਪੂਲ ਨੇ ਨਿਰਧਾਰਤ ਕੀਤਾ, ਪ੍ਰਤੀ ਮੈਂਬਰ, ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message>
        <source>Counts spread apart</source>
        <translation>ਗਿਣਤੀਆਂ ਦੂਰ ਫੈਲੀਆਂ</translation>
    </message>
    <message>
        <source>Highest minus lowest count, at most</source>
        <translation>ਸਭ ਤੋਂ ਵੱਧ ਘਟਾਓ ਸਭ ਤੋਂ ਘੱਟ ਗਿਣਤੀ, ਵੱਧ ਤੋਂ ਵੱਧ</translation>
    </message>
    <message>
        <source>Unfair pool</source>
        <translation>ਪੱਖਪਾਤੀ ਪੂਲ</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index, at least</source>
        <translation>Jain ਨਿਰਪੱਖਤਾ ਸੂਚਕ, ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message>
        <source>Workers stopped</source>
        <translation>ਵਰਕਰ ਰੁਕ ਗਏ</translation>
    </message>
    <message>
        <source>Allocation rate changed</source>
        <translation>ਨਿਰਧਾਰਨ ਦਰ ਬਦਲੀ</translation>
    </message>
    <message>
        <source>Factor from the baseline</source>
        <translation>ਬੇਸਲਾਈਨ ਤੋਂ ਗੁਣਾਂਕ</translation>
    </message>
    <message>
        <source>Baseline allocations/s, at least</source>
        <translation>ਬੇਸਲਾਈਨ ਨਿਰਧਾਰਨ/ਸਕਿੰਟ, ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message>
        <source>Guard at its cap</source>
        <translation>ਰਾਖਾ ਆਪਣੀ ਹੱਦ &apos;ਤੇ</translation>
    </message>
    <message>
        <source>No guard on duty</source>
        <translation>ਕੋਈ ਰਾਖਾ ਡਿਊਟੀ &apos;ਤੇ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>Server unreachable</source>
        <translation>ਸਰਵਰ ਤੱਕ ਪਹੁੰਚ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>Failover</source>
        <translation>ਫੇਲਓਵਰ</translation>
    </message>
    <message>
        <source>Reported for (s)</source>
        <translation>ਰਿਪੋਰਟ ਕਰਨ ਦਾ ਸਮਾਂ (ਸਕਿੰਟ)</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 ਮਿੰਟ</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 ਘੰਟੇ</translation>
    </message>
    <message>
        <source>The pool has no member: every allocation returns nil.</source>
        <translation>ਪੂਲ ਵਿੱਚ ਕੋਈ ਮੈਂਬਰ ਨਹੀਂ: ਹਰ ਨਿਰਧਾਰਨ nil ਵਾਪਸ ਕਰਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Fewer than %1 members in the pool (but not none): each one left takes a large share of the load.</source>
        <translation>ਪੂਲ ਵਿੱਚ %1 ਤੋਂ ਘੱਟ ਮੈਂਬਰ (ਪਰ ਸਿਫ਼ਰ ਨਹੀਂ): ਬਚਿਆ ਹਰ ਇੱਕ ਲੋਡ ਦਾ ਵੱਡਾ ਹਿੱਸਾ ਲੈਂਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>At least %1% of the pool&apos;s members are evicted (a guard at its default cap evicts no more).</source>
        <translation>ਪੂਲ ਦੇ ਘੱਟੋ-ਘੱਟ %1% ਮੈਂਬਰ ਹਟਾਏ ਗਏ ਹਨ (ਆਪਣੀ ਮੂਲ ਹੱਦ &apos;ਤੇ ਰਾਖਾ ਹੋਰ ਨਹੀਂ ਹਟਾਉਂਦਾ)।</translation>
    </message>
    <message>
        <source>One member takes more than %1% of the last window&apos;s allocations (at least %2 of them, %3 members or more): the flood after a restore at count 0.</source>
        <translation>ਇੱਕ ਮੈਂਬਰ ਪਿਛਲੀ ਵਿੰਡੋ ਦੇ ਨਿਰਧਾਰਨਾਂ ਦਾ %1% ਤੋਂ ਵੱਧ ਲੈਂਦਾ ਹੈ (ਉਹਨਾਂ ਵਿੱਚੋਂ ਘੱਟੋ-ਘੱਟ %2, %3 ਜਾਂ ਵੱਧ ਮੈਂਬਰ): ਗਿਣਤੀ 0 &apos;ਤੇ ਬਹਾਲੀ ਤੋਂ ਬਾਅਦ ਦਾ ਹੜ੍ਹ।</translation>
    </message>
    <message>
        <source>A member has had no allocation for %1 while the pool made at least %2 per member: its count is far above the others&apos;.</source>
        <translation>ਇੱਕ ਮੈਂਬਰ ਨੂੰ %1 ਤੋਂ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਿਲਿਆ ਜਦਕਿ ਪੂਲ ਨੇ ਪ੍ਰਤੀ ਮੈਂਬਰ ਘੱਟੋ-ਘੱਟ %2 ਕੀਤੇ: ਉਸ ਦੀ ਗਿਣਤੀ ਬਾਕੀਆਂ ਤੋਂ ਬਹੁਤ ਉੱਪਰ ਹੈ।</translation>
    </message>
    <message>
        <source>The highest and the lowest count are more than %1 apart.</source>
        <translation>ਸਭ ਤੋਂ ਵੱਧ ਅਤੇ ਸਭ ਤੋਂ ਘੱਟ ਗਿਣਤੀ ਵਿੱਚ %1 ਤੋਂ ਵੱਧ ਫ਼ਰਕ ਹੈ।</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index of the counts is below %1.</source>
        <translation>ਗਿਣਤੀਆਂ ਦਾ Jain ਨਿਰਪੱਖਤਾ ਸੂਚਕ %1 ਤੋਂ ਹੇਠਾਂ ਹੈ।</translation>
    </message>
    <message>
        <source>No allocation at all while the pool has members: the workers have stopped or cannot reach Redis.</source>
        <translation>ਪੂਲ ਵਿੱਚ ਮੈਂਬਰ ਹੋਣ ਦੇ ਬਾਵਜੂਦ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ: ਵਰਕਰ ਰੁਕ ਗਏ ਹਨ ਜਾਂ Redis ਤੱਕ ਨਹੀਂ ਪਹੁੰਚ ਸਕਦੇ।</translation>
    </message>
    <message>
        <source>The allocation rate is %1 times above or below its baseline (the minutes before; at least %2 allocations/s).</source>
        <translation>ਨਿਰਧਾਰਨ ਦਰ ਆਪਣੀ ਬੇਸਲਾਈਨ ਤੋਂ %1 ਗੁਣਾ ਉੱਪਰ ਜਾਂ ਹੇਠਾਂ ਹੈ (ਪਿਛਲੇ ਮਿੰਟ; ਘੱਟੋ-ਘੱਟ %2 ਨਿਰਧਾਰਨ/ਸਕਿੰਟ)।</translation>
    </message>
    <message>
        <source>The guard holds back evictions at its cap: the target or the network looks down.</source>
        <translation>ਰਾਖਾ ਆਪਣੀ ਹੱਦ &apos;ਤੇ ਹਟਾਉਣਾ ਰੋਕ ਰਿਹਾ ਹੈ: ਟੀਚਾ ਜਾਂ ਨੈੱਟਵਰਕ ਬੰਦ ਲੱਗਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>A guard watched this pool in the last day, but none holds its lease now: dead members are neither evicted nor restored.</source>
        <translation>ਪਿਛਲੇ ਦਿਨ ਇੱਕ ਰਾਖੇ ਨੇ ਇਸ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਕੀਤੀ, ਪਰ ਹੁਣ ਕਿਸੇ ਕੋਲ ਉਸ ਦੀ ਲੀਜ਼ ਨਹੀਂ: ਮਰੇ ਮੈਂਬਰ ਨਾ ਹਟਾਏ ਜਾਂਦੇ ਹਨ ਨਾ ਬਹਾਲ ਕੀਤੇ ਜਾਂਦੇ ਹਨ।</translation>
    </message>
    <message>
        <source>The Redis server cannot be reached.</source>
        <translation>Redis ਸਰਵਰ ਤੱਕ ਪਹੁੰਚ ਨਹੀਂ ਹੋ ਸਕਦੀ।</translation>
    </message>
    <message>
        <source>The pool moved to another server: the Sentinel primary changed or the cluster slot moved (reported for %1).</source>
        <translation>ਪੂਲ ਦੂਜੇ ਸਰਵਰ &apos;ਤੇ ਚਲਾ ਗਿਆ: Sentinel ਪ੍ਰਾਇਮਰੀ ਬਦਲਿਆ ਜਾਂ ਕਲੱਸਟਰ ਸਲਾਟ ਹਿੱਲਿਆ (%1 ਲਈ ਰਿਪੋਰਟ ਕੀਤਾ)।</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertRulesDialog</name>
    <message>
        <source> s</source>
        <translation> ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>Alert rules</source>
        <translation>ਚੇਤਾਵਨੀ ਨਿਯਮ</translation>
    </message>
    <message>
        <source>An alert is pending while its condition holds, fires once it has held for the rule&apos;s &quot;for&quot; time, and resolves once the condition has been gone for its &quot;keep firing&quot; time. The defaults are on for every pool; unticked rules are not judged.</source>
        <translation>ਇੱਕ ਚੇਤਾਵਨੀ ਉਦੋਂ ਤੱਕ ਬਕਾਇਆ ਰਹਿੰਦੀ ਹੈ ਜਦੋਂ ਤੱਕ ਇਸ ਦੀ ਸ਼ਰਤ ਲਾਗੂ ਹੈ, ਨਿਯਮ ਦੇ &quot;ਮਿਆਦ&quot; ਸਮੇਂ ਤੱਕ ਲਾਗੂ ਰਹਿਣ &apos;ਤੇ ਸਰਗਰਮ ਹੁੰਦੀ ਹੈ, ਅਤੇ ਸ਼ਰਤ ਦੇ ਆਪਣੇ &quot;ਸਰਗਰਮ ਰੱਖੋ&quot; ਸਮੇਂ ਤੱਕ ਗਾਇਬ ਰਹਿਣ &apos;ਤੇ ਹੱਲ ਹੁੰਦੀ ਹੈ। ਮੂਲ ਨਿਯਮ ਹਰ ਪੂਲ ਲਈ ਚਾਲੂ ਹਨ; ਅਣ-ਟਿੱਕ ਕੀਤੇ ਨਿਯਮ ਪਰਖੇ ਨਹੀਂ ਜਾਂਦੇ।</translation>
    </message>
    <message>
        <source>On</source>
        <translation>ਚਾਲੂ</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>ਨਿਯਮ</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>ਗੰਭੀਰਤਾ</translation>
    </message>
    <message>
        <source>For</source>
        <translation>ਮਿਆਦ</translation>
    </message>
    <message>
        <source>Keep firing</source>
        <translation>ਸਰਗਰਮ ਰੱਖੋ</translation>
    </message>
    <message>
        <source>Thresholds</source>
        <translation>ਹੱਦਾਂ</translation>
    </message>
    <message>
        <source>This connection was typed in, not saved: the rules apply to this window until it closes.</source>
        <translation>ਇਹ ਕਨੈਕਸ਼ਨ ਟਾਈਪ ਕੀਤਾ ਗਿਆ ਸੀ, ਸੰਭਾਲਿਆ ਨਹੀਂ: ਨਿਯਮ ਇਸ ਵਿੰਡੋ &apos;ਤੇ ਇਸ ਦੇ ਬੰਦ ਹੋਣ ਤੱਕ ਲਾਗੂ ਹਨ।</translation>
    </message>
    <message>
        <source>Saved with the connection &quot;%1&quot;, for the pool %2.</source>
        <translation>ਕਨੈਕਸ਼ਨ &quot;%1&quot; ਨਾਲ ਸੰਭਾਲਿਆ, ਪੂਲ %2 ਲਈ।</translation>
    </message>
    <message>
        <source>%1 on</source>
        <translation>%1 ਚਾਲੂ</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>ਸਾਵਧਾਨੀ</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>ਗੰਭੀਰ</translation>
    </message>
    <message>
        <source>%1: %2 It fires after %3 and resolves %4 after it is gone.</source>
        <translation>%1: %2 ਇਹ %3 ਤੋਂ ਬਾਅਦ ਸਰਗਰਮ ਹੁੰਦੀ ਹੈ ਅਤੇ ਗਾਇਬ ਹੋਣ ਤੋਂ %4 ਬਾਅਦ ਹੱਲ ਹੁੰਦੀ ਹੈ।</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertTray</name>
    <message>
        <source>Keep watching in the &amp;tray when closed</source>
        <translation>ਬੰਦ ਕਰਨ &apos;ਤੇ ਟ੍ਰੇ ਵਿੱਚ ਨਿਗਰਾਨੀ ਜਾਰੀ ਰੱਖੋ(&amp;T)</translation>
    </message>
    <message>
        <source>This desktop has no system tray: closing the window ends poolscope.</source>
        <translation>ਇਸ ਡੈਸਕਟਾਪ ਵਿੱਚ ਕੋਈ ਸਿਸਟਮ ਟ੍ਰੇ ਨਹੀਂ: ਵਿੰਡੋ ਬੰਦ ਕਰਨ ਨਾਲ poolscope ਬੰਦ ਹੋ ਜਾਂਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Closing the window hides it: the pool is still watched and its alerts still shown. Quit from the tray icon&apos;s menu.</source>
        <translation>ਵਿੰਡੋ ਬੰਦ ਕਰਨ ਨਾਲ ਉਹ ਲੁਕ ਜਾਂਦੀ ਹੈ: ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਜਾਰੀ ਰਹਿੰਦੀ ਹੈ ਅਤੇ ਉਸ ਦੀਆਂ ਚੇਤਾਵਨੀਆਂ ਦਿਖਦੀਆਂ ਰਹਿੰਦੀਆਂ ਹਨ। ਟ੍ਰੇ ਆਈਕਨ ਦੇ ਮੀਨੂ ਤੋਂ ਬੰਦ ਕਰੋ।</translation>
    </message>
    <message>
        <source>&amp;Show window</source>
        <translation>ਵਿੰਡੋ ਦਿਖਾਓ(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Quit poolscope</source>
        <translation>poolscope ਬੰਦ ਕਰੋ(&amp;Q)</translation>
    </message>
    <message>
        <source>poolscope: %1
No alert firing.</source>
        <translation>poolscope: %1
ਕੋਈ ਚੇਤਾਵਨੀ ਸਰਗਰਮ ਨਹੀਂ।</translation>
    </message>
    <message numerus="yes">
        <source>poolscope: %1
%n alert(s) firing: %2</source>
        <translation>
            <numerusform>poolscope: %1
%n ਚੇਤਾਵਨੀ ਸਰਗਰਮ: %2</numerusform>
            <numerusform>poolscope: %1
%n ਚੇਤਾਵਨੀਆਂ ਸਰਗਰਮ: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>poolscope: no live pool watched</source>
        <translation>poolscope: ਕੋਈ ਲਾਈਵ ਪੂਲ ਨਿਗਰਾਨੀ ਹੇਠ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>poolscope is still watching</source>
        <translation>poolscope ਹਾਲੇ ਵੀ ਨਿਗਰਾਨੀ ਕਰ ਰਿਹਾ ਹੈ</translation>
    </message>
    <message>
        <source>The window is closed; alerts still come here. Quit from this icon&apos;s menu.</source>
        <translation>ਵਿੰਡੋ ਬੰਦ ਹੈ; ਚੇਤਾਵਨੀਆਂ ਹਾਲੇ ਵੀ ਇੱਥੇ ਆਉਂਦੀਆਂ ਹਨ। ਇਸ ਆਈਕਨ ਦੇ ਮੀਨੂ ਤੋਂ ਬੰਦ ਕਰੋ।</translation>
    </message>
</context>
<context>
    <name>poolscope::Alerts</name>
    <message>
        <source>the server cannot be reached: nothing is known of the pool now</source>
        <translation>ਸਰਵਰ ਤੱਕ ਪਹੁੰਚ ਨਹੀਂ ਹੋ ਸਕਦੀ: ਹੁਣ ਪੂਲ ਬਾਰੇ ਕੁਝ ਪਤਾ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>not connected yet</source>
        <translation>ਅਜੇ ਜੁੜਿਆ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>no poll yet</source>
        <translation>ਅਜੇ ਕੋਈ ਪੋਲ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>pool %1 is empty: every allocation returns nil</source>
        <translation>ਪੂਲ %1 ਖਾਲੀ ਹੈ: ਹਰ ਨਿਰਧਾਰਨ nil ਵਾਪਸ ਕਰਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>pool %1 has %2 members</source>
        <translation>ਪੂਲ %1 ਵਿੱਚ %2 ਮੈਂਬਰ ਹਨ</translation>
    </message>
    <message>
        <source>counts spread by %1 (highest %2, lowest %3; at most %4)</source>
        <translation>ਗਿਣਤੀਆਂ ਵਿੱਚ %1 ਦਾ ਫੈਲਾਅ (ਸਭ ਤੋਂ ਵੱਧ %2, ਸਭ ਤੋਂ ਘੱਟ %3; ਵੱਧ ਤੋਂ ਵੱਧ %4)</translation>
    </message>
    <message>
        <source>Jain&apos;s index unknown until the first totals scan is through</source>
        <translation>ਕੁੱਲ ਜੋੜਾਂ ਦੀ ਪਹਿਲੀ ਸਕੈਨ ਪੂਰੀ ਹੋਣ ਤੱਕ Jain ਸੂਚਕ ਅਣਜਾਣ</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index %1 (at least %2)</source>
        <translation>Jain ਨਿਰਪੱਖਤਾ ਸੂਚਕ %1 (ਘੱਟੋ-ਘੱਟ %2)</translation>
    </message>
    <message>
        <source>pool %1 has %2 members (at least %3 wanted)</source>
        <translation>ਪੂਲ %1 ਵਿੱਚ %2 ਮੈਂਬਰ ਹਨ (ਘੱਟੋ-ਘੱਟ %3 ਚਾਹੀਦੇ)</translation>
    </message>
    <message>
        <source>%1 of the members evicted (%2 of %3; below %4% wanted)</source>
        <translation>ਮੈਂਬਰਾਂ ਵਿੱਚੋਂ %1 ਹਟਾਏ ਗਏ (%3 ਵਿੱਚੋਂ %2; %4% ਤੋਂ ਘੱਟ ਚਾਹੀਦੇ)</translation>
    </message>
    <message>
        <source>no allocations measured yet (two polls are needed)</source>
        <translation>ਅਜੇ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਾਪੇ ਗਏ (ਦੋ ਪੋਲ ਲੋੜੀਂਦੇ ਹਨ)</translation>
    </message>
    <message>
        <source>%1 members: too few to tell a flood</source>
        <translation>%1 ਮੈਂਬਰ: ਹੜ੍ਹ ਦੱਸਣ ਲਈ ਬਹੁਤ ਥੋੜ੍ਹੇ</translation>
    </message>
    <message>
        <source>%1 allocations in the last %2: too few to tell a flood</source>
        <translation>ਪਿਛਲੇ %2 ਵਿੱਚ %1 ਨਿਰਧਾਰਨ: ਹੜ੍ਹ ਦੱਸਣ ਲਈ ਬਹੁਤ ਥੋੜ੍ਹੇ</translation>
    </message>
    <message>
        <source>%1 took %2 of the last %3&apos;s allocations (%4 of %5; at most %6% wanted)</source>
        <translation>%1 ਨੇ ਪਿਛਲੇ %3 ਦੇ ਨਿਰਧਾਰਨਾਂ ਦਾ %2 ਲਿਆ (%5 ਵਿੱਚੋਂ %4; ਵੱਧ ਤੋਂ ਵੱਧ %6% ਚਾਹੀਦਾ)</translation>
    </message>
    <message>
        <source>one poll only: no member can be seen idle yet</source>
        <translation>ਸਿਰਫ਼ ਇੱਕ ਪੋਲ: ਅਜੇ ਕੋਈ ਮੈਂਬਰ ਵਿਹਲਾ ਨਹੀਂ ਦਿਖ ਸਕਦਾ</translation>
    </message>
    <message>
        <source>no member starves</source>
        <translation>ਕੋਈ ਮੈਂਬਰ ਭੁੱਖਾ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>%1 has had no allocation for %2 while the pool made %3 (starved after %4 and %5)</source>
        <translation>%1 ਨੂੰ %2 ਤੋਂ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਿਲਿਆ ਜਦਕਿ ਪੂਲ ਨੇ %3 ਕੀਤੇ (%4 ਅਤੇ %5 ਤੋਂ ਬਾਅਦ ਭੁੱਖਾ)</translation>
    </message>
    <message>
        <source>the pool is empty: nothing to allocate</source>
        <translation>ਪੂਲ ਖਾਲੀ ਹੈ: ਨਿਰਧਾਰਤ ਕਰਨ ਲਈ ਕੁਝ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>%1 allocations in the last %2 (%3/s)</source>
        <translation>ਪਿਛਲੇ %2 ਵਿੱਚ %1 ਨਿਰਧਾਰਨ (%3/ਸਕਿੰਟ)</translation>
    </message>
    <message>
        <source>no baseline yet (it takes minutes of polls)</source>
        <translation>ਅਜੇ ਕੋਈ ਬੇਸਲਾਈਨ ਨਹੀਂ (ਇਸ ਨੂੰ ਕਈ ਮਿੰਟਾਂ ਦੇ ਪੋਲ ਲੱਗਦੇ ਹਨ)</translation>
    </message>
    <message>
        <source>%1 allocations/s now, %2/s before</source>
        <translation>ਹੁਣ %1 ਨਿਰਧਾਰਨ/ਸਕਿੰਟ, ਪਹਿਲਾਂ %2/ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>the guard&apos;s lease and events were not read</source>
        <translation>ਰਾਖੇ ਦੀ ਲੀਜ਼ ਅਤੇ ਘਟਨਾਵਾਂ ਨਹੀਂ ਪੜ੍ਹੀਆਂ ਗਈਆਂ</translation>
    </message>
    <message>
        <source>no guard watches this pool</source>
        <translation>ਕੋਈ ਰਾਖਾ ਇਸ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਨਹੀਂ ਕਰਦਾ</translation>
    </message>
    <message>
        <source>the guard holds back evictions at its cap: %1</source>
        <translation>ਰਾਖਾ ਆਪਣੀ ਹੱਦ &apos;ਤੇ ਹਟਾਉਣਾ ਰੋਕ ਰਿਹਾ ਹੈ: %1</translation>
    </message>
    <message>
        <source>the guard is not held back</source>
        <translation>ਰਾਖਾ ਰੋਕਿਆ ਨਹੀਂ ਗਿਆ</translation>
    </message>
    <message>
        <source>guard %1 holds the lease</source>
        <translation>ਰਾਖੇ %1 ਕੋਲ ਲੀਜ਼ ਹੈ</translation>
    </message>
    <message>
        <source>no guard holds the lease on pool %1</source>
        <translation>ਪੂਲ %1 ਦੀ ਲੀਜ਼ ਕਿਸੇ ਰਾਖੇ ਕੋਲ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>the server answers</source>
        <translation>ਸਰਵਰ ਜਵਾਬ ਦਿੰਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>the server has not answered for %1: %2</source>
        <translation>ਸਰਵਰ ਨੇ %1 ਤੋਂ ਜਵਾਬ ਨਹੀਂ ਦਿੱਤਾ: %2</translation>
    </message>
    <message>
        <source>no failover seen</source>
        <translation>ਕੋਈ ਫੇਲਓਵਰ ਨਹੀਂ ਦਿਖਿਆ</translation>
    </message>
    <message>
        <source>the Sentinel primary changed from %1 to %2 %3 ago</source>
        <translation>Sentinel ਪ੍ਰਾਇਮਰੀ %3 ਪਹਿਲਾਂ %1 ਤੋਂ %2 ਵਿੱਚ ਬਦਲਿਆ</translation>
    </message>
    <message>
        <source>the pool&apos;s cluster slot moved from %1 to %2 %3 ago</source>
        <translation>ਪੂਲ ਦਾ ਕਲੱਸਟਰ ਸਲਾਟ %3 ਪਹਿਲਾਂ %1 ਤੋਂ %2 &apos;ਤੇ ਗਿਆ</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertsPanel</name>
    <message>
        <source>&amp;Rules…</source>
        <translation>ਨਿਯਮ(&amp;R)…</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>ਚੇਤਾਵਨੀ</translation>
    </message>
    <message>
        <source>State</source>
        <translation>ਸਥਿਤੀ</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>ਕਦੋਂ ਤੋਂ</translation>
    </message>
    <message>
        <source>Value now</source>
        <translation>ਹੁਣ ਦਾ ਮੁੱਲ</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>ਗੰਭੀਰਤਾ</translation>
    </message>
    <message>
        <source>What</source>
        <translation>ਕੀ</translation>
    </message>
    <message>
        <source>Active alerts</source>
        <translation>ਸਰਗਰਮ ਚੇਤਾਵਨੀਆਂ</translation>
    </message>
    <message>
        <source>Edit this pool&apos;s alert rules</source>
        <translation>ਇਸ ਪੂਲ ਦੇ ਚੇਤਾਵਨੀ ਨਿਯਮ ਸੋਧੋ</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="vanished">%1: %2</translation>
    </message>
    <message>
        <source>the alert rules could not be saved in &quot;%1&quot;: %2</source>
        <translation>ਚੇਤਾਵਨੀ ਨਿਯਮ &quot;%1&quot; ਵਿੱਚ ਸੰਭਾਲੇ ਨਹੀਂ ਜਾ ਸਕੇ: %2</translation>
    </message>
    <message>
        <source>alert rules saved in the connection &quot;%1&quot;</source>
        <translation>ਚੇਤਾਵਨੀ ਨਿਯਮ ਕਨੈਕਸ਼ਨ &quot;%1&quot; ਵਿੱਚ ਸੰਭਾਲੇ ਗਏ</translation>
    </message>
    <message>
        <source>firing</source>
        <translation>ਸਰਗਰਮ</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>ਬਕਾਇਆ</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>ਗੰਭੀਰ</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>ਸਾਵਧਾਨੀ</translation>
    </message>
    <message>
        <source>No live pool watched: no alerts are judged.</source>
        <translation>ਕੋਈ ਲਾਈਵ ਪੂਲ ਨਿਗਰਾਨੀ ਹੇਠ ਨਹੀਂ: ਕੋਈ ਚੇਤਾਵਨੀ ਪਰਖੀ ਨਹੀਂ ਜਾਂਦੀ।</translation>
    </message>
    <message numerus="yes">
        <source>No alert: %n rule(s) watching this pool.</source>
        <translation>
            <numerusform>ਕੋਈ ਚੇਤਾਵਨੀ ਨਹੀਂ: %n ਨਿਯਮ ਇਸ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਕਰ ਰਿਹਾ ਹੈ।</numerusform>
            <numerusform>ਕੋਈ ਚੇਤਾਵਨੀ ਨਹੀਂ: %n ਨਿਯਮ ਇਸ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਕਰ ਰਹੇ ਹਨ।</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n alert(s) firing, %1 pending.</source>
        <translation>
            <numerusform>%n ਚੇਤਾਵਨੀ ਸਰਗਰਮ, %1 ਬਕਾਇਆ।</numerusform>
            <numerusform>%n ਚੇਤਾਵਨੀਆਂ ਸਰਗਰਮ, %1 ਬਕਾਇਆ।</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::AuditView</name>
    <message>
        <source>seed</source>
        <translation>ਸੂਚੀ ਤੋਂ ਜੋੜਨਾ</translation>
    </message>
    <message>
        <source>evict</source>
        <translation>ਹਟਾਉਣਾ</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>ਬਹਾਲ ਕਰਨਾ</translation>
    </message>
    <message>
        <source>evicted hash moved</source>
        <translation>ਹਟਾਏ ਮੈਂਬਰਾਂ ਦਾ ਹੈਸ਼ ਖਿਸਕਿਆ</translation>
    </message>
    <message>
        <source>guard held back</source>
        <translation>ਰਾਖਾ ਰੋਕਿਆ ਗਿਆ</translation>
    </message>
    <message>
        <source>guard no longer held back</source>
        <translation>ਰਾਖਾ ਹੁਣ ਰੋਕਿਆ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>&amp;Search</source>
        <translation>ਖੋਜੋ(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>CSV ਨਿਰਯਾਤ ਕਰੋ(&amp;E)…</translation>
    </message>
    <message>
        <source>Audit trail: %1</source>
        <translation>ਆਡਿਟ ਟ੍ਰੇਲ: %1</translation>
    </message>
    <message>
        <source>part of a member id</source>
        <translation>ਮੈਂਬਰ id ਦਾ ਹਿੱਸਾ</translation>
    </message>
    <message>
        <source>user, host, program or guard</source>
        <translation>ਵਰਤੋਂਕਾਰ, ਹੋਸਟ, ਪ੍ਰੋਗਰਾਮ ਜਾਂ ਰਾਖਾ</translation>
    </message>
    <message>
        <source>any action</source>
        <translation>ਕੋਈ ਵੀ ਕਾਰਵਾਈ</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>ਸਮਾਂ</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>ਕਾਰਵਾਈ</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>ਕਰਤਾ</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>ਕਾਰਨ</translation>
    </message>
    <message>
        <source>Audit entries</source>
        <translation>ਆਡਿਟ ਐਂਟਰੀਆਂ</translation>
    </message>
    <message>
        <source>&amp;Member:</source>
        <translation>ਮੈਂਬਰ(&amp;M):</translation>
    </message>
    <message>
        <source>Ac&amp;tor:</source>
        <translation>ਕਰਤਾ(&amp;T):</translation>
    </message>
    <message>
        <source>Acti&amp;on:</source>
        <translation>ਕਾਰਵਾਈ(&amp;O):</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(ies) found</source>
        <translation>
            <numerusform>%n ਐਂਟਰੀ ਮਿਲੀ</numerusform>
            <numerusform>%n ਐਂਟਰੀਆਂ ਮਿਲੀਆਂ</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 among %2 read: the whole trail.</source>
        <translation>%2 ਪੜ੍ਹੀਆਂ ਵਿੱਚੋਂ %1: ਪੂਰਾ ਟ੍ਰੇਲ।</translation>
    </message>
    <message>
        <source>%1: stopped there, narrow the filters to see older ones.</source>
        <translation>%1: ਉੱਥੇ ਰੁਕਿਆ, ਪੁਰਾਣੀਆਂ ਵੇਖਣ ਲਈ ਫਿਲਟਰ ਤੰਗ ਕਰੋ।</translation>
    </message>
    <message>
        <source>The trail could not be read: %1</source>
        <translation>ਟ੍ਰੇਲ ਪੜ੍ਹਿਆ ਨਹੀਂ ਜਾ ਸਕਿਆ: %1</translation>
    </message>
    <message>
        <source>No live pool watched: there is no trail to read.</source>
        <translation>ਕੋਈ ਲਾਈਵ ਪੂਲ ਨਿਗਰਾਨੀ ਹੇਠ ਨਹੀਂ: ਪੜ੍ਹਨ ਲਈ ਕੋਈ ਟ੍ਰੇਲ ਨਹੀਂ।</translation>
    </message>
    <message>
        <source>Reading the trail…</source>
        <translation>ਟ੍ਰੇਲ ਪੜ੍ਹਿਆ ਜਾ ਰਿਹਾ ਹੈ…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Export the audit entries</source>
        <translation>ਆਡਿਟ ਐਂਟਰੀਆਂ ਨਿਰਯਾਤ ਕਰੋ</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ਫ਼ਾਈਲਾਂ (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>%1 ਵਿੱਚ ਨਿਰਯਾਤ ਕੀਤਾ।</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>ਨਿਰਯਾਤ ਨਹੀਂ ਹੋਇਆ: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::ChartFrame</name>
    <message>
        <source>pool allocations/s</source>
        <translation>ਪੂਲ ਨਿਰਧਾਰਨ/ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>allocations/s</source>
        <translation>ਨਿਰਧਾਰਨ/ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>count − median</source>
        <translation>ਗਿਣਤੀ − ਮੱਧਿਕਾ</translation>
    </message>
    <message>
        <source>allocations (count)</source>
        <translation>ਨਿਰਧਾਰਨ (ਗਿਣਤੀ)</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>ਜੁੜਿਆ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>No connection to Redis: retrying…</source>
        <translation>Redis ਨਾਲ ਕੋਈ ਕਨੈਕਸ਼ਨ ਨਹੀਂ: ਦੁਬਾਰਾ ਕੋਸ਼ਿਸ਼ ਹੋ ਰਹੀ ਹੈ…</translation>
    </message>
    <message>
        <source>Not connected (the events panel says why)</source>
        <translation>ਜੁੜਿਆ ਨਹੀਂ (ਘਟਨਾਵਾਂ ਪੈਨਲ ਕਾਰਨ ਦੱਸਦਾ ਹੈ)</translation>
    </message>
    <message>
        <source>Reading the pool fails: %1</source>
        <translation>ਪੂਲ ਪੜ੍ਹਨਾ ਅਸਫਲ: %1</translation>
    </message>
    <message>
        <source>Waiting for the first poll…</source>
        <translation>ਪਹਿਲੇ ਪੋਲ ਦੀ ਉਡੀਕ…</translation>
    </message>
    <message>
        <source>No pool at this key yet: Seed… to add proxies</source>
        <translation>ਇਸ ਕੁੰਜੀ &apos;ਤੇ ਅਜੇ ਕੋਈ ਪੂਲ ਨਹੀਂ: ਪਰਾਕਸੀਆਂ ਜੋੜਨ ਲਈ ਸੂਚੀ ਤੋਂ ਜੋੜੋ…</translation>
    </message>
    <message>
        <source>Collecting data…</source>
        <translation>ਡਾਟਾ ਇਕੱਠਾ ਹੋ ਰਿਹਾ ਹੈ…</translation>
    </message>
    <message>
        <source>%1 members</source>
        <translation type="vanished">%1 ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>%1 members (summary): top %2, %3 pinned, the bottom as the pool minimum line + band</source>
        <translation type="vanished">%1 ਮੈਂਬਰ (ਸਾਰ): ਉੱਪਰਲੇ %2, %3 ਪਿੰਨ ਕੀਤੇ, ਹੇਠਲੇ ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਰੇਖਾ + ਪੱਟੀ ਵਜੋਂ</translation>
    </message>
    <message>
        <source>%1 members (summary): top %2, %3 pinned</source>
        <translation type="vanished">%1 ਮੈਂਬਰ (ਸਾਰ): ਉੱਪਰਲੇ %2, %3 ਪਿੰਨ ਕੀਤੇ</translation>
    </message>
    <message>
        <source>%1 members: top %2, bottom %2, %3 pinned + min/median/max band</source>
        <translation type="vanished">%1 ਮੈਂਬਰ: ਉੱਪਰਲੇ %2, ਹੇਠਲੇ %2, %3 ਪਿੰਨ ਕੀਤੇ + ਘੱਟੋ-ਘੱਟ/ਮੱਧਿਕਾ/ਵੱਧ ਤੋਂ ਵੱਧ ਪੱਟੀ</translation>
    </message>
    <message>
        <source>%1 members: top %2, bottom %2, %3 pinned</source>
        <translation type="vanished">%1 ਮੈਂਬਰ: ਉੱਪਰਲੇ %2, ਹੇਠਲੇ %2, %3 ਪਿੰਨ ਕੀਤੇ</translation>
    </message>
    <message>
        <source> · %1 hidden</source>
        <translation type="vanished"> · %1 ਲੁਕੇ</translation>
    </message>
    <message>
        <source> · zoomed in: Esc or a right click to zoom out</source>
        <translation type="vanished"> · ਜ਼ੂਮ ਕੀਤਾ: ਜ਼ੂਮ ਆਊਟ ਲਈ Esc ਜਾਂ ਸੱਜਾ ਕਲਿੱਕ</translation>
    </message>
    <message>
        <source> · legend hidden (narrow): colours as in the table</source>
        <translation type="vanished"> · ਲੈਜੰਡ ਲੁਕਿਆ (ਤੰਗ): ਰੰਗ ਸਾਰਣੀ ਵਾਂਗ</translation>
    </message>
    <message>
        <source>▲ %1</source>
        <translation>▲ %1</translation>
    </message>
    <message>
        <source>▼ %1</source>
        <translation>▼ %1</translation>
    </message>
    <message>
        <source>pool rate (/s, right axis)</source>
        <translation>ਪੂਲ ਦਰ (/ਸਕਿੰਟ, ਸੱਜਾ ਧੁਰਾ)</translation>
    </message>
    <message>
        <source>pool min–max − median (%1)</source>
        <translation type="vanished">ਪੂਲ ਘੱਟੋ-ਘੱਟ–ਵੱਧ ਤੋਂ ਵੱਧ − ਮੱਧਿਕਾ (%1)</translation>
    </message>
    <message>
        <source>pool min–max (%1)</source>
        <translation type="vanished">ਪੂਲ ਘੱਟੋ-ਘੱਟ–ਵੱਧ ਤੋਂ ਵੱਧ (%1)</translation>
    </message>
    <message>
        <source>pool median (0)</source>
        <translation>ਪੂਲ ਮੱਧਿਕਾ (0)</translation>
    </message>
    <message>
        <source>pool median</source>
        <translation>ਪੂਲ ਮੱਧਿਕਾ</translation>
    </message>
    <message>
        <source>pool minimum − median</source>
        <translation>ਪੂਲ ਘੱਟੋ-ਘੱਟ − ਮੱਧਿਕਾ</translation>
    </message>
    <message>
        <source>pool minimum</source>
        <translation>ਪੂਲ ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>+%n ਹੋਰ (ਸਾਰਣੀ ਵੇਖੋ)</numerusform>
            <numerusform>+%n ਹੋਰ (ਸਾਰਣੀ ਵੇਖੋ)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members</source>
        <comment>the chart&apos;s caption: all of them are charted</comment>
        <translation>
            <numerusform>%Ln ਮੈਂਬਰ</numerusform>
            <numerusform>%Ln ਮੈਂਬਰ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln ਮੈਂਬਰ (ਸਾਰ): ਉੱਪਰਲੇ %1, %2 ਪਿੰਨ ਕੀਤੇ</numerusform>
            <numerusform>%Ln ਮੈਂਬਰ (ਸਾਰ): ਉੱਪਰਲੇ %1, %2 ਪਿੰਨ ਕੀਤੇ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned, the bottom as the pool minimum line + band</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln ਮੈਂਬਰ (ਸਾਰ): ਉੱਪਰਲੇ %1, %2 ਪਿੰਨ ਕੀਤੇ, ਹੇਠਲੇ ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਰੇਖਾ + ਪੱਟੀ ਵਜੋਂ</numerusform>
            <numerusform>%Ln ਮੈਂਬਰ (ਸਾਰ): ਉੱਪਰਲੇ %1, %2 ਪਿੰਨ ਕੀਤੇ, ਹੇਠਲੇ ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਰੇਖਾ + ਪੱਟੀ ਵਜੋਂ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln ਮੈਂਬਰ: ਉੱਪਰਲੇ %1, ਹੇਠਲੇ %1, %2 ਪਿੰਨ ਕੀਤੇ</numerusform>
            <numerusform>%Ln ਮੈਂਬਰ: ਉੱਪਰਲੇ %1, ਹੇਠਲੇ %1, %2 ਪਿੰਨ ਕੀਤੇ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned + min/median/max band</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln ਮੈਂਬਰ: ਉੱਪਰਲੇ %1, ਹੇਠਲੇ %1, %2 ਪਿੰਨ ਕੀਤੇ + ਘੱਟੋ-ਘੱਟ/ਮੱਧਿਕਾ/ਵੱਧ ਤੋਂ ਵੱਧ ਪੱਟੀ</numerusform>
            <numerusform>%Ln ਮੈਂਬਰ: ਉੱਪਰਲੇ %1, ਹੇਠਲੇ %1, %2 ਪਿੰਨ ਕੀਤੇ + ਘੱਟੋ-ਘੱਟ/ਮੱਧਿਕਾ/ਵੱਧ ਤੋਂ ਵੱਧ ਪੱਟੀ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln hidden</source>
        <comment>the chart&apos;s caption: lines hidden from the chart</comment>
        <translation>
            <numerusform>%Ln ਲੁਕਿਆ</numerusform>
            <numerusform>%Ln ਲੁਕੇ</numerusform>
        </translation>
    </message>
    <message>
        <source>zoomed in: Esc or a right click to zoom out</source>
        <translation>ਜ਼ੂਮ ਕੀਤਾ: ਜ਼ੂਮ ਆਊਟ ਲਈ Esc ਜਾਂ ਸੱਜਾ ਕਲਿੱਕ</translation>
    </message>
    <message>
        <source>legend hidden (narrow): colours as in the table</source>
        <translation>ਲੈਜੰਡ ਲੁਕਿਆ (ਤੰਗ): ਰੰਗ ਸਾਰਣੀ ਵਾਂਗ</translation>
    </message>
    <message>
        <source>pool min–max − median (%1)</source>
        <comment>legend: the band of the pool&apos;s counts (scores) minus their median; %1: how many members the pool has</comment>
        <translation>ਪੂਲ ਘੱਟੋ-ਘੱਟ–ਵੱਧ ਤੋਂ ਵੱਧ − ਮੱਧਿਕਾ (%1)</translation>
    </message>
    <message>
        <source>pool min–max (%1)</source>
        <comment>legend: the band from the pool&apos;s lowest to its highest count (score); %1: how many members the pool has</comment>
        <translation>ਪੂਲ ਘੱਟੋ-ਘੱਟ–ਵੱਧ ਤੋਂ ਵੱਧ (%1)</translation>
    </message>
</context>
<context>
    <name>poolscope::ChartPanel</name>
    <message>
        <source>pool allocations/s</source>
        <translation>ਪੂਲ ਨਿਰਧਾਰਨ/ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>pool rate (/s, right axis)</source>
        <translation type="vanished">ਪੂਲ ਦਰ (/ਸਕਿੰਟ, ਸੱਜਾ ਧੁਰਾ)</translation>
    </message>
    <message>
        <source>In a big pool ▲ marks the most allocated members, ▼ the ones allocated next. The dotted grey line is the pool&apos;s allocation rate (right axis).</source>
        <translation>ਵੱਡੇ ਪੂਲ ਵਿੱਚ ▲ ਸਭ ਤੋਂ ਵੱਧ ਨਿਰਧਾਰਤ ਮੈਂਬਰਾਂ ਨੂੰ, ▼ ਅਗਲੇ ਨਿਰਧਾਰਤ ਹੋਣ ਵਾਲਿਆਂ ਨੂੰ ਦਰਸਾਉਂਦਾ ਹੈ। ਬਿੰਦੀਦਾਰ ਸਲੇਟੀ ਲਕੀਰ ਪੂਲ ਦੀ ਨਿਰਧਾਰਨ ਦਰ ਹੈ (ਸੱਜਾ ਧੁਰਾ)।</translation>
    </message>
    <message>
        <source>▲ %1</source>
        <translation type="vanished">▲ %1</translation>
    </message>
    <message>
        <source>▼ %1</source>
        <translation type="vanished">▼ %1</translation>
    </message>
    <message>
        <source>Which members the chart shows</source>
        <translation>ਚਾਰਟ ਕਿਹੜੇ ਮੈਂਬਰ ਦਿਖਾਉਂਦਾ ਹੈ</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation type="vanished">
            <numerusform>+%n ਹੋਰ (ਸਾਰਣੀ ਦੇਖੋ)</numerusform>
            <numerusform>+%n ਹੋਰ (ਸਾਰਣੀ ਦੇਖੋ)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 – %2 %3</source>
        <comment>a time range in the exported chart&apos;s title: from – to, time zone</comment>
        <translation>%1 – %2 %3</translation>
    </message>
    <message>
        <source>poolscope · %1 · %2 · %3</source>
        <comment>the exported chart&apos;s title: the pool&apos;s key, its server, the chart mode</comment>
        <translation>poolscope · %1 · %2 · %3</translation>
    </message>
    <message>
        <source>poolscope · %1 · %2 · %3 · %4</source>
        <comment>the exported chart&apos;s title: the pool&apos;s key, its server, the time range, the chart mode</comment>
        <translation>poolscope · %1 · %2 · %3 · %4</translation>
    </message>
    <message>
        <source>time</source>
        <comment>title of the chart&apos;s horizontal axis</comment>
        <translation>ਸਮਾਂ</translation>
    </message>
    <message>
        <source>pool min–max</source>
        <comment>legend: the band from the pool&apos;s lowest to its highest allocation count (score)</comment>
        <translation>ਪੂਲ ਘੱਟੋ-ਘੱਟ–ਵੱਧ ਤੋਂ ਵੱਧ</translation>
    </message>
    <message>
        <source>Click a legend entry to hide or show its line; pin members from the table (%1) to keep them charted</source>
        <translation>ਕਿਸੇ ਲੈਜੰਡ ਐਂਟਰੀ &apos;ਤੇ ਕਲਿੱਕ ਕਰਕੇ ਉਸ ਦੀ ਲਕੀਰ ਲੁਕਾਓ ਜਾਂ ਦਿਖਾਓ; ਮੈਂਬਰਾਂ ਨੂੰ ਚਾਰਟ ਵਿੱਚ ਰੱਖਣ ਲਈ ਉਹਨਾਂ ਨੂੰ ਸਾਰਣੀ ਤੋਂ ਪਿੰਨ ਕਰੋ (%1)</translation>
    </message>
    <message>
        <source>Chart each member&apos;s count; its count minus the pool median at each moment (a fair pool is a flat bundle near %1, a flooded or starved member stands out); or how many allocations per second it receives</source>
        <comment>count: how many times a member was allocated (its score)</comment>
        <translation>ਹਰ ਮੈਂਬਰ ਦੀ ਗਿਣਤੀ ਦਾ ਚਾਰਟ; ਹਰ ਪਲ ਉਸ ਦੀ ਗਿਣਤੀ ਘਟਾਓ ਪੂਲ ਮੱਧਿਕਾ (ਨਿਰਪੱਖ ਪੂਲ %1 ਦੇ ਨੇੜੇ ਇੱਕ ਸਮਤਲ ਗੁੱਛਾ ਹੁੰਦਾ ਹੈ, ਹੜ੍ਹ ਜਾਂ ਭੁੱਖਮਰੀ ਵਾਲਾ ਮੈਂਬਰ ਵੱਖਰਾ ਦਿਸਦਾ ਹੈ); ਜਾਂ ਉਸ ਨੂੰ ਪ੍ਰਤੀ ਸਕਿੰਟ ਕਿੰਨੇ ਨਿਰਧਾਰਨ ਮਿਲਦੇ ਹਨ</translation>
    </message>
    <message>
        <source>Show</source>
        <comment>label before the box choosing what the chart shows</comment>
        <translation>ਦਿਖਾਓ</translation>
    </message>
    <message>
        <source>Window</source>
        <comment>label before the chart&apos;s time span (last 5 min, last hour...), not a window on the screen</comment>
        <translation>ਵਿੰਡੋ</translation>
    </message>
    <message>
        <source>Cumulative count</source>
        <comment>chart mode: each member&apos;s allocation count (its score in the sorted set) as it grows</comment>
        <translation>ਸੰਚਿਤ ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>Difference from median</source>
        <comment>chart mode: each member&apos;s count minus the pool&apos;s median count</comment>
        <translation>ਮੱਧਿਕਾ ਤੋਂ ਫ਼ਰਕ</translation>
    </message>
    <message>
        <source>Rate (allocations/s)</source>
        <comment>chart mode: allocations per second each member receives</comment>
        <translation>ਦਰ (ਨਿਰਧਾਰਨ/ਸਕਿੰਟ)</translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln min</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>ਪਿਛਲਾ %Ln ਮਿੰਟ</numerusform>
            <numerusform>ਪਿਛਲੇ %Ln ਮਿੰਟ</numerusform>
        </translation>
    </message>
    <message>
        <source>Last hour</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>ਪਿਛਲਾ ਘੰਟਾ</translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln h</source>
        <comment>the chart&apos;s time span, in a box; h: hours</comment>
        <translation>
            <numerusform>ਪਿਛਲਾ %Ln ਘੰਟਾ</numerusform>
            <numerusform>ਪਿਛਲੇ %Ln ਘੰਟੇ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln days</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>ਪਿਛਲਾ %Ln ਦਿਨ</numerusform>
            <numerusform>ਪਿਛਲੇ %Ln ਦਿਨ</numerusform>
        </translation>
    </message>
    <message>
        <source>All</source>
        <comment>the chart&apos;s time span, in a box: all the history held</comment>
        <translation>ਸਾਰਾ</translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln minutes</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>ਵਿੰਡੋ: ਪਿਛਲਾ &amp;%Ln ਮਿੰਟ</numerusform>
            <numerusform>ਵਿੰਡੋ: ਪਿਛਲੇ &amp;%Ln ਮਿੰਟ</numerusform>
        </translation>
    </message>
    <message>
        <source>Window: last &amp;hour</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>ਵਿੰਡੋ: ਪਿਛਲਾ ਘੰਟਾ(&amp;H)</translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln hours</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>ਵਿੰਡੋ: ਪਿਛਲਾ &amp;%Ln ਘੰਟਾ</numerusform>
            <numerusform>ਵਿੰਡੋ: ਪਿਛਲੇ &amp;%Ln ਘੰਟੇ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln days</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>ਵਿੰਡੋ: ਪਿਛਲਾ &amp;%Ln ਦਿਨ</numerusform>
            <numerusform>ਵਿੰਡੋ: ਪਿਛਲੇ &amp;%Ln ਦਿਨ</numerusform>
        </translation>
    </message>
    <message>
        <source>Window: &amp;all the history</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>ਵਿੰਡੋ: ਸਾਰਾ ਇਤਿਹਾਸ(&amp;A)</translation>
    </message>
    <message>
        <source>Time window of the chart, ending at the latest poll (%1 … %2). Drag across the chart to zoom into a time range; %3, a right click or Zoom out go back one step, a double click (%4) back to the whole window</source>
        <comment>%1 … %2: the shortcuts of the first and last time windows; %3: the Esc key; %4: the shortcut to the whole window. &quot;Zoom out&quot; is the button&apos;s name</comment>
        <translation>ਚਾਰਟ ਦੀ ਸਮਾਂ ਵਿੰਡੋ, ਆਖਰੀ ਪੋਲ &apos;ਤੇ ਖ਼ਤਮ ਹੁੰਦੀ (%1 … %2)। ਕਿਸੇ ਸਮਾਂ-ਸੀਮਾ ਵਿੱਚ ਜ਼ੂਮ ਕਰਨ ਲਈ ਚਾਰਟ ਉੱਤੇ ਖਿੱਚੋ; %3, ਸੱਜਾ ਕਲਿੱਕ ਜਾਂ ਜ਼ੂਮ ਆਊਟ ਇੱਕ ਕਦਮ ਪਿੱਛੇ ਲੈ ਜਾਂਦੇ ਹਨ, ਡਬਲ ਕਲਿੱਕ (%4) ਪੂਰੀ ਵਿੰਡੋ &apos;ਤੇ ਵਾਪਸ</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <comment>the chart&apos;s time range, back one step</comment>
        <translation>ਜ਼ੂਮ ਆਊਟ</translation>
    </message>
    <message>
        <source>Back to the time range before the last zoom (%1 or a right click on the chart)</source>
        <comment>%1: the Esc key</comment>
        <translation>ਆਖਰੀ ਜ਼ੂਮ ਤੋਂ ਪਹਿਲਾਂ ਦੀ ਸਮਾਂ-ਸੀਮਾ &apos;ਤੇ ਵਾਪਸ (%1 ਜਾਂ ਚਾਰਟ &apos;ਤੇ ਸੱਜਾ ਕਲਿੱਕ)</translation>
    </message>
    <message>
        <source>Whole window</source>
        <comment>the chart&apos;s whole time span again, out of every zoom step</comment>
        <translation>ਪੂਰੀ ਵਿੰਡੋ</translation>
    </message>
    <message>
        <source>Out of every zoom step, to the whole window (a double click on the chart)</source>
        <comment>window: the chart&apos;s time span, not a window on the screen</comment>
        <translation>ਹਰ ਜ਼ੂਮ ਕਦਮ ਤੋਂ ਬਾਹਰ, ਪੂਰੀ ਵਿੰਡੋ &apos;ਤੇ (ਚਾਰਟ &apos;ਤੇ ਡਬਲ ਕਲਿੱਕ)</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionBar</name>
    <message>
        <source>Go to the Redis address</source>
        <translation>Redis ਪਤੇ &apos;ਤੇ ਜਾਓ</translation>
    </message>
    <message>
        <source>Pause or resume polling (Ctrl+Shift+Space). Writes still work.</source>
        <translation>ਪੋਲਿੰਗ ਰੋਕੋ ਜਾਂ ਮੁੜ ਸ਼ੁਰੂ ਕਰੋ (Ctrl+Shift+Space)। ਲਿਖਣਾ ਫਿਰ ਵੀ ਕੰਮ ਕਰਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source> &amp;Redis </source>
        <translation> Redis(&amp;R) </translation>
    </message>
    <message>
        <source>  P&amp;ool </source>
        <translation>  ਪੂਲ(&amp;O) </translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>ਜੁੜੋ</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>ਰੋਕੋ</translation>
    </message>
    <message>
        <source>Find pools</source>
        <translation>ਪੂਲ ਲੱਭੋ</translation>
    </message>
    <message>
        <source>Redis URL: redis://[user[:password]@]host[:port][/db] or unix:///path/to/redis.sock. A password is shown masked and never saved.</source>
        <translation>Redis URL: redis://[user[:password]@]host[:port][/db] ਜਾਂ unix:///path/to/redis.sock। ਪਾਸਵਰਡ ਲੁਕਾ ਕੇ ਦਿਖਾਇਆ ਜਾਂਦਾ ਹੈ ਅਤੇ ਕਦੇ ਸੰਭਾਲਿਆ ਨਹੀਂ ਜਾਂਦਾ।</translation>
    </message>
    <message>
        <source>pool key</source>
        <translation>ਪੂਲ ਕੁੰਜੀ</translation>
    </message>
    <message>
        <source>The pool&apos;s sorted-set key. The list offers the sorted sets found on the server (Find pools).</source>
        <translation>ਪੂਲ ਦੀ ਕ੍ਰਮਬੱਧ ਸੈੱਟ ਕੁੰਜੀ। ਸੂਚੀ ਸਰਵਰ &apos;ਤੇ ਮਿਲੇ ਕ੍ਰਮਬੱਧ ਸੈੱਟ ਪੇਸ਼ ਕਰਦੀ ਹੈ (ਪੂਲ ਲੱਭੋ)।</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ਮਿਲੀਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>How often the pool is read. Each read is a few short commands; see the status bar for its round-trip time.</source>
        <translation>ਪੂਲ ਕਿੰਨੀ ਵਾਰ ਪੜ੍ਹਿਆ ਜਾਂਦਾ ਹੈ। ਹਰ ਪੜ੍ਹਤ ਕੁਝ ਛੋਟੀਆਂ ਕਮਾਂਡਾਂ ਹੈ; ਇਸ ਦੇ ਆਉਣ-ਜਾਣ ਦੇ ਸਮੇਂ ਲਈ ਸਥਿਤੀ ਪੱਟੀ ਵੇਖੋ।</translation>
    </message>
    <message>
        <source>Connect to the Redis server and watch the pool</source>
        <translation>Redis ਸਰਵਰ ਨਾਲ ਜੁੜੋ ਅਤੇ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਕਰੋ</translation>
    </message>
    <message>
        <source>Look for sorted-set keys on the server (a bounded SCAN with TYPE zset) and offer them in the key list</source>
        <translation>ਸਰਵਰ &apos;ਤੇ ਕ੍ਰਮਬੱਧ ਸੈੱਟ ਕੁੰਜੀਆਂ ਲੱਭੋ (TYPE zset ਨਾਲ ਸੀਮਤ SCAN) ਅਤੇ ਉਹਨਾਂ ਨੂੰ ਕੁੰਜੀ ਸੂਚੀ ਵਿੱਚ ਪੇਸ਼ ਕਰੋ</translation>
    </message>
    <message>
        <source> Poll every </source>
        <translation> ਹਰ ਇੰਨੇ ਸਮੇਂ ਪੋਲ ਕਰੋ </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>ਮੁੜ ਸ਼ੁਰੂ ਕਰੋ</translation>
    </message>
    <message>
        <source>the pool key is empty: name the pool&apos;s sorted set</source>
        <translation>ਪੂਲ ਕੁੰਜੀ ਖਾਲੀ ਹੈ: ਪੂਲ ਦੇ ਕ੍ਰਮਬੱਧ ਸੈੱਟ ਦਾ ਨਾਂ ਦਿਓ</translation>
    </message>
    <message>
        <source> Password refused: type it into the URL, then Enter </source>
        <translation> ਪਾਸਵਰਡ ਰੱਦ ਹੋਇਆ: ਇਸ ਨੂੰ URL ਵਿੱਚ ਟਾਈਪ ਕਰੋ, ਫਿਰ Enter ਦਬਾਓ </translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>ਕਨੈਕਸ਼ਨ ਤੋੜੋ</translation>
    </message>
    <message>
        <source>Stop watching this server</source>
        <translation>ਇਸ ਸਰਵਰ ਦੀ ਨਿਗਰਾਨੀ ਬੰਦ ਕਰੋ</translation>
    </message>
    <message>
        <source>Look for sorted-set keys on the server (a bounded SCAN with TYPE zset)</source>
        <translation>ਸਰਵਰ &apos;ਤੇ ਕ੍ਰਮਬੱਧ ਸੈੱਟ ਕੁੰਜੀਆਂ ਲੱਭੋ (TYPE zset ਨਾਲ ਸੀਮਤ SCAN)</translation>
    </message>
    <message>
        <source>Disabled: connect first</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: ਪਹਿਲਾਂ ਜੁੜੋ</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionEditDialog</name>
    <message>
        <source>The server needs a password</source>
        <translation>ਸਰਵਰ ਨੂੰ ਪਾਸਵਰਡ ਚਾਹੀਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>system CAs</source>
        <translation>ਸਿਸਟਮ CA</translation>
    </message>
    <message>
        <source>none</source>
        <translation>ਕੋਈ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>in the certificate file</source>
        <translation>ਸਰਟੀਫਿਕੇਟ ਫ਼ਾਈਲ ਵਿੱਚ</translation>
    </message>
    <message>
        <source>Do not verify the server (insecure)</source>
        <translation>ਸਰਵਰ ਦੀ ਪੁਸ਼ਟੀ ਨਾ ਕਰੋ (ਅਸੁਰੱਖਿਅਤ)</translation>
    </message>
    <message>
        <source>ssh-agent, then ~/.ssh/config</source>
        <translation>ssh-agent, ਫਿਰ ~/.ssh/config</translation>
    </message>
    <message>
        <source>Accept and record an unknown host key</source>
        <translation>ਅਣਜਾਣ ਹੋਸਟ ਕੁੰਜੀ ਸਵੀਕਾਰ ਕਰੋ ਅਤੇ ਦਰਜ ਕਰੋ</translation>
    </message>
    <message>
        <source>Remember secrets in the keychain</source>
        <translation>ਭੇਤ ਕੀਚੇਨ ਵਿੱਚ ਯਾਦ ਰੱਖੋ</translation>
    </message>
    <message>
        <source>New connection</source>
        <translation>ਨਵਾਂ ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>Edit connection</source>
        <translation>ਕਨੈਕਸ਼ਨ ਸੋਧੋ</translation>
    </message>
    <message>
        <source>redis://, rediss:// (TLS) or unix:// URL, without a password: passwords are never saved in the settings file</source>
        <translation>redis://, rediss:// (TLS) ਜਾਂ unix:// URL, ਪਾਸਵਰਡ ਤੋਂ ਬਿਨਾਂ: ਪਾਸਵਰਡ ਕਦੇ ਵੀ ਸੈਟਿੰਗ ਫ਼ਾਈਲ ਵਿੱਚ ਸੰਭਾਲੇ ਨਹੀਂ ਜਾਂਦੇ</translation>
    </message>
    <message>
        <source>asked when connecting if left empty</source>
        <translation>ਖਾਲੀ ਛੱਡਣ &apos;ਤੇ ਜੁੜਨ ਵੇਲੇ ਪੁੱਛਿਆ ਜਾਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>the URL&apos;s host</source>
        <translation>URL ਦਾ ਹੋਸਟ</translation>
    </message>
    <message>
        <source>Warning: anyone between poolscope and the server can read and change the traffic, password included. The status bar will say &quot;TLS, NOT verified&quot;.</source>
        <translation>ਚੇਤਾਵਨੀ: poolscope ਅਤੇ ਸਰਵਰ ਦੇ ਵਿਚਕਾਰ ਕੋਈ ਵੀ ਟ੍ਰੈਫਿਕ ਪੜ੍ਹ ਅਤੇ ਬਦਲ ਸਕਦਾ ਹੈ, ਪਾਸਵਰਡ ਸਮੇਤ। ਸਥਿਤੀ ਪੱਟੀ &quot;TLS, ਪੁਸ਼ਟੀ ਨਹੀਂ ਹੋਈ&quot; ਦੱਸੇਗੀ।</translation>
    </message>
    <message>
        <source>[user@]bastion[:port] or a Host alias</source>
        <translation>[user@]bastion[:port] ਜਾਂ ਕੋਈ Host ਉਪਨਾਮ</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ਮਿਲੀਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>No keychain here (%1): secrets are asked for each time and kept in memory only, until poolscope exits.</source>
        <translation>ਇੱਥੇ ਕੋਈ ਕੀਚੇਨ ਨਹੀਂ (%1): ਭੇਤ ਹਰ ਵਾਰ ਪੁੱਛੇ ਜਾਂਦੇ ਹਨ ਅਤੇ poolscope ਬੰਦ ਹੋਣ ਤੱਕ ਸਿਰਫ਼ ਮੈਮਰੀ ਵਿੱਚ ਰੱਖੇ ਜਾਂਦੇ ਹਨ।</translation>
    </message>
    <message>
        <source>no Secret Service</source>
        <translation>ਕੋਈ Secret Service ਨਹੀਂ</translation>
    </message>
    <message>
        <source>Unchecked: secrets are kept in memory only, until poolscope exits.</source>
        <translation>ਅਣ-ਚੁਣਿਆ: ਭੇਤ poolscope ਬੰਦ ਹੋਣ ਤੱਕ ਸਿਰਫ਼ ਮੈਮਰੀ ਵਿੱਚ ਰੱਖੇ ਜਾਂਦੇ ਹਨ।</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>ਨਾਂ</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>ਪਾਸਵਰਡ</translation>
    </message>
    <message>
        <source>Pool key</source>
        <translation>ਪੂਲ ਕੁੰਜੀ</translation>
    </message>
    <message>
        <source>Poll every</source>
        <translation>ਹਰ ਇੰਨੇ ਸਮੇਂ ਪੋਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>TLS (rediss://)</source>
        <translation>TLS (rediss://)</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA ਫ਼ਾਈਲ</translation>
    </message>
    <message>
        <source>Server name</source>
        <translation>ਸਰਵਰ ਦਾ ਨਾਂ</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>ਕਲਾਇੰਟ ਸਰਟੀਫਿਕੇਟ</translation>
    </message>
    <message>
        <source>Client key</source>
        <translation>ਕਲਾਇੰਟ ਕੁੰਜੀ</translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation>SSH ਸੁਰੰਗ</translation>
    </message>
    <message>
        <source>Through</source>
        <translation>ਰਾਹੀਂ</translation>
    </message>
    <message>
        <source>Key file</source>
        <translation>ਕੁੰਜੀ ਫ਼ਾਈਲ</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>ਇੱਕ ਫ਼ਾਈਲ ਚੁਣੋ</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionPrompter</name>
    <message>
        <source>&amp;Trust this key</source>
        <translation>ਇਸ ਕੁੰਜੀ &apos;ਤੇ ਭਰੋਸਾ ਕਰੋ(&amp;T)</translation>
    </message>
    <message>
        <source>Password for the Redis server %1:</source>
        <translation>Redis ਸਰਵਰ %1 ਲਈ ਪਾਸਵਰਡ:</translation>
    </message>
    <message>
        <source>Passphrase of the TLS client key %1:</source>
        <translation>TLS ਕਲਾਇੰਟ ਕੁੰਜੀ %1 ਦਾ ਪਾਸਫ੍ਰੇਜ਼:</translation>
    </message>
    <message>
        <source>Passphrase of the SSH key %1:</source>
        <translation>SSH ਕੁੰਜੀ %1 ਦਾ ਪਾਸਫ੍ਰੇਜ਼:</translation>
    </message>
    <message>
        <source>SSH password for %1:</source>
        <translation>%1 ਲਈ SSH ਪਾਸਵਰਡ:</translation>
    </message>
    <message>
        <source>The SSH host %1 is not in ~/.ssh/known_hosts.

Key type: %2
Fingerprint: %3

Trust this key only if the fingerprint is the host&apos;s (ask its administrator, or run ssh-keygen -lf on its host key). Trusting records it in ~/.ssh/known_hosts.</source>
        <translation>SSH ਹੋਸਟ %1 ~/.ssh/known_hosts ਵਿੱਚ ਨਹੀਂ ਹੈ।

ਕੁੰਜੀ ਦੀ ਕਿਸਮ: %2
ਫਿੰਗਰਪ੍ਰਿੰਟ: %3

ਇਸ ਕੁੰਜੀ &apos;ਤੇ ਸਿਰਫ਼ ਤਾਂ ਭਰੋਸਾ ਕਰੋ ਜੇ ਫਿੰਗਰਪ੍ਰਿੰਟ ਹੋਸਟ ਦਾ ਹੈ (ਇਸ ਦੇ ਪ੍ਰਬੰਧਕ ਨੂੰ ਪੁੱਛੋ, ਜਾਂ ਇਸ ਦੀ ਹੋਸਟ ਕੁੰਜੀ &apos;ਤੇ ssh-keygen -lf ਚਲਾਓ)। ਭਰੋਸਾ ਕਰਨ ਨਾਲ ਇਹ ~/.ssh/known_hosts ਵਿੱਚ ਦਰਜ ਹੋ ਜਾਂਦੀ ਹੈ।</translation>
    </message>
    <message>
        <source>poolscope: %1</source>
        <translation>poolscope: %1</translation>
    </message>
    <message>
        <source>poolscope: unknown SSH host key</source>
        <translation>poolscope: ਅਣਜਾਣ SSH ਹੋਸਟ ਕੁੰਜੀ</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <comment>why the secret is asked for again, then the question</comment>
        <translation>%1। %2</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionsDialog</name>
    <message>
        <source>New...</source>
        <translation>ਨਵਾਂ...</translation>
    </message>
    <message>
        <source>Edit...</source>
        <translation>ਸੋਧੋ...</translation>
    </message>
    <message>
        <source>Duplicate...</source>
        <translation>ਨਕਲ ਬਣਾਓ...</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>ਮਿਟਾਓ</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>ਜੁੜੋ</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>Delete connection</source>
        <translation>ਕਨੈਕਸ਼ਨ ਮਿਟਾਓ</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>ਵਾਤਾਵਰਣ</translation>
    </message>
    <message>
        <source>Secrets of connections that remember them are kept in the keychain, the others in memory only, until poolscope exits. None is ever written to the settings file.</source>
        <translation>ਜਿਹੜੇ ਕਨੈਕਸ਼ਨ ਭੇਤ ਯਾਦ ਰੱਖਦੇ ਹਨ ਉਹਨਾਂ ਦੇ ਭੇਤ ਕੀਚੇਨ ਵਿੱਚ ਰੱਖੇ ਜਾਂਦੇ ਹਨ, ਬਾਕੀ poolscope ਬੰਦ ਹੋਣ ਤੱਕ ਸਿਰਫ਼ ਮੈਮਰੀ ਵਿੱਚ। ਕੋਈ ਵੀ ਕਦੇ ਸੈਟਿੰਗ ਫ਼ਾਈਲ ਵਿੱਚ ਨਹੀਂ ਲਿਖਿਆ ਜਾਂਦਾ।</translation>
    </message>
    <message>
        <source>No keychain here (%1): passwords and passphrases are asked for each time and kept in memory only, until poolscope exits.</source>
        <translation>ਇੱਥੇ ਕੋਈ ਕੀਚੇਨ ਨਹੀਂ (%1): ਪਾਸਵਰਡ ਅਤੇ ਪਾਸਫ੍ਰੇਜ਼ ਹਰ ਵਾਰ ਪੁੱਛੇ ਜਾਂਦੇ ਹਨ ਅਤੇ poolscope ਬੰਦ ਹੋਣ ਤੱਕ ਸਿਰਫ਼ ਮੈਮਰੀ ਵਿੱਚ ਰੱਖੇ ਜਾਂਦੇ ਹਨ।</translation>
    </message>
    <message>
        <source>Looking for a keychain...</source>
        <translation>ਕੀਚੇਨ ਲੱਭੀ ਜਾ ਰਹੀ ਹੈ...</translation>
    </message>
    <message numerus="yes">
        <source>Group %1: %n connection(s)</source>
        <translation>
            <numerusform>ਸਮੂਹ %1: %n ਕਨੈਕਸ਼ਨ</numerusform>
            <numerusform>ਸਮੂਹ %1: %n ਕਨੈਕਸ਼ਨ</numerusform>
        </translation>
    </message>
    <message>
        <source>No saved connections yet: New... saves one.</source>
        <translation>ਅਜੇ ਕੋਈ ਸੰਭਾਲਿਆ ਕਨੈਕਸ਼ਨ ਨਹੀਂ: ਨਵਾਂ... ਇੱਕ ਸੰਭਾਲਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Transport: %1%2</source>
        <translation>ਆਵਾਜਾਈ: %1%2</translation>
    </message>
    <message>
        <source>, via ssh %1</source>
        <translation>, ssh %1 ਰਾਹੀਂ</translation>
    </message>
    <message>
        <source>Pool key: %1</source>
        <translation>ਪੂਲ ਕੁੰਜੀ: %1</translation>
    </message>
    <message>
        <source>Poll every %1 ms</source>
        <translation>ਹਰ %1 ਮਿਲੀਸਕਿੰਟ ਪੋਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Group: %1</source>
        <translation>ਸਮੂਹ: %1</translation>
    </message>
    <message>
        <source>Environment: &lt;b&gt;&lt;font color=&quot;%1&quot;&gt;%2&lt;/font&gt;&lt;/b&gt;</source>
        <translation>ਵਾਤਾਵਰਣ: &lt;b&gt;&lt;font color=&quot;%1&quot;&gt;%2&lt;/font&gt;&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Opens with writes locked until unlocked for the session</source>
        <translation>ਸੈਸ਼ਨ ਲਈ ਖੋਲ੍ਹਣ ਤੱਕ ਲਿਖਤਾਂ ਤਾਲਾਬੰਦ ਹੋ ਕੇ ਖੁੱਲ੍ਹਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Password: from the keychain</source>
        <translation>ਪਾਸਵਰਡ: ਕੀਚੇਨ ਤੋਂ</translation>
    </message>
    <message>
        <source>Password: asked when connecting</source>
        <translation>ਪਾਸਵਰਡ: ਜੁੜਨ ਵੇਲੇ ਪੁੱਛਿਆ ਜਾਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1 (ਨਕਲ)</translation>
    </message>
    <message>
        <source>%1 (copy %2)</source>
        <translation>%1 (ਨਕਲ %2)</translation>
    </message>
    <message>
        <source>Delete the saved connection &quot;%1&quot; and its secrets in the keychain?</source>
        <translation>ਕੀ ਸੰਭਾਲਿਆ ਕਨੈਕਸ਼ਨ &quot;%1&quot; ਅਤੇ ਕੀਚੇਨ ਵਿੱਚ ਇਸ ਦੇ ਭੇਤ ਮਿਟਾਉਣੇ ਹਨ?</translation>
    </message>
</context>
<context>
    <name>poolscope::DemoDriver</name>
    <message>
        <source>the demo list is missing from the resources</source>
        <translation>ਡੈਮੋ ਸੂਚੀ ਸਰੋਤਾਂ ਵਿੱਚੋਂ ਗੁੰਮ ਹੈ</translation>
    </message>
    <message>
        <source>the demo list has no usable entry</source>
        <translation>ਡੈਮੋ ਸੂਚੀ ਵਿੱਚ ਕੋਈ ਵਰਤਣਯੋਗ ਐਂਟਰੀ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>empty pool: seeding %L1 demo proxies (documentation address ranges)</source>
        <translation>ਖਾਲੀ ਪੂਲ: %L1 ਡੈਮੋ ਪਰਾਕਸੀਆਂ ਸੂਚੀ ਤੋਂ ਜੋੜੀਆਂ ਜਾ ਰਹੀਆਂ ਹਨ (ਦਸਤਾਵੇਜ਼ੀ ਪਤਾ ਸੀਮਾਵਾਂ)</translation>
    </message>
    <message>
        <source>background load: %L1 workers, about %L2 allocations/s</source>
        <translation>ਪਿਛੋਕੜ ਲੋਡ: %L1 ਵਰਕਰ, ਲਗਭਗ %L2 ਨਿਰਧਾਰਨ/ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>background load ended with %L1 errors, %L2 unknown</source>
        <translation>ਪਿਛੋਕੜ ਲੋਡ %L1 ਗਲਤੀਆਂ, %L2 ਅਣਜਾਣ ਨਾਲ ਖਤਮ ਹੋਇਆ</translation>
    </message>
</context>
<context>
    <name>poolscope::DesktopNotifier</name>
    <message>
        <source>Resolved: %1 (%2)</source>
        <translation>ਹੱਲ ਹੋਇਆ: %1 (%2)</translation>
    </message>
    <message>
        <source>Firing since %1, clear now: %2</source>
        <translation>%1 ਤੋਂ ਚਾਲੂ, ਹੁਣ ਠੀਕ: %2</translation>
    </message>
    <message>
        <source>Critical: %1 (%2)</source>
        <translation>ਗੰਭੀਰ: %1 (%2)</translation>
    </message>
    <message>
        <source>Warning: %1 (%2)</source>
        <translation>ਚੇਤਾਵਨੀ: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>poolscope::EnvironmentBanner</name>
    <message>
        <source>&amp;Unlock writes for this session</source>
        <translation>ਇਸ ਸੈਸ਼ਨ ਲਈ ਲਿਖਤਾਂ ਖੋਲ੍ਹੋ(&amp;U)</translation>
    </message>
    <message>
        <source>Production connections open with writes locked; this unlocks them until another connection is chosen</source>
        <translation>ਪ੍ਰੋਡਕਸ਼ਨ ਕਨੈਕਸ਼ਨ ਲਿਖਤਾਂ ਤਾਲਾਬੰਦ ਹੋ ਕੇ ਖੁੱਲ੍ਹਦੇ ਹਨ; ਇਹ ਉਹਨਾਂ ਨੂੰ ਕੋਈ ਹੋਰ ਕਨੈਕਸ਼ਨ ਚੁਣੇ ਜਾਣ ਤੱਕ ਖੋਲ੍ਹਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1 connection</source>
        <translation>%1 ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: writes are locked. This pool is watched only; unlock writes to seed, evict, restore or allocate.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: ਲਿਖਤਾਂ ਤਾਲਾਬੰਦ ਹਨ। ਇਸ ਪੂਲ ਦੀ ਸਿਰਫ਼ ਨਿਗਰਾਨੀ ਹੁੰਦੀ ਹੈ; ਸੂਚੀ ਤੋਂ ਜੋੜਨ, ਹਟਾਉਣ, ਬਹਾਲ ਕਰਨ ਜਾਂ ਨਿਰਧਾਰਤ ਕਰਨ ਲਈ ਲਿਖਤਾਂ ਖੋਲ੍ਹੋ।</translation>
    </message>
    <message>
        <source>&amp;Unlock writes</source>
        <translation>ਲਿਖਤਾਂ ਖੋਲ੍ਹੋ(&amp;U)</translation>
    </message>
    <message>
        <source>%1 · writes locked</source>
        <translation>%1 · ਲਿਖਤਾਂ ਤਾਲਾਬੰਦ</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: writes are unlocked for this session. Several evictions, restores at zero and the count-reset demo still ask for the pool&apos;s name.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: ਇਸ ਸੈਸ਼ਨ ਲਈ ਲਿਖਤਾਂ ਖੁੱਲ੍ਹੀਆਂ ਹਨ। ਕਈ ਮੈਂਬਰ ਹਟਾਉਣੇ, ਜ਼ੀਰੋ &apos;ਤੇ ਬਹਾਲ ਕਰਨਾ ਅਤੇ ਗਿਣਤੀ-ਰੀਸੈੱਟ ਡੈਮੋ ਅਜੇ ਵੀ ਪੂਲ ਦਾ ਨਾਂ ਮੰਗਦੇ ਹਨ।</translation>
    </message>
    <message>
        <source>&amp;Lock writes</source>
        <translation>ਲਿਖਤਾਂ ਤਾਲਾਬੰਦ ਕਰੋ(&amp;L)</translation>
    </message>
    <message>
        <source>%1 · writes unlocked for this session</source>
        <translation>%1 · ਇਸ ਸੈਸ਼ਨ ਲਈ ਲਿਖਤਾਂ ਖੁੱਲ੍ਹੀਆਂ</translation>
    </message>
</context>
<context>
    <name>poolscope::EventsPanel</name>
    <message>
        <source>connection</source>
        <translation>ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>demo</source>
        <translation>ਡੈਮੋ</translation>
    </message>
    <message>
        <source>evict</source>
        <extracomment>Evict: taking members out of rotation, their counts kept.</extracomment>
        <translation>ਹਟਾਉਣਾ</translation>
    </message>
    <message>
        <source>export</source>
        <translation>ਨਿਰਯਾਤ</translation>
    </message>
    <message>
        <source>guard</source>
        <translation>ਰਾਖਾ</translation>
    </message>
    <message>
        <source>health</source>
        <translation>ਸਿਹਤ</translation>
    </message>
    <message>
        <source>load</source>
        <translation>ਲੋਡ</translation>
    </message>
    <message>
        <source>poll</source>
        <translation>ਪੋਲ</translation>
    </message>
    <message>
        <source>pool</source>
        <extracomment>The proxy pool (the sorted set the dashboard watches).</extracomment>
        <translation>ਪੂਲ</translation>
    </message>
    <message>
        <source>recording</source>
        <translation>ਰਿਕਾਰਡਿੰਗ</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>ਬਹਾਲੀ</translation>
    </message>
    <message>
        <source>scan</source>
        <translation>ਸਕੈਨ</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>ਦ੍ਰਿਸ਼</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>ਸੂਚੀ ਤੋਂ ਜੋੜਨਾ</translation>
    </message>
    <message>
        <source>server</source>
        <translation>ਸਰਵਰ</translation>
    </message>
    <message>
        <source>Operations and errors, newest first</source>
        <translation>ਕਾਰਵਾਈਆਂ ਅਤੇ ਗਲਤੀਆਂ, ਸਭ ਤੋਂ ਨਵੀਆਂ ਪਹਿਲਾਂ</translation>
    </message>
</context>
<context>
    <name>poolscope::FairnessPanel</name>
    <message>
        <source>– (summary mode: counted from the next polls)</source>
        <translation>– (ਸਾਰ ਢੰਗ: ਅਗਲੇ ਪੋਲਾਂ ਤੋਂ ਗਿਣਿਆ ਜਾਵੇਗਾ)</translation>
    </message>
    <message>
        <source>%1 /s (the recording&apos;s last %2)</source>
        <translation>%1 /ਸਕਿੰਟ (ਰਿਕਾਰਡਿੰਗ ਦੇ ਆਖਰੀ %2)</translation>
    </message>
    <message>
        <source>– (not in the recording)</source>
        <translation>– (ਰਿਕਾਰਡਿੰਗ ਵਿੱਚ ਨਹੀਂ)</translation>
    </message>
    <message>
        <source>Stale: no good poll since %1. These figures are from then.</source>
        <translation>ਪੁਰਾਣਾ: %1 ਤੋਂ ਕੋਈ ਸਫਲ ਪੋਲ ਨਹੀਂ। ਇਹ ਅੰਕੜੇ ਉਦੋਂ ਦੇ ਹਨ।</translation>
    </message>
    <message>
        <source>%1 (+%2 evicted)</source>
        <translation>%1 (+%2 ਹਟਾਏ)</translation>
    </message>
    <message>
        <source>%1 (%2 with the %3 evicted)</source>
        <translation>%1 (%3 ਹਟਾਇਆਂ ਸਮੇਤ %2)</translation>
    </message>
    <message>
        <source>Busiest (last %1)</source>
        <translation>ਸਭ ਤੋਂ ਵਿਅਸਤ (ਪਿਛਲੇ %1)</translation>
    </message>
    <message>
        <source>– (no allocations)</source>
        <translation>– (ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ)</translation>
    </message>
    <message>
        <source>%1 /s</source>
        <translation>%1 /ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>full snapshot</source>
        <translation>ਪੂਰਾ ਸਨੈਪਸ਼ਾਟ</translation>
    </message>
    <message>
        <source>summary: %1 members &gt; %2 (quantiles, top/bottom, pinned and the rows on screen are read)</source>
        <translation>ਸਾਰ: %1 ਮੈਂਬਰ &gt; %2 (ਕੁਆਂਟਾਈਲ, ਉੱਪਰਲੇ/ਹੇਠਲੇ, ਪਿੰਨ ਕੀਤੇ ਅਤੇ ਸਕ੍ਰੀਨ ਉੱਤੇ ਦਿਸਦੀਆਂ ਕਤਾਰਾਂ ਪੜ੍ਹੀਆਂ ਜਾਂਦੀਆਂ ਹਨ)</translation>
    </message>
    <message>
        <source>pending: first totals scan %1 %</source>
        <translation>ਬਕਾਇਆ: ਪਹਿਲਾ ਕੁੱਲ ਸਕੈਨ %1%</translation>
    </message>
    <message>
        <source>Jain&apos;s index needs every member&apos;s count: a low-rate background scan reads the whole pool in small pages and the index appears when its first pass completes</source>
        <translation>Jain ਸੂਚਕ ਨੂੰ ਹਰ ਮੈਂਬਰ ਦੀ ਗਿਣਤੀ ਚਾਹੀਦੀ ਹੈ: ਇੱਕ ਘੱਟ-ਦਰ ਪਿਛੋਕੜ ਸਕੈਨ ਪੂਰੇ ਪੂਲ ਨੂੰ ਛੋਟੇ ਪੰਨਿਆਂ ਵਿੱਚ ਪੜ੍ਹਦਾ ਹੈ ਅਤੇ ਇਸ ਦਾ ਪਹਿਲਾ ਗੇੜ ਪੂਰਾ ਹੋਣ &apos;ਤੇ ਸੂਚਕ ਦਿਸਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>highest count: %1 (%2)</source>
        <translation>ਸਭ ਤੋਂ ਵੱਧ ਗਿਣਤੀ: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>poolscope::GuardPanel</name>
    <message>
        <source>round failed: %1; trying again next round</source>
        <translation>ਗੇੜ ਅਸਫਲ: %1; ਅਗਲੇ ਗੇੜ ਵਿੱਚ ਮੁੜ ਕੋਸ਼ਿਸ਼</translation>
    </message>
    <message>
        <source>Start guard</source>
        <translation>ਰਾਖਾ ਸ਼ੁਰੂ ਕਰੋ</translation>
    </message>
    <message>
        <source>http://host/path fetched through each proxy</source>
        <translation>http://host/path ਹਰ ਪਰਾਕਸੀ ਰਾਹੀਂ ਲਿਆਂਦਾ ਜਾਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Consecutive failed checks before a member is evicted</source>
        <translation>ਮੈਂਬਰ ਹਟਾਉਣ ਤੋਂ ਪਹਿਲਾਂ ਲਗਾਤਾਰ ਅਸਫਲ ਜਾਂਚਾਂ</translation>
    </message>
    <message>
        <source>Consecutive good checks before an evicted member comes back</source>
        <translation>ਹਟਾਇਆ ਮੈਂਬਰ ਵਾਪਸ ਆਉਣ ਤੋਂ ਪਹਿਲਾਂ ਲਗਾਤਾਰ ਸਫਲ ਜਾਂਚਾਂ</translation>
    </message>
    <message>
        <source>The evicted share never goes above this: when more fail at once, the target or the network looks down</source>
        <translation>ਹਟਾਏ ਗਏ ਹਿੱਸਾ ਕਦੇ ਇਸ ਤੋਂ ਉੱਪਰ ਨਹੀਂ ਜਾਂਦਾ: ਜਦੋਂ ਇੱਕੋ ਵੇਲੇ ਹੋਰ ਅਸਫਲ ਹੋਣ, ਟੀਚਾ ਜਾਂ ਨੈੱਟਵਰਕ ਬੰਦ ਲੱਗਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>min (no flood)</source>
        <translation>ਘੱਟੋ-ਘੱਟ (ਕੋਈ ਹੜ੍ਹ ਨਹੀਂ)</translation>
    </message>
    <message>
        <source>keep (saved count)</source>
        <translation>ਰੱਖੋ (ਸੰਭਾਲੀ ਗਿਣਤੀ)</translation>
    </message>
    <message>
        <source>start</source>
        <translation>ਸ਼ੁਰੂਆਤ</translation>
    </message>
    <message>
        <source>The count a restored member comes back with</source>
        <translation>ਉਹ ਗਿਣਤੀ ਜਿਸ ਨਾਲ ਬਹਾਲ ਕੀਤਾ ਮੈਂਬਰ ਵਾਪਸ ਆਉਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>ਟੀਚਾ</translation>
    </message>
    <message>
        <source>Fall</source>
        <translation>ਡਿੱਗਣਾ</translation>
    </message>
    <message>
        <source>Rise</source>
        <translation>ਉੱਠਣਾ</translation>
    </message>
    <message>
        <source>Max evicted</source>
        <translation>ਵੱਧ ਤੋਂ ਵੱਧ ਹਟਾਏ</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>ਬਹਾਲੀ</translation>
    </message>
    <message>
        <source>Interval</source>
        <translation>ਅੰਤਰਾਲ</translation>
    </message>
    <message>
        <source>Guard off</source>
        <translation>ਰਾਖਾ ਬੰਦ</translation>
    </message>
    <message>
        <source>No round yet</source>
        <translation>ਅਜੇ ਕੋਈ ਗੇੜ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>Guard on, holding the lease as %1</source>
        <translation>ਰਾਖਾ ਚਾਲੂ, %1 ਵਜੋਂ ਲੀਜ਼ ਰੱਖੀ ਹੋਈ</translation>
    </message>
    <message>
        <source>Guard stopped: the dashboard watches another pool now</source>
        <translation>ਰਾਖਾ ਰੁਕਿਆ: ਡੈਸ਼ਬੋਰਡ ਹੁਣ ਕਿਸੇ ਹੋਰ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਕਰਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Stop guard</source>
        <translation>ਰਾਖਾ ਰੋਕੋ</translation>
    </message>
    <message>
        <source>Guard not started: target URL: %1</source>
        <translation>ਰਾਖਾ ਸ਼ੁਰੂ ਨਹੀਂ ਹੋਇਆ: ਟੀਚਾ URL: %1</translation>
    </message>
    <message>
        <source>Taking the lease on %1…</source>
        <translation>%1 ਦੀ ਲੀਜ਼ ਲਈ ਜਾ ਰਹੀ ਹੈ…</translation>
    </message>
    <message>
        <source>another guard (%1) holds the lease: waiting</source>
        <translation>ਇੱਕ ਹੋਰ ਰਾਖੇ (%1) ਕੋਲ ਲੀਜ਼ ਹੈ: ਉਡੀਕ ਜਾਰੀ</translation>
    </message>
    <message>
        <source>%1 checked in %2 ms: %3 up, %4 down; %5 action(s); %6 of %7 evicted</source>
        <translation>%1 ਦੀ ਜਾਂਚ %2 ਮਿਲੀਸਕਿੰਟ ਵਿੱਚ: %3 ਚਾਲੂ, %4 ਬੰਦ; %5 ਕਾਰਵਾਈ(ਆਂ); %7 ਵਿੱਚੋਂ %6 ਹਟਾਏ</translation>
    </message>
    <message>
        <source>Last round (%1): %2</source>
        <translation>ਪਿਛਲਾ ਗੇੜ (%1): %2</translation>
    </message>
    <message>
        <source>Guard off (lease released)</source>
        <translation>ਰਾਖਾ ਬੰਦ (ਲੀਜ਼ ਛੱਡੀ)</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source> s</source>
        <translation> ਸਕਿੰਟ</translation>
    </message>
</context>
<context>
    <name>poolscope::MainWindow</name>
    <message>
        <source>Open recording</source>
        <translation>ਰਿਕਾਰਡਿੰਗ ਖੋਲ੍ਹੋ</translation>
    </message>
    <message>
        <source>poolscope · %1 · %2 · %3</source>
        <translation>poolscope · %1 · %2 · %3</translation>
    </message>
    <message>
        <source>Pool</source>
        <extracomment>Pool: the proxy pool (the sorted set the dashboard watches), a panel&apos;s title.</extracomment>
        <translation>ਪੂਲ</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>ਘਟਨਾਵਾਂ</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>Pools</source>
        <translation>ਪੂਲ</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>ਰਾਖਾ</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>ਚੇਤਾਵਨੀਆਂ</translation>
    </message>
    <message>
        <source>the server refused the password</source>
        <translation>ਸਰਵਰ ਨੇ ਪਾਸਵਰਡ ਰੱਦ ਕਰ ਦਿੱਤਾ</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ਫ਼ਾਈਲ(&amp;F)</translation>
    </message>
    <message>
        <source>Connections...</source>
        <translation>ਕਨੈਕਸ਼ਨ...</translation>
    </message>
    <message>
        <source>Saved connections: URL, TLS and SSH settings, pool key and poll interval; secrets in the keychain</source>
        <translation>ਸੰਭਾਲੇ ਕਨੈਕਸ਼ਨ: URL, TLS ਅਤੇ SSH ਸੈਟਿੰਗਾਂ, ਪੂਲ ਕੁੰਜੀ ਅਤੇ ਪੋਲ ਅੰਤਰਾਲ; ਭੇਤ ਕੀਚੇਨ ਵਿੱਚ</translation>
    </message>
    <message>
        <source>Open recording…</source>
        <translation>ਰਿਕਾਰਡਿੰਗ ਖੋਲ੍ਹੋ…</translation>
    </message>
    <message>
        <source>poolscope recordings (*.sqlite *.db *.poolscope)</source>
        <translation>poolscope ਰਿਕਾਰਡਿੰਗਾਂ (*.sqlite *.db *.poolscope)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>ਸਾਰੀਆਂ ਫ਼ਾਈਲਾਂ (*)</translation>
    </message>
    <message>
        <source>Open a recording without any Redis connection, read only: its history, markers and last poll</source>
        <translation>ਬਿਨਾਂ ਕਿਸੇ Redis ਕਨੈਕਸ਼ਨ ਦੇ ਰਿਕਾਰਡਿੰਗ ਖੋਲ੍ਹੋ, ਸਿਰਫ਼-ਪੜ੍ਹਨ: ਇਸ ਦਾ ਇਤਿਹਾਸ, ਨਿਸ਼ਾਨ ਅਤੇ ਆਖਰੀ ਪੋਲ</translation>
    </message>
    <message>
        <source>Record while watching</source>
        <translation>ਨਿਗਰਾਨੀ ਦੌਰਾਨ ਰਿਕਾਰਡ ਕਰੋ</translation>
    </message>
    <message>
        <source>Keep the watched pool&apos;s history in its recording (one file per server and pool in the data directory), so it is there the next time the pool is opened</source>
        <translation>ਨਿਗਰਾਨੀ ਹੇਠਲੇ ਪੂਲ ਦਾ ਇਤਿਹਾਸ ਇਸ ਦੀ ਰਿਕਾਰਡਿੰਗ ਵਿੱਚ ਰੱਖੋ (ਡਾਟਾ ਡਾਇਰੈਕਟਰੀ ਵਿੱਚ ਹਰ ਸਰਵਰ ਅਤੇ ਪੂਲ ਲਈ ਇੱਕ ਫ਼ਾਈਲ), ਤਾਂ ਜੋ ਅਗਲੀ ਵਾਰ ਪੂਲ ਖੋਲ੍ਹਣ &apos;ਤੇ ਇਹ ਉੱਥੇ ਹੋਵੇ</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>ਬੰਦ ਕਰੋ</translation>
    </message>
    <message>
        <source>&amp;Pool</source>
        <extracomment>Pool: the proxy pool (the sorted set the dashboard watches), a menu.</extracomment>
        <translation>ਪੂਲ(&amp;P)</translation>
    </message>
    <message>
        <source>Alert &amp;rules…</source>
        <translation>ਚੇਤਾਵਨੀ ਨਿਯਮ(&amp;R)…</translation>
    </message>
    <message>
        <source>Audit &amp;trail…</source>
        <translation>ਆਡਿਟ ਟ੍ਰੇਲ(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>ਦ੍ਰਿਸ਼(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Overview of every pool…</source>
        <translation>ਹਰ ਪੂਲ ਦੀ ਝਲਕ(&amp;O)…</translation>
    </message>
    <message>
        <source>Every pool of every saved connection in one table</source>
        <translation>ਹਰ ਸੰਭਾਲੇ ਕਨੈਕਸ਼ਨ ਦਾ ਹਰ ਪੂਲ ਇੱਕ ਸਾਰਣੀ ਵਿੱਚ</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ਮਦਦ(&amp;H)</translation>
    </message>
    <message>
        <source>About poolscope</source>
        <translation>poolscope ਬਾਰੇ</translation>
    </message>
    <message>
        <source>&lt;b&gt;poolscope %1&lt;/b&gt;&lt;p&gt;Live dashboard for Redis least-used proxy pools: a sorted set whose scores count allocations, served by allocate.lua.&lt;/p&gt;</source>
        <translation>&lt;b&gt;poolscope %1&lt;/b&gt;&lt;p&gt;Redis ਦੇ ਸਭ ਤੋਂ ਘੱਟ ਵਰਤੀ ਪਰਾਕਸੀ ਪੂਲਾਂ ਲਈ ਲਾਈਵ ਡੈਸ਼ਬੋਰਡ: ਇੱਕ ਕ੍ਰਮਬੱਧ ਸੈੱਟ ਜਿਸ ਦੇ ਸਕੋਰ ਨਿਰਧਾਰਨ ਗਿਣਦੇ ਹਨ, allocate.lua ਦੁਆਰਾ ਸੇਵਾ।&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>ਕਾਰਵਾਈਆਂ</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>ਨਿਰਯਾਤ</translation>
    </message>
    <message>
        <source>Export the chart, the history or the table</source>
        <translation>ਚਾਰਟ, ਇਤਿਹਾਸ ਜਾਂ ਸਾਰਣੀ ਨਿਰਯਾਤ ਕਰੋ</translation>
    </message>
    <message>
        <source>poolscope · recording %1 · %2 (read only)</source>
        <translation>poolscope · ਰਿਕਾਰਡਿੰਗ %1 · %2 (ਸਿਰਫ਼-ਪੜ੍ਹਨ)</translation>
    </message>
    <message>
        <source>reading the recording %1…</source>
        <translation>ਰਿਕਾਰਡਿੰਗ %1 ਪੜ੍ਹੀ ਜਾ ਰਹੀ ਹੈ…</translation>
    </message>
    <message>
        <source>cannot open the recording: %1</source>
        <translation>ਰਿਕਾਰਡਿੰਗ ਖੋਲ੍ਹੀ ਨਹੀਂ ਜਾ ਸਕਦੀ: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::MarkerChartView</name>
    <message>
        <source>%1  %2</source>
        <comment>a marker&apos;s tooltip line: the time, what happened then</comment>
        <translation>%1  %2</translation>
    </message>
</context>
<context>
    <name>poolscope::MembersPanel</name>
    <message>
        <source>Not connected to %1: &quot;%2&quot; was last read at %3.
Connect tries again.</source>
        <translation>%1 ਨਾਲ ਜੁੜਿਆ ਨਹੀਂ: &quot;%2&quot; ਆਖਰੀ ਵਾਰ %3 &apos;ਤੇ ਪੜ੍ਹਿਆ ਗਿਆ।
ਜੁੜੋ ਮੁੜ ਕੋਸ਼ਿਸ਼ ਕਰਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Not connected: %1
&quot;%2&quot; was last read at %3. Connect tries again.</source>
        <translation>ਜੁੜਿਆ ਨਹੀਂ: %1
&quot;%2&quot; ਆਖਰੀ ਵਾਰ %3 &apos;ਤੇ ਪੜ੍ਹਿਆ ਗਿਆ। ਜੁੜੋ ਮੁੜ ਕੋਸ਼ਿਸ਼ ਕਰਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Filter members… (Ctrl+F)</source>
        <translation>ਮੈਂਬਰ ਫਿਲਟਰ ਕਰੋ… (Ctrl+F)</translation>
    </message>
    <message>
        <source>Show only members whose id contains this text</source>
        <translation>ਸਿਰਫ਼ ਉਹ ਮੈਂਬਰ ਦਿਖਾਓ ਜਿਨ੍ਹਾਂ ਦੀ id ਵਿੱਚ ਇਹ ਟੈਕਸਟ ਹੈ</translation>
    </message>
    <message>
        <source>Rows keep their places while the pointer is over the table or rows are selected, so the row you aim at stays the row you click. Counts still update. Re-sort now, or move the pointer away and clear the selection.</source>
        <translation>ਜਦੋਂ ਪੁਆਇੰਟਰ ਸਾਰਣੀ ਉੱਤੇ ਹੋਵੇ ਜਾਂ ਕਤਾਰਾਂ ਚੁਣੀਆਂ ਹੋਣ, ਕਤਾਰਾਂ ਆਪਣੀ ਥਾਂ &apos;ਤੇ ਰਹਿੰਦੀਆਂ ਹਨ, ਤਾਂ ਜੋ ਜਿਸ ਕਤਾਰ ਦਾ ਤੁਸੀਂ ਨਿਸ਼ਾਨਾ ਲੈਂਦੇ ਹੋ ਉਹੀ ਕਲਿੱਕ ਹੋਵੇ। ਗਿਣਤੀਆਂ ਫਿਰ ਵੀ ਅੱਪਡੇਟ ਹੁੰਦੀਆਂ ਹਨ। ਹੁਣੇ ਮੁੜ-ਕ੍ਰਮਬੱਧ ਕਰੋ, ਜਾਂ ਪੁਆਇੰਟਰ ਹਟਾਓ ਅਤੇ ਚੋਣ ਸਾਫ਼ ਕਰੋ।</translation>
    </message>
    <message>
        <source>Any health</source>
        <translation>ਕੋਈ ਵੀ ਸਿਹਤ</translation>
    </message>
    <message>
        <source>Health: %1</source>
        <translation>ਸਿਹਤ: %1</translation>
    </message>
    <message>
        <source>Show only members in this health state</source>
        <translation>ਸਿਰਫ਼ ਇਸ ਸਿਹਤ ਸਥਿਤੀ ਵਾਲੇ ਮੈਂਬਰ ਦਿਖਾਓ</translation>
    </message>
    <message>
        <source> · &lt;a href=&quot;resort&quot;&gt;re-sort now&lt;/a&gt;</source>
        <translation type="vanished"> · &lt;a href=&quot;resort&quot;&gt;ਹੁਣੇ ਮੁੜ-ਕ੍ਰਮਬੱਧ ਕਰੋ&lt;/a&gt;</translation>
    </message>
    <message>
        <source>‖ order held: rows selected</source>
        <translation>‖ ਕ੍ਰਮ ਰੋਕਿਆ: ਕਤਾਰਾਂ ਚੁਣੀਆਂ ਹਨ</translation>
    </message>
    <message>
        <source>‖ order held: pointer over the table</source>
        <translation>‖ ਕ੍ਰਮ ਰੋਕਿਆ: ਪੁਆਇੰਟਰ ਸਾਰਣੀ ਉੱਤੇ</translation>
    </message>
    <message>
        <source>Find a member or the start of its id… (Ctrl+F, searched on the server)</source>
        <translation>ਕੋਈ ਮੈਂਬਰ ਜਾਂ ਇਸ ਦੀ id ਦੀ ਸ਼ੁਰੂਆਤ ਲੱਭੋ… (Ctrl+F, ਸਰਵਰ &apos;ਤੇ ਖੋਜਿਆ)</translation>
    </message>
    <message>
        <source>This pool is read in summary mode: only the rows on screen are read, and rows stay in rank order (count ascending: the next to be allocated first). Type a member&apos;s id or its start (case-sensitive): the server looks the member up by name and scans for ids starting with the text in the background, a few small pages at a time; the members found become the table&apos;s rows, to pin or evict. Clear the field to go back to the rows by rank.</source>
        <translation>ਇਹ ਪੂਲ ਸਾਰ ਢੰਗ ਵਿੱਚ ਪੜ੍ਹਿਆ ਜਾਂਦਾ ਹੈ: ਸਿਰਫ਼ ਸਕ੍ਰੀਨ ਉੱਤੇ ਦਿਸਦੀਆਂ ਕਤਾਰਾਂ ਪੜ੍ਹੀਆਂ ਜਾਂਦੀਆਂ ਹਨ, ਅਤੇ ਕਤਾਰਾਂ ਦਰਜੇ ਦੇ ਕ੍ਰਮ ਵਿੱਚ ਰਹਿੰਦੀਆਂ ਹਨ (ਗਿਣਤੀ ਵਧਦੇ ਕ੍ਰਮ ਵਿੱਚ: ਅਗਲਾ ਨਿਰਧਾਰਤ ਹੋਣ ਵਾਲਾ ਪਹਿਲਾਂ)। ਕਿਸੇ ਮੈਂਬਰ ਦੀ id ਜਾਂ ਇਸ ਦੀ ਸ਼ੁਰੂਆਤ ਟਾਈਪ ਕਰੋ (ਵੱਡੇ-ਛੋਟੇ ਅੱਖਰ ਮਾਇਨੇ ਰੱਖਦੇ ਹਨ): ਸਰਵਰ ਮੈਂਬਰ ਨੂੰ ਨਾਂ ਨਾਲ ਲੱਭਦਾ ਹੈ ਅਤੇ ਪਿਛੋਕੜ ਵਿੱਚ ਟੈਕਸਟ ਨਾਲ ਸ਼ੁਰੂ ਹੋਣ ਵਾਲੀਆਂ id ਲਈ ਸਕੈਨ ਕਰਦਾ ਹੈ, ਇੱਕ ਵਾਰ ਵਿੱਚ ਕੁਝ ਛੋਟੇ ਪੰਨੇ; ਮਿਲੇ ਮੈਂਬਰ ਸਾਰਣੀ ਦੀਆਂ ਕਤਾਰਾਂ ਬਣ ਜਾਂਦੇ ਹਨ, ਪਿੰਨ ਕਰਨ ਜਾਂ ਹਟਾਉਣ ਲਈ। ਦਰਜੇ ਵਾਲੀਆਂ ਕਤਾਰਾਂ &apos;ਤੇ ਵਾਪਸ ਜਾਣ ਲਈ ਖੇਤਰ ਸਾਫ਼ ਕਰੋ।</translation>
    </message>
    <message>
        <source>Stale: no good poll since %1. Counts, rates and &quot;last change&quot; are from then.</source>
        <translation>ਪੁਰਾਣਾ: %1 ਤੋਂ ਕੋਈ ਸਫਲ ਪੋਲ ਨਹੀਂ। ਗਿਣਤੀਆਂ, ਦਰਾਂ ਅਤੇ &quot;ਆਖਰੀ ਤਬਦੀਲੀ&quot; ਉਦੋਂ ਦੀਆਂ ਹਨ।</translation>
    </message>
    <message>
        <source>Searching the pool for &quot;%1&quot;…</source>
        <translation>ਪੂਲ ਵਿੱਚ &quot;%1&quot; ਖੋਜਿਆ ਜਾ ਰਿਹਾ ਹੈ…</translation>
    </message>
    <message>
        <source>The search for &quot;%1&quot; failed: %2</source>
        <translation>&quot;%1&quot; ਦੀ ਖੋਜ ਅਸਫਲ: %2</translation>
    </message>
    <message>
        <source>Searching the pool for &quot;%1&quot;… (%2 pages read)</source>
        <translation>ਪੂਲ ਵਿੱਚ &quot;%1&quot; ਖੋਜਿਆ ਜਾ ਰਿਹਾ ਹੈ… (%2 ਪੰਨੇ ਪੜ੍ਹੇ)</translation>
    </message>
    <message>
        <source>No member is or starts with &quot;%1&quot; (the whole pool was searched; ids are case-sensitive).</source>
        <translation>ਕੋਈ ਮੈਂਬਰ &quot;%1&quot; ਨਹੀਂ ਹੈ ਜਾਂ ਇਸ ਨਾਲ ਸ਼ੁਰੂ ਨਹੀਂ ਹੁੰਦਾ (ਪੂਰਾ ਪੂਲ ਖੋਜਿਆ ਗਿਆ; id ਵਿੱਚ ਵੱਡੇ-ਛੋਟੇ ਅੱਖਰ ਮਾਇਨੇ ਰੱਖਦੇ ਹਨ)।</translation>
    </message>
    <message>
        <source>No member is %1 (health filter).</source>
        <translation>ਕੋਈ ਮੈਂਬਰ %1 ਨਹੀਂ ਹੈ (ਸਿਹਤ ਫਿਲਟਰ)।</translation>
    </message>
    <message>
        <source>No member matches &quot;%1&quot; and is %2 (health filter).</source>
        <translation>ਕੋਈ ਮੈਂਬਰ &quot;%1&quot; ਨਾਲ ਮੇਲ ਨਹੀਂ ਖਾਂਦਾ ਅਤੇ %2 ਨਹੀਂ ਹੈ (ਸਿਹਤ ਫਿਲਟਰ)।</translation>
    </message>
    <message>
        <source>No member matches &quot;%1&quot;.</source>
        <translation>ਕੋਈ ਮੈਂਬਰ &quot;%1&quot; ਨਾਲ ਮੇਲ ਨਹੀਂ ਖਾਂਦਾ।</translation>
    </message>
    <message>
        <source>Not connected. Enter a Redis URL and a pool key above, then Connect.</source>
        <translation>ਜੁੜਿਆ ਨਹੀਂ। ਉੱਪਰ Redis URL ਅਤੇ ਪੂਲ ਕੁੰਜੀ ਦਿਓ, ਫਿਰ ਜੁੜੋ।</translation>
    </message>
    <message>
        <source>Cannot reach %1: retrying. The events panel says why.</source>
        <translation>%1 ਤੱਕ ਪਹੁੰਚ ਨਹੀਂ ਹੋ ਸਕਦੀ: ਦੁਬਾਰਾ ਕੋਸ਼ਿਸ਼ ਹੋ ਰਹੀ ਹੈ। ਘਟਨਾਵਾਂ ਪੈਨਲ ਕਾਰਨ ਦੱਸਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Not connected: %1
Connect tries again.</source>
        <translation>ਜੁੜਿਆ ਨਹੀਂ: %1
ਜੁੜੋ ਦੁਬਾਰਾ ਕੋਸ਼ਿਸ਼ ਕਰਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Connected, but reading &quot;%1&quot; fails: %2</source>
        <translation>ਜੁੜਿਆ ਹੈ, ਪਰ &quot;%1&quot; ਪੜ੍ਹਨਾ ਅਸਫਲ: %2</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>%1 ਨਾਲ ਜੁੜ ਰਿਹਾ ਹੈ…</translation>
    </message>
    <message>
        <source>No pool at &quot;%1&quot; yet. (Read-only: another process has to seed it.)</source>
        <translation>&quot;%1&quot; &apos;ਤੇ ਅਜੇ ਕੋਈ ਪੂਲ ਨਹੀਂ। (ਸਿਰਫ਼-ਪੜ੍ਹਨ: ਕਿਸੇ ਹੋਰ ਪ੍ਰਕਿਰਿਆ ਨੂੰ ਸੂਚੀ ਤੋਂ ਮੈਂਬਰ ਜੋੜਨੇ ਪੈਣਗੇ।)</translation>
    </message>
    <message>
        <source>No pool at &quot;%1&quot; yet: Seed… (Ctrl+N) to add proxies.</source>
        <translation>&quot;%1&quot; &apos;ਤੇ ਅਜੇ ਕੋਈ ਪੂਲ ਨਹੀਂ: ਪਰਾਕਸੀਆਂ ਜੋੜਨ ਲਈ ਸੂਚੀ ਤੋਂ ਜੋੜੋ… (Ctrl+N)।</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>ਖੋਜ ਜਾਰੀ…</translation>
    </message>
    <message>
        <source>first %1 found: type more to narrow</source>
        <translation>ਪਹਿਲੇ %1 ਮਿਲੇ: ਤੰਗ ਕਰਨ ਲਈ ਹੋਰ ਟਾਈਪ ਕਰੋ</translation>
    </message>
    <message>
        <source>whole pool searched</source>
        <translation>ਪੂਰਾ ਪੂਲ ਖੋਜਿਆ</translation>
    </message>
    <message numerus="yes">
        <source>searching… %Ln page(s)</source>
        <translation>
            <numerusform>ਖੋਜ ਜਾਰੀ… %Ln ਪੰਨਾ</numerusform>
            <numerusform>ਖੋਜ ਜਾਰੀ… %Ln ਪੰਨੇ</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 found for &quot;%2&quot; · %3</source>
        <translation>&quot;%2&quot; ਲਈ %1 ਮਿਲੇ · %3</translation>
    </message>
    <message>
        <source>%1 in pool, by rank (summary mode) · %2 evicted</source>
        <translation>ਪੂਲ ਵਿੱਚ %1, ਦਰਜੇ ਅਨੁਸਾਰ (ਸਾਰ ਢੰਗ) · %2 ਹਟਾਏ</translation>
    </message>
    <message>
        <source>%1 shown · %2 in pool · %3 evicted</source>
        <translation>%1 ਦਿਖਾਏ · ਪੂਲ ਵਿੱਚ %2 · %3 ਹਟਾਏ</translation>
    </message>
    <message>
        <source>%1 · &lt;a href=&quot;resort&quot;&gt;re-sort now&lt;/a&gt;</source>
        <comment>%1: why the rows&apos; order is held</comment>
        <translation>%1 · &lt;a href=&quot;resort&quot;&gt;ਹੁਣੇ ਮੁੜ-ਕ੍ਰਮਬੱਧ ਕਰੋ&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>poolscope::OverviewWindow</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>ਤਾਜ਼ਾ ਕਰੋ(&amp;R)</translation>
    </message>
    <message>
        <source>Overview of every pool – poolscope</source>
        <translation>ਹਰ ਪੂਲ ਦੀ ਝਲਕ – poolscope</translation>
    </message>
    <message>
        <source>&amp;Connections:</source>
        <translation>ਕਨੈਕਸ਼ਨ(&amp;C):</translation>
    </message>
    <message>
        <source>Filter rows: connection, pool, status…</source>
        <translation>ਕਤਾਰਾਂ ਫਿਲਟਰ ਕਰੋ: ਕਨੈਕਸ਼ਨ, ਪੂਲ, ਸਥਿਤੀ…</translation>
    </message>
    <message>
        <source>Shows only the rows with this text in any column (Ctrl+F)</source>
        <translation>ਸਿਰਫ਼ ਉਹ ਕਤਾਰਾਂ ਦਿਖਾਉਂਦਾ ਹੈ ਜਿਨ੍ਹਾਂ ਦੇ ਕਿਸੇ ਵੀ ਕਾਲਮ ਵਿੱਚ ਇਹ ਟੈਕਸਟ ਹੈ (Ctrl+F)</translation>
    </message>
    <message>
        <source>Reads every server now (F5)</source>
        <translation>ਹਰ ਸਰਵਰ ਹੁਣੇ ਪੜ੍ਹਦਾ ਹੈ (F5)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>ਨਿਰਯਾਤ(&amp;E)</translation>
    </message>
    <message>
        <source>Rows shown as CSV…</source>
        <translation>ਦਿਖਾਈਆਂ ਕਤਾਰਾਂ CSV ਵਜੋਂ…</translation>
    </message>
    <message>
        <source>Rows shown as JSON…</source>
        <translation>ਦਿਖਾਈਆਂ ਕਤਾਰਾਂ JSON ਵਜੋਂ…</translation>
    </message>
    <message>
        <source>Every pool of the chosen connections. Enter or a double click opens the pool in the main window.</source>
        <translation>ਚੁਣੇ ਕਨੈਕਸ਼ਨਾਂ ਦਾ ਹਰ ਪੂਲ। Enter ਜਾਂ ਡਬਲ ਕਲਿੱਕ ਪੂਲ ਨੂੰ ਮੁੱਖ ਵਿੰਡੋ ਵਿੱਚ ਖੋਲ੍ਹਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>Every saved connection</source>
        <translation>ਹਰ ਸੰਭਾਲਿਆ ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>Group %1</source>
        <translation>ਸਮੂਹ %1</translation>
    </message>
    <message>
        <source>needs a password: connect to it once (File ▸ Connections…) and the overview reads it too</source>
        <translation>ਪਾਸਵਰਡ ਚਾਹੀਦਾ ਹੈ: ਇਸ ਨਾਲ ਇੱਕ ਵਾਰ ਜੁੜੋ (ਫ਼ਾਈਲ ▸ ਕਨੈਕਸ਼ਨ…) ਅਤੇ ਝਲਕ ਵੀ ਇਸ ਨੂੰ ਪੜ੍ਹਦੀ ਹੈ</translation>
    </message>
    <message>
        <source>No saved connections yet.

Add one with File ▸ Connections… (Ctrl+Shift+O): New, then the server&apos;s URL and the pool key. Scripts can add them with “poolscope-cli profile add NAME --url URL”. The overview then lists every pool of every saved connection.</source>
        <translation>ਅਜੇ ਕੋਈ ਸੰਭਾਲਿਆ ਕਨੈਕਸ਼ਨ ਨਹੀਂ।

ਫ਼ਾਈਲ ▸ ਕਨੈਕਸ਼ਨ… (Ctrl+Shift+O) ਨਾਲ ਇੱਕ ਜੋੜੋ: ਨਵਾਂ, ਫਿਰ ਸਰਵਰ ਦਾ URL ਅਤੇ ਪੂਲ ਕੁੰਜੀ। ਸਕ੍ਰਿਪਟਾਂ ਇਹਨਾਂ ਨੂੰ “poolscope-cli profile add NAME --url URL” ਨਾਲ ਜੋੜ ਸਕਦੀਆਂ ਹਨ। ਫਿਰ ਝਲਕ ਹਰ ਸੰਭਾਲੇ ਕਨੈਕਸ਼ਨ ਦਾ ਹਰ ਪੂਲ ਸੂਚੀਬੱਧ ਕਰਦੀ ਹੈ।</translation>
    </message>
    <message>
        <source>No saved connection is in this group.</source>
        <translation>ਇਸ ਸਮੂਹ ਵਿੱਚ ਕੋਈ ਸੰਭਾਲਿਆ ਕਨੈਕਸ਼ਨ ਨਹੀਂ।</translation>
    </message>
    <message>
        <source>%1 of %2 rows shown · %3 connections, each server read every %4 s</source>
        <translation>%2 ਵਿੱਚੋਂ %1 ਕਤਾਰਾਂ ਦਿਖਾਈਆਂ · %3 ਕਨੈਕਸ਼ਨ, ਹਰ ਸਰਵਰ ਹਰ %4 ਸਕਿੰਟ ਪੜ੍ਹਿਆ ਜਾਂਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>%1: %2 · last good poll: %3</source>
        <translation>%1: %2 · ਆਖਰੀ ਸਫਲ ਪੋਲ: %3</translation>
    </message>
    <message>
        <source>%1 rows written to %2</source>
        <translation>%1 ਕਤਾਰਾਂ %2 ਵਿੱਚ ਲਿਖੀਆਂ</translation>
    </message>
    <message>
        <source>could not write %1: %2</source>
        <translation>%1 ਲਿਖੀ ਨਹੀਂ ਜਾ ਸਕੀ: %2</translation>
    </message>
    <message>
        <source>Export the overview as CSV</source>
        <translation>ਝਲਕ CSV ਵਜੋਂ ਨਿਰਯਾਤ ਕਰੋ</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ਫ਼ਾਈਲਾਂ (*.csv)</translation>
    </message>
    <message>
        <source>Export the overview as JSON</source>
        <translation>ਝਲਕ JSON ਵਜੋਂ ਨਿਰਯਾਤ ਕਰੋ</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON ਫ਼ਾਈਲਾਂ (*.json)</translation>
    </message>
    <message>
        <source>reading its password from the keychain…</source>
        <translation>ਕੀਚੇਨ ਤੋਂ ਇਸ ਦਾ ਪਾਸਵਰਡ ਪੜ੍ਹਿਆ ਜਾ ਰਿਹਾ ਹੈ…</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolActions</name>
    <message>
        <source>Refresh</source>
        <translation>ਤਾਜ਼ਾ ਕਰੋ</translation>
    </message>
    <message>
        <source>Poll the pool now (F5)</source>
        <translation>ਪੂਲ ਹੁਣੇ ਪੋਲ ਕਰੋ (F5)</translation>
    </message>
    <message>
        <source>Seed…</source>
        <translation>ਸੂਚੀ ਤੋਂ ਜੋੜੋ…</translation>
    </message>
    <message>
        <source>Import a proxy list into the pool (Ctrl+N)</source>
        <translation>ਪੂਲ ਵਿੱਚ ਪਰਾਕਸੀ ਸੂਚੀ ਆਯਾਤ ਕਰੋ (Ctrl+N)</translation>
    </message>
    <message>
        <source>Evict</source>
        <extracomment>Evict: take the member out of rotation, keeping its allocation count.</extracomment>
        <translation>ਹਟਾਓ</translation>
    </message>
    <message>
        <source>Take the selected members out of the pool, keeping their counts (Delete)</source>
        <translation>ਚੁਣੇ ਮੈਂਬਰਾਂ ਨੂੰ ਉਹਨਾਂ ਦੀਆਂ ਗਿਣਤੀਆਂ ਰੱਖਦੇ ਹੋਏ ਪੂਲ ਵਿੱਚੋਂ ਕੱਢੋ (Delete)</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>ਬਹਾਲ ਕਰੋ…</translation>
    </message>
    <message>
        <source>Bring the selected evicted members back, choosing their count (Ctrl+R)</source>
        <translation>ਚੁਣੇ ਹਟਾਏ ਮੈਂਬਰਾਂ ਨੂੰ ਉਹਨਾਂ ਦੀ ਗਿਣਤੀ ਚੁਣ ਕੇ ਵਾਪਸ ਲਿਆਓ (Ctrl+R)</translation>
    </message>
    <message>
        <source>Test allocations…</source>
        <translation>ਟੈਸਟ ਨਿਰਧਾਰਨ…</translation>
    </message>
    <message>
        <source>Run allocations through allocate.lua (Ctrl+T)</source>
        <translation>allocate.lua ਰਾਹੀਂ ਨਿਰਧਾਰਨ ਚਲਾਓ (Ctrl+T)</translation>
    </message>
    <message>
        <source>Demo: count reset…</source>
        <translation>ਡੈਮੋ: ਗਿਣਤੀ ਰੀਸੈੱਟ…</translation>
    </message>
    <message>
        <source>Run the count-reset scenario on its own pool: evict a member, restore it, and compare the flood with the forecast</source>
        <translation>ਗਿਣਤੀ-ਰੀਸੈੱਟ ਦ੍ਰਿਸ਼ ਇਸ ਦੇ ਆਪਣੇ ਪੂਲ &apos;ਤੇ ਚਲਾਓ: ਇੱਕ ਮੈਂਬਰ ਹਟਾਓ, ਇਸ ਨੂੰ ਬਹਾਲ ਕਰੋ, ਅਤੇ ਹੜ੍ਹ ਦੀ ਪੂਰਵ-ਅਨੁਮਾਨ ਨਾਲ ਤੁਲਨਾ ਕਰੋ</translation>
    </message>
    <message>
        <source>Pin to chart</source>
        <translation>ਚਾਰਟ &apos;ਤੇ ਪਿੰਨ ਕਰੋ</translation>
    </message>
    <message>
        <source>Always chart the selected members, however big the pool (Ctrl+P); again to unpin</source>
        <translation>ਪੂਲ ਜਿੰਨਾ ਵੀ ਵੱਡਾ ਹੋਵੇ, ਚੁਣੇ ਮੈਂਬਰਾਂ ਨੂੰ ਹਮੇਸ਼ਾ ਚਾਰਟ ਵਿੱਚ ਦਿਖਾਓ (Ctrl+P); ਅਨਪਿੰਨ ਕਰਨ ਲਈ ਦੁਬਾਰਾ</translation>
    </message>
    <message>
        <source>Find member</source>
        <translation>ਮੈਂਬਰ ਲੱਭੋ</translation>
    </message>
    <message>
        <source>Filter the members table (Ctrl+F)</source>
        <translation>ਮੈਂਬਰ ਸਾਰਣੀ ਫਿਲਟਰ ਕਰੋ (Ctrl+F)</translation>
    </message>
    <message>
        <source>Export chart as PNG…</source>
        <translation>ਚਾਰਟ PNG ਵਜੋਂ ਨਿਰਯਾਤ ਕਰੋ…</translation>
    </message>
    <message>
        <source>Save the chart as an image</source>
        <translation>ਚਾਰਟ ਨੂੰ ਚਿੱਤਰ ਵਜੋਂ ਸੰਭਾਲੋ</translation>
    </message>
    <message>
        <source>Export history as CSV…</source>
        <translation>ਇਤਿਹਾਸ CSV ਵਜੋਂ ਨਿਰਯਾਤ ਕਰੋ…</translation>
    </message>
    <message>
        <source>Save every member&apos;s count over time: time, member, count</source>
        <translation>ਸਮੇਂ ਦੇ ਨਾਲ ਹਰ ਮੈਂਬਰ ਦੀ ਗਿਣਤੀ ਸੰਭਾਲੋ: ਸਮਾਂ, ਮੈਂਬਰ, ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>Export table as CSV…</source>
        <translation>ਸਾਰਣੀ CSV ਵਜੋਂ ਨਿਰਯਾਤ ਕਰੋ…</translation>
    </message>
    <message>
        <source>Save the members table as shown (sorted and filtered)</source>
        <translation>ਮੈਂਬਰ ਸਾਰਣੀ ਜਿਵੇਂ ਦਿਖਾਈ ਗਈ ਹੈ ਸੰਭਾਲੋ (ਕ੍ਰਮਬੱਧ ਅਤੇ ਫਿਲਟਰ ਕੀਤੀ)</translation>
    </message>
    <message>
        <source>Back to previous pool</source>
        <translation>ਪਿਛਲੇ ਪੂਲ &apos;ਤੇ ਵਾਪਸ</translation>
    </message>
    <message>
        <source>Watch the pool watched before this one again (Alt+Left)</source>
        <translation>ਇਸ ਤੋਂ ਪਹਿਲਾਂ ਨਿਗਰਾਨੀ ਹੇਠ ਰਹੇ ਪੂਲ ਦੀ ਦੁਬਾਰਾ ਨਿਗਰਾਨੀ ਕਰੋ (Alt+Left)</translation>
    </message>
    <message>
        <source>Check selected</source>
        <translation>ਚੁਣੇ ਜਾਂਚੋ</translation>
    </message>
    <message>
        <source>Check the selected members through their proxies against the health target; results into the health hash (Ctrl+K)</source>
        <translation>ਚੁਣੇ ਮੈਂਬਰਾਂ ਦੀ ਉਹਨਾਂ ਦੀਆਂ ਪਰਾਕਸੀਆਂ ਰਾਹੀਂ ਸਿਹਤ ਟੀਚੇ ਦੇ ਵਿਰੁੱਧ ਜਾਂਚ ਕਰੋ; ਨਤੀਜੇ ਸਿਹਤ ਹੈਸ਼ ਵਿੱਚ (Ctrl+K)</translation>
    </message>
    <message>
        <source>Health check target</source>
        <translation>ਸਿਹਤ ਜਾਂਚ ਟੀਚਾ</translation>
    </message>
    <message>
        <source>URL fetched through each proxy (http:// or https://):</source>
        <translation>ਹਰ ਪਰਾਕਸੀ ਰਾਹੀਂ ਲਿਆਂਦਾ URL (http:// ਜਾਂ https://):</translation>
    </message>
    <message>
        <source>Show credentials</source>
        <translation>ਪ੍ਰਮਾਣ-ਪੱਤਰ ਦਿਖਾਓ</translation>
    </message>
    <message>
        <source>Show proxy passwords in member ids (user:pass@host) in the table, chart, events and dialogs; off: user:****@host</source>
        <translation>ਸਾਰਣੀ, ਚਾਰਟ, ਘਟਨਾਵਾਂ ਅਤੇ ਡਾਇਲਾਗਾਂ ਵਿੱਚ ਮੈਂਬਰ id (user:pass@host) ਵਿੱਚ ਪਰਾਕਸੀ ਪਾਸਵਰਡ ਦਿਖਾਓ; ਬੰਦ: user:****@host</translation>
    </message>
    <message>
        <source>Include credentials in CSV exports</source>
        <translation>CSV ਨਿਰਯਾਤਾਂ ਵਿੱਚ ਪ੍ਰਮਾਣ-ਪੱਤਰ ਸ਼ਾਮਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Write proxy passwords into exported CSV files; off: user:****@host</source>
        <translation>ਨਿਰਯਾਤ ਕੀਤੀਆਂ CSV ਫ਼ਾਈਲਾਂ ਵਿੱਚ ਪਰਾਕਸੀ ਪਾਸਵਰਡ ਲਿਖੋ; ਬੰਦ: user:****@host</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>ਚਾਰਟ ਨਿਰਯਾਤ ਕਰੋ</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG ਚਿੱਤਰ (*.png)</translation>
    </message>
    <message>
        <source>Export history</source>
        <translation>ਇਤਿਹਾਸ ਨਿਰਯਾਤ ਕਰੋ</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ਫ਼ਾਈਲਾਂ (*.csv)</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>ਸਾਰਣੀ ਨਿਰਯਾਤ ਕਰੋ</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: %1</translation>
    </message>
    <message>
        <source>Check selected: %1</source>
        <translation>ਚੁਣੇ ਜਾਂਚੋ: %1</translation>
    </message>
    <message>
        <source>Check selected refused: %1</source>
        <translation>ਚੁਣੇ ਜਾਂਚੋ ਰੱਦ: %1</translation>
    </message>
    <message>
        <source>select members to check first</source>
        <translation>ਪਹਿਲਾਂ ਜਾਂਚਣ ਲਈ ਮੈਂਬਰ ਚੁਣੋ</translation>
    </message>
    <message>
        <source>select one or more members in the pool first</source>
        <translation>ਪਹਿਲਾਂ ਪੂਲ ਵਿੱਚ ਇੱਕ ਜਾਂ ਵੱਧ ਮੈਂਬਰ ਚੁਣੋ</translation>
    </message>
    <message>
        <source>Evict %1 (Delete)</source>
        <translation>%1 ਹਟਾਓ (Delete)</translation>
    </message>
    <message numerus="yes">
        <source>Evict the %n selected member(s) (Delete)</source>
        <translation>
            <numerusform>%n ਚੁਣਿਆ ਮੈਂਬਰ ਹਟਾਓ (Delete)</numerusform>
            <numerusform>%n ਚੁਣੇ ਮੈਂਬਰ ਹਟਾਓ (Delete)</numerusform>
        </translation>
    </message>
    <message>
        <source>select one or more evicted (grey) members first</source>
        <translation>ਪਹਿਲਾਂ ਇੱਕ ਜਾਂ ਵੱਧ ਹਟਾਏ (ਸਲੇਟੀ) ਮੈਂਬਰ ਚੁਣੋ</translation>
    </message>
    <message>
        <source>Restore %1 (Ctrl+R)</source>
        <translation>%1 ਬਹਾਲ ਕਰੋ (Ctrl+R)</translation>
    </message>
    <message numerus="yes">
        <source>Restore the %n selected member(s) (Ctrl+R)</source>
        <translation>
            <numerusform>%n ਚੁਣਿਆ ਮੈਂਬਰ ਬਹਾਲ ਕਰੋ (Ctrl+R)</numerusform>
            <numerusform>%n ਚੁਣੇ ਮੈਂਬਰ ਬਹਾਲ ਕਰੋ (Ctrl+R)</numerusform>
        </translation>
    </message>
    <message>
        <source>Disabled: not connected</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: ਜੁੜਿਆ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>Unpin from chart</source>
        <translation>ਚਾਰਟ ਤੋਂ ਅਨਪਿੰਨ ਕਰੋ</translation>
    </message>
    <message>
        <source>Disabled: select members in the table first</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: ਪਹਿਲਾਂ ਸਾਰਣੀ ਵਿੱਚ ਮੈਂਬਰ ਚੁਣੋ</translation>
    </message>
    <message>
        <source>Stop always charting the selected members (Ctrl+P)</source>
        <translation>ਚੁਣੇ ਮੈਂਬਰਾਂ ਨੂੰ ਹਮੇਸ਼ਾ ਚਾਰਟ ਵਿੱਚ ਦਿਖਾਉਣਾ ਬੰਦ ਕਰੋ (Ctrl+P)</translation>
    </message>
    <message>
        <source>Watch &quot;%1&quot; on %2 again (Alt+Left)</source>
        <translation>%2 &apos;ਤੇ &quot;%1&quot; ਦੀ ਦੁਬਾਰਾ ਨਿਗਰਾਨੀ ਕਰੋ (Alt+Left)</translation>
    </message>
    <message>
        <source>Disabled: no other pool watched in this window yet</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: ਇਸ ਵਿੰਡੋ ਵਿੱਚ ਅਜੇ ਕਿਸੇ ਹੋਰ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਨਹੀਂ ਹੋਈ</translation>
    </message>
    <message>
        <source>Evict %1?

It gets no allocations until restored; its count is saved.</source>
        <translation>ਕੀ %1 ਹਟਾਉਣਾ ਹੈ?

ਬਹਾਲ ਹੋਣ ਤੱਕ ਇਸ ਨੂੰ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਿਲਦਾ; ਇਸ ਦੀ ਗਿਣਤੀ ਸੰਭਾਲੀ ਜਾਂਦੀ ਹੈ।</translation>
    </message>
    <message>
        <source>  • %1</source>
        <translation>  • %1</translation>
    </message>
    <message numerus="yes">
        <source>  … and %n more</source>
        <translation>
            <numerusform>  … ਅਤੇ %n ਹੋਰ</numerusform>
            <numerusform>  … ਅਤੇ %n ਹੋਰ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Evict these %n member(s)?

%1

They get no allocations until restored; their counts are saved.</source>
        <extracomment>Evict: take out of rotation; the member&apos;s allocation count is kept.</extracomment>
        <translation>
            <numerusform>ਕੀ ਇਹ %n ਮੈਂਬਰ ਹਟਾਉਣਾ ਹੈ?

%1

ਬਹਾਲ ਹੋਣ ਤੱਕ ਇਸ ਨੂੰ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਿਲਦਾ; ਇਸ ਦੀ ਗਿਣਤੀ ਸੰਭਾਲੀ ਜਾਂਦੀ ਹੈ।</numerusform>
            <numerusform>ਕੀ ਇਹ %n ਮੈਂਬਰ ਹਟਾਉਣੇ ਹਨ?

%1

ਬਹਾਲ ਹੋਣ ਤੱਕ ਇਹਨਾਂ ਨੂੰ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਿਲਦਾ; ਇਹਨਾਂ ਦੀਆਂ ਗਿਣਤੀਆਂ ਸੰਭਾਲੀਆਂ ਜਾਂਦੀਆਂ ਹਨ।</numerusform>
        </translation>
    </message>
    <message>
        <source>Evict member</source>
        <translation>ਮੈਂਬਰ ਹਟਾਓ</translation>
    </message>
    <message>
        <source>Evict members</source>
        <translation>ਮੈਂਬਰ ਹਟਾਓ</translation>
    </message>
    <message>
        <source>Restore at zero</source>
        <translation>ਜ਼ੀਰੋ &apos;ਤੇ ਬਹਾਲ ਕਰੋ</translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s) at count zero? Each gets every allocation until it catches up with the pool.</source>
        <translation>
            <numerusform>ਕੀ %n ਮੈਂਬਰ ਨੂੰ ਗਿਣਤੀ ਜ਼ੀਰੋ &apos;ਤੇ ਬਹਾਲ ਕਰਨਾ ਹੈ? ਪੂਲ ਦੇ ਬਰਾਬਰ ਪੂਰਾ ਹੋਣ ਤੱਕ ਇਸ ਨੂੰ ਹਰ ਨਿਰਧਾਰਨ ਮਿਲਦਾ ਹੈ।</numerusform>
            <numerusform>ਕੀ %n ਮੈਂਬਰਾਂ ਨੂੰ ਗਿਣਤੀ ਜ਼ੀਰੋ &apos;ਤੇ ਬਹਾਲ ਕਰਨਾ ਹੈ? ਪੂਲ ਦੇ ਬਰਾਬਰ ਪੂਰਾ ਹੋਣ ਤੱਕ ਹਰੇਕ ਨੂੰ ਹਰ ਨਿਰਧਾਰਨ ਮਿਲਦਾ ਹੈ।</numerusform>
        </translation>
    </message>
    <message>
        <source>restore at zero not confirmed: nothing written</source>
        <translation>ਜ਼ੀਰੋ &apos;ਤੇ ਬਹਾਲੀ ਦੀ ਪੁਸ਼ਟੀ ਨਹੀਂ ਹੋਈ: ਕੁਝ ਨਹੀਂ ਲਿਖਿਆ</translation>
    </message>
    <message>
        <source>chart saved to %1</source>
        <translation>ਚਾਰਟ %1 ਵਿੱਚ ਸੰਭਾਲਿਆ</translation>
    </message>
    <message>
        <source>cannot save the chart to %1</source>
        <translation>ਚਾਰਟ %1 ਵਿੱਚ ਸੰਭਾਲਿਆ ਨਹੀਂ ਜਾ ਸਕਦਾ</translation>
    </message>
    <message>
        <source>history saved to %1</source>
        <translation>ਇਤਿਹਾਸ %1 ਵਿੱਚ ਸੰਭਾਲਿਆ</translation>
    </message>
    <message>
        <source>cannot save the history to %1: %2</source>
        <translation>ਇਤਿਹਾਸ %1 ਵਿੱਚ ਸੰਭਾਲਿਆ ਨਹੀਂ ਜਾ ਸਕਦਾ: %2</translation>
    </message>
    <message>
        <source>table saved to %1</source>
        <translation>ਸਾਰਣੀ %1 ਵਿੱਚ ਸੰਭਾਲੀ</translation>
    </message>
    <message>
        <source>cannot save the table to %1: %2</source>
        <translation>ਸਾਰਣੀ %1 ਵਿੱਚ ਸੰਭਾਲੀ ਨਹੀਂ ਜਾ ਸਕਦੀ: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolAlerts</name>
    <message>
        <source>%1 on %2</source>
        <translation>%2 &apos;ਤੇ %1</translation>
    </message>
    <message>
        <source>alert fired: %1: %2</source>
        <translation>ਚੇਤਾਵਨੀ ਸਰਗਰਮ ਹੋਈ: %1: %2</translation>
    </message>
    <message>
        <source>alert: %1</source>
        <translation>ਚੇਤਾਵਨੀ: %1</translation>
    </message>
    <message>
        <source>alert resolved: %1</source>
        <translation>ਚੇਤਾਵਨੀ ਹੱਲ ਹੋਈ: %1</translation>
    </message>
    <message>
        <source>resolved: %1</source>
        <translation>ਹੱਲ ਹੋਈ: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolHealth</name>
    <message>
        <source>guard evicted %1: %2</source>
        <translation>ਰਾਖੇ ਨੇ %1 ਹਟਾਇਆ: %2</translation>
    </message>
    <message>
        <source>guard restored %1: %2</source>
        <translation>ਰਾਖੇ ਨੇ %1 ਬਹਾਲ ਕੀਤਾ: %2</translation>
    </message>
    <message>
        <source>guard restored %1: %2; restored at count %3 (policy %4)</source>
        <translation>ਰਾਖੇ ਨੇ %1 ਬਹਾਲ ਕੀਤਾ: %2; ਗਿਣਤੀ %3 &apos;ਤੇ ਬਹਾਲ (ਨੀਤੀ %4)</translation>
    </message>
    <message>
        <source>guard held back: %1</source>
        <translation>ਰਾਖਾ ਰੁਕਿਆ ਰਿਹਾ: %1</translation>
    </message>
    <message>
        <source>guard %1</source>
        <translation>ਰਾਖਾ %1</translation>
    </message>
    <message>
        <source>guard %1%2: %3</source>
        <translation>ਰਾਖਾ %1%2: %3</translation>
    </message>
    <message>
        <source>a check round is already running</source>
        <translation>ਇੱਕ ਜਾਂਚ ਗੇੜ ਪਹਿਲਾਂ ਹੀ ਚੱਲ ਰਿਹਾ ਹੈ</translation>
    </message>
    <message>
        <source>no pool is watched</source>
        <translation>ਕਿਸੇ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਨਹੀਂ ਹੋ ਰਹੀ</translation>
    </message>
    <message>
        <source>no member selected</source>
        <translation>ਕੋਈ ਮੈਂਬਰ ਨਹੀਂ ਚੁਣਿਆ</translation>
    </message>
    <message>
        <source>target URL &quot;%1&quot;: %2</source>
        <translation>ਟੀਚਾ URL &quot;%1&quot;: %2</translation>
    </message>
    <message numerus="yes">
        <source>checking %n member(s) through their proxies against %1</source>
        <translation>
            <numerusform>%n ਮੈਂਬਰ ਦੀ ਉਸ ਦੀ ਪਰਾਕਸੀ ਰਾਹੀਂ %1 ਵਿਰੁੱਧ ਜਾਂਚ ਹੋ ਰਹੀ ਹੈ</numerusform>
            <numerusform>%n ਮੈਂਬਰਾਂ ਦੀ ਉਹਨਾਂ ਦੀਆਂ ਪਰਾਕਸੀਆਂ ਰਾਹੀਂ %1 ਵਿਰੁੱਧ ਜਾਂਚ ਹੋ ਰਹੀ ਹੈ</numerusform>
        </translation>
    </message>
    <message>
        <source>check results not saved: %1</source>
        <translation>ਜਾਂਚ ਨਤੀਜੇ ਸੰਭਾਲੇ ਨਹੀਂ ਗਏ: %1</translation>
    </message>
    <message numerus="yes">
        <source>checked %n member(s) in %1 ms: %2 up, %3 down, %4 not checkable</source>
        <translation>
            <numerusform>%n ਮੈਂਬਰ ਦੀ %1 ਮਿਲੀਸਕਿੰਟ ਵਿੱਚ ਜਾਂਚ ਹੋਈ: %2 ਚਾਲੂ, %3 ਬੰਦ, %4 ਜਾਂਚਣਯੋਗ ਨਹੀਂ</numerusform>
            <numerusform>%n ਮੈਂਬਰਾਂ ਦੀ %1 ਮਿਲੀਸਕਿੰਟ ਵਿੱਚ ਜਾਂਚ ਹੋਈ: %2 ਚਾਲੂ, %3 ਬੰਦ, %4 ਜਾਂਚਣਯੋਗ ਨਹੀਂ</numerusform>
        </translation>
    </message>
    <message>
        <source>the guard is already running</source>
        <translation>ਰਾਖਾ ਪਹਿਲਾਂ ਹੀ ਚੱਲ ਰਿਹਾ ਹੈ</translation>
    </message>
    <message>
        <source>Guard not started: no live pool is watched</source>
        <translation>ਰਾਖਾ ਸ਼ੁਰੂ ਨਹੀਂ ਹੋਇਆ: ਕਿਸੇ ਲਾਈਵ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਨਹੀਂ ਹੋ ਰਹੀ</translation>
    </message>
    <message>
        <source>Guard not started: %1</source>
        <translation>ਰਾਖਾ ਸ਼ੁਰੂ ਨਹੀਂ ਹੋਇਆ: %1</translation>
    </message>
    <message>
        <source>Guard not started: another guard (%1) holds the lease on this pool</source>
        <translation>ਰਾਖਾ ਸ਼ੁਰੂ ਨਹੀਂ ਹੋਇਆ: ਇੱਕ ਹੋਰ ਰਾਖੇ (%1) ਕੋਲ ਇਸ ਪੂਲ ਦੀ ਲੀਜ਼ ਹੈ</translation>
    </message>
    <message>
        <source>%1 on %2 (%3, pid %4)</source>
        <translation>%2 &apos;ਤੇ %1 (%3, pid %4)</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>ਕੋਈ</translation>
    </message>
    <message numerus="yes">
        <source>%1 seeded %n member(s)</source>
        <translation>
            <numerusform>%1 ਨੇ ਸੂਚੀ ਤੋਂ %n ਮੈਂਬਰ ਜੋੜਿਆ</numerusform>
            <numerusform>%1 ਨੇ ਸੂਚੀ ਤੋਂ %n ਮੈਂਬਰ ਜੋੜੇ</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 evicted %2</source>
        <translation>%1 ਨੇ %2 ਹਟਾਇਆ</translation>
    </message>
    <message>
        <source>%1 restored %2</source>
        <translation>%1 ਨੇ %2 ਬਹਾਲ ਕੀਤਾ</translation>
    </message>
    <message>
        <source>%1: %2 %3</source>
        <translation>%1: %2 %3</translation>
    </message>
    <message>
        <source>%1; reason: %2</source>
        <translation>%1; ਕਾਰਨ: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolSession</name>
    <message>
        <source>cluster: the pool&apos;s slot %1 moved from node %2 to node %3</source>
        <translation>ਕਲੱਸਟਰ: ਪੂਲ ਦਾ ਸਲਾਟ %1 ਨੋਡ %2 ਤੋਂ ਨੋਡ %3 &apos;ਤੇ ਗਿਆ</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>ਨਿਗਰਾਨੀ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>a recording, opened read only: there is no pool to write to</source>
        <translation>ਇੱਕ ਰਿਕਾਰਡਿੰਗ, ਸਿਰਫ਼-ਪੜ੍ਹਨ ਲਈ ਖੋਲ੍ਹੀ: ਲਿਖਣ ਲਈ ਕੋਈ ਪੂਲ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>read-only mode (--read-only): poolscope only watches this pool</source>
        <translation>ਸਿਰਫ਼-ਪੜ੍ਹਨ ਢੰਗ (--read-only): poolscope ਸਿਰਫ਼ ਇਸ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਕਰਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>not connected to Redis: connect first</source>
        <translation>Redis ਨਾਲ ਜੁੜਿਆ ਨਹੀਂ: ਪਹਿਲਾਂ ਜੁੜੋ</translation>
    </message>
    <message>
        <source>read-only: the server refuses writes for this user (%1)</source>
        <translation>ਸਿਰਫ਼-ਪੜ੍ਹਨ: ਸਰਵਰ ਇਸ ਵਰਤੋਂਕਾਰ ਲਈ ਲਿਖਤਾਂ ਰੱਦ ਕਰਦਾ ਹੈ (%1)</translation>
    </message>
    <message>
        <source>connecting to %1, pool &quot;%2&quot;</source>
        <translation>%1 ਨਾਲ ਜੁੜ ਰਿਹਾ ਹੈ, ਪੂਲ &quot;%2&quot;</translation>
    </message>
    <message>
        <source>back to this pool</source>
        <translation>ਇਸ ਪੂਲ &apos;ਤੇ ਵਾਪਸ</translation>
    </message>
    <message>
        <source>disconnected from %1</source>
        <translation>%1 ਤੋਂ ਵੱਖ ਹੋਇਆ</translation>
    </message>
    <message>
        <source>polling paused</source>
        <translation>ਪੋਲਿੰਗ ਰੋਕੀ ਗਈ</translation>
    </message>
    <message>
        <source>polling resumed</source>
        <translation>ਪੋਲਿੰਗ ਮੁੜ ਸ਼ੁਰੂ</translation>
    </message>
    <message>
        <source>connected to %1 (%2)</source>
        <translation>%1 ਨਾਲ ਜੁੜਿਆ (%2)</translation>
    </message>
    <message>
        <source>connection lost, reconnecting: %1</source>
        <translation>ਕਨੈਕਸ਼ਨ ਗੁਆਚਿਆ, ਦੁਬਾਰਾ ਜੁੜ ਰਿਹਾ ਹੈ: %1</translation>
    </message>
    <message>
        <source>failover: the primary moved from %1 to %2 (named by sentinel %3)</source>
        <translation>ਫੇਲਓਵਰ: ਪ੍ਰਾਇਮਰੀ %1 ਤੋਂ %2 &apos;ਤੇ ਗਿਆ (sentinel %3 ਦੁਆਰਾ ਦੱਸਿਆ)</translation>
    </message>
    <message>
        <source>no pool at &quot;%1&quot; yet: Seed… to add proxies</source>
        <translation>&quot;%1&quot; &apos;ਤੇ ਅਜੇ ਕੋਈ ਪੂਲ ਨਹੀਂ: ਪਰਾਕਸੀਆਂ ਜੋੜਨ ਲਈ ਸੂਚੀ ਤੋਂ ਜੋੜੋ…</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted%4</source>
        <translation type="vanished">ਪੂਲ &quot;%1&quot;: %L2 ਮੈਂਬਰ, %L3 ਹਟਾਏ%4</translation>
    </message>
    <message>
        <source>poll failed: %1</source>
        <translation>ਪੋਲ ਅਸਫਲ: %1</translation>
    </message>
    <message>
        <source>%1 · not retrying: enter the password in the Redis URL field</source>
        <translation>%1 · ਦੁਬਾਰਾ ਕੋਸ਼ਿਸ਼ ਨਹੀਂ: Redis URL ਖੇਤਰ ਵਿੱਚ ਪਾਸਵਰਡ ਦਿਓ</translation>
    </message>
    <message>
        <source>recording (read only)</source>
        <translation>ਰਿਕਾਰਡਿੰਗ (ਸਿਰਫ਼-ਪੜ੍ਹਨ)</translation>
    </message>
    <message>
        <source>opened the recording %1 (pool %2 on %3, %L4 polls, read only)</source>
        <translation>ਰਿਕਾਰਡਿੰਗ %1 ਖੋਲ੍ਹੀ (%3 &apos;ਤੇ ਪੂਲ %2, %L4 ਪੋਲ, ਸਿਰਫ਼-ਪੜ੍ਹਨ)</translation>
    </message>
    <message>
        <source>%1 refused: %2</source>
        <translation>%1 ਰੱਦ: %2</translation>
    </message>
    <message>
        <source>seed +%L1 at %2</source>
        <translation>ਸੂਚੀ ਤੋਂ +%L1 %2 &apos;ਤੇ</translation>
    </message>
    <message>
        <source>%L1 already in the pool kept their count</source>
        <translation>ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ %L1 ਨੇ ਆਪਣੀ ਗਿਣਤੀ ਰੱਖੀ</translation>
    </message>
    <message>
        <source>%L1 reset</source>
        <translation>%L1 ਰੀਸੈੱਟ</translation>
    </message>
    <message>
        <source>%L1 evicted not re-added (restore them instead)</source>
        <translation>%L1 ਹਟਾਏ ਦੁਬਾਰਾ ਨਹੀਂ ਜੋੜੇ (ਇਸ ਦੀ ਬਜਾਏ ਉਹਨਾਂ ਨੂੰ ਬਹਾਲ ਕਰੋ)</translation>
    </message>
    <message>
        <source>evict %1 (saved %2)</source>
        <translation>%1 ਹਟਾਇਆ (ਸੰਭਾਲੀ %2)</translation>
    </message>
    <message>
        <source>restore %1 (%2) at %3</source>
        <translation>%1 (%2) %3 &apos;ਤੇ ਬਹਾਲ</translation>
    </message>
    <message>
        <source>restore %L1 members (%2): %3</source>
        <translation>%L1 ਮੈਂਬਰ ਬਹਾਲ (%2): %3</translation>
    </message>
    <message>
        <source> · forecast: </source>
        <translation type="vanished"> · ਪੂਰਵ-ਅਨੁਮਾਨ: </translation>
    </message>
    <message>
        <source>connected to a read-only replica</source>
        <translation>ਸਿਰਫ਼-ਪੜ੍ਹਨ ਰੈਪਲਿਕਾ ਨਾਲ ਜੁੜਿਆ</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted · %4</source>
        <comment>%4: how the big pool was read (a summary)</comment>
        <translation>ਪੂਲ &quot;%1&quot;: %L2 ਮੈਂਬਰ, %L3 ਹਟਾਏ · %4</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted</source>
        <translation>ਪੂਲ &quot;%1&quot;: %L2 ਮੈਂਬਰ, %L3 ਹਟਾਏ</translation>
    </message>
    <message>
        <source>%1 · forecast: %2</source>
        <comment>%1: the restore done, %2: what it will do to the pool</comment>
        <translation>%1 · ਪੂਰਵ-ਅਨੁਮਾਨ: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolTableModel</name>
    <message>
        <source>evicted (saved %1)</source>
        <translation>ਹਟਾਇਆ (ਸੰਭਾਲੀ %1)</translation>
    </message>
    <message>
        <source>in pool · catching up</source>
        <translation>ਪੂਲ ਵਿੱਚ · ਪੂਰਾ ਹੋ ਰਿਹਾ</translation>
    </message>
    <message>
        <source>in pool</source>
        <translation>ਪੂਲ ਵਿੱਚ</translation>
    </message>
    <message>
        <source>%1 · pinned</source>
        <translation>%1 · ਪਿੰਨ ਕੀਤਾ</translation>
    </message>
    <message>
        <source>Rank %1 of a big pool: read on the next poll (only the rows on screen are read)</source>
        <translation>ਵੱਡੇ ਪੂਲ ਦਾ ਦਰਜਾ %1: ਅਗਲੇ ਪੋਲ &apos;ਤੇ ਪੜ੍ਹਿਆ ਜਾਵੇਗਾ (ਸਿਰਫ਼ ਸਕ੍ਰੀਨ ਉੱਤੇ ਦਿਸਦੀਆਂ ਕਤਾਰਾਂ ਪੜ੍ਹੀਆਂ ਜਾਂਦੀਆਂ ਹਨ)</translation>
    </message>
    <message>
        <source>%1 is pinned to the chart (Ctrl+P again to unpin)</source>
        <translation>%1 ਚਾਰਟ &apos;ਤੇ ਪਿੰਨ ਹੈ (ਅਨਪਿੰਨ ਕਰਨ ਲਈ ਦੁਬਾਰਾ Ctrl+P)</translation>
    </message>
    <message>
        <source>%1 is evicted: it gets no allocations. Saved count %2; restore it with Ctrl+R.</source>
        <translation>%1 ਹਟਾਇਆ ਹੋਇਆ ਹੈ: ਇਸ ਨੂੰ ਕੋਈ ਨਿਰਧਾਰਨ ਨਹੀਂ ਮਿਲਦਾ। ਸੰਭਾਲੀ ਗਿਣਤੀ %2; ਇਸ ਨੂੰ Ctrl+R ਨਾਲ ਬਹਾਲ ਕਰੋ।</translation>
    </message>
    <message>
        <source>%1 is %2 below the lowest of the others: it will take about the next %2 allocations.</source>
        <translation>%1 ਬਾਕੀਆਂ ਦੀ ਸਭ ਤੋਂ ਘੱਟ ਤੋਂ %2 ਹੇਠਾਂ ਹੈ: ਇਹ ਲਗਭਗ ਅਗਲੇ %2 ਨਿਰਧਾਰਨ ਲਵੇਗਾ।</translation>
    </message>
    <message>
        <source>member</source>
        <translation>ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>count</source>
        <extracomment>The allocation count (the sorted set&apos;s score) column.</extracomment>
        <translation>ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>share</source>
        <translation>ਹਿੱਸਾ</translation>
    </message>
    <message>
        <source>rate/s</source>
        <translation>ਦਰ/ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>state</source>
        <translation>ਸਥਿਤੀ</translation>
    </message>
    <message>
        <source>debt</source>
        <translation>ਕਰਜ਼</translation>
    </message>
    <message>
        <source>health</source>
        <translation>ਸਿਹਤ</translation>
    </message>
    <message>
        <source>last change</source>
        <translation>ਆਖਰੀ ਤਬਦੀਲੀ</translation>
    </message>
    <message>
        <source>Proxy id (the sorted set&apos;s member); the swatch is its chart colour</source>
        <translation>ਪਰਾਕਸੀ id (ਕ੍ਰਮਬੱਧ ਸੈੱਟ ਦਾ ਮੈਂਬਰ); ਰੰਗ-ਨਮੂਨਾ ਇਸ ਦਾ ਚਾਰਟ ਰੰਗ ਹੈ</translation>
    </message>
    <message>
        <source>Allocations recorded so far (the score); for evicted members the saved count</source>
        <translation>ਹੁਣ ਤੱਕ ਦਰਜ ਨਿਰਧਾਰਨ (ਸਕੋਰ); ਹਟਾਏ ਮੈਂਬਰਾਂ ਲਈ ਸੰਭਾਲੀ ਗਿਣਤੀ</translation>
    </message>
    <message>
        <source>Share of all allocations counted in the pool</source>
        <translation>ਪੂਲ ਵਿੱਚ ਗਿਣੇ ਸਾਰੇ ਨਿਰਧਾਰਨਾਂ ਦਾ ਹਿੱਸਾ</translation>
    </message>
    <message>
        <source>Allocations per second over the last window (– for a big pool&apos;s members that are not charted: only those are read from poll to poll)</source>
        <translation>ਪਿਛਲੀ ਵਿੰਡੋ ਦੌਰਾਨ ਪ੍ਰਤੀ ਸਕਿੰਟ ਨਿਰਧਾਰਨ (ਵੱਡੇ ਪੂਲ ਦੇ ਉਹਨਾਂ ਮੈਂਬਰਾਂ ਲਈ – ਜੋ ਚਾਰਟ ਵਿੱਚ ਨਹੀਂ: ਪੋਲ ਤੋਂ ਪੋਲ ਸਿਰਫ਼ ਉਹੀ ਪੜ੍ਹੇ ਜਾਂਦੇ ਹਨ)</translation>
    </message>
    <message>
        <source>In the pool, or evicted (kept aside with its saved count)</source>
        <translation>ਪੂਲ ਵਿੱਚ, ਜਾਂ ਹਟਾਇਆ (ਆਪਣੀ ਸੰਭਾਲੀ ਗਿਣਤੀ ਨਾਲ ਪਾਸੇ ਰੱਖਿਆ)</translation>
    </message>
    <message>
        <source>Catch-up debt: how far the count is below the lowest count of the others. A member with debt takes every allocation until it has caught up.</source>
        <translation>ਪੂਰਾ ਹੋਣ ਦਾ ਕਰਜ਼: ਗਿਣਤੀ ਬਾਕੀਆਂ ਦੀ ਸਭ ਤੋਂ ਘੱਟ ਗਿਣਤੀ ਤੋਂ ਕਿੰਨੀ ਹੇਠਾਂ ਹੈ। ਕਰਜ਼ ਵਾਲਾ ਮੈਂਬਰ ਪੂਰਾ ਹੋਣ ਤੱਕ ਹਰ ਨਿਰਧਾਰਨ ਲੈਂਦਾ ਹੈ।</translation>
    </message>
    <message>
        <source>When the count last changed</source>
        <translation>ਗਿਣਤੀ ਆਖਰੀ ਵਾਰ ਕਦੋਂ ਬਦਲੀ</translation>
    </message>
    <message>
        <source>The last health check through the member&apos;s proxy (shared in Redis by every dashboard, check and guard): up with its latency, down with its failure, not checkable, or unknown</source>
        <translation>ਮੈਂਬਰ ਦੀ ਪਰਾਕਸੀ ਰਾਹੀਂ ਆਖਰੀ ਸਿਹਤ ਜਾਂਚ (Redis ਵਿੱਚ ਹਰ ਡੈਸ਼ਬੋਰਡ, ਜਾਂਚ ਅਤੇ ਰਾਖੇ ਦੁਆਰਾ ਸਾਂਝੀ): ਆਪਣੇ ਵਿਲੰਬ ਨਾਲ ਚਾਲੂ, ਆਪਣੀ ਅਸਫਲਤਾ ਨਾਲ ਬੰਦ, ਜਾਂਚਣਯੋਗ ਨਹੀਂ, ਜਾਂ ਅਣਜਾਣ</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsPanel</name>
    <message>
        <source>Connect to see every pool on the server or cluster.</source>
        <translation>ਸਰਵਰ ਜਾਂ ਕਲੱਸਟਰ ਦਾ ਹਰ ਪੂਲ ਦੇਖਣ ਲਈ ਜੁੜੋ।</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>ਤਾਜ਼ਾ ਕਰੋ</translation>
    </message>
    <message>
        <source>Double-click a pool to watch it</source>
        <translation>ਕਿਸੇ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਲਈ ਉਸ &apos;ਤੇ ਦੋ ਵਾਰ ਕਲਿੱਕ ਕਰੋ</translation>
    </message>
    <message numerus="yes">
        <source>%n pool(s)</source>
        <translation>
            <numerusform>%n ਪੂਲ</numerusform>
            <numerusform>%n ਪੂਲ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s)</source>
        <translation type="vanished">
            <numerusform> %n ਨੋਡ &apos;ਤੇ</numerusform>
            <numerusform> %n ਨੋਡਾਂ &apos;ਤੇ</numerusform>
        </translation>
    </message>
    <message>
        <source>, read at %1</source>
        <translation type="vanished">, %1 &apos;ਤੇ ਪੜ੍ਹਿਆ</translation>
    </message>
    <message>
        <source>Could not read the pools: %1</source>
        <translation>ਪੂਲ ਪੜ੍ਹੇ ਨਹੀਂ ਜਾ ਸਕੇ: %1</translation>
    </message>
    <message>
        <source>Reading the pools of %1…</source>
        <translation>%1 ਦੇ ਪੂਲ ਪੜ੍ਹੇ ਜਾ ਰਹੇ ਹਨ…</translation>
    </message>
    <message>
        <source>%1 on %2, read at %3</source>
        <comment>%1: how many pools (sorted sets of proxies), %2: how many Redis nodes, %3: a time</comment>
        <translation>%2 &apos;ਤੇ %1, %3 &apos;ਤੇ ਪੜ੍ਹੇ</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <comment>Redis servers</comment>
        <translation>
            <numerusform>%n ਨੋਡ</numerusform>
            <numerusform>%n ਨੋਡਾਂ</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsTableModel</name>
    <message>
        <source>Estimated: pool size × rise of the median count per second (the pool is too big to sum in one bounded read)</source>
        <translation>ਅੰਦਾਜ਼ਾ: ਪੂਲ ਦਾ ਆਕਾਰ × ਪ੍ਰਤੀ ਸਕਿੰਟ ਮੱਧਿਕਾ ਗਿਣਤੀ ਦਾ ਵਾਧਾ (ਪੂਲ ਇੱਕ ਸੀਮਤ ਪੜ੍ਹਾਈ ਵਿੱਚ ਜੋੜਨ ਲਈ ਬਹੁਤ ਵੱਡਾ ਹੈ)</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>ਪੂਲ</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>ਨੋਡ</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>ਆਕਾਰ</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>ਘੱਟੋ-ਘੱਟ</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>ਮੱਧਿਕਾ</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>ਵੱਧ ਤੋਂ ਵੱਧ</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>ਫੈਲਾਅ</translation>
    </message>
    <message>
        <source>Evicted</source>
        <translation>ਹਟਾਏ</translation>
    </message>
    <message>
        <source>Alloc/s</source>
        <translation>ਨਿਰਧਾਰਨ/ਸਕਿੰਟ</translation>
    </message>
</context>
<context>
    <name>poolscope::ProfileConnector</name>
    <message>
        <source>connection &quot;%1&quot;: no password given</source>
        <translation>ਕਨੈਕਸ਼ਨ &quot;%1&quot;: ਕੋਈ ਪਾਸਵਰਡ ਨਹੀਂ ਦਿੱਤਾ</translation>
    </message>
</context>
<context>
    <name>poolscope::ReasonField</name>
    <message>
        <source>optional: why, for the pool&apos;s audit trail</source>
        <translation>ਵਿਕਲਪਿਕ: ਕਿਉਂ, ਪੂਲ ਦੇ ਆਡਿਟ ਟ੍ਰੇਲ ਲਈ</translation>
    </message>
    <message>
        <source>Recorded with the action in the pool&apos;s audit trail, where the team and `poolscope-cli audit` read it. Leave empty for none.</source>
        <translation>ਕਾਰਵਾਈ ਦੇ ਨਾਲ ਪੂਲ ਦੇ ਆਡਿਟ ਟ੍ਰੇਲ ਵਿੱਚ ਦਰਜ ਹੁੰਦਾ ਹੈ, ਜਿੱਥੇ ਟੀਮ ਅਤੇ `poolscope-cli audit` ਇਸ ਨੂੰ ਪੜ੍ਹਦੇ ਹਨ। ਕੋਈ ਨਹੀਂ ਲਈ ਖਾਲੀ ਛੱਡੋ।</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>ਕਾਰਨ</translation>
    </message>
    <message>
        <source>&amp;Reason:</source>
        <translation>ਕਾਰਨ(&amp;R):</translation>
    </message>
</context>
<context>
    <name>poolscope::RecentRecordings</name>
    <message>
        <source>Recent recordings</source>
        <translation>ਹਾਲੀਆ ਰਿਕਾਰਡਿੰਗਾਂ</translation>
    </message>
    <message>
        <source>%1 is gone: removed from the recent recordings</source>
        <translation>%1 ਮੌਜੂਦ ਨਹੀਂ: ਹਾਲੀਆ ਰਿਕਾਰਡਿੰਗਾਂ ਵਿੱਚੋਂ ਕੱਢੀ ਗਈ</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>No recordings opened yet</source>
        <translation>ਅਜੇ ਕੋਈ ਰਿਕਾਰਡਿੰਗ ਨਹੀਂ ਖੋਲ੍ਹੀ</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>ਸੂਚੀ ਸਾਫ਼ ਕਰੋ</translation>
    </message>
</context>
<context>
    <name>poolscope::ResetScenarioDialog</name>
    <message>
        <source>the count-reset scenario&apos;s pool was left: the demo, paused for the scenario, is on again</source>
        <translation>ਗਿਣਤੀ-ਰੀਸੈੱਟ ਦ੍ਰਿਸ਼ ਦਾ ਪੂਲ ਛੱਡ ਦਿੱਤਾ: ਦ੍ਰਿਸ਼ ਲਈ ਰੋਕਿਆ ਡੈਮੋ ਮੁੜ ਚਾਲੂ ਹੈ</translation>
    </message>
    <message>
        <source>Run scenario</source>
        <translation>ਦ੍ਰਿਸ਼ ਚਲਾਓ</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>ਦੌੜ ਰੱਦ ਕਰੋ</translation>
    </message>
    <message>
        <source>Back to previous pool</source>
        <translation>ਪਿਛਲੇ ਪੂਲ &apos;ਤੇ ਵਾਪਸ</translation>
    </message>
    <message>
        <source>Stop the scenario now (a partial report follows)</source>
        <translation>ਦ੍ਰਿਸ਼ ਹੁਣੇ ਰੋਕੋ (ਇੱਕ ਅਧੂਰੀ ਰਿਪੋਰਟ ਆਵੇਗੀ)</translation>
    </message>
    <message>
        <source>Watch the pool you watched before the scenario again</source>
        <translation>ਦ੍ਰਿਸ਼ ਤੋਂ ਪਹਿਲਾਂ ਜਿਸ ਪੂਲ ਦੀ ਤੁਸੀਂ ਨਿਗਰਾਨੀ ਕੀਤੀ ਸੀ ਉਸ ਦੀ ਦੁਬਾਰਾ ਨਿਗਰਾਨੀ ਕਰੋ</translation>
    </message>
    <message>
        <source>Run the scenario (writes the scenario key)</source>
        <translation>ਦ੍ਰਿਸ਼ ਚਲਾਓ (ਦ੍ਰਿਸ਼ ਕੁੰਜੀ ਵਿੱਚ ਲਿਖਦਾ ਹੈ)</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: %1</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>ਚਲਾਇਆ ਨਹੀਂ ਜਾ ਸਕਦਾ: %1</translation>
    </message>
    <message>
        <source>Name the scenario key first.</source>
        <translation>ਪਹਿਲਾਂ ਦ੍ਰਿਸ਼ ਕੁੰਜੀ ਦਾ ਨਾਂ ਦਿਓ।</translation>
    </message>
    <message>
        <source>Count-reset demo on production</source>
        <translation>ਪ੍ਰੋਡਕਸ਼ਨ &apos;ਤੇ ਗਿਣਤੀ-ਰੀਸੈੱਟ ਡੈਮੋ</translation>
    </message>
    <message>
        <source>The count-reset demo replaces pool “%1” with its own members, evicts one and restores it. Run it on this production server?</source>
        <translation>ਗਿਣਤੀ-ਰੀਸੈੱਟ ਡੈਮੋ ਪੂਲ “%1” ਨੂੰ ਆਪਣੇ ਮੈਂਬਰਾਂ ਨਾਲ ਬਦਲਦਾ ਹੈ, ਇੱਕ ਨੂੰ ਹਟਾਉਂਦਾ ਹੈ ਅਤੇ ਇਸ ਨੂੰ ਬਹਾਲ ਕਰਦਾ ਹੈ। ਕੀ ਇਸ ਨੂੰ ਇਸ ਪ੍ਰੋਡਕਸ਼ਨ ਸਰਵਰ &apos;ਤੇ ਚਲਾਉਣਾ ਹੈ?</translation>
    </message>
    <message>
        <source>Not run: the pool&apos;s name was not typed.</source>
        <translation>ਨਹੀਂ ਚਲਾਇਆ: ਪੂਲ ਦਾ ਨਾਂ ਟਾਈਪ ਨਹੀਂ ਕੀਤਾ ਗਿਆ।</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>ਚੱਲ ਰਿਹਾ ਹੈ…</translation>
    </message>
    <message numerus="yes">
        <source>count-reset scenario: %n member(s), %1/s, policy %2, pool &quot;%3&quot;</source>
        <translation>
            <numerusform>ਗਿਣਤੀ-ਰੀਸੈੱਟ ਦ੍ਰਿਸ਼: %n ਮੈਂਬਰ, %1/ਸਕਿੰਟ, ਨੀਤੀ %2, ਪੂਲ &quot;%3&quot;</numerusform>
            <numerusform>ਗਿਣਤੀ-ਰੀਸੈੱਟ ਦ੍ਰਿਸ਼: %n ਮੈਂਬਰ, %1/ਸਕਿੰਟ, ਨੀਤੀ %2, ਪੂਲ &quot;%3&quot;</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>ਰੱਦ ਹੋ ਰਿਹਾ ਹੈ…</translation>
    </message>
    <message>
        <source>steady load</source>
        <translation>ਸਥਿਰ ਲੋਡ</translation>
    </message>
    <message>
        <source>one member evicted</source>
        <translation>ਇੱਕ ਮੈਂਬਰ ਹਟਾਇਆ</translation>
    </message>
    <message numerus="yes">
        <source>restored: %Ln allocation(s) went to it since</source>
        <translation>
            <numerusform>ਬਹਾਲ: ਉਦੋਂ ਤੋਂ %Ln ਨਿਰਧਾਰਨ ਇਸ ਨੂੰ ਗਿਆ</numerusform>
            <numerusform>ਬਹਾਲ: ਉਦੋਂ ਤੋਂ %Ln ਨਿਰਧਾਰਨ ਇਸ ਨੂੰ ਗਏ</numerusform>
        </translation>
    </message>
    <message>
        <source>finished</source>
        <translation>ਮੁਕੰਮਲ</translation>
    </message>
    <message numerus="yes">
        <source>%1 / %2 · %Ln allocation(s) · %3</source>
        <translation>
            <numerusform>%1 / %2 · %Ln ਨਿਰਧਾਰਨ · %3</numerusform>
            <numerusform>%1 / %2 · %Ln ਨਿਰਧਾਰਨ · %3</numerusform>
        </translation>
    </message>
    <message>
        <source>evict %1 (scenario)</source>
        <translation>%1 ਹਟਾਇਆ (ਦ੍ਰਿਸ਼)</translation>
    </message>
    <message>
        <source>restore %1 (%2)</source>
        <translation>%1 ਬਹਾਲ (%2)</translation>
    </message>
    <message>
        <source>The scenario failed: %1</source>
        <translation>ਦ੍ਰਿਸ਼ ਅਸਫਲ: %1</translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved (cancelled)</source>
        <translation>
            <numerusform>ਪੂਲ &quot;%1&quot;: %n ਮੈਂਬਰ, %2/ਸਕਿੰਟ ਮੰਗੇ, %3/ਸਕਿੰਟ ਹਾਸਲ (ਰੱਦ ਕੀਤਾ)</numerusform>
            <numerusform>ਪੂਲ &quot;%1&quot;: %n ਮੈਂਬਰ, %2/ਸਕਿੰਟ ਮੰਗੇ, %3/ਸਕਿੰਟ ਹਾਸਲ (ਰੱਦ ਕੀਤਾ)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved</source>
        <translation>
            <numerusform>ਪੂਲ &quot;%1&quot;: %n ਮੈਂਬਰ, %2/ਸਕਿੰਟ ਮੰਗੇ, %3/ਸਕਿੰਟ ਹਾਸਲ</numerusform>
            <numerusform>ਪੂਲ &quot;%1&quot;: %n ਮੈਂਬਰ, %2/ਸਕਿੰਟ ਮੰਗੇ, %3/ਸਕਿੰਟ ਹਾਸਲ</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: evicted at %2 with count %3, restored at %4 by &quot;%5&quot; at %6</source>
        <translation>%1: %2 &apos;ਤੇ ਗਿਣਤੀ %3 ਨਾਲ ਹਟਾਇਆ, %4 &apos;ਤੇ &quot;%5&quot; ਨਾਲ %6 &apos;ਤੇ ਬਹਾਲ</translation>
    </message>
    <message>
        <source>forecast: the next ~%1 allocations go to it (pool minimum %2 - restored count %3)</source>
        <translation>ਪੂਰਵ-ਅਨੁਮਾਨ: ਅਗਲੇ ~%1 ਨਿਰਧਾਰਨ ਇਸ ਨੂੰ ਜਾਂਦੇ ਹਨ (ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ %2 - ਬਹਾਲ ਗਿਣਤੀ %3)</translation>
    </message>
    <message numerus="yes">
        <source>observed: longest run %Ln consecutive allocation(s)</source>
        <translation>
            <numerusform>ਵੇਖਿਆ: ਸਭ ਤੋਂ ਲੰਬੀ ਲੜੀ %Ln ਲਗਾਤਾਰ ਨਿਰਧਾਰਨ</numerusform>
            <numerusform>ਵੇਖਿਆ: ਸਭ ਤੋਂ ਲੰਬੀ ਲੜੀ %Ln ਲਗਾਤਾਰ ਨਿਰਧਾਰਨ</numerusform>
        </translation>
    </message>
    <message>
        <source>share in the first %1 after the restore: %2 (fair share %3)</source>
        <translation>ਬਹਾਲੀ ਤੋਂ ਬਾਅਦ ਪਹਿਲੇ %1 ਵਿੱਚ ਹਿੱਸਾ: %2 (ਨਿਰਪੱਖ ਹਿੱਸਾ %3)</translation>
    </message>
    <message>
        <source>caught up with the pool minimum after %1</source>
        <translation>%1 ਤੋਂ ਬਾਅਦ ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਤੱਕ ਪੂਰਾ ਹੋਇਆ</translation>
    </message>
    <message>
        <source>did not catch up within the run</source>
        <translation>ਦੌੜ ਦੌਰਾਨ ਪੂਰਾ ਨਹੀਂ ਹੋਇਆ</translation>
    </message>
    <message>
        <source>%1 by %2: forecast run ~%3, observed %4, share %5</source>
        <translation>%2 ਨਾਲ %1: ਪੂਰਵ-ਅਨੁਮਾਨਿਤ ਲੜੀ ~%3, ਵੇਖੀ %4, ਹਿੱਸਾ %5</translation>
    </message>
</context>
<context>
    <name>poolscope::RestoreDialog</name>
    <message>
        <source>Restore</source>
        <translation>ਬਹਾਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>%1 (saved %2)</source>
        <translation>%1 (ਸੰਭਾਲੀ %2)</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>ਅਤੇ %n ਹੋਰ</numerusform>
            <numerusform>ਅਤੇ %n ਹੋਰ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s): %1</source>
        <translation>
            <numerusform>%n ਮੈਂਬਰ ਬਹਾਲ ਕਰੋ: %1</numerusform>
            <numerusform>%n ਮੈਂਬਰ ਬਹਾਲ ਕਰੋ: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>
Restored count %1, pool minimum now %2, rate %3/s.</source>
        <translation type="vanished">
ਬਹਾਲ ਗਿਣਤੀ %1, ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਹੁਣ %2, ਦਰ %3/ਸਕਿੰਟ।</translation>
    </message>
    <message>
        <source>Starting count: %1</source>
        <translation>ਸ਼ੁਰੂਆਤੀ ਗਿਣਤੀ: %1</translation>
    </message>
    <message>
        <source>Restore with this policy</source>
        <translation>ਇਸ ਨੀਤੀ ਨਾਲ ਬਹਾਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: %1</translation>
    </message>
    <message>
        <source>Restored count %1, pool minimum now %2, rate %3/s.</source>
        <comment>count: allocations a member has had (its score); %3: allocations per second</comment>
        <translation>ਬਹਾਲ ਗਿਣਤੀ %1, ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਹੁਣ %2, ਦਰ %3/ਸਕਿੰਟ।</translation>
    </message>
</context>
<context>
    <name>poolscope::SecretPrompter</name>
    <message>
        <source>Password for %1:</source>
        <translation>%1 ਲਈ ਪਾਸਵਰਡ:</translation>
    </message>
    <message>
        <source>The TLS client key %1 is encrypted. Its passphrase:</source>
        <translation>TLS ਕਲਾਇੰਟ ਕੁੰਜੀ %1 ਇਨਕ੍ਰਿਪਟਡ ਹੈ। ਇਸ ਦਾ ਪਾਸਫ੍ਰੇਜ਼:</translation>
    </message>
    <message>
        <source>The SSH key %1 is encrypted. Its passphrase:</source>
        <translation>SSH ਕੁੰਜੀ %1 ਇਨਕ੍ਰਿਪਟਡ ਹੈ। ਇਸ ਦਾ ਪਾਸਫ੍ਰੇਜ਼:</translation>
    </message>
    <message>
        <source>SSH password for %1:</source>
        <translation>%1 ਲਈ SSH ਪਾਸਵਰਡ:</translation>
    </message>
    <message>
        <source>
(kept in the keychain for &quot;%1&quot;)</source>
        <translation type="vanished">
(&quot;%1&quot; ਲਈ ਕੀਚੇਨ ਵਿੱਚ ਰੱਖਿਆ)</translation>
    </message>
    <message>
        <source>
(no keychain here: kept in memory only, until poolscope exits)</source>
        <translation type="vanished">
(ਇੱਥੇ ਕੋਈ ਕੀਚੇਨ ਨਹੀਂ: poolscope ਬੰਦ ਹੋਣ ਤੱਕ ਸਿਰਫ਼ ਮੈਮਰੀ ਵਿੱਚ ਰੱਖਿਆ)</translation>
    </message>
    <message>
        <source>
(kept in memory only, until poolscope exits)</source>
        <translation type="vanished">
(poolscope ਬੰਦ ਹੋਣ ਤੱਕ ਸਿਰਫ਼ ਮੈਮਰੀ ਵਿੱਚ ਰੱਖਿਆ)</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <comment>why the secret is asked for again, then the question</comment>
        <translation>%1। %2</translation>
    </message>
    <message>
        <source>(kept in the keychain for &quot;%1&quot;)</source>
        <translation>(&quot;%1&quot; ਲਈ ਕੀਚੇਨ ਵਿੱਚ ਰੱਖਿਆ)</translation>
    </message>
    <message>
        <source>(no keychain here: kept in memory only, until poolscope exits)</source>
        <translation>(ਇੱਥੇ ਕੋਈ ਕੀਚੇਨ ਨਹੀਂ: poolscope ਬੰਦ ਹੋਣ ਤੱਕ ਸਿਰਫ਼ ਮੈਮਰੀ ਵਿੱਚ ਰੱਖਿਆ)</translation>
    </message>
    <message>
        <source>(kept in memory only, until poolscope exits)</source>
        <translation>(poolscope ਬੰਦ ਹੋਣ ਤੱਕ ਸਿਰਫ਼ ਮੈਮਰੀ ਵਿੱਚ ਰੱਖਿਆ)</translation>
    </message>
</context>
<context>
    <name>poolscope::SeedDialog</name>
    <message>
        <source>Pool minimum (now %1)</source>
        <translation>ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ (ਹੁਣ %1)</translation>
    </message>
    <message>
        <source>Pool minimum (pool empty: 0)</source>
        <translation>ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ (ਪੂਲ ਖਾਲੀ: 0)</translation>
    </message>
    <message>
        <source>Pool minimum (not read yet)</source>
        <translation>ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ (ਅਜੇ ਪੜ੍ਹਿਆ ਨਹੀਂ)</translation>
    </message>
    <message>
        <source>Load or paste a list: its new members will join at the pool minimum.</source>
        <translation>ਸੂਚੀ ਲੋਡ ਕਰੋ ਜਾਂ ਚਿਪਕਾਓ: ਉਸ ਦੇ ਨਵੇਂ ਮੈਂਬਰ ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ &apos;ਤੇ ਸ਼ਾਮਲ ਹੋਣਗੇ।</translation>
    </message>
    <message>
        <source>Load or paste a list to see whether its new members would flood the pool.</source>
        <translation>ਸੂਚੀ ਲੋਡ ਕਰੋ ਜਾਂ ਚਿਪਕਾਓ ਇਹ ਦੇਖਣ ਲਈ ਕਿ ਕੀ ਉਸ ਦੇ ਨਵੇਂ ਮੈਂਬਰ ਪੂਲ ਵਿੱਚ ਹੜ੍ਹ ਲਿਆਉਣਗੇ।</translation>
    </message>
    <message>
        <source>The pool has not been read yet: the flood forecast follows its first poll.</source>
        <translation>ਪੂਲ ਅਜੇ ਪੜ੍ਹਿਆ ਨਹੀਂ ਗਿਆ: ਹੜ੍ਹ ਦਾ ਪੂਰਵ-ਅਨੁਮਾਨ ਉਸ ਦੇ ਪਹਿਲੇ ਪੋਲ ਤੋਂ ਬਾਅਦ ਆਵੇਗਾ।</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>ਸੂਚੀ ਤੋਂ ਜੋੜੋ</translation>
    </message>
    <message>
        <source>%1 is larger than 64 MiB: split it first.</source>
        <translation>%1 64 MiB ਤੋਂ ਵੱਡੀ ਹੈ: ਪਹਿਲਾਂ ਇਸ ਨੂੰ ਵੰਡੋ।</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 ਪੜ੍ਹੀ ਨਹੀਂ ਜਾ ਸਕਦੀ: %2</translation>
    </message>
    <message>
        <source>%1 (%2): the first %3 lines are shown, every line is used</source>
        <translation>%1 (%2): ਪਹਿਲੀਆਂ %3 ਲਾਈਨਾਂ ਦਿਖਾਈਆਂ ਹਨ, ਹਰ ਲਾਈਨ ਵਰਤੀ ਜਾਂਦੀ ਹੈ</translation>
    </message>
    <message>
        <source>Open a proxy list</source>
        <translation>ਪਰਾਕਸੀ ਸੂਚੀ ਖੋਲ੍ਹੋ</translation>
    </message>
    <message>
        <source>Proxy lists (*.txt *.csv *.json *.list)</source>
        <translation>ਪਰਾਕਸੀ ਸੂਚੀਆਂ (*.txt *.csv *.json *.list)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>ਸਾਰੀਆਂ ਫ਼ਾਈਲਾਂ (*)</translation>
    </message>
    <message>
        <source>evicted: restore it instead</source>
        <translation>ਹਟਾਇਆ: ਇਸ ਦੀ ਬਜਾਏ ਇਸ ਨੂੰ ਬਹਾਲ ਕਰੋ</translation>
    </message>
    <message>
        <source>already in the pool</source>
        <translation>ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ</translation>
    </message>
    <message>
        <source>new</source>
        <translation>ਨਵਾਂ</translation>
    </message>
    <message>
        <source>line %1: %2
%3</source>
        <translation>ਲਾਈਨ %1: %2
%3</translation>
    </message>
    <message>
        <source>%1 (%2, first %3 listed)</source>
        <translation>%1 (%2, ਪਹਿਲੇ %3 ਸੂਚੀਬੱਧ)</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>ਸਵੀਕਾਰੇ</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>ਰੱਦ ਕੀਤੇ</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>ਦੋਹਰੇ</translation>
    </message>
    <message>
        <source>New members join at the pool minimum: no flood.</source>
        <translation>ਨਵੇਂ ਮੈਂਬਰ ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ &apos;ਤੇ ਸ਼ਾਮਲ ਹੁੰਦੇ ਹਨ: ਕੋਈ ਹੜ੍ਹ ਨਹੀਂ।</translation>
    </message>
    <message>
        <source>Starting count: %1</source>
        <translation>ਸ਼ੁਰੂਆਤੀ ਗਿਣਤੀ: %1</translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already (pool minimum now %1). Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>ਸੂਚੀ ਤੋਂ ਜੋੜਨ ਲਈ ਕੁਝ ਨਵਾਂ ਨਹੀਂ: %n ਸਵੀਕਾਰਿਆ ਮੈਂਬਰ ਪਹਿਲਾਂ ਹੀ ਪੂਲ ਵਿੱਚ ਹੈ (ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਹੁਣ %1)। ਇਸ ਦੀ ਗਿਣਤੀ ਦੁਬਾਰਾ ਸੈੱਟ ਕਰਨ ਲਈ &quot;ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ ਮੌਜੂਦ ਮੈਂਬਰ ਰੀਸੈੱਟ ਕਰੋ&quot; &apos;ਤੇ ਟਿੱਕ ਕਰੋ।</numerusform>
            <numerusform>ਸੂਚੀ ਤੋਂ ਜੋੜਨ ਲਈ ਕੁਝ ਨਵਾਂ ਨਹੀਂ: ਸਾਰੇ %n ਸਵੀਕਾਰੇ ਮੈਂਬਰ ਪਹਿਲਾਂ ਹੀ ਪੂਲ ਵਿੱਚ ਹਨ (ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ ਹੁਣ %1)। ਉਹਨਾਂ ਦੀ ਗਿਣਤੀ ਦੁਬਾਰਾ ਸੈੱਟ ਕਰਨ ਲਈ &quot;ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ ਮੌਜੂਦ ਮੈਂਬਰ ਰੀਸੈੱਟ ਕਰੋ&quot; &apos;ਤੇ ਟਿੱਕ ਕਰੋ।</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already. Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>ਸੂਚੀ ਤੋਂ ਜੋੜਨ ਲਈ ਕੁਝ ਨਵਾਂ ਨਹੀਂ: %n ਸਵੀਕਾਰਿਆ ਮੈਂਬਰ ਪਹਿਲਾਂ ਹੀ ਪੂਲ ਵਿੱਚ ਹੈ। ਇਸ ਦੀ ਗਿਣਤੀ ਦੁਬਾਰਾ ਸੈੱਟ ਕਰਨ ਲਈ &quot;ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ ਮੌਜੂਦ ਮੈਂਬਰ ਰੀਸੈੱਟ ਕਰੋ&quot; &apos;ਤੇ ਟਿੱਕ ਕਰੋ।</numerusform>
            <numerusform>ਸੂਚੀ ਤੋਂ ਜੋੜਨ ਲਈ ਕੁਝ ਨਵਾਂ ਨਹੀਂ: ਸਾਰੇ %n ਸਵੀਕਾਰੇ ਮੈਂਬਰ ਪਹਿਲਾਂ ਹੀ ਪੂਲ ਵਿੱਚ ਹਨ। ਉਹਨਾਂ ਦੀ ਗਿਣਤੀ ਦੁਬਾਰਾ ਸੈੱਟ ਕਰਨ ਲਈ &quot;ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ ਮੌਜੂਦ ਮੈਂਬਰ ਰੀਸੈੱਟ ਕਰੋ&quot; &apos;ਤੇ ਟਿੱਕ ਕਰੋ।</numerusform>
        </translation>
    </message>
    <message>
        <source>Pool minimum is %1: starting at %2 causes no flood.</source>
        <translation>ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ %1 ਹੈ: %2 &apos;ਤੇ ਸ਼ੁਰੂ ਕਰਨ ਨਾਲ ਕੋਈ ਹੜ੍ਹ ਨਹੀਂ ਆਉਂਦਾ।</translation>
    </message>
    <message>
        <source>The pool is empty: the new members share the allocations.</source>
        <translation>ਪੂਲ ਖਾਲੀ ਹੈ: ਨਵੇਂ ਮੈਂਬਰ ਨਿਰਧਾਰਨ ਆਪਸ ਵਿੱਚ ਵੰਡਦੇ ਹਨ।</translation>
    </message>
    <message>
        <source>Flood warning: %1 is below the pool minimum %2. %3</source>
        <translation>ਹੜ੍ਹ ਦੀ ਚੇਤਾਵਨੀ: %1 ਪੂਲ ਦੀ ਘੱਟੋ-ਘੱਟ %2 ਤੋਂ ਹੇਠਾਂ ਹੈ। %3</translation>
    </message>
    <message>
        <source>Seed a pool (not connected)</source>
        <translation>ਪੂਲ ਵਿੱਚ ਸੂਚੀ ਤੋਂ ਮੈਂਬਰ ਜੋੜੋ (ਜੁੜਿਆ ਨਹੀਂ)</translation>
    </message>
    <message>
        <source>Not connected: connect to a pool first.</source>
        <translation>ਜੁੜਿਆ ਨਹੀਂ: ਪਹਿਲਾਂ ਕਿਸੇ ਪੂਲ ਨਾਲ ਜੁੜੋ।</translation>
    </message>
    <message>
        <source>Seed pool &quot;%1&quot; · %2</source>
        <translation>ਪੂਲ &quot;%1&quot; ਵਿੱਚ ਸੂਚੀ ਤੋਂ ਜੋੜੋ · %2</translation>
    </message>
    <message>
        <source>Target pool: &lt;b&gt;%1&lt;/b&gt; on %2</source>
        <translation>ਟੀਚਾ ਪੂਲ: %2 &apos;ਤੇ &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Seed %Ln member(s)</source>
        <translation>
            <numerusform>%Ln ਮੈਂਬਰ ਸੂਚੀ ਤੋਂ ਜੋੜੋ</numerusform>
            <numerusform>%Ln ਮੈਂਬਰ ਸੂਚੀ ਤੋਂ ਜੋੜੋ</numerusform>
        </translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: %1</translation>
    </message>
    <message>
        <source>Disabled: still reading the list</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: ਸੂਚੀ ਅਜੇ ਪੜ੍ਹੀ ਜਾ ਰਹੀ ਹੈ</translation>
    </message>
    <message>
        <source>Disabled: no accepted proxy in the list</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: ਸੂਚੀ ਵਿੱਚ ਕੋਈ ਸਵੀਕਾਰੀ ਪਰਾਕਸੀ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>Write the accepted members to the pool</source>
        <translation>ਸਵੀਕਾਰੇ ਮੈਂਬਰ ਪੂਲ ਵਿੱਚ ਲਿਖੋ</translation>
    </message>
    <message>
        <source>Reading the list (%1)…</source>
        <translation>ਸੂਚੀ ਪੜ੍ਹੀ ਜਾ ਰਹੀ ਹੈ (%1)…</translation>
    </message>
    <message>
        <source>The list cannot be used: %1</source>
        <translation>ਸੂਚੀ ਵਰਤੀ ਨਹੀਂ ਜਾ ਸਕਦੀ: %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln accepted (%1 new), %2 rejected, %3 duplicates collapsed.</source>
        <translation>
            <numerusform>%Ln ਸਵੀਕਾਰਿਆ (%1 ਨਵੇਂ), %2 ਰੱਦ, %3 ਦੋਹਰੇ ਇਕੱਠੇ ਕੀਤੇ।</numerusform>
            <numerusform>%Ln ਸਵੀਕਾਰੇ (%1 ਨਵੇਂ), %2 ਰੱਦ, %3 ਦੋਹਰੇ ਇਕੱਠੇ ਕੀਤੇ।</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Writing %Ln member(s)…</source>
        <translation>
            <numerusform>%Ln ਮੈਂਬਰ ਲਿਖਿਆ ਜਾ ਰਿਹਾ ਹੈ…</numerusform>
            <numerusform>%Ln ਮੈਂਬਰ ਲਿਖੇ ਜਾ ਰਹੇ ਹਨ…</numerusform>
        </translation>
    </message>
    <message>
        <source>Done: %1 added at count %2, %3 already in the pool kept their count, %4 reset, %5 evicted not re-added.</source>
        <translation>ਪੂਰਾ: %1 ਗਿਣਤੀ %2 &apos;ਤੇ ਜੋੜੇ, ਪੂਲ ਵਿੱਚ ਪਹਿਲਾਂ ਤੋਂ %3 ਨੇ ਆਪਣੀ ਗਿਣਤੀ ਰੱਖੀ, %4 ਰੀਸੈੱਟ, %5 ਹਟਾਏ ਦੁਬਾਰਾ ਨਹੀਂ ਜੋੜੇ।</translation>
    </message>
    <message>
        <source>Seed failed: %1</source>
        <translation>ਸੂਚੀ ਤੋਂ ਜੋੜਨਾ ਅਸਫਲ: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::SessionRecorder</name>
    <message>
        <source>recording stopped: %1</source>
        <translation>ਰਿਕਾਰਡਿੰਗ ਰੁਕੀ: %1</translation>
    </message>
    <message>
        <source>recording switched off</source>
        <translation>ਰਿਕਾਰਡਿੰਗ ਬੰਦ ਕੀਤੀ</translation>
    </message>
    <message>
        <source>cannot read the past of this pool: %1</source>
        <translation>ਇਸ ਪੂਲ ਦਾ ਅਤੀਤ ਪੜ੍ਹਿਆ ਨਹੀਂ ਜਾ ਸਕਦਾ: %1</translation>
    </message>
    <message>
        <source>not recording: %1</source>
        <translation>ਰਿਕਾਰਡ ਨਹੀਂ ਹੋ ਰਿਹਾ: %1</translation>
    </message>
    <message>
        <source>recording to %1</source>
        <translation>%1 ਵਿੱਚ ਰਿਕਾਰਡ ਹੋ ਰਿਹਾ ਹੈ</translation>
    </message>
</context>
<context>
    <name>poolscope::StatusBarPanel</name>
    <message>
        <source>Server and version</source>
        <translation>ਸਰਵਰ ਅਤੇ ਸੰਸਕਰਣ</translation>
    </message>
    <message>
        <source>recording: last poll %1</source>
        <translation>ਰਿਕਾਰਡਿੰਗ: ਆਖਰੀ ਪੋਲ %1</translation>
    </message>
    <message>
        <source>recording</source>
        <translation>ਰਿਕਾਰਡਿੰਗ</translation>
    </message>
    <message>
        <source>disconnected</source>
        <translation>ਜੁੜਿਆ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>ਜੁੜ ਰਿਹਾ ਹੈ</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>ਜੁੜਿਆ</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>ਦੁਬਾਰਾ ਜੁੜ ਰਿਹਾ ਹੈ</translation>
    </message>
    <message>
        <source>Connection to the Redis server</source>
        <translation>Redis ਸਰਵਰ ਨਾਲ ਕਨੈਕਸ਼ਨ</translation>
    </message>
    <message>
        <source>Round-trip time of the last poll (all its commands)</source>
        <translation>ਆਖਰੀ ਪੋਲ ਦਾ ਆਉਣ-ਜਾਣ ਸਮਾਂ (ਇਸ ਦੀਆਂ ਸਾਰੀਆਂ ਕਮਾਂਡਾਂ)</translation>
    </message>
    <message>
        <source>Time since the last successful poll</source>
        <translation>ਆਖਰੀ ਸਫਲ ਪੋਲ ਤੋਂ ਬਾਅਦ ਦਾ ਸਮਾਂ</translation>
    </message>
    <message>
        <source>Members in the pool</source>
        <translation>ਪੂਲ ਵਿੱਚ ਮੈਂਬਰ</translation>
    </message>
    <message>
        <source>rtt %1</source>
        <translation>rtt %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln member(s)</source>
        <translation>
            <numerusform>%Ln ਮੈਂਬਰ</numerusform>
            <numerusform>%Ln ਮੈਂਬਰ</numerusform>
        </translation>
    </message>
    <message>
        <source>Authentication failed, not retrying: enter the password in the Redis URL field</source>
        <translation>ਪ੍ਰਮਾਣੀਕਰਨ ਅਸਫਲ, ਦੁਬਾਰਾ ਕੋਸ਼ਿਸ਼ ਨਹੀਂ: Redis URL ਖੇਤਰ ਵਿੱਚ ਪਾਸਵਰਡ ਦਿਓ</translation>
    </message>
    <message>
        <source>poll failed: %1</source>
        <translation>ਪੋਲ ਅਸਫਲ: %1</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 ਅਸਫਲ: %2</translation>
    </message>
    <message>
        <source> (paused)</source>
        <translation type="vanished"> (ਰੁਕਿਆ)</translation>
    </message>
    <message>
        <source> · read-only</source>
        <translation type="vanished"> · ਸਿਰਫ਼-ਪੜ੍ਹਨ</translation>
    </message>
    <message>
        <source> · primary %1 (from sentinel %2)</source>
        <translation type="vanished"> · ਪ੍ਰਾਇਮਰੀ %1 (sentinel %2 ਤੋਂ)</translation>
    </message>
    <message>
        <source>%1, pool &quot;%2&quot;</source>
        <translation>%1, ਪੂਲ &quot;%2&quot;</translation>
    </message>
    <message>
        <source>no poll yet</source>
        <translation>ਅਜੇ ਕੋਈ ਪੋਲ ਨਹੀਂ</translation>
    </message>
    <message>
        <source>stale: last good poll %1 (%2)</source>
        <translation>ਪੁਰਾਣਾ: ਆਖਰੀ ਸਫਲ ਪੋਲ %1 (%2)</translation>
    </message>
    <message>
        <source>polled %1</source>
        <translation>%1 ਪੋਲ ਕੀਤਾ</translation>
    </message>
    <message>
        <source>%1 (paused)</source>
        <comment>%1: the connection&apos;s state; polling is paused</comment>
        <translation>%1 (ਰੁਕਿਆ)</translation>
    </message>
    <message>
        <source>read-only</source>
        <comment>the connection: nothing is written through it</comment>
        <translation>ਸਿਰਫ਼-ਪੜ੍ਹਨ</translation>
    </message>
    <message>
        <source>primary %1 (from sentinel %2)</source>
        <translation>ਪ੍ਰਾਇਮਰੀ %1 (sentinel %2 ਤੋਂ)</translation>
    </message>
</context>
<context>
    <name>poolscope::TabbedWindow</name>
    <message>
        <source>New &amp;tab</source>
        <translation>ਨਵੀਂ ਟੈਬ(&amp;T)</translation>
    </message>
    <message>
        <source>Another pool beside this one: a tab with its own connection</source>
        <translation>ਇਸ ਦੇ ਨਾਲ ਇੱਕ ਹੋਰ ਪੂਲ: ਆਪਣੇ ਕਨੈਕਸ਼ਨ ਵਾਲੀ ਇੱਕ ਟੈਬ</translation>
    </message>
    <message>
        <source>&amp;Close tab</source>
        <translation>ਟੈਬ ਬੰਦ ਕਰੋ(&amp;C)</translation>
    </message>
    <message>
        <source>Stop watching this tab&apos;s pool; the pool itself is not touched</source>
        <translation>ਇਸ ਟੈਬ ਦੇ ਪੂਲ ਦੀ ਨਿਗਰਾਨੀ ਬੰਦ ਕਰੋ; ਪੂਲ ਨੂੰ ਖ਼ੁਦ ਛੂਹਿਆ ਨਹੀਂ ਜਾਂਦਾ</translation>
    </message>
    <message>
        <source>Next tab</source>
        <translation>ਅਗਲੀ ਟੈਬ</translation>
    </message>
    <message>
        <source>Previous tab</source>
        <translation>ਪਿਛਲੀ ਟੈਬ</translation>
    </message>
    <message>
        <source>%1 · %2 (recording)</source>
        <translation>%1 · %2 (ਰਿਕਾਰਡਿੰਗ)</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>New tab</source>
        <translation>ਨਵੀਂ ਟੈਬ</translation>
    </message>
    <message>
        <source>Close this tab (Ctrl+W); the pool is not touched</source>
        <translation>ਇਹ ਟੈਬ ਬੰਦ ਕਰੋ (Ctrl+W); ਪੂਲ ਨੂੰ ਛੂਹਿਆ ਨਹੀਂ ਜਾਂਦਾ</translation>
    </message>
</context>
<context>
    <name>poolscope::TestAllocationDialog</name>
    <message>
        <source>Start</source>
        <translation>ਸ਼ੁਰੂ ਕਰੋ</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>ਦੌੜ ਰੱਦ ਕਰੋ</translation>
    </message>
    <message>
        <source>Stop the run now; the summary still accounts for every allocation</source>
        <translation>ਦੌੜ ਹੁਣੇ ਰੋਕੋ; ਸਾਰ ਫਿਰ ਵੀ ਹਰ ਨਿਰਧਾਰਨ ਦਾ ਹਿਸਾਬ ਰੱਖਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>atomic script (allocate.lua)</source>
        <translation>ਪਰਮਾਣੂ ਸਕ੍ਰਿਪਟ (allocate.lua)</translation>
    </message>
    <message>
        <source>naive ZRANGE + ZINCRBY (race demo)</source>
        <translation>ਭੋਲਾ ZRANGE + ZINCRBY (ਦੌੜ-ਸਥਿਤੀ ਡੈਮੋ)</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>ਚਲਾਇਆ ਨਹੀਂ ਜਾ ਸਕਦਾ: %1</translation>
    </message>
    <message numerus="yes">
        <source>starting %n worker(s)…</source>
        <translation>
            <numerusform>%n ਵਰਕਰ ਸ਼ੁਰੂ ਹੋ ਰਿਹਾ ਹੈ…</numerusform>
            <numerusform>%n ਵਰਕਰ ਸ਼ੁਰੂ ਹੋ ਰਹੇ ਹਨ…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>test allocations started: %1, %n worker(s), pipeline %2%3, %4</source>
        <translation>
            <numerusform>ਟੈਸਟ ਨਿਰਧਾਰਨ ਸ਼ੁਰੂ: %1, %n ਵਰਕਰ, ਪਾਈਪਲਾਈਨ %2%3, %4</numerusform>
            <numerusform>ਟੈਸਟ ਨਿਰਧਾਰਨ ਸ਼ੁਰੂ: %1, %n ਵਰਕਰ, ਪਾਈਪਲਾਈਨ %2%3, %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln allocation(s)</source>
        <translation>
            <numerusform>%Ln ਨਿਰਧਾਰਨ</numerusform>
            <numerusform>%Ln ਨਿਰਧਾਰਨ</numerusform>
        </translation>
    </message>
    <message>
        <source>, max %1/s</source>
        <translation>, ਵੱਧ ਤੋਂ ਵੱਧ %1/ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>atomic</source>
        <translation>ਪਰਮਾਣੂ</translation>
    </message>
    <message>
        <source>naive</source>
        <translation>ਭੋਲਾ</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>ਰੱਦ ਹੋ ਰਿਹਾ ਹੈ…</translation>
    </message>
    <message>
        <source>Start the test allocations</source>
        <translation>ਟੈਸਟ ਨਿਰਧਾਰਨ ਸ਼ੁਰੂ ਕਰੋ</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>ਉਪਲਬਧ ਨਹੀਂ: %1</translation>
    </message>
    <message>
        <source>%1 done · %2 allocations/s</source>
        <translation>%1 ਪੂਰੇ · %2 ਨਿਰਧਾਰਨ/ਸਕਿੰਟ</translation>
    </message>
    <message>
        <source>stopped at %1 of %2 (%p%)</source>
        <translation>%2 ਵਿੱਚੋਂ %1 &apos;ਤੇ ਰੁਕਿਆ (%p%)</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>ਰੱਦ ਕੀਤਾ</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>ਮੁਕੰਮਲ</translation>
    </message>
</context>
<context>
    <name>poolscope::TypedConfirmDialog</name>
    <message>
        <source>Type the pool&apos;s name, %1, to confirm:</source>
        <translation>ਪੁਸ਼ਟੀ ਲਈ ਪੂਲ ਦਾ ਨਾਂ, %1, ਟਾਈਪ ਕਰੋ:</translation>
    </message>
    <message>
        <source>&amp;Confirm</source>
        <translation>ਪੁਸ਼ਟੀ ਕਰੋ(&amp;C)</translation>
    </message>
</context>
<context>
    <name>poolscope::WriteLock</name>
    <message>
        <source>production: writes are locked for this connection; unlock them for this session first (Pool ▸ Unlock writes)</source>
        <translation>ਪ੍ਰੋਡਕਸ਼ਨ: ਇਸ ਕਨੈਕਸ਼ਨ ਲਈ ਲਿਖਤਾਂ ਤਾਲਾਬੰਦ ਹਨ; ਪਹਿਲਾਂ ਇਸ ਸੈਸ਼ਨ ਲਈ ਉਹਨਾਂ ਨੂੰ ਖੋਲ੍ਹੋ (ਪੂਲ ▸ ਲਿਖਤਾਂ ਖੋਲ੍ਹੋ)</translation>
    </message>
</context>
<context>
    <name>poolscope::i18n::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>ਭਾਸ਼ਾ(&amp;L)</translation>
    </message>
    <message>
        <source>System language (%1)</source>
        <translation>ਸਿਸਟਮ ਦੀ ਭਾਸ਼ਾ (%1)</translation>
    </message>
    <message>
        <source>The language the desktop asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English when poolscope does not have it</source>
        <translation>ਡੈਸਕਟਾਪ ਵੱਲੋਂ ਮੰਗੀ ਭਾਸ਼ਾ (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); ਜੇ poolscope ਕੋਲ ਉਹ ਨਹੀਂ ਤਾਂ ਅੰਗਰੇਜ਼ੀ</translation>
    </message>
    <message>
        <source>Applies the next time poolscope starts</source>
        <translation>poolscope ਦੇ ਅਗਲੀ ਵਾਰ ਸ਼ੁਰੂ ਹੋਣ &apos;ਤੇ ਲਾਗੂ ਹੁੰਦਾ ਹੈ</translation>
    </message>
    <message>
        <source>Chinese (Simplified)</source>
        <translation>ਚੀਨੀ (ਸਰਲ)</translation>
    </message>
    <message>
        <source>Uyghur</source>
        <translation>ਉਇਗ਼ੁਰ</translation>
    </message>
    <message>
        <source>Punjabi (Gurmukhi)</source>
        <translation>ਪੰਜਾਬੀ (ਗੁਰਮੁਖੀ)</translation>
    </message>
    <message>
        <source>Esperanto</source>
        <translation>ਐਸਪੇਰਾਂਤੋ</translation>
    </message>
    <message>
        <source>English</source>
        <translation>ਅੰਗਰੇਜ਼ੀ</translation>
    </message>
    <message>
        <source>Saved: %1 from the next start of poolscope without %2</source>
        <translation>ਸੰਭਾਲਿਆ ਗਿਆ: %2 ਤੋਂ ਬਿਨਾਂ poolscope ਦੇ ਅਗਲੀ ਵਾਰ ਸ਼ੁਰੂ ਹੋਣ ਤੋਂ %1</translation>
    </message>
    <message>
        <source>Saved: poolscope stays in %1</source>
        <translation>ਸੰਭਾਲਿਆ ਗਿਆ: poolscope %1 ਵਿੱਚ ਹੀ ਰਹੇਗਾ</translation>
    </message>
    <message>
        <source>Saved: poolscope starts in %1 the next time; this window keeps its language</source>
        <translation>ਸੰਭਾਲਿਆ ਗਿਆ: poolscope ਅਗਲੀ ਵਾਰ %1 ਵਿੱਚ ਸ਼ੁਰੂ ਹੋਵੇਗਾ; ਇਹ ਵਿੰਡੋ ਆਪਣੀ ਭਾਸ਼ਾ ਰੱਖਦੀ ਹੈ</translation>
    </message>
</context>
</TS>
