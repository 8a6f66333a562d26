/**
 * Default channel groups (Zulip's experimental default stream groups): named sets of channels offered to
 * new users. Administrators create them, add and remove their channels and delete them; members see them.
 */
import { useState } from "preact/hooks";
import { changeDefaultChannelGroupChannels, createDefaultChannelGroup, deleteDefaultChannelGroup } from "../../../api/org";
import type { DefaultChannelGroup } from "../../../state/org";
import { channels, org, state } from "../../../state/store";
import { SaveError, SaveStatus, useId, useSaver } from "../controls";

/** Channels that may join a group: public, not archived, not default channels already. */
const candidates = (exclude: number[]) =>
  Object.values(channels.value)
    .filter((c) => !c.is_archived && !c.invite_only && !exclude.includes(c.stream_id) && !(state.value!.default_channels ?? []).includes(c.stream_id))
    .sort((a, b) => a.name.localeCompare(b.name));

function CreateGroup() {
  const saver = useSaver();
  const id = useId("channel-group");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return saver.refuse("Enter a name for the group.");
    if (await saver.run(() => createDefaultChannelGroup(name, description, chosen))) {
      setName("");
      setDescription("");
      setChosen([]);
    }
  };
  return (
    <form class="settings-add-form" onSubmit={(e) => void submit(e)} aria-label="Create a default channel group">
      <h3>Create a default channel group</h3>
      <div class="setting">
        <label for={`${id}-name`}>Name</label>
        <input id={`${id}-name`} type="text" value={name} maxLength={60} onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <div class="setting">
        <label for={`${id}-description`}>Description</label>
        <input id={`${id}-description`} type="text" value={description} maxLength={1024} onInput={(e) => setDescription(e.currentTarget.value)} />
      </div>
      <fieldset class="group-choices">
        <legend>Channels</legend>
        {candidates([]).map((c) => (
          <label class="check" key={c.stream_id}>
            <input type="checkbox" checked={chosen.includes(c.name)} onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, c.name] : chosen.filter((n) => n !== c.name))} />#{c.name}
          </label>
        ))}
      </fieldset>
      <div class="setting-row">
        <button type="submit" class="button primary" disabled={saver.state.kind === "saving"}>
          Create group
        </button>
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
    </form>
  );
}

function GroupRow({ g, editable }: { g: DefaultChannelGroup; editable: boolean }) {
  const saver = useSaver();
  const id = useId("group-add");
  const [adding, setAdding] = useState("");
  const name = (sid: number) => channels.value[sid]?.name ?? `channel ${sid}`;
  const busy = saver.state.kind === "saving";
  return (
    <li class="channel-group">
      <span>
        <strong>{g.name}</strong>
        {g.description && <span class="setting-hint"> — {g.description}</span>}
      </span>
      <ul class="pill-list" aria-label={`Channels of ${g.name}`}>
        {g.streams.map((sid) => (
          <li key={sid} class="pill">
            #{name(sid)}
            {editable && (
              <button type="button" class="pill-remove" aria-label={`Remove #${name(sid)} from ${g.name}`} disabled={busy} onClick={() => void saver.run(() => changeDefaultChannelGroupChannels(g.id, "remove", [name(sid)]))}>
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {editable && (
        <span class="row-actions">
          <label class="visually-hidden" for={id}>
            Add a channel to {g.name}
          </label>
          <select id={id} value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
            <option value="">Add a channel…</option>
            {candidates(g.streams).map((c) => (
              <option key={c.stream_id} value={c.name}>
                #{c.name}
              </option>
            ))}
          </select>
          <button type="button" class="button" disabled={!adding || busy} onClick={() => void saver.run(() => changeDefaultChannelGroupChannels(g.id, "add", [adding])).then((ok) => ok && setAdding(""))}>
            Add
          </button>
          <button type="button" class="button danger" aria-label={`Delete the group ${g.name}`} disabled={busy} onClick={() => void saver.run(() => deleteDefaultChannelGroup(g.id))}>
            Delete
          </button>
        </span>
      )}
      <SaveError state={saver.state} />
    </li>
  );
}

export function ChannelGroups({ editable }: { editable: boolean }) {
  const groups = org.value.default_channel_groups;
  return (
    <>
      <h3>Default channel groups</h3>
      <p class="setting-hint">Groups of channels new people may choose from when they join.</p>
      {editable && <CreateGroup />}
      {groups.length ? (
        <ul class="settings-list" aria-label="Default channel groups">
          {groups.map((g) => (
            <GroupRow key={g.id} g={g} editable={editable} />
          ))}
        </ul>
      ) : (
        <p class="muted-text">No default channel groups.</p>
      )}
    </>
  );
}
