// A tiny entry point compiled by test/cli/executable.test.ts with the same plugin as build/parley: it checks,
// outside any node_modules, that the embedded libSQL driver and sharp with libvips load and work.
import { createClient } from "@libsql/client";
import { embeddedLibvipsLoaded, loadSharpModule } from "../src/lib/native";

const db = createClient({ url: "file::memory:" });
const row = (await db.execute("select sqlite_version() as v")).rows[0]!;
const sharp = await loadSharpModule();
const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366cc" } }).png().toBuffer();
const thumb = await sharp(png).resize(16).webp().toBuffer();
const meta = await sharp(thumb).metadata();
console.log(JSON.stringify({ sqlite: row.v, vips: sharp.versions.vips, embeddedLibvips: embeddedLibvipsLoaded(), thumb: [meta.format, meta.width, meta.height] }));
