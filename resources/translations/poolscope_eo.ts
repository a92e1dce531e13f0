<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="eo_001">
<context>
    <name>DisplayFormat</name>
    <message>
        <source>%1 %</source>
        <extracomment>A percentage: the number, then its sign.</extracomment>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 s ago</source>
        <translation>antaŭ %1 s</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>antaŭ %1 min</translation>
    </message>
    <message>
        <source>%1 h ago</source>
        <translation>antaŭ %1 h</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
</context>
<context>
    <name>FairnessPanel</name>
    <message>
        <source>Members in the pool, and how many are evicted</source>
        <translation>Membroj en la provizo, kaj kiom estas forigitaj</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Membroj</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Lowest, median and highest allocation count in the pool</source>
        <translation>Plej malalta, meza kaj plej alta asigna nombro en la provizo</translation>
    </message>
    <message>
        <source>Min / median / max</source>
        <translation>Min. / mediano / maks.</translation>
    </message>
    <message>
        <source>Highest count minus lowest count: 0 or 1 in a pool served only by allocate.lua</source>
        <translation>Plej alta asigna nombro minus plej malalta: 0 aŭ 1 en provizo servata nur de allocate.lua</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>Disiĝo</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index of the counts: 1.0 is perfectly even, 1/n is one member taking everything</source>
        <translation>Indico de Jain pri la justeco de la asignaj nombroj: 1.0 estas tute egala, 1/n estas unu membro prenanta ĉion</translation>
    </message>
    <message>
        <source>Jain index</source>
        <translation>Indico de Jain</translation>
    </message>
    <message>
        <source>The member that took the largest share of the allocations in the last window</source>
        <translation>La membro, kiu ricevis la plej grandan parton de la asignoj en la lasta fenestro</translation>
    </message>
    <message>
        <source>Busiest (last window)</source>
        <translation>Plej okupata (lasta fenestro)</translation>
    </message>
    <message>
        <source>Allocations per second over the last window, all members together</source>
        <translation>Asignoj po sekundo dum la lasta fenestro, ĉiuj membroj kune</translation>
    </message>
    <message>
        <source>Allocation rate</source>
        <translation>Asigna rapido</translation>
    </message>
    <message>
        <source>The pool&apos;s current total: the sum of the counts of the members in the pool now. It falls when members are evicted (their counts are saved with them, shown in brackets) or when counts are reset; it is not the number of allocations ever made.</source>
        <translation>La nuna sumo de la provizo: la sumo de la asignaj nombroj de la membroj nun en la provizo. Ĝi malkreskas, kiam membroj estas forigitaj (iliaj nombroj estas konservitaj kun ili, montritaj inter krampoj) aŭ kiam nombroj estas rekomencigitaj; ĝi ne estas la nombro de ĉiuj asignoj iam faritaj.</translation>
    </message>
    <message>
        <source>Sum of counts now</source>
        <translation>Sumo de la nombroj nun</translation>
    </message>
    <message>
        <source>How the poller reads the pool</source>
        <translation>Kiel la pridemandilo legas la provizon</translation>
    </message>
    <message>
        <source>Read mode</source>
        <translation>Lega reĝimo</translation>
    </message>
</context>
<context>
    <name>Forecast</name>
    <message>
        <source>No flood: joining at %1, above the pool minimum (%2).</source>
        <translation>Neniu inundo: aliĝante je %1, super la minimumo de la provizo (%2).</translation>
    </message>
    <message>
        <source>above the pool maximum (%1)</source>
        <translation>super la maksimumo de la provizo (%1)</translation>
    </message>
    <message>
        <source>above the pool minimum (%1)</source>
        <translation>super la minimumo de la provizo (%1)</translation>
    </message>
    <message>
        <source>about %1 at the current rate</source>
        <translation>ĉirkaŭ %1 je la nuna rapido</translation>
    </message>
    <message>
        <source>no allocations measured right now, so no time estimate</source>
        <translation>neniuj asignoj nun mezuritaj, do neniu taksado de tempo</translation>
    </message>
    <message>
        <source>Starvation warning: joining at %1, %2, it gets none of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>Averto pri malsato: aliĝante je %1, %2, ĝi ricevas neniun el la venontaj %3 asignoj (%4): la resto de la provizo unue reatingas.</translation>
    </message>
    <message numerus="yes">
        <source>Starvation warning: joining at %1 or more, %2, none of these %n members gets any of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>
            <numerusform>Averto pri malsato: aliĝante je %1 aŭ pli, %2, ĉi tiu membro ricevas neniun el la venontaj %3 asignoj (%4): la resto de la provizo unue reatingas.</numerusform>
            <numerusform>Averto pri malsato: aliĝante je %1 aŭ pli, %2, neniu el ĉi tiuj %n membroj ricevas iun el la venontaj %3 asignoj (%4): la resto de la provizo unue reatingas.</numerusform>
        </translation>
    </message>
    <message>
        <source> (no allocations measured right now, so no time estimate)</source>
        <translation> (neniuj asignoj mezuritaj nun, do neniu tempotakso)</translation>
    </message>
    <message>
        <source>, about %1 at the current rate</source>
        <translation>, ĉirkaŭ %1 je la nuna rapido</translation>
    </message>
    <message>
        <source>The pool is empty: this member will receive every allocation until others join.</source>
        <translation>La provizo estas malplena: ĉi tiu membro ricevos ĉiun asignon, ĝis aliaj aliĝos.</translation>
    </message>
    <message>
        <source>The pool is empty: these %L1 members will share every allocation between them.</source>
        <translation>La provizo estas malplena: ĉi tiuj %L1 membroj dividos ĉiun asignon inter si.</translation>
    </message>
    <message>
        <source>No flood: joining at %1, at or above the pool minimum (%2), so it joins the rotation.</source>
        <translation>Neniu inundo: aliĝante je %1, je aŭ super la minimumo de la provizo (%2), ĝi aliĝas al la rotacio.</translation>
    </message>
    <message>
        <source>This member will receive the next ~%1 allocations%2.</source>
        <translation>Ĉi tiu membro ricevos la venontajn ~%1 asignojn%2.</translation>
    </message>
    <message>
        <source>These %L1 members will receive the next ~%2 allocations (~%3 each)%4.</source>
        <translation>Ĉi tiuj %L1 membroj ricevos la venontajn ~%2 asignojn (~%3 ĉiu)%4.</translation>
    </message>
    <message>
        <source>No flood: they join at or above the pool minimum (%1), so they join the rotation.</source>
        <translation>Neniu inundo: ili aliĝas je aŭ super la minimumo de la provizo (%1), do ili aliĝas al la rotacio.</translation>
    </message>
    <message>
        <source>These %L1 members will receive the next ~%2 allocations between them%3.</source>
        <translation>Ĉi tiuj %L1 membroj ricevos la venontajn ~%2 asignojn inter si%3.</translation>
    </message>
</context>
<context>
    <name>HealthCell</name>
    <message>
        <source>up</source>
        <translation>funkcia</translation>
    </message>
    <message>
        <source>down</source>
        <translation>malfunkcia</translation>
    </message>
    <message>
        <source>not checkable</source>
        <translation>nekontrolebla</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>nekonata</translation>
    </message>
    <message>
        <source>up · %1 ms</source>
        <translation>funkcia · %1 ms</translation>
    </message>
    <message>
        <source>down · %1</source>
        <translation>malfunkcia · %1</translation>
    </message>
    <message>
        <source>Never checked (Ctrl+K checks the selected members)</source>
        <translation>Neniam kontrolita (Ctrl+K kontrolas la elektitajn membrojn)</translation>
    </message>
    <message>
        <source>Last check %1: %2</source>
        <translation>Lasta kontrolo %1: %2</translation>
    </message>
    <message>
        <source>Latency %1 ms</source>
        <translation>Latenta tempo %1 ms</translation>
    </message>
    <message>
        <source>Target answered HTTP %1</source>
        <translation>La celo respondis HTTP %1</translation>
    </message>
    <message>
        <source>%1 consecutive successes, %2 consecutive failures</source>
        <translation>%1 sinsekvaj sukcesoj, %2 sinsekvaj malsukcesoj</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>Lasta eraro: %1</translation>
    </message>
    <message>
        <source>Evicted by the guard</source>
        <translation>Forigita de la gardisto</translation>
    </message>
</context>
<context>
    <name>LoadReport</name>
    <message>
        <source>connections lost mid-run: %1, reconnected: %2</source>
        <translation>konektoj perditaj dum la rulado: %1, rekonektitaj: %2</translation>
    </message>
    <message>
        <source>failover: the primary went from %1</source>
        <translation>transpreno: la ĉefa servilo ŝanĝiĝis de %1</translation>
    </message>
    <message>
        <source> to </source>
        <translation> al </translation>
    </message>
    <message>
        <source>lost in failover: %1 acknowledged allocations on %2 members (sum of counts %3 before, %4 after)</source>
        <translation>perditaj en la transpreno: %1 konfirmitaj asignoj ĉe %2 membroj (sumo de la nombroj %3 antaŭe, %4 poste)</translation>
    </message>
    <message>
        <source>lost in failover: not checked (%1)</source>
        <translation>perditaj en la transpreno: ne kontrolita (%1)</translation>
    </message>
    <message>
        <source>pool is empty: no proxy allocated (%1 empty answers)</source>
        <translation>la provizo estas malplena: neniu prokurilo asignita (%1 malplenaj respondoj)</translation>
    </message>
    <message>
        <source>allocated %1 in %2 (%3/s)%4</source>
        <translation>asignis %1 en %2 (%3/s)%4</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>, nuligita</translation>
    </message>
    <message>
        <source>empty-pool answers: %1 (pool is empty: no proxy allocated)</source>
        <translation>respondoj de malplena provizo: %1 (la provizo estas malplena: neniu prokurilo asignita)</translation>
    </message>
    <message>
        <source>empty-pool answers: 0</source>
        <translation>respondoj de malplena provizo: 0</translation>
    </message>
    <message>
        <source>errors: %1 (%2)</source>
        <translation>eraroj: %1 (%2)</translation>
    </message>
    <message>
        <source>errors: 0</source>
        <translation>eraroj: 0</translation>
    </message>
    <message>
        <source>outcome unknown (no reply, never retried): %1</source>
        <translation>rezulto nekonata (neniu respondo, neniam reprovita): %1</translation>
    </message>
    <message>
        <source>latency p50 %1 · p99 %2 · max %3</source>
        <translation>latenta tempo p50 %1 · p99 %2 · maks. %3</translation>
    </message>
    <message>
        <source>naive mode: %1 collisions, %2 duplicate picks (the script: always 0)</source>
        <translation>naiva reĝimo: %1 kolizioj, %2 duoblaj elektoj (la skripto: ĉiam 0)</translation>
    </message>
    <message>
        <source>%1 worker(s), pipeline %2, %3</source>
        <translation>%1 laboranto(j), dukto %2, %3</translation>
    </message>
    <message>
        <source>atomic script</source>
        <translation>atoma skripto</translation>
    </message>
    <message>
        <source>naive ZRANGE + ZINCRBY</source>
        <translation>naiva ZRANGE + ZINCRBY</translation>
    </message>
