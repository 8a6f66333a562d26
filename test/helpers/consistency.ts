/**
 * The promise Zulip clients build on: a client that registered once and applied every event since
 * holds the same state as one that registers now. A Slice is a client's model of one part of that
 * state; `follow` registers a queue per user, and `check` applies each queue's events to that user's
 * model and compares it with a fresh /register. The *-consistency tests drive random operations
 * (fast-check) between the two.
 */
import { expect } from "bun:test";
import fc from "fast-check";
import { MODERN_CAPABILITIES, type CastName, type TestServer } from "./server";

export interface Slice<S> {
  /** /register parameters (event_types and the like); a current client's capabilities unless given */
  register: Record<string, unknown>;
  fromRegister(body: any, userId: number): S;
  apply(state: S, event: any, userId: number): void;
  /** the state as comparable lines */
  summary(state: S): string[];
}

export async function follow<S>(
  s: TestServer,
  people: readonly CastName[],
  slice: Slice<S>,
  /** unvalidatedEvents: events newer than ../shared/reference's OpenAPI (channel folders) are not checked against it */
  opts: { sessionsMayEnd?: boolean; unvalidatedEvents?: boolean } = {},
) {
  const register = async (p: CastName) => (await s.users[p].client.post("/register", { client_capabilities: MODERN_CAPABILITIES, ...slice.register } as any)).success();
  const models = new Map<CastName, { queue: string; state: S }>();
  for (const p of people) {
    const r = await register(p);
    models.set(p, { queue: r.queue_id, state: slice.fromRegister(r, s.users[p].id) });
  }
  return {
    /** Each user's model after their events equals a fresh /register's; `ops` is printed with a mismatch. */
    async check(ops: string[]) {
      for (const p of people) {
        const m = models.get(p)!;
        const params = { queue_id: m.queue, last_event_id: -1, dont_block: true };
        const r = opts.unvalidatedEvents ? await s.users[p].client.request("GET", "/api/v1/events", params, { raw: true }) : await s.users[p].client.get("/events", params);
        // a user deactivated meanwhile lost their session and queues (even if reactivated since)
        if (opts.sessionsMayEnd && (r.status === 401 || r.json?.code === "BAD_EVENT_QUEUE_ID")) continue;
        for (const e of r.success().events) slice.apply(m.state, e, s.users[p].id);
        const fresh = slice.fromRegister(await register(p), s.users[p].id);
        expect({ who: p, state: slice.summary(m.state), ops }).toEqual({ who: p, state: slice.summary(fresh), ops });
      }
    },
  };
}

/** Runs `run` on random operation sequences; CONSISTENCY_RUNS and CONSISTENCY_SEED search longer or elsewhere. */
export function checkSequences<Op>(op: fc.Arbitrary<Op>, run: (ops: Op[]) => Promise<void>, lengths = { min: 3, max: 25 }) {
  return fc.assert(fc.asyncProperty(fc.array(op, { minLength: lengths.min, maxLength: lengths.max }), run), {
    numRuns: Number(process.env.CONSISTENCY_RUNS ?? 20),
    seed: Number(process.env.CONSISTENCY_SEED ?? 7),
  });
}
