/**
 * The invitation links already made (Zulip's organization settings → Invitations), the second part of
 * the invite dialog: an administrator sees every link that still works, anyone else their own. Each
 * says the role it gives, who made it and when, when it stops working, with the link to copy and, where
 * the server allows it, "Revoke" (asked again in place before anything is sent).
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { revokeInviteLink, type InviteLink } from "../api/calls";
import { describeError } from "../api/http";
import { copyText } from "../lib/clipboard";
import { expiresLine, linkTitle, madeLine, newestFirst, revokeQuestion } from "../lib/invite-list";
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

interface EntryProps {
  invite: InviteLink & { link_url: string };
  mayRevoke: boolean;
  onRevoke(invite: InviteLink): Promise<boolean>;
}

function Entry({ invite, mayRevoke, onRevoke }: EntryProps) {
  const s = state.value!;
  const twentyFour = settings.value.twenty_four_hour_time;
  const format = (t: number) => formatDateTime(t, twentyFour);
  const field = useRef<HTMLInputElement>(null);
  const [copied, copy] = useCopy(invite.link_url, field);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const revokeButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const titleId = `invite-${invite.id}-title`;
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

  return (
    <li class="invite-entry" aria-labelledby={titleId}>
      <div class="invite-entry-head">
        <span id={titleId} class="invite-entry-role">
          {linkTitle(invite)}
        </span>
        <span class="invite-entry-expiry">{expiresLine(invite.expiry_date, format)}</span>
      </div>
      <p class="invite-entry-made muted-text">{madeLine(invite, users.value, s.me, format)}</p>
      <div class="invite-link-row">
        <input ref={field} class="invite-link" readOnly aria-label={`${linkTitle(invite)}, the link`} value={invite.link_url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" class="button small invite-entry-copy" aria-describedby={titleId} onClick={copy}>
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
        {mayRevoke && !asking && (
          <button ref={revokeButton} type="button" class="button small subtle invite-revoke" aria-describedby={titleId} onClick={() => setAsking(true)}>
            Revoke
          </button>
        )}
      </div>
      {copied === "select" && <p class="muted-text invite-entry-note">Copying was refused: the link is selected, press Ctrl+C (⌘C) to copy it.</p>}
      {asking && (
        <div
          class="invite-confirm"
          role="group"
          aria-label="Revoke this link?"
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
              {busy ? "Revoking…" : "Revoke link"}
            </button>
          </div>
        </div>
      )}
    </li>
  );
}

interface Props {
  /** null while the first answer is awaited */
  links: (InviteLink & { link_url: string })[] | null;
  /** the server's answer to a revocation already taken out of `links`; errors go to the dialog's error line */
  onRevoked(id: number): void;
  onError(message: string | null): void;
  /** asks the server for the list again (a refused revocation may mean the list is out of date) */
  reload(): void;
}

export function InviteList({ links, onRevoked, onError, reload }: Props) {
  const s = state.value!;
  const list = useRef<HTMLDivElement>(null);
  const [said, setSaid] = useState("");
  const revoke = async (invite: InviteLink) => {
    onError(null);
    try {
      await revokeInviteLink(invite.id);
    } catch (e) {
      onError(`Could not revoke the link: ${describeError(e)}`);
      reload();
      return false;
    }
    setSaid(`The ${linkTitle(invite).toLowerCase()} was revoked.`);
    onRevoked(invite.id);
    // its entry is gone: the focus stays in the list
    list.current?.focus();
    return true;
  };
  return (
    <div ref={list} class="invite-list-part" tabIndex={-1}>
      <p class="dialog-lead">{seesAllInvites(s) ? "Every invitation link of the organization that still works." : "The invitation links you made that still work."}</p>
      {links === null ? (
        <p class="muted-text" role="status">
          Loading the links…
        </p>
      ) : links.length === 0 ? (
        <p class="invite-list-empty muted-text">No invitation links are active.</p>
      ) : (
        <ul class="invite-list">
          {newestFirst(links).map((i) => (
            <Entry key={i.id} invite={i} mayRevoke={canRevokeInvite(s, i)} onRevoke={revoke} />
          ))}
        </ul>
      )}
      <p class="invite-list-said muted-text" role="status">
        {said}
      </p>
    </div>
  );
}
