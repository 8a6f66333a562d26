// The 64-bit ARM executable (Raspberry Pi 4/5, most NAS boxes): `npm run build -- --target=linux-arm64`,
// copied alone into an empty folder and run as an operator would. On an x86-64 machine it runs under
// Debian's qemu user-mode emulation (qemu-aarch64-static with the arm64 C and C++ runtimes from
// libc6-arm64-cross, libstdc++6-arm64-cross, libgcc-s1-arm64-cross; `npm test` installs them through
// test/ensure-debian-packages.sh). One focused file: the emulated runs are slow.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { assertNoNodeModulesAbove, buildExecutable, chatSession, freePort, stop, waitUntilServing } from "../helpers/executable";

const CROSS_LIBS = "/usr/aarch64-linux-gnu";
let root: string;
let exe: string;
let home: string;
let runner: string[] = []; // the command prefix that runs an arm64 program here
let buildMs = 0;

function findQemu(): string | null {
  for (const name of ["qemu-aarch64-static", "qemu-aarch64"]) {
    const path = Bun.which(name);
    if (path) return path;
  }
  return null;
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  // qemu emulates a Cortex-A53 (ARMv8.0-A, the oldest 64-bit ARM core in common use: Raspberry Pi 3, many
  // NAS boxes), not its default "max" CPU with every later extension: what runs here runs on a Pi 4 or 5
  return { PATH: "/usr/bin:/bin", HOME: home, LANG: "C.UTF-8", QEMU_LD_PREFIX: CROSS_LIBS, QEMU_CPU: "cortex-a53", ...extra };
}

async function run(args: string[]) {
  const p = Bun.spawn([...runner, exe, ...args], { cwd: root, env: env(), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

beforeAll(() => {
  if (process.arch !== "arm64") {
    const qemu = findQemu();
    if (!qemu || !existsSync(join(CROSS_LIBS, "lib/ld-linux-aarch64.so.1"))) {
      throw new Error(
        "this test runs the arm64 executable under qemu: install Debian's qemu-user-static, libc6-arm64-cross, libstdc++6-arm64-cross " +
          "and libgcc-s1-arm64-cross (npm test does it through test/ensure-debian-packages.sh when run as root)",
      );
    }
    runner = [qemu];
  }
  root = mkdtempSync("/tmp/parley-arm64-");
  assertNoNodeModulesAbove(root);
  home = join(root, "home");
  mkdirSync(home);
  mkdirSync(join(root, "bin"));
  exe = join(root, "bin", "parley-linux-arm64");
  const started = performance.now();
  buildExecutable(exe, { target: "linux-arm64" });
  buildMs = performance.now() - started;
}, 180_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("the linux-arm64 executable", () => {
  test("is a 64-bit ARM Linux program, alone in its folder", async () => {
    const head = Buffer.from(await Bun.file(exe).slice(0, 20).arrayBuffer());
    expect(head.subarray(0, 4).toString("latin1")).toBe("\x7fELF");
    expect(head.readUInt16LE(18)).toBe(183); // e_machine EM_AARCH64
    expect(readdirSync(join(root, "bin"))).toEqual(["parley-linux-arm64"]);
  });

  test("inits, serves, sends, uploads and thumbnails, and stops cleanly on SIGTERM", async () => {
    const data = join(root, "data");
    const init = await run(["init", "--data-dir", data, "--org-name", "Pi Team", "--email", "pi@example.com", "--full-name", "Pi Owner", "--password", "raspberry pie"]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    const owner = JSON.parse(init.stdout) as { user_id: number; email: string; api_key: string };
    expect(owner).toMatchObject({ user_id: 1, email: "pi@example.com" });

    const port = freePort();
    const server = Bun.spawn([...runner, exe, "serve", "--data-dir", data, "--port", String(port)], { cwd: root, env: env(), stdout: "pipe", stderr: "pipe" });
    const base = `http://127.0.0.1:${port}`;
    let code: number | "timeout";
    let startMs = 0;
    try {
      startMs = await waitUntilServing(base, server, 60_000);
      await chatSession(base, owner, { thumbnailWaitMs: 30_000 });
    } finally {
      code = await stop(server, 20_000);
    }
    expect(code).toBe(0);
    expect(await new Response(server.stderr).text()).not.toMatch(/panic|segmentation fault|uncaught|error/i);
    // arm64's native files went to the private cache: the libSQL driver, sharp's arm64 addon, libvips
    const cached = readdirSync(join(home, ".cache", "parley", "native")).map((f) => f.replace(/^[0-9a-f]{16}-/, ""));
    expect(cached.sort()).toEqual(["index.node", expect.stringMatching(/^libvips-cpp\.so\.8\./), expect.stringMatching(/^sharp-linux-arm64-.*\.node$/)]);
    expect(statSync(join(data, "parley.db-wal"), { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    console.log(
      `arm64 executable: built in ${(buildMs / 1000).toFixed(1)} s, ${(statSync(exe).size / 1048576).toFixed(1)} MiB, ` +
        `first answer ${runner.length ? "under qemu " : ""}after ${startMs.toFixed(0)} ms`,
    );
  }, 120_000);
});
