// Migrations are imported as text so `bun build --compile` embeds them in the executable.
// Add a file NNNN_name.sql and list it here; never edit one that has shipped. A step that needs more
// than SQL (data only the program holds) is a function NNNN_name.ts, listed with `run`.
import type { Sql } from "../db";
import { renameToZulipEmojiNames } from "./0004_zulip_emoji_names";
import m0001 from "./0001_schema.sql" with { type: "text" };
import m0002 from "./0002_unread_floors.sql" with { type: "text" };
import m0003 from "./0003_unread_ranges.sql" with { type: "text" };
import m0005 from "./0005_submessages.sql" with { type: "text" };
import m0007 from "./0007_email_invites.sql" with { type: "text" };
import m0006 from "./0006_notify.sql" with { type: "text" };
import m0008 from "./0008_web_push.sql" with { type: "text" };
import m0012 from "./0012_admin.sql" with { type: "text" };
import m0013 from "./0013_webhooks.sql" with { type: "text" };
import m0014 from "./0014_import.sql" with { type: "text" };
import m0016 from "./0016_import_jobs.sql" with { type: "text" };
import m0017 from "./0017_login_links_as_email_tokens.sql" with { type: "text" };

export interface Migration {
  version: number;
  name: string;
  sql?: string;
  run?: (sql: Sql) => Promise<void>;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: "schema", sql: m0001 },
  { version: 2, name: "unread_floors", sql: m0002 },
  { version: 3, name: "unread_ranges", sql: m0003 },
  { version: 4, name: "zulip_emoji_names", run: renameToZulipEmojiNames },
  { version: 5, name: "submessages", sql: m0005 },
  { version: 7, name: "email_invites", sql: m0007 },
  { version: 6, name: "notify", sql: m0006 },
  { version: 8, name: "web_push", sql: m0008 },
  { version: 12, name: "admin", sql: m0012 },
  { version: 13, name: "webhooks", sql: m0013 },
  { version: 14, name: "import", sql: m0014 },
  { version: 16, name: "import_jobs", sql: m0016 },
  { version: 17, name: "login_links_as_email_tokens", sql: m0017 },
];
