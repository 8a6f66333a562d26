/**
 * Inviting people (Zulip's "Invite users to organization" → "Generate invite link"): the role they join
 * as (none above the person's own), how long the link lasts, whether they join the organization's
 * default channels; then the link to pass on, with a Copy button and when it expires. Anyone with the
 * link signs up at /join/{key}/. Opened from the personal menu; loaded on first use.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { createInviteLink } from "../api/calls";
import { describeError } from "../api/http";
import { DEFAULT_INVITE_EXPIRY, expiresAt, expiryLine, INVITE_EXPIRY, type ExpiryMinutes } from "../lib/invite-expiry";
import { copyText } from "../lib/clipboard";
import { invitableRoles } from "../state/permissions";
import { realm, state } from "../state/store";
import { closeDialog, Dialog } from "./Dialog";

const MEMBER = 400;

interface Made {
  link: string;
  expires: number | null;
}

function LinkField({ made }: { made: Made }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "select" | null>(null);
  // the new link takes the focus, selected: Copy is the next stop
  useLayoutEffect(() => field.current?.focus(), [made.link]);
  const copy = () =>
    copyText(made.link).then(
      () => setCopied("yes"),
      () => {
        // the browser refused both ways: leave the link selected for the person to copy
        field.current?.focus();
        field.current?.select();
        setCopied("select");
      },
    );
  return (
    <div class="invite-made">
      <label class="field">
        <span>Invitation link</span>
        <div class="invite-link-row">
          <input ref={field} class="invite-link" readOnly value={made.link} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" class="button primary invite-copy" onClick={() => void copy()}>
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

export function InviteDialog() {
  const roles = invitableRoles(state.peek()!);
  const [role, setRole] = useState<number>(roles.some((r) => r.role === MEMBER) ? MEMBER : (roles[0]?.role ?? MEMBER));
  const [expiry, setExpiry] = useState<ExpiryMinutes>(DEFAULT_INVITE_EXPIRY);
  const [defaults, setDefaults] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<Made | null>(null);

  const generate = async () => {
    setBusy(true);
    setError(null);
    const madeAt = Date.now() / 1000;
    try {
      const link = await createInviteLink({ invite_as: role, invite_expires_in_minutes: expiry, include_realm_default_subscriptions: defaults });
      setMade({ link, expires: expiresAt(madeAt, expiry) });
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

  return (
    <Dialog
      title={`Invite people to ${realm.value.name}`}
      class="invite-dialog"
      footer={
        <>
          <button type="button" class="button subtle" onClick={closeDialog}>
            {made ? "Done" : "Cancel"}
          </button>
          <button type="submit" form="invite-form" class="button primary invite-generate" disabled={busy || !roles.length}>
            {busy ? "Generating…" : made ? "Generate another link" : "Generate invite link"}
          </button>
        </>
      }
    >
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
        {error && (
          <p class="dialog-error" role="alert">
            {error}
          </p>
        )}
      </form>
      {made && <LinkField made={made} />}
    </Dialog>
  );
}
