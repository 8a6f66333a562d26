/** Drafts: what the person started writing and did not send, newest first, to take up again or delete. */
import { navigate } from "../nav/router";
import { dmKey } from "../state/people";
import { me, settings } from "../state/store";
import { formatWhen } from "../lib/time";
import { drafts, flushDraft, removeDraft, type Draft } from "../compose/drafts";
import { compose, focusCompose } from "../compose/state";
import { ConversationLabel } from "./conversation-label";
import { PencilIcon, TrashIcon } from "./icons-writing";

/** Puts a draft back in the compose box, in its conversation. */
export function restoreDraft(d: Draft): void {
  if (compose.draftId.peek() !== d.id) flushDraft();
  compose.scheduled.value = null;
  compose.error.value = null;
  compose.mode.value = "write";
  if (d.type === "stream") {
    compose.kind.value = "stream";
    compose.streamId.value = d.to[0]!;
    compose.topic.value = d.topic;
  } else if (d.type === "private") {
    compose.kind.value = "direct";
    compose.recipients.value = d.to;
  }
  compose.content.value = d.content;
  compose.draftId.value = d.id;
  if (d.type === "stream") navigate({ kind: "narrow", narrow: d.topic ? { kind: "topic", stream_id: d.to[0]!, topic: d.topic } : { kind: "channel", stream_id: d.to[0]! } });
  else if (d.type === "private") navigate({ kind: "narrow", narrow: { kind: "dm", key: dmKey(me.peek(), d.to) } });
  else navigate({ kind: "narrow", narrow: { kind: "feed" } });
  focusCompose();
}

/** Deletes a draft; when it is the one in the compose box, the box lets go of its text too. */
function deleteDraft(d: Draft): void {
  if (compose.draftId.peek() === d.id) compose.content.value = "";
  removeDraft(d.id);
}

export function DraftsView() {
  const list = drafts.value;
  const twentyFour = settings.value.twenty_four_hour_time;
  return (
    <div class="overview">
      <header class="view-header">
        <h1 class="view-title">
          <PencilIcon /> Drafts
        </h1>
        <p class="view-note muted-text">{settings.value.enable_drafts_synchronization ? "Kept on the server: they follow you to your other devices." : "Kept in this browser only."}</p>
      </header>
      <div class="overview-scroller">
        {list.length === 0 ? (
          <div class="overview-empty">
            <p class="overview-empty-title">No drafts.</p>
            <p>What you write and do not send is kept here.</p>
          </div>
        ) : (
          <ul class="card-list" aria-label="Drafts">
            {list.map((d) => (
              <li key={d.id} class="card draft-card">
                <div class="card-head">
                  <ConversationLabel type={d.type} to={d.to} topic={d.topic} />
                  <span class="card-when muted-text">{formatWhen(d.timestamp, twentyFour)}</span>
                </div>
                <div class="card-body draft-text">{d.content}</div>
                <div class="card-actions">
                  <button type="button" class="button subtle" onClick={() => restoreDraft(d)}>
                    <PencilIcon size={15} /> Restore
                  </button>
                  <button type="button" class="button subtle danger" onClick={() => deleteDraft(d)} aria-label={`Delete the draft “${d.content.slice(0, 40)}”`}>
                    <TrashIcon size={15} /> Delete
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
