/**
 * A client older than the user_settings object (Zulip < 5.0) keeps its settings at the top level of
 * /register and follows update_display_settings and update_global_notifications events. What it holds
 * after random setting changes equals a fresh /register's (see helpers/consistency.ts).
 */
import { describe, test } from "bun:test";
import fc from "fast-check";
import { MODERN_CAPABILITIES, startServer } from "../helpers/server";
import { checkSequences, follow, type Slice } from "../helpers/consistency";

/** A few settings of each legacy event, with values an operation may set, and the time zone. */
const VALUES: Record<string, unknown[]> = {
  twenty_four_hour_time: [true, false],
  emojiset: ["google", "text", "twitter"],
  web_home_view: ["inbox", "recent_topics", "all_messages"],
  default_language: ["en", "de", "fr"],
  enter_sends: [true, false],
  enable_sounds: [false, true],
  email_notifications_batching_period_seconds: [120, 600],
  notification_sound: ["zulip", "ding", "none"],
  presence_enabled: [false, true],
  timezone: ["Europe/Paris", "America/New_York", "Asia/Kolkata"],
};
const NAMES = Object.keys(VALUES);

type Op = { who: "hamlet" | "othello"; name: string; n: number };
const op: fc.Arbitrary<Op> = fc.record({ who: fc.constantFrom("hamlet" as const, "othello" as const), name: fc.constantFrom(...NAMES), n: fc.nat({ max: 2 }) });

const LEGACY: Slice<Record<string, unknown>> = {
  register: {
    event_types: ["update_display_settings", "update_global_notifications"],
    client_capabilities: { ...MODERN_CAPABILITIES, user_settings_object: false },
  },
  fromRegister: (r) => Object.fromEntries(NAMES.map((k) => [k, r[k]])),
  apply(st, e) {
    if (e.type === "update_display_settings" && e.setting_name in st) st[e.setting_name] = e.setting;
    if (e.type === "update_global_notifications" && e.notification_name in st) st[e.notification_name] = e.setting;
  },
  summary: (st) => NAMES.map((k) => `${k} = ${JSON.stringify(st[k])}`),
};

async function run(ops: Op[]) {
  const s = await startServer();
  try {
    const clients = await follow(s, ["hamlet", "othello"], LEGACY);
    const log: string[] = [];
    for (const o of ops) {
      log.push(JSON.stringify(o));
      const values = VALUES[o.name]!;
      const r = await s.users[o.who].client.patch("/settings", { [o.name]: values[o.n % values.length] } as any);
      if (r.status !== 200) throw new Error(`${JSON.stringify(o)}: ${r.text}`);
    }
    await clients.check(log);
  } finally {
    await s.close();
  }
}

describe("settings of a client without the user_settings object: register once and follow the legacy events, or register again", () => {
  test("agree after random display, notification and time zone changes", () => checkSequences(op, run), 120_000);
});
