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
    <name>poolscope::ChartPanel</name>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>+%n more (see the table)</numerusform>
            <numerusform>+%n more (see the table)</numerusform>
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
    <name>poolscope::PoolActions</name>
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
        <translation>
            <numerusform> on %n node</numerusform>
            <numerusform> on %n nodes</numerusform>
        </translation>
    </message>
</context>
</TS>
