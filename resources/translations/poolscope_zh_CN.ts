<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>FairnessPanel</name>
    <message>
        <source>Members in the pool, and how many are evicted</source>
        <translation>池中的成员数，以及其中被移出的数目</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Lowest, median and highest allocation count in the pool</source>
        <translation>池中最低、中位和最高的分配次数</translation>
    </message>
    <message>
        <source>Min / median / max</source>
        <translation>最低 / 中位数 / 最高</translation>
    </message>
    <message>
        <source>Highest count minus lowest count: 0 or 1 in a pool served only by allocate.lua</source>
        <translation>最高分配次数减最低分配次数：只由 allocate.lua 分配的池中为 0 或 1</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>极差</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index of the counts: 1.0 is perfectly even, 1/n is one member taking everything</source>
        <translation>分配次数的 Jain 公平性指数：1.0 表示完全均匀，1/n 表示一个成员占了全部</translation>
    </message>
    <message>
        <source>Jain index</source>
        <translation>Jain 指数</translation>
    </message>
    <message>
        <source>The member that took the largest share of the allocations in the last window</source>
        <translation>上一个窗口中分配份额最大的成员</translation>
    </message>
    <message>
        <source>Busiest (last window)</source>
        <translation>最繁忙（上一个窗口）</translation>
    </message>
    <message>
        <source>Allocations per second over the last window, all members together</source>
        <translation>上一个窗口中每秒的分配数，所有成员合计</translation>
    </message>
    <message>
        <source>Allocation rate</source>
        <translation>分配速率</translation>
    </message>
    <message>
        <source>The pool&apos;s current total: the sum of the counts of the members in the pool now. It falls when members are evicted (their counts are saved with them, shown in brackets) or when counts are reset; it is not the number of allocations ever made.</source>
        <translation>池当前的总数：池中现有成员的分配次数之和。成员被移出时（其分配次数随成员保存，显示在括号中）或分配次数被重置时它会下降；它不是历来的分配总数。</translation>
    </message>
    <message>
        <source>Sum of counts now</source>
        <translation>当前分配次数之和</translation>
    </message>
    <message>
        <source>How the poller reads the pool</source>
        <translation>轮询器如何读取池</translation>
    </message>
    <message>
        <source>Read mode</source>
        <translation>读取模式</translation>
    </message>
</context>
<context>
    <name>Forecast</name>
    <message>
        <source>No flood: joining at %1, above the pool minimum (%2).</source>
        <translation>不会出现分配洪峰：以 %1 加入，高于池的最小值（%2）。</translation>
    </message>
    <message>
        <source>above the pool maximum (%1)</source>
        <translation>高于池的最大值（%1）</translation>
    </message>
    <message>
        <source>above the pool minimum (%1)</source>
        <translation>高于池的最小值（%1）</translation>
    </message>
    <message>
        <source>about %1 at the current rate</source>
        <translation>按当前速率约 %1</translation>
    </message>
    <message>
        <source>no allocations measured right now, so no time estimate</source>
        <translation>目前没有测得分配，因此无法估计时间</translation>
    </message>
    <message>
        <source>Starvation warning: joining at %1, %2, it gets none of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>饥饿警告：以 %1 加入，%2，它在接下来的 %3 次分配（%4）中一次也得不到：池中其余成员先追赶上来。</translation>
    </message>
    <message numerus="yes">
        <source>Starvation warning: joining at %1 or more, %2, none of these %n members gets any of the next %3 allocations (%4): the rest of the pool catches up first.</source>
        <translation>
            <numerusform>饥饿警告：以 %1 或更高加入，%2，这 %n 个成员在接下来的 %3 次分配（%4）中一次也得不到：池中其余成员先追赶上来。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LoadReport</name>
    <message>
        <source>connections lost mid-run: %1, reconnected: %2</source>
        <translation>运行中断开的连接：%1，重新连接：%2</translation>
    </message>
    <message>
        <source>failover: the primary went from %1</source>
        <translation>故障转移：主节点从 %1</translation>
    </message>
    <message>
        <source> to </source>
        <translation> 变为 </translation>
    </message>
    <message>
        <source>lost in failover: %1 acknowledged allocations on %2 members (sum of counts %3 before, %4 after)</source>
        <translation>故障转移中丢失：%2 个成员上 %1 次已确认的分配（分配次数之和之前为 %3，之后为 %4）</translation>
    </message>
    <message>
        <source>lost in failover: not checked (%1)</source>
        <translation>故障转移中丢失：未检查（%1）</translation>
    </message>
