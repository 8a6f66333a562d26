/**
 * The invitations that still work (Zulip's organization settings → Invitations), the last tab of the
 * invite dialog: an administrator sees everyone's, anyone else their own. A link's entry says the role
 * it gives, who made it and when, when it stops working, with the link to copy; an email invitation's
 * says the address instead and offers "Resend". Where the server allows it, "Revoke" (asked again in
 * place before anything is sent).
 */
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { resendInvite, revokeInvite, type InviteLink } from "../api/calls";
import { describeError } from "../api/http";
import { copyText } from "../lib/clipboard";
import { emailInviteTitle, expiresLine, linkTitle, madeLine, newestFirst, revokeQuestion } from "../lib/invite-list";
import { formatDateTime } from "../lib/time";
import { canRevokeInvite, seesAllInvites } from "../state/permissions";
import { settings, state, users } from "../state/store";

export type Copied = "yes" | "select" | null;

/** Copy for a read-only link field: the clipboard, or (refused) the link left selected in its field. */
export function useCopy(link: string, field: { current: HTMLInputElement | null }): [Copied, () => void] {
  const [copied, setCopied] = useState<Copied>(null);
  const copy = () =>
    void copyText(link).then(
      () => setCopied("yes"),
      () => {
        field.current?.focus();
        field.current?.select();
        setCopied("select");
      },
    );
  return [copied, copy];
}

/** What an entry is called: "Member link", or the address an invitation went to. */
const entryTitle = (invite: InviteLink) => (invite.is_multiuse ? linkTitle(invite) : invite.email!);
/** "the member link", "the invitation to ann@example.com", in sentences. */
const entryName = (invite: InviteLink) => (invite.is_multiuse ? `The ${linkTitle(invite).toLowerCase()}` : `The invitation to ${invite.email}`);

interface EntryProps {
  invite: InviteLink;
  mayManage: boolean;
  onRevoke(invite: InviteLink): Promise<boolean>;
  onResend(invite: InviteLink): Promise<void>;
}

function LinkRow({ invite, titleId, children }: { invite: InviteLink; titleId: string; children?: ComponentChildren }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, copy] = useCopy(invite.link_url!, field);
  return (
    <>
      <div class="invite-link-row">
        <input ref={field} class="invite-link" readOnly aria-label={`${linkTitle(invite)}, the link`} value={invite.link_url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" class="button small invite-entry-copy" aria-describedby={titleId} onClick={copy}>
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
        {children}
      </div>
      {copied === "select" && <p class="muted-text invite-entry-note">Copying was refused: the link is selected, press Ctrl+C (⌘C) to copy it.</p>}
    </>
  );
}

