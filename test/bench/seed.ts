// Bulk seeding for benchmarks: writes straight through the store's SQL connection in large batches
// (the API would take minutes for a million messages).
import { raiseUnreadFloor } from "../../src/store/unread-floors";
import type { App } from "../../src/app";
import { reloadGroups } from "../../src/app";
import { randomAlnum } from "../../src/lib/random";
import { hashPassword } from "../../src/actions/users";

/** Inserts `count` member users with known API keys; returns {id, email, key}. */
export async function seedUsers(app: App, count: number) {
  const realmId = app.realm!.id;
  const members = app.systemGroups.get("role:members")!;
  const full = app.systemGroups.get("role:fullmembers")!;
  const out: { id: number; email: string; key: string }[] = [];
  await app.db.tx(async (sql) => {
    for (let i = 0; i < count; i++) {
      const email = `user${i}@bench.test`;
      const key = randomAlnum(32);
      const { lastId } = await sql.run(
        "INSERT INTO users (realm_id, email, delivery_email, full_name, role, api_key, date_joined) VALUES (?, ?, ?, ?, 400, ?, 0)",
        [realmId, email, email, `Bench User ${i}`, key],
      );
      const r = await sql.run("INSERT INTO recipients (type, type_id) VALUES (1, ?)", [lastId]);
      await sql.run("UPDATE users SET recipient_id = ? WHERE id = ?", [r.lastId, lastId]);
      await sql.run("INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?), (?, ?)", [members, lastId, full, lastId]);
      out.push({ id: lastId, email, key });
    }
  });
  await reloadGroups(app);
  return out;
}

/**
 * Inserts `count` messages into a channel, spread over `topics` topics (topic 0 is "hot"), each with a
 * user_messages row for every reader. Multi-row INSERTs of `batch` rows per statement.
 */
export async function seedMessages(app: App, opts: { streamId: number; senderId: number; readers: number[]; count: number; topics: number; batch?: number }) {
  const batch = opts.batch ?? 1000;
  const stream = await app.db.get<{ recipient_id: number }>("SELECT recipient_id FROM streams WHERE id = ?", [opts.streamId]);
  const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"];
  const first = ((await app.db.get<{ m: number | null }>("SELECT max(id) AS m FROM messages"))?.m ?? 0) + 1;
  for (let start = 0; start < opts.count; start += batch) {
    const n = Math.min(batch, opts.count - start);
    await app.db.tx(async (sql) => {
      const rows: string[] = [];
      const args: (string | number)[] = [];
      for (let i = 0; i < n; i++) {
        const k = start + i;
        const text = `${words[k % 20]} ${words[(k * 7) % 20]} ${words[(k * 13) % 20]} message number ${k}${k % 1000 === 0 ? " needle" : ""}`;
        rows.push(`(?, ?, ?, ?, ?, ?, ?, ?, ?)`);
        args.push(first + k, app.realm!.id, opts.senderId, stream!.recipient_id, opts.streamId, k % opts.topics === 0 ? "hot" : `topic ${k % opts.topics}`, text, `<p>${text}</p>`, 1_700_000_000 + k);
      }
      await sql.run(`INSERT INTO messages (id, realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent) VALUES ${rows.join(",")}`, args);
      const um: string[] = [];
      const umArgs: number[] = [];
      for (const reader of opts.readers) {
        um.push(`SELECT ?, id, 1 FROM messages WHERE id BETWEEN ? AND ?`);
        umArgs.push(reader, first + start, first + start + n - 1);
      }
      await sql.run(`INSERT INTO user_messages (user_id, message_id, flags) ${um.join(" UNION ALL ")}`, umArgs);
    });
  }
  // as the server's timer loop would once writes are quiet: the readers' rows go below their unread floors
  for (const reader of opts.readers) while ((await app.db.tx((sql) => raiseUnreadFloor(sql, reader, 100_000))) === 100_000);
}

/** Gives a seeded user a password (the web scenario logs in with it). */
export async function setPassword(app: App, userId: number, password: string) {
  await app.db.run("UPDATE users SET password_hash = ? WHERE id = ?", [await hashPassword(password), userId]);
}
