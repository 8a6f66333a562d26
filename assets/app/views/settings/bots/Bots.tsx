/**
 * Bots (Zulip's "Your bots" and the administrators' "Bots"): create generic, incoming- and outgoing-webhook bots where
 * the organization allows it, and for each bot its API key (regenerate), a zuliprc built here in the
 * browser, and deactivate / reactivate. The lists follow the store (realm_bot events).
 */
import { useState } from "preact/hooks";
import { createBot, deactivateBot, download, reactivatePerson, regenerateBotKey, setBotAvatar, zuliprc } from "../../../api/settings-calls";
import { describeError } from "../../../api/http";
import { canManageBot, canReactivateUser, creatableBotTypes, type BotType } from "../../../state/permissions";
import { state } from "../../../state/store";
import type { Bot } from "../../../state/org-types";
import { Avatar } from "../../people-bits";
import { useId } from "../controls";
import { ActionButton } from "../people/ActionButton";

const TYPE_LABEL: Record<number, string> = { 1: "Generic bot", 2: "Incoming webhook", 3: "Outgoing webhook", 4: "Embedded bot" };

function CreateBot() {
  const types = creatableBotTypes(state.value!);
  const [type, setType] = useState<BotType>(types[0] ?? 1);
  const [name, setName] = useState("");
  const [prefix, setPrefix] = useState("");
  const [payloadUrl, setPayloadUrl] = useState("");
  const [iface, setIface] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [avatar, setAvatar] = useState<File | null>(null);
  const ids = { type: useId("bot-type"), name: useId("bot-name"), prefix: useId("bot-prefix"), avatar: useId("bot-avatar"), url: useId("bot-url"), iface: useId("bot-interface") };
  if (!types.length) return <p class="setting-hint">Your organization does not let you create bots.</p>;
  const submit = (e: Event) => {
    e.preventDefault();
    if (!name.trim() || !prefix.trim()) return setError("A bot needs a name and an email prefix.");
    if (type === 3 && !payloadUrl.trim()) return setError("An outgoing webhook needs the URL of its server.");
    setBusy(true);
    setError(null);
    createBot(name.trim(), prefix.trim(), type, type === 3 ? { payloadUrl: payloadUrl.trim(), interfaceType: iface } : undefined)
      .then(async (bot) => {
        setMade(name.trim());
        setName("");
        setPrefix("");
        setPayloadUrl("");
        // the bot exists either way; a refused image is said, and the bot keeps its default avatar
        if (avatar) await setBotAvatar(bot.user_id, avatar).catch((err) => Promise.reject(new Error(`The bot was created, but its avatar was not: ${describeError(err)}`)));
        setAvatar(null);
      })
      .catch((err) => setError(describeError(err)))
      .finally(() => setBusy(false));
  };
  return (
    <form class="settings-form create-bot" onSubmit={submit} aria-labelledby="create-bot-title">
      <h3 id="create-bot-title" class="settings-subhead">
        Add a new bot
      </h3>
      <label for={ids.type}>Bot type</label>
      <select id={ids.type} value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value) as BotType)}>
        {types.map((t) => (
          <option key={t} value={String(t)}>
            {TYPE_LABEL[t]}
          </option>
        ))}
      </select>
      <label for={ids.name}>Name</label>
      <input id={ids.name} name="bot-name" value={name} maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
      <label for={ids.prefix}>Bot email (its first part; "-bot@…" follows)</label>
      <input id={ids.prefix} name="bot-short-name" value={prefix} maxLength={40} onInput={(e) => setPrefix(e.currentTarget.value)} />
      <label for={ids.avatar}>Avatar (optional)</label>
      <input id={ids.avatar} key={made ?? ""} type="file" accept="image/png,image/jpeg,image/gif,image/webp" onChange={(e) => setAvatar(e.currentTarget.files?.[0] ?? null)} />
      {type === 3 && (
        <>
          <label for={ids.url}>Endpoint URL (messages that mention the bot or are sent to it are POSTed there)</label>
          <input id={ids.url} name="bot-payload-url" type="url" value={payloadUrl} onInput={(e) => setPayloadUrl(e.currentTarget.value)} />
          <label for={ids.iface}>Outgoing webhook message format</label>
          <select id={ids.iface} value={String(iface)} onChange={(e) => setIface(Number(e.currentTarget.value))}>
            <option value="1">Zulip</option>
            <option value="2">Slack compatible</option>
          </select>
        </>
      )}
      <div class="setting-row">
        <button type="submit" class="button primary" disabled={busy}>
          {busy ? "Creating…" : "Create bot"}
        </button>
        <span role="status" class="save-status saved">
          {made && `${made} was created.`}
        </span>
      </div>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function BotCard({ bot }: { bot: Bot }) {
  const s = state.value!;
  const [shown, setShown] = useState(false);
  const owner = bot.owner_id ? s.users[bot.owner_id] : undefined;
  const manage = canManageBot(s, bot.user_id);
  const site = location.origin;
  return (
    <li class="bot-card" data-bot-id={bot.user_id}>
      <div class="bot-card-head">
        <Avatar userId={bot.user_id} size={32} />
        <div>
          <p class="bot-name">{bot.full_name}</p>
          <p class="muted-text">
            {bot.email} · {TYPE_LABEL[bot.bot_type] ?? "Bot"}
            {owner && ` · owned by ${owner.full_name}`}
            {!bot.is_active && " · deactivated"}
          </p>
        </div>
      </div>
      {manage && bot.is_active && (
        <div class="bot-key">
          <span>API key: </span>
          {shown ? <code class="api-key">{bot.api_key}</code> : <span class="muted-text">hidden</span>}
          <div class="setting-row">
            <button type="button" class="button subtle" aria-label={`${shown ? "Hide" : "Show"} key of ${bot.full_name}`} onClick={() => setShown(!shown)}>
              {shown ? "Hide key" : "Show key"}
            </button>
            <ActionButton label="Regenerate key" aria={`Regenerate key of ${bot.full_name}`} run={() => regenerateBotKey(bot.user_id).then(() => setShown(true))} />
            <button type="button" class="button subtle" aria-label={`Download zuliprc of ${bot.full_name}`} onClick={() => download("zuliprc", zuliprc(bot.email, bot.api_key, site))}>
              Download zuliprc
            </button>
            <ActionButton label="Deactivate" kind="danger" aria={`Deactivate ${bot.full_name}`} run={() => deactivateBot(bot.user_id)} />
          </div>
        </div>
      )}
      {!bot.is_active && canReactivateUser(s, bot.user_id) && <ActionButton label="Reactivate" aria={`Reactivate ${bot.full_name}`} run={() => reactivatePerson(bot.user_id)} />}
    </li>
  );
}

function BotList({ mine }: { mine: boolean }) {
  const s = state.value!;
  const bots = Object.values(s.bots ?? {})
    .filter((b) => !mine || b.owner_id === s.me)
    .sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
  return bots.length ? (
    <ul class="bot-list" aria-label={mine ? "Your bots" : "Bots"}>
      {bots.map((b) => (
        <BotCard key={b.user_id} bot={b} />
      ))}
    </ul>
  ) : (
    <p class="muted-text">{mine ? "You have no bots yet." : "There are no bots yet."}</p>
  );
}

export function YourBots() {
  return (
    <>
      <CreateBot />
      <h3 class="settings-subhead">Your bots</h3>
      <BotList mine />
    </>
  );
}

export function AllBots() {
  return (
    <>
      <CreateBot />
      <h3 class="settings-subhead">All bots</h3>
      <BotList mine={false} />
    </>
  );
}