</context>
<context>
    <name>OutsideChanges</name>
    <message>
        <source> and %L1 more</source>
        <translation type="vanished"> kaj %L1 pliaj</translation>
    </message>
    <message>
        <source>pool vanished: %1 members gone (server restarted or key deleted?)</source>
        <translation>la provizo malaperis: %1 membroj for (ĉu la servilo rekomenciĝis aŭ la ŝlosilo estis forviŝita?)</translation>
    </message>
    <message>
        <source>counts went back by %1 allocations on %L2 members after the primary changed (%3): acknowledged by %4, never replicated</source>
        <translation>la nombroj reiris je %1 asignoj ĉe %L2 membroj post kiam la ĉefa servilo ŝanĝiĝis (%3): konfirmitaj de %4, neniam replikitaj</translation>
    </message>
    <message>
        <source>counts went back by %1 allocations on %L2 members (%3), not by poolscope: reset by another client?</source>
        <translation>la nombroj reiris je %1 asignoj ĉe %L2 membroj (%3), ne pro poolscope: ĉu alia kliento rekomencigis ilin?</translation>
    </message>
    <message>
        <source>%L1 members left the pool without an eviction here (%2)</source>
        <translation>%L1 membroj forlasis la provizon sen forigo ĉi tie (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %Ln more</source>
        <comment>%1: member ids, then how many more are not named</comment>
        <translation>
            <numerusform>%1 kaj %Ln plia</numerusform>
            <numerusform>%1 kaj %Ln pliaj</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PoolMonitor</name>
    <message>
        <source>full snapshot (%1 members)</source>
        <translation>plena momentfoto (%1 membroj)</translation>
    </message>
</context>
<context>
    <name>ProxyList</name>
    <message>
        <source>unknown comment style &quot;%1&quot; (comment lines start with # or ;)</source>
        <translation>nekonata komenta stilo &quot;%1&quot; (komentaj linioj komenciĝas per # aŭ ;)</translation>
    </message>
    <message>
        <source>contains an unpaired surrogate (a \uD800-\uDFFF escape without its pair), which is not valid Unicode</source>
        <translation>enhavas neparigitan surogaton (\uD800-\uDFFF-eskapon sen sia paro), kio ne estas valida Unikodo</translation>
    </message>
    <message>
        <source>contains a NUL byte</source>
        <translation>enhavas NUL-bajton</translation>
    </message>
    <message>
        <source>unexpected whitespace inside the entry (expected one proxy per line, as host:port)</source>
        <translation>neatendita spaceto ene de la ero (atendata unu prokurilo po linio, kiel host:port)</translation>
    </message>
    <message>
        <source>contains the control character U+%1</source>
        <translation>enhavas la regsignon U+%1</translation>
    </message>
    <message>
        <source>contains a byte-order mark (U+FEFF, invisible), which only the file&apos;s first character may be</source>
        <translation>enhavas bajtordan markon (U+FEFF, nevidebla), kiu rajtas esti nur la unua signo de la dosiero</translation>
    </message>
    <message>
        <source>missing port</source>
        <translation>mankas pordo</translation>
    </message>
    <message>
        <source>port %1 is not a number</source>
        <translation>pordo %1 ne estas nombro</translation>
    </message>
    <message>
        <source>port %1 is out of range 1-65535</source>
        <translation>pordo %1 estas ekster la intervalo 1-65535</translation>
    </message>
    <message>
        <source>missing host</source>
        <translation>mankas gastiganto</translation>
    </message>
    <message>
        <source>unterminated [ in IPv6 address</source>
        <translation>nefermita [ en IPv6-adreso</translation>
    </message>
    <message>
        <source>%1 is not a valid IPv6 address</source>
        <translation>%1 ne estas valida IPv6-adreso</translation>
    </message>
    <message>
        <source>host %1 contains &quot;:&quot; but is not a valid IPv6 address</source>
        <translation>gastiganto %1 enhavas &quot;:&quot; sed ne estas valida IPv6-adreso</translation>
    </message>
    <message>
        <source>missing scheme before &quot;://&quot;</source>
        <translation>mankas skemo antaŭ &quot;://&quot;</translation>
    </message>
    <message>
        <source>invalid scheme %1</source>
        <translation>nevalida skemo %1</translation>
    </message>
    <message>
        <source>empty credentials before &quot;@&quot;</source>
        <translation>malplenaj akreditaĵoj antaŭ &quot;@&quot;</translation>
    </message>
    <message>
        <source>unexpected path %1 after the port</source>
        <translation>neatendita vojo %1 post la pordo</translation>
    </message>
    <message>
        <source>missing host and port</source>
        <translation>mankas gastiganto kaj pordo</translation>
    </message>
    <message>
        <source>empty [] where an IPv6 address belongs</source>
        <translation>malplena [] kie devus esti IPv6-adreso</translation>
    </message>
    <message>
        <source>unexpected text %1 after &quot;]&quot;</source>
        <translation>neatendita teksto %1 post &quot;]&quot;</translation>
    </message>
    <message>
        <source>IPv6 address must be written in brackets, as in [2001:db8::1]:8080</source>
        <translation>IPv6-adreso devas esti skribita inter krampoj, kiel [2001:db8::1]:8080</translation>
    </message>
    <message>
        <source>too many &quot;:&quot; (expected host:port; write credentials as scheme://user:pass@host:port)</source>
        <translation>tro da &quot;:&quot; (atendata host:port; skribu akreditaĵojn kiel scheme://user:pass@host:port)</translation>
    </message>
    <message>
        <source>not valid UTF-8</source>
        <translation>ne valida UTF-8</translation>
    </message>
    <message>
        <source>hexadecimal</source>
        <comment>a way of writing an IPv4 address: 0x7f.0.0.1</comment>
        <translation>deksesuma</translation>
    </message>
    <message>
        <source>octal</source>
        <comment>a way of writing an IPv4 address: 0177.0.0.1</comment>
        <translation>okuma</translation>
    </message>
    <message>
        <source>shortened</source>
        <comment>a way of writing an IPv4 address: 127.1 (fewer than 4 parts)</comment>
        <translation>mallongigita</translation>
    </message>
    <message>
        <source>%1 is an unspecified address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 estas nespecifita adreso</translation>
    </message>
    <message>
        <source>%1 is a reserved address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 estas rezervita adreso</translation>
    </message>
    <message>
        <source>%1 is a private address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 estas privata adreso</translation>
    </message>
    <message>
        <source>%1 is a CGNAT address</source>
        <comment>%1: an IP address; CGNAT: carrier-grade NAT, 100.64.0.0/10</comment>
        <translation>%1 estas CGNAT-adreso</translation>
    </message>
    <message>
        <source>%1 is a loopback address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 estas loopback-adreso</translation>
    </message>
    <message>
        <source>%1 is a link-local address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 estas ligil-loka adreso</translation>
    </message>
    <message>
        <source>%1 is a site-local address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 estas ej-loka (site-local) adreso</translation>
    </message>
    <message>
        <source>%1 is a documentation address</source>
        <comment>%1: an IP address in a range reserved for examples in documentation</comment>
        <translation>%1 estas dokumenta adreso</translation>
    </message>
    <message>
        <source>%1 is a multicast address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 estas multielsenda adreso</translation>
    </message>
    <message>
        <source>%1 is a broadcast address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 estas dissenda adreso</translation>
    </message>
    <message>
        <source>%1 is a reserved (deprecated IPv4-compatible) address</source>
        <comment>%1: an IPv6 address of the form ::a.b.c.d</comment>
        <translation>%1 estas rezervita (malrekomendita IPv4-kongrua) adreso</translation>
    </message>
    <message>
        <source>unspecified</source>
        <comment>a kind of IP address: 0.0.0.0 (unspecified)</comment>
        <translation>nespecifita</translation>
    </message>
    <message>
        <source>reserved</source>
        <comment>a kind of IP address: 240.0.0.1 (reserved)</comment>
        <translation>rezervita</translation>
    </message>
    <message>
        <source>private</source>
        <comment>a kind of IP address: 10.0.0.1 (private)</comment>
        <translation>privata</translation>
    </message>
    <message>
        <source>CGNAT</source>
        <comment>a kind of IP address: 100.64.0.1 (CGNAT)</comment>
        <translation>CGNAT</translation>
    </message>
    <message>
        <source>loopback</source>
        <comment>a kind of IP address: 127.0.0.1 (loopback)</comment>
        <translation>loopback</translation>
    </message>
    <message>
        <source>link-local</source>
        <comment>a kind of IP address: 169.254.0.1 (link-local)</comment>
        <translation>ligil-loka</translation>
    </message>
    <message>
        <source>site-local</source>
        <comment>a kind of IP address</comment>
        <translation>ej-loka</translation>
    </message>
    <message>
        <source>documentation</source>
        <comment>a kind of IP address: 192.0.2.1 (documentation), a range reserved for examples</comment>
        <translation>dokumenta</translation>
    </message>
    <message>
        <source>multicast</source>
        <comment>a kind of IP address: 224.0.0.1 (multicast)</comment>
        <translation>multielsenda</translation>
    </message>
    <message>
        <source>broadcast</source>
        <comment>a kind of IP address: 255.255.255.255 (broadcast)</comment>
        <translation>dissenda</translation>
    </message>
    <message>
        <source>%1 is an IPv4-mapped address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 estas IPv4-mapita adreso por %2 (%3)</translation>
    </message>
    <message>
        <source>%1 is an IPv4-compatible address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 estas IPv4-kongrua adreso por %2 (%3)</translation>
    </message>
    <message>
        <source>%1 is a NAT64 address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 estas NAT64-adreso por %2 (%3)</translation>
    </message>
    <message>
        <source>%1 is a 6to4 address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 estas 6to4-adreso por %2 (%3)</translation>
    </message>
    <message>
        <source>%1 is a Teredo address for client %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the Teredo client&apos;s IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 estas Teredo-adreso por la kliento %2 (%3)</translation>
    </message>
    <message>
        <source>%1 is a Teredo address for server %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the Teredo server&apos;s IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 estas Teredo-adreso por la servilo %2 (%3)</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no scheme is allowed: (allowed: none)</comment>
        <translation>neniu</translation>
    </message>
    <message numerus="yes">
        <source>%n more</source>
        <comment>ports not listed</comment>
        <translation>
            <numerusform>%n plia</numerusform>
            <numerusform>%n pliaj</numerusform>
        </translation>
    </message>
    <message>
        <source>scheme %1 is not allowed (allowed: %2)</source>
        <comment>%1: a URL scheme such as socks5, %2: a list of them</comment>
        <translation>skemo %1 ne estas permesata (permesataj: %2)</translation>
    </message>
    <message>
        <source>port %1 is not in the allowed ports (%2)</source>
        <comment>%2: a list of port numbers</comment>
        <translation>pordo %1 ne estas inter la permesataj pordoj (%2)</translation>
    </message>
    <message>
        <source>IPv4 address %1 (= %2) is not accepted in %3 form: write it as %2</source>
        <comment>%1: the address as written, %2: the same in dotted decimal, %3: how it departs from dotted decimal (hexadecimal, octal, shortened; several joined by /)</comment>
        <translation>IPv4-adreso %1 (= %2) ne estas akceptata en %3 formo: skribu ĝin kiel %2</translation>
    </message>
    <message>
        <source>%1 is a loopback name</source>
        <comment>%1: a host name such as localhost</comment>
        <translation>%1 estas loopback-nomo</translation>
    </message>
    <message>
        <source>host %1 is not a valid IPv4 address, IPv6 address or DNS name</source>
        <translation>gastiganto %1 ne estas valida IPv4-adreso, IPv6-adreso aŭ DNS-nomo</translation>
    </message>
</context>
<context>
    <name>QAbstractSpinBox</name>
    <message>
        <source>Step &amp;down</source>
        <translation>Paŝi &amp;malsupren</translation>
    </message>
    <message>
        <source>&amp;Step up</source>
        <translation>Paŝi &amp;supren</translation>
    </message>
    <message>
        <source>&amp;Select All</source>
        <translation>&amp;Elekti ĉion</translation>
    </message>
</context>
<context>
    <name>QDialogButtonBox</name>
    <message>
        <source>OK</source>
        <translation>Bone</translation>
    </message>
</context>
<context>
    <name>QDockWidget</name>
    <message>
        <source>Close</source>
        <translation>Fermi</translation>
    </message>
    <message>
        <source>Float</source>
        <translation>Malfiksi</translation>
    </message>
    <message>
        <source>Undocks and re-attaches the dock widget</source>
        <translation>Malfiksas kaj refiksas la panelon</translation>
    </message>
    <message>
        <source>Closes the dock widget</source>
        <translation>Fermas la panelon</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Back</source>
        <translation>Reen</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Dosiero</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Malfermi</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Malfermi</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Konservi</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dosieroj</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is write protected.
Do you want to delete it anyway?</source>
        <translation>&apos;%1&apos; estas protektita kontraŭ skribo.
Ĉu vi tamen volas forviŝi ĝin?</translation>
    </message>
    <message>
        <source>Are you sure you want to delete &apos;%1&apos;?</source>
        <translation>Ĉu vi certas, ke vi volas forviŝi &apos;%1&apos;?</translation>
    </message>
    <message>
        <source>List of places and bookmarks</source>
        <translation>Listo de lokoj kaj legosignoj</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>&amp;Nomo de dosiero:</translation>
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
        <translation>Dosierujo</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Forviŝi</translation>
    </message>
    <message>
        <source>New Folder</source>
        <translation>Nova dosierujo</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Dosierujo</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>Supra dosierujo</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>&amp;Nova dosierujo</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Forpreni</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>Mia komputilo</translation>
    </message>
    <message>
        <source>Look in:</source>
        <translation>Serĉi en:</translation>
    </message>
    <message>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <source>Create a New Folder</source>
        <translation>Krei novan dosierujon</translation>
    </message>
    <message>
        <source>%1 File</source>
        <translation>Dosiero %1</translation>
    </message>
    <message>
        <source>Files of type:</source>
        <translation>Dosieroj de tipo:</translation>
    </message>
    <message>
        <source>Find Directory</source>
        <translation>Trovi dosierujon</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>Montri &amp;kaŝitajn dosierojn</translation>
    </message>
    <message>
        <source>Save As</source>
        <translation>Konservi kiel</translation>
    </message>
    <message>
        <source>%1
Directory not found.
Please verify the correct directory name was given.</source>
        <translation>%1
Dosierujo ne trovita.
Bonvolu kontroli, ke la nomo de la dosierujo estas ĝusta.</translation>
    </message>
    <message>
        <source>Sidebar</source>
        <translation>Flanka breto</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>Lista vido</translation>
    </message>
    <message>
        <source>&amp;Choose</source>
        <translation>&amp;Elekti</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Forviŝi</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Ĉiuj dosieroj (*)</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>Ĉiuj dosieroj (*)</translation>
    </message>
    <message>
        <source>Directories</source>
        <translation>Dosierujoj</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Renomi</translation>
    </message>
    <message>
        <source>Could not delete directory.</source>
        <translation>Ne eblis forviŝi la dosierujon.</translation>
    </message>
    <message>
        <source>Directory:</source>
        <translation>Dosierujo:</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Nekonata</translation>
    </message>
    <message>
        <source>%1 already exists.
Do you want to replace it?</source>
        <translation>%1 jam ekzistas.
Ĉu vi volas anstataŭigi ĝin?</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>Antaŭen</translation>
    </message>
    <message>
        <source>Go forward</source>
        <translation>Iri antaŭen</translation>
    </message>
    <message>
        <source>Go to the parent directory</source>
        <translation>Iri al la supra dosierujo</translation>
    </message>
    <message>
        <source>Recent Places</source>
        <translation>Lastatempaj lokoj</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>Iri reen</translation>
    </message>
    <message>
        <source>Change to detail view mode</source>
        <translation>Ŝanĝi al detala vido</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>Krei novan dosierujon</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>Detala vido</translation>
    </message>
    <message>
        <source>%1
File not found.
Please verify the correct file name was given.</source>
        <translation>%1
Dosiero ne trovita.
Bonvolu kontroli, ke la nomo de la dosiero estas ĝusta.</translation>
    </message>
    <message>
        <source>Change to list view mode</source>
        <translation>Ŝanĝi al lista vido</translation>
    </message>
    <message>
        <source>Show </source>
        <translation>Montri </translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Kind</source>
        <translation>Speco</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nomo</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Grando</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>Mia komputilo</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>Komputilo</translation>
    </message>
    <message>
        <source>Invalid filename</source>
        <translation>Nevalida dosiernomo</translation>
    </message>
    <message>
        <source>&lt;b&gt;The name &quot;%1&quot; cannot be used.&lt;/b&gt;&lt;p&gt;Try using another name, with fewer characters or no punctuation marks.</source>
        <translation>&lt;b&gt;La nomo &quot;%1&quot; ne estas uzebla.&lt;/b&gt;&lt;p&gt;Provu alian nomon, kun malpli da signoj aŭ sen interpunkcio.</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>Dato de ŝanĝo</translation>
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
        <translation>Enigu valoron:</translation>
    </message>
</context>
<context>
    <name>QLineEdit</name>
    <message>
        <source>Cu&amp;t</source>
        <translation>&amp;Tondi</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopii</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Refari</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Malfari</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>&amp;Alglui</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Forviŝi</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>Elekti ĉion</translation>
    </message>
</context>
<context>
    <name>QMessageBox</name>
    <message>
        <source>Show Details...</source>
        <translation>Montri detalojn...</translation>
    </message>
    <message>
        <source>Hide Details...</source>
        <translation>Kaŝi detalojn...</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>Bone</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Ne</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Jes</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>Helpo</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Malfermi</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Konservi</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>Ĉesigi</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Apliki</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermi</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Rekomencigi</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Reprovi</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>Reveni al defaŭltoj</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Nuligi</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>Ignori</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>N&amp;e al ĉiuj</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>Konservi ĉiujn</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Forĵeti</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>Jes al ĉi&amp;uj</translation>
    </message>
</context>
<context>
    <name>QProgressDialog</name>
    <message>
        <source>Cancel</source>
        <translation>Nuligi</translation>
    </message>
</context>
<context>
    <name>QScrollBar</name>
    <message>
        <source>Top</source>
        <translation>Supro</translation>
    </message>
    <message>
        <source>Scroll down</source>
        <translation>Rulumi malsupren</translation>
    </message>
    <message>
        <source>Scroll here</source>
        <translation>Rulumi ĉi tien</translation>
    </message>
    <message>
        <source>Scroll left</source>
        <translation>Rulumi maldekstren</translation>
    </message>
    <message>
        <source>Bottom</source>
        <translation>Malsupro</translation>
    </message>
    <message>
        <source>Page up</source>
        <translation>Paĝon supren</translation>
    </message>
    <message>
        <source>Page right</source>
        <translation>Paĝon dekstren</translation>
    </message>
    <message>
        <source>Scroll up</source>
        <translation>Rulumi supren</translation>
    </message>
    <message>
        <source>Scroll right</source>
        <translation>Rulumi dekstren</translation>
    </message>
    <message>
        <source>Left edge</source>
        <translation>Maldekstra rando</translation>
    </message>
    <message>
        <source>Page down</source>
        <translation>Paĝon malsupren</translation>
    </message>
    <message>
        <source>Page left</source>
        <translation>Paĝon maldekstren</translation>
    </message>
    <message>
        <source>Right edge</source>
        <translation>Dekstra rando</translation>
    </message>
</context>
<context>
    <name>QTabBar</name>
    <message>
        <source>Scroll Left</source>
        <translation>Rulumi maldekstren</translation>
    </message>
    <message>
        <source>Scroll Right</source>
        <translation>Rulumi dekstren</translation>
    </message>
</context>
<context>
    <name>QUnicodeControlCharacterMenu</name>
    <message>
        <source>RLE Start of right-to-left embedding</source>
        <translation>RLE Komenco de dekstra-maldekstra enkorpigo</translation>
    </message>
    <message>
        <source>ZWSP Zero width space</source>
        <translation>ZWSP Spaco de nula larĝo</translation>
    </message>
    <message>
        <source>LRI Left-to-right isolate</source>
        <translation>LRI Maldekstra-dekstra izolo</translation>
    </message>
    <message>
        <source>Insert Unicode control character</source>
        <translation>Enmeti Unikodan regsignon</translation>
    </message>
    <message>
        <source>LRO Start of left-to-right override</source>
        <translation>LRO Komenco de maldekstra-dekstra superrego</translation>
    </message>
    <message>
        <source>LRE Start of left-to-right embedding</source>
        <translation>LRE Komenco de maldekstra-dekstra enkorpigo</translation>
    </message>
    <message>
        <source>RLI Right-to-left isolate</source>
        <translation>RLI Dekstra-maldekstra izolo</translation>
    </message>
    <message>
        <source>RLM Right-to-left mark</source>
        <translation>RLM Dekstra-maldekstra marko</translation>
    </message>
    <message>
        <source>PDF Pop directional formatting</source>
        <translation>PDF Fino de direkta formatado</translation>
    </message>
    <message>
        <source>ZWNJ Zero width non-joiner</source>
        <translation>ZWNJ Nekunigilo de nula larĝo</translation>
    </message>
    <message>
        <source>RLO Start of right-to-left override</source>
        <translation>RLO Komenco de dekstra-maldekstra superrego</translation>
    </message>
    <message>
        <source>PDI Pop directional isolate</source>
        <translation>PDI Fino de direkta izolo</translation>
    </message>
    <message>
        <source>ZWJ Zero width joiner</source>
        <translation>ZWJ Kunigilo de nula larĝo</translation>
    </message>
    <message>
        <source>LRM Left-to-right mark</source>
        <translation>LRM Maldekstra-dekstra marko</translation>
    </message>
    <message>
        <source>FSI First strong isolate</source>
        <translation>FSI Izolo laŭ la unua forta signo</translation>
    </message>
</context>
<context>
    <name>QWidgetTextControl</name>
    <message>
        <source>Cu&amp;t</source>
        <translation>&amp;Tondi</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopii</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Refari</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Malfari</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>&amp;Alglui</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Forviŝi</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>Elekti ĉion</translation>
    </message>
    <message>
        <source>Copy &amp;Link Location</source>
        <translation>Kopii adreson de &amp;ligilo</translation>
    </message>
</context>
<context>
    <name>ResetScenarioDialog</name>
    <message>
        <source>Demo: count reset</source>
        <translation>Demo: rekomencigo de nombroj</translation>
    </message>
    <message>
        <source>Seeds a fresh pool at the scenario key, runs steady allocations, evicts one member halfway, restores it with the chosen policy and keeps allocating. The dashboard switches to the scenario pool so the chart shows the restore and the flood (or its absence). Then the forecast is compared with what happened.</source>
        <translation>Semas novan provizon ĉe la ŝlosilo de la scenaro, faras stabilajn asignojn, forigas unu membron duonvoje, restarigas ĝin laŭ la elektita politiko kaj daŭre asignas. La stirpanelo ŝanĝas al la provizo de la scenaro, por ke la diagramo montru la restarigon kaj la inundon (aŭ ties foreston). Poste la prognozo estas komparata kun tio, kio okazis.</translation>
    </message>
    <message>
        <source>Restore policy</source>
        <translation>Politiko de restarigo</translation>
    </message>
    <message>
        <source>What the restored member&apos;s count becomes</source>
        <translation>Kio fariĝas la asigna nombro de la restarigita membro</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Membroj</translation>
    </message>
    <message>
        <source>Size of the scenario pool (proxy-00, proxy-01, ...)</source>
        <translation>Grandeco de la provizo de la scenaro (proxy-00, proxy-01, ...)</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>Rapido</translation>
    </message>
    <message>
        <source>Steady allocations per second</source>
        <translation>Stabilaj asignoj po sekundo</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> /s</translation>
    </message>
    <message>
        <source>Load before restore</source>
        <translation>Ŝarĝo antaŭ la restarigo</translation>
    </message>
    <message>
        <source>Seconds of load before the restore; the member is evicted halfway</source>
        <translation>Sekundoj de ŝarĝo antaŭ la restarigo; la membro estas forigita duonvoje</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Load after restore</source>
        <translation>Ŝarĝo post la restarigo</translation>
    </message>
    <message>
        <source>Seconds of load after the restore</source>
        <translation>Sekundoj de ŝarĝo post la restarigo</translation>
    </message>
    <message>
        <source>Scenario key</source>
        <translation>Ŝlosilo de la scenaro</translation>
    </message>
    <message>
        <source>The scenario writes its own pool here, replacing what is there</source>
        <translation>La scenaro skribas sian propran provizon ĉi tien, anstataŭigante tion, kio estas tie</translation>
    </message>
    <message>
        <source>poolscope:reset-demo</source>
        <translation>poolscope:reset-demo</translation>
    </message>
    <message>
        <source>Time elapsed in the scenario</source>
        <translation>Tempo pasinta en la scenaro</translation>
    </message>
    <message>
        <source>The forecast next to what happened</source>
        <translation>La prognozo apud tio, kio okazis</translation>
    </message>
</context>
<context>
    <name>RestoreDialog</name>
    <message>
        <source>Restore evicted members</source>
        <translation>Restarigi forigitajn membrojn</translation>
    </message>
    <message>
        <source>Restore with count</source>
        <translation>Restarigi kun asigna nombro</translation>
    </message>
    <message>
        <source>What the restored member&apos;s count becomes</source>
        <translation>Kio fariĝas la asigna nombro de la restarigita membro</translation>
    </message>
    <message>
        <source>Starting count</source>
        <translation>Komenca nombro</translation>
    </message>
    <message>
        <source>The agreed starting count, used by the &quot;start&quot; policy</source>
        <translation>La interkonsentita komenca nombro, uzata de la politiko &quot;start&quot;</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>Forecast</source>
        <translation>Prognozo</translation>
    </message>
    <message>
        <source>allocate.lua always picks the lowest count: a member restored below the pool minimum takes every allocation until it has caught up. Updated with every poll.</source>
        <translation>allocate.lua ĉiam elektas la plej malaltan asignan nombron: membro restarigita sub la minimumo de la provizo ricevas ĉiun asignon, ĝis ĝi reatingis la aliajn. Ĝisdatigata je ĉiu pridemando.</translation>
    </message>
</context>
<context>
    <name>RestorePolicy</name>
    <message>
        <source>keep</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy keep).</extracomment>
        <translation>keep</translation>
    </message>
    <message>
        <source>zero</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy zero).</extracomment>
        <translation>zero</translation>
    </message>
    <message>
        <source>start</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy start).</extracomment>
        <translation>start</translation>
    </message>
    <message>
        <source>min</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy min): the pool&apos;s minimum.</extracomment>
        <translation>min</translation>
    </message>
    <message>
        <source>keep: back at its saved count, where it left off</source>
        <translation>keep: reen ĉe sia konservita nombro, kie ĝi ĉesis</translation>
    </message>
    <message>
        <source>zero: back at 0; it takes every allocation until it catches up</source>
        <translation>zero: reen ĉe 0; ĝi prenas ĉiun asignon ĝis ĝi reatingas</translation>
    </message>
    <message>
        <source>start: back at the agreed starting count</source>
        <translation>start: reen ĉe la interkonsentita komenca nombro</translation>
    </message>
    <message>
        <source>min: back at the pool&apos;s lowest count; joins the rotation, no flood</source>
        <translation>min: reen ĉe la plej malalta nombro de la provizo; aliĝas al la rotacio, neniu inundo</translation>
    </message>
</context>
<context>
    <name>SeedDialog</name>
    <message>
        <source>Seed the pool</source>
        <translation>Semi la provizon</translation>
    </message>
    <message>
        <source>The pool this dialog writes to</source>
        <translation>La provizo, al kiu ĉi tiu dialogo skribas</translation>
    </message>
    <message>
        <source>Import a proxy list: open a file, paste it, or drop a file here. One proxy per line (host:port, scheme://host:port, CSV with a host/port header, or a JSON array). Nothing is written until you press Seed.</source>
        <translation>Importi prokurilan liston: malfermu dosieron, algluu ĝin aŭ demetu dosieron ĉi tien. Unu prokurilo po linio (host:port, scheme://host:port, CSV kun kaplinio host/port, aŭ JSON-tabelo). Nenio estas skribita, ĝis vi premas Semi.</translation>
    </message>
    <message>
        <source>Read a proxy list from a file</source>
        <translation>Legi prokurilan liston el dosiero</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>Malfermi dosieron…</translation>
    </message>
    <message>
        <source>Replace the text below with the clipboard</source>
        <translation>Anstataŭigi la suban tekston per la tondujo</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>Alglui</translation>
    </message>
    <message>
        <source>Reject private, loopback, link-local, CGNAT, multicast, reserved and documentation addresses, and IPv6 addresses that carry one (IPv4-mapped, 6to4, Teredo, NAT64)</source>
        <translation>Rifuzi privatajn, loopback-, ligil-lokajn, CGNAT-, multielsendajn, rezervitajn kaj dokumentajn adresojn, kaj IPv6-adresojn, kiuj portas tian (IPv4-mapitajn, 6to4, Teredo, NAT64)</translation>
    </message>
    <message>
        <source>Public addresses only</source>
        <translation>Nur publikaj adresoj</translation>
    </message>
    <message>
        <source>The proxy list. Drop a file or paste text here.</source>
        <translation>La prokurila listo. Demetu dosieron aŭ algluu tekston ĉi tien.</translation>
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
        <translation>Akceptitaj</translation>
    </message>
    <message>
        <source>Members that will be written, with the line they came from</source>
        <translation>Membroj, kiuj estos skribitaj, kun la linio, el kiu ili venis</translation>
    </message>
    <message>
        <source>line</source>
        <translation>linio</translation>
    </message>
    <message>
        <source>member</source>
        <translation>membro</translation>
    </message>
    <message>
        <source>note</source>
        <translation>noto</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rifuzitaj</translation>
    </message>
    <message>
        <source>Lines that will not be written, and why (long reasons wrap; hover a row for the whole of it)</source>
        <translation>Linioj, kiuj ne estos skribitaj, kaj kial (longaj kialoj faldiĝas; ŝvebigu super vico por la tuto)</translation>
    </message>
    <message>
        <source>text</source>
        <translation>teksto</translation>
    </message>
    <message>
        <source>reason</source>
        <translation>kialo</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>Duoblaĵoj</translation>
    </message>
    <message>
        <source>Members that occur more than once in the list: each is written once, from the line kept</source>
        <translation>Membroj, kiuj aperas pli ol unufoje en la listo: ĉiu estas skribita unufoje, el la konservita linio</translation>
    </message>
    <message>
        <source>kept line</source>
        <translation>konservita linio</translation>
    </message>
    <message>
        <source>times in the list</source>
        <translation>fojoj en la listo</translation>
    </message>
    <message>
        <source>collapsed lines</source>
        <translation>kunfanditaj linioj</translation>
    </message>
    <message>
        <source>Starting count</source>
        <translation>Komenca nombro</translation>
    </message>
    <message>
        <source>New members start at this count</source>
        <translation>Novaj membroj komenciĝas je ĉi tiu asigna nombro</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Asigna nombro</translation>
    </message>
    <message>
        <source>A whole number from 0 to 2^53</source>
        <translation>Entjero de 0 ĝis 2^53</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>New members start at the pool&apos;s lowest count when they are written: no flood</source>
        <translation>Novaj membroj komenciĝas je la plej malalta asigna nombro de la provizo, kiam ili estas skribitaj: neniu inundo</translation>
    </message>
    <message>
        <source>Pool minimum</source>
        <translation>Minimumo de la provizo</translation>
    </message>
    <message>
        <source>Also reset the count of members that are already in the pool</source>
        <translation>Ankaŭ rekomencigi la asignan nombron de membroj jam en la provizo</translation>
    </message>
    <message>
        <source>Reset members already in the pool</source>
        <translation>Rekomencigi membrojn jam en la provizo</translation>
    </message>
    <message>
        <source>Members written so far</source>
        <translation>Membroj skribitaj ĝis nun</translation>
    </message>
</context>
<context>
    <name>TestAllocationDialog</name>
    <message>
        <source>Test allocations</source>
        <translation>Provaj asignoj</translation>
    </message>
    <message>
        <source>Allocate proxies the way workers do: allocate.lua by EVALSHA, each worker on its own connection. Every allocation really increments a count.</source>
        <translation>Asigni prokurilojn kiel laborantoj faras: allocate.lua per EVALSHA, ĉiu laboranto per sia propra konekto. Ĉiu asigno vere pliigas asignan nombron.</translation>
    </message>
    <message>
        <source>Stop after this many allocations</source>
        <translation>Halti post tiom da asignoj</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>Asignoj</translation>
    </message>
    <message>
        <source>How many allocations in all</source>
        <translation>Kiom da asignoj entute</translation>
    </message>
    <message>
        <source>Run for this long instead of a fixed number</source>
        <translation>Ruli tiom longe anstataŭ fiksitan nombron</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Daŭro</translation>
    </message>
    <message>
        <source>Seconds to run</source>
        <translation>Sekundoj de rulado</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Laborantoj</translation>
    </message>
    <message>
        <source>Threads, each with its own Redis connection</source>
        <translation>Fadenoj, ĉiu kun sia propra Redis-konekto</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>Dukto</translation>
    </message>
    <message>
        <source>Allocations in flight per worker</source>
        <translation>Asignoj survoje po laboranto</translation>
    </message>
    <message>
        <source>Rate limit</source>
        <translation>Rapidlimo</translation>
    </message>
    <message>
        <source>Allocations per second, all workers together; 0 = as fast as the server allows</source>
        <translation>Asignoj po sekundo, ĉiuj laborantoj kune; 0 = tiel rapide kiel la servilo permesas</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>senlima</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> /s</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Reĝimo</translation>
    </message>
    <message>
        <source>The atomic script, or the naive ZRANGE then ZINCRBY (the race demo: counts collisions)</source>
        <translation>La atoma skripto, aŭ la naiva ZRANGE poste ZINCRBY (la demo de konkurado: nombras koliziojn)</translation>
    </message>
    <message>
        <source>Allocations done</source>
        <translation>Asignoj faritaj</translation>
    </message>
    <message>
        <source>Current allocation rate of this run</source>
        <translation>Nuna asigna rapido de ĉi tiu rulado</translation>
    </message>
    <message>
        <source>Summary of the last run</source>
        <translation>Resumo de la lasta rulado</translation>
    </message>
</context>
<context>
    <name>WriteLock</name>
    <message>
        <source>Production</source>
        <translation>Produktado</translation>
    </message>
    <message>
        <source>Staging</source>
        <translation>Provejo</translation>
    </message>
    <message>
        <source>Development</source>
        <translation>Disvolvado</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>reopening the last connection %1 (poolscope --demo starts the demo instead)</source>
        <translation>remalfermante la lastan konekton %1 (poolscope --demo anstataŭe lanĉas la demon)</translation>
    </message>
    <message>
        <source>cannot start the embedded redis-server: %1. Or connect to a server with --url redis://host:6379/0.</source>
        <translation>ne eblas lanĉi la enkorpigitan redis-server: %1. Aŭ konektiĝu al servilo per --url redis://host:6379/0.</translation>
    </message>
    <message>
        <source>embedded redis-server started (pid %1, %2); it stops when poolscope exits</source>
        <translation>enkorpigita redis-server lanĉita (pid %1, %2); ĝi haltas kiam poolscope finiĝas</translation>
    </message>
</context>
<context>
    <name>poolscope</name>
    <message>
        <source>choose the server&apos;s CA in File ▸ Connections... ▸ Edit... ▸ CA file</source>
        <translation>elektu la CA de la servilo en Dosiero ▸ Konektoj... ▸ Redakti... ▸ CA-dosiero</translation>
    </message>
    <message>
        <source>connect by one of those names, or enter the expected one in File ▸ Connections... ▸ Edit... ▸ Server name</source>
        <translation>konektu per unu el tiuj nomoj, aŭ enigu la atendatan en Dosiero ▸ Konektoj... ▸ Redakti... ▸ Nomo de servilo</translation>
    </message>
    <message>
        <source>check its fingerprint, then connect again and choose Trust, or tick &quot;Accept and record an unknown host key&quot; in File ▸ Connections... ▸ Edit...</source>
        <translation>kontrolu ĝian fingrospuron, poste konektu denove kaj elektu Fidi, aŭ marku &quot;Akcepti kaj registri nekonatan gastigan ŝlosilon&quot; en Dosiero ▸ Konektoj... ▸ Redakti...</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertRules</name>
    <message>
        <source>Pool empty</source>
        <translation>Provizo malplena</translation>
    </message>
    <message>
        <source>Few members</source>
        <translation>Malmultaj membroj</translation>
    </message>
    <message>
        <source>Fewest members</source>
        <translation>Plej malmultaj membroj</translation>
    </message>
    <message>
        <source>Many evicted</source>
        <translation>Multaj forigitaj</translation>
    </message>
    <message>
        <source>Evicted share (%)</source>
        <translation>Parto forigita (%)</translation>
    </message>
    <message>
        <source>One member floods</source>
        <translation>Unu membro inundas</translation>
    </message>
    <message>
        <source>Share of the allocations (%)</source>
        <translation>Parto de la asignoj (%)</translation>
    </message>
    <message>
        <source>Allocations in the window, at least</source>
        <translation>Asignoj en la fenestro, almenaŭ</translation>
    </message>
    <message>
        <source>Members in the pool, at least</source>
        <translation>Membroj en la provizo, almenaŭ</translation>
    </message>
    <message>
        <source>A member starves</source>
        <translation>Membro malsatas</translation>
    </message>
    <message>
        <source>Without allocation for (s)</source>
        <translation>Sen asigno dum (s)</translation>
    </message>
    <message>
        <source>While the pool allocated, per member, at least</source>
        <translation>Dum la provizo asignis, po membro, almenaŭ</translation>
    </message>
    <message>
        <source>Counts spread apart</source>
        <translation>Nombroj disiĝas</translation>
    </message>
    <message>
        <source>Highest minus lowest count, at most</source>
        <translation>Plej alta minus plej malalta nombro, maksimume</translation>
    </message>
    <message>
        <source>Unfair pool</source>
        <translation>Maljusta provizo</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index, at least</source>
        <translation>Indico de Jain pri justeco, almenaŭ</translation>
    </message>
    <message>
        <source>Workers stopped</source>
        <translation>Laborantoj haltis</translation>
    </message>
    <message>
        <source>Allocation rate changed</source>
        <translation>Asigna rapido ŝanĝiĝis</translation>
    </message>
    <message>
        <source>Factor from the baseline</source>
        <translation>Faktoro rilate al la bazlinio</translation>
    </message>
    <message>
        <source>Baseline allocations/s, at least</source>
        <translation>Bazlinio de asignoj/s, almenaŭ</translation>
    </message>
    <message>
        <source>Guard at its cap</source>
        <translation>Gardisto ĉe sia limo</translation>
    </message>
    <message>
        <source>No guard on duty</source>
        <translation>Neniu gardisto deĵoras</translation>
    </message>
    <message>
        <source>Server unreachable</source>
        <translation>Servilo neatingebla</translation>
    </message>
    <message>
        <source>Failover</source>
        <translation>Transpreno</translation>
    </message>
    <message>
        <source>Reported for (s)</source>
        <translation>Raportata dum (s)</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>The pool has no member: every allocation returns nil.</source>
        <translation>La provizo havas neniun membron: ĉiu asigno redonas nil.</translation>
    </message>
    <message>
        <source>Fewer than %1 members in the pool (but not none): each one left takes a large share of the load.</source>
        <translation>Malpli ol %1 membroj en la provizo (sed ne neniu): ĉiu restanta prenas grandan parton de la ŝarĝo.</translation>
    </message>
    <message>
        <source>At least %1% of the pool&apos;s members are evicted (a guard at its default cap evicts no more).</source>
        <translation>Almenaŭ %1% de la membroj de la provizo estas forigitaj (gardisto ĉe sia defaŭlta limo ne forigas pli).</translation>
    </message>
    <message>
        <source>One member takes more than %1% of the last window&apos;s allocations (at least %2 of them, %3 members or more): the flood after a restore at count 0.</source>
        <translation>Unu membro prenas pli ol %1% de la asignoj de la lasta fenestro (almenaŭ %2 el ili, %3 membroj aŭ pli): la inundo post restarigo je asigna nombro 0.</translation>
    </message>
    <message>
        <source>A member has had no allocation for %1 while the pool made at least %2 per member: its count is far above the others&apos;.</source>
        <translation>Membro ricevis neniun asignon dum %1, dum la provizo faris almenaŭ %2 po membro: ĝia asigna nombro estas multe super tiu de la aliaj.</translation>
    </message>
    <message>
        <source>The highest and the lowest count are more than %1 apart.</source>
        <translation>La plej alta kaj la plej malalta asignaj nombroj distancas pli ol %1.</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index of the counts is below %1.</source>
        <translation>La indico de Jain pri justeco de la asignaj nombroj estas sub %1.</translation>
    </message>
    <message>
        <source>No allocation at all while the pool has members: the workers have stopped or cannot reach Redis.</source>
        <translation>Tute neniu asigno, dum la provizo havas membrojn: la laborantoj haltis aŭ ne atingas Redis.</translation>
    </message>
    <message>
        <source>The allocation rate is %1 times above or below its baseline (the minutes before; at least %2 allocations/s).</source>
        <translation>La asigna rapido estas %1-oble super aŭ sub sia bazlinio (la antaŭaj minutoj; almenaŭ %2 asignoj/s).</translation>
    </message>
    <message>
        <source>The guard holds back evictions at its cap: the target or the network looks down.</source>
        <translation>La gardisto retenas forigojn ĉe sia limo: la celo aŭ la reto ŝajnas malfunkcia.</translation>
    </message>
    <message>
        <source>A guard watched this pool in the last day, but none holds its lease now: dead members are neither evicted nor restored.</source>
        <translation>Gardisto observis ĉi tiun provizon en la lasta tago, sed neniu tenas ĝian luon nun: mortintaj membroj estas nek forigataj nek restarigataj.</translation>
    </message>
    <message>
        <source>The Redis server cannot be reached.</source>
        <translation>La Redis-servilo ne estas atingebla.</translation>
    </message>
    <message>
        <source>The pool moved to another server: the Sentinel primary changed or the cluster slot moved (reported for %1).</source>
        <translation>La provizo moviĝis al alia servilo: la ĉefa servilo de Sentinel ŝanĝiĝis aŭ la slot de la areto moviĝis (raportata dum %1).</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertRulesDialog</name>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Alert rules</source>
        <translation>Alarmaj reguloj</translation>
    </message>
    <message>
        <source>An alert is pending while its condition holds, fires once it has held for the rule&apos;s &quot;for&quot; time, and resolves once the condition has been gone for its &quot;keep firing&quot; time. The defaults are on for every pool; unticked rules are not judged.</source>
        <translation>Alarmo atendas dum ĝia kondiĉo validas, ekagas kiam ĝi validis dum la tempo &quot;Dum&quot; de la regulo, kaj solviĝas kiam la kondiĉo forestis dum ĝia tempo &quot;Daŭre aktiva&quot;. La defaŭltoj validas por ĉiu provizo; nemarkitaj reguloj ne estas taksataj.</translation>
    </message>
    <message>
        <source>On</source>
        <translation>Ŝaltita</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regulo</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Graveco</translation>
    </message>
    <message>
        <source>For</source>
        <translation>Dum</translation>
    </message>
    <message>
        <source>Keep firing</source>
        <translation>Daŭre aktiva</translation>
    </message>
    <message>
        <source>Thresholds</source>
        <translation>Sojloj</translation>
    </message>
    <message>
        <source>This connection was typed in, not saved: the rules apply to this window until it closes.</source>
        <translation>Ĉi tiu konekto estis tajpita, ne konservita: la reguloj validas por ĉi tiu fenestro ĝis ĝi fermiĝas.</translation>
    </message>
    <message>
        <source>Saved with the connection &quot;%1&quot;, for the pool %2.</source>
        <translation>Konservita kun la konekto &quot;%1&quot;, por la provizo %2.</translation>
    </message>
    <message>
        <source>%1 on</source>
        <translation>%1 ŝaltita</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>averto</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>kritika</translation>
    </message>
    <message>
        <source>%1: %2 It fires after %3 and resolves %4 after it is gone.</source>
        <translation>%1: %2 Ĝi ekagas post %3 kaj solviĝas %4 post kiam ĝi malaperis.</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertTray</name>
    <message>
        <source>Keep watching in the &amp;tray when closed</source>
        <translation>&amp;Daŭre observi en la sistempleto post fermo</translation>
    </message>
    <message>
        <source>This desktop has no system tray: closing the window ends poolscope.</source>
        <translation>Ĉi tiu labortablo ne havas sistempleton: fermi la fenestron finas poolscope.</translation>
    </message>
    <message>
        <source>Closing the window hides it: the pool is still watched and its alerts still shown. Quit from the tray icon&apos;s menu.</source>
        <translation>Fermi la fenestron kaŝas ĝin: la provizo estas ankoraŭ observata kaj ĝiaj alarmoj ankoraŭ montrataj. Eliru per la menuo de la piktogramo en la sistempleto.</translation>
    </message>
    <message>
        <source>&amp;Show window</source>
        <translation>&amp;Montri la fenestron</translation>
    </message>
    <message>
        <source>&amp;Quit poolscope</source>
        <translation>&amp;Eliri el poolscope</translation>
    </message>
    <message>
        <source>poolscope: %1
No alert firing.</source>
        <translation>poolscope: %1
Neniu alarmo aktiva.</translation>
    </message>
    <message numerus="yes">
        <source>poolscope: %1
%n alert(s) firing: %2</source>
        <translation>
            <numerusform>poolscope: %1
%n alarmo aktiva: %2</numerusform>
            <numerusform>poolscope: %1
%n alarmoj aktivaj: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>poolscope: no live pool watched</source>
        <translation>poolscope: neniu viva provizo observata</translation>
    </message>
    <message>
        <source>poolscope is still watching</source>
        <translation>poolscope daŭre observas</translation>
    </message>
    <message>
        <source>The window is closed; alerts still come here. Quit from this icon&apos;s menu.</source>
        <translation>La fenestro estas fermita; alarmoj ankoraŭ venas ĉi tien. Eliru per la menuo de ĉi tiu piktogramo.</translation>
    </message>
</context>
<context>
    <name>poolscope::Alerts</name>
    <message>
        <source>the server cannot be reached: nothing is known of the pool now</source>
        <translation>la servilo ne estas atingebla: nenio estas konata pri la provizo nun</translation>
    </message>
    <message>
        <source>not connected yet</source>
        <translation>ankoraŭ ne konektita</translation>
    </message>
    <message>
        <source>no poll yet</source>
        <translation>ankoraŭ neniu pridemando</translation>
    </message>
    <message>
        <source>pool %1 is empty: every allocation returns nil</source>
        <translation>la provizo %1 estas malplena: ĉiu asigno redonas nil</translation>
    </message>
    <message>
        <source>pool %1 has %2 members</source>
        <translation>la provizo %1 havas %2 membrojn</translation>
    </message>
    <message>
        <source>counts spread by %1 (highest %2, lowest %3; at most %4)</source>
        <translation>la nombroj disiĝas je %1 (plej alta %2, plej malalta %3; maksimume %4)</translation>
    </message>
    <message>
        <source>Jain&apos;s index unknown until the first totals scan is through</source>
        <translation>la indico de Jain estas nekonata ĝis la unua skano de la sumoj finiĝis</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index %1 (at least %2)</source>
        <translation>indico de Jain pri justeco %1 (almenaŭ %2)</translation>
    </message>
    <message>
        <source>pool %1 has %2 members (at least %3 wanted)</source>
        <translation>la provizo %1 havas %2 membrojn (almenaŭ %3 dezirataj)</translation>
    </message>
    <message>
        <source>%1 of the members evicted (%2 of %3; below %4% wanted)</source>
        <translation>%1 el la membroj forigitaj (%2 el %3; malpli ol %4% dezirataj)</translation>
    </message>
    <message>
        <source>no allocations measured yet (two polls are needed)</source>
        <translation>ankoraŭ neniuj asignoj mezuritaj (du pridemandoj necesas)</translation>
    </message>
    <message>
        <source>%1 members: too few to tell a flood</source>
        <translation>%1 membroj: tro malmultaj por konstati inundon</translation>
    </message>
    <message>
        <source>%1 allocations in the last %2: too few to tell a flood</source>
        <translation>%1 asignoj en la lastaj %2: tro malmultaj por konstati inundon</translation>
    </message>
    <message>
        <source>%1 took %2 of the last %3&apos;s allocations (%4 of %5; at most %6% wanted)</source>
        <translation>%1 ricevis %2 el la asignoj de la lastaj %3 (%4 el %5; maksimume %6% dezirataj)</translation>
    </message>
    <message>
        <source>one poll only: no member can be seen idle yet</source>
        <translation>nur unu pridemando: neniu membro videblas senokupa ankoraŭ</translation>
    </message>
    <message>
        <source>no member starves</source>
        <translation>neniu membro malsatas</translation>
    </message>
    <message>
        <source>%1 has had no allocation for %2 while the pool made %3 (starved after %4 and %5)</source>
        <translation>%1 ricevis neniun asignon dum %2, dum la provizo faris %3 (malsata post %4 kaj %5)</translation>
    </message>
    <message>
        <source>the pool is empty: nothing to allocate</source>
        <translation>la provizo estas malplena: nenio por asigni</translation>
    </message>
    <message>
        <source>%1 allocations in the last %2 (%3/s)</source>
        <translation>%1 asignoj en la lastaj %2 (%3/s)</translation>
    </message>
    <message>
        <source>no baseline yet (it takes minutes of polls)</source>
        <translation>ankoraŭ neniu bazlinio (ĝi bezonas minutojn da pridemandoj)</translation>
    </message>
    <message>
        <source>%1 allocations/s now, %2/s before</source>
        <translation>%1 asignoj/s nun, %2/s antaŭe</translation>
    </message>
    <message>
        <source>the guard&apos;s lease and events were not read</source>
        <translation>la luo kaj eventoj de la gardisto ne estis legitaj</translation>
    </message>
    <message>
        <source>no guard watches this pool</source>
        <translation>neniu gardisto observas ĉi tiun provizon</translation>
    </message>
    <message>
        <source>the guard holds back evictions at its cap: %1</source>
        <translation>la gardisto retenas forigojn ĉe sia limo: %1</translation>
    </message>
    <message>
        <source>the guard is not held back</source>
        <translation>la gardisto ne estas retenata</translation>
    </message>
    <message>
        <source>guard %1 holds the lease</source>
        <translation>la gardisto %1 tenas la luon</translation>
    </message>
    <message>
        <source>no guard holds the lease on pool %1</source>
        <translation>neniu gardisto tenas la luon de la provizo %1</translation>
    </message>
    <message>
        <source>the server answers</source>
        <translation>la servilo respondas</translation>
    </message>
    <message>
        <source>the server has not answered for %1: %2</source>
        <translation>la servilo ne respondis dum %1: %2</translation>
    </message>
    <message>
        <source>no failover seen</source>
        <translation>neniu transpreno vidita</translation>
    </message>
    <message>
        <source>the Sentinel primary changed from %1 to %2 %3 ago</source>
        <translation>la ĉefa servilo de Sentinel ŝanĝiĝis de %1 al %2 antaŭ %3</translation>
    </message>
    <message>
        <source>the pool&apos;s cluster slot moved from %1 to %2 %3 ago</source>
        <translation>la slot de la provizo en la areto moviĝis de %1 al %2 antaŭ %3</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertsPanel</name>
    <message>
        <source>&amp;Rules…</source>
        <translation>&amp;Reguloj…</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>Alarmo</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Stato</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>Ekde</translation>
    </message>
    <message>
        <source>Value now</source>
        <translation>Nuna valoro</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Graveco</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Kio</translation>
    </message>
    <message>
        <source>Active alerts</source>
        <translation>Aktivaj alarmoj</translation>
    </message>
    <message>
        <source>Edit this pool&apos;s alert rules</source>
        <translation>Redakti la alarmajn regulojn de ĉi tiu provizo</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="vanished">%1: %2</translation>
    </message>
    <message>
        <source>the alert rules could not be saved in &quot;%1&quot;: %2</source>
        <translation>la alarmaj reguloj ne konserveblis en &quot;%1&quot;: %2</translation>
    </message>
    <message>
        <source>alert rules saved in the connection &quot;%1&quot;</source>
        <translation>alarmaj reguloj konservitaj en la konekto &quot;%1&quot;</translation>
    </message>
    <message>
        <source>firing</source>
        <translation>aktiva</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>atendanta</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>kritika</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>averto</translation>
    </message>
    <message>
        <source>No live pool watched: no alerts are judged.</source>
        <translation>Neniu viva provizo observata: neniuj alarmoj estas taksataj.</translation>
    </message>
    <message numerus="yes">
        <source>No alert: %n rule(s) watching this pool.</source>
        <translation>
            <numerusform>Neniu alarmo: %n regulo observas ĉi tiun provizon.</numerusform>
            <numerusform>Neniu alarmo: %n reguloj observas ĉi tiun provizon.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n alert(s) firing, %1 pending.</source>
        <translation>
            <numerusform>%n alarmo aktiva, %1 atendanta.</numerusform>
            <numerusform>%n alarmoj aktivaj, %1 atendantaj.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::AuditView</name>
    <message>
        <source>seed</source>
        <translation>semado</translation>
    </message>
    <message>
        <source>evict</source>
        <translation>forigo</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>restarigo</translation>
    </message>
    <message>
        <source>evicted hash moved</source>
        <translation>haketo de forigitoj movita</translation>
    </message>
    <message>
        <source>guard held back</source>
        <translation>gardisto retenita</translation>
    </message>
    <message>
        <source>guard no longer held back</source>
        <translation>gardisto ne plu retenita</translation>
    </message>
    <message>
        <source>&amp;Search</source>
        <translation>&amp;Serĉi</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>&amp;Eksporti CSV…</translation>
    </message>
    <message>
        <source>Audit trail: %1</source>
        <translation>Kontrolspuro: %1</translation>
    </message>
    <message>
        <source>part of a member id</source>
        <translation>parto de membra identigilo</translation>
    </message>
    <message>
        <source>user, host, program or guard</source>
        <translation>uzanto, gastiganto, programo aŭ gardisto</translation>
    </message>
    <message>
        <source>any action</source>
        <translation>ajna ago</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Tempo</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Ago</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Membroj</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Nombro</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Aganto</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Kialo</translation>
    </message>
    <message>
        <source>Audit entries</source>
        <translation>Kontrolspuraj eroj</translation>
    </message>
    <message>
        <source>&amp;Member:</source>
        <translation>&amp;Membro:</translation>
    </message>
    <message>
        <source>Ac&amp;tor:</source>
        <translation>&amp;Aganto:</translation>
    </message>
    <message>
        <source>Acti&amp;on:</source>
        <translation>A&amp;go:</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(ies) found</source>
        <translation>
            <numerusform>%n ero trovita</numerusform>
            <numerusform>%n eroj trovitaj</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 among %2 read: the whole trail.</source>
        <translation>%1 inter %2 legitaj: la tuta spuro.</translation>
    </message>
    <message>
        <source>%1: stopped there, narrow the filters to see older ones.</source>
        <translation>%1: haltis tie, malvastigu la filtrilojn por vidi pli malnovajn.</translation>
    </message>
    <message>
        <source>The trail could not be read: %1</source>
        <translation>La spuro ne legeblis: %1</translation>
    </message>
    <message>
        <source>No live pool watched: there is no trail to read.</source>
        <translation>Neniu viva provizo observata: ne estas spuro legebla.</translation>
    </message>
    <message>
        <source>Reading the trail…</source>
        <translation>Legante la spuron…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Export the audit entries</source>
        <translation>Eksporti la kontrolspurajn erojn</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-dosieroj (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>Eksportita al %1.</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>Ne eksportita: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::ChartFrame</name>
    <message>
        <source>pool allocations/s</source>
        <translation>asignoj/s de la provizo</translation>
    </message>
    <message>
        <source>allocations/s</source>
        <translation>asignoj/s</translation>
    </message>
    <message>
        <source>count − median</source>
        <translation>nombro − mediano</translation>
    </message>
    <message>
        <source>allocations (count)</source>
        <translation>asignoj (nombro)</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>Ne konektita</translation>
    </message>
    <message>
        <source>No connection to Redis: retrying…</source>
        <translation>Neniu konekto al Redis: reprovante…</translation>
    </message>
    <message>
        <source>Not connected (the events panel says why)</source>
        <translation>Ne konektita (la eventa panelo diras kial)</translation>
    </message>
    <message>
        <source>Reading the pool fails: %1</source>
        <translation>Legi la provizon malsukcesas: %1</translation>
    </message>
    <message>
        <source>Waiting for the first poll…</source>
        <translation>Atendante la unuan pridemandon…</translation>
    </message>
    <message>
        <source>No pool at this key yet: Seed… to add proxies</source>
        <translation>Ankoraŭ neniu provizo ĉe ĉi tiu ŝlosilo: Semi… por aldoni prokurilojn</translation>
    </message>
    <message>
        <source>Collecting data…</source>
        <translation>Kolektante datumojn…</translation>
    </message>
    <message>
        <source>%1 members</source>
        <translation type="vanished">%1 membroj</translation>
    </message>
    <message>
        <source>%1 members (summary): top %2, %3 pinned, the bottom as the pool minimum line + band</source>
        <translation type="vanished">%1 membroj (resumo): supraj %2, %3 alpinglitaj, la malsupraj kiel la minimuma linio de la provizo + bendo</translation>
    </message>
    <message>
        <source>%1 members (summary): top %2, %3 pinned</source>
        <translation type="vanished">%1 membroj (resumo): supraj %2, %3 alpinglitaj</translation>
    </message>
    <message>
        <source>%1 members: top %2, bottom %2, %3 pinned + min/median/max band</source>
        <translation type="vanished">%1 membroj: supraj %2, malsupraj %2, %3 alpinglitaj + bendo min./mediano/maks.</translation>
    </message>
    <message>
        <source>%1 members: top %2, bottom %2, %3 pinned</source>
        <translation type="vanished">%1 membroj: supraj %2, malsupraj %2, %3 alpinglitaj</translation>
    </message>
    <message>
        <source> · %1 hidden</source>
        <translation type="vanished"> · %1 kaŝitaj</translation>
    </message>
    <message>
        <source> · zoomed in: Esc or a right click to zoom out</source>
        <translation type="vanished"> · zomita: Esc aŭ dekstra klako por malzomi</translation>
    </message>
    <message>
        <source> · legend hidden (narrow): colours as in the table</source>
        <translation type="vanished"> · legendo kaŝita (mallarĝa): koloroj kiel en la tabelo</translation>
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
        <translation>rapido de la provizo (/s, dekstra akso)</translation>
    </message>
    <message>
        <source>pool min–max − median (%1)</source>
        <translation type="vanished">min.–maks. − mediano de la provizo (%1)</translation>
    </message>
    <message>
        <source>pool min–max (%1)</source>
        <translation type="vanished">min.–maks. de la provizo (%1)</translation>
    </message>
    <message>
        <source>pool median (0)</source>
        <translation>mediano de la provizo (0)</translation>
    </message>
    <message>
        <source>pool median</source>
        <translation>mediano de la provizo</translation>
    </message>
    <message>
        <source>pool minimum − median</source>
        <translation>minimumo de la provizo − mediano</translation>
    </message>
    <message>
        <source>pool minimum</source>
        <translation>minimumo de la provizo</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>+%n plia (vidu la tabelon)</numerusform>
            <numerusform>+%n pliaj (vidu la tabelon)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members</source>
        <comment>the chart&apos;s caption: all of them are charted</comment>
        <translation>
            <numerusform>%Ln membro</numerusform>
            <numerusform>%Ln membroj</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln membro (resumo): supraj %1, %2 alpinglitaj</numerusform>
            <numerusform>%Ln membroj (resumo): supraj %1, %2 alpinglitaj</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned, the bottom as the pool minimum line + band</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln membro (resumo): supraj %1, %2 alpinglitaj, la malsupraj kiel la minimuma linio de la provizo + bendo</numerusform>
            <numerusform>%Ln membroj (resumo): supraj %1, %2 alpinglitaj, la malsupraj kiel la minimuma linio de la provizo + bendo</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln membro: supraj %1, malsupraj %1, %2 alpinglitaj</numerusform>
            <numerusform>%Ln membroj: supraj %1, malsupraj %1, %2 alpinglitaj</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned + min/median/max band</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln membro: supraj %1, malsupraj %1, %2 alpinglitaj + bendo min./mediano/maks.</numerusform>
            <numerusform>%Ln membroj: supraj %1, malsupraj %1, %2 alpinglitaj + bendo min./mediano/maks.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln hidden</source>
        <comment>the chart&apos;s caption: lines hidden from the chart</comment>
        <translation>
            <numerusform>%Ln kaŝita</numerusform>
            <numerusform>%Ln kaŝitaj</numerusform>
        </translation>
    </message>
    <message>
        <source>zoomed in: Esc or a right click to zoom out</source>
        <translation>zomita: Esc aŭ dekstra klako por malzomi</translation>
    </message>
    <message>
        <source>legend hidden (narrow): colours as in the table</source>
        <translation>legendo kaŝita (mallarĝa): koloroj kiel en la tabelo</translation>
    </message>
    <message>
        <source>pool min–max − median (%1)</source>
        <comment>legend: the band of the pool&apos;s counts (scores) minus their median; %1: how many members the pool has</comment>
        <translation>min.–maks. − mediano de la provizo (%1)</translation>
    </message>
    <message>
        <source>pool min–max (%1)</source>
        <comment>legend: the band from the pool&apos;s lowest to its highest count (score); %1: how many members the pool has</comment>
        <translation>min.–maks. de la provizo (%1)</translation>
    </message>
</context>
<context>
    <name>poolscope::ChartPanel</name>
    <message>
        <source>pool allocations/s</source>
        <translation>asignoj de la provizo/s</translation>
    </message>
    <message>
        <source>pool rate (/s, right axis)</source>
        <translation type="vanished">rapido de la provizo (/s, dekstra akso)</translation>
    </message>
    <message>
        <source>In a big pool ▲ marks the most allocated members, ▼ the ones allocated next. The dotted grey line is the pool&apos;s allocation rate (right axis).</source>
        <translation>En granda provizo ▲ markas la plej asignitajn membrojn, ▼ tiujn asignotajn poste. La punktita griza linio estas la asigna rapido de la provizo (dekstra akso).</translation>
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
        <translation>Kiujn membrojn la diagramo montras</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation type="vanished">
            <numerusform>+%n plia (vidu la tabelon)</numerusform>
            <numerusform>+%n pliaj (vidu la tabelon)</numerusform>
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
        <translation>tempo</translation>
    </message>
    <message>
        <source>pool min–max</source>
        <comment>legend: the band from the pool&apos;s lowest to its highest allocation count (score)</comment>
        <translation>min.–maks. de la provizo</translation>
    </message>
    <message>
        <source>Click a legend entry to hide or show its line; pin members from the table (%1) to keep them charted</source>
        <translation>Alklaku eron de la legendo por kaŝi aŭ montri ĝian linion; alpinglu membrojn el la tabelo (%1) por teni ilin en la diagramo</translation>
    </message>
    <message>
        <source>Chart each member&apos;s count; its count minus the pool median at each moment (a fair pool is a flat bundle near %1, a flooded or starved member stands out); or how many allocations per second it receives</source>
        <comment>count: how many times a member was allocated (its score)</comment>
        <translation>Montri en la diagramo la asignan nombron de ĉiu membro; ĝian nombron minus la mediano de la provizo en ĉiu momento (justa provizo estas plata fasko ĉirkaŭ %1, inundita aŭ malsatanta membro elstaras); aŭ kiom da asignoj po sekundo ĝi ricevas</translation>
    </message>
    <message>
        <source>Show</source>
        <comment>label before the box choosing what the chart shows</comment>
        <translation>Montri</translation>
    </message>
    <message>
        <source>Window</source>
        <comment>label before the chart&apos;s time span (last 5 min, last hour...), not a window on the screen</comment>
        <translation>Fenestro</translation>
    </message>
    <message>
        <source>Cumulative count</source>
        <comment>chart mode: each member&apos;s allocation count (its score in the sorted set) as it grows</comment>
        <translation>Akumula nombro</translation>
    </message>
    <message>
        <source>Difference from median</source>
        <comment>chart mode: each member&apos;s count minus the pool&apos;s median count</comment>
        <translation>Diferenco de la mediano</translation>
    </message>
    <message>
        <source>Rate (allocations/s)</source>
        <comment>chart mode: allocations per second each member receives</comment>
        <translation>Rapido (asignoj/s)</translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln min</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>Lasta %Ln min</numerusform>
            <numerusform>Lastaj %Ln min</numerusform>
        </translation>
    </message>
    <message>
        <source>Last hour</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>Lasta horo</translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln h</source>
        <comment>the chart&apos;s time span, in a box; h: hours</comment>
        <translation>
            <numerusform>Lasta %Ln h</numerusform>
            <numerusform>Lastaj %Ln h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln days</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>Lasta %Ln tago</numerusform>
            <numerusform>Lastaj %Ln tagoj</numerusform>
        </translation>
    </message>
    <message>
        <source>All</source>
        <comment>the chart&apos;s time span, in a box: all the history held</comment>
        <translation>Ĉio</translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln minutes</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>Fenestro: lasta &amp;%Ln minuto</numerusform>
            <numerusform>Fenestro: lastaj &amp;%Ln minutoj</numerusform>
        </translation>
    </message>
    <message>
        <source>Window: last &amp;hour</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>Fenestro: lasta &amp;horo</translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln hours</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>Fenestro: lasta &amp;%Ln horo</numerusform>
            <numerusform>Fenestro: lastaj &amp;%Ln horoj</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln days</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>Fenestro: lasta &amp;%Ln tago</numerusform>
            <numerusform>Fenestro: lastaj &amp;%Ln tagoj</numerusform>
        </translation>
    </message>
    <message>
        <source>Window: &amp;all the history</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>Fenestro: la &amp;tuta historio</translation>
    </message>
    <message>
        <source>Time window of the chart, ending at the latest poll (%1 … %2). Drag across the chart to zoom into a time range; %3, a right click or Zoom out go back one step, a double click (%4) back to the whole window</source>
        <comment>%1 … %2: the shortcuts of the first and last time windows; %3: the Esc key; %4: the shortcut to the whole window. &quot;Zoom out&quot; is the button&apos;s name</comment>
        <translation>Tempa fenestro de la diagramo, finiĝanta ĉe la lasta pridemando (%1 … %2). Trenu trans la diagramon por zomi al tempintervalo; %3, dekstra klako aŭ Malzomi reiras unu paŝon, duobla klako (%4) reen al la tuta fenestro</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <comment>the chart&apos;s time range, back one step</comment>
        <translation>Malzomi</translation>
    </message>
    <message>
        <source>Back to the time range before the last zoom (%1 or a right click on the chart)</source>
        <comment>%1: the Esc key</comment>
        <translation>Reen al la tempintervalo antaŭ la lasta zomo (%1 aŭ dekstra klako sur la diagramo)</translation>
    </message>
    <message>
        <source>Whole window</source>
        <comment>the chart&apos;s whole time span again, out of every zoom step</comment>
        <translation>Tuta fenestro</translation>
    </message>
    <message>
        <source>Out of every zoom step, to the whole window (a double click on the chart)</source>
        <comment>window: the chart&apos;s time span, not a window on the screen</comment>
        <translation>El ĉiuj zompaŝoj, al la tuta fenestro (duobla klako sur la diagramo)</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionBar</name>
    <message>
        <source>Go to the Redis address</source>
        <translation>Iri al la Redis-adreso</translation>
    </message>
    <message>
        <source>Pause or resume polling (Ctrl+Shift+Space). Writes still work.</source>
        <translation>Paŭzigi aŭ daŭrigi la pridemandadon (Ctrl+Shift+Space). Skribado ankoraŭ funkcias.</translation>
    </message>
    <message>
        <source> &amp;Redis </source>
        <translation> &amp;Redis </translation>
    </message>
    <message>
        <source>  P&amp;ool </source>
        <translation>  Pr&amp;ovizo </translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Konekto</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Konekti</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Paŭzi</translation>
    </message>
    <message>
        <source>Find pools</source>
        <translation>Trovi provizojn</translation>
    </message>
    <message>
        <source>Redis URL: redis://[user[:password]@]host[:port][/db] or unix:///path/to/redis.sock. A password is shown masked and never saved.</source>
        <translation>Redis-URL: redis://[user[:password]@]host[:port][/db] aŭ unix:///path/to/redis.sock. Pasvorto estas montrata maskita kaj neniam konservata.</translation>
    </message>
    <message>
        <source>pool key</source>
        <translation>ŝlosilo de la provizo</translation>
    </message>
    <message>
        <source>The pool&apos;s sorted-set key. The list offers the sorted sets found on the server (Find pools).</source>
        <translation>La ordigita-ara ŝlosilo de la provizo. La listo proponas la ordigitajn arojn trovitajn sur la servilo (Trovi provizojn).</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>How often the pool is read. Each read is a few short commands; see the status bar for its round-trip time.</source>
        <translation>Kiom ofte la provizo estas legata. Ĉiu legado estas kelkaj mallongaj komandoj; vidu la statobreton por ĝia rondira tempo.</translation>
    </message>
    <message>
        <source>Connect to the Redis server and watch the pool</source>
        <translation>Konektiĝi al la Redis-servilo kaj observi la provizon</translation>
    </message>
    <message>
        <source>Look for sorted-set keys on the server (a bounded SCAN with TYPE zset) and offer them in the key list</source>
        <translation>Serĉi ordigita-arajn ŝlosilojn sur la servilo (limigita SCAN kun TYPE zset) kaj proponi ilin en la ŝlosila listo</translation>
    </message>
    <message>
        <source> Poll every </source>
        <translation> Pridemandi ĉiujn </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Daŭrigi</translation>
    </message>
    <message>
        <source>the pool key is empty: name the pool&apos;s sorted set</source>
        <translation>la ŝlosilo de la provizo estas malplena: nomu la ordigitan aron de la provizo</translation>
    </message>
    <message>
        <source> Password refused: type it into the URL, then Enter </source>
        <translation> Pasvorto rifuzita: tajpu ĝin en la URL, poste Enigu </translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>Malkonekti</translation>
    </message>
    <message>
        <source>Stop watching this server</source>
        <translation>Ĉesi observi ĉi tiun servilon</translation>
    </message>
    <message>
        <source>Look for sorted-set keys on the server (a bounded SCAN with TYPE zset)</source>
        <translation>Serĉi ordigita-arajn ŝlosilojn sur la servilo (limigita SCAN kun TYPE zset)</translation>
    </message>
    <message>
        <source>Disabled: connect first</source>
        <translation>Malŝaltita: unue konektiĝu</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionEditDialog</name>
    <message>
        <source>The server needs a password</source>
        <translation>La servilo bezonas pasvorton</translation>
    </message>
    <message>
        <source>system CAs</source>
        <translation>sistemaj CA-oj</translation>
    </message>
    <message>
        <source>none</source>
        <translation>neniu</translation>
    </message>
    <message>
        <source>in the certificate file</source>
        <translation>en la atestila dosiero</translation>
    </message>
    <message>
        <source>Do not verify the server (insecure)</source>
        <translation>Ne kontroli la servilon (nesekure)</translation>
    </message>
    <message>
        <source>ssh-agent, then ~/.ssh/config</source>
        <translation>ssh-agent, poste ~/.ssh/config</translation>
    </message>
    <message>
        <source>Accept and record an unknown host key</source>
        <translation>Akcepti kaj registri nekonatan gastigantan ŝlosilon</translation>
    </message>
    <message>
        <source>Remember secrets in the keychain</source>
        <translation>Memori sekretojn en la ŝlosilaro</translation>
    </message>
    <message>
        <source>New connection</source>
        <translation>Nova konekto</translation>
    </message>
    <message>
        <source>Edit connection</source>
        <translation>Redakti konekton</translation>
    </message>
    <message>
        <source>redis://, rediss:// (TLS) or unix:// URL, without a password: passwords are never saved in the settings file</source>
        <translation>redis://-, rediss://- (TLS) aŭ unix://-URL, sen pasvorto: pasvortoj neniam estas konservataj en la agorda dosiero</translation>
    </message>
    <message>
        <source>asked when connecting if left empty</source>
        <translation>demandata dum konektiĝo, se lasita malplena</translation>
    </message>
    <message>
        <source>the URL&apos;s host</source>
        <translation>la gastiganto de la URL</translation>
    </message>
    <message>
        <source>Warning: anyone between poolscope and the server can read and change the traffic, password included. The status bar will say &quot;TLS, NOT verified&quot;.</source>
        <translation>Averto: iu ajn inter poolscope kaj la servilo povas legi kaj ŝanĝi la trafikon, inkluzive de la pasvorto. La statobreto diros &quot;TLS, NE kontrolita&quot;.</translation>
    </message>
    <message>
        <source>[user@]bastion[:port] or a Host alias</source>
        <translation>[user@]bastion[:port] aŭ Host-kromnomo</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source>No keychain here (%1): secrets are asked for each time and kept in memory only, until poolscope exits.</source>
        <translation>Neniu ŝlosilaro ĉi tie (%1): sekretoj estas demandataj ĉiufoje kaj tenataj nur en memoro, ĝis poolscope finiĝas.</translation>
    </message>
    <message>
        <source>no Secret Service</source>
        <translation>neniu Secret Service</translation>
    </message>
    <message>
        <source>Unchecked: secrets are kept in memory only, until poolscope exits.</source>
        <translation>Nemarkita: sekretoj estas tenataj nur en memoro, ĝis poolscope finiĝas.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nomo</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Pasvorto</translation>
    </message>
    <message>
        <source>Pool key</source>
        <translation>Ŝlosilo de la provizo</translation>
    </message>
    <message>
        <source>Poll every</source>
        <translation>Pridemandi ĉiujn</translation>
    </message>
    <message>
        <source>TLS (rediss://)</source>
        <translation>TLS (rediss://)</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA-dosiero</translation>
    </message>
    <message>
        <source>Server name</source>
        <translation>Servila nomo</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>Klienta atestilo</translation>
    </message>
    <message>
        <source>Client key</source>
        <translation>Klienta ŝlosilo</translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation>SSH-tunelo</translation>
    </message>
    <message>
        <source>Through</source>
        <translation>Tra</translation>
    </message>
    <message>
        <source>Key file</source>
        <translation>Ŝlosila dosiero</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>Elekti dosieron</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionPrompter</name>
    <message>
        <source>&amp;Trust this key</source>
        <translation>&amp;Fidi ĉi tiun ŝlosilon</translation>
    </message>
    <message>
        <source>Password for the Redis server %1:</source>
        <translation>Pasvorto por la Redis-servilo %1:</translation>
    </message>
    <message>
        <source>Passphrase of the TLS client key %1:</source>
        <translation>Pasfrazo de la TLS-klienta ŝlosilo %1:</translation>
    </message>
    <message>
        <source>Passphrase of the SSH key %1:</source>
        <translation>Pasfrazo de la SSH-ŝlosilo %1:</translation>
    </message>
    <message>
        <source>SSH password for %1:</source>
        <translation>SSH-pasvorto por %1:</translation>
    </message>
    <message>
        <source>The SSH host %1 is not in ~/.ssh/known_hosts.

Key type: %2
Fingerprint: %3

Trust this key only if the fingerprint is the host&apos;s (ask its administrator, or run ssh-keygen -lf on its host key). Trusting records it in ~/.ssh/known_hosts.</source>
        <translation>La SSH-gastiganto %1 ne estas en ~/.ssh/known_hosts.

Ŝlosila tipo: %2
Fingrospuro: %3

Fidu ĉi tiun ŝlosilon nur se la fingrospuro estas tiu de la gastiganto (demandu ĝian administranton, aŭ rulu ssh-keygen -lf sur ĝia gastiganta ŝlosilo). Fidi registras ĝin en ~/.ssh/known_hosts.</translation>
    </message>
    <message>
        <source>poolscope: %1</source>
        <translation>poolscope: %1</translation>
    </message>
    <message>
        <source>poolscope: unknown SSH host key</source>
        <translation>poolscope: nekonata SSH-gastiganta ŝlosilo</translation>
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
        <translation>Nova...</translation>
    </message>
    <message>
        <source>Edit...</source>
        <translation>Redakti...</translation>
    </message>
    <message>
        <source>Duplicate...</source>
        <translation>Duobligi...</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Forviŝi</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Konekti</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>Konektoj</translation>
    </message>
    <message>
        <source>Delete connection</source>
        <translation>Forviŝi konekton</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Konekto</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Medio</translation>
    </message>
    <message>
        <source>Secrets of connections that remember them are kept in the keychain, the others in memory only, until poolscope exits. None is ever written to the settings file.</source>
        <translation>Sekretoj de konektoj, kiuj memoras ilin, estas tenataj en la ŝlosilaro, la aliaj nur en memoro, ĝis poolscope finiĝas. Neniu iam estas skribita en la agordan dosieron.</translation>
    </message>
    <message>
        <source>No keychain here (%1): passwords and passphrases are asked for each time and kept in memory only, until poolscope exits.</source>
        <translation>Neniu ŝlosilaro ĉi tie (%1): pasvortoj kaj pasfrazoj estas demandataj ĉiufoje kaj tenataj nur en memoro, ĝis poolscope finiĝas.</translation>
    </message>
    <message>
        <source>Looking for a keychain...</source>
        <translation>Serĉante ŝlosilaron...</translation>
    </message>
    <message numerus="yes">
        <source>Group %1: %n connection(s)</source>
        <translation>
            <numerusform>Grupo %1: %n konekto</numerusform>
            <numerusform>Grupo %1: %n konektoj</numerusform>
        </translation>
    </message>
    <message>
        <source>No saved connections yet: New... saves one.</source>
        <translation>Ankoraŭ neniuj konservitaj konektoj: Nova... konservas unu.</translation>
    </message>
    <message>
        <source>Transport: %1%2</source>
        <translation>Transporto: %1%2</translation>
    </message>
    <message>
        <source>, via ssh %1</source>
        <translation>, per ssh %1</translation>
    </message>
    <message>
        <source>Pool key: %1</source>
        <translation>Ŝlosilo de la provizo: %1</translation>
    </message>
    <message>
        <source>Poll every %1 ms</source>
        <translation>Pridemandi ĉiujn %1 ms</translation>
    </message>
    <message>
        <source>Group: %1</source>
        <translation>Grupo: %1</translation>
    </message>
    <message>
        <source>Environment: &lt;b&gt;&lt;font color=&quot;%1&quot;&gt;%2&lt;/font&gt;&lt;/b&gt;</source>
        <translation>Medio: &lt;b&gt;&lt;font color=&quot;%1&quot;&gt;%2&lt;/font&gt;&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Opens with writes locked until unlocked for the session</source>
        <translation>Malfermiĝas kun ŝlosita skribado ĝis malŝlosita por la seanco</translation>
    </message>
    <message>
        <source>Password: from the keychain</source>
        <translation>Pasvorto: el la ŝlosilaro</translation>
    </message>
    <message>
        <source>Password: asked when connecting</source>
        <translation>Pasvorto: demandata dum konektiĝo</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1 (kopio)</translation>
    </message>
    <message>
        <source>%1 (copy %2)</source>
        <translation>%1 (kopio %2)</translation>
    </message>
    <message>
        <source>Delete the saved connection &quot;%1&quot; and its secrets in the keychain?</source>
        <translation>Ĉu forviŝi la konservitan konekton &quot;%1&quot; kaj ĝiajn sekretojn en la ŝlosilaro?</translation>
    </message>
</context>
<context>
    <name>poolscope::DemoDriver</name>
    <message>
        <source>the demo list is missing from the resources</source>
        <translation>la demonstra listo mankas en la rimedoj</translation>
    </message>
    <message>
        <source>the demo list has no usable entry</source>
        <translation>la demonstra listo havas neniun uzeblan eron</translation>
    </message>
    <message>
        <source>empty pool: seeding %L1 demo proxies (documentation address ranges)</source>
        <translation>malplena provizo: semante %L1 demonstrajn prokurilojn (dokumentaj adresintervaloj)</translation>
    </message>
    <message>
        <source>background load: %L1 workers, about %L2 allocations/s</source>
        <translation>fona ŝarĝo: %L1 laborantoj, ĉirkaŭ %L2 asignoj/s</translation>
    </message>
    <message>
        <source>background load ended with %L1 errors, %L2 unknown</source>
        <translation>fona ŝarĝo finiĝis kun %L1 eraroj, %L2 nekonataj</translation>
    </message>
</context>
<context>
    <name>poolscope::DesktopNotifier</name>
    <message>
        <source>Resolved: %1 (%2)</source>
        <translation>Solvita: %1 (%2)</translation>
    </message>
    <message>
        <source>Firing since %1, clear now: %2</source>
        <translation>Ekde %1, nun finita: %2</translation>
    </message>
    <message>
        <source>Critical: %1 (%2)</source>
        <translation>Kritika: %1 (%2)</translation>
    </message>
    <message>
        <source>Warning: %1 (%2)</source>
        <translation>Averto: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>poolscope::EnvironmentBanner</name>
    <message>
        <source>&amp;Unlock writes for this session</source>
        <translation>&amp;Malŝlosi skribadon por ĉi tiu seanco</translation>
    </message>
    <message>
        <source>Production connections open with writes locked; this unlocks them until another connection is chosen</source>
        <translation>Produktadaj konektoj malfermiĝas kun ŝlosita skribado; ĉi tio malŝlosas ĝin ĝis alia konekto estas elektita</translation>
    </message>
    <message>
        <source>%1 connection</source>
        <translation>%1-konekto</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: writes are locked. This pool is watched only; unlock writes to seed, evict, restore or allocate.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: skribado estas ŝlosita. Ĉi tiu provizo estas nur observata; malŝlosu skribadon por semi, forigi, restarigi aŭ asigni.</translation>
    </message>
    <message>
        <source>&amp;Unlock writes</source>
        <translation>&amp;Malŝlosi skribadon</translation>
    </message>
    <message>
        <source>%1 · writes locked</source>
        <translation>%1 · skribado ŝlosita</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: writes are unlocked for this session. Several evictions, restores at zero and the count-reset demo still ask for the pool&apos;s name.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: skribado estas malŝlosita por ĉi tiu seanco. Pluraj forigoj, restarigoj je nulo kaj la demo de nombro-rekomencigo ankoraŭ petas la nomon de la provizo.</translation>
    </message>
    <message>
        <source>&amp;Lock writes</source>
        <translation>Ŝ&amp;losi skribadon</translation>
    </message>
    <message>
        <source>%1 · writes unlocked for this session</source>
        <translation>%1 · skribado malŝlosita por ĉi tiu seanco</translation>
    </message>
</context>
<context>
    <name>poolscope::EventsPanel</name>
    <message>
        <source>connection</source>
        <translation>konekto</translation>
    </message>
    <message>
        <source>demo</source>
        <translation>demo</translation>
    </message>
    <message>
        <source>evict</source>
        <extracomment>Evict: taking members out of rotation, their counts kept.</extracomment>
        <translation>forigo</translation>
    </message>
    <message>
        <source>export</source>
        <translation>eksporto</translation>
    </message>
    <message>
        <source>guard</source>
        <translation>gardisto</translation>
    </message>
    <message>
        <source>health</source>
        <translation>sano</translation>
    </message>
    <message>
        <source>load</source>
        <translation>ŝarĝo</translation>
    </message>
    <message>
        <source>poll</source>
        <translation>pridemando</translation>
    </message>
    <message>
        <source>pool</source>
        <extracomment>The proxy pool (the sorted set the dashboard watches).</extracomment>
        <translation>provizo</translation>
    </message>
    <message>
        <source>recording</source>
        <translation>registraĵo</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>restarigo</translation>
    </message>
    <message>
        <source>scan</source>
        <translation>skanado</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>scenaro</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>semado</translation>
    </message>
    <message>
        <source>server</source>
        <translation>servilo</translation>
    </message>
    <message>
        <source>Operations and errors, newest first</source>
        <translation>Operacioj kaj eraroj, plej novaj unue</translation>
    </message>
</context>
<context>
    <name>poolscope::FairnessPanel</name>
    <message>
        <source>– (summary mode: counted from the next polls)</source>
        <translation>– (resuma reĝimo: nombrata el la venontaj pridemandoj)</translation>
    </message>
    <message>
        <source>%1 /s (the recording&apos;s last %2)</source>
        <translation>%1 /s (la lastaj %2 de la registraĵo)</translation>
    </message>
    <message>
        <source>– (not in the recording)</source>
        <translation>– (ne en la registraĵo)</translation>
    </message>
    <message>
        <source>Stale: no good poll since %1. These figures are from then.</source>
        <translation>Malfreŝa: neniu sukcesa pridemando ekde %1. Ĉi tiuj ciferoj estas de tiam.</translation>
    </message>
    <message>
        <source>%1 (+%2 evicted)</source>
        <translation>%1 (+%2 forigitaj)</translation>
    </message>
    <message>
        <source>%1 (%2 with the %3 evicted)</source>
        <translation>%1 (%2 kun la %3 forigitaj)</translation>
    </message>
    <message>
        <source>Busiest (last %1)</source>
        <translation>Plej okupata (lastaj %1)</translation>
    </message>
    <message>
        <source>– (no allocations)</source>
        <translation>– (neniuj asignoj)</translation>
    </message>
    <message>
        <source>%1 /s</source>
        <translation>%1 /s</translation>
    </message>
    <message>
        <source>full snapshot</source>
        <translation>plena momentfoto</translation>
    </message>
    <message>
        <source>summary: %1 members &gt; %2 (quantiles, top/bottom, pinned and the rows on screen are read)</source>
        <translation>resumo: %1 membroj &gt; %2 (kvantiloj, supro/malsupro, alpinglitaj kaj la vicoj sur ekrano estas legataj)</translation>
    </message>
    <message>
        <source>pending: first totals scan %1 %</source>
        <translation>atendanta: unua skanado de sumoj %1 %</translation>
    </message>
    <message>
        <source>Jain&apos;s index needs every member&apos;s count: a low-rate background scan reads the whole pool in small pages and the index appears when its first pass completes</source>
        <translation>La indico de Jain bezonas la nombron de ĉiu membro: malrapida fona skanado legas la tutan provizon en malgrandaj paĝoj, kaj la indico aperas kiam ĝia unua trairo finiĝas</translation>
    </message>
    <message>
        <source>highest count: %1 (%2)</source>
        <translation>plej alta nombro: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>poolscope::GuardPanel</name>
    <message>
        <source>round failed: %1; trying again next round</source>
        <translation>rondo malsukcesis: %1; reprovo en la venonta rondo</translation>
    </message>
    <message>
        <source>Start guard</source>
        <translation>Lanĉi gardiston</translation>
    </message>
    <message>
        <source>http://host/path fetched through each proxy</source>
        <translation>http://host/path ŝargata tra ĉiu prokurilo</translation>
    </message>
    <message>
        <source>Consecutive failed checks before a member is evicted</source>
        <translation>Sinsekvaj malsukcesaj kontroloj antaŭ ol membro estas forigita</translation>
    </message>
    <message>
        <source>Consecutive good checks before an evicted member comes back</source>
        <translation>Sinsekvaj sukcesaj kontroloj antaŭ ol forigita membro revenas</translation>
    </message>
    <message>
        <source>The evicted share never goes above this: when more fail at once, the target or the network looks down</source>
        <translation>La forigita parto neniam superas ĉi tion: kiam pli multaj malsukcesas samtempe, la celo aŭ la reto ŝajnas malfunkcia</translation>
    </message>
    <message>
        <source>min (no flood)</source>
        <translation>min (neniu inundo)</translation>
    </message>
    <message>
        <source>keep (saved count)</source>
        <translation>keep (konservita nombro)</translation>
    </message>
    <message>
        <source>start</source>
        <translation>start</translation>
    </message>
    <message>
        <source>The count a restored member comes back with</source>
        <translation>La asigna nombro, kun kiu restarigita membro revenas</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Celo</translation>
    </message>
    <message>
        <source>Fall</source>
        <translation>Falo</translation>
    </message>
    <message>
        <source>Rise</source>
        <translation>Leviĝo</translation>
    </message>
    <message>
        <source>Max evicted</source>
        <translation>Maks. forigitaj</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Restarigo</translation>
    </message>
    <message>
        <source>Interval</source>
        <translation>Intervalo</translation>
    </message>
    <message>
        <source>Guard off</source>
        <translation>Gardisto malŝaltita</translation>
    </message>
    <message>
        <source>No round yet</source>
        <translation>Ankoraŭ neniu rondo</translation>
    </message>
    <message>
        <source>Guard on, holding the lease as %1</source>
        <translation>Gardisto ŝaltita, tenante la luon kiel %1</translation>
    </message>
    <message>
        <source>Guard stopped: the dashboard watches another pool now</source>
        <translation>Gardisto haltis: la stirpanelo nun observas alian provizon</translation>
    </message>
    <message>
        <source>Stop guard</source>
        <translation>Haltigi gardiston</translation>
    </message>
    <message>
        <source>Guard not started: target URL: %1</source>
        <translation>Gardisto ne lanĉita: cela URL: %1</translation>
    </message>
    <message>
        <source>Taking the lease on %1…</source>
        <translation>Prenante la luon de %1…</translation>
    </message>
    <message>
        <source>another guard (%1) holds the lease: waiting</source>
        <translation>alia gardisto (%1) tenas la luon: atendante</translation>
    </message>
    <message>
        <source>%1 checked in %2 ms: %3 up, %4 down; %5 action(s); %6 of %7 evicted</source>
        <translation>%1 kontrolitaj en %2 ms: %3 funkciaj, %4 malfunkciaj; %5 ago(j); %6 el %7 forigitaj</translation>
    </message>
    <message>
        <source>Last round (%1): %2</source>
        <translation>Lasta rondo (%1): %2</translation>
    </message>
    <message>
        <source>Guard off (lease released)</source>
        <translation>Gardisto malŝaltita (luo liberigita)</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
</context>
<context>
    <name>poolscope::MainWindow</name>
    <message>
        <source>Open recording</source>
        <translation>Malfermi registraĵon</translation>
    </message>
    <message>
        <source>poolscope · %1 · %2 · %3</source>
        <translation>poolscope · %1 · %2 · %3</translation>
    </message>
    <message>
        <source>Pool</source>
        <extracomment>Pool: the proxy pool (the sorted set the dashboard watches), a panel&apos;s title.</extracomment>
        <translation>Provizo</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Eventoj</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>Membroj</translation>
    </message>
    <message>
        <source>Pools</source>
        <translation>Provizoj</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>Gardisto</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>Alarmoj</translation>
    </message>
    <message>
        <source>the server refused the password</source>
        <translation>la servilo rifuzis la pasvorton</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Dosiero</translation>
    </message>
    <message>
        <source>Connections...</source>
        <translation>Konektoj...</translation>
    </message>
    <message>
        <source>Saved connections: URL, TLS and SSH settings, pool key and poll interval; secrets in the keychain</source>
        <translation>Konservitaj konektoj: URL, agordoj de TLS kaj SSH, ŝlosilo de la provizo kaj pridemanda intervalo; sekretoj en la ŝlosilaro</translation>
    </message>
    <message>
        <source>Open recording…</source>
        <translation>Malfermi registraĵon…</translation>
    </message>
    <message>
        <source>poolscope recordings (*.sqlite *.db *.poolscope)</source>
        <translation>poolscope-registraĵoj (*.sqlite *.db *.poolscope)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Ĉiuj dosieroj (*)</translation>
    </message>
    <message>
        <source>Open a recording without any Redis connection, read only: its history, markers and last poll</source>
        <translation>Malfermi registraĵon sen ajna Redis-konekto, nurlege: ĝia historio, markiloj kaj lasta pridemando</translation>
    </message>
    <message>
        <source>Record while watching</source>
        <translation>Registri dum observado</translation>
    </message>
    <message>
        <source>Keep the watched pool&apos;s history in its recording (one file per server and pool in the data directory), so it is there the next time the pool is opened</source>
        <translation>Teni la historion de la observata provizo en ĝia registraĵo (unu dosiero po servilo kaj provizo en la datuma dosierujo), por ke ĝi estu tie la venontan fojon kiam la provizo estos malfermita</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Eliri</translation>
    </message>
    <message>
        <source>&amp;Pool</source>
        <extracomment>Pool: the proxy pool (the sorted set the dashboard watches), a menu.</extracomment>
        <translation>&amp;Provizo</translation>
    </message>
    <message>
        <source>Alert &amp;rules…</source>
        <translation>Alarmaj &amp;reguloj…</translation>
    </message>
    <message>
        <source>Audit &amp;trail…</source>
        <translation>Kontrol&amp;spuro…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Vido</translation>
    </message>
    <message>
        <source>&amp;Overview of every pool…</source>
        <translation>&amp;Superrigardo de ĉiu provizo…</translation>
    </message>
    <message>
        <source>Every pool of every saved connection in one table</source>
        <translation>Ĉiu provizo de ĉiu konservita konekto en unu tabelo</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Helpo</translation>
    </message>
    <message>
        <source>About poolscope</source>
        <translation>Pri poolscope</translation>
    </message>
    <message>
        <source>&lt;b&gt;poolscope %1&lt;/b&gt;&lt;p&gt;Live dashboard for Redis least-used proxy pools: a sorted set whose scores count allocations, served by allocate.lua.&lt;/p&gt;</source>
        <translation>&lt;b&gt;poolscope %1&lt;/b&gt;&lt;p&gt;Viva stirpanelo por Redis-provizoj de malplej uzataj prokuriloj: ordigita aro, kies poentaroj nombras asignojn, servata de allocate.lua.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>Agoj</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Eksporti</translation>
    </message>
    <message>
        <source>Export the chart, the history or the table</source>
        <translation>Eksporti la diagramon, la historion aŭ la tabelon</translation>
    </message>
    <message>
        <source>poolscope · recording %1 · %2 (read only)</source>
        <translation>poolscope · registraĵo %1 · %2 (nurlega)</translation>
    </message>
    <message>
        <source>reading the recording %1…</source>
        <translation>legante la registraĵon %1…</translation>
    </message>
    <message>
        <source>cannot open the recording: %1</source>
        <translation>ne eblas malfermi la registraĵon: %1</translation>
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
        <translation>Ne konektita al %1: &quot;%2&quot; estis laste legita je %3.
Konekti provas denove.</translation>
    </message>
    <message>
        <source>Not connected: %1
&quot;%2&quot; was last read at %3. Connect tries again.</source>
        <translation>Ne konektita: %1
&quot;%2&quot; estis laste legita je %3. Konekti provas denove.</translation>
    </message>
    <message>
        <source>Filter members… (Ctrl+F)</source>
        <translation>Filtri membrojn… (Ctrl+F)</translation>
    </message>
    <message>
        <source>Show only members whose id contains this text</source>
        <translation>Montri nur membrojn, kies identigilo enhavas ĉi tiun tekston</translation>
    </message>
    <message>
        <source>Rows keep their places while the pointer is over the table or rows are selected, so the row you aim at stays the row you click. Counts still update. Re-sort now, or move the pointer away and clear the selection.</source>
        <translation>Vicoj tenas siajn lokojn dum la montrilo estas super la tabelo aŭ vicoj estas elektitaj, por ke la vico, kiun vi celas, restu la vico, kiun vi klakas. Nombroj ankoraŭ ĝisdatiĝas. Reordigu nun, aŭ forigu la montrilon kaj malplenigu la elekton.</translation>
    </message>
    <message>
        <source>Any health</source>
        <translation>Ajna sano</translation>
    </message>
    <message>
        <source>Health: %1</source>
        <translation>Sano: %1</translation>
    </message>
    <message>
        <source>Show only members in this health state</source>
        <translation>Montri nur membrojn en ĉi tiu sanstato</translation>
    </message>
    <message>
        <source> · &lt;a href=&quot;resort&quot;&gt;re-sort now&lt;/a&gt;</source>
        <translation type="vanished"> · &lt;a href=&quot;resort&quot;&gt;reordigi nun&lt;/a&gt;</translation>
    </message>
    <message>
        <source>‖ order held: rows selected</source>
        <translation>‖ ordo tenata: vicoj elektitaj</translation>
    </message>
    <message>
        <source>‖ order held: pointer over the table</source>
        <translation>‖ ordo tenata: montrilo super la tabelo</translation>
    </message>
    <message>
        <source>Find a member or the start of its id… (Ctrl+F, searched on the server)</source>
        <translation>Trovi membron aŭ la komencon de ĝia identigilo… (Ctrl+F, serĉata sur la servilo)</translation>
    </message>
    <message>
        <source>This pool is read in summary mode: only the rows on screen are read, and rows stay in rank order (count ascending: the next to be allocated first). Type a member&apos;s id or its start (case-sensitive): the server looks the member up by name and scans for ids starting with the text in the background, a few small pages at a time; the members found become the table&apos;s rows, to pin or evict. Clear the field to go back to the rows by rank.</source>
        <translation>Ĉi tiu provizo estas legata en resuma reĝimo: nur la vicoj sur ekrano estas legataj, kaj vicoj restas en rangordo (nombro kreskanta: la venonta asignota unue). Tajpu identigilon de membro aŭ ĝian komencon (usklecodistinge): la servilo serĉas la membron laŭ nomo kaj fone skanas por identigiloj komenciĝantaj per la teksto, po kelkaj malgrandaj paĝoj; la trovitaj membroj fariĝas la vicoj de la tabelo, por alpingli aŭ forigi. Malplenigu la kampon por reveni al la vicoj laŭ rango.</translation>
    </message>
    <message>
        <source>Stale: no good poll since %1. Counts, rates and &quot;last change&quot; are from then.</source>
        <translation>Malfreŝa: neniu sukcesa pridemando ekde %1. Nombroj, rapidoj kaj &quot;lasta ŝanĝo&quot; estas de tiam.</translation>
    </message>
    <message>
        <source>Searching the pool for &quot;%1&quot;…</source>
        <translation>Serĉante &quot;%1&quot; en la provizo…</translation>
    </message>
    <message>
        <source>The search for &quot;%1&quot; failed: %2</source>
        <translation>La serĉo de &quot;%1&quot; malsukcesis: %2</translation>
    </message>
    <message>
        <source>Searching the pool for &quot;%1&quot;… (%2 pages read)</source>
        <translation>Serĉante &quot;%1&quot; en la provizo… (%2 paĝoj legitaj)</translation>
    </message>
    <message>
        <source>No member is or starts with &quot;%1&quot; (the whole pool was searched; ids are case-sensitive).</source>
        <translation>Neniu membro estas aŭ komenciĝas per &quot;%1&quot; (la tuta provizo estis traserĉita; identigiloj estas usklecodistingaj).</translation>
    </message>
    <message>
        <source>No member is %1 (health filter).</source>
        <translation>Neniu membro estas %1 (sana filtrilo).</translation>
    </message>
    <message>
        <source>No member matches &quot;%1&quot; and is %2 (health filter).</source>
        <translation>Neniu membro kongruas kun &quot;%1&quot; kaj estas %2 (sana filtrilo).</translation>
    </message>
    <message>
        <source>No member matches &quot;%1&quot;.</source>
        <translation>Neniu membro kongruas kun &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>Not connected. Enter a Redis URL and a pool key above, then Connect.</source>
        <translation>Ne konektita. Enigu Redis-URL kaj ŝlosilon de provizo supre, poste Konekti.</translation>
    </message>
    <message>
        <source>Cannot reach %1: retrying. The events panel says why.</source>
        <translation>Ne eblas atingi %1: reprovante. La eventa panelo diras kial.</translation>
    </message>
    <message>
        <source>Not connected: %1
Connect tries again.</source>
        <translation>Ne konektita: %1
Konekti provas denove.</translation>
    </message>
    <message>
        <source>Connected, but reading &quot;%1&quot; fails: %2</source>
        <translation>Konektita, sed legi &quot;%1&quot; malsukcesas: %2</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Konektiĝante al %1…</translation>
    </message>
    <message>
        <source>No pool at &quot;%1&quot; yet. (Read-only: another process has to seed it.)</source>
        <translation>Ankoraŭ neniu provizo ĉe &quot;%1&quot;. (Nurlega: alia procezo devas semi ĝin.)</translation>
    </message>
    <message>
        <source>No pool at &quot;%1&quot; yet: Seed… (Ctrl+N) to add proxies.</source>
        <translation>Ankoraŭ neniu provizo ĉe &quot;%1&quot;: Semi… (Ctrl+N) por aldoni prokurilojn.</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>serĉante…</translation>
    </message>
    <message>
        <source>first %1 found: type more to narrow</source>
        <translation>unuaj %1 trovitaj: tajpu pli por malvastigi</translation>
    </message>
    <message>
        <source>whole pool searched</source>
        <translation>tuta provizo traserĉita</translation>
    </message>
    <message numerus="yes">
        <source>searching… %Ln page(s)</source>
        <translation>
            <numerusform>serĉante… %Ln paĝo</numerusform>
            <numerusform>serĉante… %Ln paĝoj</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 found for &quot;%2&quot; · %3</source>
        <translation>%1 trovitaj por &quot;%2&quot; · %3</translation>
    </message>
    <message>
        <source>%1 in pool, by rank (summary mode) · %2 evicted</source>
        <translation>%1 en la provizo, laŭ rango (resuma reĝimo) · %2 forigitaj</translation>
    </message>
    <message>
        <source>%1 shown · %2 in pool · %3 evicted</source>
        <translation>%1 montritaj · %2 en la provizo · %3 forigitaj</translation>
    </message>
    <message>
        <source>%1 · &lt;a href=&quot;resort&quot;&gt;re-sort now&lt;/a&gt;</source>
        <comment>%1: why the rows&apos; order is held</comment>
        <translation>%1 · &lt;a href=&quot;resort&quot;&gt;reordigi nun&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>poolscope::OverviewWindow</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Refreŝigi</translation>
    </message>
    <message>
        <source>Overview of every pool – poolscope</source>
        <translation>Superrigardo de ĉiu provizo – poolscope</translation>
    </message>
    <message>
        <source>&amp;Connections:</source>
        <translation>&amp;Konektoj:</translation>
    </message>
    <message>
        <source>Filter rows: connection, pool, status…</source>
        <translation>Filtri vicojn: konekto, provizo, stato…</translation>
    </message>
    <message>
        <source>Shows only the rows with this text in any column (Ctrl+F)</source>
        <translation>Montras nur la vicojn kun ĉi tiu teksto en iu ajn kolumno (Ctrl+F)</translation>
    </message>
    <message>
        <source>Reads every server now (F5)</source>
        <translation>Legas ĉiun servilon nun (F5)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Eksporti</translation>
    </message>
    <message>
        <source>Rows shown as CSV…</source>
        <translation>Montritaj vicoj kiel CSV…</translation>
    </message>
    <message>
        <source>Rows shown as JSON…</source>
        <translation>Montritaj vicoj kiel JSON…</translation>
    </message>
    <message>
        <source>Every pool of the chosen connections. Enter or a double click opens the pool in the main window.</source>
        <translation>Ĉiu provizo de la elektitaj konektoj. Enigo aŭ duobla klako malfermas la provizon en la ĉefa fenestro.</translation>
    </message>
    <message>
        <source>Every saved connection</source>
        <translation>Ĉiu konservita konekto</translation>
    </message>
    <message>
        <source>Group %1</source>
        <translation>Grupo %1</translation>
    </message>
    <message>
        <source>needs a password: connect to it once (File ▸ Connections…) and the overview reads it too</source>
        <translation>bezonas pasvorton: konektiĝu al ĝi unufoje (Dosiero ▸ Konektoj…) kaj la superrigardo ankaŭ legas ĝin</translation>
    </message>
    <message>
        <source>No saved connections yet.

Add one with File ▸ Connections… (Ctrl+Shift+O): New, then the server&apos;s URL and the pool key. Scripts can add them with “poolscope-cli profile add NAME --url URL”. The overview then lists every pool of every saved connection.</source>
        <translation>Ankoraŭ neniuj konservitaj konektoj.

Aldonu unu per Dosiero ▸ Konektoj… (Ctrl+Shift+O): Nova, poste la URL de la servilo kaj la ŝlosilo de la provizo. Skriptoj povas aldoni ilin per “poolscope-cli profile add NAME --url URL”. La superrigardo tiam listigas ĉiun provizon de ĉiu konservita konekto.</translation>
    </message>
    <message>
        <source>No saved connection is in this group.</source>
        <translation>Neniu konservita konekto estas en ĉi tiu grupo.</translation>
    </message>
    <message>
        <source>%1 of %2 rows shown · %3 connections, each server read every %4 s</source>
        <translation>%1 el %2 vicoj montritaj · %3 konektoj, ĉiu servilo legata ĉiujn %4 s</translation>
    </message>
    <message>
        <source>%1: %2 · last good poll: %3</source>
        <translation>%1: %2 · lasta sukcesa pridemando: %3</translation>
    </message>
    <message>
        <source>%1 rows written to %2</source>
        <translation>%1 vicoj skribitaj al %2</translation>
    </message>
    <message>
        <source>could not write %1: %2</source>
        <translation>ne eblis skribi %1: %2</translation>
    </message>
    <message>
        <source>Export the overview as CSV</source>
        <translation>Eksporti la superrigardon kiel CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-dosieroj (*.csv)</translation>
    </message>
    <message>
        <source>Export the overview as JSON</source>
        <translation>Eksporti la superrigardon kiel JSON</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON-dosieroj (*.json)</translation>
    </message>
    <message>
        <source>reading its password from the keychain…</source>
        <translation>legante ĝian pasvorton el la ŝlosilaro…</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolActions</name>
    <message>
        <source>Refresh</source>
        <translation>Refreŝigi</translation>
    </message>
    <message>
        <source>Poll the pool now (F5)</source>
        <translation>Pridemandi la provizon nun (F5)</translation>
    </message>
    <message>
        <source>Seed…</source>
        <translation>Semi…</translation>
    </message>
    <message>
        <source>Import a proxy list into the pool (Ctrl+N)</source>
        <translation>Importi prokurilan liston en la provizon (Ctrl+N)</translation>
    </message>
    <message>
        <source>Evict</source>
        <extracomment>Evict: take the member out of rotation, keeping its allocation count.</extracomment>
        <translation>Forigi</translation>
    </message>
    <message>
        <source>Take the selected members out of the pool, keeping their counts (Delete)</source>
        <translation>Elpreni la elektitajn membrojn el la provizo, konservante iliajn nombrojn (Delete)</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>Restarigi…</translation>
    </message>
    <message>
        <source>Bring the selected evicted members back, choosing their count (Ctrl+R)</source>
        <translation>Revenigi la elektitajn forigitajn membrojn, elektante ilian nombron (Ctrl+R)</translation>
    </message>
    <message>
        <source>Test allocations…</source>
        <translation>Testaj asignoj…</translation>
    </message>
    <message>
        <source>Run allocations through allocate.lua (Ctrl+T)</source>
        <translation>Ruli asignojn per allocate.lua (Ctrl+T)</translation>
    </message>
    <message>
        <source>Demo: count reset…</source>
        <translation>Demo: nombro-rekomencigo…</translation>
    </message>
    <message>
        <source>Run the count-reset scenario on its own pool: evict a member, restore it, and compare the flood with the forecast</source>
        <translation>Ruli la scenaron de nombro-rekomencigo sur ĝia propra provizo: forigi membron, restarigi ĝin, kaj kompari la inundon kun la prognozo</translation>
    </message>
    <message>
        <source>Pin to chart</source>
        <translation>Alpingli al diagramo</translation>
    </message>
    <message>
        <source>Always chart the selected members, however big the pool (Ctrl+P); again to unpin</source>
        <translation>Ĉiam montri la elektitajn membrojn en la diagramo, kiom ajn granda estas la provizo (Ctrl+P); denove por malalpingli</translation>
    </message>
    <message>
        <source>Find member</source>
        <translation>Trovi membron</translation>
    </message>
    <message>
        <source>Filter the members table (Ctrl+F)</source>
        <translation>Filtri la membran tabelon (Ctrl+F)</translation>
    </message>
    <message>
        <source>Export chart as PNG…</source>
        <translation>Eksporti diagramon kiel PNG…</translation>
    </message>
    <message>
        <source>Save the chart as an image</source>
        <translation>Konservi la diagramon kiel bildon</translation>
    </message>
    <message>
        <source>Export history as CSV…</source>
        <translation>Eksporti historion kiel CSV…</translation>
    </message>
    <message>
        <source>Save every member&apos;s count over time: time, member, count</source>
        <translation>Konservi la nombron de ĉiu membro tra la tempo: tempo, membro, nombro</translation>
    </message>
    <message>
        <source>Export table as CSV…</source>
        <translation>Eksporti tabelon kiel CSV…</translation>
    </message>
    <message>
        <source>Save the members table as shown (sorted and filtered)</source>
        <translation>Konservi la membran tabelon kiel montrite (ordigitan kaj filtritan)</translation>
    </message>
    <message>
        <source>Back to previous pool</source>
        <translation>Reen al antaŭa provizo</translation>
    </message>
    <message>
        <source>Watch the pool watched before this one again (Alt+Left)</source>
        <translation>Denove observi la provizon observitan antaŭ ĉi tiu (Alt+Left)</translation>
    </message>
    <message>
        <source>Check selected</source>
        <translation>Kontroli elektitajn</translation>
    </message>
    <message>
        <source>Check the selected members through their proxies against the health target; results into the health hash (Ctrl+K)</source>
        <translation>Kontroli la elektitajn membrojn tra iliaj prokuriloj kontraŭ la sankontrola celo; rezultoj en la sanan haketon (Ctrl+K)</translation>
    </message>
    <message>
        <source>Health check target</source>
        <translation>Celo de la sankontrolo</translation>
    </message>
    <message>
        <source>URL fetched through each proxy (http:// or https://):</source>
        <translation>URL elŝutata tra ĉiu prokurilo (http:// aŭ https://):</translation>
    </message>
    <message>
        <source>Show credentials</source>
        <translation>Montri akreditaĵojn</translation>
    </message>
    <message>
        <source>Show proxy passwords in member ids (user:pass@host) in the table, chart, events and dialogs; off: user:****@host</source>
        <translation>Montri prokurilajn pasvortojn en membraj identigiloj (user:pass@host) en la tabelo, diagramo, eventoj kaj dialogoj; malŝaltite: user:****@host</translation>
    </message>
    <message>
        <source>Include credentials in CSV exports</source>
        <translation>Inkluzivi akreditaĵojn en CSV-eksportoj</translation>
    </message>
    <message>
        <source>Write proxy passwords into exported CSV files; off: user:****@host</source>
        <translation>Skribi prokurilajn pasvortojn en eksportitajn CSV-dosierojn; malŝaltite: user:****@host</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Eksporti diagramon</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-bildoj (*.png)</translation>
    </message>
    <message>
        <source>Export history</source>
        <translation>Eksporti historion</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-dosieroj (*.csv)</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>Eksporti tabelon</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>Malŝaltita: %1</translation>
    </message>
    <message>
        <source>Check selected: %1</source>
        <translation>Kontroli elektitajn: %1</translation>
    </message>
    <message>
        <source>Check selected refused: %1</source>
        <translation>Kontrolo de la elektitaj rifuzita: %1</translation>
    </message>
    <message>
        <source>select members to check first</source>
        <translation>unue elektu membrojn por kontroli</translation>
    </message>
    <message>
        <source>select one or more members in the pool first</source>
        <translation>unue elektu unu aŭ plurajn membrojn en la provizo</translation>
    </message>
    <message>
        <source>Evict %1 (Delete)</source>
        <translation>Forigi %1 (Delete)</translation>
    </message>
    <message numerus="yes">
        <source>Evict the %n selected member(s) (Delete)</source>
        <translation>
            <numerusform>Forigi la %n elektitan membron (Delete)</numerusform>
            <numerusform>Forigi la %n elektitajn membrojn (Delete)</numerusform>
        </translation>
    </message>
    <message>
        <source>select one or more evicted (grey) members first</source>
        <translation>unue elektu unu aŭ plurajn forigitajn (grizajn) membrojn</translation>
    </message>
    <message>
        <source>Restore %1 (Ctrl+R)</source>
        <translation>Restarigi %1 (Ctrl+R)</translation>
    </message>
    <message numerus="yes">
        <source>Restore the %n selected member(s) (Ctrl+R)</source>
        <translation>
            <numerusform>Restarigi la %n elektitan membron (Ctrl+R)</numerusform>
            <numerusform>Restarigi la %n elektitajn membrojn (Ctrl+R)</numerusform>
        </translation>
    </message>
    <message>
        <source>Disabled: not connected</source>
        <translation>Malŝaltita: ne konektita</translation>
    </message>
    <message>
        <source>Unpin from chart</source>
        <translation>Malalpingli de la diagramo</translation>
    </message>
    <message>
        <source>Disabled: select members in the table first</source>
        <translation>Malŝaltita: unue elektu membrojn en la tabelo</translation>
    </message>
    <message>
        <source>Stop always charting the selected members (Ctrl+P)</source>
        <translation>Ĉesi ĉiam montri la elektitajn membrojn en la diagramo (Ctrl+P)</translation>
    </message>
    <message>
        <source>Watch &quot;%1&quot; on %2 again (Alt+Left)</source>
        <translation>Denove observi &quot;%1&quot; ĉe %2 (Alt+Left)</translation>
    </message>
    <message>
        <source>Disabled: no other pool watched in this window yet</source>
        <translation>Malŝaltita: ankoraŭ neniu alia provizo observita en ĉi tiu fenestro</translation>
    </message>
    <message>
        <source>Evict %1?

It gets no allocations until restored; its count is saved.</source>
        <translation>Ĉu forigi %1?

Ĝi ricevas neniujn asignojn ĝis restarigita; ĝia nombro estas konservita.</translation>
    </message>
    <message>
        <source>  • %1</source>
        <translation>  • %1</translation>
    </message>
    <message numerus="yes">
        <source>  … and %n more</source>
        <translation>
            <numerusform>  … kaj %n plia</numerusform>
            <numerusform>  … kaj %n pliaj</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Evict these %n member(s)?

%1

They get no allocations until restored; their counts are saved.</source>
        <extracomment>Evict: take out of rotation; the member&apos;s allocation count is kept.</extracomment>
        <translation>
            <numerusform>Ĉu forigi ĉi tiun %n membron?

%1

Ĝi ricevas neniujn asignojn ĝis restarigita; ĝia nombro estas konservita.</numerusform>
            <numerusform>Ĉu forigi ĉi tiujn %n membrojn?

%1

Ili ricevas neniujn asignojn ĝis restarigitaj; iliaj nombroj estas konservitaj.</numerusform>
        </translation>
    </message>
    <message>
        <source>Evict member</source>
        <translation>Forigi membron</translation>
    </message>
    <message>
        <source>Evict members</source>
        <translation>Forigi membrojn</translation>
    </message>
    <message>
        <source>Restore at zero</source>
        <translation>Restarigi je nulo</translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s) at count zero? Each gets every allocation until it catches up with the pool.</source>
        <translation>
            <numerusform>Ĉu restarigi %n membron je nombro nulo? Ĝi ricevas ĉiun asignon ĝis ĝi reatingas la provizon.</numerusform>
            <numerusform>Ĉu restarigi %n membrojn je nombro nulo? Ĉiu ricevas ĉiun asignon ĝis ĝi reatingas la provizon.</numerusform>
        </translation>
    </message>
    <message>
        <source>restore at zero not confirmed: nothing written</source>
        <translation>restarigo je nulo ne konfirmita: nenio skribita</translation>
    </message>
    <message>
        <source>chart saved to %1</source>
        <translation>diagramo konservita al %1</translation>
    </message>
    <message>
        <source>cannot save the chart to %1</source>
        <translation>ne eblas konservi la diagramon al %1</translation>
    </message>
    <message>
        <source>history saved to %1</source>
        <translation>historio konservita al %1</translation>
    </message>
    <message>
        <source>cannot save the history to %1: %2</source>
        <translation>ne eblas konservi la historion al %1: %2</translation>
    </message>
    <message>
        <source>table saved to %1</source>
        <translation>tabelo konservita al %1</translation>
    </message>
    <message>
        <source>cannot save the table to %1: %2</source>
        <translation>ne eblas konservi la tabelon al %1: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolAlerts</name>
    <message>
        <source>%1 on %2</source>
        <translation>%1 ĉe %2</translation>
    </message>
    <message>
        <source>alert fired: %1: %2</source>
        <translation>alarmo ekagis: %1: %2</translation>
    </message>
    <message>
        <source>alert: %1</source>
        <translation>alarmo: %1</translation>
    </message>
    <message>
        <source>alert resolved: %1</source>
        <translation>alarmo solvita: %1</translation>
    </message>
    <message>
        <source>resolved: %1</source>
        <translation>solvita: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolHealth</name>
    <message>
        <source>guard evicted %1: %2</source>
        <translation>la gardisto forigis %1: %2</translation>
    </message>
    <message>
        <source>guard restored %1: %2</source>
        <translation>la gardisto restarigis %1: %2</translation>
    </message>
    <message>
        <source>guard restored %1: %2; restored at count %3 (policy %4)</source>
        <translation>la gardisto restarigis %1: %2; restarigita je asigna nombro %3 (politiko %4)</translation>
    </message>
    <message>
        <source>guard held back: %1</source>
        <translation>la gardisto retenis: %1</translation>
    </message>
    <message>
        <source>guard %1</source>
        <translation>gardisto %1</translation>
    </message>
    <message>
        <source>guard %1%2: %3</source>
        <translation>gardisto %1%2: %3</translation>
    </message>
    <message>
        <source>a check round is already running</source>
        <translation>kontrola rondo jam ruliĝas</translation>
    </message>
    <message>
        <source>no pool is watched</source>
        <translation>neniu provizo estas observata</translation>
    </message>
    <message>
        <source>no member selected</source>
        <translation>neniu membro elektita</translation>
    </message>
    <message>
        <source>target URL &quot;%1&quot;: %2</source>
        <translation>cela URL &quot;%1&quot;: %2</translation>
    </message>
    <message numerus="yes">
        <source>checking %n member(s) through their proxies against %1</source>
        <translation>
            <numerusform>kontrolante %n membron tra ĝia prokurilo kontraŭ %1</numerusform>
            <numerusform>kontrolante %n membrojn tra iliaj prokuriloj kontraŭ %1</numerusform>
        </translation>
    </message>
    <message>
        <source>check results not saved: %1</source>
        <translation>kontrolrezultoj ne konservitaj: %1</translation>
    </message>
    <message numerus="yes">
        <source>checked %n member(s) in %1 ms: %2 up, %3 down, %4 not checkable</source>
        <translation>
            <numerusform>kontrolis %n membron en %1 ms: %2 funkciaj, %3 malfunkciaj, %4 nekontroleblaj</numerusform>
            <numerusform>kontrolis %n membrojn en %1 ms: %2 funkciaj, %3 malfunkciaj, %4 nekontroleblaj</numerusform>
        </translation>
    </message>
    <message>
        <source>the guard is already running</source>
        <translation>la gardisto jam funkcias</translation>
    </message>
    <message>
        <source>Guard not started: no live pool is watched</source>
        <translation>Gardisto ne lanĉita: neniu viva provizo estas observata</translation>
    </message>
    <message>
        <source>Guard not started: %1</source>
        <translation>Gardisto ne lanĉita: %1</translation>
    </message>
    <message>
        <source>Guard not started: another guard (%1) holds the lease on this pool</source>
        <translation>Gardisto ne lanĉita: alia gardisto (%1) tenas la luon de ĉi tiu provizo</translation>
    </message>
    <message>
        <source>%1 on %2 (%3, pid %4)</source>
        <translation>%1 ĉe %2 (%3, pid %4)</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>iu</translation>
    </message>
    <message numerus="yes">
        <source>%1 seeded %n member(s)</source>
        <translation>
            <numerusform>%1 semis %n membron</numerusform>
            <numerusform>%1 semis %n membrojn</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 evicted %2</source>
        <translation>%1 forigis %2</translation>
    </message>
    <message>
        <source>%1 restored %2</source>
        <translation>%1 restarigis %2</translation>
    </message>
    <message>
        <source>%1: %2 %3</source>
        <translation>%1: %2 %3</translation>
    </message>
    <message>
        <source>%1; reason: %2</source>
        <translation>%1; kialo: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolSession</name>
    <message>
        <source>cluster: the pool&apos;s slot %1 moved from node %2 to node %3</source>
        <translation>areto: la slot %1 de la provizo moviĝis de nodo %2 al nodo %3</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>ne observata</translation>
    </message>
    <message>
        <source>a recording, opened read only: there is no pool to write to</source>
        <translation>registraĵo, malfermita nurlege: ne estas provizo por skribi al ĝi</translation>
    </message>
    <message>
        <source>read-only mode (--read-only): poolscope only watches this pool</source>
        <translation>nurlega reĝimo (--read-only): poolscope nur observas ĉi tiun provizon</translation>
    </message>
    <message>
        <source>not connected to Redis: connect first</source>
        <translation>ne konektita al Redis: unue konektiĝu</translation>
    </message>
    <message>
        <source>read-only: the server refuses writes for this user (%1)</source>
        <translation>nurlega: la servilo rifuzas skribadon por ĉi tiu uzanto (%1)</translation>
    </message>
    <message>
        <source>connecting to %1, pool &quot;%2&quot;</source>
        <translation>konektiĝante al %1, provizo &quot;%2&quot;</translation>
    </message>
    <message>
        <source>back to this pool</source>
        <translation>reen al ĉi tiu provizo</translation>
    </message>
    <message>
        <source>disconnected from %1</source>
        <translation>malkonektita de %1</translation>
    </message>
    <message>
        <source>polling paused</source>
        <translation>pridemandado paŭzita</translation>
    </message>
    <message>
        <source>polling resumed</source>
        <translation>pridemandado daŭrigita</translation>
    </message>
    <message>
        <source>connected to %1 (%2)</source>
        <translation>konektita al %1 (%2)</translation>
    </message>
    <message>
        <source>connection lost, reconnecting: %1</source>
        <translation>konekto perdita, rekonektiĝante: %1</translation>
    </message>
    <message>
        <source>failover: the primary moved from %1 to %2 (named by sentinel %3)</source>
        <translation>transpreno: la ĉefa servilo moviĝis de %1 al %2 (nomita de sentinel %3)</translation>
    </message>
    <message>
        <source>no pool at &quot;%1&quot; yet: Seed… to add proxies</source>
        <translation>ankoraŭ neniu provizo ĉe &quot;%1&quot;: Semi… por aldoni prokurilojn</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted%4</source>
        <translation type="vanished">provizo &quot;%1&quot;: %L2 membroj, %L3 forigitaj%4</translation>
    </message>
    <message>
        <source>poll failed: %1</source>
        <translation>pridemando malsukcesis: %1</translation>
    </message>
    <message>
        <source>%1 · not retrying: enter the password in the Redis URL field</source>
        <translation>%1 · ne reprovante: enigu la pasvorton en la kampon Redis-URL</translation>
    </message>
    <message>
        <source>recording (read only)</source>
        <translation>registraĵo (nurlega)</translation>
    </message>
    <message>
        <source>opened the recording %1 (pool %2 on %3, %L4 polls, read only)</source>
        <translation>malfermis la registraĵon %1 (provizo %2 ĉe %3, %L4 pridemandoj, nurlega)</translation>
    </message>
    <message>
        <source>%1 refused: %2</source>
        <translation>%1 rifuzita: %2</translation>
    </message>
    <message>
        <source>seed +%L1 at %2</source>
        <translation>semado +%L1 je %2</translation>
    </message>
    <message>
        <source>%L1 already in the pool kept their count</source>
        <translation>%L1 jam en la provizo konservis sian nombron</translation>
    </message>
    <message>
        <source>%L1 reset</source>
        <translation>%L1 rekomencigitaj</translation>
    </message>
    <message>
        <source>%L1 evicted not re-added (restore them instead)</source>
        <translation>%L1 forigitaj ne readiciitaj (restarigu ilin anstataŭe)</translation>
    </message>
    <message>
        <source>evict %1 (saved %2)</source>
        <translation>forigo de %1 (konservita %2)</translation>
    </message>
    <message>
        <source>restore %1 (%2) at %3</source>
        <translation>restarigo de %1 (%2) je %3</translation>
    </message>
    <message>
        <source>restore %L1 members (%2): %3</source>
        <translation>restarigo de %L1 membroj (%2): %3</translation>
    </message>
    <message>
        <source> · forecast: </source>
        <translation type="vanished"> · prognozo: </translation>
    </message>
    <message>
        <source>connected to a read-only replica</source>
        <translation>konektita al nurlega repliko</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted · %4</source>
        <comment>%4: how the big pool was read (a summary)</comment>
        <translation>provizo &quot;%1&quot;: %L2 membroj, %L3 forigitaj · %4</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted</source>
        <translation>provizo &quot;%1&quot;: %L2 membroj, %L3 forigitaj</translation>
    </message>
    <message>
        <source>%1 · forecast: %2</source>
        <comment>%1: the restore done, %2: what it will do to the pool</comment>
        <translation>%1 · prognozo: %2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolTableModel</name>
    <message>
        <source>evicted (saved %1)</source>
        <translation>forigita (konservita %1)</translation>
    </message>
    <message>
        <source>in pool · catching up</source>
        <translation>en la provizo · reatingante</translation>
    </message>
    <message>
        <source>in pool</source>
        <translation>en la provizo</translation>
    </message>
    <message>
        <source>%1 · pinned</source>
        <translation>%1 · alpinglita</translation>
    </message>
    <message>
        <source>Rank %1 of a big pool: read on the next poll (only the rows on screen are read)</source>
        <translation>Rango %1 de granda provizo: legata ĉe la venonta pridemando (nur la vicoj sur ekrano estas legataj)</translation>
    </message>
    <message>
        <source>%1 is pinned to the chart (Ctrl+P again to unpin)</source>
        <translation>%1 estas alpinglita al la diagramo (Ctrl+P denove por malalpingli)</translation>
    </message>
    <message>
        <source>%1 is evicted: it gets no allocations. Saved count %2; restore it with Ctrl+R.</source>
        <translation>%1 estas forigita: ĝi ricevas neniujn asignojn. Konservita nombro %2; restarigu ĝin per Ctrl+R.</translation>
    </message>
    <message>
        <source>%1 is %2 below the lowest of the others: it will take about the next %2 allocations.</source>
        <translation>%1 estas %2 sub la plej malalta de la aliaj: ĝi prenos ĉirkaŭ la venontajn %2 asignojn.</translation>
    </message>
    <message>
        <source>member</source>
        <translation>membro</translation>
    </message>
    <message>
        <source>count</source>
        <extracomment>The allocation count (the sorted set&apos;s score) column.</extracomment>
        <translation>nombro</translation>
    </message>
    <message>
        <source>share</source>
        <translation>parto</translation>
    </message>
    <message>
        <source>rate/s</source>
        <translation>rapido/s</translation>
    </message>
    <message>
        <source>state</source>
        <translation>stato</translation>
    </message>
    <message>
        <source>debt</source>
        <translation>ŝuldo</translation>
    </message>
    <message>
        <source>health</source>
        <translation>sano</translation>
    </message>
    <message>
        <source>last change</source>
        <translation>lasta ŝanĝo</translation>
    </message>
    <message>
        <source>Proxy id (the sorted set&apos;s member); the swatch is its chart colour</source>
        <translation>Prokurila identigilo (la membro de la ordigita aro); la specimeno estas ĝia diagrama koloro</translation>
    </message>
    <message>
        <source>Allocations recorded so far (the score); for evicted members the saved count</source>
        <translation>Asignoj registritaj ĝis nun (la poentaro); por forigitaj membroj la konservita nombro</translation>
    </message>
    <message>
        <source>Share of all allocations counted in the pool</source>
        <translation>Parto de ĉiuj asignoj nombritaj en la provizo</translation>
    </message>
    <message>
        <source>Allocations per second over the last window (– for a big pool&apos;s members that are not charted: only those are read from poll to poll)</source>
        <translation>Asignoj po sekundo dum la lasta fenestro (– por membroj de granda provizo, kiuj ne estas en la diagramo: nur tiuj estas legataj de pridemando al pridemando)</translation>
    </message>
    <message>
        <source>In the pool, or evicted (kept aside with its saved count)</source>
        <translation>En la provizo, aŭ forigita (flankenmetita kun sia konservita nombro)</translation>
    </message>
    <message>
        <source>Catch-up debt: how far the count is below the lowest count of the others. A member with debt takes every allocation until it has caught up.</source>
        <translation>Reatinga ŝuldo: kiom la nombro estas sub la plej malalta nombro de la aliaj. Membro kun ŝuldo prenas ĉiun asignon ĝis ĝi reatingis.</translation>
    </message>
    <message>
        <source>When the count last changed</source>
        <translation>Kiam la nombro laste ŝanĝiĝis</translation>
    </message>
    <message>
        <source>The last health check through the member&apos;s proxy (shared in Redis by every dashboard, check and guard): up with its latency, down with its failure, not checkable, or unknown</source>
        <translation>La lasta sankontrolo tra la prokurilo de la membro (dividata en Redis de ĉiu stirpanelo, kontrolo kaj gardisto): funkcia kun sia latenta tempo, malfunkcia kun sia malsukceso, nekontrolebla, aŭ nekonata</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsPanel</name>
    <message>
        <source>Connect to see every pool on the server or cluster.</source>
        <translation>Konektu por vidi ĉiun provizon sur la servilo aŭ areto.</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Refreŝigi</translation>
    </message>
    <message>
        <source>Double-click a pool to watch it</source>
        <translation>Duoble alklaku provizon por observi ĝin</translation>
    </message>
    <message numerus="yes">
        <source>%n pool(s)</source>
        <translation>
            <numerusform>%n provizo</numerusform>
            <numerusform>%n provizoj</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s)</source>
        <translation type="vanished">
            <numerusform> sur %n nodo</numerusform>
            <numerusform> sur %n nodoj</numerusform>
        </translation>
    </message>
    <message>
        <source>, read at %1</source>
        <translation type="vanished">, legita je %1</translation>
    </message>
    <message>
        <source>Could not read the pools: %1</source>
        <translation>Ne eblis legi la provizojn: %1</translation>
    </message>
    <message>
        <source>Reading the pools of %1…</source>
        <translation>Legante la provizojn de %1…</translation>
    </message>
    <message>
        <source>%1 on %2, read at %3</source>
        <comment>%1: how many pools (sorted sets of proxies), %2: how many Redis nodes, %3: a time</comment>
        <translation>%1 sur %2, legitaj je %3</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <comment>Redis servers</comment>
        <translation>
            <numerusform>%n nodo</numerusform>
            <numerusform>%n nodoj</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsTableModel</name>
    <message>
        <source>Estimated: pool size × rise of the median count per second (the pool is too big to sum in one bounded read)</source>
        <translation>Taksita: grandeco de la provizo × kresko de la meza asigna nombro po sekundo (la provizo estas tro granda por sumi en unu limigita legado)</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>Provizo</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Nodo</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Grandeco</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Min.</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>Mediano</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Maks.</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>Disiĝo</translation>
    </message>
    <message>
        <source>Evicted</source>
        <translation>Forigitaj</translation>
    </message>
    <message>
        <source>Alloc/s</source>
        <translation>Asignoj/s</translation>
    </message>
</context>
<context>
    <name>poolscope::ProfileConnector</name>
    <message>
        <source>connection &quot;%1&quot;: no password given</source>
        <translation>konekto &quot;%1&quot;: neniu pasvorto donita</translation>
    </message>
</context>
<context>
    <name>poolscope::ReasonField</name>
    <message>
        <source>optional: why, for the pool&apos;s audit trail</source>
        <translation>nedeviga: kial, por la kontrolspuro de la provizo</translation>
    </message>
    <message>
        <source>Recorded with the action in the pool&apos;s audit trail, where the team and `poolscope-cli audit` read it. Leave empty for none.</source>
        <translation>Registrita kun la ago en la kontrolspuro de la provizo, kie la teamo kaj `poolscope-cli audit` legas ĝin. Lasu malplena por neniu.</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Kialo</translation>
    </message>
    <message>
        <source>&amp;Reason:</source>
        <translation>&amp;Kialo:</translation>
    </message>
</context>
<context>
    <name>poolscope::RecentRecordings</name>
    <message>
        <source>Recent recordings</source>
        <translation>Lastaj registraĵoj</translation>
    </message>
    <message>
        <source>%1 is gone: removed from the recent recordings</source>
        <translation>%1 malaperis: forigita el la lastaj registraĵoj</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>No recordings opened yet</source>
        <translation>Ankoraŭ neniu registraĵo malfermita</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>Vakigi la liston</translation>
    </message>
</context>
<context>
    <name>poolscope::ResetScenarioDialog</name>
    <message>
        <source>the count-reset scenario&apos;s pool was left: the demo, paused for the scenario, is on again</source>
        <translation>la provizo de la scenaro de rekomencigo estis forlasita: la demo, paŭzigita por la scenaro, denove funkcias</translation>
    </message>
    <message>
        <source>Run scenario</source>
        <translation>Ruli scenaron</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>Nuligi ruladon</translation>
    </message>
    <message>
        <source>Back to previous pool</source>
        <translation>Reen al antaŭa provizo</translation>
    </message>
    <message>
        <source>Stop the scenario now (a partial report follows)</source>
        <translation>Haltigi la scenaron nun (parta raporto sekvas)</translation>
    </message>
    <message>
        <source>Watch the pool you watched before the scenario again</source>
        <translation>Denove observi la provizon, kiun vi observis antaŭ la scenaro</translation>
    </message>
    <message>
        <source>Run the scenario (writes the scenario key)</source>
        <translation>Ruli la scenaron (skribas la scenaran ŝlosilon)</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>Malŝaltita: %1</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Ne eblas ruli: %1</translation>
    </message>
    <message>
        <source>Name the scenario key first.</source>
        <translation>Unue nomu la scenaran ŝlosilon.</translation>
    </message>
    <message>
        <source>Count-reset demo on production</source>
        <translation>Demo de nombro-rekomencigo sur produktado</translation>
    </message>
    <message>
        <source>The count-reset demo replaces pool “%1” with its own members, evicts one and restores it. Run it on this production server?</source>
        <translation>La demo de nombro-rekomencigo anstataŭigas la provizon “%1” per siaj propraj membroj, forigas unu kaj restarigas ĝin. Ĉu ruli ĝin sur ĉi tiu produktada servilo?</translation>
    </message>
    <message>
        <source>Not run: the pool&apos;s name was not typed.</source>
        <translation>Ne rulita: la nomo de la provizo ne estis tajpita.</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Rulante…</translation>
    </message>
    <message numerus="yes">
        <source>count-reset scenario: %n member(s), %1/s, policy %2, pool &quot;%3&quot;</source>
        <translation>
            <numerusform>scenaro de nombro-rekomencigo: %n membro, %1/s, politiko %2, provizo &quot;%3&quot;</numerusform>
            <numerusform>scenaro de nombro-rekomencigo: %n membroj, %1/s, politiko %2, provizo &quot;%3&quot;</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>nuligante…</translation>
    </message>
    <message>
        <source>steady load</source>
        <translation>stabila ŝarĝo</translation>
    </message>
    <message>
        <source>one member evicted</source>
        <translation>unu membro forigita</translation>
    </message>
    <message numerus="yes">
        <source>restored: %Ln allocation(s) went to it since</source>
        <translation>
            <numerusform>restarigita: %Ln asigno iris al ĝi ekde tiam</numerusform>
            <numerusform>restarigita: %Ln asignoj iris al ĝi ekde tiam</numerusform>
        </translation>
    </message>
    <message>
        <source>finished</source>
        <translation>finita</translation>
    </message>
    <message numerus="yes">
        <source>%1 / %2 · %Ln allocation(s) · %3</source>
        <translation>
            <numerusform>%1 / %2 · %Ln asigno · %3</numerusform>
            <numerusform>%1 / %2 · %Ln asignoj · %3</numerusform>
        </translation>
    </message>
    <message>
        <source>evict %1 (scenario)</source>
        <translation>forigo de %1 (scenaro)</translation>
    </message>
    <message>
        <source>restore %1 (%2)</source>
        <translation>restarigo de %1 (%2)</translation>
    </message>
    <message>
        <source>The scenario failed: %1</source>
        <translation>La scenaro malsukcesis: %1</translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved (cancelled)</source>
        <translation>
            <numerusform>provizo &quot;%1&quot;: %n membro, %2/s petitaj, %3/s atingitaj (nuligita)</numerusform>
            <numerusform>provizo &quot;%1&quot;: %n membroj, %2/s petitaj, %3/s atingitaj (nuligita)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved</source>
        <translation>
            <numerusform>provizo &quot;%1&quot;: %n membro, %2/s petitaj, %3/s atingitaj</numerusform>
            <numerusform>provizo &quot;%1&quot;: %n membroj, %2/s petitaj, %3/s atingitaj</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: evicted at %2 with count %3, restored at %4 by &quot;%5&quot; at %6</source>
        <translation>%1: forigita je %2 kun nombro %3, restarigita je %4 per &quot;%5&quot; je %6</translation>
    </message>
    <message>
        <source>forecast: the next ~%1 allocations go to it (pool minimum %2 - restored count %3)</source>
        <translation>prognozo: la venontaj ~%1 asignoj iras al ĝi (minimumo de la provizo %2 - restarigita nombro %3)</translation>
    </message>
    <message numerus="yes">
        <source>observed: longest run %Ln consecutive allocation(s)</source>
        <translation>
            <numerusform>observita: plej longa serio %Ln sinsekva asigno</numerusform>
            <numerusform>observita: plej longa serio %Ln sinsekvaj asignoj</numerusform>
        </translation>
    </message>
    <message>
        <source>share in the first %1 after the restore: %2 (fair share %3)</source>
        <translation>parto en la unuaj %1 post la restarigo: %2 (justa parto %3)</translation>
    </message>
    <message>
        <source>caught up with the pool minimum after %1</source>
        <translation>reatingis la minimumon de la provizo post %1</translation>
    </message>
    <message>
        <source>did not catch up within the run</source>
        <translation>ne reatingis dum la rulado</translation>
    </message>
    <message>
        <source>%1 by %2: forecast run ~%3, observed %4, share %5</source>
        <translation>%1 per %2: prognozita serio ~%3, observita %4, parto %5</translation>
    </message>
</context>
<context>
    <name>poolscope::RestoreDialog</name>
    <message>
        <source>Restore</source>
        <translation>Restarigi</translation>
    </message>
    <message>
        <source>%1 (saved %2)</source>
        <translation>%1 (konservita %2)</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>kaj %n plia</numerusform>
            <numerusform>kaj %n pliaj</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s): %1</source>
        <translation>
            <numerusform>Restarigi %n membron: %1</numerusform>
            <numerusform>Restarigi %n membrojn: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>
Restored count %1, pool minimum now %2, rate %3/s.</source>
        <translation type="vanished">
Restarigita nombro %1, minimumo de la provizo nun %2, rapido %3/s.</translation>
    </message>
    <message>
        <source>Starting count: %1</source>
        <translation>Komenca nombro: %1</translation>
    </message>
    <message>
        <source>Restore with this policy</source>
        <translation>Restarigi kun ĉi tiu politiko</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>Malŝaltita: %1</translation>
    </message>
    <message>
        <source>Restored count %1, pool minimum now %2, rate %3/s.</source>
        <comment>count: allocations a member has had (its score); %3: allocations per second</comment>
        <translation>Restarigita nombro %1, minimumo de la provizo nun %2, rapido %3/s.</translation>
    </message>
</context>
<context>
    <name>poolscope::SecretPrompter</name>
    <message>
        <source>Password for %1:</source>
        <translation>Pasvorto por %1:</translation>
    </message>
    <message>
        <source>The TLS client key %1 is encrypted. Its passphrase:</source>
        <translation>La TLS-klienta ŝlosilo %1 estas ĉifrita. Ĝia pasfrazo:</translation>
    </message>
    <message>
        <source>The SSH key %1 is encrypted. Its passphrase:</source>
        <translation>La SSH-ŝlosilo %1 estas ĉifrita. Ĝia pasfrazo:</translation>
    </message>
    <message>
        <source>SSH password for %1:</source>
        <translation>SSH-pasvorto por %1:</translation>
    </message>
    <message>
        <source>
(kept in the keychain for &quot;%1&quot;)</source>
        <translation type="vanished">
(tenata en la ŝlosilaro por &quot;%1&quot;)</translation>
    </message>
    <message>
        <source>
(no keychain here: kept in memory only, until poolscope exits)</source>
        <translation type="vanished">
(neniu ŝlosilaro ĉi tie: tenata nur en memoro, ĝis poolscope finiĝas)</translation>
    </message>
    <message>
        <source>
(kept in memory only, until poolscope exits)</source>
        <translation type="vanished">
(tenata nur en memoro, ĝis poolscope finiĝas)</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <comment>why the secret is asked for again, then the question</comment>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>(kept in the keychain for &quot;%1&quot;)</source>
        <translation>(tenata en la ŝlosilaro por &quot;%1&quot;)</translation>
    </message>
    <message>
        <source>(no keychain here: kept in memory only, until poolscope exits)</source>
        <translation>(neniu ŝlosilaro ĉi tie: tenata nur en memoro, ĝis poolscope finiĝas)</translation>
    </message>
    <message>
        <source>(kept in memory only, until poolscope exits)</source>
        <translation>(tenata nur en memoro, ĝis poolscope finiĝas)</translation>
    </message>
</context>
<context>
    <name>poolscope::SeedDialog</name>
    <message>
        <source>Pool minimum (now %1)</source>
        <translation>Minimumo de la provizo (nun %1)</translation>
    </message>
    <message>
        <source>Pool minimum (pool empty: 0)</source>
        <translation>Minimumo de la provizo (provizo malplena: 0)</translation>
    </message>
    <message>
        <source>Pool minimum (not read yet)</source>
        <translation>Minimumo de la provizo (ankoraŭ ne legita)</translation>
    </message>
    <message>
        <source>Load or paste a list: its new members will join at the pool minimum.</source>
        <translation>Ŝargu aŭ algluu liston: ĝiaj novaj membroj aliĝos je la minimumo de la provizo.</translation>
    </message>
    <message>
        <source>Load or paste a list to see whether its new members would flood the pool.</source>
        <translation>Ŝargu aŭ algluu liston por vidi, ĉu ĝiaj novaj membroj inundus la provizon.</translation>
    </message>
    <message>
        <source>The pool has not been read yet: the flood forecast follows its first poll.</source>
        <translation>La provizo ankoraŭ ne estis legita: la prognozo pri inundo sekvos ĝian unuan pridemandon.</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Semi</translation>
    </message>
    <message>
        <source>%1 is larger than 64 MiB: split it first.</source>
        <translation>%1 estas pli granda ol 64 MiB: unue dividu ĝin.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Ne eblas legi %1: %2</translation>
    </message>
    <message>
        <source>%1 (%2): the first %3 lines are shown, every line is used</source>
        <translation>%1 (%2): la unuaj %3 linioj estas montrataj, ĉiu linio estas uzata</translation>
    </message>
    <message>
        <source>Open a proxy list</source>
        <translation>Malfermi prokurilan liston</translation>
    </message>
    <message>
        <source>Proxy lists (*.txt *.csv *.json *.list)</source>
        <translation>Prokurilaj listoj (*.txt *.csv *.json *.list)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Ĉiuj dosieroj (*)</translation>
    </message>
    <message>
        <source>evicted: restore it instead</source>
        <translation>forigita: restarigu ĝin anstataŭe</translation>
    </message>
    <message>
        <source>already in the pool</source>
        <translation>jam en la provizo</translation>
    </message>
    <message>
        <source>new</source>
        <translation>nova</translation>
    </message>
    <message>
        <source>line %1: %2
%3</source>
        <translation>linio %1: %2
%3</translation>
    </message>
    <message>
        <source>%1 (%2, first %3 listed)</source>
        <translation>%1 (%2, unuaj %3 listigitaj)</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>Akceptitaj</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Rifuzitaj</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>Duoblaĵoj</translation>
    </message>
    <message>
        <source>New members join at the pool minimum: no flood.</source>
        <translation>Novaj membroj aliĝas je la minimumo de la provizo: neniu inundo.</translation>
    </message>
    <message>
        <source>Starting count: %1</source>
        <translation>Komenca nombro: %1</translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already (pool minimum now %1). Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>Nenio nova por semi: la %n akceptita membro jam estas en la provizo (minimumo de la provizo nun %1). Marku &quot;Rekomencigi membrojn jam en la provizo&quot; por agordi ĝian nombron denove.</numerusform>
            <numerusform>Nenio nova por semi: la %n akceptitaj membroj ĉiuj jam estas en la provizo (minimumo de la provizo nun %1). Marku &quot;Rekomencigi membrojn jam en la provizo&quot; por agordi iliajn nombrojn denove.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already. Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>Nenio nova por semi: la %n akceptita membro jam estas en la provizo. Marku &quot;Rekomencigi membrojn jam en la provizo&quot; por agordi ĝian nombron denove.</numerusform>
            <numerusform>Nenio nova por semi: la %n akceptitaj membroj ĉiuj jam estas en la provizo. Marku &quot;Rekomencigi membrojn jam en la provizo&quot; por agordi iliajn nombrojn denove.</numerusform>
        </translation>
    </message>
    <message>
        <source>Pool minimum is %1: starting at %2 causes no flood.</source>
        <translation>La minimumo de la provizo estas %1: komenci je %2 kaŭzas neniun inundon.</translation>
    </message>
    <message>
        <source>The pool is empty: the new members share the allocations.</source>
        <translation>La provizo estas malplena: la novaj membroj dividas la asignojn.</translation>
    </message>
    <message>
        <source>Flood warning: %1 is below the pool minimum %2. %3</source>
        <translation>Averto pri inundo: %1 estas sub la minimumo de la provizo %2. %3</translation>
    </message>
    <message>
        <source>Seed a pool (not connected)</source>
        <translation>Semi provizon (ne konektita)</translation>
    </message>
    <message>
        <source>Not connected: connect to a pool first.</source>
        <translation>Ne konektita: unue konektiĝu al provizo.</translation>
    </message>
    <message>
        <source>Seed pool &quot;%1&quot; · %2</source>
        <translation>Semi la provizon &quot;%1&quot; · %2</translation>
    </message>
    <message>
        <source>Target pool: &lt;b&gt;%1&lt;/b&gt; on %2</source>
        <translation>Cela provizo: &lt;b&gt;%1&lt;/b&gt; ĉe %2</translation>
    </message>
    <message numerus="yes">
        <source>Seed %Ln member(s)</source>
        <translation>
            <numerusform>Semi %Ln membron</numerusform>
            <numerusform>Semi %Ln membrojn</numerusform>
        </translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>Malŝaltita: %1</translation>
    </message>
    <message>
        <source>Disabled: still reading the list</source>
        <translation>Malŝaltita: ankoraŭ legante la liston</translation>
    </message>
    <message>
        <source>Disabled: no accepted proxy in the list</source>
        <translation>Malŝaltita: neniu akceptita prokurilo en la listo</translation>
    </message>
    <message>
        <source>Write the accepted members to the pool</source>
        <translation>Skribi la akceptitajn membrojn en la provizon</translation>
    </message>
    <message>
        <source>Reading the list (%1)…</source>
        <translation>Legante la liston (%1)…</translation>
    </message>
    <message>
        <source>The list cannot be used: %1</source>
        <translation>La listo ne estas uzebla: %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln accepted (%1 new), %2 rejected, %3 duplicates collapsed.</source>
        <translation>
            <numerusform>%Ln akceptita (%1 nova), %2 rifuzitaj, %3 duoblaĵoj kunfanditaj.</numerusform>
            <numerusform>%Ln akceptitaj (%1 novaj), %2 rifuzitaj, %3 duoblaĵoj kunfanditaj.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Writing %Ln member(s)…</source>
        <translation>
            <numerusform>Skribante %Ln membron…</numerusform>
            <numerusform>Skribante %Ln membrojn…</numerusform>
        </translation>
    </message>
    <message>
        <source>Done: %1 added at count %2, %3 already in the pool kept their count, %4 reset, %5 evicted not re-added.</source>
        <translation>Farite: %1 aldonitaj je nombro %2, %3 jam en la provizo konservis sian nombron, %4 rekomencigitaj, %5 forigitaj ne readiciitaj.</translation>
    </message>
    <message>
        <source>Seed failed: %1</source>
        <translation>Semado malsukcesis: %1</translation>
    </message>
</context>
<context>
    <name>poolscope::SessionRecorder</name>
    <message>
        <source>recording stopped: %1</source>
        <translation>registrado haltis: %1</translation>
    </message>
    <message>
        <source>recording switched off</source>
        <translation>registrado malŝaltita</translation>
    </message>
    <message>
        <source>cannot read the past of this pool: %1</source>
        <translation>ne eblas legi la pasintecon de ĉi tiu provizo: %1</translation>
    </message>
    <message>
        <source>not recording: %1</source>
        <translation>ne registrante: %1</translation>
    </message>
    <message>
        <source>recording to %1</source>
        <translation>registrante al %1</translation>
    </message>
</context>
<context>
    <name>poolscope::StatusBarPanel</name>
    <message>
        <source>Server and version</source>
        <translation>Servilo kaj versio</translation>
    </message>
    <message>
        <source>recording: last poll %1</source>
        <translation>registraĵo: lasta pridemando %1</translation>
    </message>
    <message>
        <source>recording</source>
        <translation>registraĵo</translation>
    </message>
    <message>
        <source>disconnected</source>
        <translation>malkonektita</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>konektiĝante</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>konektita</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>rekonektiĝante</translation>
    </message>
    <message>
        <source>Connection to the Redis server</source>
        <translation>Konekto al la Redis-servilo</translation>
    </message>
    <message>
        <source>Round-trip time of the last poll (all its commands)</source>
        <translation>Rondira tempo de la lasta pridemando (ĉiuj ĝiaj komandoj)</translation>
    </message>
    <message>
        <source>Time since the last successful poll</source>
        <translation>Tempo ekde la lasta sukcesa pridemando</translation>
    </message>
    <message>
        <source>Members in the pool</source>
        <translation>Membroj en la provizo</translation>
    </message>
    <message>
        <source>rtt %1</source>
        <translation>rtt %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln member(s)</source>
        <translation>
            <numerusform>%Ln membro</numerusform>
            <numerusform>%Ln membroj</numerusform>
        </translation>
    </message>
    <message>
        <source>Authentication failed, not retrying: enter the password in the Redis URL field</source>
        <translation>Aŭtentigo malsukcesis, ne reprovante: enigu la pasvorton en la kampon Redis-URL</translation>
    </message>
    <message>
        <source>poll failed: %1</source>
        <translation>pridemando malsukcesis: %1</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 malsukcesis: %2</translation>
    </message>
    <message>
        <source> (paused)</source>
        <translation type="vanished"> (paŭzita)</translation>
    </message>
    <message>
        <source> · read-only</source>
        <translation type="vanished"> · nurlega</translation>
    </message>
    <message>
        <source> · primary %1 (from sentinel %2)</source>
        <translation type="vanished"> · ĉefa servilo %1 (de sentinel %2)</translation>
    </message>
    <message>
        <source>%1, pool &quot;%2&quot;</source>
        <translation>%1, provizo &quot;%2&quot;</translation>
    </message>
    <message>
        <source>no poll yet</source>
        <translation>ankoraŭ neniu pridemando</translation>
    </message>
    <message>
        <source>stale: last good poll %1 (%2)</source>
        <translation>malfreŝa: lasta sukcesa pridemando %1 (%2)</translation>
    </message>
    <message>
        <source>polled %1</source>
        <translation>pridemandita %1</translation>
    </message>
    <message>
        <source>%1 (paused)</source>
        <comment>%1: the connection&apos;s state; polling is paused</comment>
        <translation>%1 (paŭzita)</translation>
    </message>
    <message>
        <source>read-only</source>
        <comment>the connection: nothing is written through it</comment>
        <translation>nurlega</translation>
    </message>
    <message>
        <source>primary %1 (from sentinel %2)</source>
        <translation>ĉefa servilo %1 (de sentinel %2)</translation>
    </message>
</context>
<context>
    <name>poolscope::TabbedWindow</name>
    <message>
        <source>New &amp;tab</source>
        <translation>Nova &amp;langeto</translation>
    </message>
    <message>
        <source>Another pool beside this one: a tab with its own connection</source>
        <translation>Alia provizo apud ĉi tiu: langeto kun sia propra konekto</translation>
    </message>
    <message>
        <source>&amp;Close tab</source>
        <translation>&amp;Fermi la langeton</translation>
    </message>
    <message>
        <source>Stop watching this tab&apos;s pool; the pool itself is not touched</source>
        <translation>Ĉesi observi la provizon de ĉi tiu langeto; la provizo mem ne estas tuŝata</translation>
    </message>
    <message>
        <source>Next tab</source>
        <translation>Sekva langeto</translation>
    </message>
    <message>
        <source>Previous tab</source>
        <translation>Antaŭa langeto</translation>
    </message>
    <message>
        <source>%1 · %2 (recording)</source>
        <translation>%1 · %2 (registraĵo)</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>New tab</source>
        <translation>Nova langeto</translation>
    </message>
    <message>
        <source>Close this tab (Ctrl+W); the pool is not touched</source>
        <translation>Fermi ĉi tiun langeton (Ctrl+W); la provizo ne estas tuŝata</translation>
    </message>
</context>
<context>
    <name>poolscope::TestAllocationDialog</name>
    <message>
        <source>Start</source>
        <translation>Komenci</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>Nuligi ruladon</translation>
    </message>
    <message>
        <source>Stop the run now; the summary still accounts for every allocation</source>
        <translation>Haltigi la ruladon nun; la resumo tamen kalkulas ĉiun asignon</translation>
    </message>
    <message>
        <source>atomic script (allocate.lua)</source>
        <translation>atoma skripto (allocate.lua)</translation>
    </message>
    <message>
        <source>naive ZRANGE + ZINCRBY (race demo)</source>
        <translation>naiva ZRANGE + ZINCRBY (demo de konkurkondiĉo)</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>Ne eblas ruli: %1</translation>
    </message>
    <message numerus="yes">
        <source>starting %n worker(s)…</source>
        <translation>
            <numerusform>lanĉante %n laboranton…</numerusform>
            <numerusform>lanĉante %n laborantojn…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>test allocations started: %1, %n worker(s), pipeline %2%3, %4</source>
        <translation>
            <numerusform>testaj asignoj komencitaj: %1, %n laboranto, dukto %2%3, %4</numerusform>
            <numerusform>testaj asignoj komencitaj: %1, %n laborantoj, dukto %2%3, %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln allocation(s)</source>
        <translation>
            <numerusform>%Ln asigno</numerusform>
            <numerusform>%Ln asignoj</numerusform>
        </translation>
    </message>
    <message>
        <source>, max %1/s</source>
        <translation>, maks. %1/s</translation>
    </message>
    <message>
        <source>atomic</source>
        <translation>atoma</translation>
    </message>
    <message>
        <source>naive</source>
        <translation>naiva</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>nuligante…</translation>
    </message>
    <message>
        <source>Start the test allocations</source>
        <translation>Komenci la testajn asignojn</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>Malŝaltita: %1</translation>
    </message>
    <message>
        <source>%1 done · %2 allocations/s</source>
        <translation>%1 farite · %2 asignoj/s</translation>
    </message>
    <message>
        <source>stopped at %1 of %2 (%p%)</source>
        <translation>haltis je %1 el %2 (%p%)</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>nuligita</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>finita</translation>
    </message>
</context>
<context>
    <name>poolscope::TypedConfirmDialog</name>
    <message>
        <source>Type the pool&apos;s name, %1, to confirm:</source>
        <translation>Tajpu la nomon de la provizo, %1, por konfirmi:</translation>
    </message>
    <message>
        <source>&amp;Confirm</source>
        <translation>&amp;Konfirmi</translation>
    </message>
</context>
<context>
    <name>poolscope::WriteLock</name>
    <message>
        <source>production: writes are locked for this connection; unlock them for this session first (Pool ▸ Unlock writes)</source>
        <translation>produktado: skribado estas ŝlosita por ĉi tiu konekto; unue malŝlosu ĝin por ĉi tiu seanco (Provizo ▸ Malŝlosi skribadon)</translation>
    </message>
</context>
<context>
    <name>poolscope::i18n::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Lingvo</translation>
    </message>
    <message>
        <source>System language (%1)</source>
        <translation>Lingvo de la sistemo (%1)</translation>
    </message>
    <message>
        <source>The language the desktop asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English when poolscope does not have it</source>
        <translation>La lingvo, kiun la labortablo petas (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); la angla, se poolscope ne havas ĝin</translation>
    </message>
    <message>
        <source>Applies the next time poolscope starts</source>
        <translation>Validas ekde la sekva lanĉo de poolscope</translation>
    </message>
    <message>
        <source>Chinese (Simplified)</source>
        <translation>Ĉina (simpligita)</translation>
    </message>
    <message>
        <source>Uyghur</source>
        <translation>Ujgura</translation>
    </message>
    <message>
        <source>Punjabi (Gurmukhi)</source>
        <translation>Panĝaba (gurmuka skribo)</translation>
    </message>
    <message>
        <source>Esperanto</source>
        <translation>Esperanto</translation>
    </message>
    <message>
        <source>English</source>
        <translation>Angla</translation>
    </message>
    <message>
        <source>Saved: %1 from the next start of poolscope without %2</source>
        <translation>Konservita: %1 ekde la sekva lanĉo de poolscope sen %2</translation>
    </message>
    <message>
        <source>Saved: poolscope stays in %1</source>
        <translation>Konservita: poolscope restas en %1</translation>
    </message>
    <message>
        <source>Saved: poolscope starts in %1 the next time; this window keeps its language</source>
        <translation>Konservita: poolscope lanĉiĝos en %1 la venontan fojon; ĉi tiu fenestro gardas sian lingvon</translation>
    </message>
</context>
</TS>
