import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { contentDisposition, servingType } from "../../src/uploads/content-type";
import { parseRange } from "../../src/uploads/file-response";
import { multipartBoundary, readMultipart, type PartInfo } from "../../src/uploads/multipart";
import { isWellFormedPathId, newPathId, pathIdFromSegments, sanitizeFilename, uploadPathsIn } from "../../src/uploads/paths";
import { UrlSigner } from "../../src/uploads/signed-url";
import { parseMetadata } from "../../src/uploads/tus";

/** Feeds `body` to the parser in the given chunk sizes and collects the parts. */
async function parse(body: Uint8Array, boundary: string, cuts: number[]) {
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const c of cuts) {
    if (at >= body.length) break;
    chunks.push(body.subarray(at, at + c));
    at += c;
  }
  if (at < body.length) chunks.push(body.subarray(at));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  const parts: (PartInfo & { data: Buffer })[] = [];
  await readMultipart(stream, boundary, (info) => {
    const part = { ...info, data: Buffer.alloc(0) };
    parts.push(part);
    return { write: (c) => void (part.data = Buffer.concat([part.data, c])), end: () => {} };
  });
  return parts;
}

describe("the streaming multipart reader", () => {
  test("reads what FormData writes, whatever the chunking", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.string({ maxLength: 20 }), fc.array(fc.integer({ min: 1, max: 97 }), { maxLength: 200 }), async (bytes, field, cuts) => {
        const form = new FormData();
        form.append("note", field);
        form.append("file", new File([bytes], "data.bin", { type: "application/octet-stream" }));
        const req = new Request("http://x/", { method: "POST", body: form });
        const boundary = multipartBoundary(req.headers.get("content-type"))!;
        const body = new Uint8Array(await req.arrayBuffer());
        const parts = await parse(body, boundary, cuts);
        expect(parts.map((p) => [p.name, p.filename])).toEqual([
          ["note", null],
          ["file", "data.bin"],
        ]);
        expect(parts[0]!.data.toString()).toBe(field);
        expect(parts[1]!.data.equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  test("data that looks almost like the boundary stays data", async () => {
    const boundary = "XyZ";
    const payload = "--XyZ is not a boundary unless after CRLF\r\n--Xy\r\n-XyZ";
    const body = new TextEncoder().encode(`--XyZ\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\n${payload}\r\n--XyZ--\r\n`);
    for (const size of [1, 2, 3, 5, 1000]) {
      const parts = await parse(body, boundary, Array(body.length).fill(size));
      expect(parts[0]!.data.toString()).toBe(payload);
    }
  });

  test("RFC 5987 file names, and a body cut short is an error", async () => {
    const body = new TextEncoder().encode(`--b\r\nContent-Disposition: form-data; name="f"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt\r\n\r\nx\r\n--b--`);
    expect((await parse(body, "b", []))[0]!.filename).toBe("résumé.txt");
    const cut = new TextEncoder().encode(`--b\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\nxyz`);
    await expect(parse(cut, "b", [])).rejects.toThrow("ended early");
  });

  test("the boundary comes from the Content-Type, quoted or not", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe("a b");
    expect(multipartBoundary("application/x-www-form-urlencoded")).toBeNull();
    expect(multipartBoundary(null)).toBeNull();
  });
});

describe("paths", () => {
  test("sanitizeFilename keeps letters, digits, dots, dashes and underscores", () => {
    expect(sanitizeFilename("Screenshot 2024-01-01 at 10.00.00.png")).toBe("Screenshot-2024-01-01-at-10.00.00.png");
    expect(sanitizeFilename("C:\\Users\\me\\file.txt")).toBe("file.txt");
    expect(sanitizeFilename("日本語 ファイル.pdf")).toBe("日本語-ファイル.pdf");
    expect(sanitizeFilename("<script>.html")).toBe("script.html");
    expect(sanitizeFilename("\0")).toBe("uploaded-file");
  });

  test("a sanitized name never escapes its folder", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (name) => {
        const s = sanitizeFilename(name);
        expect(s.length).toBeGreaterThan(0);
        expect(s).not.toContain("/");
        expect(s).not.toContain("\\");
        expect(s.startsWith(".")).toBe(false);
        expect(isWellFormedPathId(newPathId(2, name))).toBe(true);
      }),
    );
  });

  test("URL segments decode to a path id only when every segment is safe", () => {
    expect(pathIdFromSegments(["2", "ab", "x", "r%C3%A9.txt"])).toBe("2/ab/x/ré.txt");
    for (const bad of [["2", ".."], ["2", "%2e%2e"], ["2", "a%2Fb"], ["2", "a%5Cb"], ["2", "a%00"], ["2", ""], ["%E0%A4%A"], []]) {
      expect(pathIdFromSegments(bad)).toBeNull();
    }
  });

  test("uploadPathsIn ignores thumbnails and malformed links", () => {
    expect(uploadPathsIn("/user_uploads/thumbnail/2/ab/AAAAAAAAAAAAAAAAAAAAAAAA/x.png/840x560.webp")).toEqual([]);
    expect(uploadPathsIn("/user_uploads/2/ab/short/x.png")).toEqual([]);
  });
});

