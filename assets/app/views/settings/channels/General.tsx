/** A channel's general settings: name, description, privacy, who may do what, folder, default, retention, archive. */
import { archiveChannel, setChannelPermission, updateChannel } from "../../../api/settings-calls";
import {
  canAdministerChannel,
  canSetChannelRetention,
  canSetDefaultChannel,
  canUnarchive,
  channelPrivacy,
  channelPrivacyChoices,
  isAdmin,
} from "../../../state/permissions";
import { state } from "../../../state/store";
import type { ChannelPermission } from "../../../state/types";
import { ConfirmDialog, openDialog } from "../../Dialog";
import { GroupSettingPicker, Select, TextField, Toggle } from "../controls";
import { PRIVACY_LABEL, privacyChange } from "./privacy";

/** The channel's group settings offered as pickers, in Zulip's order, with the role groups each may take. */
const NO_EVERYONE = ["role:members", "role:fullmembers", "role:moderators", "role:administrators", "role:owners", "role:nobody"];
const PERMISSIONS: { name: ChannelPermission; label: string; roles?: string[] }[] = [
  { name: "can_send_message_group", label: "Who can post to this channel" },
  { name: "can_create_topic_group", label: "Who can start new topics in this channel" },
  { name: "can_administer_channel_group", label: "Who can administer this channel", roles: NO_EVERYONE },
  { name: "can_subscribe_group", label: "Who can subscribe to this channel", roles: NO_EVERYONE },
  { name: "can_add_subscribers_group", label: "Who can subscribe others to this channel", roles: NO_EVERYONE },
  { name: "can_remove_subscribers_group", label: "Who can unsubscribe others from this channel" },
  { name: "can_move_messages_within_channel_group", label: "Who can move messages between topics in this channel" },
  { name: "can_move_messages_out_of_channel_group", label: "Who can move messages out of this channel" },
  { name: "can_resolve_topics_group", label: "Who can resolve topics in this channel" },
  { name: "can_delete_any_message_group", label: "Who can delete any message in this channel" },
  { name: "can_delete_own_message_group", label: "Who can delete their own messages in this channel" },
];

function retentionChoice(days: number | null | undefined): string {
  if (days === null || days === undefined) return "realm_default";
  return days === -1 ? "unlimited" : String(days);
}

export function General({ streamId }: { streamId: number }) {
  const s = state.value!;
  const ch = s.channels[streamId]!;
  const admin = canAdministerChannel(s, streamId);
  const choices = channelPrivacyChoices(s, streamId);
  const folders = Object.values(s.channel_folders ?? {}).filter((f) => !f.is_archived || f.id === ch.folder_id);
  const isDefault = (s.default_channels ?? []).includes(streamId);
  const confirmArchive = () =>
    openDialog(() => (
      <ConfirmDialog title={`Archive #${ch.name}?`} confirmLabel="Archive" danger onConfirm={() => archiveChannel(streamId)}>
        <p>Archiving a channel removes it from everyone's sidebar. Its messages stay, and it can be brought back from Browse channels.</p>
      </ConfirmDialog>
    ));
  const confirmUnarchive = () =>
    openDialog(() => (
      <ConfirmDialog title={`Unarchive #${ch.name}?`} confirmLabel="Unarchive" onConfirm={() => updateChannel(streamId, { is_archived: false })}>
        <p>The channel comes back to its subscribers' sidebars, and messages can be sent to it again.</p>
      </ConfirmDialog>
    ));
  return (
    <div class="settings-form">
      {admin ? (
        <>
          <TextField label="Channel name" name="channel-name" value={ch.name} maxLength={s.realm.max_stream_name_length} onSave={(v) => updateChannel(streamId, { new_name: v })} check={(v) => (v.trim() ? null : "A channel needs a name.")} />
          <TextField label="Description" name="channel-description" multiline value={ch.description} maxLength={s.realm.max_stream_description_length} onSave={(v) => updateChannel(streamId, { description: v })} />
        </>
      ) : (
        <dl class="settings-facts">
          <dt>Description</dt>
          <dd>{ch.description || "No description."}</dd>
        </dl>
      )}
      {choices.length > 1 ? (
        <Select label="Who can access this channel" name="channel-privacy" value={channelPrivacy(ch)} choices={choices.map((c) => ({ value: c, label: PRIVACY_LABEL[c] }))} onSave={(p) => updateChannel(streamId, privacyChange(p))} />
      ) : (
        <dl class="settings-facts">
          <dt>Who can access this channel</dt>
          <dd>{PRIVACY_LABEL[channelPrivacy(ch)]}</dd>
        </dl>
      )}
      {admin && folders.length > 0 && (
        <Select
          label="Channel folder"
          name="channel-folder"
          value={ch.folder_id ?? null}
          choices={[{ value: null, label: "None" }, ...folders.map((f) => ({ value: f.id as number | null, label: f.name }))]}
          onSave={(id) => updateChannel(streamId, { folder_id: id })}
        />
      )}
      {admin && canSetDefaultChannel(s, streamId) && (
        <Toggle label="Default channel for new users" name="default-channel" checked={isDefault} onSave={(on) => updateChannel(streamId, { is_default_stream: on })} />
      )}
      {admin && canSetChannelRetention(s) && (
        <Select
          label="Message retention"
          name="channel-retention"
          value={retentionChoice(ch.message_retention_days)}
          choices={[
            { value: "realm_default", label: "Organization's default" },
            { value: "unlimited", label: "Keep forever" },
            ...["30", "90", "365"].map((d) => ({ value: d, label: `${d} days` })),
            ...(["realm_default", "unlimited", "30", "90", "365"].includes(retentionChoice(ch.message_retention_days)) ? [] : [{ value: retentionChoice(ch.message_retention_days), label: `${ch.message_retention_days} days` }]),
          ]}
          onSave={(v) => updateChannel(streamId, { message_retention_days: /^\d+$/.test(v) ? Number(v) : v })}
        />
      )}
      <h3 class="settings-subhead">Permissions</h3>
      {PERMISSIONS.filter((p) => ch[p.name] !== undefined).map((p) => (
        <GroupSettingPicker key={p.name} label={p.label} value={ch[p.name]!} roles={p.roles} disabled={!admin} onSave={(v) => setChannelPermission(streamId, p.name, v)} />
      ))}
      {!admin && !isAdmin(s) && <p class="setting-hint">Only this channel's administrators can change its settings.</p>}
      {admin && (
        <div class="settings-danger">
          <button type="button" class="button danger" onClick={confirmArchive}>
            Archive channel
          </button>
        </div>
      )}
      {canUnarchive(s, streamId) && (
        <div class="settings-danger">
          <button type="button" class="button primary" onClick={confirmUnarchive}>
            Unarchive channel
          </button>
        </div>
      )}
    </div>
  );
}
