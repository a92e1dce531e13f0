<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ug_CN">
<context>
    <name>DisplayFormat</name>
    <message>
        <source>%1 %</source>
        <extracomment>A percentage: the number, then its sign.</extracomment>
        <translation>%1%</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 سېكۇنت</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 مىنۇت</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 سائەت</translation>
    </message>
    <message>
        <source>%1 s ago</source>
        <translation>%1 سېكۇنت ئىلگىرى</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>%1 مىنۇت ئىلگىرى</translation>
    </message>
    <message>
        <source>%1 h ago</source>
        <translation>%1 سائەت ئىلگىرى</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 مىللىسېكۇنت</translation>
    </message>
</context>
<context>
    <name>FairnessPanel</name>
    <message>
        <source>Members in the pool, and how many are evicted</source>
        <translation>كۆلچەكتىكى ئەزالار، ۋە ئۇلاردىن قانچىسى چىقىرىۋېتىلگەن</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>ئەزالار</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Lowest, median and highest allocation count in the pool</source>
        <translation>كۆلچەكتىكى ئەڭ تۆۋەن، ئوتتۇرا ۋە ئەڭ يۇقىرى تەقسىمات سانى</translation>
    </message>
    <message>
        <source>Min / median / max</source>
        <translation>ئەڭ تۆۋەن / ئوتتۇرا / ئەڭ يۇقىرى</translation>
    </message>
    <message>
        <source>Highest count minus lowest count: 0 or 1 in a pool served only by allocate.lua</source>
        <translation>ئەڭ يۇقىرى تەقسىمات سانىدىن ئەڭ تۆۋىنى ئېلىنغان پەرق: پەقەت allocate.lua مۇلازىمەت قىلىدىغان كۆلچەكتە 0 ياكى 1</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>پەرق</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index of the counts: 1.0 is perfectly even, 1/n is one member taking everything</source>
        <translation>تەقسىمات سانلىرىنىڭ Jain ئادىللىق كۆرسەتكۈچى: 1.0 پۈتۈنلەي تەكشى، 1/n بولسا بىر ئەزا ھەممىنى ئالغان</translation>
    </message>
    <message>
        <source>Jain index</source>
        <translation>Jain كۆرسەتكۈچى</translation>
    </message>
    <message>
        <source>The member that took the largest share of the allocations in the last window</source>
        <translation>ئالدىنقى ۋاقىت كۆزنىكىدە تەقسىماتنىڭ ئەڭ چوڭ ئۈلۈشىنى ئالغان ئەزا</translation>
    </message>
    <message>
        <source>Busiest (last window)</source>
        <translation>ئەڭ ئالدىراش (ئالدىنقى كۆزنەك)</translation>
    </message>
    <message>
        <source>Allocations per second over the last window, all members together</source>
        <translation>ئالدىنقى كۆزنەكتىكى سېكۇنتلۇق تەقسىمات، بارلىق ئەزالار بىرلىكتە</translation>
    </message>
    <message>
        <source>Allocation rate</source>
        <translation>تەقسىمات سۈرئىتى</translation>
    </message>
    <message>
        <source>The pool&apos;s current total: the sum of the counts of the members in the pool now. It falls when members are evicted (their counts are saved with them, shown in brackets) or when counts are reset; it is not the number of allocations ever made.</source>
        <translation>كۆلچەكنىڭ ھازىرقى جەمئىيى: ھازىر كۆلچەكتىكى ئەزالارنىڭ تەقسىمات سانلىرىنىڭ يىغىندىسى. ئەزالار چىقىرىۋېتىلگەندە (ئۇلارنىڭ سانى ئۆزلىرى بىلەن بىللە ساقلىنىدۇ، تىرناق ئىچىدە كۆرسىتىلىدۇ) ياكى سانلار قايتا تەڭشەلگەندە ئۇ تۆۋەنلەيدۇ؛ ئۇ ئەزەلدىن قىلىنغان تەقسىماتلارنىڭ سانى ئەمەس.</translation>
    </message>
    <message>
        <source>Sum of counts now</source>
        <translation>ھازىرقى سانلار يىغىندىسى</translation>
    </message>
    <message>
        <source>How the poller reads the pool</source>
        <translation>سورىغۇچ كۆلچەكنى قانداق ئوقۇيدۇ</translation>
    </message>
    <message>
        <source>Read mode</source>
        <translation>ئوقۇش ھالىتى</translation>
    </message>
</context>
<context>
    <name>Forecast</name>
    <message>
        <source>No flood: joining at %1, above the pool minimum (%2).</source>
        <translation>كەلكۈن يوق: %1 دە قوشۇلىدۇ، كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى (%2) دىن يۇقىرى.</translation>
    </message>
    <message>
        <source>above the pool maximum (%1)</source>
        <translation>كۆلچەكنىڭ ئەڭ يۇقىرى قىممىتى (%1) دىن يۇقىرى</translation>
    </message>
    <message>
        <source>above the pool minimum (%1)</source>
        <translation>كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى (%1) دىن يۇقىرى</translation>
    </message>
    <message>
        <source>about %1 at the current rate</source>
        <translation>ھازىرقى سۈرئەتتە تەخمىنەن %1</translation>
    </message>
    <message>
        <source>no allocations measured right now, so no time estimate</source>
        <translation>ھازىر ھېچقانداق تەقسىمات ئۆلچەنمىدى، شۇڭا ۋاقىت مۆلچەرى يوق</translation>
    </message>
    <message>
        <source>Starvation warning: joining at %1, %2, it gets none of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>ئاچ قېلىش ئاگاھلاندۇرۇشى: %1 دە قوشۇلسا، %2، ئۇ كېيىنكى %3 تەقسىماتنىڭ (%4) ھېچبىرىنى ئالالمايدۇ: كۆلچەكنىڭ قالغان قىسمى ئالدى بىلەن يېتىشىۋالىدۇ.</translation>
    </message>
    <message numerus="yes">
        <source>Starvation warning: joining at %1 or more, %2, none of these %n members gets any of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>
            <numerusform>ئاچ قېلىش ئاگاھلاندۇرۇشى: %1 ياكى ئۇنىڭدىن يۇقىرىدا قوشۇلسا، %2، بۇ ئەزا كېيىنكى %3 تەقسىماتنىڭ (%4) ھېچبىرىنى ئالالمايدۇ: كۆلچەكنىڭ قالغان قىسمى ئالدى بىلەن يېتىشىۋالىدۇ.</numerusform>
            <numerusform>ئاچ قېلىش ئاگاھلاندۇرۇشى: %1 ياكى ئۇنىڭدىن يۇقىرىدا قوشۇلسا، %2، بۇ %n ئەزانىڭ ھېچقايسىسى كېيىنكى %3 تەقسىماتنىڭ (%4) ھېچبىرىنى ئالالمايدۇ: كۆلچەكنىڭ قالغان قىسمى ئالدى بىلەن يېتىشىۋالىدۇ.</numerusform>
        </translation>
    </message>
    <message>
        <source> (no allocations measured right now, so no time estimate)</source>
        <translation> (ھازىر ھېچقانداق تەقسىمات ئۆلچەنمىدى، شۇڭا ۋاقىت مۆلچەرى يوق)</translation>
    </message>
    <message>
        <source>, about %1 at the current rate</source>
        <translation>، ھازىرقى سۈرئەتتە تەخمىنەن %1</translation>
    </message>
    <message>
        <source>The pool is empty: this member will receive every allocation until others join.</source>
        <translation>كۆلچەك قۇرۇق: باشقىلار قوشۇلغۇچە بۇ ئەزا ھەر بىر تەقسىماتنى ئالىدۇ.</translation>
    </message>
    <message>
        <source>The pool is empty: these %L1 members will share every allocation between them.</source>
        <translation>كۆلچەك قۇرۇق: بۇ %L1 ئەزا ھەر بىر تەقسىماتنى ئۆزئارا بۆلۈشىدۇ.</translation>
    </message>
    <message>
        <source>No flood: joining at %1, at or above the pool minimum (%2), so it joins the rotation.</source>
        <translation>كەلكۈن يوق: %1 دە قوشۇلىدۇ، كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى (%2) دىن تۆۋەن ئەمەس، شۇڭا ئايلانمىغا قوشۇلىدۇ.</translation>
    </message>
    <message>
        <source>This member will receive the next ~%1 allocations%2.</source>
        <translation>بۇ ئەزا كېيىنكى تەخمىنەن %1 تەقسىماتنى ئالىدۇ%2.</translation>
    </message>
    <message>
        <source>These %L1 members will receive the next ~%2 allocations (~%3 each)%4.</source>
        <translation>بۇ %L1 ئەزا كېيىنكى تەخمىنەن %2 تەقسىماتنى ئالىدۇ (ھەربىرى تەخمىنەن %3)%4.</translation>
    </message>
    <message>
        <source>No flood: they join at or above the pool minimum (%1), so they join the rotation.</source>
        <translation>كەلكۈن يوق: ئۇلار كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى (%1) دىن تۆۋەن بولمىغان ساندا قوشۇلىدۇ، شۇڭا ئايلانمىغا قوشۇلىدۇ.</translation>
    </message>
    <message>
        <source>These %L1 members will receive the next ~%2 allocations between them%3.</source>
        <translation>بۇ %L1 ئەزا كېيىنكى تەخمىنەن %2 تەقسىماتنى ئۆزئارا بۆلۈشىدۇ%3.</translation>
    </message>
</context>
<context>
    <name>HealthCell</name>
    <message>
        <source>up</source>
        <translation>ئىشلەۋاتىدۇ</translation>
    </message>
    <message>
        <source>down</source>
        <translation>ئىشلىمەيدۇ</translation>
    </message>
    <message>
        <source>not checkable</source>
        <translation>تەكشۈرگىلى بولمايدۇ</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>نامەلۇم</translation>
    </message>
    <message>
        <source>up · %1 ms</source>
        <translation>ئىشلەۋاتىدۇ · %1 مىللىسېكۇنت</translation>
    </message>
    <message>
        <source>down · %1</source>
        <translation>ئىشلىمەيدۇ · %1</translation>
    </message>
    <message>
        <source>Never checked (Ctrl+K checks the selected members)</source>
        <translation>ھېچ تەكشۈرۈلمىگەن (Ctrl+K تاللانغان ئەزالارنى تەكشۈرىدۇ)</translation>
    </message>
    <message>
        <source>Last check %1: %2</source>
        <translation>ئاخىرقى تەكشۈرۈش %1: %2</translation>
    </message>
    <message>
        <source>Latency %1 ms</source>
        <translation>كېچىكىش %1 مىللىسېكۇنت</translation>
    </message>
    <message>
        <source>Target answered HTTP %1</source>
        <translation>نىشان HTTP %1 بىلەن جاۋاب بەردى</translation>
    </message>
    <message>
        <source>%1 consecutive successes, %2 consecutive failures</source>
        <translation>ئۇدا %1 قېتىم مۇۋەپپەقىيەتلىك، ئۇدا %2 قېتىم مەغلۇپ</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>ئاخىرقى خاتالىق: %1</translation>
    </message>
    <message>
        <source>Evicted by the guard</source>
        <translation>قوغدىغۇچى چىقىرىۋەتكەن</translation>
    </message>
</context>
<context>
    <name>LoadReport</name>
    <message>
        <source>connections lost mid-run: %1, reconnected: %2</source>
        <translation>ئىجرا جەريانىدا ئۈزۈلگەن ئۇلىنىشلار: %1، قايتا ئۇلانغانلار: %2</translation>
    </message>
    <message>
        <source>failover: the primary went from %1</source>
        <translation>زاپاسقا ئالمىشىش، ئاساسىي مۇلازىمېتىرنىڭ ئۆزگىرىشى: %1</translation>
    </message>
    <message>
        <source> to </source>
        <translation> → </translation>
    </message>
    <message>
        <source>lost in failover: %1 acknowledged allocations on %2 members (sum of counts %3 before, %4 after)</source>
        <translation>زاپاسقا ئالمىشىشتا يوقالغىنى: %2 ئەزادىكى %1 جەزملەشتۈرۈلگەن تەقسىمات (سانلار يىغىندىسى ئىلگىرى %3، كېيىن %4)</translation>
    </message>
    <message>
        <source>lost in failover: not checked (%1)</source>
        <translation>زاپاسقا ئالمىشىشتا يوقالغىنى: تەكشۈرۈلمىدى (%1)</translation>
    </message>
    <message>
        <source>pool is empty: no proxy allocated (%1 empty answers)</source>
        <translation>كۆلچەك قۇرۇق: ھېچقانداق ۋاكالەتچى تەقسىملەنمىدى (%1 قۇرۇق جاۋاب)</translation>
    </message>
    <message>
        <source>allocated %1 in %2 (%3/s)%4</source>
        <translation>%2 ئىچىدە %1 تەقسىملەندى (%3/سېكۇنت)%4</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>، ئەمەلدىن قالدۇرۇلدى</translation>
    </message>
    <message>
        <source>empty-pool answers: %1 (pool is empty: no proxy allocated)</source>
        <translation>قۇرۇق كۆلچەك جاۋابلىرى: %1 (كۆلچەك قۇرۇق: ھېچقانداق ۋاكالەتچى تەقسىملەنمىدى)</translation>
    </message>
    <message>
        <source>empty-pool answers: 0</source>
        <translation>قۇرۇق كۆلچەك جاۋابلىرى: 0</translation>
    </message>
    <message>
        <source>errors: %1 (%2)</source>
        <translation>خاتالىقلار: %1 (%2)</translation>
    </message>
    <message>
        <source>errors: 0</source>
        <translation>خاتالىقلار: 0</translation>
    </message>
    <message>
        <source>outcome unknown (no reply, never retried): %1</source>
        <translation>نەتىجىسى نامەلۇم (جاۋاب يوق، قايتا سىنالمىدى): %1</translation>
    </message>
    <message>
        <source>latency p50 %1 · p99 %2 · max %3</source>
        <translation>كېچىكىش p50 %1 · p99 %2 · ئەڭ كۆپ %3</translation>
    </message>
    <message>
        <source>naive mode: %1 collisions, %2 duplicate picks (the script: always 0)</source>
        <translation>ئاددىي ھالەت: %1 توقۇنۇش، %2 تەكرار تاللاش (قوليازما بىلەن: ھەمىشە 0)</translation>
    </message>
    <message>
        <source>%1 worker(s), pipeline %2, %3</source>
        <translation>%1 خىزمەتچى، pipeline %2، %3</translation>
    </message>
    <message>
        <source>atomic script</source>
        <translation>ئاتوم قوليازما</translation>
    </message>
    <message>
        <source>naive ZRANGE + ZINCRBY</source>
        <translation>ئاددىي ZRANGE + ZINCRBY</translation>
    </message>