function Entry({ invite, mayManage, onRevoke, onResend }: EntryProps) {
  const s = state.value!;
  const twentyFour = settings.value.twenty_four_hour_time;
  const format = (t: number) => formatDateTime(t, twentyFour);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const titleId = `invite-${invite.is_multiuse ? "link" : "email"}-${invite.id}-title`;
  const what = invite.is_multiuse ? "link" : "invitation";
  // the question takes the focus on its confirm button; "Keep" gives it back to "Revoke"
  useLayoutEffect(() => (asking ? confirmButton.current?.focus() : undefined), [asking]);
  const keep = () => {
    setAsking(false);
    requestAnimationFrame(() => revokeButton.current?.focus());
  };
  const revoke = async () => {
    setBusy(true);
    const done = await onRevoke(invite);
    // a success removes the entry; a failure (said on the dialog's error line) closes the question
    if (!done) {
      setBusy(false);
      keep();
    }
  };
  const resend = async () => {
    setResending(true);
    await onResend(invite);
    setResending(false);
  };
  const revokeButtonEl = mayManage && !asking && (
    <button ref={revokeButton} type="button" class="button small subtle invite-revoke" aria-describedby={titleId} onClick={() => setAsking(true)}>
      Revoke
    </button>
  );

  return (
    <li class={`invite-entry${invite.is_multiuse ? "" : " invite-entry-email"}`} aria-labelledby={titleId}>
      <div class="invite-entry-head">
        <span id={titleId} class="invite-entry-role">
          {entryTitle(invite)}
        </span>
        <span class="invite-entry-expiry">{expiresLine(invite.expiry_date, format)}</span>
      </div>
      <p class="invite-entry-made muted-text">
        {invite.is_multiuse ? "" : `${emailInviteTitle(invite)} · `}
        {madeLine(invite, users.value, s.me, format)}
      </p>
      {invite.is_multiuse ? (
        <LinkRow invite={invite} titleId={titleId}>
          {revokeButtonEl}
        </LinkRow>
      ) : (
        mayManage && (
          <div class="invite-entry-actions">
            {!asking && (
              <button type="button" class="button small invite-resend" aria-describedby={titleId} disabled={resending} onClick={() => void resend()}>
                {resending ? "Sending…" : "Resend"}
              </button>
            )}
            {revokeButtonEl}
          </div>
        )
      )}
      {asking && (
        <div
          class="invite-confirm"
          role="group"
          aria-label={`Revoke this ${what}?`}
          onKeyDown={(e) => {
            // Escape answers "keep" here, rather than closing the whole dialog
            if (e.key !== "Escape") return;
            e.preventDefault();
            e.stopPropagation();
            keep();
          }}
        >
          <p>{revokeQuestion(invite, users.value, s.me)}</p>
          <div class="invite-confirm-buttons">
            <button type="button" class="button small subtle invite-keep" disabled={busy} onClick={keep}>
              Keep it
            </button>
            <button ref={confirmButton} type="button" class="button small danger invite-revoke-confirm" disabled={busy} onClick={() => void revoke()}>
              {busy ? "Revoking…" : `Revoke ${what}`}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

interface Props {
  /** null while the first answer is awaited */
  invites: InviteLink[] | null;
  /** the server's answer to a revocation already taken out of `invites`; errors go to the dialog's error line */
  onRevoked(invite: InviteLink): void;
  onError(message: string | null): void;
  /** asks the server for the list again (a refused revocation may mean the list is out of date) */
  reload(): void;
}

export function InviteList({ invites, onRevoked, onError, reload }: Props) {
  const s = state.value!;
  const list = useRef<HTMLDivElement>(null);
  const [said, setSaid] = useState("");
  const revoke = async (invite: InviteLink) => {
    onError(null);
    try {
      await revokeInvite(invite);
    } catch (e) {
      onError(`Could not revoke the ${invite.is_multiuse ? "link" : "invitation"}: ${describeError(e)}`);
      reload();
      return false;
    }
    setSaid(`${entryName(invite)} was revoked.`);
    onRevoked(invite);
    // its entry is gone: the focus stays in the list
    list.current?.focus();
    return true;
  };
  const resend = async (invite: InviteLink) => {
    onError(null);
    setSaid("");
    try {
      await resendInvite(invite.id);
      setSaid(`${entryName(invite)} was sent again.`);
    } catch (e) {
      onError(`Could not resend the invitation: ${describeError(e)}`);
      reload();
    }
  };
  return (
    <div ref={list} class="invite-list-part" tabIndex={-1}>
      <p class="dialog-lead">{seesAllInvites(s) ? "Every invitation of the organization that still works." : "The invitations you made that still work."}</p>
      {invites === null ? (
        <p class="muted-text" role="status">
          Loading the invitations…
        </p>
      ) : invites.length === 0 ? (
        <p class="invite-list-empty muted-text">No invitations are active.</p>
      ) : (
        <ul class="invite-list">
          {newestFirst(invites).map((i) => (
            <Entry key={`${i.is_multiuse}-${i.id}`} invite={i} mayManage={canRevokeInvite(s, i)} onRevoke={revoke} onResend={resend} />
          ))}
        </ul>
      )}
      <p class="invite-list-said muted-text" role="status">
        {said}
      </p>
    </div>
  );
}
