/** The right sidebar: everyone in the organization with their presence and status, active first. */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { hrefOf } from "../nav/router";
import { InfoIcon } from "./icons";
import { openProfile } from "./settings/people/open-profile";
import { activePeople, dmKey } from "../state/people";
import { me, presence, userStatus, users } from "../state/store";
import { nowSeconds, PresenceDot, StatusEmoji, statusOf } from "./people-bits";

const RANK = { active: 0, idle: 1, offline: 2 } as const;
let collator: Intl.Collator | undefined;
const byName = (a: string, b: string) => (collator ??= new Intl.Collator()).compare(a, b);
/**
 * People drawn at first, and how many more each time the end of the list comes into view (a large organization
 * has thousands). The first ones fill a tall window's sidebar; each row drawn is laid out before the first paint.
 */
const FIRST = 40;
const MORE = 200;

export function PeopleList() {
  const [filter, setFilter] = useState("");
  const [limit, setLimit] = useState(FIRST);
  const more = useRef<HTMLButtonElement>(null);
  const statuses = userStatus.value;
  const needle = filter.trim().toLowerCase();
  const everyone = users.value;
  const present = presence.value;
  const sorted = useMemo(
    () =>
      activePeople(everyone)
        .filter((u) => !u.is_bot && (!needle || u.full_name.toLowerCase().includes(needle)))
        .map((u) => ({ u, status: statusOf(u.user_id) }))
        .sort((a, b) => RANK[a.status] - RANK[b.status] || byName(a.u.full_name, b.u.full_name)),
    // statusOf reads the presence and the clock: the list is sorted again when either moved
    [everyone, present, needle, nowSeconds.value],
  );
  const people = sorted.slice(0, limit);
  useEffect(() => {
    const button = more.current;
    if (!button) return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setLimit((n) => n + MORE));
    seen.observe(button);
    return () => seen.disconnect();
  }, [people.length < sorted.length, limit]);
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
              <button type="button" class="icon-button profile-button" aria-label={`Profile of ${u.full_name}`} title="View profile" onClick={() => openProfile(u.user_id)}>
                <InfoIcon size={16} />
              </button>
            </li>
          );
        })}
        {people.length === 0 && <li class="sidebar-empty">No one matches.</li>}
      </ul>
      {people.length < sorted.length && (
        <button ref={more} type="button" class="link-button people-more" onClick={() => setLimit(limit + MORE)}>
          Show {Math.min(MORE, sorted.length - people.length)} more of {sorted.length - people.length}
        </button>
      )}
    </section>
  );
}
