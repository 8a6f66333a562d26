/**
 * Invitations (Zulip's invites-list-admin): the invitation links that still work, with Revoke where
 * permitted, hosted from the invite dialog's own list (views/InviteList.tsx), and a button to invite.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { fetchInviteLinks, type InviteLink } from "../../../api/calls";
import { describeError } from "../../../api/http";
import { invitesChanged } from "../../../state/invites-changed";
import { canInvite } from "../../../state/permissions";
import { state } from "../../../state/store";
import { InviteList } from "../../InviteList";
import { openInviteDialog } from "../../TopBar";

type Links = (InviteLink & { link_url: string })[];

export function Invitations() {
  const [links, setLinks] = useState<Links | null>(null);
  const [error, setError] = useState<string | null>(null);
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
        links={links}
        onError={setError}
        reload={() => void load()}
        onRevoked={(id) => {
          asked.current++;
          setLinks((l) => l && l.filter((i) => i.id !== id));
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
