/** A channel's members: the list, adding people where permitted, and removing them where permitted. */
import { useState } from "preact/hooks";
import { subscribePeople, unsubscribePeople } from "../../../api/settings-calls";
import { describeError } from "../../../api/http";
import { canAddSubscribers, canRemoveSubscribers } from "../../../state/permissions";
import { state } from "../../../state/store";
import { Avatar } from "../../people-bits";
import { AddPeopleForm } from "../controls";

function RemoveButton({ streamId, userId, name }: { streamId: number; userId: number; name: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const channel = state.value!.channels[streamId]!.name;
  const remove = () => {
    setBusy(true);
    setError(null);
    unsubscribePeople(channel, [userId])
      .catch((e) => setError(describeError(e)))
      .finally(() => setBusy(false));
  };
  return (
    <>
      <button type="button" class="button subtle" disabled={busy} aria-label={`Unsubscribe ${name}`} onClick={remove}>
        Unsubscribe
      </button>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

export function Subscribers({ streamId }: { streamId: number }) {
  const s = state.value!;
  const [filter, setFilter] = useState("");
  const ids = s.subscribers[streamId] ?? [];
  const needle = filter.trim().toLowerCase();
  const people = ids.map((id) => s.users[id]).filter((u) => u && (!needle || u.full_name.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle)));
  const mayRemove = canRemoveSubscribers(s, streamId);
  return (
    <div class="settings-form">
      {canAddSubscribers(s, streamId) && <AddPeopleForm label="Add subscribers" add={(ids) => subscribePeople(s.channels[streamId]!.name, ids)} />}
      <p class="setting-hint">{ids.length === 1 ? "1 subscriber" : `${ids.length} subscribers`}</p>
      <input class="settings-filter" type="search" aria-label="Filter subscribers" placeholder="Filter subscribers" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <ul class="settings-people" aria-label="Subscribers">
        {people.map((u) => (
          <li key={u!.user_id} class="settings-person">
            <Avatar userId={u!.user_id} size={24} />
            <span class="settings-person-name">{u!.full_name}</span>
            <span class="settings-person-email muted-text">{u!.delivery_email ?? u!.email}</span>
            {(mayRemove || u!.user_id === s.me) && <RemoveButton streamId={streamId} userId={u!.user_id} name={u!.full_name} />}
          </li>
        ))}
      </ul>
    </div>
  );
}
