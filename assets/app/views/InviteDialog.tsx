/**
 * Inviting people (Zulip's "Invite users to organization"). "By link" (Zulip's "Generate invite link"):
 * the role they join as (none above the person's own), how long the link lasts, whether they join the
 * organization's default channels; then the link to pass on, with a Copy button and when it expires.
 * Anyone with the link signs up at /join/{key}/. "By email" sends each address its own one-time link
 * (InviteByEmail). "Invitations" lists those that still work, to resend or revoke (InviteList). Each tab
 * is offered only to those the organization lets invite that way. Opened from the personal menu;
 * loaded on first use.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { createInviteLink, fetchInvites, type InviteLink } from "../api/calls";
import { describeError } from "../api/http";
import { DEFAULT_INVITE_EXPIRY, expiresAt, expiryLine, INVITE_EXPIRY, type ExpiryMinutes } from "../lib/invite-expiry";
import { invitesChanged } from "../state/invites-changed";
import { canInviteByEmail, invitableRoles } from "../state/permissions";
import { realm, state } from "../state/store";
import { closeDialog, Dialog } from "./Dialog";
import { InviteByEmail } from "./InviteByEmail";
import { InviteList, useCopy } from "./InviteList";

const MEMBER = 400;

interface Made {
  link: string;
  expires: number | null;
}

function LinkField({ made, fresh }: { made: Made; fresh: { current: boolean } }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, copy] = useCopy(made.link, field);
  // a link just made takes the focus, selected: Copy is the next stop (coming back to the tab leaves the focus on the tab)
  useLayoutEffect(() => {
    if (fresh.current) field.current?.focus();
    fresh.current = false;
  }, [made.link]);
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

type Tab = "new" | "email" | "list";

/** The tabs offered (WAI-ARIA tabs: arrows, Home and End move between them, and choose). */
function Tabs({ order, tab, count, choose }: { order: Tab[]; tab: Tab; count: number | null; choose(t: Tab): void }) {
  const onKeyDown = (e: KeyboardEvent) => {
    const at = order.indexOf(tab);
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    const next = step ? order[(at + step + order.length) % order.length]! : e.key === "Home" ? order[0]! : e.key === "End" ? order.at(-1)! : null;
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
      {order.includes("new") && <button {...tabProps("new")}>By link</button>}
      {order.includes("email") && <button {...tabProps("email")}>By email</button>}
      <button {...tabProps("list")}>
        Invitations{count !== null && <span class="invite-tab-count"> ({count})</span>}
      </button>
    </div>
  );
}

export function InviteDialog() {
  const roles = invitableRoles(state.peek()!);
  const order: Tab[] = [...(roles.length ? (["new"] as const) : []), ...(canInviteByEmail(state.peek()!) ? (["email"] as const) : []), "list"];
  const [tab, setTab] = useState<Tab>(order[0]!);
  const [role, setRole] = useState<number>(roles.some((r) => r.role === MEMBER) ? MEMBER : (roles[0]?.role ?? MEMBER));
  const [expiry, setExpiry] = useState<ExpiryMinutes>(DEFAULT_INVITE_EXPIRY);
  const [defaults, setDefaults] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<Made | null>(null);
  const [invites, setInvites] = useState<InviteLink[] | null>(null);
  // only the latest answer counts (a generated link and an event may ask at once)
  const asked = useRef(0);
  // whether the link shown was just made (and so takes the focus)
  const fresh = useRef(false);

  const load = async () => {
    const ask = ++asked.current;
    try {
      const got = await fetchInvites();
      if (ask === asked.current) setInvites(got);
    } catch (e) {
      if (ask === asked.current) setError(`Could not list the invitations: ${describeError(e)}`);
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
      fresh.current = true;
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
  const revoked = (gone: InviteLink) => {
    asked.current++; // an answer still on its way predates the revocation
    setInvites((l) => l && l.filter((i) => i.id !== gone.id || i.is_multiuse !== gone.is_multiuse));
  };
  const close = (
    <button type="button" class="button subtle" onClick={closeDialog}>
      Done
    </button>
  );

  return (
    <Dialog
      title={`Invite people to ${realm.value.name}`}
      class="invite-dialog"
      initialFocus={order[0] === "new" ? ".invite-role" : order[0] === "email" ? ".invite-emails" : ".invite-list-part"}
      footer={
        tab === "email" ? (
          <>
            {close}
            <button type="submit" form="invite-email-form" class="button primary invite-send" disabled={busy}>
              {busy ? "Sending…" : "Send invitations"}
            </button>
          </>
        ) : tab === "new" ? (
          <>
            <button type="button" class="button subtle" onClick={closeDialog}>
              {made ? "Done" : "Cancel"}
            </button>
            <button type="submit" form="invite-form" class="button primary invite-generate" disabled={busy || !roles.length}>
              {busy ? "Generating…" : made ? "Generate another link" : "Generate invite link"}
            </button>
          </>
        ) : (
          close
        )
      }
    >
      <Tabs order={order} tab={tab} count={invites && invites.length} choose={setTab} />
      {tab === "email" ? (
        <div class="invite-panel" role="tabpanel" id="invite-panel-email" aria-labelledby="invite-tab-email">
          <InviteByEmail busy={busy} setBusy={setBusy} onError={setError} onSent={() => void load()} />
        </div>
      ) : tab === "new" ? (
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
          {made && <LinkField key={made.link} made={made} fresh={fresh} />}
        </div>
      ) : (
        <div class="invite-panel" role="tabpanel" id="invite-panel-list" aria-labelledby="invite-tab-list">
          <InviteList invites={invites} onRevoked={revoked} onError={setError} reload={() => void load()} />
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
