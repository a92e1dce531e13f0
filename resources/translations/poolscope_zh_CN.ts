<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DisplayFormat</name>
    <message>
        <source>%1 %</source>
        <extracomment>A percentage: the number, then its sign.</extracomment>
        <translation>%1%</translation>
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
        <source>%1 s ago</source>
        <translation>%1 秒前</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>%1 分钟前</translation>
    </message>
    <message>
        <source>%1 h ago</source>
        <translation>%1 小时前</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
</context>
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
    <message>
        <source> (no allocations measured right now, so no time estimate)</source>
        <translation> (当前没有测得分配，因此无法估计时间)</translation>
    </message>
    <message>
        <source>, about %1 at the current rate</source>
        <translation>，按当前速率约需 %1</translation>
    </message>
    <message>
        <source>The pool is empty: this member will receive every allocation until others join.</source>
        <translation>代理池为空：在其他成员加入之前，该成员将获得每一次分配。</translation>
    </message>
    <message>
        <source>The pool is empty: these %L1 members will share every allocation between them.</source>
        <translation>代理池为空：这 %L1 个成员将分摊每一次分配。</translation>
    </message>
    <message>
        <source>No flood: joining at %1, at or above the pool minimum (%2), so it joins the rotation.</source>
        <translation>无分配洪峰：以 %1 加入，不低于池最小值（%2），因此直接加入轮换。</translation>
    </message>
    <message>
        <source>This member will receive the next ~%1 allocations%2.</source>
        <translation>该成员将获得接下来约 %1 次分配%2。</translation>
    </message>
    <message>
        <source>These %L1 members will receive the next ~%2 allocations (~%3 each)%4.</source>
        <translation>这 %L1 个成员将获得接下来约 %2 次分配（每个约 %3 次）%4。</translation>
    </message>
    <message>
        <source>No flood: they join at or above the pool minimum (%1), so they join the rotation.</source>
        <translation>无分配洪峰：它们以不低于池最小值（%1）的分配次数加入，因此直接加入轮换。</translation>
    </message>
    <message>
        <source>These %L1 members will receive the next ~%2 allocations between them%3.</source>
        <translation>这 %L1 个成员将共同获得接下来约 %2 次分配%3。</translation>
    </message>
</context>
<context>
    <name>HealthCell</name>
    <message>
        <source>up</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>down</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>not checkable</source>
        <translation>无法检查</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>up · %1 ms</source>
        <translation>可用 · %1 毫秒</translation>
    </message>
    <message>
        <source>down · %1</source>
        <translation>不可用 · %1</translation>
    </message>
    <message>
        <source>Never checked (Ctrl+K checks the selected members)</source>
        <translation>从未检查（Ctrl+K 检查所选成员）</translation>
    </message>
    <message>
        <source>Last check %1: %2</source>
        <translation>上次检查 %1：%2</translation>
    </message>
    <message>
        <source>Latency %1 ms</source>
        <translation>延迟 %1 毫秒</translation>
    </message>
    <message>
        <source>Target answered HTTP %1</source>
        <translation>目标返回 HTTP %1</translation>
    </message>
    <message>
        <source>%1 consecutive successes, %2 consecutive failures</source>
        <translation>连续成功 %1 次，连续失败 %2 次</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>最近错误：%1</translation>
    </message>
    <message>
        <source>Evicted by the guard</source>
        <translation>已被守护程序移出</translation>
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
    <message>
        <source>pool is empty: no proxy allocated (%1 empty answers)</source>
        <translation>代理池为空：未分配任何代理（%1 次空应答）</translation>
    </message>
    <message>
        <source>allocated %1 in %2 (%3/s)%4</source>
        <translation>在 %2 内分配 %1 次（%3 次/秒）%4</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>，已取消</translation>
    </message>
    <message>
        <source>empty-pool answers: %1 (pool is empty: no proxy allocated)</source>
        <translation>空池应答：%1（代理池为空：未分配任何代理）</translation>
    </message>
    <message>
        <source>empty-pool answers: 0</source>
        <translation>空池应答：0</translation>
    </message>
    <message>
        <source>errors: %1 (%2)</source>
        <translation>错误：%1（%2）</translation>
    </message>
    <message>
        <source>errors: 0</source>
        <translation>错误：0</translation>
    </message>
    <message>
        <source>outcome unknown (no reply, never retried): %1</source>
        <translation>结果未知（无应答，未重试）：%1</translation>
    </message>
    <message>
        <source>latency p50 %1 · p99 %2 · max %3</source>
        <translation>延迟 p50 %1 · p99 %2 · 最大 %3</translation>
    </message>
    <message>
        <source>naive mode: %1 collisions, %2 duplicate picks (the script: always 0)</source>
        <translation>朴素模式：%1 次冲突，%2 次重复选取（脚本方式：始终为 0）</translation>
    </message>
    <message>
        <source>%1 worker(s), pipeline %2, %3</source>
        <translation>%1 个工作进程，流水线 %2，%3</translation>
    </message>
    <message>
        <source>atomic script</source>
        <translation>原子脚本</translation>
    </message>
    <message>
        <source>naive ZRANGE + ZINCRBY</source>
        <translation>朴素 ZRANGE + ZINCRBY</translation>
    </message>
</context>
<context>
    <name>OutsideChanges</name>
    <message>
        <source> and %L1 more</source>
        <translation type="vanished"> 及另外 %L1 个</translation>
    </message>
    <message>
        <source>pool vanished: %1 members gone (server restarted or key deleted?)</source>
        <translation>代理池消失：%1 个成员不见了（服务器重启或键被删除？）</translation>
    </message>
    <message>
        <source>counts went back by %1 allocations on %L2 members after the primary changed (%3): acknowledged by %4, never replicated</source>
        <translation>主节点变更后（%3），%L2 个成员的分配次数共回退了 %1 次分配：已由 %4 确认，但从未复制</translation>
    </message>
    <message>
        <source>counts went back by %1 allocations on %L2 members (%3), not by poolscope: reset by another client?</source>
        <translation>%L2 个成员的分配次数共回退了 %1 次分配（%3），并非 poolscope 所为：被其他客户端重置？</translation>
    </message>
    <message>
        <source>%L1 members left the pool without an eviction here (%2)</source>
        <translation>%L1 个成员离开了代理池，但此处没有移出操作（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %Ln more</source>
        <comment>%1: member ids, then how many more are not named</comment>
        <translation>
            <numerusform>%1 及另外 %Ln 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PoolMonitor</name>
    <message>
        <source>full snapshot (%1 members)</source>
        <translation>完整快照（%1 个成员）</translation>
    </message>
