/** Direct-message conversations, the most recent first, with unread counts and presence. */
import { useState } from "preact/hooks";
import { hrefOf, view } from "../nav/router";
import { dmTitle, keyIds } from "../state/people";
import { counts, me, recentDms, users } from "../state/store";
import { UnreadCount } from "./bits";
import { PresenceDot } from "./people-bits";
import { PeopleIcon } from "./icons";

const SHOWN = 8;

export function DmList() {
  const [all, setAll] = useState(false);
  const c = counts.value;
  const v = view.value;
  const currentKey = v.kind === "narrow" && v.narrow.kind === "dm" ? v.narrow.key : null;
  const convos = Object.entries(recentDms.value)
    .sort((a, b) => b[1] - a[1])
    .map(([key]) => key);
  const shown = all ? convos : convos.filter((k, i) => i < SHOWN || k === currentKey || (c.byDm[k] ?? 0) > 0);
  return (
    <section class="sidebar-section" aria-labelledby="dms-heading">
      <h2 id="dms-heading" class="sidebar-heading">
        <a href={hrefOf({ kind: "narrow", narrow: { kind: "dms" } })}>Direct messages</a>
        <UnreadCount count={c.dms} />
      </h2>
      {convos.length === 0 && <p class="sidebar-empty">No direct messages yet.</p>}
      <ul class="nav-list">
        {shown.map((key) => {
          const ids = keyIds(key);
          const current = key === currentKey;
          return (
            <li key={key}>
              <a class={`nav-row dm-row ${current ? "current" : ""}`} href={hrefOf({ kind: "narrow", narrow: { kind: "dm", key } })} aria-current={current ? "page" : undefined}>
                {ids.length === 1 ? <PresenceDot userId={ids[0]!} /> : <PeopleIcon size={15} />}
                <span class="nav-label">
                  {dmTitle(users.value, key)}
                  {ids.length === 1 && ids[0] === me.value && <span class="muted-text"> (you)</span>}
                </span>
                <UnreadCount count={c.byDm[key] ?? 0} />
              </a>
            </li>
          );
        })}
        {shown.length < convos.length && (
          <li>
            <button type="button" class="link-button more-topics" onClick={() => setAll(true)}>
              Show all {convos.length} conversations
            </button>
          </li>
        )}
      </ul>
    </section>
  );
}
