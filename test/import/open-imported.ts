// Opens an imported data dir as a server and gives API clients for its people (by email).
import { closeApp, openApp, type App } from "../../src/app";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/schema";
import { createServer } from "../../src/server";
import { Client } from "../helpers/server";

export function importConfig(dataDir: string): Config {
  const config = loadConfig({ dataDir }, {});
  config.rate_limit.requests_per_minute = 0;
  config.rate_limit.unauthenticated_per_minute = 0;
  config.server.external_url = "http://parley.test";
  return config;
}

export interface Imported {
  app: App;
  as(email: string): Promise<Client>;
  close(): Promise<void>;
}

export async function openImported(dataDir: string): Promise<Imported> {
  const app = await openApp(importConfig(dataDir), { quiet: true });
  const server = createServer(app);
  return {
    app,
    async as(email: string) {
      const row = await app.db.get<{ email: string; api_key: string }>("SELECT email, api_key FROM users WHERE delivery_email = ?", [email]);
      if (!row) throw new Error(`no imported person ${email}`);
      return new Client(server, { email: row.email, apiKey: row.api_key });
    },
    close: () => closeApp(app),
  };
}
