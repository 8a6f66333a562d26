/**
 * User groups (Zulip's `#groups/your`, `#groups/all`, `#groups/ID/name/general|members|permissions`): the
 * list with a filter and a create button, and one group's settings. Controls show only where the person
 * may act (state/permissions.ts); refusals show beside them. Loaded on first use.
 */
import { useState } from "preact/hooks";
import type { GroupSection, GroupsTab } from "../../../nav/hash";
import { hrefOf } from "../../../nav/router";
import { canCreateGroups } from "../../../state/permissions";
import { groupHasMember } from "../../../state/people";
import { state } from "../../../state/store";
import { openLazyDialog } from "../../Dialog";
import { GroupSettings } from "./GroupSettings";

const TABS: { id: GroupsTab; label: string }[] = [
  { id: "your", label: "Your groups" },
  { id: "all", label: "All groups" },
];

function GroupList({ tab }: { tab: GroupsTab }) {
  const s = state.value!;
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const shown = Object.values(s.groups)
    .filter((g) => !g.is_system_group && (tab === "all" || groupHasMember(s.groups, g.id, s.me)))
    .filter((g) => !needle || g.name.toLowerCase().includes(needle) || (g.description ?? "").toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <input class="settings-filter" type="search" aria-label="Filter groups" placeholder="Filter groups" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      {shown.length ? (
        <ul class="group-list" aria-label="User groups">
          {shown.map((g) => (
            <li key={g.id} class="group-card">
              <a href={hrefOf({ kind: "groups", tab, group_id: g.id, section: "general" })} class="group-card-name">
                {g.name}
              </a>
              {g.description && <p class="muted-text">{g.description}</p>}
              <p class="setting-hint">{g.members.length === 1 ? "1 member" : `${g.members.length} members`}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted-text">{tab === "your" ? "You are not in any group yet." : "There are no groups yet."}</p>
      )}
    </>
  );
}

export function GroupsView({ tab, groupId, section }: { tab: GroupsTab; groupId?: number; section: GroupSection }) {
  const s = state.value!;
  const openCreate = () => openLazyDialog(() => import("./CreateGroupDialog").then((m) => () => <m.CreateGroupDialog />));
  return (
    <section class="groups-view channel-settings" aria-labelledby="groups-title">
      <header class="channel-settings-head">
        {groupId !== undefined && (
          <a class="settings-back-link" href={hrefOf({ kind: "groups", tab })}>
            All groups
          </a>
        )}
        <h1 id="groups-title">User groups</h1>
        {groupId === undefined && canCreateGroups(s) && (
          <button type="button" class="button primary" onClick={openCreate}>
            Create user group
          </button>
        )}
      </header>
      {groupId === undefined ? (
        <>
          <nav class="tabs" aria-label="Which groups">
            {TABS.map((t) => (
              <a key={t.id} class="tab" href={hrefOf({ kind: "groups", tab: t.id })} aria-current={t.id === tab ? "page" : undefined}>
                {t.label}
              </a>
            ))}
          </nav>
          <GroupList tab={tab} />
        </>
      ) : (
        <GroupSettings groupId={groupId} section={section} />
      )}
    </section>
  );
}
