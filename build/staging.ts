// Another platform's native packages for the build: npm installs them into build/out/staging/<target>
// (`--os --cpu --libc` make npm take that platform's optional packages), at exactly the versions that
// package-lock.json pins, and the build refuses them unless their integrity hashes match the lock's.
// A finished folder is reused; a new one is filled beside it and renamed into place, so two builds at
// once never see half an install.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nativePackagesOf, type Target } from "./targets";

interface LockEntry {
  version: string;
  integrity: string;
}

function lockEntries(root: string): Record<string, LockEntry> {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  return lock.packages;
}

/** The packages a target needs with the lock's version and integrity for each. */
export function pinnedPackages(root: string, target: Target): Record<string, LockEntry> {
  const lock = lockEntries(root);
  const names = [...Object.values(nativePackagesOf(target)), target.bunRuntime];
  const pinned: Record<string, LockEntry> = {};
  for (const name of names) {
    const entry = lock[`node_modules/${name}`];
    if (!entry?.version || !entry.integrity) throw new Error(`build: package-lock.json does not pin ${name}; run npm install`);
    pinned[name] = { version: entry.version, integrity: entry.integrity };
  }
  return pinned;
}

/** Installs (once) and returns the node_modules folder holding the target's native packages. */
export async function stageNativePackages(root: string, target: Target): Promise<string> {
  const pinned = pinnedPackages(root, target);
  const base = join(root, "build/out/staging");
  const dir = join(base, target.name);
  const stamp = JSON.stringify(pinned);
  const stampFile = join(dir, "pinned.json");
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return join(dir, "node_modules");

  mkdirSync(base, { recursive: true });
  const work = join(base, `.${target.name}-${process.pid}-${Date.now()}`);
  mkdirSync(work);
  try {
    const deps = Object.fromEntries(Object.entries(pinned).map(([name, e]) => [name, e.version]));
    writeFileSync(join(work, "package.json"), JSON.stringify({ name: "parley-native-staging", private: true, optionalDependencies: deps }));
    const args = ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", "--loglevel=error"];
    args.push(`--os=${target.os}`, `--cpu=${target.cpu}`, `--libc=${target.libc}`);
    const npm = Bun.spawn(args, { cwd: work, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(npm.stdout).text(), new Response(npm.stderr).text(), npm.exited]);
    if (code !== 0) throw new Error(`build: npm could not install ${target.name}'s native packages:\n${out}${err}`);
    const installed = (JSON.parse(readFileSync(join(work, "node_modules/.package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }).packages;
    for (const [name, want] of Object.entries(pinned)) {
      const got = installed[`node_modules/${name}`];
      if (!got) throw new Error(`build: npm did not install ${name}@${want.version} for ${target.name}`);
      if (got.version !== want.version || got.integrity !== want.integrity) {
        throw new Error(`build: ${name} for ${target.name} is ${got.version} (${got.integrity}), package-lock.json pins ${want.version} (${want.integrity})`);
      }
    }
    writeFileSync(join(work, "pinned.json"), stamp);
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(work, dir);
    } catch (e) {
      // another build finished the same install a moment earlier: use theirs
      if (!existsSync(stampFile) || readFileSync(stampFile, "utf8") !== stamp) throw e;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return join(dir, "node_modules");
}

/** The staged Bun runtime of a target (the executable a cross-compiled Parley is appended to). */
export function stagedBunRuntime(nodeModules: string, target: Target): string {
  return join(nodeModules, target.bunRuntime, "bin", "bun");
}
