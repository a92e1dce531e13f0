<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>Forecast</name>
    <message numerus="yes">
        <source>Starvation warning: joining at %1 or more, %2, none of these %n members gets any of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>
            <numerusform>Starvation warning: joining at %1 or more, %2, this member gets none of the next %3 allocations (%4): the rest of the pool catches up first.</numerusform>
            <numerusform>Starvation warning: joining at %1 or more, %2, none of these %n members gets any of the next %3 allocations (%4): the rest of the pool catches up first.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OutsideChanges</name>
    <message numerus="yes">
        <source>%1 and %Ln more</source>
        <comment>%1: member ids, then how many more are not named</comment>
        <translation>
            <numerusform>%1 and %Ln more</numerusform>
            <numerusform>%1 and %Ln more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProxyList</name>
    <message numerus="yes">
        <source>%n more</source>
        <comment>ports not listed</comment>
        <translation>
            <numerusform>%n more</numerusform>
            <numerusform>%n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::AlertTray</name>
    <message numerus="yes">
        <source>poolscope: %1
%n alert(s) firing: %2</source>
        <translation>
            <numerusform>poolscope: %1
%n alert firing: %2</numerusform>
            <numerusform>poolscope: %1
%n alerts firing: %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::AlertsPanel</name>
    <message numerus="yes">
        <source>No alert: %n rule(s) watching this pool.</source>
        <translation>
            <numerusform>No alert: %n rule watching this pool.</numerusform>
            <numerusform>No alert: %n rules watching this pool.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n alert(s) firing, %1 pending.</source>
        <translation>
            <numerusform>%n alert firing, %1 pending.</numerusform>
            <numerusform>%n alerts firing, %1 pending.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::AuditView</name>
    <message numerus="yes">
        <source>%n entry(ies) found</source>
        <translation>
            <numerusform>%n entry found</numerusform>
            <numerusform>%n entries found</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::ChartFrame</name>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>+%n more (see the table)</numerusform>
            <numerusform>+%n more (see the table)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members</source>
        <comment>the chart&apos;s caption: all of them are charted</comment>
        <translation>
            <numerusform>%Ln member</numerusform>
            <numerusform>%Ln members</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln member (summary): top %1, %2 pinned</numerusform>
            <numerusform>%Ln members (summary): top %1, %2 pinned</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned, the bottom as the pool minimum line + band</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln member (summary): top %1, %2 pinned, the bottom as the pool minimum line + band</numerusform>
            <numerusform>%Ln members (summary): top %1, %2 pinned, the bottom as the pool minimum line + band</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln member: top %1, bottom %1, %2 pinned</numerusform>
            <numerusform>%Ln members: top %1, bottom %1, %2 pinned</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned + min/median/max band</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln member: top %1, bottom %1, %2 pinned + min/median/max band</numerusform>
            <numerusform>%Ln members: top %1, bottom %1, %2 pinned + min/median/max band</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln hidden</source>
        <comment>the chart&apos;s caption: lines hidden from the chart</comment>
        <translation>
            <numerusform>%Ln hidden</numerusform>
            <numerusform>%Ln hidden</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::ChartPanel</name>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation type="vanished">
            <numerusform>+%n more (see the table)</numerusform>
            <numerusform>+%n more (see the table)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln min</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>Last %Ln min</numerusform>
            <numerusform>Last %Ln min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln h</source>
        <comment>the chart&apos;s time span, in a box; h: hours</comment>
        <translation>
            <numerusform>Last %Ln h</numerusform>
            <numerusform>Last %Ln h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln days</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>Last %Ln day</numerusform>
            <numerusform>Last %Ln days</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln minutes</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>Window: last &amp;%Ln minute</numerusform>
            <numerusform>Window: last &amp;%Ln minutes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln hours</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>Window: last &amp;%Ln hour</numerusform>
            <numerusform>Window: last &amp;%Ln hours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln days</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>Window: last &amp;%Ln day</numerusform>
            <numerusform>Window: last &amp;%Ln days</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionsDialog</name>
    <message numerus="yes">
        <source>Group %1: %n connection(s)</source>
        <translation>
            <numerusform>Group %1: %n connection</numerusform>
            <numerusform>Group %1: %n connections</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::MembersPanel</name>
    <message numerus="yes">
        <source>searching… %Ln page(s)</source>
        <translation>
            <numerusform>searching… %Ln page</numerusform>
            <numerusform>searching… %Ln pages</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::PoolActions</name>
    <message numerus="yes">
        <source>Evict the %n selected member(s) (Delete)</source>
        <translation>
            <numerusform>Evict the %n selected member (Delete)</numerusform>
            <numerusform>Evict the %n selected members (Delete)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore the %n selected member(s) (Ctrl+R)</source>
        <translation>
            <numerusform>Restore the %n selected member (Ctrl+R)</numerusform>
            <numerusform>Restore the %n selected members (Ctrl+R)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>  … and %n more</source>
        <translation>
            <numerusform>  … and %n more</numerusform>
            <numerusform>  … and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Evict these %n member(s)?

%1

They get no allocations until restored; their counts are saved.</source>
        <extracomment>Evict: take out of rotation; the member&apos;s allocation count is kept.</extracomment>
        <translation>
            <numerusform>Evict this %n member?

%1

It gets no allocations until restored; its count is saved.</numerusform>
            <numerusform>Evict these %n members?

