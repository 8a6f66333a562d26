import { join } from "node:path";

const BRIDGE = join(import.meta.dir, "zulip-js-bridge.cjs");

/** A zulip-js client running in a Node child process (see zulip-js-bridge.cjs), driven call by call. */
export class ZulipJs {
  private readonly proc;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  /** Events received by callOnEachEvent, in order. */
  readonly events: any[] = [];
  private readonly eventWaiters: (() => void)[] = [];

  constructor(config: { username: string; realm: string; apiKey?: string; password?: string }) {
    this.proc = Bun.spawn(["node", BRIDGE, JSON.stringify(config)], { stdin: "pipe", stdout: "pipe", stderr: "pipe", cwd: join(import.meta.dir, "..", "..") });
    void this.readLines();
  }

  private async readLines() {
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = this.proc.stdout.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const msg = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if ("event" in msg) {
          this.events.push(msg.event);
          this.eventWaiters.splice(0).forEach((w) => w());
        } else {
          const p = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          if ("error" in msg) p?.reject(new Error(msg.error));
          else p?.resolve(msg.result);
        }
      }
    }
  }

  /** Calls a zulip-js method by its path ("users.me.getProfile", "messages.send", "callEndpoint"). */
  call(path: string, ...args: unknown[]): Promise<any> {
    const id = this.nextId++;
    const promise = new Promise<any>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.proc.stdin.write(`${JSON.stringify({ id, call: path, args })}\n`);
    this.proc.stdin.flush();
    return promise;
  }

  /** Waits until callOnEachEvent has delivered an event matching `pred` (or fails after `ms`). */
  async waitForEvent(pred: (e: any) => boolean, ms = 5000): Promise<any> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.events.find(pred);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${ms} ms; got ${JSON.stringify(this.events)}`);
      await Promise.race([new Promise<void>((r) => this.eventWaiters.push(r)), Bun.sleep(Math.min(left, 100))]);
    }
  }

  async close() {
    this.proc.kill();
    await this.proc.exited;
  }
}
