/**
 * Default channels (Zulip's settings_streams.ts): the channels everyone who joins is subscribed to.
 * Administrators add and remove them; everyone sees the list. Below them, the default channel groups.
 */
import { useState } from "preact/hooks";
import { addDefaultChannel, removeDefaultChannel } from "../../../api/org";
import { canAdministerOrg } from "../../../state/permissions";
import { channels, state } from "../../../state/store";
import { SaveError, SaveStatus, useId, useSaver } from "../controls";
import { ReadOnlyNote } from "../organization/fields";
import { ChannelGroups } from "./ChannelGroups";

function AddDefault() {
  const saver = useSaver();
  const id = useId("default-channel");
  const [chosen, setChosen] = useState("");
  const defaults = state.value!.default_channels ?? [];
  const candidates = Object.values(channels.value)
    .filter((c) => !c.is_archived && !defaults.includes(c.stream_id))
    .sort((a, b) => a.name.localeCompare(b.name));
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!chosen) return saver.refuse("Choose a channel.");
    if (await saver.run(() => addDefaultChannel(Number(chosen)))) setChosen("");
  };
  return (
    <form class="settings-add-form" onSubmit={(e) => void submit(e)} aria-label="Add a default channel">
      <div class="setting">
        <label for={id}>Add a default channel</label>
        <div class="setting-row">
          <select id={id} value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
            <option value="">Choose a channel…</option>
            {candidates.map((c) => (
              <option key={c.stream_id} value={String(c.stream_id)}>
                #{c.name}
              </option>
            ))}
          </select>
          <button type="submit" class="button primary" disabled={saver.state.kind === "saving"}>
            Add
          </button>
          <SaveStatus state={saver.state} />
        </div>
      </div>
      <SaveError state={saver.state} />
    </form>
  );
}

function DefaultRow({ streamId, editable }: { streamId: number; editable: boolean }) {
  const saver = useSaver();
  const name = channels.value[streamId]?.name ?? `channel ${streamId}`;
  return (
    <li>
      <span>#{name}</span>
      {editable && (
        <button type="button" class="button danger" aria-label={`Remove #${name} from the default channels`} disabled={saver.state.kind === "saving"} onClick={() => void saver.run(() => removeDefaultChannel(streamId))}>
          Remove
        </button>
      )}
      <SaveError state={saver.state} />
    </li>
  );
}

export function DefaultChannels() {
  const editable = canAdministerOrg(state.value!);
  const list = state.value!.default_channels ?? [];
  return (
    <div class="settings-section">
      <p class="setting-hint">New people are subscribed to these channels when they join.</p>
      <ReadOnlyNote editable={editable} />
      {editable && <AddDefault />}
      {list.length ? (
        <ul class="settings-list" aria-label="Default channels">
          {list.map((id) => (
            <DefaultRow key={id} streamId={id} editable={editable} />
          ))}
        </ul>
      ) : (
        <p class="muted-text">No default channels.</p>
      )}
      <ChannelGroups editable={editable} />
    </div>
  );
}