%1

They get no allocations until restored; their counts are saved.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s) at count zero? Each gets every allocation until it catches up with the pool.</source>
        <translation>
            <numerusform>Restore %n member at count zero? It gets every allocation until it catches up with the pool.</numerusform>
            <numerusform>Restore %n members at count zero? Each gets every allocation until it catches up with the pool.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::PoolHealth</name>
    <message numerus="yes">
        <source>checking %n member(s) through their proxies against %1</source>
        <translation>
            <numerusform>checking %n member through its proxy against %1</numerusform>
            <numerusform>checking %n members through their proxies against %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>checked %n member(s) in %1 ms: %2 up, %3 down, %4 not checkable</source>
        <translation>
            <numerusform>checked %n member in %1 ms: %2 up, %3 down, %4 not checkable</numerusform>
            <numerusform>checked %n members in %1 ms: %2 up, %3 down, %4 not checkable</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 seeded %n member(s)</source>
        <translation>
            <numerusform>%1 seeded %n member</numerusform>
            <numerusform>%1 seeded %n members</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsPanel</name>
    <message numerus="yes">
        <source>%n pool(s)</source>
        <translation>
            <numerusform>%n pool</numerusform>
            <numerusform>%n pools</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s)</source>
        <translation type="vanished">
            <numerusform> on %n node</numerusform>
            <numerusform> on %n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <comment>Redis servers</comment>
        <translation>
            <numerusform>%n node</numerusform>
            <numerusform>%n nodes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::ResetScenarioDialog</name>
    <message numerus="yes">
        <source>count-reset scenario: %n member(s), %1/s, policy %2, pool &quot;%3&quot;</source>
        <translation>
            <numerusform>count-reset scenario: %n member, %1/s, policy %2, pool &quot;%3&quot;</numerusform>
            <numerusform>count-reset scenario: %n members, %1/s, policy %2, pool &quot;%3&quot;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>restored: %Ln allocation(s) went to it since</source>
        <translation>
            <numerusform>restored: %Ln allocation went to it since</numerusform>
            <numerusform>restored: %Ln allocations went to it since</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 / %2 · %Ln allocation(s) · %3</source>
        <translation>
            <numerusform>%1 / %2 · %Ln allocation · %3</numerusform>
            <numerusform>%1 / %2 · %Ln allocations · %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved (cancelled)</source>
        <translation>
            <numerusform>pool &quot;%1&quot;: %n member, %2/s asked, %3/s achieved (cancelled)</numerusform>
            <numerusform>pool &quot;%1&quot;: %n members, %2/s asked, %3/s achieved (cancelled)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved</source>
        <translation>
            <numerusform>pool &quot;%1&quot;: %n member, %2/s asked, %3/s achieved</numerusform>
            <numerusform>pool &quot;%1&quot;: %n members, %2/s asked, %3/s achieved</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>observed: longest run %Ln consecutive allocation(s)</source>
        <translation>
            <numerusform>observed: longest run %Ln consecutive allocation</numerusform>
            <numerusform>observed: longest run %Ln consecutive allocations</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::RestoreDialog</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s): %1</source>
        <translation>
            <numerusform>Restore %n member: %1</numerusform>
            <numerusform>Restore %n members: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::SeedDialog</name>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already (pool minimum now %1). Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>Nothing new to seed: the %n accepted member is in the pool already (pool minimum now %1). Tick &quot;Reset members already in the pool&quot; to set its count again.</numerusform>
            <numerusform>Nothing new to seed: the %n accepted members are all in the pool already (pool minimum now %1). Tick &quot;Reset members already in the pool&quot; to set their count again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already. Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>Nothing new to seed: the %n accepted member is in the pool already. Tick &quot;Reset members already in the pool&quot; to set its count again.</numerusform>
            <numerusform>Nothing new to seed: the %n accepted members are all in the pool already. Tick &quot;Reset members already in the pool&quot; to set their count again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Seed %Ln member(s)</source>
        <translation>
            <numerusform>Seed %Ln member</numerusform>
            <numerusform>Seed %Ln members</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln accepted (%1 new), %2 rejected, %3 duplicates collapsed.</source>
        <translation>
            <numerusform>%Ln accepted (%1 new), %2 rejected, %3 duplicates collapsed.</numerusform>
            <numerusform>%Ln accepted (%1 new), %2 rejected, %3 duplicates collapsed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Writing %Ln member(s)…</source>
        <translation>
            <numerusform>Writing %Ln member…</numerusform>
            <numerusform>Writing %Ln members…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::StatusBarPanel</name>
    <message numerus="yes">
        <source>%Ln member(s)</source>
        <translation>
            <numerusform>%Ln member</numerusform>
            <numerusform>%Ln members</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::TestAllocationDialog</name>
    <message numerus="yes">
        <source>starting %n worker(s)…</source>
        <translation>
            <numerusform>starting %n worker…</numerusform>
            <numerusform>starting %n workers…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>test allocations started: %1, %n worker(s), pipeline %2%3, %4</source>
        <translation>
            <numerusform>test allocations started: %1, %n worker, pipeline %2%3, %4</numerusform>
            <numerusform>test allocations started: %1, %n workers, pipeline %2%3, %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln allocation(s)</source>
        <translation>
            <numerusform>%Ln allocation</numerusform>
            <numerusform>%Ln allocations</numerusform>
        </translation>
    </message>
</context>
</TS>
