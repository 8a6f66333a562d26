/**
 * Invitations (Zulip's invites-list-admin): the invitations (links and emails) that still work, with
 * Resend and Revoke where permitted, hosted from the invite dialog's own list (views/InviteList.tsx),
 * and a button to invite.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { fetchInvites, type InviteLink } from "../../../api/calls";
import { describeError } from "../../../api/http";
import { invitesChanged } from "../../../state/invites-changed";
import { canInvite } from "../../../state/permissions";
import { state } from "../../../state/store";
import { InviteList } from "../../InviteList";
import { openInviteDialog } from "../../dialog-openers";

export function Invitations() {
  const [links, setLinks] = useState<InviteLink[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);
  const load = async () => {
    const ask = ++asked.current;
    try {
      const got = await fetchInvites();
      if (ask === asked.current) setLinks(got);
    } catch (e) {
      if (ask === asked.current) setError(`Could not list the invitations: ${describeError(e)}`);
    }
  };
  const changes = invitesChanged.value;
  useEffect(() => void load(), [changes]);
  return (
    <div class="settings-section">
      {canInvite(state.value!) && (
        <div class="setting-row">
          <button type="button" class="button primary" onClick={openInviteDialog}>
            Invite people
          </button>
        </div>
      )}
      <InviteList
        invites={links}
        onError={setError}
        reload={() => void load()}
        onRevoked={(gone) => {
          asked.current++; // an answer still on its way predates the revocation
          setLinks((l) => l && l.filter((i) => i.id !== gone.id || i.is_multiuse !== gone.is_multiuse));
        }}
      />
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
