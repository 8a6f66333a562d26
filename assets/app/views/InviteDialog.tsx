/**
 * Inviting people (Zulip's "Invite users to organization" → "Generate invite link"): the role they join
 * as (none above the person's own), how long the link lasts, whether they join the organization's
 * default channels; then the link to pass on, with a Copy button and when it expires. Anyone with the
 * link signs up at /join/{key}/. A second tab, "Links made", lists the links that still work and revokes
 * them (InviteList). Opened from the personal menu; loaded on first use.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { createInviteLink, fetchInviteLinks, type InviteLink } from "../api/calls";
import { describeError } from "../api/http";
import { DEFAULT_INVITE_EXPIRY, expiresAt, expiryLine, INVITE_EXPIRY, type ExpiryMinutes } from "../lib/invite-expiry";
import { invitesChanged } from "../state/invites-changed";
import { invitableRoles } from "../state/permissions";
import { realm, state } from "../state/store";
import { closeDialog, Dialog } from "./Dialog";
import { InviteList, useCopy } from "./InviteList";

const MEMBER = 400;

interface Made {
  link: string;
  expires: number | null;
}

function LinkField({ made }: { made: Made }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, copy] = useCopy(made.link, field);
  // the new link takes the focus, selected: Copy is the next stop
  useLayoutEffect(() => field.current?.focus(), [made.link]);
  return (
    <div class="invite-made">
      <label class="field">
        <span>Invitation link</span>
        <div class="invite-link-row">
          <input ref={field} class="invite-link" readOnly value={made.link} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" class="button primary invite-copy" onClick={copy}>
            {copied === "yes" ? "Copied" : "Copy"}
          </button>
        </div>
      </label>
      <p class="invite-expiry muted-text">{expiryLine(made.expires)}</p>
      <p class="muted-text" role="status">
        {copied === "yes" ? "The link is on the clipboard." : copied === "select" ? "Copying was refused: the link is selected, press Ctrl+C (⌘C) to copy it." : "Anyone with this link can sign up."}
      </p>
    </div>
  );
}

type Tab = "new" | "list";
type Links = (InviteLink & { link_url: string })[];

/** The two tabs (WAI-ARIA tabs: arrows, Home and End move between them, and choose). */
function Tabs({ tab, count, choose }: { tab: Tab; count: number | null; choose(t: Tab): void }) {
  const order: Tab[] = ["new", "list"];
  const onKeyDown = (e: KeyboardEvent) => {
    // two tabs: either arrow goes to the other one
    const other = order[(order.indexOf(tab) + 1) % order.length]!;
    const next = e.key === "ArrowRight" || e.key === "ArrowLeft" ? other : e.key === "Home" ? order[0]! : e.key === "End" ? order.at(-1)! : null;
    if (!next) return;
    e.preventDefault();
    choose(next);
    document.getElementById(`invite-tab-${next}`)?.focus();
  };
  const tabProps = (t: Tab) => ({
    type: "button" as const,
    role: "tab" as const,
    id: `invite-tab-${t}`,
    "aria-selected": tab === t,
    "aria-controls": `invite-panel-${t}`,
    tabIndex: tab === t ? 0 : -1,
    onClick: () => choose(t),
  });
  return (
    <div class="tabs invite-tabs" role="tablist" aria-label="Invitations" onKeyDown={onKeyDown}>
      <button {...tabProps("new")}>New link</button>
      <button {...tabProps("list")}>
        Links made{count !== null && <span class="invite-tab-count"> ({count})</span>}
      </button>
    </div>
  );
}

