// The platforms `npm run build` makes executables for, and the npm packages each one's native parts come in.

export type TargetName = "linux-x64" | "linux-arm64";

export interface Target {
  name: TargetName;
  /** Bun's compile target */
  bun: "bun-linux-x64" | "bun-linux-arm64";
  /** npm's names for the platform (`npm install --os --cpu --libc`) */
  os: "linux";
  cpu: "x64" | "arm64";
  libc: "glibc";
  /** Bun's runtime for the platform: the executable the build appends Parley to when cross-compiling */
  bunRuntime: string;
}

export const TARGETS: Record<TargetName, Target> = {
  "linux-x64": { name: "linux-x64", bun: "bun-linux-x64", os: "linux", cpu: "x64", libc: "glibc", bunRuntime: "@oven/bun-linux-x64" },
  "linux-arm64": { name: "linux-arm64", bun: "bun-linux-arm64", os: "linux", cpu: "arm64", libc: "glibc", bunRuntime: "@oven/bun-linux-aarch64" },
};

/** The npm packages holding a target's libSQL driver, sharp's addon and libvips. */
export function nativePackagesOf(target: Target): { libsql: string; sharp: string; libvips: string } {
  return {
    libsql: `@libsql/${target.name}-gnu`,
    sharp: `@img/sharp-${target.name}`,
    libvips: `@img/sharp-libvips-${target.name}`,
  };
}

/** This machine's target, or null where Parley has no build (the build then needs an explicit --target). */
export function hostTarget(platform: string = process.platform, arch: string = process.arch): Target | null {
  return (TARGETS as Record<string, Target>)[`${platform}-${arch}`] ?? null;
}

/** `--target` values: a target's name, or `all`. */
export function parseTargets(value: string): Target[] {
  if (value === "all") return Object.values(TARGETS);
  const t = (TARGETS as Record<string, Target>)[value];
  if (!t) throw new Error(`unknown --target '${value}' (one of ${Object.keys(TARGETS).join(", ")}, all)`);
  return [t];
}
