/**
 * Drafts: what the person writes is kept while they type (after a short pause), one draft per
 * conversation they write to, and survives a reload. With their `enable_drafts_synchronization` setting
 * on (Zulip's default), drafts live on the server (/drafts, kept current by `drafts` events) and follow
 * them to other devices; with it off they stay in this browser's localStorage, as Zulip's web app keeps them.
 */
import { computed, signal } from "@preact/signals";
import { createDraft, deleteDraft, editDraft, type DraftFields } from "../api/calls";
import { ApiError } from "../api/http";
import { me, serverDrafts, settings } from "../state/store";
import { compose, composeTarget, type ComposeTarget } from "./state";

/** A draft as the views show it: server drafts are "s<id>", this browser's "l<…>". */
export interface Draft extends DraftFields {
  id: string;
}

const SAVE_AFTER_MS = 600;

const storageKey = () => `parley.drafts.${me.peek()}`;
const localDrafts = signal<Record<string, Draft>>({});

function readLocal(): Record<string, Draft> {
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey()) ?? "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

function writeLocal(drafts: Record<string, Draft>): void {
  localDrafts.value = drafts;
  try {
    localStorage.setItem(storageKey(), JSON.stringify(drafts));
  } catch {
    // storage full or off: the drafts stay for this page's life
  }
}

const synced = () => settings.peek().enable_drafts_synchronization;

/** Every draft, newest first. */
export const drafts = computed<Draft[]>(() => {
  const list = settings.value.enable_drafts_synchronization
    ? Object.values(serverDrafts.value).map((d) => ({ ...d, id: `s${d.id}` }))
    : Object.values(localDrafts.value);
  return list.sort((a, b) => b.timestamp - a.timestamp);
});

/** The people of a direct message as drafts name them: the others, sorted (or oneself alone). */
function peopleKey(ids: readonly number[]): number[] {
  const mine = me.peek();
  const others = [...new Set(ids)].filter((id) => id !== mine).sort((a, b) => a - b);
  return others.length ? others : ids.length ? [mine] : [];
}

export function draftFields(to: ComposeTarget, content: string): DraftFields {
  const timestamp = Math.floor(Date.now() / 1000);
  if (to.type === "stream") return to.stream_id === null ? { type: "", to: [], topic: "", content, timestamp } : { type: "stream", to: [to.stream_id], topic: to.topic, content, timestamp };
  const people = peopleKey(to.user_ids);
  return people.length ? { type: "private", to: people, topic: "", content, timestamp } : { type: "", to: [], topic: "", content, timestamp };
}

/** Whether a draft is addressed to this conversation (topics compare without case). */
export function isDraftFor(d: DraftFields, to: ComposeTarget): boolean {
  if (to.type === "stream") return d.type === "stream" && d.to[0] === to.stream_id && d.topic.toLowerCase() === to.topic.toLowerCase();
  const people = peopleKey(to.user_ids);
  return d.type === "private" && people.length > 0 && d.to.length === people.length && d.to.every((id, i) => id === people[i]);
}

/** The newest draft for a conversation, if any. */
export const draftFor = (to: ComposeTarget): Draft | undefined => drafts.peek().find((d) => isDraftFor(d, to));

// Server drafts are saved one request after another, so a draft is created once and then edited.
let queue: Promise<void> = Promise.resolve();
const created = new Map<string, number>();
let counter = 0;
const serverId = (id: string) => (id.startsWith("s") ? Number(id.slice(1)) : created.get(id));

function saveOnServer(id: string, fields: DraftFields): void {
  queue = queue
    .then(async () => {
      const known = serverId(id);
      try {
        if (known !== undefined) return void (await editDraft(known, fields));
      } catch (e) {
        // deleted meanwhile (from another device): it is made again
        if (!(e instanceof ApiError && e.status === 404)) throw e;
      }
      const made = await createDraft(fields);
      created.set(id, made);
      if (compose.draftId.peek() === id) compose.draftId.value = `s${made}`;
    })
    .catch(() => {
      // not reachable now: the text is still in the box, and the next pause saves it again
    });
}

function removeOnServer(id: string): void {
  queue = queue
    .then(async () => {
      const known = serverId(id);
      if (known !== undefined) await deleteDraft(known);
    })
    .catch(() => {
      // gone already, or not reachable: nothing more to do
    });
}

/** Deletes a draft (the Drafts view's delete, a sent message's draft). */
export function removeDraft(id: string): void {
  if (compose.draftId.peek() === id) compose.draftId.value = null;
  if (id.startsWith("l")) {
    const { [id]: _gone, ...rest } = localDrafts.peek();
    writeLocal(rest);
  } else removeOnServer(id);
}

let timer: ReturnType<typeof setTimeout> | undefined;

/** Saves the box's text as its draft now: made, updated, or deleted when the box was emptied. */
export function saveDraftNow(): void {
  clearTimeout(timer);
  timer = undefined;
  // a scheduled message being edited is not a draft: it is saved by rescheduling it
  if (compose.scheduled.peek()) return;
  const content = compose.content.peek();
  const id = compose.draftId.peek();
  if (!content.trim()) {
    if (id) removeDraft(id);
    return;
  }
  const fields = draftFields(composeTarget(), content);
  if (synced()) {
    const target = id && !id.startsWith("l") ? id : `t${++counter}`;
    compose.draftId.value = target;
    saveOnServer(target, fields);
  } else {
    const target = id?.startsWith("l") ? id : `l${Date.now().toString(36)}${++counter}`;
    compose.draftId.value = target;
    writeLocal({ ...localDrafts.peek(), [target]: { ...fields, id: target } });
  }
}

/** Saves what was written since the last save, if anything (before the box turns to other text). */
export function flushDraft(): void {
  if (timer !== undefined || (!compose.draftId.peek() && compose.content.peek().trim())) saveDraftNow();
}

/** Saves after the person pauses typing. */
export function saveDraftSoon(): void {
  clearTimeout(timer);
  timer = setTimeout(saveDraftNow, SAVE_AFTER_MS);
}

/** The sent message's draft is done with. */
export function discardDraft(): void {
  clearTimeout(timer);
  timer = undefined;
  const id = compose.draftId.peek();
  if (id) removeDraft(id);
}

/** Reads this browser's drafts and saves what is being written when the page goes away. */
export function startDrafts(): void {
  localDrafts.value = readLocal();
  addEventListener("pagehide", () => timer !== undefined && saveDraftNow());
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && timer !== undefined && saveDraftNow());
}
