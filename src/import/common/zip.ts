// Reading an export zip entry by entry (yauzl reads the central directory, then one entry at a time
// from the file), so memory holds one entry, never the archive.
import yauzl from "yauzl";
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
    return new ZipArchive(zip, entries, file);
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
    try {
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        this.zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s!))),
      );
      const parts: Buffer[] = [];
      for await (const chunk of stream as AsyncIterable<Buffer>) parts.push(chunk);
      return Buffer.concat(parts);
    } catch (e) {
      throw new ImportError(`${this.file}: ${name} cannot be read (${(e as Error).message})`);
    }
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
  }
}

/** Entry names use "/" and no leading "./". */
const normalize = (name: string) => name.replace(/\\/g, "/").replace(/^\.\//, "");
