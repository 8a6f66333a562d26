/** Scheduled messages: what goes out later and when, to edit, send now, or cancel. */
import { settings, scheduled } from "../state/store";
import { cancelScheduled, editScheduled, sendScheduledNow } from "../compose/scheduled";
import { formatScheduled } from "../compose/send-later";
import { ConversationLabel } from "./conversation-label";
import { MessageContent } from "./MessageContent";
import { SendIcon } from "./icons";
import { CalendarIcon, PencilIcon, TrashIcon } from "./icons-writing";

export function ScheduledView() {
  const list = Object.values(scheduled.value).sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp);
  const twentyFour = settings.value.twenty_four_hour_time;
  return (
    <div class="overview">
      <header class="view-header">
        <h1 class="view-title">
          <CalendarIcon /> Scheduled messages
        </h1>
      </header>
      <div class="overview-scroller">
        {list.length === 0 ? (
          <div class="overview-empty">
            <p class="overview-empty-title">No scheduled messages.</p>
            <p>Choose “Send later” beside Send to have a message go out at a time of your choosing.</p>
          </div>
        ) : (
          <ul class="card-list" aria-label="Scheduled messages">
            {list.map((m) => (
              <li key={m.scheduled_message_id} class={`card scheduled-card ${m.failed ? "failed" : ""}`}>
                <div class="card-head">
                  <ConversationLabel type={m.type} to={m.to} topic={m.topic} />
                  <span class="card-when">{formatScheduled(m.scheduled_delivery_timestamp, twentyFour)}</span>
                </div>
                {m.failed && (
                  <p class="card-error" role="alert">
                    This message could not be sent at its time. Edit it to try again.
                  </p>
                )}
                <div class="card-body">
                  <MessageContent html={m.rendered_content} />
                </div>
                <div class="card-actions">
                  <button type="button" class="button subtle" onClick={() => editScheduled(m)}>
                    <PencilIcon size={15} /> Edit
                  </button>
                  <button type="button" class="button subtle" onClick={() => void sendScheduledNow(m)}>
                    <SendIcon size={15} /> Send now
                  </button>
                  <button type="button" class="button subtle danger" onClick={() => void cancelScheduled(m.scheduled_message_id)}>
                    <TrashIcon size={15} /> Cancel
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
