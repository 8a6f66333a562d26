import { createServer, type Server } from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

export interface FakeSmtp {
  port: number;
  mails: ReceivedMail[];
  /** while true, every message is refused with a temporary failure (451) */
  refusing: boolean;
  /** the i-th mail, parsed (headers, text and HTML parts) */
  parsed(i: number): Promise<import("mailparser").ParsedMail>;
  close(): Promise<void>;
}

/** A minimal SMTP server on 127.0.0.1 that accepts every message (no TLS, no auth) and keeps it. */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const state = { refusing: false };
  const server: Server = createServer((socket) => {
    let buffer = "";
    let current: ReceivedMail = { from: "", to: [], data: "" };
    let inData = false;
    socket.write("220 fake.smtp ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      while (true) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          mails.push(current);
          current = { from: "", to: [], data: "" };
          socket.write("250 OK queued\r\n");
          continue;
        }
        const nl = buffer.indexOf("\r\n");
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === "EHLO" || cmd === "HELO") socket.write("250 fake.smtp\r\n");
        else if (cmd === "MAIL" && state.refusing) socket.write("451 4.3.0 try again later\r\n");
        else if (cmd === "MAIL") (current.from = line.slice(10).trim()), socket.write("250 OK\r\n");
        else if (cmd === "RCPT") current.to.push(line.slice(8).trim()), socket.write("250 OK\r\n");
        else if (cmd === "DATA") (inData = true), socket.write("354 go ahead\r\n");
        else if (cmd === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 OK\r\n");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    mails,
    get refusing() {
      return state.refusing;
    },
    set refusing(v: boolean) {
      state.refusing = v;
    },
    async parsed(i: number) {
      const { simpleParser } = await import("mailparser");
      return simpleParser(mails[i]!.data.replace(/^\.\./gm, "."));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
