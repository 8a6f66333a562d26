/** Muted users (Zulip's settings_muted_users): the people whose messages are hidden, each with Unmute. */
import { useState } from "preact/hooks";
import { api } from "../../../api/http";
import { me, mutedUsers, users } from "../../../state/store";
import { PersonField, SaveError, SaveStatus, useSaver } from "../controls";

function MuteSomeone() {
  const saver = useSaver();
  const [chosen, setChosen] = useState<number[]>([]);
  const mute = async (e: Event) => {
    e.preventDefault();
    const ok = await saver.run(async () => {
      for (const id of chosen) await api("POST", `/users/me/muted_users/${id}`);
    });
    if (ok) setChosen([]);
  };
  return (
    <form class="setting" onSubmit={(e) => void mute(e)}>
      <span class="setting-label">Mute someone</span>
      <PersonField label="People to mute" chosen={chosen.filter((id) => id !== me.value)} onChange={(ids) => setChosen(ids.filter((id) => id !== me.value))} />
      <div class="setting-row">
        <button type="submit" class="button" disabled={!chosen.length || saver.state.kind === "saving"}>
          Mute
        </button>
        <SaveStatus state={saver.state} />
      </div>
      <SaveError state={saver.state} />
    </form>
  );
}

function MutedRow({ id }: { id: number }) {
  const saver = useSaver();
  const name = users.value[id]?.full_name ?? "Unknown user";
  return (
    <li>
      <span>{name}</span>
      <SaveStatus state={saver.state} />
      <SaveError state={saver.state} />
      <button type="button" class="button subtle" aria-label={`Unmute ${name}`} disabled={saver.state.kind === "saving"} onClick={() => void saver.run(() => api("DELETE", `/users/me/muted_users/${id}`))}>
        Unmute
      </button>
    </li>
  );
}

export function MutedUsers() {
  const ids = mutedUsers.value;
  return (
    <div class="settings-section">
      <p class="setting-hint">Messages from people you mute are hidden, and they are not told.</p>
      <MuteSomeone />
      {ids.length ? (
        <ul class="settings-list" aria-label="Muted users">
          {ids.map((id) => (
            <MutedRow key={id} id={id} />
          ))}
        </ul>
      ) : (
        <p class="muted-text">You have not muted anyone.</p>
      )}
    </div>
  );
}
