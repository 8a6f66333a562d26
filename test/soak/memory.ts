const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

export interface MemoryBreakdown {
  file_mib: number;
  /** of file_mib: the executable's (Bun's) machine code, its other pages (read-only data, the embedded files and bytecode), other files (native addons, libc) */
  exe_code_mib: number;
  exe_data_mib: number;
  other_files_mib: number;
  brk_mib: number;
  glibc_arenas_mib: number;
  glibc_arena_count: number;
  other_anon_mib: number;
  /** of other_anon_mib: mimalloc's arenas (1 GiB reservations: the JS heap and Bun's own allocations), JIT code (rwx) */
  mimalloc_mib: number;
  jit_mib: number;
}

/**
 * The server's resident memory by where it lives, from /proc/PID/smaps (MiB): `file` the executable's and
 * libraries' pages (shared, reclaimable), split into the executable's machine code (the file with the most
 * resident pages: Parley's executable, or bun from source), its other pages, and other files; `brk` glibc
 * malloc's main heap; `glibc_arenas` its per-thread arenas (64 MiB reservations aligned to 64 MiB, used by
 * native code on other threads: libSQL, libvips); `other_anon` every other anonymous mapping, of which
 * `mimalloc` its arenas of 1 GiB or more (JavaScriptCore's heap is allocated there too) and `jit` the
 * writable and executable JIT region; the rest is thread stacks and large native allocations.
 */
export function memoryBreakdown(smaps: string): MemoryBreakdown {
  const ARENA = 64 * 1024 * 1024;
  const GIB = 1024 * 1024 * 1024;
  let brk = 0;
  let arenas = 0;
  let arenaCount = 0;
  let other = 0;
  let mimalloc = 0;
  let jit = 0;
  const byFile = new Map<string, { code: number; rest: number }>();
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
    if (m.inode !== "0" || (m.path && !m.path.startsWith("["))) {
      const f = byFile.get(m.path) ?? { code: 0, rest: 0 };
      if (m.perms.includes("x")) f.code += m.rss;
      else f.rest += m.rss;
      byFile.set(m.path, f);
    } else if (m.path === "[heap]") brk += m.rss;
    else if (m.start % ARENA === 0 && m.perms.startsWith("rw") && !m.perms.includes("x") && isArenaTail(parsed[i + 1], m)) {
      arenas += m.rss;
      arenaCount++;
    } else {
      other += m.rss;
      if (m.perms.startsWith("rwx")) jit += m.rss;
      else if (m.end - m.start >= GIB && !m.path) mimalloc += m.rss;
    }
  });
  // a glibc arena: its used part (rw) and the rest of its 64 MiB reservation (---p) right after it
  function isArenaTail(next: (typeof parsed)[number] | undefined, m: (typeof parsed)[number]) {
    if (m.end - m.start === ARENA) return true;
    return !!next && next.start === m.end && next.perms.startsWith("---") && next.end - m.start === ARENA;
  }
  const files = [...byFile.values()];
  const file = files.reduce((n, f) => n + f.code + f.rest, 0);
  const exe = files.reduce<{ code: number; rest: number } | null>((a, f) => (!a || f.code + f.rest > a.code + a.rest ? f : a), null) ?? { code: 0, rest: 0 };
  const mib = (b: number) => round(b / 1048576, 1);
  return {
    file_mib: mib(file),
    exe_code_mib: mib(exe.code),
    exe_data_mib: mib(exe.rest),
    other_files_mib: mib(file - exe.code - exe.rest),
    brk_mib: mib(brk),
    glibc_arenas_mib: mib(arenas),
    glibc_arena_count: arenaCount,
    other_anon_mib: mib(other),
    mimalloc_mib: mib(mimalloc),
    jit_mib: mib(jit),
  };
}
