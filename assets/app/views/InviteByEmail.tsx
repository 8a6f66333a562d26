/**
 * The invite dialog's "By email" tab (Zulip's "Send invitations"): the addresses (commas or new lines),
 * the role, how long the emailed link lasts, the channels to join and whether the default ones too, and
 * whether to hear when they join. The server's reasons for refused addresses are listed under the field,
 * and a line says what was sent. Each address gets an email with a link that works once.
 */
import { useState } from "preact/hooks";
import { sendEmailInvites } from "../api/calls";
import { ApiError, describeError } from "../api/http";
import { DEFAULT_INVITE_EXPIRY, INVITE_EXPIRY, type ExpiryMinutes } from "../lib/invite-expiry";
import { inviteFailure, parseAddresses, sentLine, type AddressError } from "../lib/invite-email";
import { invitableRoles } from "../state/permissions";
import { state } from "../state/store";

const MEMBER = 400;

interface Props {
  busy: boolean;
  setBusy(busy: boolean): void;
  /** errors that are not about addresses go to the dialog's error line */
  onError(message: string | null): void;
  /** invitations went out: the list may fetch itself again */
  onSent(): void;
}

export function InviteByEmail({ busy, setBusy, onError, onSent }: Props) {
  const s = state.peek()!;
  const roles = invitableRoles(s, "email");
  const channels = Object.values(s.subscriptions)
    .filter((c) => !c.is_archived)
    .sort((a, b) => a.name.localeCompare(b.name));
  const [text, setText] = useState("");
  const [role, setRole] = useState<number>(roles.some((r) => r.role === MEMBER) ? MEMBER : (roles[0]?.role ?? MEMBER));
  const [expiry, setExpiry] = useState<ExpiryMinutes>(DEFAULT_INVITE_EXPIRY);
  const [picked, setPicked] = useState<number[]>([]);
  const [defaults, setDefaults] = useState(true);
  const [notify, setNotify] = useState(true);
  const [problem, setProblem] = useState<{ message: string; lines: string[] } | null>(null);
  const [sent, setSent] = useState("");

  const send = async () => {
    const addresses = parseAddresses(text);
    onError(null);
    setSent("");
    if (!addresses.length) {
      setProblem({ message: "Enter at least one email address.", lines: [] });
      return;
    }
    setBusy(true);
    try {
      await sendEmailInvites({
        invitee_emails: addresses.join(","),
        invite_as: role,
        invite_expires_in_minutes: expiry,
        stream_ids: picked,
        include_realm_default_subscriptions: defaults,
        notify_referrer_on_join: notify,
      });
      setProblem(null);
      setSent(sentLine(addresses));
      setText("");
      onSent();
    } catch (e) {
      const failure = e instanceof ApiError ? inviteFailure(e.code, e.body) : null;
      if (!failure) {
        setProblem(null);
        onError(`Could not send the invitations: ${describeError(e)}`);
        return;
      }
      setProblem({ message: failure.message, lines: failure.lines });
      if (failure.sent) {
        const refused = (e as ApiError).body.errors as AddressError[];
        setSent(sentLine(addresses, refused));
        // the refused addresses stay in the field, the invited ones leave it
        setText(refused.map(([email]) => email).join("\n"));
        onSent();
      }
    } finally {
      setBusy(false);
    }
  };
  const toggle = (id: number, on: boolean) => setPicked((p) => (on ? [...p, id] : p.filter((x) => x !== id)));

  return (
    <form
      id="invite-email-form"
      class="dialog-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy) void send();
      }}
    >
      <p class="dialog-lead">Each address gets an email with a link that signs them up once.</p>
      <label class="field">
        <span>Email addresses</span>
        <textarea
          class="invite-emails"
          value={text}
          placeholder="one@example.com, two@example.com"
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? "invite-email-problem" : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
        />
      </label>
      {problem && (
        <div id="invite-email-problem" class="invite-email-problem" role="alert">
          <p>{problem.message}</p>
          {problem.lines.length > 0 && (
            <ul>
              {problem.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <label class="field">
        <span>Invite as</span>
        <select class="invite-email-role" value={role} onChange={(e) => setRole(Number(e.currentTarget.value))}>
          {roles.map((r) => (
            <option key={r.role} value={r.role}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <label class="field">
        <span>Invitation expires</span>
        <select class="invite-email-expires" value={String(expiry)} onChange={(e) => setExpiry(e.currentTarget.value === "null" ? null : (Number(e.currentTarget.value) as ExpiryMinutes))}>
          {INVITE_EXPIRY.map((x) => (
            <option key={String(x.minutes)} value={String(x.minutes)}>
              {x.minutes === DEFAULT_INVITE_EXPIRY ? `${x.label} (default)` : x.label}
            </option>
          ))}
        </select>
      </label>
      {channels.length > 0 && (
        <fieldset class="settings-group invite-channels">
          <legend>Channels to join</legend>
          {channels.map((c) => (
            <label key={c.stream_id} class="check">
              <input type="checkbox" class="invite-channel" checked={picked.includes(c.stream_id)} onChange={(e) => toggle(c.stream_id, e.currentTarget.checked)} />
              {c.name}
            </label>
          ))}
        </fieldset>
      )}
      <label class="check">
        <input type="checkbox" class="invite-email-defaults" checked={defaults} onChange={(e) => setDefaults(e.currentTarget.checked)} />
        Subscribe them to the organization's default channels
      </label>
      <label class="check">
        <input type="checkbox" class="invite-notify" checked={notify} onChange={(e) => setNotify(e.currentTarget.checked)} />
        Send me a direct message when they join
      </label>
      <p class="invite-sent" role="status">
        {sent}
      </p>
    </form>
  );
}
