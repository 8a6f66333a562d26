// Reading an export zip entry by entry, so memory holds one entry, never the archive: yauzl reads
// the central directory (zip64 and name encodings included); an entry's bytes are then read from
// the file at its offset and inflated in one call (yauzl's stream per entry cost a third of a small
// export's import), checked against its size and CRC-32.
import yauzl from "yauzl";
import { closeSync, openSync, readSync } from "node:fs";
import { crc32, inflateRawSync } from "node:zlib";
import { ImportError } from "./problems";

export interface ZipEntryInfo {
  name: string;
  size: number;
}

export class ZipArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    readonly file: string,
    private readonly fd: number,
  ) {}

  /** Opens a zip and lists its entries; a file that is not a readable zip is refused. */
  static async open(file: string): Promise<ZipArchive> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: true, strictFileNames: false }, (err, z) => (err ? reject(err) : resolve(z!))),
    ).catch((e: Error) => {
      throw new ImportError(`${file} is not a readable zip archive (${e.message})`);
    });
    const entries = new Map<string, yauzl.Entry>();
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on("entry", (entry: yauzl.Entry) => {
          if (!entry.fileName.endsWith("/")) entries.set(normalize(entry.fileName), entry);
          zip.readEntry();
        });
        zip.on("end", () => resolve());
        zip.on("error", reject);
        zip.readEntry();
      });
    } catch (e) {
      zip.close();
      throw new ImportError(`${file} is a damaged zip archive (${(e as Error).message})`);
    }
    return new ZipArchive(zip, entries, file, openSync(file, "r"));
  }

  /** Entry names (folders left out), with Slack's optional top folder removed by `normalize`. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  size(name: string): number {
    return this.entries.get(name)?.uncompressedSize ?? 0;
  }

  /** One entry's bytes; a damaged entry is refused naming it. */
  async read(name: string): Promise<Buffer> {
    const entry = this.entries.get(name);
    if (!entry) throw new ImportError(`${this.file}: ${name} is missing`);
    const damaged = (why: string) => new ImportError(`${this.file}: ${name} cannot be read (${why})`);
    if (entry.isEncrypted()) throw damaged("it is encrypted");
    const header = Buffer.alloc(30);
    if (readSync(this.fd, header, 0, 30, entry.relativeOffsetOfLocalHeader) !== 30 || header.readUInt32LE(0) !== 0x04034b50) throw damaged("no local header");
    const start = entry.relativeOffsetOfLocalHeader + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const packed = Buffer.alloc(entry.compressedSize);
    if (readSync(this.fd, packed, 0, packed.length, start) !== packed.length) throw damaged("it is cut short");
    let bytes: Buffer;
    try {
      if (entry.compressionMethod === 0) bytes = packed;
      else if (entry.compressionMethod === 8) bytes = inflateRawSync(packed);
      else throw damaged(`compression method ${entry.compressionMethod} is not supported`);
    } catch (e) {
      if (e instanceof ImportError) throw e;
      throw damaged((e as Error).message);
    }
    if (bytes.length !== entry.uncompressedSize) throw damaged("its size does not match the archive's directory");
    if (crc32(bytes) >>> 0 !== entry.crc32 >>> 0) throw damaged("its checksum does not match");
    return bytes;
  }

  /** One JSON entry, parsed; invalid JSON is refused naming the entry. */
  async json<T = unknown>(name: string): Promise<T> {
    const bytes = await this.read(name);
    try {
      return JSON.parse(bytes.toString("utf8")) as T;
    } catch (e) {
      throw new ImportError(`${this.file}: ${name} is not valid JSON (${(e as Error).message})`);
    }
  }

  close() {
    this.zip.close();
    closeSync(this.fd);
  }
}

/** Entry names use "/" and no leading "./". */
const normalize = (name: string) => name.replace(/\\/g, "/").replace(/^\.\//, "");
