/**
 * Makes the installable app's PNG icons from the favicon (assets/app/images/favicon.svg) with sharp:
 * 192 and 512 px as they are, and a 512 px "maskable" one whose mark sits inside the safe zone (the
 * middle 80%) on a full-bleed background, since a phone's launcher crops it to its own shape.
 * Run once when the logo changes (`bun build/make-icons.ts`); the PNGs are committed in assets/images.
 */
import { join, resolve } from "node:path";
import sharp from "sharp";

const ROOT = resolve(import.meta.dir, "..");
const svg = await Bun.file(join(ROOT, "assets/app/images/favicon.svg")).text();
const mark = /<path[^>]*\/>/.exec(svg)?.[0];
const fill = /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1];
if (!mark || !fill) throw new Error("favicon.svg: expected one <rect fill> and one <path>");
// the bubble spans about 16 of 32 units; scaled by 0.75 around the middle it stays well inside the safe zone
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${fill}"/><g transform="translate(16 16) scale(0.75) translate(-17 -15.5)">${mark}</g></svg>`;

const out = (name: string) => join(ROOT, "assets/images", name);
const png = (source: string, size: number, name: string) => sharp(Buffer.from(source), { density: (72 * size) / 32 }).resize(size, size).png({ compressionLevel: 9 }).toFile(out(name));

await png(svg, 192, "icon-192.png");
await png(svg, 512, "icon-512.png");
await png(maskable, 512, "icon-maskable-512.png");
console.log("wrote assets/images/icon-192.png, icon-512.png, icon-maskable-512.png");