describe("HTTP details", () => {
  test("byte ranges", () => {
    expect(parseRange("bytes=0-0", 10)).toEqual([0, 0]);
    expect(parseRange("bytes=-20", 10)).toEqual([0, 9]);
    expect(parseRange("bytes=9-", 10)).toEqual([9, 9]);
    expect(parseRange("bytes=10-", 10)).toBeNull();
    expect(parseRange("bytes=-0", 10)).toBeNull();
    expect(parseRange("bytes=0-1,3-4", 10)).toBe("ignore");
    expect(parseRange("items=0-1", 10)).toBe("ignore");
    expect(parseRange("bytes=0-", 0)).toBeNull();
  });

  test("only safe types are inline; active ones are relabelled", () => {
    expect(servingType("image/png")).toEqual({ contentType: "image/png", inline: true });
    expect(servingType("text/plain")).toEqual({ contentType: "text/plain; charset=utf-8", inline: true });
    expect(servingType("image/svg+xml")).toEqual({ contentType: "application/octet-stream", inline: false });
    expect(servingType("text/html")).toEqual({ contentType: "application/octet-stream", inline: false });
    expect(servingType("application/zip")).toEqual({ contentType: "application/zip", inline: false });
    expect(servingType(null)).toEqual({ contentType: "application/octet-stream", inline: false });
  });

  test("Content-Disposition carries an ASCII fallback and the UTF-8 name", () => {
    expect(contentDisposition(false, 'ré"s.txt')).toBe(`attachment; filename="r__s.txt"; filename*=UTF-8''r%C3%A9%22s.txt`);
  });

  test("tus Upload-Metadata", () => {
    expect(parseMetadata("filename d29ybGRfZG9taW5hdGlvbl9wbGFuLnBkZg==,is_confidential")).toEqual({ filename: "world_domination_plan.pdf", is_confidential: "" });
    expect(parseMetadata(null)).toEqual({});
    expect(parseMetadata("a b c")).toBeNull();
    expect(parseMetadata("k %%%")).toBeNull();
  });

  test("signed tokens name the file and the user they were made for, expire and cannot be altered", () => {
    const signer = new UrlSigner();
    const token = signer.sign("2/ab/x/f.txt", 7, 1060);
    expect(signer.verify(token, 1000)).toEqual({ pathId: "2/ab/x/f.txt", userId: 7 });
    expect(signer.verify(token, 1061)).toBeNull();
    expect(new UrlSigner().verify(token, 1000)).toBeNull();
    const [data, sig] = token.split(".");
    const otherUser = Buffer.from(Buffer.from(data!, "base64url").toString().replace("\n7\n", "\n8\n")).toString("base64url");
    expect(signer.verify(`${otherUser}.${sig}`, 1000)).toBeNull();
  });
});