</context>
<context>
    <name>ProxyList</name>
    <message>
        <source>unknown comment style &quot;%1&quot; (comment lines start with # or ;)</source>
        <translation>未知的注释风格“%1”（注释行以 # 或 ; 开头）</translation>
    </message>
    <message>
        <source>contains an unpaired surrogate (a \uD800-\uDFFF escape without its pair), which is not valid Unicode</source>
        <translation>包含未配对的 UTF-16 代理项（\uD800-\uDFFF 转义缺少与之配对的另一半），这不是有效的 Unicode</translation>
    </message>
    <message>
        <source>contains a NUL byte</source>
        <translation>包含 NUL 字节</translation>
    </message>
    <message>
        <source>unexpected whitespace inside the entry (expected one proxy per line, as host:port)</source>
        <translation>条目中有意外的空白（应每行一个代理，格式为 host:port）</translation>
    </message>
    <message>
        <source>contains the control character U+%1</source>
        <translation>包含控制字符 U+%1</translation>
    </message>
    <message>
        <source>contains a byte-order mark (U+FEFF, invisible), which only the file&apos;s first character may be</source>
        <translation>包含字节顺序标记（U+FEFF，不可见），只有文件的第一个字符可以是它</translation>
    </message>
    <message>
        <source>missing port</source>
        <translation>缺少端口</translation>
    </message>
    <message>
        <source>port %1 is not a number</source>
        <translation>端口 %1 不是数字</translation>
    </message>
    <message>
        <source>port %1 is out of range 1-65535</source>
        <translation>端口 %1 超出范围 1-65535</translation>
    </message>
    <message>
        <source>missing host</source>
        <translation>缺少主机</translation>
    </message>
    <message>
        <source>unterminated [ in IPv6 address</source>
        <translation>IPv6 地址中的 [ 未闭合</translation>
    </message>
    <message>
        <source>%1 is not a valid IPv6 address</source>
        <translation>%1 不是有效的 IPv6 地址</translation>
    </message>
    <message>
        <source>host %1 contains &quot;:&quot; but is not a valid IPv6 address</source>
        <translation>主机 %1 包含“:”，但不是有效的 IPv6 地址</translation>
    </message>
    <message>
        <source>missing scheme before &quot;://&quot;</source>
        <translation>“://”之前缺少协议</translation>
    </message>
    <message>
        <source>invalid scheme %1</source>
        <translation>无效的协议 %1</translation>
    </message>
    <message>
        <source>empty credentials before &quot;@&quot;</source>
        <translation>“@”之前的凭据为空</translation>
    </message>
    <message>
        <source>unexpected path %1 after the port</source>
        <translation>端口之后有意外的路径 %1</translation>
    </message>
    <message>
        <source>missing host and port</source>
        <translation>缺少主机和端口</translation>
    </message>
    <message>
        <source>empty [] where an IPv6 address belongs</source>
        <translation>应为 IPv6 地址的位置是空的 []</translation>
    </message>
    <message>
        <source>unexpected text %1 after &quot;]&quot;</source>
        <translation>“]”之后有意外的文本 %1</translation>
    </message>
    <message>
        <source>IPv6 address must be written in brackets, as in [2001:db8::1]:8080</source>
        <translation>IPv6 地址必须写在方括号内，如 [2001:db8::1]:8080</translation>
    </message>
    <message>
        <source>too many &quot;:&quot; (expected host:port; write credentials as scheme://user:pass@host:port)</source>
        <translation>“:”过多（应为 host:port；凭据请写作 scheme://user:pass@host:port）</translation>
    </message>
    <message>
        <source>not valid UTF-8</source>
        <translation>不是有效的 UTF-8</translation>
    </message>
    <message>
        <source>hexadecimal</source>
        <comment>a way of writing an IPv4 address: 0x7f.0.0.1</comment>
        <translation>十六进制</translation>
    </message>
    <message>
        <source>octal</source>
        <comment>a way of writing an IPv4 address: 0177.0.0.1</comment>
        <translation>八进制</translation>
    </message>
    <message>
        <source>shortened</source>
        <comment>a way of writing an IPv4 address: 127.1 (fewer than 4 parts)</comment>
        <translation>缩写</translation>
    </message>
    <message>
        <source>%1 is an unspecified address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 是未指定地址</translation>
    </message>
    <message>
        <source>%1 is a reserved address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 是保留地址</translation>
    </message>
    <message>
        <source>%1 is a private address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 是私有地址</translation>
    </message>
    <message>
        <source>%1 is a CGNAT address</source>
        <comment>%1: an IP address; CGNAT: carrier-grade NAT, 100.64.0.0/10</comment>
        <translation>%1 是 CGNAT 地址</translation>
    </message>
    <message>
        <source>%1 is a loopback address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 是环回地址</translation>
    </message>
    <message>
        <source>%1 is a link-local address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 是链路本地地址</translation>
    </message>
    <message>
        <source>%1 is a site-local address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 是站点本地地址</translation>
    </message>
    <message>
        <source>%1 is a documentation address</source>
        <comment>%1: an IP address in a range reserved for examples in documentation</comment>
        <translation>%1 是文档地址</translation>
    </message>
    <message>
        <source>%1 is a multicast address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 是组播地址</translation>
    </message>
    <message>
        <source>%1 is a broadcast address</source>
        <comment>%1: an IP address</comment>
        <translation>%1 是广播地址</translation>
    </message>
    <message>
        <source>%1 is a reserved (deprecated IPv4-compatible) address</source>
        <comment>%1: an IPv6 address of the form ::a.b.c.d</comment>
        <translation>%1 是保留地址（已弃用的 IPv4 兼容地址）</translation>
    </message>
    <message>
        <source>unspecified</source>
        <comment>a kind of IP address: 0.0.0.0 (unspecified)</comment>
        <translation>未指定</translation>
    </message>
    <message>
        <source>reserved</source>
        <comment>a kind of IP address: 240.0.0.1 (reserved)</comment>
        <translation>保留</translation>
    </message>
    <message>
        <source>private</source>
        <comment>a kind of IP address: 10.0.0.1 (private)</comment>
        <translation>私有</translation>
    </message>
    <message>
        <source>CGNAT</source>
        <comment>a kind of IP address: 100.64.0.1 (CGNAT)</comment>
        <translation>CGNAT</translation>
    </message>
    <message>
        <source>loopback</source>
        <comment>a kind of IP address: 127.0.0.1 (loopback)</comment>
        <translation>环回</translation>
    </message>
    <message>
        <source>link-local</source>
        <comment>a kind of IP address: 169.254.0.1 (link-local)</comment>
        <translation>链路本地</translation>
    </message>
    <message>
        <source>site-local</source>
        <comment>a kind of IP address</comment>
        <translation>站点本地</translation>
    </message>
    <message>
        <source>documentation</source>
        <comment>a kind of IP address: 192.0.2.1 (documentation), a range reserved for examples</comment>
        <translation>文档</translation>
    </message>
    <message>
        <source>multicast</source>
        <comment>a kind of IP address: 224.0.0.1 (multicast)</comment>
        <translation>组播</translation>
    </message>
    <message>
        <source>broadcast</source>
        <comment>a kind of IP address: 255.255.255.255 (broadcast)</comment>
        <translation>广播</translation>
    </message>
    <message>
        <source>%1 is an IPv4-mapped address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 是 %2（%3）的 IPv4 映射地址</translation>
    </message>
    <message>
        <source>%1 is an IPv4-compatible address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 是 %2（%3）的 IPv4 兼容地址</translation>
    </message>
    <message>
        <source>%1 is a NAT64 address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 是 %2（%3）的 NAT64 地址</translation>
    </message>
    <message>
        <source>%1 is a 6to4 address for %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 是 %2（%3）的 6to4 地址</translation>
    </message>
    <message>
        <source>%1 is a Teredo address for client %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the Teredo client&apos;s IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 是客户端 %2（%3）的 Teredo 地址</translation>
    </message>
    <message>
        <source>%1 is a Teredo address for server %2 (%3)</source>
        <comment>%1: an IPv6 address, %2: the Teredo server&apos;s IPv4 address in it, %3: the kind of %2 (loopback, private, ...)</comment>
        <translation>%1 是服务器 %2（%3）的 Teredo 地址</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no scheme is allowed: (allowed: none)</comment>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <source>%n more</source>
        <comment>ports not listed</comment>
        <translation>
            <numerusform>另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>scheme %1 is not allowed (allowed: %2)</source>
        <comment>%1: a URL scheme such as socks5, %2: a list of them</comment>
        <translation>不允许协议 %1（允许的协议：%2）</translation>
    </message>
    <message>
        <source>port %1 is not in the allowed ports (%2)</source>
        <comment>%2: a list of port numbers</comment>
        <translation>端口 %1 不在允许的端口中（%2）</translation>
    </message>
    <message>
        <source>IPv4 address %1 (= %2) is not accepted in %3 form: write it as %2</source>
        <comment>%1: the address as written, %2: the same in dotted decimal, %3: how it departs from dotted decimal (hexadecimal, octal, shortened; several joined by /)</comment>
        <translation>不接受%3形式的 IPv4 地址 %1（= %2）：请写作 %2</translation>
    </message>
    <message>
        <source>%1 is a loopback name</source>
        <comment>%1: a host name such as localhost</comment>
        <translation>%1 是环回主机名</translation>
    </message>
    <message>
        <source>host %1 is not a valid IPv4 address, IPv6 address or DNS name</source>
        <translation>主机 %1 不是有效的 IPv4 地址、IPv6 地址或 DNS 名称</translation>
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
    <message>
        <source>Show </source>
        <translation>显示 </translation>
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
    <name>RestorePolicy</name>
    <message>
        <source>keep</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy keep).</extracomment>
        <translation>保留</translation>
    </message>
    <message>
        <source>zero</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy zero).</extracomment>
        <translation>归零</translation>
    </message>
    <message>
        <source>start</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy start).</extracomment>
        <translation>初始值</translation>
    </message>
    <message>
        <source>min</source>
        <extracomment>A restore policy&apos;s name in the window (the CLI&apos;s --policy min): the pool&apos;s minimum.</extracomment>
        <translation>最小值</translation>
    </message>
    <message>
        <source>keep: back at its saved count, where it left off</source>
        <translation>保留：恢复到保存的分配次数，从离开处继续</translation>
    </message>
    <message>
        <source>zero: back at 0; it takes every allocation until it catches up</source>
        <translation>归零：恢复到 0；在追赶上之前它会获得每一次分配</translation>
    </message>
    <message>
        <source>start: back at the agreed starting count</source>
        <translation>初始值：恢复到约定的初始计数</translation>
    </message>
    <message>
        <source>min: back at the pool&apos;s lowest count; joins the rotation, no flood</source>
        <translation>最小值：恢复到池中最低的分配次数；直接加入轮换，无分配洪峰</translation>
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
    <name>WriteLock</name>
    <message>
        <source>Production</source>
        <translation>生产</translation>
    </message>
    <message>
        <source>Staging</source>
        <translation>预发布</translation>
    </message>
    <message>
        <source>Development</source>
        <translation>开发</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>reopening the last connection %1 (poolscope --demo starts the demo instead)</source>
        <translation>正在重新打开上次的连接 %1（poolscope --demo 则启动演示）</translation>
    </message>
    <message>
        <source>cannot start the embedded redis-server: %1. Or connect to a server with --url redis://host:6379/0.</source>
        <translation>无法启动内置 redis-server：%1。也可以用 --url redis://host:6379/0 连接到服务器。</translation>
    </message>
    <message>
        <source>embedded redis-server started (pid %1, %2); it stops when poolscope exits</source>
        <translation>内置 redis-server 已启动（pid %1，%2）；poolscope 退出时它会停止</translation>
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
    <name>poolscope::AlertRulesDialog</name>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Alert rules</source>
        <translation>告警规则</translation>
    </message>
    <message>
        <source>An alert is pending while its condition holds, fires once it has held for the rule&apos;s &quot;for&quot; time, and resolves once the condition has been gone for its &quot;keep firing&quot; time. The defaults are on for every pool; unticked rules are not judged.</source>
        <translation>条件成立时告警处于待定状态；条件持续达到规则的“持续”时间后告警触发；条件消失并持续达到其“保持触发”时间后告警解除。默认规则对每个代理池都启用；未勾选的规则不参与判断。</translation>
    </message>
    <message>
        <source>On</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>For</source>
        <translation>持续</translation>
    </message>
    <message>
        <source>Keep firing</source>
        <translation>保持触发</translation>
    </message>
    <message>
        <source>Thresholds</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>This connection was typed in, not saved: the rules apply to this window until it closes.</source>
        <translation>此连接是手动输入的，未保存：规则仅在此窗口关闭前有效。</translation>
    </message>
    <message>
        <source>Saved with the connection &quot;%1&quot;, for the pool %2.</source>
        <translation>随连接“%1”为代理池 %2 保存。</translation>
    </message>
    <message>
        <source>%1 on</source>
        <translation>%1 启用</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>%1: %2 It fires after %3 and resolves %4 after it is gone.</source>
        <translation>%1：%2 持续 %3 后触发，条件消失 %4 后解除。</translation>
    </message>