</context>
<context>
    <name>QAbstractSpinBox</name>
    <message>
        <source>Step &amp;down</source>
        <translation>降低(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Step up</source>
        <translation>升高(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Select All</source>
        <translation>全选(&amp;S)</translation>
    </message>
</context>
<context>
    <name>QDialogButtonBox</name>
    <message>
        <source>OK</source>
        <translation>确定</translation>
    </message>
</context>
<context>
    <name>QDockWidget</name>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Float</source>
        <translation>悬浮</translation>
    </message>
    <message>
        <source>Undocks and re-attaches the dock widget</source>
        <translation>悬浮和停靠可停靠部件</translation>
    </message>
    <message>
        <source>Closes the dock widget</source>
        <translation>关闭可停靠部件</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is write protected.
Do you want to delete it anyway?</source>
        <translation>“%1”已被写入保护。
您仍然想要删除它吗？</translation>
    </message>
    <message>
        <source>Are you sure you want to delete &apos;%1&apos;?</source>
        <translation>您确定要删除“%1”吗？</translation>
    </message>
    <message>
        <source>List of places and bookmarks</source>
        <translation>位置和书签列表</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>文件名称(&amp;N)：</translation>
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
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>New Folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Parent Directory</source>
        <translation>父目录</translation>
    </message>
    <message>
        <source>&amp;New Folder</source>
        <translation>新建文件夹(&amp;N)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>我的电脑</translation>
    </message>
    <message>
        <source>Look in:</source>
        <translation>查找范围：</translation>
    </message>
    <message>
        <source>Alt+Right</source>
        <translation>Alt+Right</translation>
    </message>
    <message>
        <source>Create a New Folder</source>
        <translation>新建一个文件夹</translation>
    </message>
    <message>
        <source>%1 File</source>
        <translation>%1 文件</translation>
    </message>
    <message>
        <source>Files of type:</source>
        <translation>文件类型：</translation>
    </message>
    <message>
        <source>Find Directory</source>
        <translation>查找目录</translation>
    </message>
    <message>
        <source>Show &amp;hidden files</source>
        <translation>显示隐藏文件(&amp;H)</translation>
    </message>
    <message>
        <source>Save As</source>
        <translation>另存为</translation>
    </message>
    <message>
        <source>%1
Directory not found.
Please verify the correct directory name was given.</source>
        <translation>%1
目录未找到。
请检查指定的目录名是否正确。</translation>
    </message>
    <message>
        <source>Sidebar</source>
        <translation>侧边栏</translation>
    </message>
    <message>
        <source>List View</source>
        <translation>列表视图</translation>
    </message>
    <message>
        <source>&amp;Choose</source>
        <translation>选择(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>All Files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Directories</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <source>Could not delete directory.</source>
        <translation>无法删除目录。</translation>
    </message>
    <message>
        <source>Directory:</source>
        <translation>目录：</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>%1 already exists.
Do you want to replace it?</source>
        <translation>%1 已存在。
您想要替换它吗？</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <source>Go forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <source>Go to the parent directory</source>
        <translation>转到父目录</translation>
    </message>
    <message>
        <source>Recent Places</source>
        <translation>最近位置</translation>
    </message>
    <message>
        <source>Go back</source>
        <translation>后退</translation>
    </message>
    <message>
        <source>Change to detail view mode</source>
        <translation>更改为详情视图模式</translation>
    </message>
    <message>
        <source>Create New Folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>Detail View</source>
        <translation>详情视图</translation>
    </message>
    <message>
        <source>%1
File not found.
Please verify the correct file name was given.</source>
        <translation>%1
文件未找到。
请检查指定的文件名是否正确。</translation>
    </message>
    <message>
        <source>Change to list view mode</source>
        <translation>更改为列表视图模式</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>体积</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>My Computer</source>
        <translation>我的电脑</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>计算机</translation>
    </message>
    <message>
        <source>Invalid filename</source>
        <translation>无效的文件名</translation>
    </message>
    <message>
        <source>&lt;b&gt;The name &quot;%1&quot; cannot be used.&lt;/b&gt;&lt;p&gt;Try using another name, with fewer characters or no punctuation marks.</source>
        <translation>&lt;b&gt;文件名“%1”不可使用。&lt;/b&gt;&lt;p&gt;请尝试其他文件名，减少字数或避免使用标点符号。</translation>
    </message>
    <message>
        <source>Date Modified</source>
        <translation>修改日期</translation>
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
        <translation>输入一个值：</translation>
    </message>
</context>
<context>
    <name>QLineEdit</name>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤消(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>全选</translation>
    </message>
</context>
<context>
    <name>QMessageBox</name>
    <message>
        <source>Show Details...</source>
        <translation>显示详情...</translation>
    </message>
    <message>
        <source>Hide Details...</source>
        <translation>隐藏详情...</translation>
    </message>
</context>
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>确定</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>否(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>是(&amp;Y)</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>帮助</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Abort</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Restore Defaults</source>
        <translation>恢复默认值</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>N&amp;o to All</source>
        <translation>全否(&amp;O)</translation>
    </message>
    <message>
        <source>Save All</source>
        <translation>全部保存</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>Yes to &amp;All</source>
        <translation>全是(&amp;A)</translation>
    </message>
</context>
<context>
    <name>QProgressDialog</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>QScrollBar</name>
    <message>
        <source>Top</source>
        <translation>顶端</translation>
    </message>
    <message>
        <source>Scroll down</source>
        <translation>向下滚动</translation>
    </message>
    <message>
        <source>Scroll here</source>
        <translation>滚动至此</translation>
    </message>
    <message>
        <source>Scroll left</source>
        <translation>向左滚动</translation>
    </message>
    <message>
        <source>Bottom</source>
        <translation>底部</translation>
    </message>
    <message>
        <source>Page up</source>
        <translation>向上翻页</translation>
    </message>
    <message>
        <source>Page right</source>
        <translation>向右翻页</translation>
    </message>
    <message>
        <source>Scroll up</source>
        <translation>向上滚动</translation>
    </message>
    <message>
        <source>Scroll right</source>
        <translation>向右滚动</translation>
    </message>
    <message>
        <source>Left edge</source>
        <translation>左边缘</translation>
    </message>
    <message>
        <source>Page down</source>
        <translation>向下翻页</translation>
    </message>
    <message>
        <source>Page left</source>
        <translation>向左翻页</translation>
    </message>
    <message>
        <source>Right edge</source>
        <translation>右边缘</translation>
    </message>
</context>
<context>
    <name>QTabBar</name>
    <message>
        <source>Scroll Left</source>
        <translation>向左滚动</translation>
    </message>
    <message>
        <source>Scroll Right</source>
        <translation>向右滚动</translation>
    </message>
</context>
<context>
    <name>QUnicodeControlCharacterMenu</name>
    <message>
        <source>RLE Start of right-to-left embedding</source>
        <translation>RLE 开始从右向左嵌入</translation>
    </message>
    <message>
        <source>ZWSP Zero width space</source>
        <translation>ZWSP 零宽度空格</translation>
    </message>
    <message>
        <source>LRI Left-to-right isolate</source>
        <translation>LRI 从左到右隔离</translation>
    </message>
    <message>
        <source>Insert Unicode control character</source>
        <translation>插入 Unicode 控制字符</translation>
    </message>
    <message>
        <source>LRO Start of left-to-right override</source>
        <translation>LRO 开始从左向右重写</translation>
    </message>
    <message>
        <source>LRE Start of left-to-right embedding</source>
        <translation>LRE 开始从左到右嵌入</translation>
    </message>
    <message>
        <source>RLI Right-to-left isolate</source>
        <translation>RLI 从右到左隔离</translation>
    </message>
    <message>
        <source>RLM Right-to-left mark</source>
        <translation>RLM 从右向左标记</translation>
    </message>
    <message>
        <source>PDF Pop directional formatting</source>
        <translation>PDF 弹出方向格式</translation>
    </message>
    <message>
        <source>ZWNJ Zero width non-joiner</source>
        <translation>ZWNJ 零宽不连字</translation>
    </message>
    <message>
        <source>RLO Start of right-to-left override</source>
        <translation>RLO 开始从右向左重写</translation>
    </message>
    <message>
        <source>PDI Pop directional isolate</source>
        <translation>PDI 弹出定向隔离</translation>
    </message>
    <message>
        <source>ZWJ Zero width joiner</source>
        <translation>ZWJ 零宽连字</translation>
    </message>
    <message>
        <source>LRM Left-to-right mark</source>
        <translation>LRM 从左到右标记</translation>
    </message>
    <message>
        <source>FSI First strong isolate</source>
        <translation>FSI 第一强隔离</translation>
    </message>
</context>
<context>
    <name>QWidgetTextControl</name>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤消(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>全选</translation>
    </message>
    <message>
        <source>Copy &amp;Link Location</source>
        <translation>复制链接地址(&amp;L)</translation>
    </message>
</context>
<context>
    <name>ResetScenarioDialog</name>
    <message>
        <source>Demo: count reset</source>
        <translation>演示：分配次数重置</translation>
    </message>
    <message>
        <source>Seeds a fresh pool at the scenario key, runs steady allocations, evicts one member halfway, restores it with the chosen policy and keeps allocating. The dashboard switches to the scenario pool so the chart shows the restore and the flood (or its absence). Then the forecast is compared with what happened.</source>
        <translation>在场景键上导入一个新池，稳定地分配，中途移出一个成员，按所选策略恢复它，并继续分配。仪表板切换到场景池，图表显示恢复和分配洪峰（或没有洪峰）。随后将预测与实际发生的情况对比。</translation>
    </message>
    <message>
        <source>Restore policy</source>
        <translation>恢复策略</translation>
    </message>
    <message>
        <source>What the restored member&apos;s count becomes</source>
        <translation>被恢复成员的分配次数变为多少</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>Size of the scenario pool (proxy-00, proxy-01, ...)</source>
        <translation>场景池的大小（proxy-00、proxy-01、...）</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>速率</translation>
    </message>
    <message>
        <source>Steady allocations per second</source>
        <translation>每秒稳定分配次数</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> 次/秒</translation>
    </message>
    <message>
        <source>Load before restore</source>
        <translation>恢复前的负载</translation>
    </message>
    <message>
        <source>Seconds of load before the restore; the member is evicted halfway</source>
        <translation>恢复前负载的秒数；成员在中途被移出</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Load after restore</source>
        <translation>恢复后的负载</translation>
    </message>
    <message>
        <source>Seconds of load after the restore</source>
        <translation>恢复后负载的秒数</translation>
    </message>
    <message>
        <source>Scenario key</source>
        <translation>场景键</translation>
    </message>
    <message>
        <source>The scenario writes its own pool here, replacing what is there</source>
        <translation>场景在此写入自己的池，替换原有内容</translation>
    </message>
    <message>
        <source>poolscope:reset-demo</source>
        <translation>poolscope:reset-demo</translation>
    </message>
    <message>
        <source>Time elapsed in the scenario</source>
        <translation>场景已用时间</translation>
    </message>
    <message>
        <source>The forecast next to what happened</source>
        <translation>预测与实际发生情况的对比</translation>
    </message>
</context>
<context>
    <name>RestoreDialog</name>
    <message>
        <source>Restore evicted members</source>
        <translation>恢复被移出的成员</translation>
    </message>
    <message>
        <source>Restore with count</source>
        <translation>恢复时的分配次数</translation>
    </message>
    <message>
        <source>What the restored member&apos;s count becomes</source>
        <translation>被恢复成员的分配次数变为多少</translation>
    </message>
    <message>
        <source>Starting count</source>
        <translation>初始计数</translation>
    </message>
    <message>
        <source>The agreed starting count, used by the &quot;start&quot; policy</source>
        <translation>约定的初始计数，由“初始值”策略使用</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>Forecast</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>allocate.lua always picks the lowest count: a member restored below the pool minimum takes every allocation until it has caught up. Updated with every poll.</source>
        <translation>allocate.lua 总是选择分配次数最低的成员：恢复到低于池最小值的成员会得到每一次分配，直到它追赶上来。每次轮询都会更新。</translation>
    </message>
</context>
<context>
    <name>SeedDialog</name>
    <message>
        <source>Seed the pool</source>
        <translation>导入成员到池</translation>
    </message>
    <message>
        <source>The pool this dialog writes to</source>
        <translation>此对话框写入的池</translation>
    </message>
    <message>
        <source>Import a proxy list: open a file, paste it, or drop a file here. One proxy per line (host:port, scheme://host:port, CSV with a host/port header, or a JSON array). Nothing is written until you press Seed.</source>
        <translation>导入代理列表：打开文件、粘贴，或将文件拖放到此处。每行一个代理（host:port、scheme://host:port、带 host/port 表头的 CSV，或 JSON 数组）。按下“导入”之前不会写入任何内容。</translation>
    </message>
    <message>
        <source>Read a proxy list from a file</source>
        <translation>从文件读取代理列表</translation>
    </message>
    <message>
        <source>Open file…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>Replace the text below with the clipboard</source>
        <translation>用剪贴板替换下面的文本</translation>
    </message>
    <message>
        <source>Paste</source>
        <translation>粘贴</translation>
    </message>
    <message>
        <source>Reject private, loopback, link-local, CGNAT, multicast, reserved and documentation addresses, and IPv6 addresses that carry one (IPv4-mapped, 6to4, Teredo, NAT64)</source>
        <translation>拒绝私有、环回、链路本地、CGNAT、组播、保留和文档地址，以及携带这类地址的 IPv6 地址（IPv4 映射、6to4、Teredo、NAT64）</translation>
    </message>
    <message>
        <source>Public addresses only</source>
        <translation>仅限公网地址</translation>
    </message>
    <message>
        <source>The proxy list. Drop a file or paste text here.</source>
        <translation>代理列表。将文件拖放到此处或粘贴文本。</translation>
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
        <translation>已接受</translation>
    </message>
    <message>
        <source>Members that will be written, with the line they came from</source>
        <translation>将要写入的成员，以及它们来自的行</translation>
    </message>
    <message>
        <source>line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>member</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Lines that will not be written, and why (long reasons wrap; hover a row for the whole of it)</source>
        <translation>不会写入的行及其原因（过长的原因会换行；将鼠标悬停在行上可查看全部）</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>重复项</translation>
    </message>
    <message>
        <source>Members that occur more than once in the list: each is written once, from the line kept</source>
        <translation>在列表中出现不止一次的成员：每个只写入一次，取自保留的那一行</translation>
    </message>
    <message>
        <source>kept line</source>
        <translation>保留的行</translation>
    </message>
    <message>
        <source>times in the list</source>
        <translation>在列表中的次数</translation>
    </message>
    <message>
        <source>collapsed lines</source>
        <translation>合并的行</translation>
    </message>
    <message>
        <source>Starting count</source>
        <translation>初始计数</translation>
    </message>
    <message>
        <source>New members start at this count</source>
        <translation>新成员以此分配次数开始</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>分配次数</translation>
    </message>
    <message>
        <source>A whole number from 0 to 2^53</source>
        <translation>0 到 2^53 之间的整数</translation>
    </message>
    <message>
        <source>0</source>
        <translation>0</translation>
    </message>
    <message>
        <source>New members start at the pool&apos;s lowest count when they are written: no flood</source>
        <translation>新成员在写入时以池的最低分配次数开始：不会出现分配洪峰</translation>
    </message>
    <message>
        <source>Pool minimum</source>
        <translation>池最小值</translation>
    </message>
    <message>
        <source>Also reset the count of members that are already in the pool</source>
        <translation>同时重置池中已有成员的分配次数</translation>
    </message>
    <message>
        <source>Reset members already in the pool</source>
        <translation>重置池中已有的成员</translation>
    </message>
    <message>
        <source>Members written so far</source>
        <translation>已写入的成员</translation>
    </message>
</context>
<context>
    <name>TestAllocationDialog</name>
    <message>
        <source>Test allocations</source>
        <translation>测试分配</translation>
    </message>
    <message>
        <source>Allocate proxies the way workers do: allocate.lua by EVALSHA, each worker on its own connection. Every allocation really increments a count.</source>
        <translation>像工作进程那样分配代理：通过 EVALSHA 运行 allocate.lua，每个工作进程使用自己的连接。每次分配都会真正增加一个分配次数。</translation>
    </message>
    <message>
        <source>Stop after this many allocations</source>
        <translation>达到这么多次分配后停止</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>分配次数</translation>
    </message>
    <message>
        <source>How many allocations in all</source>
        <translation>总共分配多少次</translation>
    </message>
    <message>
        <source>Run for this long instead of a fixed number</source>
        <translation>运行这么长时间，而不是固定次数</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Seconds to run</source>
        <translation>运行的秒数</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>工作进程</translation>
    </message>
    <message>
        <source>Threads, each with its own Redis connection</source>
        <translation>线程，每个都有自己的 Redis 连接</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <source>Allocations in flight per worker</source>
        <translation>每个工作进程同时进行中的分配数</translation>
    </message>
    <message>
        <source>Rate limit</source>
        <translation>速率限制</translation>
    </message>
    <message>
        <source>Allocations per second, all workers together; 0 = as fast as the server allows</source>
        <translation>每秒分配次数，所有工作进程合计；0 = 服务器允许的最快速度</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> 次/秒</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>The atomic script, or the naive ZRANGE then ZINCRBY (the race demo: counts collisions)</source>
        <translation>原子脚本，或朴素的 ZRANGE 加 ZINCRBY（竞争演示：统计冲突）</translation>
    </message>
    <message>
        <source>Allocations done</source>
        <translation>已完成的分配</translation>
    </message>
    <message>
        <source>Current allocation rate of this run</source>
        <translation>本次运行的当前分配速率</translation>
    </message>
    <message>
        <source>Summary of the last run</source>
        <translation>上次运行的摘要</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>reopening the last connection %1 (poolscope --demo starts the demo instead)</source>
        <translation>正在重新打开上次的连接 %1（poolscope --demo 则启动演示）</translation>
    </message>
</context>
<context>
    <name>poolscope</name>
    <message>
        <source>choose the server&apos;s CA in File ▸ Connections... ▸ Edit... ▸ CA file</source>
        <translation>在 文件 ▸ 连接... ▸ 编辑... ▸ CA 文件 中选择服务器的 CA</translation>
    </message>
    <message>
        <source>connect by one of those names, or enter the expected one in File ▸ Connections... ▸ Edit... ▸ Server name</source>
        <translation>使用这些名称之一连接，或在 文件 ▸ 连接... ▸ 编辑... ▸ 服务器名称 中输入预期的名称</translation>
    </message>
    <message>
        <source>check its fingerprint, then connect again and choose Trust, or tick &quot;Accept and record an unknown host key&quot; in File ▸ Connections... ▸ Edit...</source>
        <translation>核对其指纹，然后重新连接并选择“信任”，或在 文件 ▸ 连接... ▸ 编辑... 中勾选“接受并记录未知的主机密钥”</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertRules</name>
    <message>
        <source>Pool empty</source>
        <translation>池为空</translation>
    </message>
    <message>
        <source>Few members</source>
        <translation>成员过少</translation>
    </message>
    <message>
        <source>Fewest members</source>
        <translation>最少成员数</translation>
    </message>
    <message>
        <source>Many evicted</source>
        <translation>移出过多</translation>
    </message>
    <message>
        <source>Evicted share (%)</source>
        <translation>移出比例（%）</translation>
    </message>
    <message>
        <source>One member floods</source>
        <translation>一个成员占满分配</translation>
    </message>
    <message>
        <source>Share of the allocations (%)</source>
        <translation>分配份额（%）</translation>
    </message>
    <message>
        <source>Allocations in the window, at least</source>
        <translation>窗口内的分配次数，至少</translation>
    </message>
    <message>
        <source>Members in the pool, at least</source>
        <translation>池中成员数，至少</translation>
    </message>
    <message>
        <source>A member starves</source>
        <translation>有成员饥饿</translation>
    </message>
    <message>
        <source>Without allocation for (s)</source>
        <translation>未获分配的时长（秒）</translation>
    </message>
    <message>
        <source>While the pool allocated, per member, at least</source>
        <translation>池的分配量（每个成员），至少</translation>
    </message>
    <message>
        <source>Counts spread apart</source>
        <translation>分配次数差距过大</translation>
    </message>
    <message>
        <source>Highest minus lowest count, at most</source>
        <translation>最高减最低分配次数，至多</translation>
    </message>
    <message>
        <source>Unfair pool</source>
        <translation>池不公平</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index, at least</source>
        <translation>Jain 公平性指数，至少</translation>
    </message>
    <message>
        <source>Workers stopped</source>
        <translation>工作进程已停止</translation>
    </message>
    <message>
        <source>Allocation rate changed</source>
        <translation>分配速率变化</translation>
    </message>
    <message>
        <source>Factor from the baseline</source>
        <translation>相对基线的倍数</translation>
    </message>
    <message>
        <source>Baseline allocations/s, at least</source>
        <translation>基线分配次数/秒，至少</translation>
    </message>
    <message>
        <source>Guard at its cap</source>
        <translation>守护程序达到上限</translation>
    </message>
    <message>
        <source>No guard on duty</source>
        <translation>没有守护程序值守</translation>
    </message>
    <message>
        <source>Server unreachable</source>
        <translation>服务器不可达</translation>
    </message>
    <message>
        <source>Failover</source>
        <translation>故障转移</translation>
    </message>
    <message>
        <source>Reported for (s)</source>
        <translation>报告时长（秒）</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>The pool has no member: every allocation returns nil.</source>
        <translation>池中没有成员：每次分配都返回 nil。</translation>
    </message>
    <message>
        <source>Fewer than %1 members in the pool (but not none): each one left takes a large share of the load.</source>
        <translation>池中成员少于 %1 个（但不为零）：剩下的每一个都承担很大一部分负载。</translation>
    </message>
    <message>
        <source>At least %1% of the pool&apos;s members are evicted (a guard at its default cap evicts no more).</source>
        <translation>池中至少 %1% 的成员被移出（默认上限的守护程序不会再移出更多）。</translation>
    </message>
    <message>
        <source>One member takes more than %1% of the last window&apos;s allocations (at least %2 of them, %3 members or more): the flood after a restore at count 0.</source>
        <translation>一个成员占了上一个窗口中超过 %1% 的分配（至少 %2 次，成员 %3 个或以上）：这是以分配次数 0 恢复后的分配洪峰。</translation>
    </message>
    <message>
        <source>A member has had no allocation for %1 while the pool made at least %2 per member: its count is far above the others&apos;.</source>
        <translation>有成员已 %1 未获分配，而池中每个成员至少分配了 %2 次：它的分配次数远高于其他成员。</translation>
    </message>
    <message>
        <source>The highest and the lowest count are more than %1 apart.</source>
        <translation>最高与最低分配次数相差超过 %1。</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index of the counts is below %1.</source>
        <translation>分配次数的 Jain 公平性指数低于 %1。</translation>
    </message>
    <message>
        <source>No allocation at all while the pool has members: the workers have stopped or cannot reach Redis.</source>
        <translation>池中有成员却完全没有分配：工作进程已停止或无法连接 Redis。</translation>
    </message>
    <message>
        <source>The allocation rate is %1 times above or below its baseline (the minutes before; at least %2 allocations/s).</source>
        <translation>分配速率是其基线的 %1 倍以上或以下（之前几分钟的速率；至少 %2 次/秒）。</translation>
    </message>
    <message>
        <source>The guard holds back evictions at its cap: the target or the network looks down.</source>
        <translation>守护程序在上限处暂停移出：目标或网络似乎已宕机。</translation>
    </message>
    <message>
        <source>A guard watched this pool in the last day, but none holds its lease now: dead members are neither evicted nor restored.</source>
        <translation>过去一天曾有守护程序监视此池，但现在没有守护程序持有其租约：失效的成员既不会被移出也不会被恢复。</translation>
    </message>
    <message>
        <source>The Redis server cannot be reached.</source>
        <translation>无法连接 Redis 服务器。</translation>
    </message>
    <message>
        <source>The pool moved to another server: the Sentinel primary changed or the cluster slot moved (reported for %1).</source>
        <translation>池已转移到另一台服务器：哨兵主节点已变更或集群槽已迁移（已报告 %1）。</translation>
    </message>
</context>
<context>
    <name>poolscope::Alerts</name>
    <message>
        <source>the server cannot be reached: nothing is known of the pool now</source>
        <translation>无法连接服务器：目前对池一无所知</translation>
    </message>
    <message>
        <source>not connected yet</source>
        <translation>尚未连接</translation>
    </message>
    <message>
        <source>no poll yet</source>
        <translation>尚未轮询</translation>
    </message>
    <message>
        <source>pool %1 is empty: every allocation returns nil</source>
        <translation>池 %1 为空：每次分配都返回 nil</translation>
    </message>
    <message>
        <source>pool %1 has %2 members</source>
        <translation>池 %1 有 %2 个成员</translation>
    </message>
    <message>
        <source>counts spread by %1 (highest %2, lowest %3; at most %4)</source>
        <translation>分配次数相差 %1（最高 %2，最低 %3；至多 %4）</translation>
    </message>
    <message>
        <source>Jain&apos;s index unknown until the first totals scan is through</source>
        <translation>在第一次总数扫描完成之前 Jain 指数未知</translation>
    </message>
    <message>
        <source>Jain&apos;s fairness index %1 (at least %2)</source>
        <translation>Jain 公平性指数 %1（至少 %2）</translation>
    </message>
    <message>
        <source>pool %1 has %2 members (at least %3 wanted)</source>
        <translation>池 %1 有 %2 个成员（至少需要 %3 个）</translation>
    </message>
    <message>
        <source>%1 of the members evicted (%2 of %3; below %4% wanted)</source>
        <translation>%1 的成员被移出（%3 个中的 %2 个；要求低于 %4%）</translation>
    </message>
    <message>
        <source>no allocations measured yet (two polls are needed)</source>
        <translation>尚未测得分配（需要两次轮询）</translation>
    </message>
    <message>
        <source>%1 members: too few to tell a flood</source>
        <translation>%1 个成员：太少，无法判断分配洪峰</translation>
    </message>
    <message>
        <source>%1 allocations in the last %2: too few to tell a flood</source>
        <translation>最近 %2 内 %1 次分配：太少，无法判断分配洪峰</translation>
    </message>
    <message>
        <source>%1 took %2 of the last %3&apos;s allocations (%4 of %5; at most %6% wanted)</source>
        <translation>%1 占了最近 %3 内分配的 %2（%5 次中的 %4 次；要求至多 %6%）</translation>
    </message>
    <message>
        <source>one poll only: no member can be seen idle yet</source>
        <translation>只轮询了一次：还看不出哪个成员空闲</translation>
    </message>
    <message>
        <source>no member starves</source>
        <translation>没有成员饥饿</translation>
    </message>
    <message>
        <source>%1 has had no allocation for %2 while the pool made %3 (starved after %4 and %5)</source>
        <translation>%1 已 %2 未获分配，而池中分配了 %3 次（饥饿判定：%4 和 %5 之后）</translation>
    </message>
    <message>
        <source>the pool is empty: nothing to allocate</source>
        <translation>池为空：没有可分配的成员</translation>
    </message>
    <message>
        <source>%1 allocations in the last %2 (%3/s)</source>
        <translation>最近 %2 内 %1 次分配（%3 次/秒）</translation>
    </message>
    <message>
        <source>no baseline yet (it takes minutes of polls)</source>
        <translation>尚无基线（需要几分钟的轮询）</translation>
    </message>
    <message>
        <source>%1 allocations/s now, %2/s before</source>
        <translation>现在每秒 %1 次分配，之前每秒 %2 次</translation>
    </message>
    <message>
        <source>the guard&apos;s lease and events were not read</source>
        <translation>未读取守护程序的租约和事件</translation>
    </message>
    <message>
        <source>no guard watches this pool</source>
        <translation>没有守护程序监视此池</translation>
    </message>
    <message>
        <source>the guard holds back evictions at its cap: %1</source>
        <translation>守护程序在上限处暂停移出：%1</translation>
    </message>
    <message>
        <source>the guard is not held back</source>
        <translation>守护程序未被暂停</translation>
    </message>
    <message>
        <source>guard %1 holds the lease</source>
        <translation>守护程序 %1 持有租约</translation>
    </message>
    <message>
        <source>no guard holds the lease on pool %1</source>
        <translation>没有守护程序持有池 %1 的租约</translation>
    </message>
    <message>
        <source>the server answers</source>
        <translation>服务器有响应</translation>
    </message>
    <message>
        <source>the server has not answered for %1: %2</source>
        <translation>服务器已 %1 没有响应：%2</translation>
    </message>
    <message>
        <source>no failover seen</source>
        <translation>未发现故障转移</translation>
    </message>
    <message>
        <source>the Sentinel primary changed from %1 to %2 %3 ago</source>
        <translation>哨兵主节点在 %3 前从 %1 变为 %2</translation>
    </message>
    <message>
        <source>the pool&apos;s cluster slot moved from %1 to %2 %3 ago</source>
        <translation>池的集群槽在 %3 前从 %1 迁移到 %2</translation>
    </message>
</context>
<context>
    <name>poolscope::ChartPanel</name>
    <message>
        <source>pool allocations/s</source>
        <translation>池分配次数/秒</translation>
    </message>
    <message>
        <source>pool rate (/s, right axis)</source>
        <translation>池速率（次/秒，右轴）</translation>
    </message>
    <message>
        <source>In a big pool ▲ marks the most allocated members, ▼ the ones allocated next. The dotted grey line is the pool&apos;s allocation rate (right axis).</source>
        <translation>在大池中，▲ 标记分配最多的成员，▼ 标记接下来被分配的成员。灰色虚线是池的分配速率（右轴）。</translation>
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
        <translation>图表显示哪些成员</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>另有 %n 个（见表格）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionBar</name>
    <message>
        <source>Go to the Redis address</source>
        <translation>转到该 Redis 地址</translation>
    </message>
    <message>
        <source>Pause or resume polling (Ctrl+Shift+Space). Writes still work.</source>
        <translation>暂停或恢复轮询（Ctrl+Shift+Space）。写入仍然可用。</translation>
    </message>
    <message>
        <source> &amp;Redis </source>
        <translation> Redis(&amp;R) </translation>
    </message>
    <message>
        <source>  P&amp;ool </source>
        <translation>  池(&amp;O) </translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionPrompter</name>
    <message>
        <source>&amp;Trust this key</source>
        <translation>信任此密钥(&amp;T)</translation>
    </message>
</context>
<context>
    <name>poolscope::DesktopNotifier</name>
    <message>
        <source>Resolved: %1 (%2)</source>
        <translation>已解除：%1（%2）</translation>
    </message>
    <message>
        <source>Firing since %1, clear now: %2</source>
        <translation>自 %1 起触发，现已解除：%2</translation>
    </message>
    <message>
        <source>Critical: %1 (%2)</source>
        <translation>严重：%1（%2）</translation>
    </message>
    <message>
        <source>Warning: %1 (%2)</source>
        <translation>警告：%1（%2）</translation>
    </message>
</context>
<context>
    <name>poolscope::FairnessPanel</name>
    <message>
        <source>– (summary mode: counted from the next polls)</source>
        <translation>–（摘要模式：从接下来的轮询开始统计）</translation>
    </message>
    <message>
        <source>%1 /s (the recording&apos;s last %2)</source>
        <translation>%1 次/秒（录制文件的最后 %2）</translation>
    </message>
    <message>
        <source>– (not in the recording)</source>
        <translation>–（录制文件中没有）</translation>
    </message>
</context>
<context>
    <name>poolscope::GuardPanel</name>
    <message>
        <source>round failed: %1; trying again next round</source>
        <translation>本轮失败：%1；下一轮再试</translation>
    </message>
    <message>
        <source>Start guard</source>
        <translation>启动守护程序</translation>
    </message>
    <message>
        <source>http://host/path fetched through each proxy</source>
        <translation>通过每个代理获取的 http://host/path</translation>
    </message>
    <message>
        <source>Consecutive failed checks before a member is evicted</source>
        <translation>成员被移出之前连续失败的检查次数</translation>
    </message>
    <message>
        <source>Consecutive good checks before an evicted member comes back</source>
        <translation>被移出的成员恢复之前连续成功的检查次数</translation>
    </message>
    <message>
        <source>The evicted share never goes above this: when more fail at once, the target or the network looks down</source>
        <translation>移出比例永远不会超过此值：同时失败的更多时，说明目标或网络似乎已宕机</translation>
    </message>
    <message>
        <source>min (no flood)</source>
        <translation>最小值（无分配洪峰）</translation>
    </message>
    <message>
        <source>keep (saved count)</source>
        <translation>保留（已保存的分配次数）</translation>
    </message>
    <message>
        <source>start</source>
        <translation>初始值</translation>
    </message>
    <message>
        <source>The count a restored member comes back with</source>
        <translation>被恢复的成员所带回的分配次数</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Fall</source>
        <translation>失败次数</translation>
    </message>
    <message>
        <source>Rise</source>
        <translation>恢复次数</translation>
    </message>
    <message>
        <source>Max evicted</source>
        <translation>最多移出</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Interval</source>
        <translation>间隔</translation>
    </message>
    <message>
        <source>Guard off</source>
        <translation>守护程序已关闭</translation>
    </message>
    <message>
        <source>No round yet</source>
        <translation>尚无检查轮次</translation>
    </message>
    <message>
        <source>Guard on, holding the lease as %1</source>
        <translation>守护程序已开启，以 %1 身份持有租约</translation>
    </message>
    <message>
        <source>Guard stopped: the dashboard watches another pool now</source>
        <translation>守护程序已停止：仪表板现在监视另一个池</translation>
    </message>
    <message>
        <source>Stop guard</source>
        <translation>停止守护程序</translation>
    </message>
    <message>
        <source>Guard not started: target URL: %1</source>
        <translation>守护程序未启动：目标 URL：%1</translation>
    </message>
    <message>
        <source>Taking the lease on %1…</source>
        <translation>正在获取 %1 的租约…</translation>
    </message>
    <message>
        <source>another guard (%1) holds the lease: waiting</source>
        <translation>另一个守护程序（%1）持有租约：等待中</translation>
    </message>
    <message>
        <source>%1 checked in %2 ms: %3 up, %4 down; %5 action(s); %6 of %7 evicted</source>
        <translation>%1 在 %2 毫秒内检查完毕：%3 个正常，%4 个失效；%5 个操作；%7 个中 %6 个已移出</translation>
    </message>
    <message>
        <source>Last round (%1): %2</source>
        <translation>上一轮（%1）：%2</translation>
    </message>
    <message>
        <source>Guard off (lease released)</source>
        <translation>守护程序已关闭（租约已释放）</translation>
    </message>
</context>
<context>
    <name>poolscope::MainWindow</name>
    <message>
        <source>Open recording</source>
        <translation>打开录制文件</translation>
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
        <translation>未连接到 %1：“%2”上次读取于 %3。
“连接”会再试一次。</translation>
    </message>
    <message>
        <source>Not connected: %1
&quot;%2&quot; was last read at %3. Connect tries again.</source>
        <translation>未连接：%1
“%2”上次读取于 %3。“连接”会再试一次。</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolHealth</name>
    <message>
        <source>guard evicted %1: %2</source>
        <translation>守护程序移出了 %1：%2</translation>
    </message>
    <message>
        <source>guard restored %1: %2</source>
        <translation>守护程序恢复了 %1：%2</translation>
    </message>
    <message>
        <source>guard restored %1: %2; restored at count %3 (policy %4)</source>
        <translation>守护程序恢复了 %1：%2；恢复时分配次数为 %3（策略 %4）</translation>
    </message>
    <message>
        <source>guard held back: %1</source>
        <translation>守护程序暂停：%1</translation>
    </message>
    <message>
        <source>guard %1</source>
        <translation>守护程序 %1</translation>
    </message>
    <message>
        <source>guard %1%2: %3</source>
        <translation>守护程序 %1%2：%3</translation>
    </message>
    <message>
        <source>a check round is already running</source>
        <translation>已有一轮检查正在运行</translation>
    </message>
    <message>
        <source>no pool is watched</source>
        <translation>没有监视任何池</translation>
    </message>
    <message>
        <source>no member selected</source>
        <translation>未选择成员</translation>
    </message>
    <message>
        <source>target URL &quot;%1&quot;: %2</source>
        <translation>目标 URL“%1”：%2</translation>
    </message>
    <message numerus="yes">
        <source>checking %n member(s) through their proxies against %1</source>
        <translation>
            <numerusform>正在通过代理检查 %n 个成员，目标为 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>check results not saved: %1</source>
        <translation>检查结果未保存：%1</translation>
    </message>
    <message numerus="yes">
        <source>checked %n member(s) in %1 ms: %2 up, %3 down, %4 not checkable</source>
        <translation>
            <numerusform>在 %1 毫秒内检查了 %n 个成员：%2 个正常，%3 个失效，%4 个无法检查</numerusform>
        </translation>
    </message>
    <message>
        <source>the guard is already running</source>
        <translation>守护程序已在运行</translation>
    </message>
    <message>
        <source>Guard not started: no live pool is watched</source>
        <translation>守护程序未启动：没有监视实时池</translation>
    </message>
    <message>
        <source>Guard not started: %1</source>
        <translation>守护程序未启动：%1</translation>
    </message>
    <message>
        <source>Guard not started: another guard (%1) holds the lease on this pool</source>
        <translation>守护程序未启动：另一个守护程序（%1）持有此池的租约</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolSession</name>
    <message>
        <source>cluster: the pool&apos;s slot %1 moved from node %2 to node %3</source>
        <translation>集群：池的槽 %1 从节点 %2 迁移到节点 %3</translation>
    </message>
    <message>
        <source>not watched</source>
        <translation>未监视</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsPanel</name>
    <message>
        <source>Connect to see every pool on the server or cluster.</source>
        <translation>连接后可查看服务器或集群上的所有池。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Double-click a pool to watch it</source>
        <translation>双击一个池以监视它</translation>
    </message>
    <message numerus="yes">
        <source>%n pool(s)</source>
        <translation>
            <numerusform>%n 个池</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s)</source>
        <translation>
            <numerusform> 分布在 %n 个节点上</numerusform>
        </translation>
    </message>
    <message>
        <source>, read at %1</source>
        <translation>，读取于 %1</translation>
    </message>
    <message>
        <source>Could not read the pools: %1</source>
        <translation>无法读取池：%1</translation>
    </message>
    <message>
        <source>Reading the pools of %1…</source>
        <translation>正在读取 %1 的池…</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolsTableModel</name>
    <message>
        <source>Estimated: pool size × rise of the median count per second (the pool is too big to sum in one bounded read)</source>
        <translation>估算值：池大小 × 中位分配次数每秒的增量（池太大，无法在一次有界读取中求和）</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>池</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最低</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最高</translation>
    </message>
    <message>
        <source>Spread</source>
        <translation>极差</translation>
    </message>
    <message>
        <source>Evicted</source>
        <translation>已移出</translation>
    </message>
    <message>
        <source>Alloc/s</source>
        <translation>分配/秒</translation>
    </message>
</context>
<context>
    <name>poolscope::RecentRecordings</name>
    <message>
        <source>Recent recordings</source>
        <translation>最近的录制文件</translation>
    </message>
    <message>
        <source>%1 is gone: removed from the recent recordings</source>
        <translation>%1 已不存在：已从最近的录制文件中移除</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>No recordings opened yet</source>
        <translation>尚未打开过录制文件</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>清空列表</translation>
    </message>
</context>
<context>
    <name>poolscope::ResetScenarioDialog</name>
    <message>
        <source>the count-reset scenario&apos;s pool was left: the demo, paused for the scenario, is on again</source>
        <translation>已离开分配次数重置场景的池：为场景暂停的演示已重新开启</translation>
    </message>
</context>
<context>
    <name>poolscope::SeedDialog</name>
    <message>
        <source>Pool minimum (now %1)</source>
        <translation>池最小值（当前 %1）</translation>
    </message>
    <message>
        <source>Pool minimum (pool empty: 0)</source>
        <translation>池最小值（池为空：0）</translation>
    </message>
    <message>
        <source>Pool minimum (not read yet)</source>
        <translation>池最小值（尚未读取）</translation>
    </message>
    <message>
        <source>Load or paste a list: its new members will join at the pool minimum.</source>
        <translation>加载或粘贴一个列表：其中的新成员将以池最小值加入。</translation>
    </message>
    <message>
        <source>Load or paste a list to see whether its new members would flood the pool.</source>
        <translation>加载或粘贴一个列表，看看其中的新成员是否会造成分配洪峰。</translation>
    </message>
    <message>
        <source>The pool has not been read yet: the flood forecast follows its first poll.</source>
        <translation>尚未读取池：分配洪峰预测在第一次轮询后给出。</translation>
    </message>
</context>
<context>
    <name>poolscope::StatusBarPanel</name>
    <message>
        <source>Server and version</source>
        <translation>服务器和版本</translation>
    </message>
    <message>
        <source>recording: last poll %1</source>
        <translation>录制文件：上次轮询 %1</translation>
    </message>
    <message>
        <source>recording</source>
        <translation>录制</translation>
    </message>
</context>
<context>
    <name>poolscope::i18n::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System language (%1)</source>
        <translation>系统语言（%1）</translation>
    </message>
    <message>
        <source>The language the desktop asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English when poolscope does not have it</source>
        <translation>桌面环境要求的语言（LANGUAGE、LC_ALL、LC_MESSAGES、LANG）；poolscope 没有该语言时使用英语</translation>
    </message>
    <message>
        <source>Applies the next time poolscope starts</source>
        <translation>下次启动 poolscope 时生效</translation>
    </message>
    <message>
        <source>Chinese (Simplified)</source>
        <translation>简体中文</translation>
    </message>
    <message>
        <source>Uyghur</source>
        <translation>维吾尔语</translation>
    </message>
    <message>
        <source>Punjabi (Gurmukhi)</source>
        <translation>旁遮普语（古木基文）</translation>
    </message>
    <message>
        <source>Esperanto</source>
        <translation>世界语</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <source>Saved: %1 from the next start of poolscope without %2</source>
        <translation>已保存：不带 %2 再次启动 poolscope 时使用%1</translation>
    </message>
    <message>
        <source>Saved: poolscope stays in %1</source>
        <translation>已保存：poolscope 继续使用%1</translation>
    </message>
    <message>
        <source>Saved: poolscope starts in %1 the next time; this window keeps its language</source>
        <translation>已保存：poolscope 下次启动时使用%1；当前窗口保持原语言</translation>
    </message>
</context>
</TS>