</context>
<context>
    <name>OutsideChanges</name>
    <message>
        <source> and %L1 more</source>
        <translation type="vanished"> ۋە يەنە %L1</translation>
    </message>
    <message>
        <source>pool vanished: %1 members gone (server restarted or key deleted?)</source>
        <translation>كۆلچەك غايىب بولدى: %1 ئەزا يوقالدى (مۇلازىمېتىر قايتا قوزغالدىمۇ ياكى ئاچقۇچ ئۆچۈرۈلدىمۇ؟)</translation>
    </message>
    <message>
        <source>counts went back by %1 allocations on %L2 members after the primary changed (%3): acknowledged by %4, never replicated</source>
        <translation>ئاساسىي مۇلازىمېتىر ئالماشقاندىن كېيىن (%3) %L2 ئەزانىڭ سانى %1 تەقسىمات كەينىگە قايتتى: %4 جەزملىگەن، ئەمما ھېچ كۆپەيتىلمىگەن</translation>
    </message>
    <message>
        <source>counts went back by %1 allocations on %L2 members (%3), not by poolscope: reset by another client?</source>
        <translation>%L2 ئەزانىڭ سانى %1 تەقسىمات كەينىگە قايتتى (%3)، poolscope قىلمىغان: باشقا خېرىدار قايتا تەڭشىگەنمۇ؟</translation>
    </message>
    <message>
        <source>%L1 members left the pool without an eviction here (%2)</source>
        <translation>%L1 ئەزا بۇ يەردە چىقىرىۋېتىلمەيلا كۆلچەكتىن ئايرىلدى (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %Ln more</source>
        <comment>%1: member ids, then how many more are not named</comment>
        <translation>
            <numerusform>%1 ۋە يەنە %Ln</numerusform>
            <numerusform>%1 ۋە يەنە %Ln</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PoolMonitor</name>
    <message>
        <source>full snapshot (%1 members)</source>
        <translation>تولۇق كۆرۈنۈش (%1 ئەزا)</translation>
    </message>
</context>
<context>
    <name>ProxyList</name>
    <message>
        <source>unknown comment style &quot;%1&quot; (comment lines start with # or ;)</source>
        <translation>نامەلۇم ئىزاھات شەكلى &quot;%1&quot; (ئىزاھات قۇرلىرى # ياكى ; بىلەن باشلىنىدۇ)</translation>
    </message>
    <message>
        <source>contains an unpaired surrogate (a \uD800-\uDFFF escape without its pair), which is not valid Unicode</source>
        <translation>جۈپى يوق بىر UTF-16 surrogate بار (\uD800-\uDFFF قېچىش بەلگىسىنىڭ جۈپى يوق)، بۇ ئىناۋەتلىك Unicode ئەمەس</translation>
    </message>
    <message>
        <source>contains a NUL byte</source>
        <translation>NUL بايتى بار</translation>
    </message>
    <message>
        <source>unexpected whitespace inside the entry (expected one proxy per line, as host:port)</source>
        <translation>مەزمۇن ئىچىدە كۈتۈلمىگەن بوشلۇق بار (ھەر قۇردا host:port شەكلىدە بىر ۋاكالەتچى بولۇشى كېرەك)</translation>
    </message>
    <message>
        <source>contains the control character U+%1</source>
        <translation>U+%1 كونترول ھەرپى بار</translation>
    </message>
    <message>
        <source>contains a byte-order mark (U+FEFF, invisible), which only the file&apos;s first character may be</source>
        <translation>بايت تەرتىپ بەلگىسى (U+FEFF، كۆرۈنمەيدۇ) بار، ئۇ پەقەت ھۆججەتنىڭ بىرىنچى ھەرپى بولالايدۇ</translation>
    </message>
    <message>
        <source>missing port</source>
        <translation>ئېغىز يوق</translation>
    </message>
    <message>
        <source>port %1 is not a number</source>
        <translation>ئېغىز %1 سان ئەمەس</translation>
    </message>
    <message>
        <source>port %1 is out of range 1-65535</source>
        <translation>ئېغىز %1 دائىرە 1-65535 دىن ھالقىدى</translation>
    </message>
    <message>
        <source>missing host</source>
        <translation>ماشىنا يوق</translation>
    </message>
    <message>
        <source>unterminated [ in IPv6 address</source>
        <translation>IPv6 ئادرېسىدىكى [ يېپىلمىغان</translation>
    </message>
    <message>
        <source>%1 is not a valid IPv6 address</source>
        <translation>%1 ئىناۋەتلىك IPv6 ئادرېسى ئەمەس</translation>
    </message>
    <message>
        <source>host %1 contains &quot;:&quot; but is not a valid IPv6 address</source>
        <translation>ماشىنا %1 دا &quot;:&quot; بار، ئەمما ئىناۋەتلىك IPv6 ئادرېسى ئەمەس</translation>
    </message>
    <message>
        <source>missing scheme before &quot;://&quot;</source>
        <translation>&quot;://&quot; نىڭ ئالدىدا پروتوكول يوق</translation>
    </message>
    <message>
        <source>invalid scheme %1</source>
        <translation>ئىناۋەتسىز پروتوكول %1</translation>
    </message>
    <message>
        <source>empty credentials before &quot;@&quot;</source>
        <translation>&quot;@&quot; نىڭ ئالدىدىكى كىملىك ئۇچۇرى قۇرۇق</translation>
    </message>
    <message>
        <source>unexpected path %1 after the port</source>
        <translation>ئېغىزدىن كېيىن كۈتۈلمىگەن يول %1</translation>
    </message>
    <message>
        <source>missing host and port</source>
        <translation>ماشىنا ۋە ئېغىز يوق</translation>
    </message>
    <message>
        <source>empty [] where an IPv6 address belongs</source>
        <translation>IPv6 ئادرېسى بولۇشقا تېگىشلىك يەردە قۇرۇق []</translation>
    </message>
    <message>
        <source>unexpected text %1 after &quot;]&quot;</source>
        <translation>&quot;]&quot; دىن كېيىن كۈتۈلمىگەن تېكىست %1</translation>
    </message>
    <message>
        <source>IPv6 address must be written in brackets, as in [2001:db8::1]:8080</source>
        <translation>IPv6 ئادرېسى تىرناق ئىچىگە يېزىلىشى كېرەك، مەسىلەن [2001:db8::1]:8080</translation>
    </message>
    <message>
        <source>too many &quot;:&quot; (expected host:port; write credentials as scheme://user:pass@host:port)</source>
        <translation>&quot;:&quot; بەك كۆپ (host:port كۈتۈلىدۇ؛ كىملىك ئۇچۇرىنى scheme://user:pass@host:port شەكلىدە يېزىڭ)</translation>
    </message>
    <message>
        <source>not valid UTF-8</source>
        <translation>ئىناۋەتلىك UTF-8 ئەمەس</translation>
    </message>
    <message>
        <source>hexadecimal</source>
        <comment>a way of writing an IPv4 address: 0x7f.0.0.1</comment>
        <translation>ئون ئالتىلىك</translation>
    </message>
    <message>
        <source>octal</source>
        <comment>a way of writing an IPv4 address: 0177.0.0.1</comment>
        <translation>سەككىزلىك</translation>
    </message>
    <message>
        <source>shortened</source>
        <comment>a way of writing an IPv4 address: 127.1 (fewer than 4 parts)</comment>
        <translation>قىسقارتىلغان</translation>
    </message>
    <message>
        <source>%1 is an unspecified address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 بەلگىلەنمىگەن ئادرېس</translation>
    </message>
    <message>
        <source>%1 is a reserved address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ساقلاپ قويۇلغان ئادرېس</translation>
    </message>
    <message>
        <source>%1 is a private address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 شەخسىي ئادرېس</translation>
    </message>
    <message>
        <source>%1 is a CGNAT address</source>
        <comment>%1: an IP address; CGNAT: carrier-grade NAT, 100.64.0.0/10</comment>
        <translation>%1 CGNAT ئادرېسى</translation>
    </message>
    <message>
        <source>%1 is a loopback address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 قايتما (loopback) ئادرېس</translation>
    </message>
    <message>
        <source>%1 is a link-local address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 ئۇلىنىش-يەرلىك ئادرېس</translation>
    </message>
    <message>
        <source>%1 is a site-local address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 بېكەت-يەرلىك (site-local) ئادرېس</translation>
    </message>
    <message>
        <source>%1 is a documentation address</source>
        <comment>%1: an IP address in a range reserved for examples in documentation</comment>
        <translation>%1 ھۆججەتلەشتۈرۈش ئادرېسى</translation>
    </message>
    <message>
        <source>%1 is a multicast address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 كۆپ نىشانلىق ئادرېس</translation>
    </message>
    <message>
        <source>%1 is a broadcast address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 كەڭ تارقىتىش ئادرېسى</translation>
    </message>
    <message>
        <source>%1 is a reserved (deprecated IPv4-compatible) address</source>
        <comment>%1: an IPv6 address of the form ::a.b.c.d</comment>
        <translation>%1 ساقلاپ قويۇلغان ئادرېس (ئەمەلدىن قالدۇرۇلغان IPv4-compatible ئادرېس)</translation>
    </message>
    <message>
        <source>unspecified</source>
        <comment>a kind of IP address: 0.0.0.0 (unspecified)</comment>
        <translation>بەلگىلەنمىگەن</translation>
    </message>
    <message>
        <source>reserved</source>
        <comment>a kind of IP address: 240.0.0.1 (reserved)</comment>
        <translation>ساقلاپ قويۇلغان</translation>
    </message>
    <message>
        <source>private</source>
        <comment>a kind of IP address: 10.0.0.1 (private)</comment>
        <translation>شەخسىي</translation>
    </message>
    <message>
        <source>CGNAT</source>
        <comment>a kind of IP address: 100.64.0.1 (CGNAT)</comment>
        <translation>CGNAT</translation>
    </message>
    <message>
        <source>loopback</source>
        <comment>a kind of IP address: 127.0.0.1 (loopback)</comment>
        <translation>قايتما</translation>
    </message>
    <message>
        <source>link-local</source>
        <comment>a kind of IP address: 169.254.0.1 (link-local)</comment>
        <translation>ئۇلىنىش-يەرلىك</translation>
    </message>
    <message>
        <source>site-local</source>
        <comment>a kind of IP address</comment>
        <translation>بېكەت-يەرلىك</translation>
    </message>
    <message>
        <source>documentation</source>
        <comment>a kind of IP address: 192.0.2.1 (documentation), a range reserved for examples</comment>
        <translation>ھۆججەتلەشتۈرۈش</translation>
    </message>
    <message>
        <source>multicast</source>
        <comment>a kind of IP address: 224.0.0.1 (multicast)</comment>
        <translation>كۆپ نىشانلىق</translation>
    </message>
    <message>
        <source>broadcast</source>
        <comment>a kind of IP address: 255.255.255.255 (broadcast)</comment>
        <translation>كەڭ تارقىتىش</translation>
    </message>
    <message>
        <source>%1 is an IPv4-mapped address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 بولسا %2 (%3) نىڭ IPv4-mapped ئادرېسى</translation>
    </message>
    <message>
        <source>%1 is an IPv4-compatible address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 بولسا %2 (%3) نىڭ IPv4-compatible ئادرېسى</translation>
    </message>
    <message>
        <source>%1 is a NAT64 address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 بولسا %2 (%3) نىڭ NAT64 ئادرېسى</translation>
    </message>
    <message>
        <source>%1 is a 6to4 address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 بولسا %2 (%3) نىڭ 6to4 ئادرېسى</translation>
    </message>
    <message>
        <source>%1 is a Teredo address for client %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the Teredo client&apos;s IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 بولسا خېرىدار %2 (%3) نىڭ Teredo ئادرېسى</translation>
    </message>
    <message>
        <source>%1 is a Teredo address for server %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the Teredo server&apos;s IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 بولسا مۇلازىمېتىر %2 (%3) نىڭ Teredo ئادرېسى</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no scheme is allowed: (allowed: none)</comment>
        <translation>يوق</translation>
    </message>
    <message numerus="yes">
        <source>%n more</source>
        <comment>ports not listed</comment>
        <translation>
            <numerusform>يەنە %n</numerusform>
            <numerusform>يەنە %n</numerusform>
        </translation>
    </message>
    <message>
        <source>scheme %1 is not allowed (allowed: %2)</source>
        <comment>%1: a URL scheme such as socks5, %2: a list of them</comment>
        <translation>پروتوكول %1 غا يول قويۇلمايدۇ (يول قويۇلغانلىرى: %2)</translation>
    </message>
    <message>
        <source>port %1 is not in the allowed ports (%2)</source>
        <comment>%2: a list of port numbers</comment>
        <translation>ئېغىز %1 يول قويۇلغان ئېغىزلار ئىچىدە يوق (%2)</translation>
    </message>
    <message>
        <source>IPv4 address %1 (= %2) is not accepted in %3 form: write it as %2</source>
        <comment>%1: the address as written, %2: the same in dotted decimal, %3: how it departs from dotted decimal (hexadecimal, octal, shortened; several joined by /)</comment>
        <translation>IPv4 ئادرېسى %1 (= %2) %3 شەكلىدە قوبۇل قىلىنمايدۇ: ئۇنى %2 دەپ يېزىڭ</translation>
    </message>
    <message>
        <source>%1 is a loopback name</source>
        <comment>%1: a host name such as localhost</comment>
        <translation>%1 قايتما (loopback) نامى</translation>
    </message>
    <message>
        <source>host %1 is not a valid IPv4 address, IPv6 address or DNS name</source>
        <translation>ماشىنا %1 ئىناۋەتلىك IPv4 ئادرېسى، IPv6 ئادرېسى ياكى DNS نامى ئەمەس</translation>
    </message>
</context>
<context>
    <name>QAbstractSpinBox</name>
    <message>
        <source>Step &amp;down</source>
        <translation>بىر قەدەم تۆۋەنلەت(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Step up</source>
        <translation>بىر قەدەم ئۆستۈر(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Select All</source>
        <translation>ھەممىنى تاللا(&amp;S)</translation>
    </message>
</context>
<context>
    <name>QDialogButtonBox</name>
    <message>
        <source>OK</source>
        <translation>جەزملە</translation>
    </message>
</context>
<context>
    <name>QDockWidget</name>
    <message>
        <source>Close</source>
        <translation>ياپ</translation>
    </message>
    <message>
        <source>Float</source>
        <translation>لەيلىتىش</translation>
    </message>
    <message>
        <source>Undocks and re-attaches the dock widget</source>
        <translation>تاختىنى ئايرىيدۇ ۋە قايتا قىستۇرىدۇ</translation>
    </message>
    <message>
        <source>Closes the dock widget</source>
        <translation>تاختىنى تاقايدۇ</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Back</source>
        <translation>كەينىگە</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ھۆججەت</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>ئاچ</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>ئاچ(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>ساقلا(&amp;S)</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>ھۆججەتلەر</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is write protected.
Do you want to delete it anyway?</source>
        <translation>&apos;%1&apos; يېزىشتىن قوغدالغان.
يەنىلا ئۆچۈرەمسىز؟</translation>
    </message>
    <message>
        <source>Are you sure you want to delete &apos;%1&apos;?</source>
        <translation>&apos;%1&apos; نى راستتىنلا ئۆچۈرەمسىز؟</translation>
    </message>
    <message>
        <source>List of places and bookmarks</source>
        <translation>ئورۇنلار ۋە خەتكۈچلەر تىزىملىكى</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>ھۆججەت نامى(&amp;N):</translation>
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
        <translation>ھۆججەت قىسقۇچ</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>ئۆچۈر</translation>
    </message>
    <message>
        <source>New Folder</source>
        <translation>يېڭى قىسقۇچ</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>قىسقۇچ</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>ئۈستۈنكى مۇندەرىجە</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>يېڭى قىسقۇچ(&amp;N)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>يوقات</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>كومپيۇتېرىم</translation>
    </message>
    <message>
        <source>Look in:</source>
        <translation>ئىزدەش ئورنى:</translation>
    </message>
    <message>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <source>Create a New Folder</source>
        <translation>يېڭى قىسقۇچ قۇر</translation>
    </message>
    <message>
        <source>%1 File</source>
        <translation>%1 ھۆججىتى</translation>
    </message>
    <message>
        <source>Files of type:</source>
        <translation>ھۆججەت تىپى:</translation>
    </message>
    <message>
        <source>Find Directory</source>
        <translation>مۇندەرىجە ئىزدە</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>يوشۇرۇن ھۆججەتلەرنى كۆرسەت(&amp;H)</translation>
    </message>
    <message>
        <source>Save As</source>
        <translation>باشقا نامدا ساقلا</translation>
    </message>
    <message>
        <source>%1
Directory not found.
Please verify the correct directory name was given.</source>
        <translation>%1
مۇندەرىجە تېپىلمىدى.
مۇندەرىجە نامىنىڭ توغرىلىقىنى تەكشۈرۈڭ.</translation>
    </message>
    <message>
        <source>Sidebar</source>
        <translation>يان بالداق</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>تىزىملىك كۆرۈنۈشى</translation>
    </message>
    <message>
        <source>&amp;Choose</source>
        <translation>تاللا(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>ئۆچۈر(&amp;D)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>ھەممە ھۆججەتلەر (*)</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>ھەممە ھۆججەتلەر (*)</translation>
    </message>
    <message>
        <source>Directories</source>
        <translation>مۇندەرىجىلەر</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>ئات ئۆزگەرت(&amp;R)</translation>
    </message>
    <message>
        <source>Could not delete directory.</source>
        <translation>مۇندەرىجىنى ئۆچۈرەلمىدى.</translation>
    </message>
    <message>
        <source>Directory:</source>
        <translation>مۇندەرىجە:</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>نامەلۇم</translation>
    </message>
    <message>
        <source>%1 already exists.
Do you want to replace it?</source>
        <translation>%1 مەۋجۇت.
ئالماشتۇرامسىز؟</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>ئالدىغا</translation>
    </message>
    <message>
        <source>Go forward</source>
        <translation>ئالدىغا ماڭ</translation>
    </message>
    <message>
        <source>Go to the parent directory</source>
        <translation>ئۈستۈنكى مۇندەرىجىگە بار</translation>
    </message>
    <message>
        <source>Recent Places</source>
        <translation>يېقىنقى ئورۇنلار</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>كەينىگە قايت</translation>
    </message>
    <message>
        <source>Change to detail view mode</source>
        <translation>تەپسىلىي كۆرۈنۈشكە ئالماشتۇر</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>يېڭى قىسقۇچ قۇر</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>تەپسىلىي كۆرۈنۈش</translation>
    </message>
    <message>
        <source>%1
File not found.
Please verify the correct file name was given.</source>
        <translation>%1
ھۆججەت تېپىلمىدى.
ھۆججەت نامىنىڭ توغرىلىقىنى تەكشۈرۈڭ.</translation>
    </message>
    <message>
        <source>Change to list view mode</source>
        <translation>تىزىملىك كۆرۈنۈشىگە ئالماشتۇر</translation>
    </message>
    <message>
        <source>Show </source>
        <translation>كۆرسەت </translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Kind</source>
        <translation>خىلى</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>ئاتى</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>چوڭلۇقى</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>تىپى</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>كومپيۇتېرىم</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>كومپيۇتېر</translation>
    </message>
    <message>
        <source>Invalid filename</source>
        <translation>ھۆججەت نامى ئىناۋەتسىز</translation>
    </message>
    <message>
        <source>&lt;b&gt;The name &quot;%1&quot; cannot be used.&lt;/b&gt;&lt;p&gt;Try using another name, with fewer characters or no punctuation marks.</source>
        <translation>&lt;b&gt;&quot;%1&quot; دېگەن نامنى ئىشلىتىشكە بولمايدۇ.&lt;/b&gt;&lt;p&gt;ھەرپ سانى ئازراق ياكى تىنىش بەلگىسى يوق باشقا نام ئىشلىتىپ بېقىڭ.</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>ئۆزگەرتىلگەن ۋاقتى</translation>
    </message>
</context>
<context>
    <name>QGuiApplication</name>
    <message>
        <source>QT_LAYOUT_DIRECTION</source>
        <comment>Translate this string to the string &apos;LTR&apos; in left-to-right languages or to &apos;RTL&apos; in right-to-left languages (such as Hebrew and Arabic) to get proper widget layout.</comment>
        <translation>RTL</translation>
    </message>
</context>
<context>
    <name>QInputDialog</name>
    <message>
        <source>Enter a value:</source>
        <translation>قىممەت كىرگۈزۈڭ:</translation>
    </message>
</context>
<context>
    <name>QLineEdit</name>
    <message>
        <source>Cu&amp;t</source>
        <translation>كەس(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>كۆچۈر(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>قايتا قىل(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>يېنىۋال(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>چاپلا(&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>ئۆچۈر</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>ھەممىنى تاللا</translation>
    </message>
</context>
<context>
    <name>QMessageBox</name>
    <message>
        <source>Show Details...</source>
        <translation>تەپسىلاتىنى كۆرسەت...</translation>
    </message>
    <message>
        <source>Hide Details...</source>
        <translation>تەپسىلاتىنى يوشۇر...</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>جەزملە</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>ياق(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>ھەئە(&amp;Y)</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>ياردەم</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>ئاچ</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>ساقلا</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>توختات</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>قوللان</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>ياپ</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>قايتا تەڭشە</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>قايتا سىنا</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>كۆڭۈلدىكى قىممەتكە قايتۇر</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>ۋاز كەچ</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>ئېتىبارسىز قالدۇر</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>ھەممىگە ياق(&amp;O)</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>ھەممىنى ساقلا</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>تاشلىۋەت</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>ھەممىگە ھەئە(&amp;A)</translation>
    </message>
</context>
<context>
    <name>QProgressDialog</name>
    <message>
        <source>Cancel</source>
        <translation>ۋاز كەچ</translation>
    </message>
</context>
<context>
    <name>QScrollBar</name>
    <message>
        <source>Top</source>
        <translation>ئەڭ ئۈستى</translation>
    </message>
    <message>
        <source>Scroll down</source>
        <translation>ئاستىغا سىيرىش</translation>
    </message>
    <message>
        <source>Scroll here</source>
        <translation>بۇ يەرگە سىيرىش</translation>
    </message>
    <message>
        <source>Scroll left</source>
        <translation>سولغا سىيرىش</translation>
    </message>
    <message>
        <source>Bottom</source>
        <translation>ئەڭ ئاستى</translation>
    </message>
    <message>
        <source>Page up</source>
        <translation>ئالدىنقى بەت</translation>
    </message>
    <message>
        <source>Page right</source>
        <translation>ئوڭ بەت</translation>
    </message>
    <message>
        <source>Scroll up</source>
        <translation>ئۈستىگە سىيرىش</translation>
    </message>
    <message>
        <source>Scroll right</source>
        <translation>ئوڭغا سىيرىش</translation>
    </message>
    <message>
        <source>Left edge</source>
        <translation>سول گىرۋەك</translation>
    </message>
    <message>
        <source>Page down</source>
        <translation>كېيىنكى بەت</translation>
    </message>
    <message>
        <source>Page left</source>
        <translation>سول بەت</translation>
    </message>
    <message>
        <source>Right edge</source>
        <translation>ئوڭ گىرۋەك</translation>
    </message>
</context>
<context>
    <name>QTabBar</name>
    <message>
        <source>Scroll Left</source>
        <translation>سولغا سىيرىش</translation>
    </message>
    <message>
        <source>Scroll Right</source>
        <translation>ئوڭغا سىيرىش</translation>
    </message>
</context>
<context>
    <name>QUnicodeControlCharacterMenu</name>
    <message>
        <source>RLE Start of right-to-left embedding</source>
        <translation>RLE ئوڭدىن سولغا سىڭدۈرۈش باشلىنىشى</translation>
    </message>
    <message>
        <source>ZWSP Zero width space</source>
        <translation>ZWSP نۆل كەڭلىكتىكى بوشلۇق</translation>
    </message>
    <message>
        <source>LRI Left-to-right isolate</source>
        <translation>LRI سولدىن ئوڭغا ئايرىش</translation>
    </message>
    <message>
        <source>Insert Unicode control character</source>
        <translation>يۇنىكود كونترول ھەرپى قىستۇر</translation>
    </message>
    <message>
        <source>LRO Start of left-to-right override</source>
        <translation>LRO سولدىن ئوڭغا قاپلاش باشلىنىشى</translation>
    </message>
    <message>
        <source>LRE Start of left-to-right embedding</source>
        <translation>LRE سولدىن ئوڭغا سىڭدۈرۈش باشلىنىشى</translation>
    </message>
    <message>
        <source>RLI Right-to-left isolate</source>
        <translation>RLI ئوڭدىن سولغا ئايرىش</translation>
    </message>
    <message>
        <source>RLM Right-to-left mark</source>
        <translation>RLM ئوڭدىن سولغا بەلگىسى</translation>
    </message>
    <message>
        <source>PDF Pop directional formatting</source>
        <translation>PDF يۆنىلىش فورماتىنى ئاخىرلاشتۇرۇش</translation>
    </message>
    <message>
        <source>ZWNJ Zero width non-joiner</source>
        <translation>ZWNJ نۆل كەڭلىكتىكى ئۇلىماسلىق بەلگىسى</translation>
    </message>
    <message>
        <source>RLO Start of right-to-left override</source>
        <translation>RLO ئوڭدىن سولغا قاپلاش باشلىنىشى</translation>
    </message>
    <message>
        <source>PDI Pop directional isolate</source>
        <translation>PDI يۆنىلىش ئايرىشنى ئاخىرلاشتۇرۇش</translation>
    </message>
    <message>
        <source>ZWJ Zero width joiner</source>
        <translation>ZWJ نۆل كەڭلىكتىكى ئۇلاش بەلگىسى</translation>
    </message>
    <message>
        <source>LRM Left-to-right mark</source>
        <translation>LRM سولدىن ئوڭغا بەلگىسى</translation>
    </message>
    <message>
        <source>FSI First strong isolate</source>
        <translation>FSI تۇنجى كۈچلۈك ھەرپ بويىچە ئايرىش</translation>
    </message>
</context>
<context>
    <name>QWidgetTextControl</name>
    <message>
        <source>Cu&amp;t</source>
        <translation>كەس(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>كۆچۈر(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>قايتا قىل(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>يېنىۋال(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>چاپلا(&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>ئۆچۈر</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>ھەممىنى تاللا</translation>
    </message>
    <message>
        <source>Copy &amp;Link Location</source>
        <translation>ئۇلانما ئادرېسىنى كۆچۈر(&amp;L)</translation>
    </message>
</context>
<context>
    <name>ResetScenarioDialog</name>
    <message>
        <source>Demo: count reset</source>
        <translation>كۆرسىتىش: تەقسىمات سانىنى قايتا تەڭشەش</translation>
    </message>
    <message>
        <source>Seeds a fresh pool at the scenario key, runs steady allocations, evicts one member halfway, restores it with the chosen policy and keeps allocating. The dashboard switches to the scenario pool so the chart shows the restore and the flood (or its absence). Then the forecast is compared with what happened.</source>
        <translation>سىنارىيە ئاچقۇچىدا يېڭى كۆلچەككە ئەزا قوشىدۇ، مۇقىم تەقسىملەيدۇ، يېرىمىدا بىر ئەزانى چىقىرىۋېتىدۇ، تاللانغان سىياسەت بويىچە ئۇنى ئەسلىگە كەلتۈرىدۇ ۋە تەقسىملەشنى داۋاملاشتۇرىدۇ. كۆزىتىش تاختىسى سىنارىيە كۆلچىكىگە ئالمىشىدۇ، شۇڭا دىئاگرامما ئەسلىگە كەلتۈرۈش ۋە كەلكۈننى (ياكى ئۇنىڭ يوقلۇقىنى) كۆرسىتىدۇ. ئاندىن مۆلچەر بىلەن ئەمەلىي ئەھۋال سېلىشتۇرۇلىدۇ.</translation>
    </message>
    <message>
        <source>Restore policy</source>
        <translation>ئەسلىگە كەلتۈرۈش سىياسىتى</translation>
    </message>
    <message>
        <source>What the restored member&apos;s count becomes</source>
        <translation>ئەسلىگە كەلتۈرۈلگەن ئەزانىڭ تەقسىمات سانى نېمە بولىدۇ</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>ئەزالار</translation>
    </message>
    <message>
        <source>Size of the scenario pool (proxy-00, proxy-01, ...)</source>
        <translation>سىنارىيە كۆلچىكىنىڭ چوڭلۇقى (proxy-00، proxy-01، ...)</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>سۈرئەت</translation>
    </message>
    <message>
        <source>Steady allocations per second</source>
        <translation>سېكۇنتتىكى مۇقىم تەقسىمات</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> /سېكۇنت</translation>
    </message>
    <message>
        <source>Load before restore</source>
        <translation>ئەسلىگە كەلتۈرۈشتىن ئىلگىرىكى يۈك</translation>
    </message>
    <message>
        <source>Seconds of load before the restore; the member is evicted halfway</source>
        <translation>ئەسلىگە كەلتۈرۈشتىن ئىلگىرىكى يۈكنىڭ سېكۇنتى؛ ئەزا يېرىمىدا چىقىرىۋېتىلىدۇ</translation>
    </message>
    <message>
        <source> s</source>
        <translation> سېكۇنت</translation>
    </message>
    <message>
        <source>Load after restore</source>
        <translation>ئەسلىگە كەلتۈرۈشتىن كېيىنكى يۈك</translation>
    </message>
    <message>
        <source>Seconds of load after the restore</source>
        <translation>ئەسلىگە كەلتۈرۈشتىن كېيىنكى يۈكنىڭ سېكۇنتى</translation>
    </message>
    <message>
        <source>Scenario key</source>
        <translation>سىنارىيە ئاچقۇچى</translation>
    </message>
    <message>
        <source>The scenario writes its own pool here, replacing what is there</source>
        <translation>سىنارىيە ئۆز كۆلچىكىنى بۇ يەرگە يازىدۇ، بۇ يەردىكىنى ئالماشتۇرىدۇ</translation>
    </message>
    <message>
        <source>poolscope:reset-demo</source>
        <translation>poolscope:reset-demo</translation>
    </message>
    <message>
        <source>Time elapsed in the scenario</source>
        <translation>سىنارىيەدە ئۆتكەن ۋاقىت</translation>
    </message>
    <message>
        <source>The forecast next to what happened</source>
        <translation>مۆلچەر ۋە ئەمەلىي ئەھۋال يانمۇيان</translation>
    </message>
</context>
<context>
    <name>RestoreDialog</name>
    <message>
        <source>Restore evicted members</source>
        <translation>چىقىرىۋېتىلگەن ئەزالارنى ئەسلىگە كەلتۈرۈش</translation>
    </message>
    <message>
        <source>Restore with count</source>
        <translation>ئەسلىگە كەلتۈرۈلگەندىكى تەقسىمات سانى</translation>
    </message>
    <message>
        <source>What the restored member&apos;s count becomes</source>
        <translation>ئەسلىگە كەلتۈرۈلگەن ئەزانىڭ تەقسىمات سانى نېمە بولىدۇ</translation>
    </message>
    <message>
        <source>Starting count</source>
        <translation>باشلىنىش سانى</translation>
    </message>
    <message>
        <source>The agreed starting count, used by the &quot;start&quot; policy</source>
        <translation>كېلىشىلگەن باشلىنىش سانى، «باشلىنىش» سىياسىتى ئىشلىتىدۇ</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>Forecast</source>
        <translation>مۆلچەر</translation>
    </message>
    <message>
        <source>allocate.lua always picks the lowest count: a member restored below the pool minimum takes every allocation until it has caught up. Updated with every poll.</source>
        <translation>allocate.lua ھەمىشە ئەڭ تۆۋەن تەقسىمات سانىنى تاللايدۇ: كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتىدىن تۆۋەن ئەسلىگە كەلتۈرۈلگەن ئەزا يېتىشىۋالغۇچە ھەممە تەقسىماتنى ئالىدۇ. ھەر قېتىملىق سوراشتا يېڭىلىنىدۇ.</translation>
    </message>
</context>
<context>
    <name>RestorePolicy</name>
    <message>
        <source>keep</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy keep).</extracomment>
        <translation>ساقلاش</translation>
    </message>
    <message>
        <source>zero</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy zero).</extracomment>
        <translation>نۆل</translation>
    </message>
    <message>
        <source>start</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy start).</extracomment>
        <translation>باشلىنىش</translation>
    </message>
    <message>
        <source>min</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy min): the pool&apos;s minimum.</extracomment>
        <translation>ئەڭ تۆۋەن</translation>
    </message>
    <message>
        <source>keep: back at its saved count, where it left off</source>
        <translation>ساقلاش: ساقلانغان سانىغا قايتىدۇ، قالغان يېرىدىن داۋاملىشىدۇ</translation>
    </message>
    <message>
        <source>zero: back at 0; it takes every allocation until it catches up</source>
        <translation>نۆل: 0 گە قايتىدۇ؛ يېتىشكەنچە ھەر بىر تەقسىماتنى ئالىدۇ</translation>
    </message>
    <message>
        <source>start: back at the agreed starting count</source>
        <translation>باشلىنىش: كېلىشىلگەن باشلىنىش سانىغا قايتىدۇ</translation>
    </message>
    <message>
        <source>min: back at the pool&apos;s lowest count; joins the rotation, no flood</source>
        <translation>ئەڭ تۆۋەن: كۆلچەكتىكى ئەڭ تۆۋەن سانغا قايتىدۇ؛ ئايلانمىغا قوشۇلىدۇ، كەلكۈن يوق</translation>
    </message>
</context>
<context>
    <name>SeedDialog</name>
    <message>
        <source>Seed the pool</source>
        <translation>كۆلچەككە ئەزا قوشۇش</translation>
    </message>
    <message>
        <source>The pool this dialog writes to</source>
        <translation>بۇ سۆزلىشىش رامكىسى يازىدىغان كۆلچەك</translation>
    </message>
    <message>
        <source>Import a proxy list: open a file, paste it, or drop a file here. One proxy per line (host:port, scheme://host:port, CSV with a host/port header, or a JSON array). Nothing is written until you press Seed.</source>
        <translation>ۋاكالەتچى تىزىملىكىنى ئەكىرىش: ھۆججەت ئېچىڭ، ئۇنى چاپلاڭ ياكى ھۆججەتنى بۇ يەرگە تاشلاڭ. ھەر قۇردا بىر ۋاكالەتچى (host:port، scheme://host:port، host/port ماۋزۇلۇق CSV ياكى JSON سانلار گۇرپىسى). «ئەزا قوش» نى باسمىغۇچە ھېچنېمە يېزىلمايدۇ.</translation>
    </message>
    <message>
        <source>Read a proxy list from a file</source>
        <translation>ھۆججەتتىن ۋاكالەتچى تىزىملىكىنى ئوقۇش</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>ھۆججەت ئاچ…</translation>
    </message>
    <message>
        <source>Replace the text below with the clipboard</source>
        <translation>تۆۋەندىكى تېكىستنى چاپلاش تاختىسىدىكىسى بىلەن ئالماشتۇر</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>چاپلا</translation>
    </message>
    <message>
        <source>Reject private, loopback, link-local, CGNAT, multicast, reserved and documentation addresses, and IPv6 addresses that carry one (IPv4-mapped, 6to4, Teredo, NAT64)</source>
        <translation>شەخسىي، قايتما (loopback)، ئۇلىنىش-يەرلىك، CGNAT، كۆپ نىشانلىق، ساقلاپ قويۇلغان ۋە ھۆججەت ئادرېسلىرىنى، شۇنداقلا ئۇلارنى ئېلىپ يۈرىدىغان IPv6 ئادرېسلىرىنى (IPv4-mapped، 6to4، Teredo، NAT64) رەت قىل</translation>
    </message>
    <message>
        <source>Public addresses only</source>
        <translation>پەقەت ئاممىۋى ئادرېسلار</translation>
    </message>
    <message>
        <source>The proxy list. Drop a file or paste text here.</source>
        <translation>ۋاكالەتچى تىزىملىكى. ھۆججەتنى بۇ يەرگە تاشلاڭ ياكى تېكىست چاپلاڭ.</translation>
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
        <translation>قوبۇل قىلىنغان</translation>
    </message>
    <message>
        <source>Members that will be written, with the line they came from</source>
        <translation>يېزىلىدىغان ئەزالار، ئۇلار كەلگەن قۇر بىلەن</translation>
    </message>
    <message>
        <source>line</source>
        <translation>قۇر</translation>
    </message>
    <message>
        <source>member</source>
        <translation>ئەزا</translation>
    </message>
    <message>
        <source>note</source>
        <translation>ئىزاھات</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>رەت قىلىنغان</translation>
    </message>
    <message>
        <source>Lines that will not be written, and why (long reasons wrap; hover a row for the whole of it)</source>
        <translation>يېزىلمايدىغان قۇرلار ۋە سەۋەبى (ئۇزۇن سەۋەبلەر قۇر قاتلىنىدۇ؛ تولۇقىنى كۆرۈش ئۈچۈن قۇرنىڭ ئۈستىدە توختىتىڭ)</translation>
    </message>
    <message>
        <source>text</source>
        <translation>تېكىست</translation>
    </message>
    <message>
        <source>reason</source>
        <translation>سەۋەب</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>تەكرارلار</translation>
    </message>
    <message>
        <source>Members that occur more than once in the list: each is written once, from the line kept</source>
        <translation>تىزىملىكتە بىر قېتىمدىن كۆپ كۆرۈلگەن ئەزالار: ھەربىرى ساقلانغان قۇردىن بىر قېتىملا يېزىلىدۇ</translation>
    </message>
    <message>
        <source>kept line</source>
        <translation>ساقلانغان قۇر</translation>
    </message>
    <message>
        <source>times in the list</source>
        <translation>تىزىملىكتىكى قېتىم سانى</translation>
    </message>
    <message>
        <source>collapsed lines</source>
        <translation>بىرلەشتۈرۈلگەن قۇرلار</translation>
    </message>
    <message>
        <source>Starting count</source>
        <translation>باشلىنىش سانى</translation>
    </message>
    <message>
        <source>New members start at this count</source>
        <translation>يېڭى ئەزالار بۇ تەقسىمات سانىدىن باشلىنىدۇ</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>تەقسىمات سانى</translation>
    </message>
    <message>
        <source>A whole number from 0 to 2^53</source>
        <translation>0 دىن 2^53 كىچە پۈتۈن سان</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>New members start at the pool&apos;s lowest count when they are written: no flood</source>
        <translation>يېڭى ئەزالار يېزىلغاندا كۆلچەكنىڭ ئەڭ تۆۋەن تەقسىمات سانىدىن باشلىنىدۇ: كەلكۈن يوق</translation>
    </message>
    <message>
        <source>Pool minimum</source>
        <translation>كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى</translation>
    </message>
    <message>
        <source>Also reset the count of members that are already in the pool</source>
        <translation>كۆلچەكتە بار ئەزالارنىڭ تەقسىمات سانىنىمۇ قايتا تەڭشە</translation>
    </message>
    <message>
        <source>Reset members already in the pool</source>
        <translation>كۆلچەكتە بار ئەزالارنى قايتا تەڭشە</translation>
    </message>
    <message>
        <source>Members written so far</source>
        <translation>ھازىرغىچە يېزىلغان ئەزالار</translation>
    </message>
</context>
<context>
    <name>TestAllocationDialog</name>
    <message>
        <source>Test allocations</source>
        <translation>سىناق تەقسىمات</translation>
    </message>
    <message>
        <source>Allocate proxies the way workers do: allocate.lua by EVALSHA, each worker on its own connection. Every allocation really increments a count.</source>
        <translation>ۋاكالەتچىلەرنى خىزمەتچىلەردەك تەقسىملەش: EVALSHA ئارقىلىق allocate.lua، ھەر خىزمەتچى ئۆز ئۇلىنىشىدا. ھەر بىر تەقسىمات ھەقىقەتەن بىر تەقسىمات سانىنى ئاشۇرىدۇ.</translation>
    </message>
    <message>
        <source>Stop after this many allocations</source>
        <translation>مۇشۇنچە تەقسىماتتىن كېيىن توختا</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>تەقسىماتلار</translation>
    </message>
    <message>
        <source>How many allocations in all</source>
        <translation>جەمئىي قانچە تەقسىمات</translation>
    </message>
    <message>
        <source>Run for this long instead of a fixed number</source>
        <translation>مۇقىم ساننىڭ ئورنىغا مۇشۇنچە ۋاقىت ئىجرا قىل</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>داۋاملىشىش ۋاقتى</translation>
    </message>
    <message>
        <source>Seconds to run</source>
        <translation>ئىجرا قىلىدىغان سېكۇنت</translation>
    </message>
    <message>
        <source> s</source>
        <translation> سېكۇنت</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>خىزمەتچىلەر</translation>
    </message>
    <message>
        <source>Threads, each with its own Redis connection</source>
        <translation>ئىجرا ئىپلىرى، ھەربىرىنىڭ ئۆز Redis ئۇلىنىشى بار</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>تۇرۇبا لىنىيىسى</translation>
    </message>
    <message>
        <source>Allocations in flight per worker</source>
        <translation>ھەر خىزمەتچىنىڭ يولدىكى تەقسىماتلىرى</translation>
    </message>
    <message>
        <source>Rate limit</source>
        <translation>سۈرئەت چېكى</translation>
    </message>
    <message>
        <source>Allocations per second, all workers together; 0 = as fast as the server allows</source>
        <translation>سېكۇنتتىكى تەقسىمات، بارلىق خىزمەتچىلەر بىرلىكتە؛ 0 = مۇلازىمېتىر يول قويغان ئەڭ تېز سۈرئەت</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>چەكسىز</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> /سېكۇنت</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>ھالەت</translation>
    </message>
    <message>
        <source>The atomic script, or the naive ZRANGE then ZINCRBY (the race demo: counts collisions)</source>
        <translation>ئاتوم قوليازما، ياكى ساددا ZRANGE ئاندىن ZINCRBY (رىقابەت كۆرسىتىشى: توقۇنۇشلارنى سانايدۇ)</translation>
    </message>
    <message>
        <source>Allocations done</source>
        <translation>تاماملانغان تەقسىماتلار</translation>
    </message>
    <message>
        <source>Current allocation rate of this run</source>
        <translation>بۇ قېتىملىق ئىجرانىڭ ھازىرقى تەقسىمات سۈرئىتى</translation>
    </message>
    <message>
        <source>Summary of the last run</source>
        <translation>ئالدىنقى ئىجرانىڭ خۇلاسىسى</translation>
    </message>
</context>
<context>
    <name>WriteLock</name>
    <message>
        <source>Production</source>
        <translation>ئىشلەپچىقىرىش</translation>
    </message>
    <message>
        <source>Staging</source>
        <translation>سىناق</translation>
    </message>
    <message>
        <source>Development</source>
        <translation>ئېچىش</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>reopening the last connection %1 (poolscope --demo starts the demo instead)</source>
        <translation>ئالدىنقى ئۇلىنىش %1 قايتا ئېچىلىۋاتىدۇ (poolscope --demo ئۇنىڭ ئورنىغا كۆرسىتىشنى باشلايدۇ)</translation>
    </message>
    <message>
        <source>cannot start the embedded redis-server: %1. Or connect to a server with --url redis://host:6379/0.</source>
        <translation>ئىچكى redis-server نى قوزغىتالمىدى: %1. ياكى --url redis://host:6379/0 بىلەن بىر مۇلازىمېتىرغا ئۇلاڭ.</translation>
    </message>
    <message>
        <source>embedded redis-server started (pid %1, %2); it stops when poolscope exits</source>
        <translation>ئىچكى redis-server قوزغالدى (pid %1، %2)؛ poolscope چېكىنگەندە ئۇ توختايدۇ</translation>
    </message>
</context>
<context>
    <name>poolscope</name>
    <message>
        <source>choose the server&apos;s CA in File ▸ Connections... ▸ Edit... ▸ CA file</source>
        <translation>مۇلازىمېتىرنىڭ CA سىنى ھۆججەت ▸ ئۇلىنىشلار... ▸ تەھرىرلەش... ▸ CA ھۆججىتى دىن تاللاڭ</translation>
    </message>
    <message>
        <source>connect by one of those names, or enter the expected one in File ▸ Connections... ▸ Edit... ▸ Server name</source>
        <translation>شۇ ناملارنىڭ بىرى بىلەن ئۇلاڭ، ياكى كۈتۈلگەن نامنى ھۆججەت ▸ ئۇلىنىشلار... ▸ تەھرىرلەش... ▸ مۇلازىمېتىر نامى غا كىرگۈزۈڭ</translation>
    </message>
    <message>
        <source>check its fingerprint, then connect again and choose Trust, or tick &quot;Accept and record an unknown host key&quot; in File ▸ Connections... ▸ Edit...</source>
        <translation>ئۇنىڭ بارماق ئىزىنى تەكشۈرۈڭ، ئاندىن قايتا ئۇلىنىپ «ئىشەن» نى تاللاڭ، ياكى ھۆججەت ▸ ئۇلىنىشلار... ▸ تەھرىرلەش... دىكى «نامەلۇم ساھىبخانا ئاچقۇچىنى قوبۇل قىلىپ خاتىرىلە» نى بەلگىلەڭ</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertRules</name>
    <message>
        <source>Pool empty</source>
        <translation>كۆلچەك قۇرۇق</translation>
    </message>
    <message>
        <source>Few members</source>
        <translation>ئەزا ئاز</translation>
    </message>
    <message>
        <source>Fewest members</source>
        <translation>ئەڭ ئاز ئەزا سانى</translation>
    </message>
    <message>
        <source>Many evicted</source>
        <translation>كۆپ ئەزا چىقىرىۋېتىلگەن</translation>
    </message>
    <message>
        <source>Evicted share (%)</source>
        <translation>چىقىرىۋېتىلگەن ئۈلۈش (%)</translation>
    </message>
    <message>
        <source>One member floods</source>
        <translation>بىر ئەزا كەلكۈن پەيدا قىلىدۇ</translation>
    </message>
    <message>
        <source>Share of the allocations (%)</source>
        <translation>تەقسىماتتىكى ئۈلۈش (%)</translation>
    </message>
    <message>
        <source>Allocations in the window, at least</source>
        <translation>كۆزنەكتىكى تەقسىمات، ئەڭ ئاز</translation>
    </message>
    <message>
        <source>Members in the pool, at least</source>
        <translation>كۆلچەكتىكى ئەزا، ئەڭ ئاز</translation>
    </message>
    <message>
        <source>A member starves</source>
        <translation>بىر ئەزا ئاچ قالىدۇ</translation>
    </message>
    <message>
        <source>Without allocation for (s)</source>
        <translation>تەقسىماتسىز ۋاقىت (سېكۇنت)</translation>
    </message>
    <message>
        <source>While the pool allocated, per member, at least</source>
        <translation>كۆلچەك تەقسىملىگەن مىقدار، ھەر ئەزاغا، ئەڭ ئاز</translation>
    </message>
    <message>
        <source>Counts spread apart</source>
        <translation>سانلار ئارىسى يىراقلاشتى</translation>
    </message>
    <message>
        <source>Highest minus lowest count, at most</source>
        <translation>ئەڭ يۇقىرى ئېلىش ئەڭ تۆۋەن سان، ئەڭ كۆپ</translation>
    </message>
    <message>
        <source>Unfair pool</source>
        <translation>ئادىل بولمىغان كۆلچەك</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index, at least</source>
        <translation>Jain ئادىللىق كۆرسەتكۈچى، ئەڭ ئاز</translation>
    </message>
    <message>
        <source>Workers stopped</source>
        <translation>خىزمەتچىلەر توختىدى</translation>
    </message>
    <message>
        <source>Allocation rate changed</source>
        <translation>تەقسىمات سۈرئىتى ئۆزگەردى</translation>
    </message>
    <message>
        <source>Factor from the baseline</source>
        <translation>ئاساسىي سىزىققا نىسبەتەن ھەسسە</translation>
    </message>
    <message>
        <source>Baseline allocations/s, at least</source>
        <translation>ئاساسىي سىزىق تەقسىمات/سېكۇنت، ئەڭ ئاز</translation>
    </message>
    <message>
        <source>Guard at its cap</source>
        <translation>قوغدىغۇچى چېكىدە</translation>
    </message>
    <message>
        <source>No guard on duty</source>
        <translation>نۆۋەتچى قوغدىغۇچى يوق</translation>
    </message>
    <message>
        <source>Server unreachable</source>
        <translation>مۇلازىمېتىرغا يەتكىلى بولمايدۇ</translation>
    </message>
    <message>
        <source>Failover</source>
        <translation>زاپاسقا ئالمىشىش</translation>
    </message>
    <message>
        <source>Reported for (s)</source>
        <translation>دوكلات قىلىنىدىغان ۋاقىت (سېكۇنت)</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 سېكۇنت</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 مىنۇت</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 سائەت</translation>
    </message>
    <message>
        <source>The pool has no member: every allocation returns nil.</source>
        <translation>كۆلچەكتە ئەزا يوق: ھەر بىر تەقسىمات nil قايتۇرىدۇ.</translation>
    </message>
    <message>
        <source>Fewer than %1 members in the pool (but not none): each one left takes a large share of the load.</source>
        <translation>كۆلچەكتە %1 دىن ئاز ئەزا بار (لېكىن نۆل ئەمەس): قالغانلارنىڭ ھەربىرى يۈكنىڭ چوڭ ئۈلۈشىنى ئالىدۇ.</translation>
    </message>
    <message>
        <source>At least %1% of the pool&apos;s members are evicted (a guard at its default cap evicts no more).</source>
        <translation>كۆلچەك ئەزالىرىنىڭ كەم دېگەندە %1% ى چىقىرىۋېتىلگەن (كۆڭۈلدىكى چېكىدىكى قوغدىغۇچى ئۇنىڭدىن ئارتۇق چىقىرىۋەتمەيدۇ).</translation>
    </message>
    <message>
        <source>One member takes more than %1% of the last window&apos;s allocations (at least %2 of them, %3 members or more): the flood after a restore at count 0.</source>
        <translation>بىر ئەزا ئالدىنقى كۆزنەكتىكى تەقسىماتنىڭ %1% ىدىن كۆپىنى ئالىدۇ (ئۇلاردىن كەم دېگەندە %2، %3 ياكى ئۇنىڭدىن كۆپ ئەزا): تەقسىمات سانى 0 دە ئەسلىگە كەلتۈرۈلگەندىن كېيىنكى كەلكۈن.</translation>
    </message>
    <message>
        <source>A member has had no allocation for %1 while the pool made at least %2 per member: its count is far above the others&apos;.</source>
        <translation>كۆلچەك ھەر ئەزاغا كەم دېگەندە %2 تەقسىمات قىلغان ۋاقىتتا، بىر ئەزا %1 تەقسىمات ئالمىدى: ئۇنىڭ سانى باشقىلارنىڭكىدىن خېلى يۇقىرى.</translation>
    </message>
    <message>
        <source>The highest and the lowest count are more than %1 apart.</source>
        <translation>ئەڭ يۇقىرى ۋە ئەڭ تۆۋەن سان ئارىسىدىكى پەرق %1 دىن كۆپ.</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index of the counts is below %1.</source>
        <translation>تەقسىمات سانلىرىنىڭ Jain ئادىللىق كۆرسەتكۈچى %1 دىن تۆۋەن.</translation>
    </message>
    <message>
        <source>No allocation at all while the pool has members: the workers have stopped or cannot reach Redis.</source>
        <translation>كۆلچەكتە ئەزا بار تۇرۇپ ھېچقانداق تەقسىمات يوق: خىزمەتچىلەر توختىغان ياكى Redis قا يېتەلمەيدۇ.</translation>
    </message>
    <message>
        <source>The allocation rate is %1 times above or below its baseline (the minutes before; at least %2 allocations/s).</source>
        <translation>تەقسىمات سۈرئىتى ئاساسىي سىزىقىدىن %1 ھەسسە يۇقىرى ياكى تۆۋەن (ئالدىنقى مىنۇتلار؛ كەم دېگەندە %2 تەقسىمات/سېكۇنت).</translation>
    </message>
    <message>
        <source>The guard holds back evictions at its cap: the target or the network looks down.</source>
        <translation>قوغدىغۇچى چېكىدە چىقىرىۋېتىشنى توختىتىپ تۇرىدۇ: نىشان ياكى تور ئىشلىمەيۋاتقاندەك.</translation>
    </message>
    <message>
        <source>A guard watched this pool in the last day, but none holds its lease now: dead members are neither evicted nor restored.</source>
        <translation>ئالدىنقى بىر كۈندە بىر قوغدىغۇچى بۇ كۆلچەكنى كۆزەتكەن، لېكىن ھازىر ھېچقايسىسى ئۇنىڭ ئىجارىسىنى تۇتمايدۇ: ئۆلگەن ئەزالار چىقىرىۋېتىلمەيدۇ ۋە ئەسلىگە كەلتۈرۈلمەيدۇ.</translation>
    </message>
    <message>
        <source>The Redis server cannot be reached.</source>
        <translation>Redis مۇلازىمېتىرىغا يەتكىلى بولمايدۇ.</translation>
    </message>
    <message>
        <source>The pool moved to another server: the Sentinel primary changed or the cluster slot moved (reported for %1).</source>
        <translation>كۆلچەك باشقا مۇلازىمېتىرغا يۆتكەلدى: Sentinel ئاساسىي مۇلازىمېتىرى ئۆزگەردى ياكى توپنىڭ slot ى يۆتكەلدى (%1 دوكلات قىلىنىدۇ).</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertRulesDialog</name>
    <message>
        <source> s</source>
        <translation> سېكۇنت</translation>
    </message>
    <message>
        <source>Alert rules</source>
        <translation>ئاگاھلاندۇرۇش قائىدىلىرى</translation>
    </message>
    <message>
        <source>An alert is pending while its condition holds, fires once it has held for the rule&apos;s &quot;for&quot; time, and resolves once the condition has been gone for its &quot;keep firing&quot; time. The defaults are on for every pool; unticked rules are not judged.</source>
        <translation>شەرت ئەمەلدە بولغاندا ئاگاھلاندۇرۇش كۈتۈۋاتقان ھالەتتە تۇرىدۇ، قائىدىنىڭ «داۋاملىشىش» ۋاقتىچە ئەمەلدە تۇرسا قوزغىلىدۇ، شەرت «قوزغالغان ھالەتتە تۇرۇش» ۋاقتىچە يوقالغاندىن كېيىن ھەل بولىدۇ. كۆڭۈلدىكى قائىدىلەر ھەر بىر كۆلچەك ئۈچۈن ئوچۇق؛ بەلگە قويۇلمىغان قائىدىلەر باھالانمايدۇ.</translation>
    </message>
    <message>
        <source>On</source>
        <translation>ئوچۇق</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>قائىدە</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>ئېغىرلىق دەرىجىسى</translation>
    </message>
    <message>
        <source>For</source>
        <translation>داۋاملىشىش</translation>
    </message>
    <message>
        <source>Keep firing</source>
        <translation>قوزغالغان ھالەتتە تۇرۇش</translation>
    </message>
    <message>
        <source>Thresholds</source>
        <translation>چەك قىممەتلىرى</translation>
    </message>
    <message>
        <source>This connection was typed in, not saved: the rules apply to this window until it closes.</source>
        <translation>بۇ ئۇلىنىش قولدا كىرگۈزۈلگەن، ساقلانمىغان: قائىدىلەر بۇ كۆزنەك يېپىلغۇچە كۈچكە ئىگە.</translation>
    </message>
    <message>
        <source>Saved with the connection &quot;%1&quot;, for the pool %2.</source>
        <translation>&quot;%1&quot; ئۇلىنىشى بىلەن %2 كۆلچىكى ئۈچۈن ساقلاندى.</translation>
    </message>
    <message>
        <source>%1 on</source>
        <translation>%1 ئوچۇق</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>دىققەت</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>جىددىي</translation>
    </message>
    <message>
        <source>%1: %2 It fires after %3 and resolves %4 after it is gone.</source>
        <translation>%1: %2 %3 دىن كېيىن قوزغىلىدۇ، يوقالغاندىن %4 كېيىن ھەل بولىدۇ.</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertTray</name>
    <message>
        <source>Keep watching in the &amp;tray when closed</source>
        <translation>يېپىلغاندا ئۇقتۇرۇش رايونىدا كۆزىتىشنى داۋاملاشتۇر(&amp;T)</translation>
    </message>
    <message>
        <source>This desktop has no system tray: closing the window ends poolscope.</source>
        <translation>بۇ ئۈستەلئۈستىدە ئۇقتۇرۇش رايونى يوق: كۆزنەكنى يېپىش poolscope نى ئاخىرلاشتۇرىدۇ.</translation>
    </message>
    <message>
        <source>Closing the window hides it: the pool is still watched and its alerts still shown. Quit from the tray icon&apos;s menu.</source>
        <translation>كۆزنەكنى يېپىش ئۇنى يوشۇرىدۇ: كۆلچەك يەنىلا كۆزىتىلىدۇ ۋە ئۇنىڭ ئاگاھلاندۇرۇشلىرى يەنىلا كۆرسىتىلىدۇ. ئۇقتۇرۇش رايونىدىكى سىنبەلگىنىڭ تىزىملىكىدىن چېكىنىڭ.</translation>
    </message>
    <message>
        <source>&amp;Show window</source>
        <translation>كۆزنەكنى كۆرسەت(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Quit poolscope</source>
        <translation>poolscope دىن چېكىن(&amp;Q)</translation>
    </message>
    <message>
        <source>poolscope: %1
No alert firing.</source>
        <translation>poolscope: %1
قوزغالغان ئاگاھلاندۇرۇش يوق.</translation>
    </message>
    <message numerus="yes">
        <source>poolscope: %1
%n alert(s) firing: %2</source>
        <translation>
            <numerusform>poolscope: %1
%n ئاگاھلاندۇرۇش قوزغالدى: %2</numerusform>
            <numerusform>poolscope: %1
%n ئاگاھلاندۇرۇش قوزغالدى: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>poolscope: no live pool watched</source>
        <translation>poolscope: كۆزىتىلىۋاتقان جانلىق كۆلچەك يوق</translation>
    </message>
    <message>
        <source>poolscope is still watching</source>
        <translation>poolscope يەنىلا كۆزىتىۋاتىدۇ</translation>
    </message>
    <message>
        <source>The window is closed; alerts still come here. Quit from this icon&apos;s menu.</source>
        <translation>كۆزنەك يېپىلدى؛ ئاگاھلاندۇرۇشلار يەنىلا بۇ يەرگە كېلىدۇ. بۇ سىنبەلگىنىڭ تىزىملىكىدىن چېكىنىڭ.</translation>
    </message>
</context>
<context>
    <name>poolscope::Alerts</name>
    <message>
        <source>the server cannot be reached: nothing is known of the pool now</source>
        <translation>مۇلازىمېتىرغا يەتكىلى بولمايدۇ: ھازىر كۆلچەك ھەققىدە ھېچنېمە مەلۇم ئەمەس</translation>
    </message>
    <message>
        <source>not connected yet</source>
        <translation>تېخى ئۇلانمىدى</translation>
    </message>
    <message>
        <source>no poll yet</source>
        <translation>تېخى سورالمىدى</translation>
    </message>
    <message>
        <source>pool %1 is empty: every allocation returns nil</source>
        <translation>%1 كۆلچىكى قۇرۇق: ھەر بىر تەقسىمات nil قايتۇرىدۇ</translation>
    </message>
    <message>
        <source>pool %1 has %2 members</source>
        <translation>%1 كۆلچىكىدە %2 ئەزا بار</translation>
    </message>
    <message>
        <source>counts spread by %1 (highest %2, lowest %3; at most %4)</source>
        <translation>سانلار %1 پەرقلىنىدۇ (ئەڭ يۇقىرى %2، ئەڭ تۆۋەن %3؛ ئەڭ كۆپ %4)</translation>
    </message>
    <message>
        <source>Jain&apos;s index unknown until the first totals scan is through</source>
        <translation>تۇنجى جەمئىي سىكانىرلاش تۈگىگۈچە Jain كۆرسەتكۈچى نامەلۇم</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index %1 (at least %2)</source>
        <translation>Jain ئادىللىق كۆرسەتكۈچى %1 (ئەڭ ئاز %2)</translation>
    </message>
    <message>
        <source>pool %1 has %2 members (at least %3 wanted)</source>
        <translation>%1 كۆلچىكىدە %2 ئەزا بار (ئەڭ ئاز %3 تەلەپ قىلىنىدۇ)</translation>
    </message>
    <message>
        <source>%1 of the members evicted (%2 of %3; below %4% wanted)</source>
        <translation>ئەزالارنىڭ %1 ى چىقىرىۋېتىلگەن (%3 تىن %2؛ %4% تىن تۆۋەن تەلەپ قىلىنىدۇ)</translation>
    </message>
    <message>
        <source>no allocations measured yet (two polls are needed)</source>
        <translation>تېخى تەقسىمات ئۆلچەنمىدى (ئىككى قېتىم سوراش كېرەك)</translation>
    </message>
    <message>
        <source>%1 members: too few to tell a flood</source>
        <translation>%1 ئەزا: كەلكۈننى بىلىشكە بەك ئاز</translation>
    </message>
    <message>
        <source>%1 allocations in the last %2: too few to tell a flood</source>
        <translation>ئالدىنقى %2 دە %1 تەقسىمات: كەلكۈننى بىلىشكە بەك ئاز</translation>
    </message>
    <message>
        <source>%1 took %2 of the last %3&apos;s allocations (%4 of %5; at most %6% wanted)</source>
        <translation>%1 ئالدىنقى %3 دىكى تەقسىماتنىڭ %2 ىنى ئالدى (%5 تىن %4؛ ئەڭ كۆپ %6% تەلەپ قىلىنىدۇ)</translation>
    </message>
    <message>
        <source>one poll only: no member can be seen idle yet</source>
        <translation>پەقەت بىر قېتىم سورالدى: بىكار ئەزا تېخى كۆرۈنمەيدۇ</translation>
    </message>
    <message>
        <source>no member starves</source>
        <translation>ئاچ قالغان ئەزا يوق</translation>
    </message>
    <message>
        <source>%1 has had no allocation for %2 while the pool made %3 (starved after %4 and %5)</source>
        <translation>كۆلچەك %3 تەقسىمات قىلغان ۋاقىتتا %1 %2 تەقسىمات ئالمىدى (%4 ۋە %5 دىن كېيىن ئاچ قالغان)</translation>
    </message>
    <message>
        <source>the pool is empty: nothing to allocate</source>
        <translation>كۆلچەك قۇرۇق: تەقسىملەيدىغان نەرسە يوق</translation>
    </message>
    <message>
        <source>%1 allocations in the last %2 (%3/s)</source>
        <translation>ئالدىنقى %2 دە %1 تەقسىمات (%3/سېكۇنت)</translation>
    </message>
    <message>
        <source>no baseline yet (it takes minutes of polls)</source>
        <translation>تېخى ئاساسىي سىزىق يوق (بىر نەچچە مىنۇتلۇق سوراش كېرەك)</translation>
    </message>
    <message>
        <source>%1 allocations/s now, %2/s before</source>
        <translation>ھازىر %1 تەقسىمات/سېكۇنت، ئىلگىرى %2/سېكۇنت</translation>
    </message>
    <message>
        <source>the guard&apos;s lease and events were not read</source>
        <translation>قوغدىغۇچىنىڭ ئىجارىسى ۋە ھادىسىلىرى ئوقۇلمىدى</translation>
    </message>
    <message>
        <source>no guard watches this pool</source>
        <translation>بۇ كۆلچەكنى ھېچقانداق قوغدىغۇچى كۆزەتمەيدۇ</translation>
    </message>
    <message>
        <source>the guard holds back evictions at its cap: %1</source>
        <translation>قوغدىغۇچى چېكىدە چىقىرىۋېتىشنى توختىتىپ تۇرىدۇ: %1</translation>
    </message>
    <message>
        <source>the guard is not held back</source>
        <translation>قوغدىغۇچى توختىتىلمىغان</translation>
    </message>
    <message>
        <source>guard %1 holds the lease</source>
        <translation>%1 قوغدىغۇچى ئىجارىنى تۇتىدۇ</translation>
    </message>
    <message>
        <source>no guard holds the lease on pool %1</source>
        <translation>%1 كۆلچىكىنىڭ ئىجارىسىنى ھېچقانداق قوغدىغۇچى تۇتمايدۇ</translation>
    </message>
    <message>
        <source>the server answers</source>
        <translation>مۇلازىمېتىر جاۋاب بېرىدۇ</translation>
    </message>
    <message>
        <source>the server has not answered for %1: %2</source>
        <translation>مۇلازىمېتىر %1 دىن بېرى جاۋاب بەرمىدى: %2</translation>
    </message>
    <message>
        <source>no failover seen</source>
        <translation>زاپاسقا ئالمىشىش كۆرۈلمىدى</translation>
    </message>
    <message>
        <source>the Sentinel primary changed from %1 to %2 %3 ago</source>
        <translation>Sentinel ئاساسىي مۇلازىمېتىرى %3 بۇرۇن %1 دىن %2 گە ئۆزگەردى</translation>
    </message>
    <message>
        <source>the pool&apos;s cluster slot moved from %1 to %2 %3 ago</source>
        <translation>كۆلچەكنىڭ توپ slot ى %3 بۇرۇن %1 دىن %2 گە يۆتكەلدى</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertsPanel</name>
    <message>
        <source>&amp;Rules…</source>
        <translation>قائىدىلەر(&amp;R)…</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>ئاگاھلاندۇرۇش</translation>
    </message>
    <message>
        <source>State</source>
        <translation>ھالەت</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>باشلانغان ۋاقىت</translation>
    </message>
    <message>
        <source>Value now</source>
        <translation>ھازىرقى قىممەت</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>ئېغىرلىق دەرىجىسى</translation>
    </message>
    <message>
        <source>What</source>
        <translation>مەزمۇن</translation>
    </message>
    <message>
        <source>Active alerts</source>
        <translation>ئاكتىپ ئاگاھلاندۇرۇشلار</translation>
    </message>
    <message>
        <source>Edit this pool&apos;s alert rules</source>
        <translation>بۇ كۆلچەكنىڭ ئاگاھلاندۇرۇش قائىدىلىرىنى تەھرىرلەش</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="vanished">%1: %2</translation>
    </message>
    <message>
        <source>the alert rules could not be saved in &quot;%1&quot;: %2</source>
        <translation>ئاگاھلاندۇرۇش قائىدىلىرىنى &quot;%1&quot; غا ساقلىيالمىدى: %2</translation>
    </message>
    <message>
        <source>alert rules saved in the connection &quot;%1&quot;</source>
        <translation>ئاگاھلاندۇرۇش قائىدىلىرى &quot;%1&quot; ئۇلىنىشىغا ساقلاندى</translation>
    </message>
    <message>
        <source>firing</source>
        <translation>قوزغالدى</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>كۈتۈۋاتىدۇ</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>جىددىي</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>دىققەت</translation>
    </message>
    <message>
        <source>No live pool watched: no alerts are judged.</source>
        <translation>كۆزىتىلىۋاتقان جانلىق كۆلچەك يوق: ئاگاھلاندۇرۇش باھالانمايدۇ.</translation>
    </message>
    <message numerus="yes">
        <source>No alert: %n rule(s) watching this pool.</source>
        <translation>
            <numerusform>ئاگاھلاندۇرۇش يوق: %n قائىدە بۇ كۆلچەكنى كۆزىتىۋاتىدۇ.</numerusform>
            <numerusform>ئاگاھلاندۇرۇش يوق: %n قائىدە بۇ كۆلچەكنى كۆزىتىۋاتىدۇ.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n alert(s) firing, %1 pending.</source>
        <translation>
            <numerusform>%n ئاگاھلاندۇرۇش قوزغالدى، %1 كۈتۈۋاتىدۇ.</numerusform>
            <numerusform>%n ئاگاھلاندۇرۇش قوزغالدى، %1 كۈتۈۋاتىدۇ.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::AuditView</name>
    <message>
        <source>seed</source>
        <translation>ئەزا قوشۇش</translation>
    </message>
    <message>
        <source>evict</source>
        <translation>چىقىرىۋېتىش</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>ئەسلىگە كەلتۈرۈش</translation>
    </message>
    <message>
        <source>evicted hash moved</source>
        <translation>چىقىرىۋېتىلگەنلەر hash ى كونا نامىدىن يۆتكەلدى</translation>
    </message>
    <message>
        <source>guard held back</source>
        <translation>قوغدىغۇچى چىقىرىۋېتىشنى توختىتىپ تۇردى</translation>
    </message>
    <message>
        <source>guard no longer held back</source>
        <translation>قوغدىغۇچى ئەمدى چىقىرىۋېتىشنى توختىتىپ تۇرمايدۇ</translation>
    </message>
    <message>
        <source>&amp;Search</source>
        <translation>ئىزدە(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>CSV غا ئېكسپورت قىل(&amp;E)…</translation>
    </message>
    <message>
        <source>Audit trail: %1</source>
        <translation>تەپتىش خاتىرىسى: %1</translation>
    </message>
    <message>
        <source>part of a member id</source>
        <translation>ئەزا كىملىكىنىڭ بىر قىسمى</translation>
    </message>
    <message>
        <source>user, host, program or guard</source>
        <translation>ئىشلەتكۈچى، ماشىنا، پروگرامما ياكى قوغدىغۇچى</translation>
    </message>
    <message>
        <source>any action</source>
        <translation>ھەرقانداق مەشغۇلات</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>ۋاقىت</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>مەشغۇلات</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>ئەزالار</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>تەقسىمات سانى</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>ئىجراچى</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>سەۋەب</translation>
    </message>
    <message>
        <source>Audit entries</source>
        <translation>تەپتىش خاتىرىلىرى</translation>
    </message>
    <message>
        <source>&amp;Member:</source>
        <translation>ئەزا(&amp;M):</translation>
    </message>
    <message>
        <source>Ac&amp;tor:</source>
        <translation>ئىجراچى(&amp;T):</translation>
    </message>
    <message>
        <source>Acti&amp;on:</source>
        <translation>مەشغۇلات(&amp;O):</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(ies) found</source>
        <translation>
            <numerusform>%n خاتىرە تېپىلدى</numerusform>
            <numerusform>%n خاتىرە تېپىلدى</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 among %2 read: the whole trail.</source>
        <translation>%2 ئوقۇلغاننىڭ ئىچىدە %1: پۈتۈن خاتىرە.</translation>
    </message>
    <message>
        <source>%1: stopped there, narrow the filters to see older ones.</source>
        <translation>%1: شۇ يەردە توختىدى، كونىراقلىرىنى كۆرۈش ئۈچۈن سۈزگۈچنى تارايتىڭ.</translation>
    </message>
    <message>
        <source>The trail could not be read: %1</source>
        <translation>خاتىرىنى ئوقۇيالمىدى: %1</translation>
    </message>
    <message>
        <source>No live pool watched: there is no trail to read.</source>
        <translation>كۆزىتىلىۋاتقان جانلىق كۆلچەك يوق: ئوقۇيدىغان خاتىرە يوق.</translation>
    </message>
    <message>
        <source>Reading the trail…</source>
        <translation>خاتىرە ئوقۇلۇۋاتىدۇ…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Export the audit entries</source>
        <translation>تەپتىش خاتىرىلىرىنى ئېكسپورت قىلىش</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ھۆججەتلىرى (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>%1 غا ئېكسپورت قىلىندى.</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>ئېكسپورت قىلىنمىدى: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::ChartFrame</name>
    <message>
        <source>pool allocations/s</source>
        <translation>كۆلچەك تەقسىماتى/سېكۇنت</translation>
    </message>
    <message>
        <source>allocations/s</source>
        <translation>تەقسىمات/سېكۇنت</translation>
    </message>
    <message>
        <source>count − median</source>
        <translation>سان − ئوتتۇرا قىممەت</translation>
    </message>
    <message>
        <source>allocations (count)</source>
        <translation>تەقسىمات (سان)</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>ئۇلانمىدى</translation>
    </message>
    <message>
        <source>No connection to Redis: retrying…</source>
        <translation>Redis قا ئۇلىنىش يوق: قايتا سىنىلىۋاتىدۇ…</translation>
    </message>
    <message>
        <source>Not connected (the events panel says why)</source>
        <translation>ئۇلانمىدى (سەۋەبىنى ھادىسىلەر تاختىسى كۆرسىتىدۇ)</translation>
    </message>
    <message>
        <source>Reading the pool fails: %1</source>
        <translation>كۆلچەكنى ئوقۇش مەغلۇپ بولدى: %1</translation>
    </message>
    <message>
        <source>Waiting for the first poll…</source>
        <translation>بىرىنچى سوراش كۈتۈلۈۋاتىدۇ…</translation>
    </message>
    <message>
        <source>No pool at this key yet: Seed… to add proxies</source>
        <translation>بۇ ئاچقۇچتا تېخى كۆلچەك يوق: ۋاكالەتچى قوشۇش ئۈچۈن «ئەزا قوش…»</translation>
    </message>
    <message>
        <source>Collecting data…</source>
        <translation>سانلىق مەلۇمات توپلىنىۋاتىدۇ…</translation>
    </message>
    <message>
        <source>%1 members</source>
        <translation type="vanished">%1 ئەزا</translation>
    </message>
    <message>
        <source>%1 members (summary): top %2, %3 pinned, the bottom as the pool minimum line + band</source>
        <translation type="vanished">%1 ئەزا (خۇلاسە): ئەڭ يۇقىرى %2، %3 مۇقىملانغان، ئاستىدىكىلەر كۆلچەكنىڭ ئەڭ تۆۋەن قىممەت سىزىقى + بەلۋاغ بىلەن</translation>
    </message>
    <message>
        <source>%1 members (summary): top %2, %3 pinned</source>
        <translation type="vanished">%1 ئەزا (خۇلاسە): ئەڭ يۇقىرى %2، %3 مۇقىملانغان</translation>
    </message>
    <message>
        <source>%1 members: top %2, bottom %2, %3 pinned + min/median/max band</source>
        <translation type="vanished">%1 ئەزا: ئەڭ يۇقىرى %2، ئەڭ تۆۋەن %2، %3 مۇقىملانغان + ئەڭ تۆۋەن/ئوتتۇرا/ئەڭ يۇقىرى بەلۋاغ</translation>
    </message>
    <message>
        <source>%1 members: top %2, bottom %2, %3 pinned</source>
        <translation type="vanished">%1 ئەزا: ئەڭ يۇقىرى %2، ئەڭ تۆۋەن %2، %3 مۇقىملانغان</translation>
    </message>
    <message>
        <source> · %1 hidden</source>
        <translation type="vanished"> · %1 يوشۇرۇلغان</translation>
    </message>
    <message>
        <source> · zoomed in: Esc or a right click to zoom out</source>
        <translation type="vanished"> · چوڭايتىلدى: كىچىكلىتىش ئۈچۈن Esc ياكى ئوڭ چېكىش</translation>
    </message>
    <message>
        <source> · legend hidden (narrow): colours as in the table</source>
        <translation type="vanished"> · چۈشەندۈرۈش يوشۇرۇلدى (تار): رەڭلەر جەدۋەلدىكىدەك</translation>
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
        <translation>كۆلچەك سۈرئىتى (/سېكۇنت، ئوڭ ئوق)</translation>
    </message>
    <message>
        <source>pool min–max − median (%1)</source>
        <translation type="vanished">كۆلچەك ئەڭ تۆۋەن–ئەڭ يۇقىرى − ئوتتۇرا قىممەت (%1)</translation>
    </message>
    <message>
        <source>pool min–max (%1)</source>
        <translation type="vanished">كۆلچەك ئەڭ تۆۋەن–ئەڭ يۇقىرى (%1)</translation>
    </message>
    <message>
        <source>pool median (0)</source>
        <translation>كۆلچەك ئوتتۇرا قىممىتى (0)</translation>
    </message>
    <message>
        <source>pool median</source>
        <translation>كۆلچەك ئوتتۇرا قىممىتى</translation>
    </message>
    <message>
        <source>pool minimum − median</source>
        <translation>كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى − ئوتتۇرا قىممەت</translation>
    </message>
    <message>
        <source>pool minimum</source>
        <translation>كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>يەنە +%n (جەدۋەلگە قاراڭ)</numerusform>
            <numerusform>يەنە +%n (جەدۋەلگە قاراڭ)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members</source>
        <comment>the chart&apos;s caption: all of them are charted</comment>
        <translation>
            <numerusform>%Ln ئەزا</numerusform>
            <numerusform>%Ln ئەزا</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln ئەزا (خۇلاسە): ئەڭ يۇقىرى %1، %2 مۇقىملانغان</numerusform>
            <numerusform>%Ln ئەزا (خۇلاسە): ئەڭ يۇقىرى %1، %2 مۇقىملانغان</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned, the bottom as the pool minimum line + band</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln ئەزا (خۇلاسە): ئەڭ يۇقىرى %1، %2 مۇقىملانغان، ئاستىدىكىلەر كۆلچەكنىڭ ئەڭ تۆۋەن قىممەت سىزىقى + بەلۋاغ بىلەن</numerusform>
            <numerusform>%Ln ئەزا (خۇلاسە): ئەڭ يۇقىرى %1، %2 مۇقىملانغان، ئاستىدىكىلەر كۆلچەكنىڭ ئەڭ تۆۋەن قىممەت سىزىقى + بەلۋاغ بىلەن</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln ئەزا: ئەڭ يۇقىرى %1، ئەڭ تۆۋەن %1، %2 مۇقىملانغان</numerusform>
            <numerusform>%Ln ئەزا: ئەڭ يۇقىرى %1، ئەڭ تۆۋەن %1، %2 مۇقىملانغان</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned + min/median/max band</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln ئەزا: ئەڭ يۇقىرى %1، ئەڭ تۆۋەن %1، %2 مۇقىملانغان + ئەڭ تۆۋەن/ئوتتۇرا/ئەڭ يۇقىرى بەلۋاغ</numerusform>
            <numerusform>%Ln ئەزا: ئەڭ يۇقىرى %1، ئەڭ تۆۋەن %1، %2 مۇقىملانغان + ئەڭ تۆۋەن/ئوتتۇرا/ئەڭ يۇقىرى بەلۋاغ</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln hidden</source>
        <comment>the chart&apos;s caption: lines hidden from the chart</comment>
        <translation>
            <numerusform>%Ln يوشۇرۇلغان</numerusform>
            <numerusform>%Ln يوشۇرۇلغان</numerusform>
        </translation>
    </message>
    <message>
        <source>zoomed in: Esc or a right click to zoom out</source>
        <translation>چوڭايتىلدى: كىچىكلىتىش ئۈچۈن Esc ياكى ئوڭ چېكىش</translation>
    </message>
    <message>
        <source>legend hidden (narrow): colours as in the table</source>
        <translation>چۈشەندۈرۈش يوشۇرۇلدى (تار): رەڭلەر جەدۋەلدىكىدەك</translation>
    </message>
    <message>
        <source>pool min–max − median (%1)</source>
        <comment>legend: the band of the pool&apos;s counts (scores) minus their median; %1: how many members the pool has</comment>
        <translation>كۆلچەك ئەڭ تۆۋەن–ئەڭ يۇقىرى − ئوتتۇرا قىممەت (%1)</translation>
    </message>
    <message>
        <source>pool min–max (%1)</source>
        <comment>legend: the band from the pool&apos;s lowest to its highest count (score); %1: how many members the pool has</comment>
        <translation>كۆلچەك ئەڭ تۆۋەن–ئەڭ يۇقىرى (%1)</translation>
    </message>
</context>
<context>
    <name>poolscope::ChartPanel</name>
    <message>
        <source>pool allocations/s</source>
        <translation>كۆلچەك تەقسىماتى/سېكۇنت</translation>
    </message>
    <message>
        <source>pool rate (/s, right axis)</source>
        <translation type="vanished">كۆلچەك سۈرئىتى (/سېكۇنت، ئوڭ ئوق)</translation>
    </message>
    <message>
        <source>In a big pool ▲ marks the most allocated members, ▼ the ones allocated next. The dotted grey line is the pool&apos;s allocation rate (right axis).</source>
        <translation>چوڭ كۆلچەكتە ▲ ئەڭ كۆپ تەقسىملەنگەن ئەزالارنى، ▼ كېيىنكى نۆۋەتتە تەقسىملىنىدىغانلارنى بەلگىلەيدۇ. چېكىتلىك كۈلرەڭ سىزىق كۆلچەكنىڭ تەقسىمات سۈرئىتى (ئوڭ ئوق).</translation>
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
        <translation>دىئاگرامما قايسى ئەزالارنى كۆرسىتىدۇ</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation type="vanished">
            <numerusform>يەنە +%n (جەدۋەلگە قاراڭ)</numerusform>
            <numerusform>يەنە +%n (جەدۋەلگە قاراڭ)</numerusform>
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
        <translation>ۋاقىت</translation>
    </message>
    <message>
        <source>pool min–max</source>
        <comment>legend: the band from the pool&apos;s lowest to its highest allocation count (score)</comment>
        <translation>كۆلچەك ئەڭ تۆۋەن–ئەڭ يۇقىرى</translation>
    </message>
    <message>
        <source>Click a legend entry to hide or show its line; pin members from the table (%1) to keep them charted</source>
        <translation>سىزىقىنى يوشۇرۇش ياكى كۆرسىتىش ئۈچۈن چۈشەندۈرۈشتىكى بىر تۈرنى چېكىڭ؛ ئەزالارنى دىئاگراممىدا داۋاملىق كۆرسىتىش ئۈچۈن ئۇلارنى جەدۋەلدە مۇقىملاڭ (%1)</translation>
    </message>
    <message>
        <source>Chart each member&apos;s count; its count minus the pool median at each moment (a fair pool is a flat bundle near %1, a flooded or starved member stands out); or how many allocations per second it receives</source>
        <comment>count: how many times a member was allocated (its score)</comment>
        <translation>ھەر بىر ئەزانىڭ تەقسىمات سانىنى؛ ھەر بىر پەيتتە ئۇنىڭ سانىدىن كۆلچەك ئوتتۇرا قىممىتىنى ئايرىغاندىكى ئايرىمىنى (ئادىل كۆلچەك %1 ئەتراپىدا تۈز بىر دەستە بولىدۇ، كەلكۈن بولغان ياكى ئاچ قالغان ئەزا ئالاھىدە كۆزگە چېلىقىدۇ)؛ ياكى ئۇنىڭ سېكۇنتىغا قانچە تەقسىمات ئالىدىغانلىقىنى دىئاگراممىدا كۆرسىتىدۇ</translation>
    </message>
    <message>
        <source>Show</source>
        <comment>label before the box choosing what the chart shows</comment>
        <translation>كۆرسەت</translation>
    </message>
    <message>
        <source>Window</source>
        <comment>label before the chart&apos;s time span (last 5 min, last hour...), not a window on the screen</comment>
        <translation>ۋاقىت كۆزنىكى</translation>
    </message>
    <message>
        <source>Cumulative count</source>
        <comment>chart mode: each member&apos;s allocation count (its score in the sorted set) as it grows</comment>
        <translation>جەمئىي تەقسىمات سانى</translation>
    </message>
    <message>
        <source>Difference from median</source>
        <comment>chart mode: each member&apos;s count minus the pool&apos;s median count</comment>
        <translation>ئوتتۇرا قىممەتتىن ئايرىمىسى</translation>
    </message>
    <message>
        <source>Rate (allocations/s)</source>
        <comment>chart mode: allocations per second each member receives</comment>
        <translation>سۈرئەت (تەقسىمات/سېكۇنت)</translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln min</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>ئاخىرقى %Ln مىنۇت</numerusform>
            <numerusform>ئاخىرقى %Ln مىنۇت</numerusform>
        </translation>
    </message>
    <message>
        <source>Last hour</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>ئاخىرقى بىر سائەت</translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln h</source>
        <comment>the chart&apos;s time span, in a box; h: hours</comment>
        <translation>
            <numerusform>ئاخىرقى %Ln سائەت</numerusform>
            <numerusform>ئاخىرقى %Ln سائەت</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln days</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>ئاخىرقى %Ln كۈن</numerusform>
            <numerusform>ئاخىرقى %Ln كۈن</numerusform>
        </translation>
    </message>
    <message>
        <source>All</source>
        <comment>the chart&apos;s time span, in a box: all the history held</comment>
        <translation>ھەممىسى</translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln minutes</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>ۋاقىت كۆزنىكى: ئاخىرقى &amp;%Ln مىنۇت</numerusform>
            <numerusform>ۋاقىت كۆزنىكى: ئاخىرقى &amp;%Ln مىنۇت</numerusform>
        </translation>
    </message>
    <message>
        <source>Window: last &amp;hour</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>ۋاقىت كۆزنىكى: ئاخىرقى بىر سائەت(&amp;H)</translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln hours</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>ۋاقىت كۆزنىكى: ئاخىرقى &amp;%Ln سائەت</numerusform>
            <numerusform>ۋاقىت كۆزنىكى: ئاخىرقى &amp;%Ln سائەت</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln days</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>ۋاقىت كۆزنىكى: ئاخىرقى &amp;%Ln كۈن</numerusform>
            <numerusform>ۋاقىت كۆزنىكى: ئاخىرقى &amp;%Ln كۈن</numerusform>
        </translation>
    </message>
    <message>
        <source>Window: &amp;all the history</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>ۋاقىت كۆزنىكى: پۈتۈن تارىخ(&amp;A)</translation>
    </message>
    <message>
        <source>Time window of the chart, ending at the latest poll (%1 … %2). Drag across the chart to zoom into a time range; %3, a right click or Zoom out go back one step, a double click (%4) back to the whole window</source>
        <comment>%1 … %2: the shortcuts of the first and last time windows; %3: the Esc key; %4: the shortcut to the whole window. &quot;Zoom out&quot; is the button&apos;s name</comment>
        <translation>دىئاگراممىنىڭ ۋاقىت كۆزنىكى، ئەڭ ئاخىرقى سوراشتا ئاخىرلىشىدۇ (%1 … %2). بىر ۋاقىت دائىرىسىنى چوڭايتىش ئۈچۈن دىئاگرامما ئۈستىدە سۆرەڭ؛ %3، ئوڭ چېكىش ياكى «كىچىكلىت» بىر قەدەم كەينىگە قايتىدۇ، قوش چېكىش (%4) پۈتۈن ۋاقىت كۆزنىكىگە قايتىدۇ</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <comment>the chart&apos;s time range, back one step</comment>
        <translation>كىچىكلىت</translation>
    </message>
    <message>
        <source>Back to the time range before the last zoom (%1 or a right click on the chart)</source>
        <comment>%1: the Esc key</comment>
        <translation>ئاخىرقى چوڭايتىشتىن ئىلگىرىكى ۋاقىت دائىرىسىگە قايتىش (%1 ياكى دىئاگراممىدا ئوڭ چېكىش)</translation>
    </message>
    <message>
        <source>Whole window</source>
        <comment>the chart&apos;s whole time span again, out of every zoom step</comment>
        <translation>پۈتۈن ۋاقىت كۆزنىكى</translation>
    </message>
    <message>
        <source>Out of every zoom step, to the whole window (a double click on the chart)</source>
        <comment>window: the chart&apos;s time span, not a window on the screen</comment>
        <translation>ھەممە چوڭايتىش قەدەملىرىدىن چىقىپ، پۈتۈن ۋاقىت كۆزنىكىگە قايتىش (دىئاگراممىدا قوش چېكىش)</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionBar</name>
    <message>
        <source>Go to the Redis address</source>
        <translation>Redis ئادرېسىغا بار</translation>
    </message>
    <message>
        <source>Pause or resume polling (Ctrl+Shift+Space). Writes still work.</source>
        <translation>سوراشنى ۋاقىتلىق توختات ياكى داۋاملاشتۇر (Ctrl+Shift+Space). يېزىش يەنىلا ئىشلەيدۇ.</translation>
    </message>
    <message>
        <source> &amp;Redis </source>
        <translation> Redis(&amp;R) </translation>
    </message>
    <message>
        <source>  P&amp;ool </source>
        <translation>  كۆلچەك(&amp;O) </translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>ئۇلىنىش</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>ئۇلان</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>ۋاقىتلىق توختات</translation>
    </message>
    <message>
        <source>Find pools</source>
        <translation>كۆلچەكلەرنى ئىزدە</translation>
    </message>
    <message>
        <source>Redis URL: redis://[user[:password]@]host[:port][/db] or unix:///path/to/redis.sock. A password is shown masked and never saved.</source>
        <translation>Redis URL: redis://[user[:password]@]host[:port][/db] ياكى unix:///path/to/redis.sock. پارول يوشۇرۇن كۆرسىتىلىدۇ ۋە ھەرگىز ساقلانمايدۇ.</translation>
    </message>
    <message>
        <source>pool key</source>
        <translation>كۆلچەك ئاچقۇچى</translation>
    </message>
    <message>
        <source>The pool&apos;s sorted-set key. The list offers the sorted sets found on the server (Find pools).</source>
        <translation>كۆلچەكنىڭ تەرتىپلەنگەن گۇرۇپپا ئاچقۇچى. تىزىملىك مۇلازىمېتىردىن تېپىلغان تەرتىپلەنگەن گۇرۇپپىلارنى كۆرسىتىدۇ (كۆلچەكلەرنى ئىزدە).</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 مىللىسېكۇنت</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 سېكۇنت</translation>
    </message>
    <message>
        <source>How often the pool is read. Each read is a few short commands; see the status bar for its round-trip time.</source>
        <translation>كۆلچەكنىڭ قانچە ۋاقىتتا بىر ئوقۇلىدىغانلىقى. ھەر بىر ئوقۇش بىر قانچە قىسقا بۇيرۇق؛ بېرىپ-كېلىش ۋاقتىنى ھالەت بالدىقىدىن كۆرۈڭ.</translation>
    </message>
    <message>
        <source>Connect to the Redis server and watch the pool</source>
        <translation>Redis مۇلازىمېتىرىغا ئۇلىنىپ كۆلچەكنى كۆزىتىش</translation>
    </message>
    <message>
        <source>Look for sorted-set keys on the server (a bounded SCAN with TYPE zset) and offer them in the key list</source>
        <translation>مۇلازىمېتىردىن تەرتىپلەنگەن گۇرۇپپا ئاچقۇچلىرىنى ئىزدەپ (چەكلىك SCAN، TYPE zset) ئاچقۇچ تىزىملىكىدە كۆرسىتىش</translation>
    </message>
    <message>
        <source> Poll every </source>
        <translation> سوراش ئارىلىقى </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>داۋاملاشتۇر</translation>
    </message>
    <message>
        <source>the pool key is empty: name the pool&apos;s sorted set</source>
        <translation>كۆلچەك ئاچقۇچى قۇرۇق: كۆلچەكنىڭ تەرتىپلەنگەن گۇرۇپپىسىنىڭ نامىنى كىرگۈزۈڭ</translation>
    </message>
    <message>
        <source> Password refused: type it into the URL, then Enter </source>
        <translation> پارول رەت قىلىندى: ئۇنى URL غا كىرگۈزۈپ Enter نى بېسىڭ </translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>ئۇلىنىشنى ئۈز</translation>
    </message>
    <message>
        <source>Stop watching this server</source>
        <translation>بۇ مۇلازىمېتىرنى كۆزىتىشنى توختىتىش</translation>
    </message>
    <message>
        <source>Look for sorted-set keys on the server (a bounded SCAN with TYPE zset)</source>
        <translation>مۇلازىمېتىردىن تەرتىپلەنگەن گۇرۇپپا ئاچقۇچلىرىنى ئىزدەش (چەكلىك SCAN، TYPE zset)</translation>
    </message>
    <message>
        <source>Disabled: connect first</source>
        <translation>چەكلەنگەن: ئالدى بىلەن ئۇلىنىڭ</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionEditDialog</name>
    <message>
        <source>The server needs a password</source>
        <translation>مۇلازىمېتىر پارول تەلەپ قىلىدۇ</translation>
    </message>
    <message>
        <source>system CAs</source>
        <translation>سىستېما CA لىرى</translation>
    </message>
    <message>
        <source>none</source>
        <translation>يوق</translation>
    </message>
    <message>
        <source>in the certificate file</source>
        <translation>گۇۋاھنامە ھۆججىتىدە</translation>
    </message>
    <message>
        <source>Do not verify the server (insecure)</source>
        <translation>مۇلازىمېتىرنى دەلىللىمە (بىخەتەر ئەمەس)</translation>
    </message>
    <message>
        <source>ssh-agent, then ~/.ssh/config</source>
        <translation>ssh-agent، ئاندىن ~/.ssh/config</translation>
    </message>
    <message>
        <source>Accept and record an unknown host key</source>
        <translation>نامەلۇم ماشىنا ئاچقۇچىنى قوبۇل قىلىپ خاتىرىلە</translation>
    </message>
    <message>
        <source>Remember secrets in the keychain</source>
        <translation>مەخپىي ئۇچۇرلارنى ئاچقۇچ ساندۇقىدا ساقلا</translation>
    </message>
    <message>
        <source>New connection</source>
        <translation>يېڭى ئۇلىنىش</translation>
    </message>
    <message>
        <source>Edit connection</source>
        <translation>ئۇلىنىشنى تەھرىرلەش</translation>
    </message>
    <message>
        <source>redis://, rediss:// (TLS) or unix:// URL, without a password: passwords are never saved in the settings file</source>
        <translation>redis://، rediss:// (TLS) ياكى unix:// URL، پارولسىز: پاروللار تەڭشەك ھۆججىتىگە ھەرگىز ساقلانمايدۇ</translation>
    </message>
    <message>
        <source>asked when connecting if left empty</source>
        <translation>قۇرۇق قالدۇرۇلسا ئۇلانغاندا سورىلىدۇ</translation>
    </message>
    <message>
        <source>the URL&apos;s host</source>
        <translation>URL دىكى ماشىنا</translation>
    </message>
    <message>
        <source>Warning: anyone between poolscope and the server can read and change the traffic, password included. The status bar will say &quot;TLS, NOT verified&quot;.</source>
        <translation>ئاگاھلاندۇرۇش: poolscope بىلەن مۇلازىمېتىر ئارىسىدىكى ھەرقانداق ئادەم پارولنى ئۆز ئىچىگە ئالغان ئالاقىنى ئوقۇيالايدۇ ۋە ئۆزگەرتەلەيدۇ. ھالەت بالدىقىدا &quot;TLS, NOT verified&quot; كۆرۈنىدۇ.</translation>
    </message>
    <message>
        <source>[user@]bastion[:port] or a Host alias</source>
        <translation>[user@]bastion[:port] ياكى Host لەقىمى</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> مىللىسېكۇنت</translation>
    </message>
    <message>
        <source>No keychain here (%1): secrets are asked for each time and kept in memory only, until poolscope exits.</source>
        <translation>بۇ يەردە ئاچقۇچ ساندۇقى يوق (%1): مەخپىي ئۇچۇرلار ھەر قېتىم سورىلىدۇ ۋە poolscope چېكىنگۈچە پەقەت ئىچكى ساقلىغۇچتا ساقلىنىدۇ.</translation>
    </message>
    <message>
        <source>no Secret Service</source>
        <translation>Secret Service يوق</translation>
    </message>
    <message>
        <source>Unchecked: secrets are kept in memory only, until poolscope exits.</source>
        <translation>بەلگە قويۇلمىغان: مەخپىي ئۇچۇرلار poolscope چېكىنگۈچە پەقەت ئىچكى ساقلىغۇچتا ساقلىنىدۇ.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>ئاتى</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>پارول</translation>
    </message>
    <message>
        <source>Pool key</source>
        <translation>كۆلچەك ئاچقۇچى</translation>
    </message>
    <message>
        <source>Poll every</source>
        <translation>سوراش ئارىلىقى</translation>
    </message>
    <message>
        <source>TLS (rediss://)</source>
        <translation>TLS (rediss://)</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA ھۆججىتى</translation>
    </message>
    <message>
        <source>Server name</source>
        <translation>مۇلازىمېتىر نامى</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>خېرىدار گۇۋاھنامىسى</translation>
    </message>
    <message>
        <source>Client key</source>
        <translation>خېرىدار ئاچقۇچى</translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation>SSH تونېلى</translation>
    </message>
    <message>
        <source>Through</source>
        <translation>ئارقىلىق</translation>
    </message>
    <message>
        <source>Key file</source>
        <translation>ئاچقۇچ ھۆججىتى</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>ھۆججەت تاللاش</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionPrompter</name>
    <message>
        <source>&amp;Trust this key</source>
        <translation>بۇ ئاچقۇچقا ئىشەن(&amp;T)</translation>
    </message>
    <message>
        <source>Password for the Redis server %1:</source>
        <translation>Redis مۇلازىمېتىرى %1 نىڭ پارولى:</translation>
    </message>
    <message>
        <source>Passphrase of the TLS client key %1:</source>
        <translation>TLS خېرىدار ئاچقۇچى %1 نىڭ ئىم ئىبارىسى:</translation>
    </message>
    <message>
        <source>Passphrase of the SSH key %1:</source>
        <translation>SSH ئاچقۇچى %1 نىڭ ئىم ئىبارىسى:</translation>
    </message>
    <message>
        <source>SSH password for %1:</source>
        <translation>%1 نىڭ SSH پارولى:</translation>
    </message>
    <message>
        <source>The SSH host %1 is not in ~/.ssh/known_hosts.

Key type: %2
Fingerprint: %3

Trust this key only if the fingerprint is the host&apos;s (ask its administrator, or run ssh-keygen -lf on its host key). Trusting records it in ~/.ssh/known_hosts.</source>
        <translation>SSH ماشىنىسى %1 ~/.ssh/known_hosts تا يوق.

ئاچقۇچ تىپى: %2
بارماق ئىزى: %3

بارماق ئىزى شۇ ماشىنىنىڭ ئىكەنلىكى ئېنىق بولغاندىلا بۇ ئاچقۇچقا ئىشىنىڭ (باشقۇرغۇچىسىدىن سوراڭ ياكى ئۇنىڭ ماشىنا ئاچقۇچىدا ssh-keygen -lf نى ئىجرا قىلىڭ). ئىشەنسىڭىز ئۇ ~/.ssh/known_hosts قا خاتىرىلىنىدۇ.</translation>
    </message>
    <message>
        <source>poolscope: %1</source>
        <translation>poolscope: %1</translation>
    </message>
    <message>
        <source>poolscope: unknown SSH host key</source>
        <translation>poolscope: نامەلۇم SSH ماشىنا ئاچقۇچى</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <comment>why the secret is asked for again, then the question</comment>
        <translation>%1. %2</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionsDialog</name>
    <message>
        <source>New...</source>
        <translation>يېڭى...</translation>
    </message>
    <message>
        <source>Edit...</source>
        <translation>تەھرىرلەش...</translation>
    </message>
    <message>
        <source>Duplicate...</source>
        <translation>كۆپەيتىش...</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>ئۆچۈر</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>ئۇلان</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>ئۇلىنىشلار</translation>
    </message>
    <message>
        <source>Delete connection</source>
        <translation>ئۇلىنىشنى ئۆچۈرۈش</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>ئۇلىنىش</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>مۇھىت</translation>
    </message>
    <message>
        <source>Secrets of connections that remember them are kept in the keychain, the others in memory only, until poolscope exits. None is ever written to the settings file.</source>
        <translation>مەخپىي ئۇچۇرلىرىنى ئەستە ساقلايدىغان ئۇلىنىشلارنىڭ مەخپىي ئۇچۇرلىرى ئاچقۇچ ساندۇقىدا، باشقىلارنىڭكى poolscope چېكىنگۈچە پەقەت ئىچكى ساقلىغۇچتا ساقلىنىدۇ. ھېچقايسىسى تەڭشەك ھۆججىتىگە يېزىلمايدۇ.</translation>
    </message>
    <message>
        <source>No keychain here (%1): passwords and passphrases are asked for each time and kept in memory only, until poolscope exits.</source>
        <translation>بۇ يەردە ئاچقۇچ ساندۇقى يوق (%1): پارول ۋە ئىم ئىبارىلىرى ھەر قېتىم سورىلىدۇ ۋە poolscope چېكىنگۈچە پەقەت ئىچكى ساقلىغۇچتا ساقلىنىدۇ.</translation>
    </message>
    <message>
        <source>Looking for a keychain...</source>
        <translation>ئاچقۇچ ساندۇقى ئىزدىلىۋاتىدۇ...</translation>
    </message>
    <message numerus="yes">
        <source>Group %1: %n connection(s)</source>
        <translation>
            <numerusform>گۇرۇپپا %1: %n ئۇلىنىش</numerusform>
            <numerusform>گۇرۇپپا %1: %n ئۇلىنىش</numerusform>
        </translation>
    </message>
    <message>
        <source>No saved connections yet: New... saves one.</source>
        <translation>تېخى ساقلانغان ئۇلىنىش يوق: «يېڭى...» بىرنى ساقلايدۇ.</translation>
    </message>
    <message>
        <source>Transport: %1%2</source>
        <translation>يەتكۈزۈش ئۇسۇلى: %1%2</translation>
    </message>
    <message>
        <source>, via ssh %1</source>
        <translation>، ssh %1 ئارقىلىق</translation>
    </message>
    <message>
        <source>Pool key: %1</source>
        <translation>كۆلچەك ئاچقۇچى: %1</translation>
    </message>
    <message>
        <source>Poll every %1 ms</source>
        <translation>ھەر %1 مىللىسېكۇنتتا بىر سوراش</translation>
    </message>
    <message>
        <source>Group: %1</source>
        <translation>گۇرۇپپا: %1</translation>
    </message>
    <message>
        <source>Environment: &lt;b&gt;&lt;font color=&quot;%1&quot;&gt;%2&lt;/font&gt;&lt;/b&gt;</source>
        <translation>مۇھىت: &lt;b&gt;&lt;font color=&quot;%1&quot;&gt;%2&lt;/font&gt;&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Opens with writes locked until unlocked for the session</source>
        <translation>بۇ قېتىملىق ئۇلىنىش ئۈچۈن قۇلۇپ ئېچىلغۇچە يېزىش قۇلۇپلانغان ھالەتتە ئېچىلىدۇ</translation>
    </message>
    <message>
        <source>Password: from the keychain</source>
        <translation>پارول: ئاچقۇچ ساندۇقىدىن</translation>
    </message>
    <message>
        <source>Password: asked when connecting</source>
        <translation>پارول: ئۇلانغاندا سورىلىدۇ</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1 (كۆچۈرمە)</translation>
    </message>
    <message>
        <source>%1 (copy %2)</source>
        <translation>%1 (كۆچۈرمە %2)</translation>
    </message>
    <message>
        <source>Delete the saved connection &quot;%1&quot; and its secrets in the keychain?</source>
        <translation>ساقلانغان &quot;%1&quot; ئۇلىنىشى ۋە ئۇنىڭ ئاچقۇچ ساندۇقىدىكى مەخپىي ئۇچۇرلىرى ئۆچۈرۈلسۇنمۇ؟</translation>
    </message>
</context>
<context>
    <name>poolscope::DemoDriver</name>
    <message>
        <source>the demo list is missing from the resources</source>
        <translation>مەنبەلەردە كۆرسەتمە تىزىملىكى يوق</translation>
    </message>
    <message>
        <source>the demo list has no usable entry</source>
        <translation>كۆرسەتمە تىزىملىكىدە ئىشلىتىشكە بولىدىغان مەزمۇن يوق</translation>
    </message>
    <message>
        <source>empty pool: seeding %L1 demo proxies (documentation address ranges)</source>
        <translation>قۇرۇق كۆلچەك: %L1 كۆرسەتمە ۋاكالەتچى ئەزا قىلىپ قوشۇلۇۋاتىدۇ (ھۆججەتلەشتۈرۈش ئادرېس دائىرىسى)</translation>
    </message>
    <message>
        <source>background load: %L1 workers, about %L2 allocations/s</source>
        <translation>ئارقا سۇپا يۈكى: %L1 خىزمەتچى، تەخمىنەن %L2 تەقسىمات/سېكۇنت</translation>
    </message>
    <message>
        <source>background load ended with %L1 errors, %L2 unknown</source>
        <translation>ئارقا سۇپا يۈكى %L1 خاتالىق، %L2 نامەلۇم بىلەن ئاخىرلاشتى</translation>
    </message>
</context>
<context>
    <name>poolscope::DesktopNotifier</name>
    <message>
        <source>Resolved: %1 (%2)</source>
        <translation>ھەل بولدى: %1 (%2)</translation>
    </message>
    <message>
        <source>Firing since %1, clear now: %2</source>
        <translation>%1 دىن بېرى قوزغالغان، ھازىر تۈگىدى: %2</translation>
    </message>
    <message>
        <source>Critical: %1 (%2)</source>
        <translation>جىددىي: %1 (%2)</translation>
    </message>
    <message>
        <source>Warning: %1 (%2)</source>
        <translation>ئاگاھلاندۇرۇش: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>poolscope::EnvironmentBanner</name>
    <message>
        <source>&amp;Unlock writes for this session</source>
        <translation>بۇ قېتىملىق ئۇلىنىش ئۈچۈن يېزىش قۇلۇپىنى ئاچ(&amp;U)</translation>
    </message>
    <message>
        <source>Production connections open with writes locked; this unlocks them until another connection is chosen</source>
        <translation>ئىشلەپچىقىرىش ئۇلىنىشلىرى يېزىش قۇلۇپلانغان ھالەتتە ئېچىلىدۇ؛ بۇ باشقا ئۇلىنىش تاللانغۇچە قۇلۇپنى ئاچىدۇ</translation>
    </message>
    <message>
        <source>%1 connection</source>
        <translation>%1 ئۇلىنىشى</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: writes are locked. This pool is watched only; unlock writes to seed, evict, restore or allocate.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: يېزىش قۇلۇپلانغان. بۇ كۆلچەك پەقەت كۆزىتىلىدۇ؛ ئەزا قوشۇش، چىقىرىۋېتىش، ئەسلىگە كەلتۈرۈش ياكى تەقسىملەش ئۈچۈن يېزىش قۇلۇپىنى ئېچىڭ.</translation>
    </message>
    <message>
        <source>&amp;Unlock writes</source>
        <translation>يېزىش قۇلۇپىنى ئاچ(&amp;U)</translation>
    </message>
    <message>
        <source>%1 · writes locked</source>
        <translation>%1 · يېزىش قۇلۇپلانغان</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: writes are unlocked for this session. Several evictions, restores at zero and the count-reset demo still ask for the pool&apos;s name.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: بۇ قېتىملىق ئۇلىنىش ئۈچۈن يېزىش قۇلۇپى ئېچىلدى. بىر نەچچە چىقىرىۋېتىش، نۆلدە ئەسلىگە كەلتۈرۈش ۋە سان قايتا تەڭشەش كۆرسەتمىسى يەنىلا كۆلچەكنىڭ نامىنى سورايدۇ.</translation>
    </message>
    <message>
        <source>&amp;Lock writes</source>
        <translation>يېزىشنى قۇلۇپلا(&amp;L)</translation>
    </message>
    <message>
        <source>%1 · writes unlocked for this session</source>
        <translation>%1 · بۇ قېتىملىق ئۇلىنىش ئۈچۈن يېزىش قۇلۇپى ئېچىلغان</translation>
    </message>
</context>
<context>
    <name>poolscope::EventsPanel</name>
    <message>
        <source>connection</source>
        <translation>ئۇلىنىش</translation>
    </message>
    <message>
        <source>demo</source>
        <translation>كۆرسەتمە</translation>
    </message>
    <message>
        <source>evict</source>
        <extracomment>Evict: taking members out of rotation, their counts kept.</extracomment>
        <translation>چىقىرىۋېتىش</translation>
    </message>
    <message>
        <source>export</source>
        <translation>ئېكسپورت</translation>
    </message>
    <message>
        <source>guard</source>
        <translation>قوغدىغۇچى</translation>
    </message>
    <message>
        <source>health</source>
        <translation>ساغلاملىق</translation>
    </message>
    <message>
        <source>load</source>
        <translation>يۈك</translation>
    </message>
    <message>
        <source>poll</source>
        <translation>سوراش</translation>
    </message>
    <message>
        <source>pool</source>
        <extracomment>The proxy pool (the sorted set the dashboard watches).</extracomment>
        <translation>كۆلچەك</translation>
    </message>
    <message>
        <source>recording</source>
        <translation>خاتىرە ھۆججىتى</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>ئەسلىگە كەلتۈرۈش</translation>
    </message>
    <message>
        <source>scan</source>
        <translation>سكانىرلاش</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>سىنارىيە</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>ئەزا قوشۇش</translation>
    </message>
    <message>
        <source>server</source>
        <translation>مۇلازىمېتىر</translation>
    </message>
    <message>
        <source>Operations and errors, newest first</source>
        <translation>مەشغۇلات ۋە خاتالىقلار، ئەڭ يېڭىسى ئالدىدا</translation>
    </message>
</context>
<context>
    <name>poolscope::FairnessPanel</name>
    <message>
        <source>– (summary mode: counted from the next polls)</source>
        <translation>– (خۇلاسە ھالىتى: كېيىنكى سوراشلاردىن سانىلىدۇ)</translation>
    </message>
    <message>
        <source>%1 /s (the recording&apos;s last %2)</source>
        <translation>%1 /سېكۇنت (خاتىرە ھۆججىتىنىڭ ئاخىرقى %2 ى)</translation>
    </message>
    <message>
        <source>– (not in the recording)</source>
        <translation>– (خاتىرە ھۆججىتىدە يوق)</translation>
    </message>
    <message>
        <source>Stale: no good poll since %1. These figures are from then.</source>
        <translation>كونىراپ كەتكەن: %1 دىن بۇيان مۇۋەپپەقىيەتلىك سوراش يوق. بۇ سانلار شۇ چاغدىكى.</translation>
    </message>
    <message>
        <source>%1 (+%2 evicted)</source>
        <translation>%1 (+%2 چىقىرىۋېتىلگەن)</translation>
    </message>
    <message>
        <source>%1 (%2 with the %3 evicted)</source>
        <translation>%1 (چىقىرىۋېتىلگەن %3 بىلەن %2)</translation>
    </message>
    <message>
        <source>Busiest (last %1)</source>
        <translation>ئەڭ ئالدىراش (ئاخىرقى %1)</translation>
    </message>
    <message>
        <source>– (no allocations)</source>
        <translation>– (تەقسىمات يوق)</translation>
    </message>
    <message>
        <source>%1 /s</source>
        <translation>%1 /سېكۇنت</translation>
    </message>
    <message>
        <source>full snapshot</source>
        <translation>تولۇق كۆرۈنۈش</translation>
    </message>
    <message>
        <source>summary: %1 members &gt; %2 (quantiles, top/bottom, pinned and the rows on screen are read)</source>
        <translation>خۇلاسە: %1 ئەزا &gt; %2 (كىۋانتىللار، ئەڭ يۇقىرى/ئەڭ تۆۋەنلەر، مۇقىملانغانلار ۋە ئېكراندىكى قۇرلار ئوقۇلىدۇ)</translation>
    </message>
    <message>
        <source>pending: first totals scan %1 %</source>
        <translation>كۈتۈۋاتىدۇ: تۇنجى جەمئىي سكانىرلاش %1%</translation>
    </message>
    <message>
        <source>Jain&apos;s index needs every member&apos;s count: a low-rate background scan reads the whole pool in small pages and the index appears when its first pass completes</source>
        <translation>Jain كۆرسەتكۈچى ھەر بىر ئەزانىڭ تەقسىمات سانىنى تەلەپ قىلىدۇ: تۆۋەن سۈرئەتلىك ئارقا سۇپا سكانىرلىشى پۈتۈن كۆلچەكنى كىچىك بەتلەپ ئوقۇيدۇ، بىرىنچى ئايلىنىشى تاماملانغاندا كۆرسەتكۈچ كۆرۈنىدۇ</translation>
    </message>
    <message>
        <source>highest count: %1 (%2)</source>
        <translation>ئەڭ يۇقىرى سان: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>poolscope::GuardPanel</name>
    <message>
        <source>round failed: %1; trying again next round</source>
        <translation>ئايلانما مەغلۇپ بولدى: %1؛ كېيىنكى ئايلانمىدا قايتا سىنايدۇ</translation>
    </message>
    <message>
        <source>Start guard</source>
        <translation>قوغدىغۇچىنى باشلا</translation>
    </message>
    <message>
        <source>http://host/path fetched through each proxy</source>
        <translation>ھەر بىر ۋاكالەتچى ئارقىلىق ئېلىنىدىغان http://host/path</translation>
    </message>
    <message>
        <source>Consecutive failed checks before a member is evicted</source>
        <translation>ئەزا چىقىرىۋېتىلىشتىن ئىلگىرىكى ئۇدا مەغلۇپ بولغان تەكشۈرۈش سانى</translation>
    </message>
    <message>
        <source>Consecutive good checks before an evicted member comes back</source>
        <translation>چىقىرىۋېتىلگەن ئەزا قايتىپ كېلىشتىن ئىلگىرىكى ئۇدا ياخشى تەكشۈرۈش سانى</translation>
    </message>
    <message>
        <source>The evicted share never goes above this: when more fail at once, the target or the network looks down</source>
        <translation>چىقىرىۋېتىلگەن ئۈلۈش ھەرگىز بۇنىڭدىن ئاشمايدۇ: بىرلا ۋاقىتتا تېخىمۇ كۆپى مەغلۇپ بولسا، نىشان ياكى تور ئىشلىمەيۋاتقاندەك</translation>
    </message>
    <message>
        <source>min (no flood)</source>
        <translation>ئەڭ تۆۋەن (كەلكۈن يوق)</translation>
    </message>
    <message>
        <source>keep (saved count)</source>
        <translation>ساقلاش (ساقلانغان سان)</translation>
    </message>
    <message>
        <source>start</source>
        <translation>باشلىنىش</translation>
    </message>
    <message>
        <source>The count a restored member comes back with</source>
        <translation>ئەسلىگە كەلتۈرۈلگەن ئەزا قايتىپ كېلىدىغان تەقسىمات سانى</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>نىشان</translation>
    </message>
    <message>
        <source>Fall</source>
        <translation>چۈشۈش</translation>
    </message>
    <message>
        <source>Rise</source>
        <translation>ئۆرلەش</translation>
    </message>
    <message>
        <source>Max evicted</source>
        <translation>ئەڭ كۆپ چىقىرىۋېتىش</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>ئەسلىگە كەلتۈرۈش</translation>
    </message>
    <message>
        <source>Interval</source>
        <translation>ئارىلىق</translation>
    </message>
    <message>
        <source>Guard off</source>
        <translation>قوغدىغۇچى تاقاق</translation>
    </message>
    <message>
        <source>No round yet</source>
        <translation>تېخى ئايلانما يوق</translation>
    </message>
    <message>
        <source>Guard on, holding the lease as %1</source>
        <translation>قوغدىغۇچى ئوچۇق، ئىجارىنى %1 سۈپىتىدە تۇتىدۇ</translation>
    </message>
    <message>
        <source>Guard stopped: the dashboard watches another pool now</source>
        <translation>قوغدىغۇچى توختىدى: كۆزىتىش تاختىسى ھازىر باشقا كۆلچەكنى كۆزىتىدۇ</translation>
    </message>
    <message>
        <source>Stop guard</source>
        <translation>قوغدىغۇچىنى توختات</translation>
    </message>
    <message>
        <source>Guard not started: target URL: %1</source>
        <translation>قوغدىغۇچى باشلانمىدى: نىشان URL: %1</translation>
    </message>
    <message>
        <source>Taking the lease on %1…</source>
        <translation>%1 نىڭ ئىجارىسى ئېلىنىۋاتىدۇ…</translation>
    </message>
    <message>
        <source>another guard (%1) holds the lease: waiting</source>
        <translation>باشقا قوغدىغۇچى (%1) ئىجارىنى تۇتىدۇ: كۈتۈۋاتىدۇ</translation>
    </message>
    <message>
        <source>%1 checked in %2 ms: %3 up, %4 down; %5 action(s); %6 of %7 evicted</source>
        <translation>%1 سى %2 مىللىسېكۇنتتا تەكشۈرۈلدى: %3 ئىشلەيدۇ، %4 ئىشلىمەيدۇ؛ %5 مەشغۇلات؛ %7 تىن %6 چىقىرىۋېتىلگەن</translation>
    </message>
    <message>
        <source>Last round (%1): %2</source>
        <translation>ئالدىنقى ئايلانما (%1): %2</translation>
    </message>
    <message>
        <source>Guard off (lease released)</source>
        <translation>قوغدىغۇچى تاقاق (ئىجارە قويۇپ بېرىلدى)</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source> s</source>
        <translation> سېكۇنت</translation>
    </message>
</context>
<context>
    <name>poolscope::MainWindow</name>
    <message>
        <source>Open recording</source>
        <translation>خاتىرە ھۆججىتىنى ئاچ</translation>
    </message>
    <message>
        <source>poolscope · %1 · %2 · %3</source>
        <translation>poolscope · %1 · %2 · %3</translation>
    </message>
    <message>
        <source>Pool</source>
        <extracomment>Pool: the proxy pool (the sorted set the dashboard watches), a panel&apos;s title.</extracomment>
        <translation>كۆلچەك</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>ھادىسىلەر</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>ئەزالار</translation>
    </message>
    <message>
        <source>Pools</source>
        <translation>كۆلچەكلەر</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>قوغدىغۇچى</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>ئاگاھلاندۇرۇشلار</translation>
    </message>
    <message>
        <source>the server refused the password</source>
        <translation>مۇلازىمېتىر پارولنى رەت قىلدى</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ھۆججەت(&amp;F)</translation>
    </message>
    <message>
        <source>Connections...</source>
        <translation>ئۇلىنىشلار...</translation>
    </message>
    <message>
        <source>Saved connections: URL, TLS and SSH settings, pool key and poll interval; secrets in the keychain</source>
        <translation>ساقلانغان ئۇلىنىشلار: URL، TLS ۋە SSH تەڭشەكلىرى، كۆلچەك ئاچقۇچى ۋە سوراش ئارىلىقى؛ مەخپىي ئۇچۇرلار ئاچقۇچ ساندۇقىدا</translation>
    </message>
    <message>
        <source>Open recording…</source>
        <translation>خاتىرە ھۆججىتىنى ئاچ…</translation>
    </message>
    <message>
        <source>poolscope recordings (*.sqlite *.db *.poolscope)</source>
        <translation>poolscope خاتىرە ھۆججەتلىرى (*.sqlite *.db *.poolscope)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>ھەممە ھۆججەتلەر (*)</translation>
    </message>
    <message>
        <source>Open a recording without any Redis connection, read only: its history, markers and last poll</source>
        <translation>خاتىرە ھۆججىتىنى ھېچقانداق Redis ئۇلىنىشىسىز، پەقەت ئوقۇش ئۈچۈن ئېچىش: ئۇنىڭ تارىخى، بەلگىلىرى ۋە ئاخىرقى سورىشى</translation>
    </message>
    <message>
        <source>Record while watching</source>
        <translation>كۆزەتكەندە خاتىرىلە</translation>
    </message>
    <message>
        <source>Keep the watched pool&apos;s history in its recording (one file per server and pool in the data directory), so it is there the next time the pool is opened</source>
        <translation>كۆزىتىلىۋاتقان كۆلچەكنىڭ تارىخىنى ئۇنىڭ خاتىرە ھۆججىتىدە ساقلاش (سانلىق مەلۇمات مۇندەرىجىسىدە ھەر بىر مۇلازىمېتىر ۋە كۆلچەك ئۈچۈن بىر ھۆججەت)، كۆلچەك كېيىنكى قېتىم ئېچىلغاندا ئۇ يەردە بولىدۇ</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>چېكىن</translation>
    </message>
    <message>
        <source>&amp;Pool</source>
        <extracomment>Pool: the proxy pool (the sorted set the dashboard watches), a menu.</extracomment>
        <translation>كۆلچەك(&amp;P)</translation>
    </message>
    <message>
        <source>Alert &amp;rules…</source>
        <translation>ئاگاھلاندۇرۇش قائىدىلىرى(&amp;R)…</translation>
    </message>
    <message>
        <source>Audit &amp;trail…</source>
        <translation>تەپتىش خاتىرىسى(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>كۆرۈنۈش(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Overview of every pool…</source>
        <translation>ھەممە كۆلچەكنىڭ ئومۇمىي كۆرۈنۈشى(&amp;O)…</translation>
    </message>
    <message>
        <source>Every pool of every saved connection in one table</source>
        <translation>ھەممە ساقلانغان ئۇلىنىشلارنىڭ ھەممە كۆلچەكلىرى بىر جەدۋەلدە</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ياردەم(&amp;H)</translation>
    </message>
    <message>
        <source>About poolscope</source>
        <translation>poolscope ھەققىدە</translation>
    </message>
    <message>
        <source>&lt;b&gt;poolscope %1&lt;/b&gt;&lt;p&gt;Live dashboard for Redis least-used proxy pools: a sorted set whose scores count allocations, served by allocate.lua.&lt;/p&gt;</source>
        <translation>&lt;b&gt;poolscope %1&lt;/b&gt;&lt;p&gt;Redis ئەڭ ئاز ئىشلىتىلگەن ۋاكالەتچى كۆلچەكلىرى ئۈچۈن جانلىق كۆزىتىش تاختىسى: نومۇرلىرى تەقسىماتلارنى ساناپ ماڭىدىغان، allocate.lua تەمىنلەيدىغان تەرتىپلەنگەن گۇرۇپپا.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>مەشغۇلاتلار</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>ئېكسپورت</translation>
    </message>
    <message>
        <source>Export the chart, the history or the table</source>
        <translation>دىئاگرامما، تارىخ ياكى جەدۋەلنى ئېكسپورت قىلىش</translation>
    </message>
    <message>
        <source>poolscope · recording %1 · %2 (read only)</source>
        <translation>poolscope · خاتىرە ھۆججىتى %1 · %2 (پەقەت ئوقۇش)</translation>
    </message>
    <message>
        <source>reading the recording %1…</source>
        <translation>خاتىرە ھۆججىتى %1 ئوقۇلۇۋاتىدۇ…</translation>
    </message>
    <message>
        <source>cannot open the recording: %1</source>
        <translation>خاتىرە ھۆججىتىنى ئاچالمىدى: %1</translation>
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
        <translation>%1 غا ئۇلانمىدى: «%2» ئاخىرقى قېتىم %3 دە ئوقۇلغان.
«ئۇلا» قايتا سىنايدۇ.</translation>
    </message>
    <message>
        <source>Not connected: %1
&quot;%2&quot; was last read at %3. Connect tries again.</source>
        <translation>ئۇلانمىدى: %1
«%2» ئاخىرقى قېتىم %3 دە ئوقۇلغان. «ئۇلا» قايتا سىنايدۇ.</translation>
    </message>
    <message>
        <source>Filter members… (Ctrl+F)</source>
        <translation>ئەزالارنى سۈزۈش… (Ctrl+F)</translation>
    </message>
    <message>
        <source>Show only members whose id contains this text</source>
        <translation>پەقەت كىملىكىدە بۇ تېكىست بار ئەزالارنىلا كۆرسىتىش</translation>
    </message>
    <message>
        <source>Rows keep their places while the pointer is over the table or rows are selected, so the row you aim at stays the row you click. Counts still update. Re-sort now, or move the pointer away and clear the selection.</source>
        <translation>كۆرسەتكۈچ جەدۋەل ئۈستىدە تۇرغاندا ياكى قۇرلار تاللانغاندا قۇرلار ئورنىدا تۇرىدۇ، شۇڭا نىشانلىغان قۇرىڭىز چەككەن قۇرىڭىز بولىدۇ. سانلار يەنىلا يېڭىلىنىدۇ. ھازىرلا قايتا تەرتىپلەڭ، ياكى كۆرسەتكۈچنى يۆتكەپ تاللاشنى تازىلاڭ.</translation>
    </message>
    <message>
        <source>Any health</source>
        <translation>ھەرقانداق ساغلاملىق</translation>
    </message>
    <message>
        <source>Health: %1</source>
        <translation>ساغلاملىق: %1</translation>
    </message>
    <message>
        <source>Show only members in this health state</source>
        <translation>پەقەت مۇشۇ ساغلاملىق ھالىتىدىكى ئەزالارنىلا كۆرسىتىش</translation>
    </message>
    <message>
        <source> · &lt;a href=&quot;resort&quot;&gt;re-sort now&lt;/a&gt;</source>
        <translation type="vanished"> · &lt;a href=&quot;resort&quot;&gt;ھازىرلا قايتا تەرتىپلە&lt;/a&gt;</translation>
    </message>
    <message>
        <source>‖ order held: rows selected</source>
        <translation>‖ تەرتىپ ساقلاندى: قۇرلار تاللانغان</translation>
    </message>
    <message>
        <source>‖ order held: pointer over the table</source>
        <translation>‖ تەرتىپ ساقلاندى: كۆرسەتكۈچ جەدۋەل ئۈستىدە</translation>
    </message>
    <message>
        <source>Find a member or the start of its id… (Ctrl+F, searched on the server)</source>
        <translation>ئەزانى ياكى كىملىكىنىڭ بېشىنى ئىزدەش… (Ctrl+F، مۇلازىمېتىردا ئىزدىلىدۇ)</translation>
    </message>
    <message>
        <source>This pool is read in summary mode: only the rows on screen are read, and rows stay in rank order (count ascending: the next to be allocated first). Type a member&apos;s id or its start (case-sensitive): the server looks the member up by name and scans for ids starting with the text in the background, a few small pages at a time; the members found become the table&apos;s rows, to pin or evict. Clear the field to go back to the rows by rank.</source>
        <translation>بۇ كۆلچەك خۇلاسە ھالىتىدە ئوقۇلىدۇ: پەقەت ئېكراندىكى قۇرلارلا ئوقۇلىدۇ، قۇرلار دەرىجە تەرتىپىدە تۇرىدۇ (سان ئۆسۈش تەرتىپىدە: كېيىنكى تەقسىملىنىدىغىنى ئالدىدا). ئەزانىڭ كىملىكىنى ياكى بېشىنى كىرگۈزۈڭ (چوڭ-كىچىك ھەرپنى پەرقلەندۈرىدۇ): مۇلازىمېتىر ئەزانى نامى بويىچە ئىزدەيدۇ ۋە ئارقا سۇپىدا بۇ تېكىست بىلەن باشلانغان كىملىكلەرنى ھەر قېتىمدا بىر قانچە كىچىك بەتتىن سكانىرلايدۇ؛ تېپىلغان ئەزالار جەدۋەلنىڭ قۇرلىرى بولىدۇ، ئۇلارنى مۇقىملاشقا ياكى چىقىرىۋېتىشكە بولىدۇ. دەرىجە بويىچە قۇرلارغا قايتىش ئۈچۈن بۆلەكنى تازىلاڭ.</translation>
    </message>
    <message>
        <source>Stale: no good poll since %1. Counts, rates and &quot;last change&quot; are from then.</source>
        <translation>كونىراپ كەتكەن: %1 دىن بۇيان مۇۋەپپەقىيەتلىك سوراش يوق. سانلار، سۈرئەتلەر ۋە «ئاخىرقى ئۆزگىرىش» شۇ چاغدىكى.</translation>
    </message>
    <message>
        <source>Searching the pool for &quot;%1&quot;…</source>
        <translation>كۆلچەكتىن &quot;%1&quot; ئىزدىلىۋاتىدۇ…</translation>
    </message>
    <message>
        <source>The search for &quot;%1&quot; failed: %2</source>
        <translation>&quot;%1&quot; نى ئىزدەش مەغلۇپ بولدى: %2</translation>
    </message>
    <message>
        <source>Searching the pool for &quot;%1&quot;… (%2 pages read)</source>
        <translation>كۆلچەكتىن &quot;%1&quot; ئىزدىلىۋاتىدۇ… (%2 بەت ئوقۇلدى)</translation>
    </message>
    <message>
        <source>No member is or starts with &quot;%1&quot; (the whole pool was searched; ids are case-sensitive).</source>
        <translation>&quot;%1&quot; بولغان ياكى ئۇنىڭ بىلەن باشلانغان ئەزا يوق (پۈتۈن كۆلچەك ئىزدەلدى؛ كىملىكلەر چوڭ-كىچىك ھەرپنى پەرقلەندۈرىدۇ).</translation>
    </message>
    <message>
        <source>No member is %1 (health filter).</source>
        <translation>%1 ھالىتىدىكى ئەزا يوق (ساغلاملىق سۈزگۈچى).</translation>
    </message>
    <message>
        <source>No member matches &quot;%1&quot; and is %2 (health filter).</source>
        <translation>&quot;%1&quot; غا ماس كېلىدىغان ۋە %2 ھالىتىدىكى ئەزا يوق (ساغلاملىق سۈزگۈچى).</translation>
    </message>
    <message>
        <source>No member matches &quot;%1&quot;.</source>
        <translation>&quot;%1&quot; غا ماس كېلىدىغان ئەزا يوق.</translation>
    </message>
    <message>
        <source>Not connected. Enter a Redis URL and a pool key above, then Connect.</source>
        <translation>ئۇلانمىدى. يۇقىرىغا Redis URL ۋە كۆلچەك ئاچقۇچىنى كىرگۈزۈپ، ئاندىن «ئۇلان» نى بېسىڭ.</translation>
    </message>
    <message>
        <source>Cannot reach %1: retrying. The events panel says why.</source>
        <translation>%1 غا يېتەلمىدى: قايتا سىنىلىۋاتىدۇ. سەۋەبىنى ھادىسىلەر تاختىسى كۆرسىتىدۇ.</translation>
    </message>
    <message>
        <source>Not connected: %1
Connect tries again.</source>
        <translation>ئۇلانمىدى: %1
«ئۇلان» قايتا سىنايدۇ.</translation>
    </message>
    <message>
        <source>Connected, but reading &quot;%1&quot; fails: %2</source>
        <translation>ئۇلاندى، ئەمما &quot;%1&quot; نى ئوقۇش مەغلۇپ بولدى: %2</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>%1 غا ئۇلىنىۋاتىدۇ…</translation>
    </message>
    <message>
        <source>No pool at &quot;%1&quot; yet. (Read-only: another process has to seed it.)</source>
        <translation>&quot;%1&quot; دا تېخى كۆلچەك يوق. (پەقەت ئوقۇش: ئۇنىڭغا باشقا بىر جەريان ئەزا قوشۇشى كېرەك.)</translation>
    </message>
    <message>
        <source>No pool at &quot;%1&quot; yet: Seed… (Ctrl+N) to add proxies.</source>
        <translation>&quot;%1&quot; دا تېخى كۆلچەك يوق: ۋاكالەتچى قوشۇش ئۈچۈن «ئەزا قوش…» (Ctrl+N).</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>ئىزدىلىۋاتىدۇ…</translation>
    </message>
    <message>
        <source>first %1 found: type more to narrow</source>
        <translation>ئالدىنقى %1 تېپىلدى: تارايتىش ئۈچۈن يەنە كىرگۈزۈڭ</translation>
    </message>
    <message>
        <source>whole pool searched</source>
        <translation>پۈتۈن كۆلچەك ئىزدەلدى</translation>
    </message>
    <message numerus="yes">
        <source>searching… %Ln page(s)</source>
        <translation>
            <numerusform>ئىزدىلىۋاتىدۇ… %Ln بەت</numerusform>
            <numerusform>ئىزدىلىۋاتىدۇ… %Ln بەت</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 found for &quot;%2&quot; · %3</source>
        <translation>&quot;%2&quot; ئۈچۈن %1 تېپىلدى · %3</translation>
    </message>
    <message>
        <source>%1 in pool, by rank (summary mode) · %2 evicted</source>
        <translation>كۆلچەكتە %1، دەرىجە بويىچە (خۇلاسە ھالىتى) · %2 چىقىرىۋېتىلگەن</translation>
    </message>
    <message>
        <source>%1 shown · %2 in pool · %3 evicted</source>
        <translation>%1 كۆرسىتىلدى · كۆلچەكتە %2 · %3 چىقىرىۋېتىلگەن</translation>
    </message>
    <message>
        <source>%1 · &lt;a href=&quot;resort&quot;&gt;re-sort now&lt;/a&gt;</source>
        <comment>%1: why the rows&apos; order is held</comment>
        <translation>%1 · &lt;a href=&quot;resort&quot;&gt;ھازىرلا قايتا تەرتىپلە&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>poolscope::OverviewWindow</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>يېڭىلا(&amp;R)</translation>
    </message>
    <message>
        <source>Overview of every pool – poolscope</source>
        <translation>ھەممە كۆلچەكنىڭ ئومۇمىي كۆرۈنۈشى – poolscope</translation>
    </message>
    <message>
        <source>&amp;Connections:</source>
        <translation>ئۇلىنىشلار(&amp;C):</translation>
    </message>
    <message>
        <source>Filter rows: connection, pool, status…</source>
        <translation>قۇرلارنى سۈزۈش: ئۇلىنىش، كۆلچەك، ھالەت…</translation>
    </message>
    <message>
        <source>Shows only the rows with this text in any column (Ctrl+F)</source>
        <translation>ھەرقانداق ئىستوندا بۇ تېكىست بار قۇرلارنىلا كۆرسىتىدۇ (Ctrl+F)</translation>
    </message>
    <message>
        <source>Reads every server now (F5)</source>
        <translation>ھەممە مۇلازىمېتىرنى ھازىرلا ئوقۇيدۇ (F5)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>ئېكسپورت(&amp;E)</translation>
    </message>
    <message>
        <source>Rows shown as CSV…</source>
        <translation>كۆرسىتىلگەن قۇرلارنى CSV قىلىپ…</translation>
    </message>
    <message>
        <source>Rows shown as JSON…</source>
        <translation>كۆرسىتىلگەن قۇرلارنى JSON قىلىپ…</translation>
    </message>
    <message>
        <source>Every pool of the chosen connections. Enter or a double click opens the pool in the main window.</source>
        <translation>تاللانغان ئۇلىنىشلارنىڭ ھەممە كۆلچىكى. Enter ياكى قوش چېكىش كۆلچەكنى ئاساسىي كۆزنەكتە ئاچىدۇ.</translation>
    </message>
    <message>
        <source>Every saved connection</source>
        <translation>ھەممە ساقلانغان ئۇلىنىش</translation>
    </message>
    <message>
        <source>Group %1</source>
        <translation>گۇرۇپپا %1</translation>
    </message>
    <message>
        <source>needs a password: connect to it once (File ▸ Connections…) and the overview reads it too</source>
        <translation>پارول كېرەك: ئۇنىڭغا بىر قېتىم ئۇلىنىڭ (ھۆججەت ▸ ئۇلىنىشلار…)، ئاندىن ئومۇمىي كۆرۈنۈشمۇ ئۇنى ئوقۇيدۇ</translation>
    </message>
    <message>
        <source>No saved connections yet.

Add one with File ▸ Connections… (Ctrl+Shift+O): New, then the server&apos;s URL and the pool key. Scripts can add them with “poolscope-cli profile add NAME --url URL”. The overview then lists every pool of every saved connection.</source>
        <translation>تېخى ساقلانغان ئۇلىنىش يوق.

ھۆججەت ▸ ئۇلىنىشلار… (Ctrl+Shift+O) ئارقىلىق قوشۇڭ: يېڭى، ئاندىن مۇلازىمېتىرنىڭ URL ى ۋە كۆلچەك ئاچقۇچى. قوليازمىلار “poolscope-cli profile add NAME --url URL” بىلەن قوشالايدۇ. ئاندىن ئومۇمىي كۆرۈنۈش ھەممە ساقلانغان ئۇلىنىشنىڭ ھەممە كۆلچىكىنى تىزىدۇ.</translation>
    </message>
    <message>
        <source>No saved connection is in this group.</source>
        <translation>بۇ گۇرۇپپىدا ساقلانغان ئۇلىنىش يوق.</translation>
    </message>
    <message>
        <source>%1 of %2 rows shown · %3 connections, each server read every %4 s</source>
        <translation>%2 قۇرنىڭ %1 ى كۆرسىتىلدى · %3 ئۇلىنىش، ھەر بىر مۇلازىمېتىر ھەر %4 سېكۇنتتا ئوقۇلىدۇ</translation>
    </message>
    <message>
        <source>%1: %2 · last good poll: %3</source>
        <translation>%1: %2 · ئاخىرقى مۇۋەپپەقىيەتلىك سوراش: %3</translation>
    </message>
    <message>
        <source>%1 rows written to %2</source>
        <translation>%1 قۇر %2 غا يېزىلدى</translation>
    </message>
    <message>
        <source>could not write %1: %2</source>
        <translation>%1 گە يازالمىدى: %2</translation>
    </message>
    <message>
        <source>Export the overview as CSV</source>
        <translation>ئومۇمىي كۆرۈنۈشنى CSV قىلىپ ئېكسپورت قىلىش</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ھۆججەتلىرى (*.csv)</translation>
    </message>
    <message>
        <source>Export the overview as JSON</source>
        <translation>ئومۇمىي كۆرۈنۈشنى JSON قىلىپ ئېكسپورت قىلىش</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON ھۆججەتلىرى (*.json)</translation>
    </message>
    <message>
        <source>reading its password from the keychain…</source>
        <translation>ئۇنىڭ پارولى ئاچقۇچ ساندۇقىدىن ئوقۇلۇۋاتىدۇ…</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolActions</name>
    <message>
        <source>Refresh</source>
        <translation>يېڭىلا</translation>
    </message>
    <message>
        <source>Poll the pool now (F5)</source>
        <translation>كۆلچەكنى ھازىرلا سوراش (F5)</translation>
    </message>
    <message>
        <source>Seed…</source>
        <translation>ئەزا قوش…</translation>
    </message>
    <message>
        <source>Import a proxy list into the pool (Ctrl+N)</source>
        <translation>ۋاكالەتچى تىزىملىكىنى كۆلچەككە ئەكىرىش (Ctrl+N)</translation>
    </message>
    <message>
        <source>Evict</source>
        <extracomment>Evict: take the member out of rotation, keeping its allocation count.</extracomment>
        <translation>چىقىرىۋەت</translation>
    </message>
    <message>
        <source>Take the selected members out of the pool, keeping their counts (Delete)</source>
        <translation>تاللانغان ئەزالارنى سانلىرىنى ساقلاپ قېلىپ كۆلچەكتىن چىقىرىۋېتىش (Delete)</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>ئەسلىگە كەلتۈر…</translation>
    </message>
    <message>
        <source>Bring the selected evicted members back, choosing their count (Ctrl+R)</source>
        <translation>تاللانغان چىقىرىۋېتىلگەن ئەزالارنى سانىنى تاللاپ ئەسلىگە كەلتۈرۈش (Ctrl+R)</translation>
    </message>
    <message>
        <source>Test allocations…</source>
        <translation>سىناق تەقسىمات…</translation>
    </message>
    <message>
        <source>Run allocations through allocate.lua (Ctrl+T)</source>
        <translation>allocate.lua ئارقىلىق تەقسىملەشنى ئىجرا قىلىش (Ctrl+T)</translation>
    </message>
    <message>
        <source>Demo: count reset…</source>
        <translation>كۆرسەتمە: سان قايتا تەڭشەش…</translation>
    </message>
    <message>
        <source>Run the count-reset scenario on its own pool: evict a member, restore it, and compare the flood with the forecast</source>
        <translation>سان قايتا تەڭشەش سىنارىيەسىنى ئۆزىنىڭ كۆلچىكىدە ئىجرا قىلىش: بىر ئەزانى چىقىرىۋېتىپ، ئەسلىگە كەلتۈرۈپ، كەلكۈننى مۆلچەر بىلەن سېلىشتۇرۇش</translation>
    </message>
    <message>
        <source>Pin to chart</source>
        <translation>دىئاگراممىغا مۇقىملا</translation>
    </message>
    <message>
        <source>Always chart the selected members, however big the pool (Ctrl+P); again to unpin</source>
        <translation>كۆلچەك قانچىلىك چوڭ بولسۇن، تاللانغان ئەزالارنى ھەمىشە دىئاگراممىدا كۆرسىتىش (Ctrl+P)؛ مۇقىملاشنى بىكار قىلىش ئۈچۈن يەنە بىر قېتىم</translation>
    </message>
    <message>
        <source>Find member</source>
        <translation>ئەزا ئىزدە</translation>
    </message>
    <message>
        <source>Filter the members table (Ctrl+F)</source>
        <translation>ئەزالار جەدۋىلىنى سۈزۈش (Ctrl+F)</translation>
    </message>
    <message>
        <source>Export chart as PNG…</source>
        <translation>دىئاگراممىنى PNG قىلىپ ئېكسپورت قىل…</translation>
    </message>
    <message>
        <source>Save the chart as an image</source>
        <translation>دىئاگراممىنى رەسىم قىلىپ ساقلاش</translation>
    </message>
    <message>
        <source>Export history as CSV…</source>
        <translation>تارىخنى CSV قىلىپ ئېكسپورت قىل…</translation>
    </message>
    <message>
        <source>Save every member&apos;s count over time: time, member, count</source>
        <translation>ھەر بىر ئەزانىڭ ۋاقىتقا ئەگىشىپ ئۆزگەرگەن سانىنى ساقلاش: ۋاقىت، ئەزا، سان</translation>
    </message>
    <message>
        <source>Export table as CSV…</source>
        <translation>جەدۋەلنى CSV قىلىپ ئېكسپورت قىل…</translation>
    </message>
    <message>
        <source>Save the members table as shown (sorted and filtered)</source>
        <translation>ئەزالار جەدۋىلىنى كۆرسىتىلگەن ھالىتىدە (تەرتىپلەنگەن ۋە سۈزۈلگەن) ساقلاش</translation>
    </message>
    <message>
        <source>Back to previous pool</source>
        <translation>ئالدىنقى كۆلچەككە قايت</translation>
    </message>
    <message>
        <source>Watch the pool watched before this one again (Alt+Left)</source>
        <translation>بۇنىڭدىن ئىلگىرى كۆزىتىلگەن كۆلچەكنى قايتا كۆزىتىش (Alt+Left)</translation>
    </message>
    <message>
        <source>Check selected</source>
        <translation>تاللانغانلارنى تەكشۈر</translation>
    </message>
    <message>
        <source>Check the selected members through their proxies against the health target; results into the health hash (Ctrl+K)</source>
        <translation>تاللانغان ئەزالارنى ئۇلارنىڭ ۋاكالەتچىسى ئارقىلىق ساغلاملىق نىشانىغا قارىتا تەكشۈرۈش؛ نەتىجىلەر ساغلاملىق hash ىغا يېزىلىدۇ (Ctrl+K)</translation>
    </message>
    <message>
        <source>Health check target</source>
        <translation>ساغلاملىق تەكشۈرۈش نىشانى</translation>
    </message>
    <message>
        <source>URL fetched through each proxy (http:// or https://):</source>
        <translation>ھەر بىر ۋاكالەتچى ئارقىلىق ئېلىنىدىغان URL (http:// ياكى https://):</translation>
    </message>
    <message>
        <source>Show credentials</source>
        <translation>كىملىك ئۇچۇرىنى كۆرسەت</translation>
    </message>
    <message>
        <source>Show proxy passwords in member ids (user:pass@host) in the table, chart, events and dialogs; off: user:****@host</source>
        <translation>جەدۋەل، دىئاگرامما، ھادىسىلەر ۋە سۆزلەشكۈلەردە ئەزا كىملىكلىرىدىكى ۋاكالەتچى پاروللىرىنى (user:pass@host) كۆرسىتىش؛ تاقاق بولسا: user:****@host</translation>
    </message>
    <message>
        <source>Include credentials in CSV exports</source>
        <translation>CSV ئېكسپورتىغا كىملىك ئۇچۇرىنى قوش</translation>
    </message>
    <message>
        <source>Write proxy passwords into exported CSV files; off: user:****@host</source>
        <translation>ۋاكالەتچى پاروللىرىنى ئېكسپورت قىلىنغان CSV ھۆججەتلىرىگە يېزىش؛ تاقاق بولسا: user:****@host</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>دىئاگراممىنى ئېكسپورت قىلىش</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG رەسىملىرى (*.png)</translation>
    </message>
    <message>
        <source>Export history</source>
        <translation>تارىخنى ئېكسپورت قىلىش</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV ھۆججەتلىرى (*.csv)</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>جەدۋەلنى ئېكسپورت قىلىش</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>چەكلەنگەن: %1</translation>
    </message>
    <message>
        <source>Check selected: %1</source>
        <translation>تاللانغانلارنى تەكشۈرۈش: %1</translation>
    </message>
    <message>
        <source>Check selected refused: %1</source>
        <translation>تاللانغانلارنى تەكشۈرۈش رەت قىلىندى: %1</translation>
    </message>
    <message>
        <source>select members to check first</source>
        <translation>ئالدى بىلەن تەكشۈرىدىغان ئەزالارنى تاللاڭ</translation>
    </message>
    <message>
        <source>select one or more members in the pool first</source>
        <translation>ئالدى بىلەن كۆلچەكتىن بىر ياكى بىر قانچە ئەزا تاللاڭ</translation>
    </message>
    <message>
        <source>Evict %1 (Delete)</source>
        <translation>%1 نى چىقىرىۋەت (Delete)</translation>
    </message>
    <message numerus="yes">
        <source>Evict the %n selected member(s) (Delete)</source>
        <translation>
            <numerusform>تاللانغان %n ئەزانى چىقىرىۋەت (Delete)</numerusform>
            <numerusform>تاللانغان %n ئەزانى چىقىرىۋەت (Delete)</numerusform>
        </translation>
    </message>
    <message>
        <source>select one or more evicted (grey) members first</source>
        <translation>ئالدى بىلەن بىر ياكى بىر قانچە چىقىرىۋېتىلگەن (كۈلرەڭ) ئەزا تاللاڭ</translation>
    </message>
    <message>
        <source>Restore %1 (Ctrl+R)</source>
        <translation>%1 نى ئەسلىگە كەلتۈر (Ctrl+R)</translation>
    </message>
    <message numerus="yes">
        <source>Restore the %n selected member(s) (Ctrl+R)</source>
        <translation>
            <numerusform>تاللانغان %n ئەزانى ئەسلىگە كەلتۈر (Ctrl+R)</numerusform>
            <numerusform>تاللانغان %n ئەزانى ئەسلىگە كەلتۈر (Ctrl+R)</numerusform>
        </translation>
    </message>
    <message>
        <source>Disabled: not connected</source>
        <translation>چەكلەنگەن: ئۇلانمىغان</translation>
    </message>
    <message>
        <source>Unpin from chart</source>
        <translation>دىئاگراممىدىن مۇقىملاشنى بىكار قىل</translation>
    </message>
    <message>
        <source>Disabled: select members in the table first</source>
        <translation>چەكلەنگەن: ئالدى بىلەن جەدۋەلدىن ئەزا تاللاڭ</translation>
    </message>
    <message>
        <source>Stop always charting the selected members (Ctrl+P)</source>
        <translation>تاللانغان ئەزالارنى ھەمىشە دىئاگراممىدا كۆرسىتىشنى توختىتىش (Ctrl+P)</translation>
    </message>
    <message>
        <source>Watch &quot;%1&quot; on %2 again (Alt+Left)</source>
        <translation>%2 دىكى &quot;%1&quot; نى قايتا كۆزىتىش (Alt+Left)</translation>
    </message>
    <message>
        <source>Disabled: no other pool watched in this window yet</source>
        <translation>چەكلەنگەن: بۇ كۆزنەكتە تېخى باشقا كۆلچەك كۆزىتىلمىگەن</translation>
    </message>
    <message>
        <source>Evict %1?

It gets no allocations until restored; its count is saved.</source>
        <translation>%1 چىقىرىۋېتىلسۇنمۇ؟

ئەسلىگە كەلتۈرۈلگۈچە ئۇ ھېچقانداق تەقسىمات ئالمايدۇ؛ ئۇنىڭ سانى ساقلىنىدۇ.</translation>
    </message>
    <message>
        <source>  • %1</source>
        <translation>  • %1</translation>
    </message>
    <message numerus="yes">
        <source>  … and %n more</source>
        <translation>
            <numerusform>  … ۋە يەنە %n</numerusform>
            <numerusform>  … ۋە يەنە %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Evict these %n member(s)?

%1

They get no allocations until restored; their counts are saved.</source>
        <extracomment>Evict: take out of rotation; the member&apos;s allocation count is kept.</extracomment>
        <translation>
            <numerusform>بۇ %n ئەزا چىقىرىۋېتىلسۇنمۇ؟

%1

ئەسلىگە كەلتۈرۈلگۈچە ئۇلار ھېچقانداق تەقسىمات ئالمايدۇ؛ ئۇلارنىڭ سانلىرى ساقلىنىدۇ.</numerusform>
            <numerusform>بۇ %n ئەزا چىقىرىۋېتىلسۇنمۇ؟

%1

ئەسلىگە كەلتۈرۈلگۈچە ئۇلار ھېچقانداق تەقسىمات ئالمايدۇ؛ ئۇلارنىڭ سانلىرى ساقلىنىدۇ.</numerusform>
        </translation>
    </message>
    <message>
        <source>Evict member</source>
        <translation>ئەزانى چىقىرىۋېتىش</translation>
    </message>
    <message>
        <source>Evict members</source>
        <translation>ئەزالارنى چىقىرىۋېتىش</translation>
    </message>
    <message>
        <source>Restore at zero</source>
        <translation>نۆلدە ئەسلىگە كەلتۈرۈش</translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s) at count zero? Each gets every allocation until it catches up with the pool.</source>
        <translation>
            <numerusform>%n ئەزا نۆل سان بىلەن ئەسلىگە كەلتۈرۈلسۇنمۇ؟ ھەربىرى كۆلچەككە يېتىشكەنچە ھەر بىر تەقسىماتنى ئالىدۇ.</numerusform>
            <numerusform>%n ئەزا نۆل سان بىلەن ئەسلىگە كەلتۈرۈلسۇنمۇ؟ ھەربىرى كۆلچەككە يېتىشكەنچە ھەر بىر تەقسىماتنى ئالىدۇ.</numerusform>
        </translation>
    </message>
    <message>
        <source>restore at zero not confirmed: nothing written</source>
        <translation>نۆلدە ئەسلىگە كەلتۈرۈش جەزملەنمىدى: ھېچنېمە يېزىلمىدى</translation>
    </message>
    <message>
        <source>chart saved to %1</source>
        <translation>دىئاگرامما %1 گە ساقلاندى</translation>
    </message>
    <message>
        <source>cannot save the chart to %1</source>
        <translation>دىئاگراممىنى %1 گە ساقلىيالمىدى</translation>
    </message>
    <message>
        <source>history saved to %1</source>
        <translation>تارىخ %1 گە ساقلاندى</translation>
    </message>
    <message>
        <source>cannot save the history to %1: %2</source>
        <translation>تارىخنى %1 گە ساقلىيالمىدى: %2</translation>
    </message>
    <message>
        <source>table saved to %1</source>
        <translation>جەدۋەل %1 گە ساقلاندى</translation>
    </message>
    <message>
        <source>cannot save the table to %1: %2</source>
        <translation>جەدۋەلنى %1 گە ساقلىيالمىدى: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolAlerts</name>
    <message>
        <source>%1 on %2</source>
        <translation>%2 دىكى %1</translation>
    </message>
    <message>
        <source>alert fired: %1: %2</source>
        <translation>ئاگاھلاندۇرۇش قوزغالدى: %1: %2</translation>
    </message>
    <message>
        <source>alert: %1</source>
        <translation>ئاگاھلاندۇرۇش: %1</translation>
    </message>
    <message>
        <source>alert resolved: %1</source>
        <translation>ئاگاھلاندۇرۇش ھەل بولدى: %1</translation>
    </message>
    <message>
        <source>resolved: %1</source>
        <translation>ھەل بولدى: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolHealth</name>
    <message>
        <source>guard evicted %1: %2</source>
        <translation>قوغدىغۇچى %1 نى چىقىرىۋەتتى: %2</translation>
    </message>
    <message>
        <source>guard restored %1: %2</source>
        <translation>قوغدىغۇچى %1 نى ئەسلىگە كەلتۈردى: %2</translation>
    </message>
    <message>
        <source>guard restored %1: %2; restored at count %3 (policy %4)</source>
        <translation>قوغدىغۇچى %1 نى ئەسلىگە كەلتۈردى: %2؛ تەقسىمات سانى %3 دە ئەسلىگە كەلتۈرۈلدى (سىياسەت %4)</translation>
    </message>
    <message>
        <source>guard held back: %1</source>
        <translation>قوغدىغۇچى توختىتىپ تۇردى: %1</translation>
    </message>
    <message>
        <source>guard %1</source>
        <translation>قوغدىغۇچى %1</translation>
    </message>
    <message>
        <source>guard %1%2: %3</source>
        <translation>قوغدىغۇچى %1%2: %3</translation>
    </message>
    <message>
        <source>a check round is already running</source>
        <translation>بىر تەكشۈرۈش ئايلانمىسى ئىجرا بولۇۋاتىدۇ</translation>
    </message>
    <message>
        <source>no pool is watched</source>
        <translation>ھېچقانداق كۆلچەك كۆزىتىلمەيۋاتىدۇ</translation>
    </message>
    <message>
        <source>no member selected</source>
        <translation>ئەزا تاللانمىدى</translation>
    </message>
    <message>
        <source>target URL &quot;%1&quot;: %2</source>
        <translation>نىشان URL «%1»: %2</translation>
    </message>
    <message numerus="yes">
        <source>checking %n member(s) through their proxies against %1</source>
        <translation>
            <numerusform>%n ئەزا ئۇنىڭ ۋاكالەتچىسى ئارقىلىق %1 غا قارىتا تەكشۈرۈلۈۋاتىدۇ</numerusform>
            <numerusform>%n ئەزا ئۇلارنىڭ ۋاكالەتچىلىرى ئارقىلىق %1 غا قارىتا تەكشۈرۈلۈۋاتىدۇ</numerusform>
        </translation>
    </message>
    <message>
        <source>check results not saved: %1</source>
        <translation>تەكشۈرۈش نەتىجىسى ساقلانمىدى: %1</translation>
    </message>
    <message numerus="yes">
        <source>checked %n member(s) in %1 ms: %2 up, %3 down, %4 not checkable</source>
        <translation>
            <numerusform>%n ئەزا %1 مىللىسېكۇنتتا تەكشۈرۈلدى: %2 ئىشلەيدۇ، %3 ئىشلىمەيدۇ، %4 تەكشۈرگىلى بولمايدۇ</numerusform>
            <numerusform>%n ئەزا %1 مىللىسېكۇنتتا تەكشۈرۈلدى: %2 ئىشلەيدۇ، %3 ئىشلىمەيدۇ، %4 تەكشۈرگىلى بولمايدۇ</numerusform>
        </translation>
    </message>
    <message>
        <source>the guard is already running</source>
        <translation>قوغدىغۇچى ئاللىبۇرۇن ئىجرا بولۇۋاتىدۇ</translation>
    </message>
    <message>
        <source>Guard not started: no live pool is watched</source>
        <translation>قوغدىغۇچى باشلانمىدى: جانلىق كۆلچەك كۆزىتىلمەيۋاتىدۇ</translation>
    </message>
    <message>
        <source>Guard not started: %1</source>
        <translation>قوغدىغۇچى باشلانمىدى: %1</translation>
    </message>
    <message>
        <source>Guard not started: another guard (%1) holds the lease on this pool</source>
        <translation>قوغدىغۇچى باشلانمىدى: باشقا قوغدىغۇچى (%1) بۇ كۆلچەكنىڭ ئىجارىسىنى تۇتىدۇ</translation>
    </message>
    <message>
        <source>%1 on %2 (%3, pid %4)</source>
        <translation>%2 دىكى %1 (%3، pid %4)</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>بىرەيلەن</translation>
    </message>
    <message numerus="yes">
        <source>%1 seeded %n member(s)</source>
        <translation>
            <numerusform>%1 %n ئەزا قوشتى</numerusform>
            <numerusform>%1 %n ئەزا قوشتى</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 evicted %2</source>
        <translation>%1 %2 نى چىقىرىۋەتتى</translation>
    </message>
    <message>
        <source>%1 restored %2</source>
        <translation>%1 %2 نى ئەسلىگە كەلتۈردى</translation>
    </message>
    <message>
        <source>%1: %2 %3</source>
        <translation>%1: %2 %3</translation>
    </message>
    <message>
        <source>%1; reason: %2</source>
        <translation>%1؛ سەۋەبى: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolSession</name>
    <message>
        <source>cluster: the pool&apos;s slot %1 moved from node %2 to node %3</source>
        <translation>توپ: كۆلچەكنىڭ slot %1 ى %2 تۈگۈنىدىن %3 تۈگۈنىگە يۆتكەلدى</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>كۆزىتىلمەيدۇ</translation>
    </message>
    <message>
        <source>a recording, opened read only: there is no pool to write to</source>
        <translation>خاتىرە ھۆججىتى، پەقەت ئوقۇش ئۈچۈن ئېچىلغان: يازىدىغان كۆلچەك يوق</translation>
    </message>
    <message>
        <source>read-only mode (--read-only): poolscope only watches this pool</source>
        <translation>پەقەت ئوقۇش ھالىتى (--read-only): poolscope بۇ كۆلچەكنى پەقەت كۆزىتىدۇ</translation>
    </message>
    <message>
        <source>not connected to Redis: connect first</source>
        <translation>Redis قا ئۇلانمىغان: ئالدى بىلەن ئۇلىنىڭ</translation>
    </message>
    <message>
        <source>read-only: the server refuses writes for this user (%1)</source>
        <translation>پەقەت ئوقۇش: مۇلازىمېتىر بۇ ئىشلەتكۈچىنىڭ يېزىشىنى رەت قىلىدۇ (%1)</translation>
    </message>
    <message>
        <source>connecting to %1, pool &quot;%2&quot;</source>
        <translation>%1 غا ئۇلىنىۋاتىدۇ، كۆلچەك &quot;%2&quot;</translation>
    </message>
    <message>
        <source>back to this pool</source>
        <translation>بۇ كۆلچەككە قايتتى</translation>
    </message>
    <message>
        <source>disconnected from %1</source>
        <translation>%1 دىن ئۇلىنىش ئۈزۈلدى</translation>
    </message>
    <message>
        <source>polling paused</source>
        <translation>سوراش ۋاقىتلىق توختىتىلدى</translation>
    </message>
    <message>
        <source>polling resumed</source>
        <translation>سوراش داۋاملاشتى</translation>
    </message>
    <message>
        <source>connected to %1 (%2)</source>
        <translation>%1 غا ئۇلاندى (%2)</translation>
    </message>
    <message>
        <source>connection lost, reconnecting: %1</source>
        <translation>ئۇلىنىش ئۈزۈلدى، قايتا ئۇلىنىۋاتىدۇ: %1</translation>
    </message>
    <message>
        <source>failover: the primary moved from %1 to %2 (named by sentinel %3)</source>
        <translation>زاپاسقا ئالمىشىش: ئاساسىي مۇلازىمېتىر %1 دىن %2 گە يۆتكەلدى (sentinel %3 بەلگىلىگەن)</translation>
    </message>
    <message>
        <source>no pool at &quot;%1&quot; yet: Seed… to add proxies</source>
        <translation>&quot;%1&quot; دا تېخى كۆلچەك يوق: ۋاكالەتچى قوشۇش ئۈچۈن «ئەزا قوش…»</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted%4</source>
        <translation type="vanished">كۆلچەك &quot;%1&quot;: %L2 ئەزا، %L3 چىقىرىۋېتىلگەن%4</translation>
    </message>
    <message>
        <source>poll failed: %1</source>
        <translation>سوراش مەغلۇپ بولدى: %1</translation>
    </message>
    <message>
        <source>%1 · not retrying: enter the password in the Redis URL field</source>
        <translation>%1 · قايتا سىنالمايدۇ: پارولنى Redis URL بۆلىكىگە كىرگۈزۈڭ</translation>
    </message>
    <message>
        <source>recording (read only)</source>
        <translation>خاتىرە ھۆججىتى (پەقەت ئوقۇش)</translation>
    </message>
    <message>
        <source>opened the recording %1 (pool %2 on %3, %L4 polls, read only)</source>
        <translation>خاتىرە ھۆججىتى %1 ئېچىلدى (%3 دىكى %2 كۆلچىكى، %L4 سوراش، پەقەت ئوقۇش)</translation>
    </message>
    <message>
        <source>%1 refused: %2</source>
        <translation>%1 رەت قىلىندى: %2</translation>
    </message>
    <message>
        <source>seed +%L1 at %2</source>
        <translation>ئەزا قوشۇش +%L1، باشلىنىش سانى %2</translation>
    </message>
    <message>
        <source>%L1 already in the pool kept their count</source>
        <translation>كۆلچەكتە بار %L1 ئەزا سانىنى ساقلاپ قالدى</translation>
    </message>
    <message>
        <source>%L1 reset</source>
        <translation>%L1 قايتا تەڭشەلدى</translation>
    </message>
    <message>
        <source>%L1 evicted not re-added (restore them instead)</source>
        <translation>چىقىرىۋېتىلگەن %L1 ئەزا قايتا قوشۇلمىدى (ئۇلارنى ئەسلىگە كەلتۈرۈڭ)</translation>
    </message>
    <message>
        <source>evict %1 (saved %2)</source>
        <translation>%1 نى چىقىرىۋېتىش (ساقلانغان سان %2)</translation>
    </message>
    <message>
        <source>restore %1 (%2) at %3</source>
        <translation>%1 نى ئەسلىگە كەلتۈرۈش (%2)، سان %3</translation>
    </message>
    <message>
        <source>restore %L1 members (%2): %3</source>
        <translation>%L1 ئەزانى ئەسلىگە كەلتۈرۈش (%2): %3</translation>
    </message>
    <message>
        <source> · forecast: </source>
        <translation type="vanished"> · مۆلچەر: </translation>
    </message>
    <message>
        <source>connected to a read-only replica</source>
        <translation>پەقەت ئوقۇشلۇق زاپاس مۇلازىمېتىرغا ئۇلاندى</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted · %4</source>
        <comment>%4: how the big pool was read (a summary)</comment>
        <translation>كۆلچەك &quot;%1&quot;: %L2 ئەزا، %L3 چىقىرىۋېتىلگەن · %4</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted</source>
        <translation>كۆلچەك &quot;%1&quot;: %L2 ئەزا، %L3 چىقىرىۋېتىلگەن</translation>
    </message>
    <message>
        <source>%1 · forecast: %2</source>
        <comment>%1: the restore done, %2: what it will do to the pool</comment>
        <translation>%1 · مۆلچەر: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolTableModel</name>
    <message>
        <source>evicted (saved %1)</source>
        <translation>چىقىرىۋېتىلگەن (ساقلانغان سان %1)</translation>
    </message>
    <message>
        <source>in pool · catching up</source>
        <translation>كۆلچەكتە · يېتىشىۋاتىدۇ</translation>
    </message>
    <message>
        <source>in pool</source>
        <translation>كۆلچەكتە</translation>
    </message>
    <message>
        <source>%1 · pinned</source>
        <translation>%1 · مۇقىملانغان</translation>
    </message>
    <message>
        <source>Rank %1 of a big pool: read on the next poll (only the rows on screen are read)</source>
        <translation>چوڭ كۆلچەكنىڭ %1-دەرىجىسى: كېيىنكى سوراشتا ئوقۇلىدۇ (پەقەت ئېكراندىكى قۇرلارلا ئوقۇلىدۇ)</translation>
    </message>
    <message>
        <source>%1 is pinned to the chart (Ctrl+P again to unpin)</source>
        <translation>%1 دىئاگراممىغا مۇقىملانغان (بىكار قىلىش ئۈچۈن يەنە Ctrl+P)</translation>
    </message>
    <message>
        <source>%1 is evicted: it gets no allocations. Saved count %2; restore it with Ctrl+R.</source>
        <translation>%1 چىقىرىۋېتىلگەن: ئۇ ھېچقانداق تەقسىمات ئالمايدۇ. ساقلانغان سان %2؛ ئۇنى Ctrl+R بىلەن ئەسلىگە كەلتۈرۈڭ.</translation>
    </message>
    <message>
        <source>%1 is %2 below the lowest of the others: it will take about the next %2 allocations.</source>
        <translation>%1 باشقىلارنىڭ ئەڭ تۆۋىنىدىن %2 تۆۋەن: ئۇ كېيىنكى تەخمىنەن %2 تەقسىماتنى ئالىدۇ.</translation>
    </message>
    <message>
        <source>member</source>
        <translation>ئەزا</translation>
    </message>
    <message>
        <source>count</source>
        <extracomment>The allocation count (the sorted set&apos;s score) column.</extracomment>
        <translation>سان</translation>
    </message>
    <message>
        <source>share</source>
        <translation>ئۈلۈش</translation>
    </message>
    <message>
        <source>rate/s</source>
        <translation>سۈرئەت/سېكۇنت</translation>
    </message>
    <message>
        <source>state</source>
        <translation>ھالەت</translation>
    </message>
    <message>
        <source>debt</source>
        <translation>قەرز</translation>
    </message>
    <message>
        <source>health</source>
        <translation>ساغلاملىق</translation>
    </message>
    <message>
        <source>last change</source>
        <translation>ئاخىرقى ئۆزگىرىش</translation>
    </message>
    <message>
        <source>Proxy id (the sorted set&apos;s member); the swatch is its chart colour</source>
        <translation>ۋاكالەتچى كىملىكى (تەرتىپلەنگەن گۇرۇپپىنىڭ ئەزاسى)؛ رەڭ كاتەكچىسى ئۇنىڭ دىئاگراممىدىكى رەڭگى</translation>
    </message>
    <message>
        <source>Allocations recorded so far (the score); for evicted members the saved count</source>
        <translation>ھازىرغىچە خاتىرىلەنگەن تەقسىماتلار (نومۇر)؛ چىقىرىۋېتىلگەن ئەزالار ئۈچۈن ساقلانغان سان</translation>
    </message>
    <message>
        <source>Share of all allocations counted in the pool</source>
        <translation>كۆلچەكتە سانالغان بارلىق تەقسىماتتىكى ئۈلۈشى</translation>
    </message>
    <message>
        <source>Allocations per second over the last window (– for a big pool&apos;s members that are not charted: only those are read from poll to poll)</source>
        <translation>ئاخىرقى كۆزنەكتىكى سېكۇنتلۇق تەقسىمات (چوڭ كۆلچەكنىڭ دىئاگراممىدا كۆرسىتىلمىگەن ئەزالىرى ئۈچۈن –: ھەر قېتىملىق سوراشتا پەقەت شۇلارلا ئوقۇلىدۇ)</translation>
    </message>
    <message>
        <source>In the pool, or evicted (kept aside with its saved count)</source>
        <translation>كۆلچەكتە، ياكى چىقىرىۋېتىلگەن (ساقلانغان سانى بىلەن بىر چەتكە قويۇلغان)</translation>
    </message>
    <message>
        <source>Catch-up debt: how far the count is below the lowest count of the others. A member with debt takes every allocation until it has caught up.</source>
        <translation>يېتىشىش قەرزى: سانىنىڭ باشقىلارنىڭ ئەڭ تۆۋەن سانىدىن قانچىلىك تۆۋەنلىكى. قەرزى بار ئەزا يېتىشكەنچە ھەر بىر تەقسىماتنى ئالىدۇ.</translation>
    </message>
    <message>
        <source>When the count last changed</source>
        <translation>ساننىڭ ئاخىرقى قېتىم ئۆزگەرگەن ۋاقتى</translation>
    </message>
    <message>
        <source>The last health check through the member&apos;s proxy (shared in Redis by every dashboard, check and guard): up with its latency, down with its failure, not checkable, or unknown</source>
        <translation>ئەزانىڭ ۋاكالەتچىسى ئارقىلىق ئېلىپ بېرىلغان ئاخىرقى ساغلاملىق تەكشۈرۈش (ھەممە كۆزىتىش تاختىسى، تەكشۈرۈش ۋە قوغدىغۇچى Redis تا ئورتاق ئىشلىتىدۇ): ئىشلەۋاتىدۇ ۋە كېچىكىشى، ئىشلىمەيدۇ ۋە مەغلۇبىيىتى، تەكشۈرگىلى بولمايدۇ، ياكى نامەلۇم</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsPanel</name>
    <message>
        <source>Connect to see every pool on the server or cluster.</source>
        <translation>مۇلازىمېتىر ياكى توپتىكى ھەممە كۆلچەكنى كۆرۈش ئۈچۈن ئۇلاڭ.</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>يېڭىلا</translation>
    </message>
    <message>
        <source>Double-click a pool to watch it</source>
        <translation>كۆزىتىش ئۈچۈن بىر كۆلچەكنى قوش چېكىڭ</translation>
    </message>
    <message numerus="yes">
        <source>%n pool(s)</source>
        <translation>
            <numerusform>%n كۆلچەك</numerusform>
            <numerusform>%n كۆلچەك</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s)</source>
        <translation type="vanished">
            <numerusform> %n تۈگۈندە</numerusform>
            <numerusform> %n تۈگۈندە</numerusform>
        </translation>
    </message>
    <message>
        <source>, read at %1</source>
        <translation type="vanished">، %1 دە ئوقۇلدى</translation>
    </message>
    <message>
        <source>Could not read the pools: %1</source>
        <translation>كۆلچەكلەرنى ئوقۇغىلى بولمىدى: %1</translation>
    </message>
    <message>
        <source>Reading the pools of %1…</source>
        <translation>%1 نىڭ كۆلچەكلىرى ئوقۇلۇۋاتىدۇ…</translation>
    </message>
    <message>
        <source>%1 on %2, read at %3</source>
        <comment>%1: how many pools (sorted sets of proxies), %2: how many Redis nodes, %3: a time</comment>
        <translation>%1، %2 دە، %3 دە ئوقۇلدى</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <comment>Redis servers</comment>
        <translation>
            <numerusform>%n تۈگۈن</numerusform>
            <numerusform>%n تۈگۈن</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsTableModel</name>
    <message>
        <source>Estimated: pool size × rise of the median count per second (the pool is too big to sum in one bounded read)</source>
        <translation>مۆلچەر: كۆلچەك چوڭلۇقى × ئوتتۇرا تەقسىمات سانىنىڭ سېكۇنتلۇق ئېشىشى (كۆلچەك بىر چەكلىك ئوقۇشتا يىغىنچاقلاشقا بەك چوڭ)</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>كۆلچەك</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>تۈگۈن</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>چوڭلۇقى</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>ئەڭ تۆۋەن</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>ئوتتۇرا قىممەت</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>ئەڭ يۇقىرى</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>پەرق</translation>
    </message>
    <message>
        <source>Evicted</source>
        <translation>چىقىرىۋېتىلگەن</translation>
    </message>
    <message>
        <source>Alloc/s</source>
        <translation>تەقسىمات/سېكۇنت</translation>
    </message>
</context>
<context>
    <name>poolscope::ProfileConnector</name>
    <message>
        <source>connection &quot;%1&quot;: no password given</source>
        <translation>&quot;%1&quot; ئۇلىنىشى: پارول بېرىلمىدى</translation>
    </message>
</context>
<context>
    <name>poolscope::ReasonField</name>
    <message>
        <source>optional: why, for the pool&apos;s audit trail</source>
        <translation>ئىختىيارىي: سەۋەبى، كۆلچەكنىڭ تەپتىش خاتىرىسى ئۈچۈن</translation>
    </message>
    <message>
        <source>Recorded with the action in the pool&apos;s audit trail, where the team and `poolscope-cli audit` read it. Leave empty for none.</source>
        <translation>مەشغۇلات بىلەن بىللە كۆلچەكنىڭ تەپتىش خاتىرىسىگە يېزىلىدۇ، گۇرۇپپا ۋە `poolscope-cli audit` ئۇنى ئوقۇيدۇ. يوق بولسا قۇرۇق قالدۇرۇڭ.</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>سەۋەب</translation>
    </message>
    <message>
        <source>&amp;Reason:</source>
        <translation>سەۋەب(&amp;R):</translation>
    </message>
</context>
<context>
    <name>poolscope::RecentRecordings</name>
    <message>
        <source>Recent recordings</source>
        <translation>يېقىنقى خاتىرە ھۆججەتلىرى</translation>
    </message>
    <message>
        <source>%1 is gone: removed from the recent recordings</source>
        <translation>%1 يوق: يېقىنقى خاتىرە ھۆججەتلىرىدىن ئېلىۋېتىلدى</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>No recordings opened yet</source>
        <translation>تېخى خاتىرە ھۆججىتى ئېچىلمىدى</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>تىزىملىكنى تازىلا</translation>
    </message>
</context>
<context>
    <name>poolscope::ResetScenarioDialog</name>
    <message>
        <source>the count-reset scenario&apos;s pool was left: the demo, paused for the scenario, is on again</source>
        <translation>سان قايتا تەڭشەش سىنارىيەسىنىڭ كۆلچىكىدىن ئايرىلدى: سىنارىيە ئۈچۈن توختىتىلغان كۆرسىتىش قايتا ئىشلەۋاتىدۇ</translation>
    </message>
    <message>
        <source>Run scenario</source>
        <translation>سىنارىيەنى ئىجرا قىل</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>ئىجرانى ئەمەلدىن قالدۇر</translation>
    </message>
    <message>
        <source>Back to previous pool</source>
        <translation>ئالدىنقى كۆلچەككە قايت</translation>
    </message>
    <message>
        <source>Stop the scenario now (a partial report follows)</source>
        <translation>سىنارىيەنى ھازىرلا توختىتىش (ئارقىدىن قىسمەن دوكلات بېرىلىدۇ)</translation>
    </message>
    <message>
        <source>Watch the pool you watched before the scenario again</source>
        <translation>سىنارىيەدىن ئىلگىرى كۆزەتكەن كۆلچەكنى قايتا كۆزىتىش</translation>
    </message>
    <message>
        <source>Run the scenario (writes the scenario key)</source>
        <translation>سىنارىيەنى ئىجرا قىلىش (سىنارىيە ئاچقۇچىغا يازىدۇ)</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>چەكلەنگەن: %1</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>ئىجرا قىلالمايدۇ: %1</translation>
    </message>
    <message>
        <source>Name the scenario key first.</source>
        <translation>ئالدى بىلەن سىنارىيە ئاچقۇچىنى كىرگۈزۈڭ.</translation>
    </message>
    <message>
        <source>Count-reset demo on production</source>
        <translation>ئىشلەپچىقىرىشتا سان قايتا تەڭشەش كۆرسەتمىسى</translation>
    </message>
    <message>
        <source>The count-reset demo replaces pool “%1” with its own members, evicts one and restores it. Run it on this production server?</source>
        <translation>سان قايتا تەڭشەش كۆرسەتمىسى “%1” كۆلچىكىنى ئۆزىنىڭ ئەزالىرى بىلەن ئالماشتۇرىدۇ، بىرىنى چىقىرىۋېتىپ ئەسلىگە كەلتۈرىدۇ. بۇ ئىشلەپچىقىرىش مۇلازىمېتىرىدا ئىجرا قىلامسىز؟</translation>
    </message>
    <message>
        <source>Not run: the pool&apos;s name was not typed.</source>
        <translation>ئىجرا قىلىنمىدى: كۆلچەكنىڭ نامى كىرگۈزۈلمىدى.</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>ئىجرا بولۇۋاتىدۇ…</translation>
    </message>
    <message numerus="yes">
        <source>count-reset scenario: %n member(s), %1/s, policy %2, pool &quot;%3&quot;</source>
        <translation>
            <numerusform>سان قايتا تەڭشەش سىنارىيەسى: %n ئەزا، %1/سېكۇنت، سىياسەت %2، كۆلچەك &quot;%3&quot;</numerusform>
            <numerusform>سان قايتا تەڭشەش سىنارىيەسى: %n ئەزا، %1/سېكۇنت، سىياسەت %2، كۆلچەك &quot;%3&quot;</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>ئەمەلدىن قالدۇرۇلۇۋاتىدۇ…</translation>
    </message>
    <message>
        <source>steady load</source>
        <translation>مۇقىم يۈك</translation>
    </message>
    <message>
        <source>one member evicted</source>
        <translation>بىر ئەزا چىقىرىۋېتىلدى</translation>
    </message>
    <message numerus="yes">
        <source>restored: %Ln allocation(s) went to it since</source>
        <translation>
            <numerusform>ئەسلىگە كەلتۈرۈلدى: شۇندىن بۇيان %Ln تەقسىمات ئۇنىڭغا كەتتى</numerusform>
            <numerusform>ئەسلىگە كەلتۈرۈلدى: شۇندىن بۇيان %Ln تەقسىمات ئۇنىڭغا كەتتى</numerusform>
        </translation>
    </message>
    <message>
        <source>finished</source>
        <translation>تاماملاندى</translation>
    </message>
    <message numerus="yes">
        <source>%1 / %2 · %Ln allocation(s) · %3</source>
        <translation>
            <numerusform>%1 / %2 · %Ln تەقسىمات · %3</numerusform>
            <numerusform>%1 / %2 · %Ln تەقسىمات · %3</numerusform>
        </translation>
    </message>
    <message>
        <source>evict %1 (scenario)</source>
        <translation>%1 نى چىقىرىۋېتىش (سىنارىيە)</translation>
    </message>
    <message>
        <source>restore %1 (%2)</source>
        <translation>%1 نى ئەسلىگە كەلتۈرۈش (%2)</translation>
    </message>
    <message>
        <source>The scenario failed: %1</source>
        <translation>سىنارىيە مەغلۇپ بولدى: %1</translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved (cancelled)</source>
        <translation>
            <numerusform>كۆلچەك &quot;%1&quot;: %n ئەزا، تەلەپ %2/سېكۇنت، ئەمەلىي %3/سېكۇنت (ئەمەلدىن قالدۇرۇلدى)</numerusform>
            <numerusform>كۆلچەك &quot;%1&quot;: %n ئەزا، تەلەپ %2/سېكۇنت، ئەمەلىي %3/سېكۇنت (ئەمەلدىن قالدۇرۇلدى)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved</source>
        <translation>
            <numerusform>كۆلچەك &quot;%1&quot;: %n ئەزا، تەلەپ %2/سېكۇنت، ئەمەلىي %3/سېكۇنت</numerusform>
            <numerusform>كۆلچەك &quot;%1&quot;: %n ئەزا، تەلەپ %2/سېكۇنت، ئەمەلىي %3/سېكۇنت</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: evicted at %2 with count %3, restored at %4 by &quot;%5&quot; at %6</source>
        <translation>%1: %2 دە %3 سان بىلەن چىقىرىۋېتىلدى، %4 دە &quot;%5&quot; سىياسىتى بويىچە %6 سان بىلەن ئەسلىگە كەلتۈرۈلدى</translation>
    </message>
    <message>
        <source>forecast: the next ~%1 allocations go to it (pool minimum %2 - restored count %3)</source>
        <translation>مۆلچەر: كېيىنكى تەخمىنەن %1 تەقسىمات ئۇنىڭغا كېتىدۇ (كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى %2 - ئەسلىگە كەلتۈرۈلگەن سان %3)</translation>
    </message>
    <message numerus="yes">
        <source>observed: longest run %Ln consecutive allocation(s)</source>
        <translation>
            <numerusform>كۆزىتىلگىنى: ئەڭ ئۇزۇن ئۇدا %Ln تەقسىمات</numerusform>
            <numerusform>كۆزىتىلگىنى: ئەڭ ئۇزۇن ئۇدا %Ln تەقسىمات</numerusform>
        </translation>
    </message>
    <message>
        <source>share in the first %1 after the restore: %2 (fair share %3)</source>
        <translation>ئەسلىگە كەلتۈرۈلگەندىن كېيىنكى دەسلەپكى %1 دىكى ئۈلۈش: %2 (ئادىل ئۈلۈش %3)</translation>
    </message>
    <message>
        <source>caught up with the pool minimum after %1</source>
        <translation>%1 دىن كېيىن كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتىگە يېتىشىۋالدى</translation>
    </message>
    <message>
        <source>did not catch up within the run</source>
        <translation>ئىجرا جەريانىدا يېتىشەلمىدى</translation>
    </message>
    <message>
        <source>%1 by %2: forecast run ~%3, observed %4, share %5</source>
        <translation>%1 (%2 سىياسىتى): مۆلچەرلەنگەن ئۇدا ~%3، كۆزىتىلگىنى %4، ئۈلۈش %5</translation>
    </message>
</context>
<context>
    <name>poolscope::RestoreDialog</name>
    <message>
        <source>Restore</source>
        <translation>ئەسلىگە كەلتۈرۈش</translation>
    </message>
    <message>
        <source>%1 (saved %2)</source>
        <translation>%1 (ساقلانغان سان %2)</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>ۋە يەنە %n</numerusform>
            <numerusform>ۋە يەنە %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s): %1</source>
        <translation>
            <numerusform>%n ئەزانى ئەسلىگە كەلتۈرۈش: %1</numerusform>
            <numerusform>%n ئەزانى ئەسلىگە كەلتۈرۈش: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>
Restored count %1, pool minimum now %2, rate %3/s.</source>
        <translation type="vanished">
ئەسلىگە كەلتۈرۈلگەن سان %1، كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى ھازىر %2، سۈرئەت %3/سېكۇنت.</translation>
    </message>
    <message>
        <source>Starting count: %1</source>
        <translation>باشلىنىش سانى: %1</translation>
    </message>
    <message>
        <source>Restore with this policy</source>
        <translation>بۇ سىياسەت بويىچە ئەسلىگە كەلتۈرۈش</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>چەكلەنگەن: %1</translation>
    </message>
    <message>
        <source>Restored count %1, pool minimum now %2, rate %3/s.</source>
        <comment>count: allocations a member has had (its score); %3: allocations per second</comment>
        <translation>ئەسلىگە كەلتۈرۈلگەن سان %1، كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى ھازىر %2، سۈرئەت %3/سېكۇنت.</translation>
    </message>
</context>
<context>
    <name>poolscope::SecretPrompter</name>
    <message>
        <source>Password for %1:</source>
        <translation>%1 نىڭ پارولى:</translation>
    </message>
    <message>
        <source>The TLS client key %1 is encrypted. Its passphrase:</source>
        <translation>TLS خېرىدار ئاچقۇچى %1 شىفىرلانغان. ئۇنىڭ ئىم ئىبارىسى:</translation>
    </message>
    <message>
        <source>The SSH key %1 is encrypted. Its passphrase:</source>
        <translation>SSH ئاچقۇچى %1 شىفىرلانغان. ئۇنىڭ ئىم ئىبارىسى:</translation>
    </message>
    <message>
        <source>SSH password for %1:</source>
        <translation>%1 نىڭ SSH پارولى:</translation>
    </message>
    <message>
        <source>
(kept in the keychain for &quot;%1&quot;)</source>
        <translation type="vanished">
(&quot;%1&quot; ئۈچۈن ئاچقۇچ ساندۇقىدا ساقلىنىدۇ)</translation>
    </message>
    <message>
        <source>
(no keychain here: kept in memory only, until poolscope exits)</source>
        <translation type="vanished">
(بۇ يەردە ئاچقۇچ ساندۇقى يوق: poolscope چېكىنگۈچە پەقەت ئىچكى ساقلىغۇچتا ساقلىنىدۇ)</translation>
    </message>
    <message>
        <source>
(kept in memory only, until poolscope exits)</source>
        <translation type="vanished">
(poolscope چېكىنگۈچە پەقەت ئىچكى ساقلىغۇچتا ساقلىنىدۇ)</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <comment>why the secret is asked for again, then the question</comment>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>(kept in the keychain for &quot;%1&quot;)</source>
        <translation>(&quot;%1&quot; ئۈچۈن ئاچقۇچ ساندۇقىدا ساقلىنىدۇ)</translation>
    </message>
    <message>
        <source>(no keychain here: kept in memory only, until poolscope exits)</source>
        <translation>(بۇ يەردە ئاچقۇچ ساندۇقى يوق: poolscope چېكىنگۈچە پەقەت ئىچكى ساقلىغۇچتا ساقلىنىدۇ)</translation>
    </message>
    <message>
        <source>(kept in memory only, until poolscope exits)</source>
        <translation>(poolscope چېكىنگۈچە پەقەت ئىچكى ساقلىغۇچتا ساقلىنىدۇ)</translation>
    </message>
</context>
<context>
    <name>poolscope::SeedDialog</name>
    <message>
        <source>Pool minimum (now %1)</source>
        <translation>كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى (ھازىر %1)</translation>
    </message>
    <message>
        <source>Pool minimum (pool empty: 0)</source>
        <translation>كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى (كۆلچەك قۇرۇق: 0)</translation>
    </message>
    <message>
        <source>Pool minimum (not read yet)</source>
        <translation>كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى (تېخى ئوقۇلمىدى)</translation>
    </message>
    <message>
        <source>Load or paste a list: its new members will join at the pool minimum.</source>
        <translation>تىزىملىك يۈكلەڭ ياكى چاپلاڭ: ئۇنىڭ يېڭى ئەزالىرى كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتىدە قوشۇلىدۇ.</translation>
    </message>
    <message>
        <source>Load or paste a list to see whether its new members would flood the pool.</source>
        <translation>يېڭى ئەزالىرىنىڭ كۆلچەكتە كەلكۈن پەيدا قىلىدىغان-قىلمايدىغانلىقىنى كۆرۈش ئۈچۈن تىزىملىك يۈكلەڭ ياكى چاپلاڭ.</translation>
    </message>
    <message>
        <source>The pool has not been read yet: the flood forecast follows its first poll.</source>
        <translation>كۆلچەك تېخى ئوقۇلمىدى: كەلكۈن مۆلچەرى تۇنجى سوراشتىن كېيىن چىقىدۇ.</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>ئەزا قوش</translation>
    </message>
    <message>
        <source>%1 is larger than 64 MiB: split it first.</source>
        <translation>%1 نىڭ چوڭلۇقى 64 MiB دىن ئېشىپ كەتتى: ئالدى بىلەن ئۇنى بۆلۈڭ.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 نى ئوقۇيالمىدى: %2</translation>
    </message>
    <message>
        <source>%1 (%2): the first %3 lines are shown, every line is used</source>
        <translation>%1 (%2): ئالدىنقى %3 قۇر كۆرسىتىلدى، ھەممە قۇر ئىشلىتىلىدۇ</translation>
    </message>
    <message>
        <source>Open a proxy list</source>
        <translation>ۋاكالەتچى تىزىملىكىنى ئېچىش</translation>
    </message>
    <message>
        <source>Proxy lists (*.txt *.csv *.json *.list)</source>
        <translation>ۋاكالەتچى تىزىملىكلىرى (*.txt *.csv *.json *.list)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>ھەممە ھۆججەتلەر (*)</translation>
    </message>
    <message>
        <source>evicted: restore it instead</source>
        <translation>چىقىرىۋېتىلگەن: ئۇنىڭ ئورنىغا ئەسلىگە كەلتۈرۈڭ</translation>
    </message>
    <message>
        <source>already in the pool</source>
        <translation>ئاللىبۇرۇن كۆلچەكتە</translation>
    </message>
    <message>
        <source>new</source>
        <translation>يېڭى</translation>
    </message>
    <message>
        <source>line %1: %2
%3</source>
        <translation>%1-قۇر: %2
%3</translation>
    </message>
    <message>
        <source>%1 (%2, first %3 listed)</source>
        <translation>%1 (%2، ئالدىنقى %3 تىزىلدى)</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>قوبۇل قىلىنغان</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>رەت قىلىنغان</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>تەكرارلار</translation>
    </message>
    <message>
        <source>New members join at the pool minimum: no flood.</source>
        <translation>يېڭى ئەزالار كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتىدە قوشۇلىدۇ: كەلكۈن يوق.</translation>
    </message>
    <message>
        <source>Starting count: %1</source>
        <translation>باشلىنىش سانى: %1</translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already (pool minimum now %1). Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>قوشىدىغان يېڭى ئەزا يوق: قوبۇل قىلىنغان %n ئەزانىڭ ھەممىسى ئاللىبۇرۇن كۆلچەكتە (كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى ھازىر %1). ئۇلارنىڭ سانىنى قايتا بەلگىلەش ئۈچۈن «كۆلچەكتە بار ئەزالارنى قايتا تەڭشە» گە بەلگە قويۇڭ.</numerusform>
            <numerusform>قوشىدىغان يېڭى ئەزا يوق: قوبۇل قىلىنغان %n ئەزانىڭ ھەممىسى ئاللىبۇرۇن كۆلچەكتە (كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى ھازىر %1). ئۇلارنىڭ سانىنى قايتا بەلگىلەش ئۈچۈن «كۆلچەكتە بار ئەزالارنى قايتا تەڭشە» گە بەلگە قويۇڭ.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already. Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>قوشىدىغان يېڭى ئەزا يوق: قوبۇل قىلىنغان %n ئەزانىڭ ھەممىسى ئاللىبۇرۇن كۆلچەكتە. ئۇلارنىڭ سانىنى قايتا بەلگىلەش ئۈچۈن «كۆلچەكتە بار ئەزالارنى قايتا تەڭشە» گە بەلگە قويۇڭ.</numerusform>
            <numerusform>قوشىدىغان يېڭى ئەزا يوق: قوبۇل قىلىنغان %n ئەزانىڭ ھەممىسى ئاللىبۇرۇن كۆلچەكتە. ئۇلارنىڭ سانىنى قايتا بەلگىلەش ئۈچۈن «كۆلچەكتە بار ئەزالارنى قايتا تەڭشە» گە بەلگە قويۇڭ.</numerusform>
        </translation>
    </message>
    <message>
        <source>Pool minimum is %1: starting at %2 causes no flood.</source>
        <translation>كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى %1: %2 دىن باشلاش كەلكۈن پەيدا قىلمايدۇ.</translation>
    </message>
    <message>
        <source>The pool is empty: the new members share the allocations.</source>
        <translation>كۆلچەك قۇرۇق: يېڭى ئەزالار تەقسىماتلارنى ئورتاق بۆلۈشىدۇ.</translation>
    </message>
    <message>
        <source>Flood warning: %1 is below the pool minimum %2. %3</source>
        <translation>كەلكۈن ئاگاھلاندۇرۇشى: %1 كۆلچەكنىڭ ئەڭ تۆۋەن قىممىتى %2 دىن تۆۋەن. %3</translation>
    </message>
    <message>
        <source>Seed a pool (not connected)</source>
        <translation>كۆلچەككە ئەزا قوشۇش (ئۇلانمىغان)</translation>
    </message>
    <message>
        <source>Not connected: connect to a pool first.</source>
        <translation>ئۇلانمىغان: ئالدى بىلەن بىر كۆلچەككە ئۇلىنىڭ.</translation>
    </message>
    <message>
        <source>Seed pool &quot;%1&quot; · %2</source>
        <translation>&quot;%1&quot; كۆلچىكىگە ئەزا قوشۇش · %2</translation>
    </message>
    <message>
        <source>Target pool: &lt;b&gt;%1&lt;/b&gt; on %2</source>
        <translation>نىشان كۆلچەك: %2 دىكى &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Seed %Ln member(s)</source>
        <translation>
            <numerusform>%Ln ئەزا قوش</numerusform>
            <numerusform>%Ln ئەزا قوش</numerusform>
        </translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>چەكلەنگەن: %1</translation>
    </message>
    <message>
        <source>Disabled: still reading the list</source>
        <translation>چەكلەنگەن: تىزىملىك تېخى ئوقۇلۇۋاتىدۇ</translation>
    </message>
    <message>
        <source>Disabled: no accepted proxy in the list</source>
        <translation>چەكلەنگەن: تىزىملىكتە قوبۇل قىلىنغان ۋاكالەتچى يوق</translation>
    </message>
    <message>
        <source>Write the accepted members to the pool</source>
        <translation>قوبۇل قىلىنغان ئەزالارنى كۆلچەككە يېزىش</translation>
    </message>
    <message>
        <source>Reading the list (%1)…</source>
        <translation>تىزىملىك ئوقۇلۇۋاتىدۇ (%1)…</translation>
    </message>
    <message>
        <source>The list cannot be used: %1</source>
        <translation>تىزىملىكنى ئىشلەتكىلى بولمايدۇ: %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln accepted (%1 new), %2 rejected, %3 duplicates collapsed.</source>
        <translation>
            <numerusform>%Ln قوبۇل قىلىندى (%1 يېڭى)، %2 رەت قىلىندى، %3 تەكرار بىرلەشتۈرۈلدى.</numerusform>
            <numerusform>%Ln قوبۇل قىلىندى (%1 يېڭى)، %2 رەت قىلىندى، %3 تەكرار بىرلەشتۈرۈلدى.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Writing %Ln member(s)…</source>
        <translation>
            <numerusform>%Ln ئەزا يېزىلىۋاتىدۇ…</numerusform>
            <numerusform>%Ln ئەزا يېزىلىۋاتىدۇ…</numerusform>
        </translation>
    </message>
    <message>
        <source>Done: %1 added at count %2, %3 already in the pool kept their count, %4 reset, %5 evicted not re-added.</source>
        <translation>تاماملاندى: %1 ئەزا %2 سان بىلەن قوشۇلدى، كۆلچەكتە بار %3 ئەزا سانىنى ساقلاپ قالدى، %4 قايتا تەڭشەلدى، چىقىرىۋېتىلگەن %5 ئەزا قايتا قوشۇلمىدى.</translation>
    </message>
    <message>
        <source>Seed failed: %1</source>
        <translation>ئەزا قوشۇش مەغلۇپ بولدى: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::SessionRecorder</name>
    <message>
        <source>recording stopped: %1</source>
        <translation>خاتىرىلەش توختىدى: %1</translation>
    </message>
    <message>
        <source>recording switched off</source>
        <translation>خاتىرىلەش تاقالدى</translation>
    </message>
    <message>
        <source>cannot read the past of this pool: %1</source>
        <translation>بۇ كۆلچەكنىڭ ئۆتمۈشىنى ئوقۇيالمىدى: %1</translation>
    </message>
    <message>
        <source>not recording: %1</source>
        <translation>خاتىرىلەنمەيۋاتىدۇ: %1</translation>
    </message>
    <message>
        <source>recording to %1</source>
        <translation>%1 غا خاتىرىلىنىۋاتىدۇ</translation>
    </message>
</context>
<context>
    <name>poolscope::StatusBarPanel</name>
    <message>
        <source>Server and version</source>
        <translation>مۇلازىمېتىر ۋە نەشرى</translation>
    </message>
    <message>
        <source>recording: last poll %1</source>
        <translation>خاتىرە ھۆججىتى: ئاخىرقى سوراش %1</translation>
    </message>
    <message>
        <source>recording</source>
        <translation>خاتىرە ھۆججىتى</translation>
    </message>
    <message>
        <source>disconnected</source>
        <translation>ئۇلىنىش ئۈزۈلگەن</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>ئۇلىنىۋاتىدۇ</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>ئۇلانغان</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>قايتا ئۇلىنىۋاتىدۇ</translation>
    </message>
    <message>
        <source>Connection to the Redis server</source>
        <translation>Redis مۇلازىمېتىرىغا ئۇلىنىش</translation>
    </message>
    <message>
        <source>Round-trip time of the last poll (all its commands)</source>
        <translation>ئاخىرقى سوراشنىڭ (ھەممە بۇيرۇقلىرىنىڭ) بېرىپ-كېلىش ۋاقتى</translation>
    </message>
    <message>
        <source>Time since the last successful poll</source>
        <translation>ئاخىرقى مۇۋەپپەقىيەتلىك سوراشتىن بۇيانقى ۋاقىت</translation>
    </message>
    <message>
        <source>Members in the pool</source>
        <translation>كۆلچەكتىكى ئەزالار</translation>
    </message>
    <message>
        <source>rtt %1</source>
        <translation>rtt %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln member(s)</source>
        <translation>
            <numerusform>%Ln ئەزا</numerusform>
            <numerusform>%Ln ئەزا</numerusform>
        </translation>
    </message>
    <message>
        <source>Authentication failed, not retrying: enter the password in the Redis URL field</source>
        <translation>دەلىللەش مەغلۇپ بولدى، قايتا سىنالمايدۇ: پارولنى Redis URL بۆلىكىگە كىرگۈزۈڭ</translation>
    </message>
    <message>
        <source>poll failed: %1</source>
        <translation>سوراش مەغلۇپ بولدى: %1</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 مەغلۇپ بولدى: %2</translation>
    </message>
    <message>
        <source> (paused)</source>
        <translation type="vanished"> (ۋاقىتلىق توختىتىلدى)</translation>
    </message>
    <message>
        <source> · read-only</source>
        <translation type="vanished"> · پەقەت ئوقۇش</translation>
    </message>
    <message>
        <source> · primary %1 (from sentinel %2)</source>
        <translation type="vanished"> · ئاساسىي مۇلازىمېتىر %1 (sentinel %2 دىن)</translation>
    </message>
    <message>
        <source>%1, pool &quot;%2&quot;</source>
        <translation>%1، كۆلچەك &quot;%2&quot;</translation>
    </message>
    <message>
        <source>no poll yet</source>
        <translation>تېخى سورالمىدى</translation>
    </message>
    <message>
        <source>stale: last good poll %1 (%2)</source>
        <translation>كونىراپ كەتكەن: ئاخىرقى مۇۋەپپەقىيەتلىك سوراش %1 (%2)</translation>
    </message>
    <message>
        <source>polled %1</source>
        <translation>%1 سورالدى</translation>
    </message>
    <message>
        <source>%1 (paused)</source>
        <comment>%1: the connection&apos;s state; polling is paused</comment>
        <translation>%1 (ۋاقىتلىق توختىتىلدى)</translation>
    </message>
    <message>
        <source>read-only</source>
        <comment>the connection: nothing is written through it</comment>
        <translation>پەقەت ئوقۇش</translation>
    </message>
    <message>
        <source>primary %1 (from sentinel %2)</source>
        <translation>ئاساسىي مۇلازىمېتىر %1 (sentinel %2 دىن)</translation>
    </message>
</context>
<context>
    <name>poolscope::TabbedWindow</name>
    <message>
        <source>New &amp;tab</source>
        <translation>يېڭى بەتكۈچ(&amp;T)</translation>
    </message>
    <message>
        <source>Another pool beside this one: a tab with its own connection</source>
        <translation>بۇنىڭ يېنىدا يەنە بىر كۆلچەك: ئۆز ئۇلىنىشى بار بىر بەتكۈچ</translation>
    </message>
    <message>
        <source>&amp;Close tab</source>
        <translation>بەتكۈچنى ياپ(&amp;C)</translation>
    </message>
    <message>
        <source>Stop watching this tab&apos;s pool; the pool itself is not touched</source>
        <translation>بۇ بەتكۈچنىڭ كۆلچىكىنى كۆزىتىشنى توختىتىش؛ كۆلچەكنىڭ ئۆزىگە تېگىلمەيدۇ</translation>
    </message>
    <message>
        <source>Next tab</source>
        <translation>كېيىنكى بەتكۈچ</translation>
    </message>
    <message>
        <source>Previous tab</source>
        <translation>ئالدىنقى بەتكۈچ</translation>
    </message>
    <message>
        <source>%1 · %2 (recording)</source>
        <translation>%1 · %2 (خاتىرە ھۆججىتى)</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>New tab</source>
        <translation>يېڭى بەتكۈچ</translation>
    </message>
    <message>
        <source>Close this tab (Ctrl+W); the pool is not touched</source>
        <translation>بۇ بەتكۈچنى ياپ (Ctrl+W)؛ كۆلچەككە تېگىلمەيدۇ</translation>
    </message>
</context>
<context>
    <name>poolscope::TestAllocationDialog</name>
    <message>
        <source>Start</source>
        <translation>باشلا</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>ئىجرانى ئەمەلدىن قالدۇر</translation>
    </message>
    <message>
        <source>Stop the run now; the summary still accounts for every allocation</source>
        <translation>ئىجرانى ھازىرلا توختىتىش؛ خۇلاسە يەنىلا ھەر بىر تەقسىماتنى ھېسابلايدۇ</translation>
    </message>
    <message>
        <source>atomic script (allocate.lua)</source>
        <translation>ئاتوم قوليازما (allocate.lua)</translation>
    </message>
    <message>
        <source>naive ZRANGE + ZINCRBY (race demo)</source>
        <translation>ئاددىي ZRANGE + ZINCRBY (رىقابەت كۆرسەتمىسى)</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>ئىجرا قىلالمايدۇ: %1</translation>
    </message>
    <message numerus="yes">
        <source>starting %n worker(s)…</source>
        <translation>
            <numerusform>%n خىزمەتچى قوزغىتىلىۋاتىدۇ…</numerusform>
            <numerusform>%n خىزمەتچى قوزغىتىلىۋاتىدۇ…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>test allocations started: %1, %n worker(s), pipeline %2%3, %4</source>
        <translation>
            <numerusform>سىناق تەقسىمات باشلاندى: %1، %n خىزمەتچى، pipeline %2%3، %4</numerusform>
            <numerusform>سىناق تەقسىمات باشلاندى: %1، %n خىزمەتچى، pipeline %2%3، %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln allocation(s)</source>
        <translation>
            <numerusform>%Ln تەقسىمات</numerusform>
            <numerusform>%Ln تەقسىمات</numerusform>
        </translation>
    </message>
    <message>
        <source>, max %1/s</source>
        <translation>، ئەڭ كۆپ %1/سېكۇنت</translation>
    </message>
    <message>
        <source>atomic</source>
        <translation>ئاتوم</translation>
    </message>
    <message>
        <source>naive</source>
        <translation>ئاددىي</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>ئەمەلدىن قالدۇرۇلۇۋاتىدۇ…</translation>
    </message>
    <message>
        <source>Start the test allocations</source>
        <translation>سىناق تەقسىماتنى باشلاش</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>چەكلەنگەن: %1</translation>
    </message>
    <message>
        <source>%1 done · %2 allocations/s</source>
        <translation>%1 تاماملاندى · %2 تەقسىمات/سېكۇنت</translation>
    </message>
    <message>
        <source>stopped at %1 of %2 (%p%)</source>
        <translation>%1 / %2 دە توختىدى (%p%)</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>ئەمەلدىن قالدۇرۇلدى</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>تاماملاندى</translation>
    </message>
</context>
<context>
    <name>poolscope::TypedConfirmDialog</name>
    <message>
        <source>Type the pool&apos;s name, %1, to confirm:</source>
        <translation>جەزملەش ئۈچۈن كۆلچەكنىڭ نامى %1 نى كىرگۈزۈڭ:</translation>
    </message>
    <message>
        <source>&amp;Confirm</source>
        <translation>جەزملە(&amp;C)</translation>
    </message>
</context>
<context>
    <name>poolscope::WriteLock</name>
    <message>
        <source>production: writes are locked for this connection; unlock them for this session first (Pool ▸ Unlock writes)</source>
        <translation>ئىشلەپچىقىرىش: بۇ ئۇلىنىشنىڭ يېزىشى قۇلۇپلانغان؛ ئالدى بىلەن بۇ قېتىملىق ئۇلىنىش ئۈچۈن قۇلۇپنى ئېچىڭ (كۆلچەك ▸ يېزىش قۇلۇپىنى ئاچ)</translation>
    </message>
</context>
<context>
    <name>poolscope::i18n::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>تىل(&amp;L)</translation>
    </message>
    <message>
        <source>System language (%1)</source>
        <translation>سىستېما تىلى (%1)</translation>
    </message>
    <message>
        <source>The language the desktop asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English when poolscope does not have it</source>
        <translation>ئۈستەلئۈستى تەلەپ قىلغان تىل (LANGUAGE، LC_ALL، LC_MESSAGES، LANG)؛ poolscope دا بۇ تىل بولمىسا ئىنگلىزچە</translation>
    </message>
    <message>
        <source>Applies the next time poolscope starts</source>
        <translation>poolscope كېيىنكى قېتىم قوزغالغاندا كۈچكە ئىگە بولىدۇ</translation>
    </message>
    <message>
        <source>Chinese (Simplified)</source>
        <translation>خەنزۇچە (ئاددىيلاشتۇرۇلغان)</translation>
    </message>
    <message>
        <source>Uyghur</source>
        <translation>ئۇيغۇرچە</translation>
    </message>
    <message>
        <source>Punjabi (Gurmukhi)</source>
        <translation>پەنجابچە (گۇرمۇكھى)</translation>
    </message>
    <message>
        <source>Esperanto</source>
        <translation>ئېسپېرانتو</translation>
    </message>
    <message>
        <source>English</source>
        <translation>ئىنگلىزچە</translation>
    </message>
    <message>
        <source>Saved: %1 from the next start of poolscope without %2</source>
        <translation>ساقلاندى: poolscope كېيىنكى قېتىم %2 سىز قوزغالغاندا %1</translation>
    </message>
    <message>
        <source>Saved: poolscope stays in %1</source>
        <translation>ساقلاندى: poolscope يەنىلا %1</translation>
    </message>
    <message>
        <source>Saved: poolscope starts in %1 the next time; this window keeps its language</source>
        <translation>ساقلاندى: poolscope كېيىنكى قېتىم %1 قوزغىلىدۇ؛ بۇ كۆزنەك ئۆز تىلىنى ساقلايدۇ</translation>
    </message>
</context>
</TS>
