import { realmOf, type App } from "../app";
import { isAdmin } from "../domain/roles";
import { templateVariables } from "../domain/url-template";
import { adminRequired, badRequest } from "../errors";
import {
  deleteLinkifier,
  findLinkifier,
  findLinkifierByPattern,
  insertLinkifier,
  listLinkifiers,
  reorderLinkifiers as storeReorder,
  updateLinkifier,
} from "../store/linkifiers";
import type { Sql } from "../store/db";
import { listActiveUserIds, type UserRow } from "../store/users";

export interface LinkifierDict {
  id: number;
  pattern: string;
  url_template: string;
}

/** The organization's linkifiers in order, kept in memory (the renderer asks on every message). */
const cache = new WeakMap<App, LinkifierDict[]>();

/** The organization's linkifiers in processing order: for /register, GET /realm/linkifiers and the Markdown renderer. */
export async function linkifierList(app: App): Promise<LinkifierDict[]> {
  let list = cache.get(app);
  if (!list) {
    list = (await listLinkifiers(app.db, realmOf(app).id)).map((l) => ({ id: l.id, pattern: l.pattern, url_template: l.url_template }));
    cache.set(app, list);
  }
  return list;
}

/** The named groups of a (Python-flavoured) pattern, or an error message when it does not compile. */
function patternGroups(pattern: string): string[] | string {
  const source = pattern.replace(/\(\?P</g, "(?<").replace(/\(\?P=(\w+)\)/g, "\\k<$1>");
  try {
    const m = new RegExp(`(?:${source})|`).exec("");
    return Object.keys(m?.groups ?? {});
  } catch (e) {
    const detail = String((e as Error).message).replace(/^Invalid regular expression: (\/.*\/[a-z]*: )?/s, "");
    return `Bad regular expression: ${detail}`;
  }
}

/** Zulip's RealmFilter.full_clean, with its messages, in its order. */
async function checkLinkifier(sql: Sql, realmId: number, pattern: string, urlTemplate: string, selfId?: number): Promise<void> {
  if (!pattern) throw badRequest("This field cannot be blank.");
  if (!urlTemplate) throw badRequest("This field cannot be blank.");
  const variables = templateVariables(urlTemplate);
  if (variables === null) throw badRequest("Invalid URL template.");
  const groups = patternGroups(pattern);
  if (typeof groups === "string") throw badRequest(groups);
  const missingInPattern = variables.filter((v) => !groups.includes(v)).sort();
  if (missingInPattern.length) throw badRequest(`Group '${missingInPattern[0]}' in URL template is not present in linkifier pattern.`);
  const missingInTemplate = groups.filter((g) => !variables.includes(g)).sort();
  if (missingInTemplate.length) throw badRequest(`Group '${missingInTemplate[0]}' in linkifier pattern is not present in URL template.`);
  const same = await findLinkifierByPattern(sql, realmId, pattern);
  if (same && same.id !== selfId) throw badRequest("Realm filter with this Realm and Pattern already exists.");
}

/** `realm_linkifiers` event with the whole new list to every active user (queues without the capability never get it). */
async function notifyLinkifiers(app: App): Promise<void> {
  cache.delete(app);
  const realm = realmOf(app);
  app.events.publish({ type: "realm_linkifiers", realm_linkifiers: await linkifierList(app) }, await listActiveUserIds(app.db, realm.id));
}

/** POST /realm/filters (administrators): the new linkifier is ordered last. */
export async function addLinkifier(app: App, actor: UserRow, input: { pattern: string; urlTemplate: string }): Promise<number> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const realm = realmOf(app);
  const pattern = input.pattern.trim();
  const urlTemplate = input.urlTemplate.trim();
  const id = await app.db.tx(async (sql) => {
    await checkLinkifier(sql, realm.id, pattern, urlTemplate);
    return insertLinkifier(sql, realm.id, pattern, urlTemplate);
  });
  await notifyLinkifiers(app);
  return id;
}

/** PATCH /realm/filters/{filter_id} (administrators). */
export async function editLinkifier(app: App, actor: UserRow, id: number, input: { pattern: string; urlTemplate: string }): Promise<void> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const realm = realmOf(app);
  const pattern = input.pattern.trim();
  const urlTemplate = input.urlTemplate.trim();
  await app.db.tx(async (sql) => {
    if (!(await findLinkifier(sql, realm.id, id))) throw badRequest("Linkifier not found.");
    await checkLinkifier(sql, realm.id, pattern, urlTemplate, id);
    await updateLinkifier(sql, id, pattern, urlTemplate);
  });
  await notifyLinkifiers(app);
}

/** DELETE /realm/filters/{filter_id} (administrators). */
export async function removeLinkifier(app: App, actor: UserRow, id: number): Promise<void> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const realm = realmOf(app);
  await app.db.tx(async (sql) => {
    if (!(await findLinkifier(sql, realm.id, id))) throw badRequest("Linkifier not found.");
    await deleteLinkifier(sql, id);
  });
  await notifyLinkifiers(app);
}

/** PATCH /realm/linkifiers (administrators): the list must name every linkifier exactly once. */
export async function reorderLinkifiers(app: App, actor: UserRow, orderedIds: number[]): Promise<void> {
  if (!isAdmin(actor.role)) throw adminRequired();
  const realm = realmOf(app);
  if (new Set(orderedIds).size !== orderedIds.length) throw badRequest("The ordered list must not contain duplicated linkifiers");
  const changed = await app.db.tx(async (sql) => {
    const existing = new Set((await listLinkifiers(sql, realm.id)).map((l) => l.id));
    if (existing.size !== orderedIds.length || orderedIds.some((id) => !existing.has(id))) {
      throw badRequest("The ordered list must enumerate all existing linkifiers exactly once");
    }
    if (!orderedIds.length) return false;
    await storeReorder(sql, orderedIds);
    return true;
  });
  if (changed) await notifyLinkifiers(app);
}
