// Runs zulip-js under Node, the runtime it is written for (under Bun its form-data bodies arrive as
// "[object FormData]"), and lets a test drive it over JSON lines:
//   stdin  {"id": 1, "call": "users.me.getProfile", "args": []}
//   stdout {"id": 1, "result": {...}} | {"id": 1, "error": "..."} | {"event": {...}} (from callOnEachEvent)
// argv[2] is the JSON config given to zulip(): {username, apiKey | password, realm}.
"use strict";
const readline = require("node:readline");
const zulip = require("zulip-js");

const out = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
const client = zulip(JSON.parse(process.argv[2]));
// zulip-js logs server errors with console.log; keep stdout for the protocol.
console.log = (...args) => process.stderr.write(`${args.map(String).join(" ")}\n`);

readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  const { id, call, args = [] } = JSON.parse(line);
  try {
    const z = await client;
    if (call === "config") return out({ id, result: { apiKey: z.config.apiKey ?? null, apiURL: z.config.apiURL } });
    if (call === "callOnEachEvent") {
      z.callOnEachEvent((event) => out({ event }), ...args);
      return out({ id, result: "started" });
    }
    let self = z;
    let fn = z;
    for (const part of call.split(".")) {
      self = fn;
      fn = fn[part];
    }
    out({ id, result: await fn.apply(self, args) });
  } catch (e) {
    out({ id, error: String((e && e.message) || e) });
  }
});
