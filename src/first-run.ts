// The organization a first `parley serve` creates on an empty data dir, and the zuliprc files that
// `init`, `create-user` and the first start write.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { App } from "./app";
import { createOrganization, createStarterChannel, STARTER_CHANNEL } from "./actions/organization";
import { randomAlnum } from "./lib/random";

export function writeZuliprc(path: string, email: string, key: string, site: string) {
  writeFileSync(path, `[api]\nemail=${email}\nkey=${key}\nsite=${site}\n`, { mode: 0o600 });
}

/** The owner's first login, as the first start reports it. */
export interface FirstLogin {
  email: string;
  password: string;
  url: string;
  zuliprc: string;
}

/** serve on an empty data dir: create the default organization and its first channel, and tell the operator how to log in. */
export async function ensureOrganization(app: App): Promise<FirstLogin | null> {
  if (app.realm) return null;
  const password = randomAlnum(16);
  const org = app.config.organization;
  const owner = await createOrganization(app, {
    name: org.name,
    description: org.description,
    ownerEmail: org.owner_email,
    ownerFullName: org.owner_full_name,
    ownerPassword: password,
  });
  await createStarterChannel(app, owner.userId);
  const zuliprc = join(app.config.data_dir, "zuliprc");
  writeZuliprc(zuliprc, owner.email, owner.apiKey, app.config.server.external_url);
  console.log(
    [
      `Created organization '${org.name}' with owner ${owner.email}, and the channel #${STARTER_CHANNEL.name}.`,
      `  Log in as: ${owner.email}`,
      `  Password:  ${password}   (shown once; change it in the web app: your menu, top right, then Change password)`,
      `  API key:   in ${zuliprc}`,
      `  URL:       ${app.config.server.external_url}`,
    ].join("\n"),
  );
  return { email: owner.email, password, url: app.config.server.external_url, zuliprc };
}
