<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ug_CN">
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
    <name>main</name>
    <message>
        <source>reopening the last connection %1 (poolscope --demo starts the demo instead)</source>
        <translation>ئالدىنقى ئۇلىنىش %1 قايتا ئېچىلىۋاتىدۇ (poolscope --demo ئۇنىڭ ئورنىغا كۆرسىتىشنى باشلايدۇ)</translation>
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
    <name>poolscope::ChartPanel</name>
    <message>
        <source>pool allocations/s</source>
        <translation>كۆلچەك تەقسىماتى/سېكۇنت</translation>
    </message>
    <message>
        <source>pool rate (/s, right axis)</source>
        <translation>كۆلچەك سۈرئىتى (/سېكۇنت، ئوڭ ئوق)</translation>
    </message>
    <message>
        <source>In a big pool ▲ marks the most allocated members, ▼ the ones allocated next. The dotted grey line is the pool&apos;s allocation rate (right axis).</source>
        <translation>چوڭ كۆلچەكتە ▲ ئەڭ كۆپ تەقسىملەنگەن ئەزالارنى، ▼ كېيىنكى نۆۋەتتە تەقسىملىنىدىغانلارنى بەلگىلەيدۇ. چېكىتلىك كۈلرەڭ سىزىق كۆلچەكنىڭ تەقسىمات سۈرئىتى (ئوڭ ئوق).</translation>
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
        <translation>دىئاگرامما قايسى ئەزالارنى كۆرسىتىدۇ</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>يەنە +%n (جەدۋەلگە قاراڭ)</numerusform>
            <numerusform>يەنە +%n (جەدۋەلگە قاراڭ)</numerusform>
        </translation>
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
</context>
<context>
    <name>poolscope::ConnectionPrompter</name>
    <message>
        <source>&amp;Trust this key</source>
        <translation>بۇ ئاچقۇچقا ئىشەن(&amp;T)</translation>
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
        <translation>
            <numerusform> %n تۈگۈندە</numerusform>
            <numerusform> %n تۈگۈندە</numerusform>
        </translation>
    </message>
    <message>
        <source>, read at %1</source>
        <translation>، %1 دە ئوقۇلدى</translation>
    </message>
    <message>
        <source>Could not read the pools: %1</source>
        <translation>كۆلچەكلەرنى ئوقۇغىلى بولمىدى: %1</translation>
    </message>
    <message>
        <source>Reading the pools of %1…</source>
        <translation>%1 نىڭ كۆلچەكلىرى ئوقۇلۇۋاتىدۇ…</translation>
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
