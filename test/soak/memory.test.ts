import { expect, test } from "bun:test";
import { memoryBreakdown } from "./memory";

// A shortened /proc/PID/smaps: each mapping's header line, then its fields (only Rss is read).
const mapping = (range: string, perms: string, inode: string, path: string, rssKiB: number) =>
  `${range} ${perms} 00000000 00:00 ${inode}${path ? `                    ${path}` : ""}\nSize:  1 kB\nRss:   ${rssKiB} kB\nPss:   ${rssKiB} kB`;

test("the soak splits resident memory into the executable's code and data, other files, malloc's main heap, glibc's thread arenas, mimalloc's arenas, JIT code and other anonymous memory", () => {
  const smaps = [
    mapping("00400000-00800000", "r-xp", "1234", "/work/build/parley", 40 * 1024),
    mapping("00800000-00900000", "r--p", "1234", "/work/build/parley", 6 * 1024),
    mapping("00900000-00a00000", "r-xp", "99", "/usr/lib/libc.so.6", 1024),
    mapping("01000000-02000000", "rw-p", "0", "[heap]", 6 * 1024),
    // a thread arena: 8 MiB in use of its 64 MiB reservation, which starts on a 64 MiB boundary
    mapping("7f0000000000-7f0000800000", "rw-p", "0", "", 5 * 1024),
    mapping("7f0000800000-7f0004000000", "---p", "0", "", 0),
    // a whole-reservation arena
    mapping("7f0004000000-7f0008000000", "rw-p", "0", "", 3 * 1024),
    // anonymous memory that is not a glibc arena (not aligned): a 1 GiB mimalloc arena, JIT code, a native allocation
    mapping("7f0040000000-7f0080000000", "rw-p", "0", "", 10 * 1024),
    mapping("7f0100000000-7f0140000000", "rwxp", "0", "", 3 * 1024),
    mapping("7f0008100000-7f0009100000", "rw-p", "0", "", 2 * 1024),
    mapping("7ffc00000000-7ffc00021000", "rw-p", "0", "[stack]", 132),
  ].join("\n");
  expect(memoryBreakdown(smaps)).toEqual({
    file_mib: 47,
    exe_code_mib: 40,
    exe_data_mib: 6,
    other_files_mib: 1,
    brk_mib: 6,
    glibc_arenas_mib: 8,
    glibc_arena_count: 2,
    other_anon_mib: 15.1,
    mimalloc_mib: 10,
    jit_mib: 3,
  });
});
