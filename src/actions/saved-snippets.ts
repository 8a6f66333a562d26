import { nowSecs, type App } from "../app";
import { badRequest, notFound } from "../errors";
import { deleteSavedSnippet, findSavedSnippet, insertSavedSnippet, listSavedSnippets, updateSavedSnippet, type SavedSnippetRow } from "../store/saved-snippets";
import type { UserRow } from "../store/users";

/** Zulip's SavedSnippet.MAX_TITLE_LENGTH. */
export const MAX_SNIPPET_TITLE_LENGTH = 100;

export const savedSnippetDict = (s: SavedSnippetRow) => ({ id: s.id, title: s.title, content: s.content, date_created: Math.floor(s.date_created) });

/** Zulip's StringConstraints(min_length=1, max_length, strip_whitespace=True) on title and content. */
function clean(app: App, name: "title" | "content", value: string): string {
  const v = value.trim();
  const max = name === "title" ? MAX_SNIPPET_TITLE_LENGTH : app.config.limits.max_message_length;
  if (!v) throw badRequest(`${name} cannot be blank`);
  if (v.length > max) throw badRequest(`${name} is too long (limit: ${max} characters)`);
  return v;
}

export async function savedSnippetList(app: App, me: UserRow) {
  return (await listSavedSnippets(app.db, me.id)).map(savedSnippetDict);
}

/** POST /saved_snippets: the snippet goes to the caller's other clients in a `saved_snippets` add event. */
export async function createSavedSnippet(app: App, me: UserRow, title: string, content: string): Promise<number> {
  const row = { user_id: me.id, title: clean(app, "title", title), content: clean(app, "content", content), date_created: nowSecs(app) };
  const id = await app.db.tx((sql) => insertSavedSnippet(sql, row));
  app.events.publish({ type: "saved_snippets", op: "add", saved_snippet: savedSnippetDict({ ...row, id }) }, [me.id]);
  return id;
}

/** PATCH /saved_snippets/{id}: nothing given changes nothing (and sends no event). */
export async function editSavedSnippet(app: App, me: UserRow, id: number, input: { title?: string; content?: string }): Promise<void> {
  const title = input.title === undefined ? undefined : clean(app, "title", input.title);
  const content = input.content === undefined ? undefined : clean(app, "content", input.content);
  if (title === undefined && content === undefined) return;
  const updated = await app.db.tx(async (sql) => {
    const row = await findSavedSnippet(sql, me.id, id);
    if (!row) throw notFound("Saved snippet does not exist.");
    const next = { ...row, title: title ?? row.title, content: content ?? row.content };
    await updateSavedSnippet(sql, id, next.title, next.content);
    return next;
  });
  app.events.publish({ type: "saved_snippets", op: "update", saved_snippet: savedSnippetDict(updated) }, [me.id]);
}

/** DELETE /saved_snippets/{id}. */
export async function removeSavedSnippet(app: App, me: UserRow, id: number): Promise<void> {
  await app.db.tx(async (sql) => {
    if (!(await findSavedSnippet(sql, me.id, id))) throw notFound("Saved snippet does not exist.");
    await deleteSavedSnippet(sql, id);
  });
  app.events.publish({ type: "saved_snippets", op: "remove", saved_snippet_id: id }, [me.id]);
}
