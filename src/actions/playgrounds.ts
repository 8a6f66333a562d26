import { realmOf, type App } from "../app";
import { isAdmin } from "../domain/roles";
import { templateVariables } from "../domain/url-template";
import { adminRequired, badRequest } from "../errors";
import { deletePlayground, findPlayground, findPlaygroundByName, insertPlayground, listPlaygrounds, type PlaygroundRow } from "../store/playgrounds";
import { listActiveUserIds, type UserRow } from "../store/users";

/** Zulip's RealmPlayground.MAX_PYGMENTS_NAME_LENGTH and its allowed characters. */
const MAX_PYGMENTS_NAME_LENGTH = 40;
const PYGMENTS_LANGUAGE = /^[ a-zA-Z0-9_+\-./#]*$/;

export interface NewPlayground {
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

export const playgroundDict = (p: PlaygroundRow) => ({ id: p.id, name: p.name, pygments_language: p.pygments_language, url_template: p.url_template });

/** The organization's code playgrounds in API form (for /register and events). */
export async function playgroundList(app: App) {
  return (await listPlaygrounds(app.db, realmOf(app).id)).map(playgroundDict);
}

/** Zulip's validation of a playground (RealmPlayground.full_clean), with its messages. */
function checkPlayground(p: NewPlayground): void {
  if (!p.name) throw badRequest("name cannot be blank");
  if (!p.pygmentsLanguage) throw badRequest("pygments_language cannot be blank");
  if (p.pygmentsLanguage.length > MAX_PYGMENTS_NAME_LENGTH)
    throw badRequest(`pygments_language is too long (limit: ${MAX_PYGMENTS_NAME_LENGTH} characters)`);
  if (!PYGMENTS_LANGUAGE.test(p.pygmentsLanguage)) throw badRequest("Invalid characters in pygments language");
  const variables = templateVariables(p.urlTemplate);
  if (variables === null) throw badRequest("Invalid URL template.");
  if (variables.length === 0 || variables.some((v) => v !== "code")) {
    throw badRequest('"code" should be the only variable present in the URL template');
  }
}

/** POST /realm/playgrounds: administrators only; every user gets the new list. */
export async function addPlayground(app: App, actor: UserRow, input: NewPlayground): Promise<number> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const realm = realmOf(app);
  const p = { name: input.name.trim(), pygmentsLanguage: input.pygmentsLanguage.trim(), urlTemplate: input.urlTemplate.trim() };
  checkPlayground(p);
  const id = await app.db.tx(async (sql) => {
    if (await findPlaygroundByName(sql, realm.id, p.pygmentsLanguage, p.name)) {
      throw badRequest("Realm playground with this Realm, Pygments language and Name already exists.");
    }
    return insertPlayground(sql, { realm_id: realm.id, name: p.name, pygments_language: p.pygmentsLanguage, url_template: p.urlTemplate });
  });
  await notifyPlaygrounds(app);
  return id;
}

/** DELETE /realm/playgrounds/{playground_id}: administrators only. */
export async function removePlayground(app: App, actor: UserRow, playgroundId: number): Promise<void> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const realm = realmOf(app);
  await app.db.tx(async (sql) => {
    if (!(await findPlayground(sql, realm.id, playgroundId))) throw badRequest("Invalid playground");
    await deletePlayground(sql, playgroundId);
  });
  await notifyPlaygrounds(app);
}

/** `realm_playgrounds` event: the full list, to every active user (after commit). */
async function notifyPlaygrounds(app: App) {
  const realm = realmOf(app);
  app.events.publish({ type: "realm_playgrounds", realm_playgrounds: await playgroundList(app) }, await listActiveUserIds(app.db, realm.id));
}
