// A lean HTTP/1.1 client for the load process: one keep-alive socket (Bun.connect) per connection, one
// request at a time, just enough parsing for the status and the body (Content-Length or chunked). The
// broadcast's 1,000 long-polls answer at once; through fetch the load process spent about as much CPU
// on them as the server did, on the same 2 cores and inside the measured latency.
import type { Socket } from "bun";

export interface RawAnswer {
  status: number;
  body: string;
}

const FETCH_HEADERS = `connection: keep-alive\r\nuser-agent: Bun/${Bun.version}\r\naccept: */*\r\naccept-encoding: gzip, deflate, br, zstd\r\n`;

type Pending = { resolve: (a: RawAnswer) => void; reject: (e: Error) => void };

export class RawHttp {
  private socket: Socket<undefined> | null = null;
  private buf: Buffer | null = null;
  private pending: Pending | null = null;
  private readonly hostHeader: string;

  private constructor(
    private readonly hostname: string,
    private readonly port: number,
  ) {
    this.hostHeader = `${hostname}:${port}`;
  }

  /** A connection to `base` (http://host:port), opened on the first request. */
  static to(base: string): RawHttp {
    const u = new URL(base);
    return new RawHttp(u.hostname, Number(u.port || 80));
  }

  private async open(): Promise<Socket<undefined>> {
    return Bun.connect({
      hostname: this.hostname,
      port: this.port,
      socket: {
        data: (_s, chunk) => this.received(chunk),
        close: () => this.failed(new Error("connection closed")),
        error: (_s, e) => this.failed(e),
      },
    });
  }

  /** Sends one request and resolves with its answer (a request while one is pending is an error). */
  async request(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
    if (this.pending) throw new Error("one request at a time");
    this.socket ??= await this.open();
    // the headers fetch sends by default, so the server parses what it parses for fetch's requests
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.hostHeader}\r\n${FETCH_HEADERS}`;
    for (const k in headers) head += `${k}: ${headers[k]}\r\n`;
    if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
    const answer = new Promise<RawAnswer>((resolve, reject) => (this.pending = { resolve, reject }));
    this.socket.write(head + "\r\n" + (body ?? ""));
    return answer;
  }

  close() {
    this.socket?.end();
    this.socket = null;
  }

  private failed(e: Error) {
    this.socket = null;
    this.buf = null;
    const p = this.pending;
    this.pending = null;
    p?.reject(e);
  }

  private received(chunk: Buffer) {
    this.buf = this.buf ? Buffer.concat([this.buf, chunk]) : chunk;
    const end = this.buf.indexOf("\r\n\r\n");
    if (end < 0) return;
    const head = this.buf.toString("latin1", 0, end);
    const status = Number(head.slice(9, 12));
    const start = end + 4;
    let body: string;
    let rest: number;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (length) {
      rest = start + Number(length[1]);
      if (this.buf.length < rest) return;
      body = this.buf.toString("utf8", start, rest);
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const parts: Buffer[] = [];
      let at = start;
      for (;;) {
        const nl = this.buf.indexOf("\r\n", at);
        if (nl < 0) return;
        const size = parseInt(this.buf.toString("latin1", at, nl), 16);
        if (this.buf.length < nl + 2 + size + 2) return;
        if (size === 0) {
          rest = nl + 4;
          break;
        }
        parts.push(this.buf.subarray(nl + 2, nl + 2 + size));
        at = nl + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString("utf8");
    } else {
      rest = start; // (no body: a 204 or 304)
      body = "";
    }
    this.buf = rest < this.buf.length ? this.buf.subarray(rest) : null;
    const p = this.pending;
    this.pending = null;
    p?.resolve({ status, body });
  }
}