export function InviteDialog() {
  const roles = invitableRoles(state.peek()!);
  const [tab, setTab] = useState<Tab>("new");
  const [role, setRole] = useState<number>(roles.some((r) => r.role === MEMBER) ? MEMBER : (roles[0]?.role ?? MEMBER));
  const [expiry, setExpiry] = useState<ExpiryMinutes>(DEFAULT_INVITE_EXPIRY);
  const [defaults, setDefaults] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<Made | null>(null);
  const [links, setLinks] = useState<Links | null>(null);
  // only the latest answer counts (a generated link and an event may ask at once)
  const asked = useRef(0);

  const load = async () => {
    const ask = ++asked.current;
    try {
      const got = await fetchInviteLinks();
      if (ask === asked.current) setLinks(got);
    } catch (e) {
      if (ask === asked.current) setError(`Could not list the invitation links: ${describeError(e)}`);
    }
  };
  // fetched on opening, and again whenever the server says invitations changed (made or revoked elsewhere)
  const changes = invitesChanged.value;
  useEffect(() => void load(), [changes]);

  const generate = async () => {
    setBusy(true);
    setError(null);
    const madeAt = Date.now() / 1000;
    try {
      const link = await createInviteLink({ invite_as: role, invite_expires_in_minutes: expiry, include_realm_default_subscriptions: defaults });
      setMade({ link, expires: expiresAt(madeAt, expiry) });
      void load();
    } catch (e) {
      setError(`Could not create the invitation link: ${describeError(e)}`);
    } finally {
      setBusy(false);
    }
  };
  // a change after the link was made calls for a new link
  const change = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setMade(null);
  };
  const revoked = (id: number) => {
    asked.current++; // an answer still on its way predates the revocation
    setLinks((l) => l && l.filter((i) => i.id !== id));
  };

  return (
    <Dialog
      title={`Invite people to ${realm.value.name}`}
      class="invite-dialog"
      initialFocus=".invite-role"
      footer={
        tab === "new" ? (
          <>
            <button type="button" class="button subtle" onClick={closeDialog}>
              {made ? "Done" : "Cancel"}
            </button>
            <button type="submit" form="invite-form" class="button primary invite-generate" disabled={busy || !roles.length}>
              {busy ? "Generating…" : made ? "Generate another link" : "Generate invite link"}
            </button>
          </>
        ) : (
          <button type="button" class="button subtle" onClick={closeDialog}>
            Done
          </button>
        )
      }
    >
      <Tabs tab={tab} count={links && links.length} choose={setTab} />
      {tab === "new" ? (
        <div class="invite-panel" role="tabpanel" id="invite-panel-new" aria-labelledby="invite-tab-new">
          <form
            id="invite-form"
            class="dialog-form"
            onSubmit={(e) => {
              e.preventDefault();
              void generate();
            }}
          >
            <p class="dialog-lead">Make a link to pass on: whoever opens it can create their account.</p>
            <label class="field">
              <span>Invite as</span>
              <select class="invite-role" value={role} onChange={(e) => change(setRole)(Number(e.currentTarget.value))}>
                {roles.map((r) => (
                  <option key={r.role} value={r.role}>
                    {r.label}
                  </option>
                ))}
              </select>
            </label>
            <label class="field">
              <span>Link expires</span>
              <select class="invite-expires" value={String(expiry)} onChange={(e) => change(setExpiry)(e.currentTarget.value === "null" ? null : (Number(e.currentTarget.value) as ExpiryMinutes))}>
                {INVITE_EXPIRY.map((x) => (
                  <option key={String(x.minutes)} value={String(x.minutes)}>
                    {x.minutes === DEFAULT_INVITE_EXPIRY ? `${x.label} (default)` : x.label}
                  </option>
                ))}
              </select>
            </label>
            <label class="check">
              <input type="checkbox" class="invite-defaults" checked={defaults} onChange={(e) => change(setDefaults)(e.currentTarget.checked)} />
              Subscribe them to the organization's default channels
            </label>
          </form>
          {made && <LinkField key={made.link} made={made} />}
        </div>
      ) : (
        <div class="invite-panel" role="tabpanel" id="invite-panel-list" aria-labelledby="invite-tab-list">
          <InviteList links={links} onRevoked={revoked} onError={setError} reload={() => void load()} />
        </div>
      )}
      {error && (
        <p class="dialog-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
