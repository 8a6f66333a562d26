/**
 * A person's profile card (Zulip's user card): avatar, presence, local time, role, email where visible,
 * when they joined, the organization's custom profile fields, and the ways to reach them.
 */
import { closeDialog, Dialog } from "../../Dialog";
import { navigate } from "../../../nav/router";
import { dmKey } from "../../../state/people";
import { state } from "../../../state/store";
import { Avatar, PresenceDot, statusOf } from "../../people-bits";
import { roleName } from "./roles";

/** The person's time now, in their time zone ("" when unknown or not a zone the browser knows). */
function localTime(timezone: string, twentyFour: boolean): string {
  if (!timezone) return "";
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: timezone, hour: "numeric", minute: "2-digit", hour12: !twentyFour }).format(new Date());
  } catch {
    return "";
  }
}

const joined = (iso: string | undefined) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" }) : "");

export function ProfileCard({ userId }: { userId: number }) {
  const s = state.value!;
  const u = s.users[userId];
  if (!u) {
    return (
      <Dialog title="Unknown person">
        <p>This person is not known to you.</p>
      </Dialog>
    );
  }
  // the real address only where the organization's email visibility shows it to this person
  const email = u.delivery_email ?? "";
  const time = localTime(u.timezone, s.settings.twenty_four_hour_time);
  const owner = u.bot_owner_id ? s.users[u.bot_owner_id] : undefined;
  const fields = (s.profile_fields ?? []).map((f) => ({ f, v: u.profile_data?.[String(f.id)]?.value })).filter((x) => x.v);
  const go = (to: () => void) => () => {
    closeDialog();
    to();
  };
  const status = statusOf(userId);
  return (
    <Dialog title={u.full_name} class="profile-card">
      <div class="profile-card-head">
        <Avatar userId={userId} size={72} />
        <div>
          <p class="profile-card-presence">
            <PresenceDot userId={userId} /> {status === "active" ? "Active now" : status === "idle" ? "Idle" : "Offline"}
          </p>
          <p>{u.is_bot ? "Bot" : roleName(u.role)}{!u.is_active && " (deactivated)"}</p>
        </div>
      </div>
      <dl class="settings-facts profile-facts">
        {email && (
          <>
            <dt>Email</dt>
            <dd>{email}</dd>
          </>
        )}
        {time && (
          <>
            <dt>Local time</dt>
            <dd>{time}</dd>
          </>
        )}
        {u.date_joined && !u.is_bot && (
          <>
            <dt>Joined</dt>
            <dd>{joined(u.date_joined)}</dd>
          </>
        )}
        {owner && (
          <>
            <dt>Owner</dt>
            <dd>{owner.full_name}</dd>
          </>
        )}
        {fields.map(({ f, v }) => (
          <>
            <dt key={`t${f.id}`}>{f.name}</dt>
            <dd key={`d${f.id}`}>{v}</dd>
          </>
        ))}
      </dl>
      <div class="profile-card-actions">
        {u.is_active && userId !== s.me && (
          <button type="button" class="button primary" onClick={go(() => navigate({ kind: "narrow", narrow: { kind: "dm", key: dmKey(s.me, [userId]) } }))}>
            Send a direct message
          </button>
        )}
        <button type="button" class="button" onClick={go(() => navigate({ kind: "narrow", narrow: { kind: "search", terms: [{ operator: "sender", operand: String(userId) }] } }))}>
          View messages sent
        </button>
      </div>
    </Dialog>
  );
}