</context>
<context>
    <name>poolscope::AlertTray</name>
    <message>
        <source>Keep watching in the &amp;tray when closed</source>
        <translation>关闭时在托盘中继续监视(&amp;T)</translation>
    </message>
    <message>
        <source>This desktop has no system tray: closing the window ends poolscope.</source>
        <translation>此桌面没有系统托盘：关闭窗口即退出 poolscope。</translation>
    </message>
    <message>
        <source>Closing the window hides it: the pool is still watched and its alerts still shown. Quit from the tray icon&apos;s menu.</source>
        <translation>关闭窗口只会将其隐藏：仍会监视代理池并显示其告警。请从托盘图标的菜单中退出。</translation>
    </message>
    <message>
        <source>&amp;Show window</source>
        <translation>显示窗口(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Quit poolscope</source>
        <translation>退出 poolscope(&amp;Q)</translation>
    </message>
    <message>
        <source>poolscope: %1
No alert firing.</source>
        <translation>poolscope：%1
没有触发中的告警。</translation>
    </message>
    <message numerus="yes">
        <source>poolscope: %1
%n alert(s) firing: %2</source>
        <translation>
            <numerusform>poolscope：%1
%n 条告警触发中：%2</numerusform>
        </translation>
    </message>
    <message>
        <source>poolscope: no live pool watched</source>
        <translation>poolscope：未监视任何实时代理池</translation>
    </message>
    <message>
        <source>poolscope is still watching</source>
        <translation>poolscope 仍在监视</translation>
    </message>
    <message>
        <source>The window is closed; alerts still come here. Quit from this icon&apos;s menu.</source>
        <translation>窗口已关闭；告警仍会显示在这里。请从此图标的菜单中退出。</translation>
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
    <name>poolscope::AlertsPanel</name>
    <message>
        <source>&amp;Rules…</source>
        <translation>规则(&amp;R)…</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Since</source>
        <translation>起始时间</translation>
    </message>
    <message>
        <source>Value now</source>
        <translation>当前值</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Active alerts</source>
        <translation>活动告警</translation>
    </message>
    <message>
        <source>Edit this pool&apos;s alert rules</source>
        <translation>编辑此代理池的告警规则</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="vanished">%1：%2</translation>
    </message>
    <message>
        <source>the alert rules could not be saved in &quot;%1&quot;: %2</source>
        <translation>无法将告警规则保存到“%1”：%2</translation>
    </message>
    <message>
        <source>alert rules saved in the connection &quot;%1&quot;</source>
        <translation>告警规则已保存到连接“%1”</translation>
    </message>
    <message>
        <source>firing</source>
        <translation>触发中</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待定</translation>
    </message>
    <message>
        <source>critical</source>
        <translation>严重</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>No live pool watched: no alerts are judged.</source>
        <translation>未监视任何实时代理池：不判断告警。</translation>
    </message>
    <message numerus="yes">
        <source>No alert: %n rule(s) watching this pool.</source>
        <translation>
            <numerusform>无告警：%n 条规则正在监视此代理池。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n alert(s) firing, %1 pending.</source>
        <translation>
            <numerusform>%n 条告警触发中，%1 条待定。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>poolscope::AuditView</name>
    <message>
        <source>seed</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>evict</source>
        <translation>移出</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>evicted hash moved</source>
        <translation>已移出成员的哈希已从旧名称迁移</translation>
    </message>
    <message>
        <source>guard held back</source>
        <translation>守护程序暂停移出</translation>
    </message>
    <message>
        <source>guard no longer held back</source>
        <translation>守护程序不再暂停移出</translation>
    </message>
    <message>
        <source>&amp;Search</source>
        <translation>搜索(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>导出 CSV(&amp;E)…</translation>
    </message>
    <message>
        <source>Audit trail: %1</source>
        <translation>审计日志：%1</translation>
    </message>
    <message>
        <source>part of a member id</source>
        <translation>成员 id 的一部分</translation>
    </message>
    <message>
        <source>user, host, program or guard</source>
        <translation>用户、主机、程序或守护程序</translation>
    </message>
    <message>
        <source>any action</source>
        <translation>任意操作</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>分配次数</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>执行者</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Audit entries</source>
        <translation>审计条目</translation>
    </message>
    <message>
        <source>&amp;Member:</source>
        <translation>成员(&amp;M)：</translation>
    </message>
    <message>
        <source>Ac&amp;tor:</source>
        <translation>执行者(&amp;T)：</translation>
    </message>
    <message>
        <source>Acti&amp;on:</source>
        <translation>操作(&amp;O)：</translation>
    </message>
    <message numerus="yes">
        <source>%n entry(ies) found</source>
        <translation>
            <numerusform>找到 %n 条记录</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 among %2 read: the whole trail.</source>
        <translation>在已读取的 %2 条中%1：已是完整日志。</translation>
    </message>
    <message>
        <source>%1: stopped there, narrow the filters to see older ones.</source>
        <translation>%1：到此为止，请缩小筛选范围以查看更早的条目。</translation>
    </message>
    <message>
        <source>The trail could not be read: %1</source>
        <translation>无法读取日志：%1</translation>
    </message>
    <message>
        <source>No live pool watched: there is no trail to read.</source>
        <translation>未监视任何实时代理池：没有可读取的日志。</translation>
    </message>
    <message>
        <source>Reading the trail…</source>
        <translation>正在读取日志…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Export the audit entries</source>
        <translation>导出审计条目</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>未导出：%1</translation>
    </message>
</context>
<context>
    <name>poolscope::ChartFrame</name>
    <message>
        <source>pool allocations/s</source>
        <translation>代理池分配次数/秒</translation>
    </message>
    <message>
        <source>allocations/s</source>
        <translation>分配次数/秒</translation>
    </message>
    <message>
        <source>count − median</source>
        <translation>分配次数 − 中位数</translation>
    </message>
    <message>
        <source>allocations (count)</source>
        <translation>分配（次数）</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>No connection to Redis: retrying…</source>
        <translation>未连接到 Redis：正在重试…</translation>
    </message>
    <message>
        <source>Not connected (the events panel says why)</source>
        <translation>未连接（原因见事件面板）</translation>
    </message>
    <message>
        <source>Reading the pool fails: %1</source>
        <translation>读取代理池失败：%1</translation>
    </message>
    <message>
        <source>Waiting for the first poll…</source>
        <translation>正在等待第一次轮询…</translation>
    </message>
    <message>
        <source>No pool at this key yet: Seed… to add proxies</source>
        <translation>此键下还没有代理池：用“导入…”添加代理</translation>
    </message>
    <message>
        <source>Collecting data…</source>
        <translation>正在收集数据…</translation>
    </message>
    <message>
        <source>%1 members</source>
        <translation type="vanished">%1 个成员</translation>
    </message>
    <message>
        <source>%1 members (summary): top %2, %3 pinned, the bottom as the pool minimum line + band</source>
        <translation type="vanished">%1 个成员（摘要）：前 %2 个，%3 个已固定，底部以池最小值线 + 区间表示</translation>
    </message>
    <message>
        <source>%1 members (summary): top %2, %3 pinned</source>
        <translation type="vanished">%1 个成员（摘要）：前 %2 个，%3 个已固定</translation>
    </message>
    <message>
        <source>%1 members: top %2, bottom %2, %3 pinned + min/median/max band</source>
        <translation type="vanished">%1 个成员：前 %2 个，后 %2 个，%3 个已固定 + 最小值/中位数/最大值区间</translation>
    </message>
    <message>
        <source>%1 members: top %2, bottom %2, %3 pinned</source>
        <translation type="vanished">%1 个成员：前 %2 个，后 %2 个，%3 个已固定</translation>
    </message>
    <message>
        <source> · %1 hidden</source>
        <translation type="vanished"> · %1 个已隐藏</translation>
    </message>
    <message>
        <source> · zoomed in: Esc or a right click to zoom out</source>
        <translation type="vanished"> · 已放大：按 Esc 或右键单击缩小</translation>
    </message>
    <message>
        <source> · legend hidden (narrow): colours as in the table</source>
        <translation type="vanished"> · 图例已隐藏（窗口过窄）：颜色与表格中一致</translation>
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
        <translation>池速率（次/秒，右轴）</translation>
    </message>
    <message>
        <source>pool min–max − median (%1)</source>
        <translation type="vanished">池最小值–最大值 − 中位数（%1）</translation>
    </message>
    <message>
        <source>pool min–max (%1)</source>
        <translation type="vanished">池最小值–最大值（%1）</translation>
    </message>
    <message>
        <source>pool median (0)</source>
        <translation>池中位数（0）</translation>
    </message>
    <message>
        <source>pool median</source>
        <translation>池中位数</translation>
    </message>
    <message>
        <source>pool minimum − median</source>
        <translation>池最小值 − 中位数</translation>
    </message>
    <message>
        <source>pool minimum</source>
        <translation>池最小值</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation>
            <numerusform>另有 %n 个（见表格）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members</source>
        <comment>the chart&apos;s caption: all of them are charted</comment>
        <translation>
            <numerusform>%Ln 个成员</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln 个成员（摘要）：前 %1 个，%2 个已固定</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members (summary): top %1, %2 pinned, the bottom as the pool minimum line + band</source>
        <comment>the chart&apos;s caption: %1 members with the highest counts and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln 个成员（摘要）：前 %1 个，%2 个已固定，底部以池最小值线 + 区间表示</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln 个成员：前 %1 个，后 %1 个，%2 个已固定</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln members: top %1, bottom %1, %2 pinned + min/median/max band</source>
        <comment>the chart&apos;s caption: %1 members with the highest and %1 with the lowest counts, and %2 pinned ones are charted</comment>
        <translation>
            <numerusform>%Ln 个成员：前 %1 个，后 %1 个，%2 个已固定 + 最小值/中位数/最大值区间</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln hidden</source>
        <comment>the chart&apos;s caption: lines hidden from the chart</comment>
        <translation>
            <numerusform>%Ln 个已隐藏</numerusform>
        </translation>
    </message>
    <message>
        <source>zoomed in: Esc or a right click to zoom out</source>
        <translation>已放大：按 Esc 或右键单击缩小</translation>
    </message>
    <message>
        <source>legend hidden (narrow): colours as in the table</source>
        <translation>图例已隐藏（窗口过窄）：颜色与表格中一致</translation>
    </message>
    <message>
        <source>pool min–max − median (%1)</source>
        <comment>legend: the band of the pool&apos;s counts (scores) minus their median; %1: how many members the pool has</comment>
        <translation>池最小值–最大值 − 中位数（%1）</translation>
    </message>
    <message>
        <source>pool min–max (%1)</source>
        <comment>legend: the band from the pool&apos;s lowest to its highest count (score); %1: how many members the pool has</comment>
        <translation>池最小值–最大值（%1）</translation>
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
        <translation type="vanished">池速率（次/秒，右轴）</translation>
    </message>
    <message>
        <source>In a big pool ▲ marks the most allocated members, ▼ the ones allocated next. The dotted grey line is the pool&apos;s allocation rate (right axis).</source>
        <translation>在大池中，▲ 标记分配最多的成员，▼ 标记接下来被分配的成员。灰色虚线是池的分配速率（右轴）。</translation>
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
        <translation>图表显示哪些成员</translation>
    </message>
    <message numerus="yes">
        <source>+%n more (see the table)</source>
        <translation type="vanished">
            <numerusform>另有 %n 个（见表格）</numerusform>
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
        <translation>时间</translation>
    </message>
    <message>
        <source>pool min–max</source>
        <comment>legend: the band from the pool&apos;s lowest to its highest allocation count (score)</comment>
        <translation>池最小值–最大值</translation>
    </message>
    <message>
        <source>Click a legend entry to hide or show its line; pin members from the table (%1) to keep them charted</source>
        <translation>单击图例项可隐藏或显示其曲线；在表格中固定成员（%1）可让它们一直显示在图表中</translation>
    </message>
    <message>
        <source>Chart each member&apos;s count; its count minus the pool median at each moment (a fair pool is a flat bundle near %1, a flooded or starved member stands out); or how many allocations per second it receives</source>
        <comment>count: how many times a member was allocated (its score)</comment>
        <translation>在图表中显示每个成员的分配次数；或每个时刻其分配次数减去池中位数的差（公平的池是 %1 附近一束平直的线，遭遇分配洪峰或饥饿的成员会很显眼）；或它每秒获得的分配次数</translation>
    </message>
    <message>
        <source>Show</source>
        <comment>label before the box choosing what the chart shows</comment>
        <translation>显示</translation>
    </message>
    <message>
        <source>Window</source>
        <comment>label before the chart&apos;s time span (last 5 min, last hour...), not a window on the screen</comment>
        <translation>时间窗口</translation>
    </message>
    <message>
        <source>Cumulative count</source>
        <comment>chart mode: each member&apos;s allocation count (its score in the sorted set) as it grows</comment>
        <translation>累计分配次数</translation>
    </message>
    <message>
        <source>Difference from median</source>
        <comment>chart mode: each member&apos;s count minus the pool&apos;s median count</comment>
        <translation>与中位数之差</translation>
    </message>
    <message>
        <source>Rate (allocations/s)</source>
        <comment>chart mode: allocations per second each member receives</comment>
        <translation>速率（次/秒）</translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln min</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>最近 %Ln 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>Last hour</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>最近一小时</translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln h</source>
        <comment>the chart&apos;s time span, in a box; h: hours</comment>
        <translation>
            <numerusform>最近 %Ln 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Last %Ln days</source>
        <comment>the chart&apos;s time span, in a box</comment>
        <translation>
            <numerusform>最近 %Ln 天</numerusform>
        </translation>
    </message>
    <message>
        <source>All</source>
        <comment>the chart&apos;s time span, in a box: all the history held</comment>
        <translation>全部</translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln minutes</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>时间窗口：最近 &amp;%Ln 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>Window: last &amp;hour</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>时间窗口：最近一小时(&amp;H)</translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln hours</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>时间窗口：最近 &amp;%Ln 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Window: last &amp;%Ln days</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>
            <numerusform>时间窗口：最近 &amp;%Ln 天</numerusform>
        </translation>
    </message>
    <message>
        <source>Window: &amp;all the history</source>
        <comment>View menu: the chart&apos;s time span; &amp; marks the accelerator</comment>
        <translation>时间窗口：全部历史(&amp;A)</translation>
    </message>
    <message>
        <source>Time window of the chart, ending at the latest poll (%1 … %2). Drag across the chart to zoom into a time range; %3, a right click or Zoom out go back one step, a double click (%4) back to the whole window</source>
        <comment>%1 … %2: the shortcuts of the first and last time windows; %3: the Esc key; %4: the shortcut to the whole window. &quot;Zoom out&quot; is the button&apos;s name</comment>
        <translation>图表的时间窗口，截止到最近一次轮询（%1 … %2）。在图表上拖动可放大到一段时间范围；按 %3、右键单击或“缩小”后退一步，双击（%4）回到整个时间窗口</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <comment>the chart&apos;s time range, back one step</comment>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Back to the time range before the last zoom (%1 or a right click on the chart)</source>
        <comment>%1: the Esc key</comment>
        <translation>回到上次放大之前的时间范围（按 %1 或在图表上右键单击）</translation>
    </message>
    <message>
        <source>Whole window</source>
        <comment>the chart&apos;s whole time span again, out of every zoom step</comment>
        <translation>整个时间窗口</translation>
    </message>
    <message>
        <source>Out of every zoom step, to the whole window (a double click on the chart)</source>
        <comment>window: the chart&apos;s time span, not a window on the screen</comment>
        <translation>退出所有放大步骤，回到整个时间窗口（在图表上双击）</translation>
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
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Find pools</source>
        <translation>查找代理池</translation>
    </message>
    <message>
        <source>Redis URL: redis://[user[:password]@]host[:port][/db] or unix:///path/to/redis.sock. A password is shown masked and never saved.</source>
        <translation>Redis URL：redis://[user[:password]@]host[:port][/db] 或 unix:///path/to/redis.sock。密码以掩码显示，且从不保存。</translation>
    </message>
    <message>
        <source>pool key</source>
        <translation>代理池键</translation>
    </message>
    <message>
        <source>The pool&apos;s sorted-set key. The list offers the sorted sets found on the server (Find pools).</source>
        <translation>代理池的有序集合键。列表中提供在服务器上找到的有序集合（查找代理池）。</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>How often the pool is read. Each read is a few short commands; see the status bar for its round-trip time.</source>
        <translation>读取代理池的频率。每次读取只是几条简短命令；往返时间见状态栏。</translation>
    </message>
    <message>
        <source>Connect to the Redis server and watch the pool</source>
        <translation>连接到 Redis 服务器并监视代理池</translation>
    </message>
    <message>
        <source>Look for sorted-set keys on the server (a bounded SCAN with TYPE zset) and offer them in the key list</source>
        <translation>在服务器上查找有序集合键（有界的 SCAN，TYPE zset），并在键列表中提供</translation>
    </message>
    <message>
        <source> Poll every </source>
        <translation> 轮询间隔 </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>the pool key is empty: name the pool&apos;s sorted set</source>
        <translation>代理池键为空：请填写代理池的有序集合名称</translation>
    </message>
    <message>
        <source> Password refused: type it into the URL, then Enter </source>
        <translation> 密码被拒绝：请将其输入到 URL 中，然后按 Enter </translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>断开连接</translation>
    </message>
    <message>
        <source>Stop watching this server</source>
        <translation>停止监视此服务器</translation>
    </message>
    <message>
        <source>Look for sorted-set keys on the server (a bounded SCAN with TYPE zset)</source>
        <translation>在服务器上查找有序集合键（有界的 SCAN，TYPE zset）</translation>
    </message>
    <message>
        <source>Disabled: connect first</source>
        <translation>已禁用：请先连接</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionEditDialog</name>
    <message>
        <source>The server needs a password</source>
        <translation>服务器需要密码</translation>
    </message>
    <message>
        <source>system CAs</source>
        <translation>系统 CA</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>in the certificate file</source>
        <translation>在证书文件中</translation>
    </message>
    <message>
        <source>Do not verify the server (insecure)</source>
        <translation>不验证服务器（不安全）</translation>
    </message>
    <message>
        <source>ssh-agent, then ~/.ssh/config</source>
        <translation>ssh-agent，然后 ~/.ssh/config</translation>
    </message>
    <message>
        <source>Accept and record an unknown host key</source>
        <translation>接受并记录未知的主机密钥</translation>
    </message>
    <message>
        <source>Remember secrets in the keychain</source>
        <translation>在密钥环中记住机密</translation>
    </message>
    <message>
        <source>New connection</source>
        <translation>新建连接</translation>
    </message>
    <message>
        <source>Edit connection</source>
        <translation>编辑连接</translation>
    </message>
    <message>
        <source>redis://, rediss:// (TLS) or unix:// URL, without a password: passwords are never saved in the settings file</source>
        <translation>redis://、rediss://（TLS）或 unix:// URL，不含密码：密码从不保存到设置文件中</translation>
    </message>
    <message>
        <source>asked when connecting if left empty</source>
        <translation>留空则在连接时询问</translation>
    </message>
    <message>
        <source>the URL&apos;s host</source>
        <translation>URL 中的主机</translation>
    </message>
    <message>
        <source>Warning: anyone between poolscope and the server can read and change the traffic, password included. The status bar will say &quot;TLS, NOT verified&quot;.</source>
        <translation>警告：poolscope 与服务器之间的任何人都能读取和篡改通信内容，包括密码。状态栏将显示“TLS, NOT verified”。</translation>
    </message>
    <message>
        <source>[user@]bastion[:port] or a Host alias</source>
        <translation>[user@]bastion[:port] 或 Host 别名</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>No keychain here (%1): secrets are asked for each time and kept in memory only, until poolscope exits.</source>
        <translation>此处没有密钥环（%1）：每次都会询问机密，且仅保存在内存中，直到 poolscope 退出。</translation>
    </message>
    <message>
        <source>no Secret Service</source>
        <translation>没有 Secret Service</translation>
    </message>
    <message>
        <source>Unchecked: secrets are kept in memory only, until poolscope exits.</source>
        <translation>未勾选：机密仅保存在内存中，直到 poolscope 退出。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Pool key</source>
        <translation>代理池键</translation>
    </message>
    <message>
        <source>Poll every</source>
        <translation>轮询间隔</translation>
    </message>
    <message>
        <source>TLS (rediss://)</source>
        <translation>TLS（rediss://）</translation>
    </message>
    <message>
        <source>CA file</source>
        <translation>CA 文件</translation>
    </message>
    <message>
        <source>Server name</source>
        <translation>服务器名称</translation>
    </message>
    <message>
        <source>Client certificate</source>
        <translation>客户端证书</translation>
    </message>
    <message>
        <source>Client key</source>
        <translation>客户端密钥</translation>
    </message>
    <message>
        <source>SSH tunnel</source>
        <translation>SSH 隧道</translation>
    </message>
    <message>
        <source>Through</source>
        <translation>经由</translation>
    </message>
    <message>
        <source>Key file</source>
        <translation>密钥文件</translation>
    </message>
    <message>
        <source>Choose a file</source>
        <translation>选择文件</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionPrompter</name>
    <message>
        <source>&amp;Trust this key</source>
        <translation>信任此密钥(&amp;T)</translation>
    </message>
    <message>
        <source>Password for the Redis server %1:</source>
        <translation>Redis 服务器 %1 的密码：</translation>
    </message>
    <message>
        <source>Passphrase of the TLS client key %1:</source>
        <translation>TLS 客户端密钥 %1 的口令：</translation>
    </message>
    <message>
        <source>Passphrase of the SSH key %1:</source>
        <translation>SSH 密钥 %1 的口令：</translation>
    </message>
    <message>
        <source>SSH password for %1:</source>
        <translation>%1 的 SSH 密码：</translation>
    </message>
    <message>
        <source>The SSH host %1 is not in ~/.ssh/known_hosts.

Key type: %2
Fingerprint: %3

Trust this key only if the fingerprint is the host&apos;s (ask its administrator, or run ssh-keygen -lf on its host key). Trusting records it in ~/.ssh/known_hosts.</source>
        <translation>SSH 主机 %1 不在 ~/.ssh/known_hosts 中。

密钥类型：%2
指纹：%3

仅当指纹确为该主机的指纹时才信任此密钥（请询问其管理员，或对其主机密钥运行 ssh-keygen -lf）。信任后会将其记录到 ~/.ssh/known_hosts 中。</translation>
    </message>
    <message>
        <source>poolscope: %1</source>
        <translation>poolscope：%1</translation>
    </message>
    <message>
        <source>poolscope: unknown SSH host key</source>
        <translation>poolscope：未知的 SSH 主机密钥</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <comment>why the secret is asked for again, then the question</comment>
        <translation>%1。%2</translation>
    </message>
</context>
<context>
    <name>poolscope::ConnectionsDialog</name>
    <message>
        <source>New...</source>
        <translation>新建...</translation>
    </message>
    <message>
        <source>Edit...</source>
        <translation>编辑...</translation>
    </message>
    <message>
        <source>Duplicate...</source>
        <translation>复制...</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Delete connection</source>
        <translation>删除连接</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <source>Secrets of connections that remember them are kept in the keychain, the others in memory only, until poolscope exits. None is ever written to the settings file.</source>
        <translation>记住机密的连接，其机密保存在密钥环中；其他连接的机密仅保存在内存中，直到 poolscope 退出。任何机密都不会写入设置文件。</translation>
    </message>
    <message>
        <source>No keychain here (%1): passwords and passphrases are asked for each time and kept in memory only, until poolscope exits.</source>
        <translation>此处没有密钥环（%1）：每次都会询问密码和口令，且仅保存在内存中，直到 poolscope 退出。</translation>
    </message>
    <message>
        <source>Looking for a keychain...</source>
        <translation>正在查找密钥环...</translation>
    </message>
    <message numerus="yes">
        <source>Group %1: %n connection(s)</source>
        <translation>
            <numerusform>分组 %1：%n 个连接</numerusform>
        </translation>
    </message>
    <message>
        <source>No saved connections yet: New... saves one.</source>
        <translation>还没有已保存的连接：用“新建...”保存一个。</translation>
    </message>
    <message>
        <source>Transport: %1%2</source>
        <translation>传输方式：%1%2</translation>
    </message>
    <message>
        <source>, via ssh %1</source>
        <translation>，经由 ssh %1</translation>
    </message>
    <message>
        <source>Pool key: %1</source>
        <translation>代理池键：%1</translation>
    </message>
    <message>
        <source>Poll every %1 ms</source>
        <translation>每 %1 毫秒轮询一次</translation>
    </message>
    <message>
        <source>Group: %1</source>
        <translation>分组：%1</translation>
    </message>
    <message>
        <source>Environment: &lt;b&gt;&lt;font color=&quot;%1&quot;&gt;%2&lt;/font&gt;&lt;/b&gt;</source>
        <translation>环境：&lt;b&gt;&lt;font color=&quot;%1&quot;&gt;%2&lt;/font&gt;&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Opens with writes locked until unlocked for the session</source>
        <translation>打开时写入被锁定，直到为本次会话解锁</translation>
    </message>
    <message>
        <source>Password: from the keychain</source>
        <translation>密码：来自密钥环</translation>
    </message>
    <message>
        <source>Password: asked when connecting</source>
        <translation>密码：连接时询问</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message>
        <source>%1 (copy %2)</source>
        <translation>%1（副本 %2）</translation>
    </message>
    <message>
        <source>Delete the saved connection &quot;%1&quot; and its secrets in the keychain?</source>
        <translation>删除已保存的连接“%1”及其在密钥环中的机密？</translation>
    </message>
</context>
<context>
    <name>poolscope::DemoDriver</name>
    <message>
        <source>the demo list is missing from the resources</source>
        <translation>资源中缺少演示列表</translation>
    </message>
    <message>
        <source>the demo list has no usable entry</source>
        <translation>演示列表中没有可用的条目</translation>
    </message>
    <message>
        <source>empty pool: seeding %L1 demo proxies (documentation address ranges)</source>
        <translation>代理池为空：正在导入 %L1 个演示代理（文档地址范围）</translation>
    </message>
    <message>
        <source>background load: %L1 workers, about %L2 allocations/s</source>
        <translation>后台负载：%L1 个工作进程，约 %L2 次分配/秒</translation>
    </message>
    <message>
        <source>background load ended with %L1 errors, %L2 unknown</source>
        <translation>后台负载结束，%L1 个错误，%L2 个结果未知</translation>
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
    <name>poolscope::EnvironmentBanner</name>
    <message>
        <source>&amp;Unlock writes for this session</source>
        <translation>为本次会话解锁写入(&amp;U)</translation>
    </message>
    <message>
        <source>Production connections open with writes locked; this unlocks them until another connection is chosen</source>
        <translation>生产环境的连接打开时写入被锁定；此操作将其解锁，直到选择另一个连接</translation>
    </message>
    <message>
        <source>%1 connection</source>
        <translation>%1连接</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: writes are locked. This pool is watched only; unlock writes to seed, evict, restore or allocate.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：写入已锁定。此代理池仅被监视；解锁写入后才能导入、移出、恢复或分配。</translation>
    </message>
    <message>
        <source>&amp;Unlock writes</source>
        <translation>解锁写入(&amp;U)</translation>
    </message>
    <message>
        <source>%1 · writes locked</source>
        <translation>%1 · 写入已锁定</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: writes are unlocked for this session. Several evictions, restores at zero and the count-reset demo still ask for the pool&apos;s name.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：本次会话的写入已解锁。多个移出、归零恢复以及分配次数重置演示仍会要求输入代理池名称。</translation>
    </message>
    <message>
        <source>&amp;Lock writes</source>
        <translation>锁定写入(&amp;L)</translation>
    </message>
    <message>
        <source>%1 · writes unlocked for this session</source>
        <translation>%1 · 本次会话写入已解锁</translation>
    </message>
</context>
<context>
    <name>poolscope::EventsPanel</name>
    <message>
        <source>connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>demo</source>
        <translation>演示</translation>
    </message>
    <message>
        <source>evict</source>
        <extracomment>Evict: taking members out of rotation, their counts kept.</extracomment>
        <translation>移出</translation>
    </message>
    <message>
        <source>export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>guard</source>
        <translation>守护程序</translation>
    </message>
    <message>
        <source>health</source>
        <translation>健康状态</translation>
    </message>
    <message>
        <source>load</source>
        <translation>负载</translation>
    </message>
    <message>
        <source>poll</source>
        <translation>轮询</translation>
    </message>
    <message>
        <source>pool</source>
        <extracomment>The proxy pool (the sorted set the dashboard watches).</extracomment>
        <translation>代理池</translation>
    </message>
    <message>
        <source>recording</source>
        <translation>录制</translation>
    </message>
    <message>
        <source>restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Operations and errors, newest first</source>
        <translation>操作和错误，最新的在前</translation>
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
    <message>
        <source>Stale: no good poll since %1. These figures are from then.</source>
        <translation>已过时：自 %1 起没有成功的轮询。这些数据来自那时。</translation>
    </message>
    <message>
        <source>%1 (+%2 evicted)</source>
        <translation>%1（另有 %2 个已移出）</translation>
    </message>
    <message>
        <source>%1 (%2 with the %3 evicted)</source>
        <translation>%1（含已移出的 %3 个则为 %2）</translation>
    </message>
    <message>
        <source>Busiest (last %1)</source>
        <translation>最繁忙（最近 %1）</translation>
    </message>
    <message>
        <source>– (no allocations)</source>
        <translation>–（没有分配）</translation>
    </message>
    <message>
        <source>%1 /s</source>
        <translation>%1 次/秒</translation>
    </message>
    <message>
        <source>full snapshot</source>
        <translation>完整快照</translation>
    </message>
    <message>
        <source>summary: %1 members &gt; %2 (quantiles, top/bottom, pinned and the rows on screen are read)</source>
        <translation>摘要：%1 个成员 &gt; %2（读取分位数、前/后成员、已固定成员以及屏幕上显示的行）</translation>
    </message>
    <message>
        <source>pending: first totals scan %1 %</source>
        <translation>待定：首次总计扫描 %1%</translation>
    </message>
    <message>
        <source>Jain&apos;s index needs every member&apos;s count: a low-rate background scan reads the whole pool in small pages and the index appears when its first pass completes</source>
        <translation>Jain 指数需要每个成员的分配次数：后台以低速分小页读取整个代理池，首轮完成后显示该指数</translation>
    </message>
    <message>
        <source>highest count: %1 (%2)</source>
        <translation>最高分配次数：%1（%2）</translation>
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
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
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
    <message>
        <source>Pool</source>
        <extracomment>Pool: the proxy pool (the sorted set the dashboard watches), a panel&apos;s title.</extracomment>
        <translation>代理池</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Members</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>Pools</source>
        <translation>代理池</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>守护程序</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>the server refused the password</source>
        <translation>服务器拒绝了密码</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Connections...</source>
        <translation>连接...</translation>
    </message>
    <message>
        <source>Saved connections: URL, TLS and SSH settings, pool key and poll interval; secrets in the keychain</source>
        <translation>已保存的连接：URL、TLS 和 SSH 设置、代理池键和轮询间隔；机密保存在密钥环中</translation>
    </message>
    <message>
        <source>Open recording…</source>
        <translation>打开录制文件…</translation>
    </message>
    <message>
        <source>poolscope recordings (*.sqlite *.db *.poolscope)</source>
        <translation>poolscope 录制文件 (*.sqlite *.db *.poolscope)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Open a recording without any Redis connection, read only: its history, markers and last poll</source>
        <translation>在没有任何 Redis 连接的情况下以只读方式打开录制文件：其历史、标记和最后一次轮询</translation>
    </message>
    <message>
        <source>Record while watching</source>
        <translation>监视时录制</translation>
    </message>
    <message>
        <source>Keep the watched pool&apos;s history in its recording (one file per server and pool in the data directory), so it is there the next time the pool is opened</source>
        <translation>将所监视代理池的历史保存到其录制文件中（数据目录中每个服务器和代理池一个文件），下次打开该代理池时即可看到</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>&amp;Pool</source>
        <extracomment>Pool: the proxy pool (the sorted set the dashboard watches), a menu.</extracomment>
        <translation>代理池(&amp;P)</translation>
    </message>
    <message>
        <source>Alert &amp;rules…</source>
        <translation>告警规则(&amp;R)…</translation>
    </message>
    <message>
        <source>Audit &amp;trail…</source>
        <translation>审计日志(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Overview of every pool…</source>
        <translation>所有代理池概览(&amp;O)…</translation>
    </message>
    <message>
        <source>Every pool of every saved connection in one table</source>
        <translation>在一个表格中显示所有已保存连接的所有代理池</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>About poolscope</source>
        <translation>关于 poolscope</translation>
    </message>
    <message>
        <source>&lt;b&gt;poolscope %1&lt;/b&gt;&lt;p&gt;Live dashboard for Redis least-used proxy pools: a sorted set whose scores count allocations, served by allocate.lua.&lt;/p&gt;</source>
        <translation>&lt;b&gt;poolscope %1&lt;/b&gt;&lt;p&gt;Redis 最少使用代理池的实时仪表板：一个以分值记录分配次数的有序集合，由 allocate.lua 提供分配。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export the chart, the history or the table</source>
        <translation>导出图表、历史或表格</translation>
    </message>
    <message>
        <source>poolscope · recording %1 · %2 (read only)</source>
        <translation>poolscope · 录制文件 %1 · %2（只读）</translation>
    </message>
    <message>
        <source>reading the recording %1…</source>
        <translation>正在读取录制文件 %1…</translation>
    </message>
    <message>
        <source>cannot open the recording: %1</source>
        <translation>无法打开录制文件：%1</translation>
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
        <translation>未连接到 %1：“%2”上次读取于 %3。
“连接”会再试一次。</translation>
    </message>
    <message>
        <source>Not connected: %1
&quot;%2&quot; was last read at %3. Connect tries again.</source>
        <translation>未连接：%1
“%2”上次读取于 %3。“连接”会再试一次。</translation>
    </message>
    <message>
        <source>Filter members… (Ctrl+F)</source>
        <translation>筛选成员…（Ctrl+F）</translation>
    </message>
    <message>
        <source>Show only members whose id contains this text</source>
        <translation>仅显示 id 包含此文本的成员</translation>
    </message>
    <message>
        <source>Rows keep their places while the pointer is over the table or rows are selected, so the row you aim at stays the row you click. Counts still update. Re-sort now, or move the pointer away and clear the selection.</source>
        <translation>当指针位于表格上方或有行被选中时，各行保持原位，这样你瞄准的行就是你点击的行。分配次数仍会更新。可立即重新排序，或移开指针并清除选择。</translation>
    </message>
    <message>
        <source>Any health</source>
        <translation>任意健康状态</translation>
    </message>
    <message>
        <source>Health: %1</source>
        <translation>健康状态：%1</translation>
    </message>
    <message>
        <source>Show only members in this health state</source>
        <translation>仅显示处于此健康状态的成员</translation>
    </message>
    <message>
        <source> · &lt;a href=&quot;resort&quot;&gt;re-sort now&lt;/a&gt;</source>
        <translation type="vanished"> · &lt;a href=&quot;resort&quot;&gt;立即重新排序&lt;/a&gt;</translation>
    </message>
    <message>
        <source>‖ order held: rows selected</source>
        <translation>‖ 顺序已保持：有行被选中</translation>
    </message>
    <message>
        <source>‖ order held: pointer over the table</source>
        <translation>‖ 顺序已保持：指针位于表格上方</translation>
    </message>
    <message>
        <source>Find a member or the start of its id… (Ctrl+F, searched on the server)</source>
        <translation>查找成员或其 id 的开头…（Ctrl+F，在服务器上搜索）</translation>
    </message>
    <message>
        <source>This pool is read in summary mode: only the rows on screen are read, and rows stay in rank order (count ascending: the next to be allocated first). Type a member&apos;s id or its start (case-sensitive): the server looks the member up by name and scans for ids starting with the text in the background, a few small pages at a time; the members found become the table&apos;s rows, to pin or evict. Clear the field to go back to the rows by rank.</source>
        <translation>此代理池以摘要模式读取：只读取屏幕上的行，各行按排名排序（分配次数升序：下一个被分配的在前）。输入成员的 id 或其开头（区分大小写）：服务器按名称查找该成员，并在后台每次几小页地扫描以该文本开头的 id；找到的成员成为表格的行，可固定或移出。清空该字段即可回到按排名显示的行。</translation>
    </message>
    <message>
        <source>Stale: no good poll since %1. Counts, rates and &quot;last change&quot; are from then.</source>
        <translation>已过时：自 %1 起没有成功的轮询。分配次数、速率和“最后变化”均来自那时。</translation>
    </message>
    <message>
        <source>Searching the pool for &quot;%1&quot;…</source>
        <translation>正在代理池中搜索“%1”…</translation>
    </message>
    <message>
        <source>The search for &quot;%1&quot; failed: %2</source>
        <translation>搜索“%1”失败：%2</translation>
    </message>
    <message>
        <source>Searching the pool for &quot;%1&quot;… (%2 pages read)</source>
        <translation>正在代理池中搜索“%1”…（已读取 %2 页）</translation>
    </message>
    <message>
        <source>No member is or starts with &quot;%1&quot; (the whole pool was searched; ids are case-sensitive).</source>
        <translation>没有成员等于“%1”或以其开头（已搜索整个代理池；id 区分大小写）。</translation>
    </message>
    <message>
        <source>No member is %1 (health filter).</source>
        <translation>没有成员处于 %1 状态（健康状态筛选）。</translation>
    </message>
    <message>
        <source>No member matches &quot;%1&quot; and is %2 (health filter).</source>
        <translation>没有成员匹配“%1”且处于 %2 状态（健康状态筛选）。</translation>
    </message>
    <message>
        <source>No member matches &quot;%1&quot;.</source>
        <translation>没有成员匹配“%1”。</translation>
    </message>
    <message>
        <source>Not connected. Enter a Redis URL and a pool key above, then Connect.</source>
        <translation>未连接。请在上方输入 Redis URL 和代理池键，然后点击“连接”。</translation>
    </message>
    <message>
        <source>Cannot reach %1: retrying. The events panel says why.</source>
        <translation>无法访问 %1：正在重试。原因见事件面板。</translation>
    </message>
    <message>
        <source>Not connected: %1
Connect tries again.</source>
        <translation>未连接：%1
“连接”将再次尝试。</translation>
    </message>
    <message>
        <source>Connected, but reading &quot;%1&quot; fails: %2</source>
        <translation>已连接，但读取“%1”失败：%2</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接到 %1…</translation>
    </message>
    <message>
        <source>No pool at &quot;%1&quot; yet. (Read-only: another process has to seed it.)</source>
        <translation>“%1”处还没有代理池。（只读：需要由其他进程导入。）</translation>
    </message>
    <message>
        <source>No pool at &quot;%1&quot; yet: Seed… (Ctrl+N) to add proxies.</source>
        <translation>“%1”处还没有代理池：用“导入…”（Ctrl+N）添加代理。</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>first %1 found: type more to narrow</source>
        <translation>已找到前 %1 个：继续输入以缩小范围</translation>
    </message>
    <message>
        <source>whole pool searched</source>
        <translation>已搜索整个代理池</translation>
    </message>
    <message numerus="yes">
        <source>searching… %Ln page(s)</source>
        <translation>
            <numerusform>正在搜索… %Ln 页</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 found for &quot;%2&quot; · %3</source>
        <translation>“%2”找到 %1 个 · %3</translation>
    </message>
    <message>
        <source>%1 in pool, by rank (summary mode) · %2 evicted</source>
        <translation>池中 %1 个，按排名（摘要模式） · %2 个已移出</translation>
    </message>
    <message>
        <source>%1 shown · %2 in pool · %3 evicted</source>
        <translation>显示 %1 个 · 池中 %2 个 · %3 个已移出</translation>
    </message>
    <message>
        <source>%1 · &lt;a href=&quot;resort&quot;&gt;re-sort now&lt;/a&gt;</source>
        <comment>%1: why the rows&apos; order is held</comment>
        <translation>%1 · &lt;a href=&quot;resort&quot;&gt;立即重新排序&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>poolscope::OverviewWindow</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Overview of every pool – poolscope</source>
        <translation>所有代理池概览 – poolscope</translation>
    </message>
    <message>
        <source>&amp;Connections:</source>
        <translation>连接(&amp;C)：</translation>
    </message>
    <message>
        <source>Filter rows: connection, pool, status…</source>
        <translation>筛选行：连接、代理池、状态…</translation>
    </message>
    <message>
        <source>Shows only the rows with this text in any column (Ctrl+F)</source>
        <translation>仅显示任一列中包含此文本的行（Ctrl+F）</translation>
    </message>
    <message>
        <source>Reads every server now (F5)</source>
        <translation>立即读取所有服务器（F5）</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Rows shown as CSV…</source>
        <translation>将显示的行导出为 CSV…</translation>
    </message>
    <message>
        <source>Rows shown as JSON…</source>
        <translation>将显示的行导出为 JSON…</translation>
    </message>
    <message>
        <source>Every pool of the chosen connections. Enter or a double click opens the pool in the main window.</source>
        <translation>所选连接的所有代理池。按 Enter 或双击可在主窗口中打开该代理池。</translation>
    </message>
    <message>
        <source>Every saved connection</source>
        <translation>所有已保存的连接</translation>
    </message>
    <message>
        <source>Group %1</source>
        <translation>分组 %1</translation>
    </message>
    <message>
        <source>needs a password: connect to it once (File ▸ Connections…) and the overview reads it too</source>
        <translation>需要密码：先连接一次（文件 ▸ 连接…），概览随后也会读取它</translation>
    </message>
    <message>
        <source>No saved connections yet.

Add one with File ▸ Connections… (Ctrl+Shift+O): New, then the server&apos;s URL and the pool key. Scripts can add them with “poolscope-cli profile add NAME --url URL”. The overview then lists every pool of every saved connection.</source>
        <translation>还没有已保存的连接。

通过 文件 ▸ 连接…（Ctrl+Shift+O）添加：新建，然后填写服务器 URL 和代理池键。脚本可以用“poolscope-cli profile add NAME --url URL”添加。之后概览会列出所有已保存连接的所有代理池。</translation>
    </message>
    <message>
        <source>No saved connection is in this group.</source>
        <translation>此分组中没有已保存的连接。</translation>
    </message>
    <message>
        <source>%1 of %2 rows shown · %3 connections, each server read every %4 s</source>
        <translation>显示 %2 行中的 %1 行 · %3 个连接，每个服务器每 %4 秒读取一次</translation>
    </message>
    <message>
        <source>%1: %2 · last good poll: %3</source>
        <translation>%1：%2 · 上次成功轮询：%3</translation>
    </message>
    <message>
        <source>%1 rows written to %2</source>
        <translation>已将 %1 行写入 %2</translation>
    </message>
    <message>
        <source>could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export the overview as CSV</source>
        <translation>将概览导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export the overview as JSON</source>
        <translation>将概览导出为 JSON</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <source>reading its password from the keychain…</source>
        <translation>正在从密钥环读取其密码…</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolActions</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Poll the pool now (F5)</source>
        <translation>立即轮询代理池（F5）</translation>
    </message>
    <message>
        <source>Seed…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Import a proxy list into the pool (Ctrl+N)</source>
        <translation>将代理列表导入代理池（Ctrl+N）</translation>
    </message>
    <message>
        <source>Evict</source>
        <extracomment>Evict: take the member out of rotation, keeping its allocation count.</extracomment>
        <translation>移出</translation>
    </message>
    <message>
        <source>Take the selected members out of the pool, keeping their counts (Delete)</source>
        <translation>将所选成员移出代理池，保留其分配次数（Delete）</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <source>Bring the selected evicted members back, choosing their count (Ctrl+R)</source>
        <translation>恢复所选的已移出成员，并选择其分配次数（Ctrl+R）</translation>
    </message>
    <message>
        <source>Test allocations…</source>
        <translation>测试分配…</translation>
    </message>
    <message>
        <source>Run allocations through allocate.lua (Ctrl+T)</source>
        <translation>通过 allocate.lua 运行分配（Ctrl+T）</translation>
    </message>
    <message>
        <source>Demo: count reset…</source>
        <translation>演示：分配次数重置…</translation>
    </message>
    <message>
        <source>Run the count-reset scenario on its own pool: evict a member, restore it, and compare the flood with the forecast</source>
        <translation>在专用代理池上运行分配次数重置场景：移出一个成员，再恢复它，并将分配洪峰与预测进行比较</translation>
    </message>
    <message>
        <source>Pin to chart</source>
        <translation>固定到图表</translation>
    </message>
    <message>
        <source>Always chart the selected members, however big the pool (Ctrl+P); again to unpin</source>
        <translation>无论代理池多大，始终在图表中显示所选成员（Ctrl+P）；再按一次取消固定</translation>
    </message>
    <message>
        <source>Find member</source>
        <translation>查找成员</translation>
    </message>
    <message>
        <source>Filter the members table (Ctrl+F)</source>
        <translation>筛选成员表格（Ctrl+F）</translation>
    </message>
    <message>
        <source>Export chart as PNG…</source>
        <translation>将图表导出为 PNG…</translation>
    </message>
    <message>
        <source>Save the chart as an image</source>
        <translation>将图表保存为图像</translation>
    </message>
    <message>
        <source>Export history as CSV…</source>
        <translation>将历史导出为 CSV…</translation>
    </message>
    <message>
        <source>Save every member&apos;s count over time: time, member, count</source>
        <translation>保存每个成员随时间变化的分配次数：时间、成员、分配次数</translation>
    </message>
    <message>
        <source>Export table as CSV…</source>
        <translation>将表格导出为 CSV…</translation>
    </message>
    <message>
        <source>Save the members table as shown (sorted and filtered)</source>
        <translation>按显示的样子（排序和筛选后）保存成员表格</translation>
    </message>
    <message>
        <source>Back to previous pool</source>
        <translation>返回上一个代理池</translation>
    </message>
    <message>
        <source>Watch the pool watched before this one again (Alt+Left)</source>
        <translation>重新监视此前监视的代理池（Alt+Left）</translation>
    </message>
    <message>
        <source>Check selected</source>
        <translation>检查所选成员</translation>
    </message>
    <message>
        <source>Check the selected members through their proxies against the health target; results into the health hash (Ctrl+K)</source>
        <translation>通过所选成员的代理访问健康检查目标来检查它们；结果写入健康状态哈希（Ctrl+K）</translation>
    </message>
    <message>
        <source>Health check target</source>
        <translation>健康检查目标</translation>
    </message>
    <message>
        <source>URL fetched through each proxy (http:// or https://):</source>
        <translation>通过每个代理获取的 URL（http:// 或 https://）：</translation>
    </message>
    <message>
        <source>Show credentials</source>
        <translation>显示凭据</translation>
    </message>
    <message>
        <source>Show proxy passwords in member ids (user:pass@host) in the table, chart, events and dialogs; off: user:****@host</source>
        <translation>在表格、图表、事件和对话框中显示成员 id 中的代理密码（user:pass@host）；关闭时显示为 user:****@host</translation>
    </message>
    <message>
        <source>Include credentials in CSV exports</source>
        <translation>在导出的 CSV 中包含凭据</translation>
    </message>
    <message>
        <source>Write proxy passwords into exported CSV files; off: user:****@host</source>
        <translation>将代理密码写入导出的 CSV 文件；关闭时为 user:****@host</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export history</source>
        <translation>导出历史</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>已禁用：%1</translation>
    </message>
    <message>
        <source>Check selected: %1</source>
        <translation>检查所选成员：%1</translation>
    </message>
    <message>
        <source>Check selected refused: %1</source>
        <translation>检查所选成员被拒绝：%1</translation>
    </message>
    <message>
        <source>select members to check first</source>
        <translation>请先选择要检查的成员</translation>
    </message>
    <message>
        <source>select one or more members in the pool first</source>
        <translation>请先在代理池中选择一个或多个成员</translation>
    </message>
    <message>
        <source>Evict %1 (Delete)</source>
        <translation>移出 %1（Delete）</translation>
    </message>
    <message numerus="yes">
        <source>Evict the %n selected member(s) (Delete)</source>
        <translation>
            <numerusform>移出所选的 %n 个成员（Delete）</numerusform>
        </translation>
    </message>
    <message>
        <source>select one or more evicted (grey) members first</source>
        <translation>请先选择一个或多个已移出（灰色）的成员</translation>
    </message>
    <message>
        <source>Restore %1 (Ctrl+R)</source>
        <translation>恢复 %1（Ctrl+R）</translation>
    </message>
    <message numerus="yes">
        <source>Restore the %n selected member(s) (Ctrl+R)</source>
        <translation>
            <numerusform>恢复所选的 %n 个成员（Ctrl+R）</numerusform>
        </translation>
    </message>
    <message>
        <source>Disabled: not connected</source>
        <translation>已禁用：未连接</translation>
    </message>
    <message>
        <source>Unpin from chart</source>
        <translation>从图表取消固定</translation>
    </message>
    <message>
        <source>Disabled: select members in the table first</source>
        <translation>已禁用：请先在表格中选择成员</translation>
    </message>
    <message>
        <source>Stop always charting the selected members (Ctrl+P)</source>
        <translation>不再始终在图表中显示所选成员（Ctrl+P）</translation>
    </message>
    <message>
        <source>Watch &quot;%1&quot; on %2 again (Alt+Left)</source>
        <translation>重新监视 %2 上的“%1”（Alt+Left）</translation>
    </message>
    <message>
        <source>Disabled: no other pool watched in this window yet</source>
        <translation>已禁用：此窗口中尚未监视过其他代理池</translation>
    </message>
    <message>
        <source>Evict %1?

It gets no allocations until restored; its count is saved.</source>
        <translation>移出 %1？

恢复之前它不会获得任何分配；其分配次数会被保存。</translation>
    </message>
    <message>
        <source>  • %1</source>
        <translation>  • %1</translation>
    </message>
    <message numerus="yes">
        <source>  … and %n more</source>
        <translation>
            <numerusform>  … 以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Evict these %n member(s)?

%1

They get no allocations until restored; their counts are saved.</source>
        <extracomment>Evict: take out of rotation; the member&apos;s allocation count is kept.</extracomment>
        <translation>
            <numerusform>移出这 %n 个成员？

%1

恢复之前它们不会获得任何分配；其分配次数会被保存。</numerusform>
        </translation>
    </message>
    <message>
        <source>Evict member</source>
        <translation>移出成员</translation>
    </message>
    <message>
        <source>Evict members</source>
        <translation>移出成员</translation>
    </message>
    <message>
        <source>Restore at zero</source>
        <translation>归零恢复</translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s) at count zero? Each gets every allocation until it catches up with the pool.</source>
        <translation>
            <numerusform>以分配次数 0 恢复 %n 个成员？在追赶上池中其他成员之前，每个成员都会获得每一次分配。</numerusform>
        </translation>
    </message>
    <message>
        <source>restore at zero not confirmed: nothing written</source>
        <translation>未确认归零恢复：未写入任何内容</translation>
    </message>
    <message>
        <source>chart saved to %1</source>
        <translation>图表已保存到 %1</translation>
    </message>
    <message>
        <source>cannot save the chart to %1</source>
        <translation>无法将图表保存到 %1</translation>
    </message>
    <message>
        <source>history saved to %1</source>
        <translation>历史已保存到 %1</translation>
    </message>
    <message>
        <source>cannot save the history to %1: %2</source>
        <translation>无法将历史保存到 %1：%2</translation>
    </message>
    <message>
        <source>table saved to %1</source>
        <translation>表格已保存到 %1</translation>
    </message>
    <message>
        <source>cannot save the table to %1: %2</source>
        <translation>无法将表格保存到 %1：%2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolAlerts</name>
    <message>
        <source>%1 on %2</source>
        <translation>%2 上的 %1</translation>
    </message>
    <message>
        <source>alert fired: %1: %2</source>
        <translation>告警触发：%1：%2</translation>
    </message>
    <message>
        <source>alert: %1</source>
        <translation>告警：%1</translation>
    </message>
    <message>
        <source>alert resolved: %1</source>
        <translation>告警已解除：%1</translation>
    </message>
    <message>
        <source>resolved: %1</source>
        <translation>已解除：%1</translation>
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
    <message>
        <source>%1 on %2 (%3, pid %4)</source>
        <translation>%2 上的 %1（%3，pid %4）</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>某人</translation>
    </message>
    <message numerus="yes">
        <source>%1 seeded %n member(s)</source>
        <translation>
            <numerusform>%1 导入了 %n 个成员</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 evicted %2</source>
        <translation>%1 移出了 %2</translation>
    </message>
    <message>
        <source>%1 restored %2</source>
        <translation>%1 恢复了 %2</translation>
    </message>
    <message>
        <source>%1: %2 %3</source>
        <translation>%1：%2 %3</translation>
    </message>
    <message>
        <source>%1; reason: %2</source>
        <translation>%1；原因：%2</translation>
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
    <message>
        <source>a recording, opened read only: there is no pool to write to</source>
        <translation>录制文件，以只读方式打开：没有可写入的代理池</translation>
    </message>
    <message>
        <source>read-only mode (--read-only): poolscope only watches this pool</source>
        <translation>只读模式（--read-only）：poolscope 仅监视此代理池</translation>
    </message>
    <message>
        <source>not connected to Redis: connect first</source>
        <translation>未连接到 Redis：请先连接</translation>
    </message>
    <message>
        <source>read-only: the server refuses writes for this user (%1)</source>
        <translation>只读：服务器拒绝此用户的写入（%1）</translation>
    </message>
    <message>
        <source>connecting to %1, pool &quot;%2&quot;</source>
        <translation>正在连接到 %1，代理池“%2”</translation>
    </message>
    <message>
        <source>back to this pool</source>
        <translation>回到此代理池</translation>
    </message>
    <message>
        <source>disconnected from %1</source>
        <translation>已与 %1 断开连接</translation>
    </message>
    <message>
        <source>polling paused</source>
        <translation>轮询已暂停</translation>
    </message>
    <message>
        <source>polling resumed</source>
        <translation>轮询已继续</translation>
    </message>
    <message>
        <source>connected to %1 (%2)</source>
        <translation>已连接到 %1（%2）</translation>
    </message>
    <message>
        <source>connection lost, reconnecting: %1</source>
        <translation>连接丢失，正在重新连接：%1</translation>
    </message>
    <message>
        <source>failover: the primary moved from %1 to %2 (named by sentinel %3)</source>
        <translation>故障转移：主节点从 %1 移到 %2（由哨兵 %3 指定）</translation>
    </message>
    <message>
        <source>no pool at &quot;%1&quot; yet: Seed… to add proxies</source>
        <translation>“%1”处还没有代理池：用“导入…”添加代理</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted%4</source>
        <translation type="vanished">代理池“%1”：%L2 个成员，%L3 个已移出%4</translation>
    </message>
    <message>
        <source>poll failed: %1</source>
        <translation>轮询失败：%1</translation>
    </message>
    <message>
        <source>%1 · not retrying: enter the password in the Redis URL field</source>
        <translation>%1 · 不再重试：请在 Redis URL 字段中输入密码</translation>
    </message>
    <message>
        <source>recording (read only)</source>
        <translation>录制文件（只读）</translation>
    </message>
    <message>
        <source>opened the recording %1 (pool %2 on %3, %L4 polls, read only)</source>
        <translation>已打开录制文件 %1（%3 上的代理池 %2，%L4 次轮询，只读）</translation>
    </message>
    <message>
        <source>%1 refused: %2</source>
        <translation>%1 被拒绝：%2</translation>
    </message>
    <message>
        <source>seed +%L1 at %2</source>
        <translation>导入 +%L1，初始计数 %2</translation>
    </message>
    <message>
        <source>%L1 already in the pool kept their count</source>
        <translation>%L1 个已在池中的成员保留了其分配次数</translation>
    </message>
    <message>
        <source>%L1 reset</source>
        <translation>%L1 个已重置</translation>
    </message>
    <message>
        <source>%L1 evicted not re-added (restore them instead)</source>
        <translation>%L1 个已移出的成员未重新添加（请改为恢复它们）</translation>
    </message>
    <message>
        <source>evict %1 (saved %2)</source>
        <translation>移出 %1（保存的分配次数 %2）</translation>
    </message>
    <message>
        <source>restore %1 (%2) at %3</source>
        <translation>恢复 %1（%2），分配次数 %3</translation>
    </message>
    <message>
        <source>restore %L1 members (%2): %3</source>
        <translation>恢复 %L1 个成员（%2）：%3</translation>
    </message>
    <message>
        <source> · forecast: </source>
        <translation type="vanished"> · 预测： </translation>
    </message>
    <message>
        <source>connected to a read-only replica</source>
        <translation>已连接到只读副本</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted · %4</source>
        <comment>%4: how the big pool was read (a summary)</comment>
        <translation>代理池“%1”：%L2 个成员，%L3 个已移出 · %4</translation>
    </message>
    <message>
        <source>pool &quot;%1&quot;: %L2 members, %L3 evicted</source>
        <translation>代理池“%1”：%L2 个成员，%L3 个已移出</translation>
    </message>
    <message>
        <source>%1 · forecast: %2</source>
        <comment>%1: the restore done, %2: what it will do to the pool</comment>
        <translation>%1 · 预测：%2</translation>
    </message>
</context>
<context>
    <name>poolscope::PoolTableModel</name>
    <message>
        <source>evicted (saved %1)</source>
        <translation>已移出（保存的分配次数 %1）</translation>
    </message>
    <message>
        <source>in pool · catching up</source>
        <translation>在池中 · 追赶中</translation>
    </message>
    <message>
        <source>in pool</source>
        <translation>在池中</translation>
    </message>
    <message>
        <source>%1 · pinned</source>
        <translation>%1 · 已固定</translation>
    </message>
    <message>
        <source>Rank %1 of a big pool: read on the next poll (only the rows on screen are read)</source>
        <translation>大型代理池中的第 %1 名：将在下次轮询时读取（只读取屏幕上的行）</translation>
    </message>
    <message>
        <source>%1 is pinned to the chart (Ctrl+P again to unpin)</source>
        <translation>%1 已固定到图表（再按 Ctrl+P 取消固定）</translation>
    </message>
    <message>
        <source>%1 is evicted: it gets no allocations. Saved count %2; restore it with Ctrl+R.</source>
        <translation>%1 已被移出：它不会获得任何分配。保存的分配次数为 %2；用 Ctrl+R 恢复它。</translation>
    </message>
    <message>
        <source>%1 is %2 below the lowest of the others: it will take about the next %2 allocations.</source>
        <translation>%1 比其他成员中的最低值低 %2：它将获得接下来大约 %2 次分配。</translation>
    </message>
    <message>
        <source>member</source>
        <translation>成员</translation>
    </message>
    <message>
        <source>count</source>
        <extracomment>The allocation count (the sorted set&apos;s score) column.</extracomment>
        <translation>分配次数</translation>
    </message>
    <message>
        <source>share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>rate/s</source>
        <translation>速率/秒</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>debt</source>
        <translation>欠量</translation>
    </message>
    <message>
        <source>health</source>
        <translation>健康状态</translation>
    </message>
    <message>
        <source>last change</source>
        <translation>最后变化</translation>
    </message>
    <message>
        <source>Proxy id (the sorted set&apos;s member); the swatch is its chart colour</source>
        <translation>代理 id（有序集合的成员）；色块是它在图表中的颜色</translation>
    </message>
    <message>
        <source>Allocations recorded so far (the score); for evicted members the saved count</source>
        <translation>目前记录的分配次数（分值）；已移出成员为保存的分配次数</translation>
    </message>
    <message>
        <source>Share of all allocations counted in the pool</source>
        <translation>在代理池所有计入的分配中所占的比例</translation>
    </message>
    <message>
        <source>Allocations per second over the last window (– for a big pool&apos;s members that are not charted: only those are read from poll to poll)</source>
        <translation>最近一个窗口内每秒的分配次数（大型代理池中未显示在图表上的成员为 –：每次轮询只读取图表中的成员）</translation>
    </message>
    <message>
        <source>In the pool, or evicted (kept aside with its saved count)</source>
        <translation>在池中，或已移出（连同保存的分配次数放在一边）</translation>
    </message>
    <message>
        <source>Catch-up debt: how far the count is below the lowest count of the others. A member with debt takes every allocation until it has caught up.</source>
        <translation>追赶欠量：分配次数比其他成员中的最低值低多少。有欠量的成员会获得每一次分配，直到追赶上为止。</translation>
    </message>
    <message>
        <source>When the count last changed</source>
        <translation>分配次数最后一次变化的时间</translation>
    </message>
    <message>
        <source>The last health check through the member&apos;s proxy (shared in Redis by every dashboard, check and guard): up with its latency, down with its failure, not checkable, or unknown</source>
        <translation>最近一次通过该成员的代理进行的健康检查（所有仪表板、检查和守护程序通过 Redis 共享）：可用及其延迟、不可用及其失败原因、无法检查，或未知</translation>
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
        <translation type="vanished">
            <numerusform> 分布在 %n 个节点上</numerusform>
        </translation>
    </message>
    <message>
        <source>, read at %1</source>
        <translation type="vanished">，读取于 %1</translation>
    </message>
    <message>
        <source>Could not read the pools: %1</source>
        <translation>无法读取池：%1</translation>
    </message>
    <message>
        <source>Reading the pools of %1…</source>
        <translation>正在读取 %1 的池…</translation>
    </message>
    <message>
        <source>%1 on %2, read at %3</source>
        <comment>%1: how many pools (sorted sets of proxies), %2: how many Redis nodes, %3: a time</comment>
        <translation>%1，分布在 %2 上，读取于 %3</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <comment>Redis servers</comment>
        <translation>
            <numerusform>%n 个节点</numerusform>
        </translation>
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
    <name>poolscope::ProfileConnector</name>
    <message>
        <source>connection &quot;%1&quot;: no password given</source>
        <translation>连接“%1”：未提供密码</translation>
    </message>
</context>
<context>
    <name>poolscope::ReasonField</name>
    <message>
        <source>optional: why, for the pool&apos;s audit trail</source>
        <translation>可选：原因，记入代理池的审计日志</translation>
    </message>
    <message>
        <source>Recorded with the action in the pool&apos;s audit trail, where the team and `poolscope-cli audit` read it. Leave empty for none.</source>
        <translation>与操作一起记录在代理池的审计日志中，团队和 `poolscope-cli audit` 会读取它。留空表示不填写。</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>&amp;Reason:</source>
        <translation>原因(&amp;R)：</translation>
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
    <message>
        <source>Run scenario</source>
        <translation>运行场景</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>取消运行</translation>
    </message>
    <message>
        <source>Back to previous pool</source>
        <translation>返回上一个代理池</translation>
    </message>
    <message>
        <source>Stop the scenario now (a partial report follows)</source>
        <translation>立即停止场景（随后给出部分报告）</translation>
    </message>
    <message>
        <source>Watch the pool you watched before the scenario again</source>
        <translation>重新监视场景开始前监视的代理池</translation>
    </message>
    <message>
        <source>Run the scenario (writes the scenario key)</source>
        <translation>运行场景（会写入场景键）</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>已禁用：%1</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>Name the scenario key first.</source>
        <translation>请先填写场景键。</translation>
    </message>
    <message>
        <source>Count-reset demo on production</source>
        <translation>在生产环境上运行分配次数重置演示</translation>
    </message>
    <message>
        <source>The count-reset demo replaces pool “%1” with its own members, evicts one and restores it. Run it on this production server?</source>
        <translation>分配次数重置演示会用自己的成员替换代理池“%1”，移出其中一个再恢复它。要在这台生产服务器上运行吗？</translation>
    </message>
    <message>
        <source>Not run: the pool&apos;s name was not typed.</source>
        <translation>未运行：没有输入代理池名称。</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message numerus="yes">
        <source>count-reset scenario: %n member(s), %1/s, policy %2, pool &quot;%3&quot;</source>
        <translation>
            <numerusform>分配次数重置场景：%n 个成员，%1 次/秒，策略 %2，代理池“%3”</numerusform>
        </translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>steady load</source>
        <translation>稳定负载</translation>
    </message>
    <message>
        <source>one member evicted</source>
        <translation>一个成员已移出</translation>
    </message>
    <message numerus="yes">
        <source>restored: %Ln allocation(s) went to it since</source>
        <translation>
            <numerusform>已恢复：此后有 %Ln 次分配给了它</numerusform>
        </translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message numerus="yes">
        <source>%1 / %2 · %Ln allocation(s) · %3</source>
        <translation>
            <numerusform>%1 / %2 · %Ln 次分配 · %3</numerusform>
        </translation>
    </message>
    <message>
        <source>evict %1 (scenario)</source>
        <translation>移出 %1（场景）</translation>
    </message>
    <message>
        <source>restore %1 (%2)</source>
        <translation>恢复 %1（%2）</translation>
    </message>
    <message>
        <source>The scenario failed: %1</source>
        <translation>场景失败：%1</translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved (cancelled)</source>
        <translation>
            <numerusform>代理池“%1”：%n 个成员，请求 %2 次/秒，实际 %3 次/秒（已取消）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>pool &quot;%1&quot;: %n member(s), %2/s asked, %3/s achieved</source>
        <translation>
            <numerusform>代理池“%1”：%n 个成员，请求 %2 次/秒，实际 %3 次/秒</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: evicted at %2 with count %3, restored at %4 by &quot;%5&quot; at %6</source>
        <translation>%1：在 %2 时以分配次数 %3 移出，在 %4 时按“%5”策略以分配次数 %6 恢复</translation>
    </message>
    <message>
        <source>forecast: the next ~%1 allocations go to it (pool minimum %2 - restored count %3)</source>
        <translation>预测：接下来约 %1 次分配会给它（池最小值 %2 - 恢复时的分配次数 %3）</translation>
    </message>
    <message numerus="yes">
        <source>observed: longest run %Ln consecutive allocation(s)</source>
        <translation>
            <numerusform>观测：最长连续获得 %Ln 次分配</numerusform>
        </translation>
    </message>
    <message>
        <source>share in the first %1 after the restore: %2 (fair share %3)</source>
        <translation>恢复后最初 %1 内的占比：%2（公平份额 %3）</translation>
    </message>
    <message>
        <source>caught up with the pool minimum after %1</source>
        <translation>%1 后追赶上池最小值</translation>
    </message>
    <message>
        <source>did not catch up within the run</source>
        <translation>运行期间未追赶上</translation>
    </message>
    <message>
        <source>%1 by %2: forecast run ~%3, observed %4, share %5</source>
        <translation>%1（策略 %2）：预测连续 ~%3 次，观测 %4 次，占比 %5</translation>
    </message>
</context>
<context>
    <name>poolscope::RestoreDialog</name>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>%1 (saved %2)</source>
        <translation>%1（保存的分配次数 %2）</translation>
    </message>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n member(s): %1</source>
        <translation>
            <numerusform>恢复 %n 个成员：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>
Restored count %1, pool minimum now %2, rate %3/s.</source>
        <translation type="vanished">
恢复后的分配次数 %1，池最小值现为 %2，速率 %3 次/秒。</translation>
    </message>
    <message>
        <source>Starting count: %1</source>
        <translation>初始计数：%1</translation>
    </message>
    <message>
        <source>Restore with this policy</source>
        <translation>按此策略恢复</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>已禁用：%1</translation>
    </message>
    <message>
        <source>Restored count %1, pool minimum now %2, rate %3/s.</source>
        <comment>count: allocations a member has had (its score); %3: allocations per second</comment>
        <translation>恢复后的分配次数 %1，池最小值现为 %2，速率 %3 次/秒。</translation>
    </message>
</context>
<context>
    <name>poolscope::SecretPrompter</name>
    <message>
        <source>Password for %1:</source>
        <translation>%1 的密码：</translation>
    </message>
    <message>
        <source>The TLS client key %1 is encrypted. Its passphrase:</source>
        <translation>TLS 客户端密钥 %1 已加密。其口令：</translation>
    </message>
    <message>
        <source>The SSH key %1 is encrypted. Its passphrase:</source>
        <translation>SSH 密钥 %1 已加密。其口令：</translation>
    </message>
    <message>
        <source>SSH password for %1:</source>
        <translation>%1 的 SSH 密码：</translation>
    </message>
    <message>
        <source>
(kept in the keychain for &quot;%1&quot;)</source>
        <translation type="vanished">
（保存在“%1”的密钥环中）</translation>
    </message>
    <message>
        <source>
(no keychain here: kept in memory only, until poolscope exits)</source>
        <translation type="vanished">
（此处没有密钥环：仅保存在内存中，直到 poolscope 退出）</translation>
    </message>
    <message>
        <source>
(kept in memory only, until poolscope exits)</source>
        <translation type="vanished">
（仅保存在内存中，直到 poolscope 退出）</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <comment>why the secret is asked for again, then the question</comment>
        <translation>%1。%2</translation>
    </message>
    <message>
        <source>(kept in the keychain for &quot;%1&quot;)</source>
        <translation>（保存在“%1”的密钥环中）</translation>
    </message>
    <message>
        <source>(no keychain here: kept in memory only, until poolscope exits)</source>
        <translation>（此处没有密钥环：仅保存在内存中，直到 poolscope 退出）</translation>
    </message>
    <message>
        <source>(kept in memory only, until poolscope exits)</source>
        <translation>（仅保存在内存中，直到 poolscope 退出）</translation>
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
    <message>
        <source>Seed</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>%1 is larger than 64 MiB: split it first.</source>
        <translation>%1 大于 64 MiB：请先拆分。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 (%2): the first %3 lines are shown, every line is used</source>
        <translation>%1（%2）：显示前 %3 行，所有行都会使用</translation>
    </message>
    <message>
        <source>Open a proxy list</source>
        <translation>打开代理列表</translation>
    </message>
    <message>
        <source>Proxy lists (*.txt *.csv *.json *.list)</source>
        <translation>代理列表 (*.txt *.csv *.json *.list)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>evicted: restore it instead</source>
        <translation>已移出：请改为恢复它</translation>
    </message>
    <message>
        <source>already in the pool</source>
        <translation>已在池中</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>line %1: %2
%3</source>
        <translation>第 %1 行：%2
%3</translation>
    </message>
    <message>
        <source>%1 (%2, first %3 listed)</source>
        <translation>%1（%2，列出前 %3 个）</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>已接受</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Duplicates</source>
        <translation>重复项</translation>
    </message>
    <message>
        <source>New members join at the pool minimum: no flood.</source>
        <translation>新成员以池最小值加入：无分配洪峰。</translation>
    </message>
    <message>
        <source>Starting count: %1</source>
        <translation>初始计数：%1</translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already (pool minimum now %1). Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>没有可导入的新成员：接受的 %n 个成员都已在池中（池最小值现为 %1）。勾选“重置池中已有的成员”可重新设置它们的分配次数。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing new to seed: the %n accepted member(s) are all in the pool already. Tick &quot;Reset members already in the pool&quot; to set their count again.</source>
        <translation>
            <numerusform>没有可导入的新成员：接受的 %n 个成员都已在池中。勾选“重置池中已有的成员”可重新设置它们的分配次数。</numerusform>
        </translation>
    </message>
    <message>
        <source>Pool minimum is %1: starting at %2 causes no flood.</source>
        <translation>池最小值为 %1：从 %2 开始不会造成分配洪峰。</translation>
    </message>
    <message>
        <source>The pool is empty: the new members share the allocations.</source>
        <translation>代理池为空：新成员将分摊分配。</translation>
    </message>
    <message>
        <source>Flood warning: %1 is below the pool minimum %2. %3</source>
        <translation>分配洪峰警告：%1 低于池最小值 %2。%3</translation>
    </message>
    <message>
        <source>Seed a pool (not connected)</source>
        <translation>导入代理池（未连接）</translation>
    </message>
    <message>
        <source>Not connected: connect to a pool first.</source>
        <translation>未连接：请先连接到代理池。</translation>
    </message>
    <message>
        <source>Seed pool &quot;%1&quot; · %2</source>
        <translation>导入代理池“%1” · %2</translation>
    </message>
    <message>
        <source>Target pool: &lt;b&gt;%1&lt;/b&gt; on %2</source>
        <translation>目标代理池：%2 上的 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Seed %Ln member(s)</source>
        <translation>
            <numerusform>导入 %Ln 个成员</numerusform>
        </translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>已禁用：%1</translation>
    </message>
    <message>
        <source>Disabled: still reading the list</source>
        <translation>已禁用：仍在读取列表</translation>
    </message>
    <message>
        <source>Disabled: no accepted proxy in the list</source>
        <translation>已禁用：列表中没有被接受的代理</translation>
    </message>
    <message>
        <source>Write the accepted members to the pool</source>
        <translation>将接受的成员写入代理池</translation>
    </message>
    <message>
        <source>Reading the list (%1)…</source>
        <translation>正在读取列表（%1）…</translation>
    </message>
    <message>
        <source>The list cannot be used: %1</source>
        <translation>无法使用该列表：%1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln accepted (%1 new), %2 rejected, %3 duplicates collapsed.</source>
        <translation>
            <numerusform>接受 %Ln 个（新增 %1 个），拒绝 %2 个，合并重复项 %3 个。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Writing %Ln member(s)…</source>
        <translation>
            <numerusform>正在写入 %Ln 个成员…</numerusform>
        </translation>
    </message>
    <message>
        <source>Done: %1 added at count %2, %3 already in the pool kept their count, %4 reset, %5 evicted not re-added.</source>
        <translation>完成：%1 个以分配次数 %2 添加，%3 个已在池中的保留了其分配次数，%4 个已重置，%5 个已移出的未重新添加。</translation>
    </message>
    <message>
        <source>Seed failed: %1</source>
        <translation>导入失败：%1</translation>
    </message>
</context>
<context>
    <name>poolscope::SessionRecorder</name>
    <message>
        <source>recording stopped: %1</source>
        <translation>录制已停止：%1</translation>
    </message>
    <message>
        <source>recording switched off</source>
        <translation>录制已关闭</translation>
    </message>
    <message>
        <source>cannot read the past of this pool: %1</source>
        <translation>无法读取此代理池的过去：%1</translation>
    </message>
    <message>
        <source>not recording: %1</source>
        <translation>未录制：%1</translation>
    </message>
    <message>
        <source>recording to %1</source>
        <translation>正在录制到 %1</translation>
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
    <message>
        <source>disconnected</source>
        <translation>已断开</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>正在连接</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>正在重新连接</translation>
    </message>
    <message>
        <source>Connection to the Redis server</source>
        <translation>与 Redis 服务器的连接</translation>
    </message>
    <message>
        <source>Round-trip time of the last poll (all its commands)</source>
        <translation>上次轮询（包括其所有命令）的往返时间</translation>
    </message>
    <message>
        <source>Time since the last successful poll</source>
        <translation>距上次成功轮询的时间</translation>
    </message>
    <message>
        <source>Members in the pool</source>
        <translation>池中的成员</translation>
    </message>
    <message>
        <source>rtt %1</source>
        <translation>rtt %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln member(s)</source>
        <translation>
            <numerusform>%Ln 个成员</numerusform>
        </translation>
    </message>
    <message>
        <source>Authentication failed, not retrying: enter the password in the Redis URL field</source>
        <translation>身份验证失败，不再重试：请在 Redis URL 字段中输入密码</translation>
    </message>
    <message>
        <source>poll failed: %1</source>
        <translation>轮询失败：%1</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source> (paused)</source>
        <translation type="vanished"> (已暂停)</translation>
    </message>
    <message>
        <source> · read-only</source>
        <translation type="vanished"> · 只读</translation>
    </message>
    <message>
        <source> · primary %1 (from sentinel %2)</source>
        <translation type="vanished"> · 主节点 %1（来自哨兵 %2）</translation>
    </message>
    <message>
        <source>%1, pool &quot;%2&quot;</source>
        <translation>%1，代理池“%2”</translation>
    </message>
    <message>
        <source>no poll yet</source>
        <translation>尚未轮询</translation>
    </message>
    <message>
        <source>stale: last good poll %1 (%2)</source>
        <translation>已过时：上次成功轮询 %1（%2）</translation>
    </message>
    <message>
        <source>polled %1</source>
        <translation>上次轮询：%1</translation>
    </message>
    <message>
        <source>%1 (paused)</source>
        <comment>%1: the connection&apos;s state; polling is paused</comment>
        <translation>%1（已暂停）</translation>
    </message>
    <message>
        <source>read-only</source>
        <comment>the connection: nothing is written through it</comment>
        <translation>只读</translation>
    </message>
    <message>
        <source>primary %1 (from sentinel %2)</source>
        <translation>主节点 %1（来自哨兵 %2）</translation>
    </message>
</context>
<context>
    <name>poolscope::TabbedWindow</name>
    <message>
        <source>New &amp;tab</source>
        <translation>新建标签页(&amp;T)</translation>
    </message>
    <message>
        <source>Another pool beside this one: a tab with its own connection</source>
        <translation>在此代理池旁再打开一个代理池：一个有自己连接的标签页</translation>
    </message>
    <message>
        <source>&amp;Close tab</source>
        <translation>关闭标签页(&amp;C)</translation>
    </message>
    <message>
        <source>Stop watching this tab&apos;s pool; the pool itself is not touched</source>
        <translation>停止监视此标签页的代理池；代理池本身不受影响</translation>
    </message>
    <message>
        <source>Next tab</source>
        <translation>下一个标签页</translation>
    </message>
    <message>
        <source>Previous tab</source>
        <translation>上一个标签页</translation>
    </message>
    <message>
        <source>%1 · %2 (recording)</source>
        <translation>%1 · %2（录制文件）</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>New tab</source>
        <translation>新标签页</translation>
    </message>
    <message>
        <source>Close this tab (Ctrl+W); the pool is not touched</source>
        <translation>关闭此标签页（Ctrl+W）；代理池不受影响</translation>
    </message>
</context>
<context>
    <name>poolscope::TestAllocationDialog</name>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>取消运行</translation>
    </message>
    <message>
        <source>Stop the run now; the summary still accounts for every allocation</source>
        <translation>立即停止运行；摘要仍会计入每一次分配</translation>
    </message>
    <message>
        <source>atomic script (allocate.lua)</source>
        <translation>原子脚本（allocate.lua）</translation>
    </message>
    <message>
        <source>naive ZRANGE + ZINCRBY (race demo)</source>
        <translation>朴素 ZRANGE + ZINCRBY（竞争演示）</translation>
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message numerus="yes">
        <source>starting %n worker(s)…</source>
        <translation>
            <numerusform>正在启动 %n 个工作进程…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>test allocations started: %1, %n worker(s), pipeline %2%3, %4</source>
        <translation>
            <numerusform>测试分配已开始：%1，%n 个工作进程，流水线 %2%3，%4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln allocation(s)</source>
        <translation>
            <numerusform>%Ln 次分配</numerusform>
        </translation>
    </message>
    <message>
        <source>, max %1/s</source>
        <translation>，最高 %1 次/秒</translation>
    </message>
    <message>
        <source>atomic</source>
        <translation>原子</translation>
    </message>
    <message>
        <source>naive</source>
        <translation>朴素</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Start the test allocations</source>
        <translation>开始测试分配</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>已禁用：%1</translation>
    </message>
    <message>
        <source>%1 done · %2 allocations/s</source>
        <translation>已完成 %1 次 · %2 次分配/秒</translation>
    </message>
    <message>
        <source>stopped at %1 of %2 (%p%)</source>
        <translation>在 %1 / %2 时停止（%p%）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
</context>
<context>
    <name>poolscope::TypedConfirmDialog</name>
    <message>
        <source>Type the pool&apos;s name, %1, to confirm:</source>
        <translation>输入代理池名称 %1 以确认：</translation>
    </message>
    <message>
        <source>&amp;Confirm</source>
        <translation>确认(&amp;C)</translation>
    </message>
</context>
<context>
    <name>poolscope::WriteLock</name>
    <message>
        <source>production: writes are locked for this connection; unlock them for this session first (Pool ▸ Unlock writes)</source>
        <translation>生产：此连接的写入已锁定；请先为本次会话解锁写入（代理池 ▸ 解锁写入）</translation>
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
