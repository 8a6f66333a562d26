/**
 * Creating a channel (Zulip's "Create a channel"): its name, description, who can access it (only the
 * kinds the person may create), and the people subscribed with its creator. The server makes it
 * (POST /users/me/subscriptions); once its subscription event has reached the store, the channel's
 * view opens. Loaded on first use.
 */
import { effect } from "@preact/signals";
import { useState } from "preact/hooks";
import { createChannel } from "../api/calls";
import { describeError } from "../api/http";
import { navigate } from "../nav/router";
import { creatableChannelKinds, type ChannelPrivacy } from "../state/permissions";
import { me, state } from "../state/store";
import { PeoplePicker } from "./PeoplePicker";
import { closeDialog, FormDialog } from "./Dialog";
import { showNotice } from "./Notice";

const KINDS: Record<ChannelPrivacy, { label: string; help: string }> = {
  web_public: { label: "Web-public", help: "Organization members can join (guests must be invited by a subscriber); anyone on the Internet can view complete message history without creating an account." },
  public: { label: "Public", help: "Organization members can join (guests must be invited by a subscriber); organization members can view complete message history without joining." },
  private_shared: { label: "Private, shared history", help: "Must be invited by a subscriber; new subscribers can view complete message history; hidden from non-administrator users." },
  private_protected: { label: "Private, protected history", help: "Must be invited by a subscriber; new subscribers can only see messages sent after they join; hidden from non-administrator users." },
};
/** The order Zulip's dialog lists them in. */
const ORDER: ChannelPrivacy[] = ["web_public", "public", "private_shared", "private_protected"];


/** Resolves with the id of the subscribed channel of that name once the store has it (its event arrived). */
function channelNamed(name: string, timeoutMs = 10_000): Promise<number> {
  const wanted = name.trim().toLowerCase();
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const timer = setTimeout(() => (stop(), reject(new Error("The channel was created, but it has not arrived yet."))), timeoutMs);
    stop = effect(() => {
      const found = Object.values(state.value!.subscriptions).find((s) => s.name.toLowerCase() === wanted);
      if (!found) return;
      clearTimeout(timer);
      queueMicrotask(() => stop());
      resolve(found.stream_id);
    });
  });
}

export function CreateChannelDialog() {
  // drawn again when the organization's settings change (the choices and the announcement follow them)
  const s = state.value!;
  const kinds = ORDER.filter((k) => creatableChannelKinds(s).includes(k));
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [kind, setKind] = useState<ChannelPrivacy>(kinds.includes("public") ? "public" : kinds[0]!);
  const [people, setPeople] = useState<number[]>([]);
  const [announce, setAnnounce] = useState(true);
  // Zulip offers the announcement for channels others may join, where the organization has a channel for it
  const announcements = s.channels[s.realm.new_stream_announcements_stream_id];
  const mayAnnounce = !!announcements && !announcements.is_archived && (kind === "public" || kind === "web_public");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    const trimmed = name.trim();
    // POST /users/me/subscriptions would join a channel that exists instead: Zulip's dialog says so first
    if (trimmed && Object.values(state.peek()!.channels).some((c) => c.name.toLowerCase() === trimmed.toLowerCase())) {
      return setError("A channel with this name already exists.");
    }
    setBusy(true);
    setError(null);
    try {
      await createChannel({
        name,
        description,
        invite_only: kind === "private_shared" || kind === "private_protected",
        history_public_to_subscribers: kind !== "private_protected",
        is_web_public: kind === "web_public",
        principals: [me.peek(), ...people],
        announce: mayAnnounce && announce,
      });
      const id = await channelNamed(trimmed);
      closeDialog();
      navigate({ kind: "narrow", narrow: { kind: "channel", stream_id: id } });
      showNotice(`Created #${trimmed}.`);
    } catch (e) {
      setBusy(false);
      setError(describeError(e));
    }
  };

  return (
    <FormDialog
      title="Create a channel"
      class="create-channel-dialog"
      initialFocus=".channel-name-input"
      formId="create-channel-form"
      submitLabel="Create"
      busyLabel="Creating…"
      busy={busy}
      error={error}
      onSubmit={() => void submit()}
    >
      <label class="field">
        <span>Channel name</span>
        <input class="channel-name-input" value={name} autoComplete="off" onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label class="field">
        <span>Description</span>
        <textarea class="channel-description-input" rows={2} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <fieldset class="field channel-privacy">
        <legend>Who can access the channel?</legend>
        {kinds.map((k) => (
          <label class="check privacy-choice" key={k}>
            <input type="radio" name="channel-privacy" value={k} checked={kind === k} onChange={() => setKind(k)} />
            <span>
              <strong>{KINDS[k].label}</strong>
              <span class="privacy-help">{KINDS[k].help}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {mayAnnounce && (
        <label class="check">
          <input type="checkbox" class="channel-announce" checked={announce} onChange={(e) => setAnnounce(e.currentTarget.checked)} />
          Announce new channel in #{announcements.name}
        </label>
      )}
      <div class="field">
        <span id="channel-people-label">Choose subscribers</span>
        <PeoplePicker
          class="recipient-picker channel-people"
          inputClass="recipient-input channel-people-input"
          chosen={people}
          onChange={setPeople}
          fixed={[me.value]}
          label="Add people to the channel"
          placeholder="Add people by name or email"
          idPrefix="channel-person"
        />
      </div>
    </FormDialog>
  );
}
