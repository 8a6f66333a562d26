/** The right sidebar: everyone in the organization with their presence and status, active first. */
import { useState } from "preact/hooks";
import { hrefOf } from "../nav/router";
import { activePeople, dmKey } from "../state/people";
import { me, userStatus, users } from "../state/store";
import { PresenceDot, StatusEmoji, statusOf } from "./people-bits";

const RANK = { active: 0, idle: 1, offline: 2 } as const;

export function PeopleList() {
  const [filter, setFilter] = useState("");
  const statuses = userStatus.value;
  const needle = filter.trim().toLowerCase();
  const people = activePeople(users.value)
    .filter((u) => !u.is_bot && (!needle || u.full_name.toLowerCase().includes(needle)))
    .map((u) => ({ u, status: statusOf(u.user_id) }))
    .sort((a, b) => RANK[a.status] - RANK[b.status] || a.u.full_name.localeCompare(b.u.full_name));
  return (
    <section class="sidebar-section people" aria-labelledby="people-heading">
      <h2 id="people-heading" class="sidebar-heading">People</h2>
      <input class="people-filter" type="search" placeholder="Filter people" aria-label="Filter people" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <ul class="nav-list">
        {people.map(({ u }) => {
          const st = statuses[u.user_id];
          return (
            <li key={u.user_id}>
              <a class="nav-row person-row" href={hrefOf({ kind: "narrow", narrow: { kind: "dm", key: dmKey(me.value, [u.user_id]) } })} title={`Send a direct message to ${u.full_name}`}>
                <PresenceDot userId={u.user_id} />
                <span class="person-name">
                  <span class="nav-label">
                    {u.full_name}
                    {u.user_id === me.value && <span class="muted-text"> (you)</span>}
                  </span>
                  {st?.status_text && <span class="person-status">{st.status_text}</span>}
                </span>
                <StatusEmoji userId={u.user_id} />
              </a>
            </li>
          );
        })}
        {people.length === 0 && <li class="sidebar-empty">No one matches.</li>}
      </ul>
    </section>
  );
}
