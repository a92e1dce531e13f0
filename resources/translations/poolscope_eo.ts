<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="eo_001">
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
    <name>main</name>
    <message>
        <source>reopening the last connection %1 (poolscope --demo starts the demo instead)</source>
        <translation>remalfermante la lastan konekton %1 (poolscope --demo anstataŭe lanĉas la demon)</translation>
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
    <name>poolscope::ChartPanel</name>
    <message>
        <source>pool allocations/s</source>
        <translation>asignoj de la provizo/s</translation>
    </message>
    <message>
        <source>pool rate (/s, right axis)</source>
        <translation>rapido de la provizo (/s, dekstra akso)</translation>
    </message>
    <message>
        <source>In a big pool ▲ marks the most allocated members, ▼ the ones allocated next. The dotted grey line is the pool&apos;s allocation rate (right axis).</source>
        <translation>En granda provizo ▲ markas la plej asignitajn membrojn, ▼ tiujn asignotajn poste. La punktita griza linio estas la asigna rapido de la provizo (dekstra akso).</translation>
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
        <source>Which members the chart shows</source>
        <translation>Kiujn membrojn la diagramo montras</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>+%n plia (vidu la tabelon)</numerusform>
            <numerusform>+%n pliaj (vidu la tabelon)</numerusform>
        </translation>
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
</context>
<context>
    <name>poolscope::ConnectionPrompter</name>
    <message>
        <source>&amp;Trust this key</source>
        <translation>&amp;Fidi ĉi tiun ŝlosilon</translation>
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
        <translation>
            <numerusform> sur %n nodo</numerusform>
            <numerusform> sur %n nodoj</numerusform>
        </translation>
    </message>
    <message>
        <source>, read at %1</source>
        <translation>, legita je %1</translation>
    </message>
    <message>
        <source>Could not read the pools: %1</source>
        <translation>Ne eblis legi la provizojn: %1</translation>
    </message>
    <message>
        <source>Reading the pools of %1…</source>
        <translation>Legante la provizojn de %1…</translation>
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
