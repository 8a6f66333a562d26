const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/**
 * The server's resident memory by where it lives, from /proc/PID/smaps (MiB): `file` the executable's and
 * libraries' pages (shared, reclaimable); `brk` glibc malloc's main heap; `glibc_arenas` its per-thread
 * arenas (64 MiB reservations aligned to 64 MiB, used by native code on other threads: libSQL, libvips);
 * `other_anon` every other anonymous mapping: JavaScriptCore's heap and Bun's mimalloc segments, thread
 * stacks, and large native allocations (SQLite's page cache among them).
 */
export function memoryBreakdown(smaps: string): { file_mib: number; brk_mib: number; glibc_arenas_mib: number; glibc_arena_count: number; other_anon_mib: number } {
  const ARENA = 64 * 1024 * 1024;
  let file = 0;
  let brk = 0;
  let arenas = 0;
  let arenaCount = 0;
  let other = 0;
  const maps = smaps.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
  const parsed = maps.map((m) => {
    const [head = "", ...rest] = m.split("\n");
    const [range = "", perms = "", , , inode = "0", path = ""] = head.trim().split(/\s+/);
    const [start, end] = range.split("-").map((h) => parseInt(h, 16)) as [number, number];
    const rss = Number(rest.find((l) => l.startsWith("Rss:"))?.match(/(\d+)/)?.[1] ?? 0) * 1024;
    return { start, end, perms, inode, path, rss };
  });
  parsed.forEach((m, i) => {
    if (!m.rss) return;
    if (m.inode !== "0" || (m.path && !m.path.startsWith("["))) file += m.rss;
    else if (m.path === "[heap]") brk += m.rss;
    else if (m.start % ARENA === 0 && m.perms.startsWith("rw") && isArenaTail(parsed[i + 1], m)) {
      arenas += m.rss;
      arenaCount++;
    } else other += m.rss;
  });
  // a glibc arena: its used part (rw) and the rest of its 64 MiB reservation (---p) right after it
  function isArenaTail(next: (typeof parsed)[number] | undefined, m: (typeof parsed)[number]) {
    if (m.end - m.start === ARENA) return true;
    return !!next && next.start === m.end && next.perms.startsWith("---") && next.end - m.start === ARENA;
  }
  const mib = (b: number) => round(b / 1048576, 1);
  return { file_mib: mib(file), brk_mib: mib(brk), glibc_arenas_mib: mib(arenas), glibc_arena_count: arenaCount, other_anon_mib: mib(other) };
}
