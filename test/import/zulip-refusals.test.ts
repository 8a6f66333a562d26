// What `import zulip` does with a bad export: a refusal naming the file and the item (nothing
// written: no data dir, no build or unpack folder left), or a logged skip counted in the summary;
// never a stack trace.
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { importZulip } from "../../src/import/zulip/import";
import { ImportError } from "../../src/import/common/problems";
import { main } from "../../src/main";
import { makePng } from "../helpers/uploads";
import { cloudExport, writeExport, type Files } from "./zulip-fixture";
import { importConfig, openImported } from "./open-imported";

const root = mkdtempSync(join(tmpdir(), "parley-zulip-refusals-"));
let base: Files;
let n = 0;
const fresh = () => join(root, `case-${++n}`);
const quiet = { write: () => true, isTTY: false } as any;

beforeAll(async () => {
  base = cloudExport(new Uint8Array(await makePng(4, 4)));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A copy of the fixture with `change` applied to its parsed files. */
async function variant(name: string, change: (f: Record<string, any>) => void): Promise<string> {
  const files = structuredClone(base) as Record<string, any>;
  change(files);
  const path = join(root, name);
  await writeExport(path, files);
  return path;
}

async function refused(archive: string, dataDir: string, expected: RegExp): Promise<string> {
  let error: unknown;
  try {
    await importZulip(importConfig(dataDir), { archive, log: () => {}, out: quiet });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ImportError);
  expect((error as Error).message).toMatch(expected);
  expect(existsSync(dataDir)).toBe(false);
  expect(leftovers()).toEqual([]);
  return (error as Error).message;
}

const leftovers = () => readdirSync(root).filter((f) => f.includes("import-in-progress"));

describe("import zulip refuses, writing nothing", () => {
  test("a corrupt .tar.gz is refused naming the file", async () => {
    const archive = join(root, "corrupt.tar.gz");
    writeFileSync(archive, gzipSync(Buffer.from("definitely not a tar archive, just some text that gzip wrapped")).subarray(0, 40));
    await refused(archive, fresh(), /corrupt\.tar\.gz is not a readable \.tar\.gz export/);
  });

  test("a file that is not an archive at all is refused", async () => {
    const archive = join(root, "text.tar.gz");
    writeFileSync(archive, "hello");
    await refused(archive, fresh(), /text\.tar\.gz is not a readable \.tar\.gz export/);
  });

  test("an export without realm.json is refused naming the file", async () => {
    const archive = await variant("no-realm.tar.gz", (f) => delete f["realm.json"]);
    await refused(archive, fresh(), /no-realm\.tar\.gz: realm\.json is missing \(is this a Zulip organization export\?\)/);
  });

  test("realm.json that is not JSON is refused naming the file", async () => {
    const archive = await variant("bad-json.tar.gz", (f) => (f["realm.json"] = "{ not json"));
    await refused(archive, fresh(), /bad-json\.tar\.gz: realm\.json is not valid JSON/);
  });

  test("a person without an email is refused naming the person", async () => {
    const archive = await variant("no-email.tar.gz", (f) => {
      const p = f["realm.json"].zerver_userprofile.find((u: any) => u.id === 7);
      delete p.email;
      delete p.delivery_email;
    });
    await refused(archive, fresh(), /realm\.json: zerver_userprofile id 7 \(Di Member\) has no email/);
  });

  test("a broken messages file fails the import midway and leaves no data dir, build or unpacked folder", async () => {
    const archive = await variant("bad-messages.tar.gz", (f) => (f["messages-000001.json"] = '{"zerver_message": [1, 2'));
    await refused(archive, fresh(), /bad-messages\.tar\.gz: messages-000001\.json is not valid JSON/);
    expect(readdirSync(root).filter((x) => x.includes("zulip-export"))).toEqual([]);
  });

  test("an entry pointing outside the export is refused", async () => {
    const archive = join(root, "escape.tar.gz");
    await writeExport(archive, { "../../escape.txt": "boo", "realm.json": base["realm.json"]! }, "");
    await refused(archive, fresh(), /the entry '\.\.\/\.\.\/escape\.txt' points outside the export; refused/);
    expect(existsSync(join(root, "..", "escape.txt"))).toBe(false);
  });

  test("a data dir that is not empty is refused and left as it was", async () => {
    const archive = await variant("ok.tar.gz", () => {});
    const dir = fresh();
    mkdirSync(dir);
    writeFileSync(join(dir, "keep.txt"), "mine");
    let error: unknown;
    try {
      await importZulip(importConfig(dir), { archive, log: () => {}, out: quiet });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toMatch(/is not empty \(it holds keep\.txt\)/);
    expect(readdirSync(dir)).toEqual(["keep.txt"]);
  });
});

describe("import zulip skips what it cannot place, and says so", () => {
  test("a message whose sender is not in zerver_userprofile is skipped, logged with its file and id, and counted", async () => {
    const archive = await variant("stranger.tar.gz", (f) => {
      const m = f["messages-000001.json"];
      m.zerver_message.push({ ...m.zerver_message[0], id: 1099, sender: 77, content: "who am I", rendered_content: "<p>who am I</p>", has_attachment: false });
      f["realm.json"].zerver_reaction.push({ id: 9, user_profile: 77, message: 1001, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" });
    });
    const dir = fresh();
    const log: string[] = [];
    const result = await importZulip(importConfig(dir), { archive, log: (l) => log.push(l), out: quiet });
    expect(log).toEqual(["skipped: messages-000001.json: zerver_message id 1099: its sender 77 is not in zerver_userprofile"]);
    expect(result.totals.messages).toBe(6);
    expect(result.summary[1]).toBe("Skipped 1 messages (each named above).");
    const imported = await openImported(dir);
    try {
      const ada = await imported.as("ada@acme.test");
      const found = (await ada.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "search", operand: "who" }] })).success().messages;
      expect(found).toEqual([]);
    } finally {
      await imported.close();
    }
  });

  test("unknown fields are ignored and listed by table in the summary", async () => {
    const archive = await variant("unknown.tar.gz", (f) => {
      f["realm.json"].zerver_stream[0].sparkle_level = 9;
      f["messages-000001.json"].zerver_message[0].mood = "happy";
      f["realm.json"].zerver_future_table = [{ id: 1 }];
    });
    const result = await importZulip(importConfig(fresh()), { archive, log: () => {}, out: quiet });
    expect(result.summary).toContain("Ignored 1 field of zerver_stream that Parley has no place for: sparkle_level.");
    expect(result.summary).toContain("Ignored 1 field of zerver_message that Parley has no place for: mood.");
    expect(result.summary).toContain("Ignored 1 field of zerver_userprofile that Parley has no place for: favourite_colour.");
    // a table Parley does not read at all is ignored whole
    expect(result.summary.join("\n")).not.toContain("zerver_future_table");
  });
});

describe("parley import zulip (the command)", () => {
  test("a refusal is one line on stderr and exit code 1, never a stack trace", async () => {
    const archive = join(root, "cmd-corrupt.tar.gz");
    writeFileSync(archive, "not an archive");
    const errors: string[] = [];
    const spy = spyOn(console, "error").mockImplementation((...a: unknown[]) => void errors.push(a.join(" ")));
    try {
      const dir = fresh();
      expect(await main(["import", "zulip", archive, "--data-dir", dir])).toBe(1);
      expect(existsSync(dir)).toBe(false);
    } finally {
      spy.mockRestore();
    }
    expect(errors).toEqual([`parley: import failed: ${archive} is not a readable .tar.gz export (not a tar archive)`]);
  });

  test("a successful import prints the summary, where the organization is, and with --print-login-links a link per person", async () => {
    const archive = await variant("cmd-ok.tar.gz", () => {});
    const dir = fresh();
    const lines: string[] = [];
    const spy = spyOn(console, "log").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
    try {
      expect(await main(["import", "zulip", archive, "--data-dir", dir, "--print-login-links"])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(lines[0]).toBe("Imported 7 people, 3 channels, 6 messages, 2 reactions, 1 files.");
    expect(lines).toContain(`The organization is in ${dir}; the owner's API key is in ${join(dir, "zuliprc")}.`);
    for (const email of ["ada@acme.test", "bo@acme.test", "di@acme.test", "ed@acme.test"]) {
      expect(lines.some((l) => l.startsWith(`  ${email}  `) && l.includes("/accounts/login/link/"))).toBe(true);
    }
    // deactivated people get no link
    expect(lines.some((l) => l.includes("fay@acme.test"))).toBe(false);
  });

  test("a missing archive and a second argument are usage errors (exit 2)", async () => {
    const spy = spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await main(["import", "zulip", join(root, "nope.tar.gz"), "--data-dir", fresh()])).toBe(2);
      expect(await main(["import", "zulip", "a.tar.gz", "b.tar.gz", "--data-dir", fresh()])).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });
});
