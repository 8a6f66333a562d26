/** The administration screens' API calls. Their results reach the state as events (state/reduce/org.ts). */
import { api, apiUpload } from "./http";

export const updateOrg = (changes: Record<string, unknown>) => api("PATCH", "/realm", changes);
export const updateUserDefaults = (changes: Record<string, unknown>) => api("PATCH", "/realm/user_settings_defaults", changes);

function imageForm(file: File): FormData {
  const form = new FormData();
  form.append("file", file, file.name);
  return form;
}
export const uploadOrgIcon = (file: File) => apiUpload<{ icon_url: string }>("/realm/icon", imageForm(file));
export const removeOrgIcon = () => api("DELETE", "/realm/icon");

export const addCustomEmoji = (name: string, file: File) => apiUpload(`/realm/emoji/${encodeURIComponent(name)}`, imageForm(file));
export const deleteCustomEmoji = (name: string) => api("DELETE", `/realm/emoji/${encodeURIComponent(name)}`);

export const addLinkifier = (pattern: string, urlTemplate: string) => api<{ id: number }>("POST", "/realm/filters", { pattern, url_template: urlTemplate });
export const editLinkifier = (id: number, pattern: string, urlTemplate: string) => api("PATCH", `/realm/filters/${id}`, { pattern, url_template: urlTemplate });
export const deleteLinkifier = (id: number) => api("DELETE", `/realm/filters/${id}`);
export const reorderLinkifiers = (ids: number[]) => api("PATCH", "/realm/linkifiers", { ordered_linkifier_ids: ids });

export const addPlayground = (name: string, language: string, urlTemplate: string) => api("POST", "/realm/playgrounds", { name, pygments_language: language, url_template: urlTemplate });
export const deletePlayground = (id: number) => api("DELETE", `/realm/playgrounds/${id}`);

export interface ProfileFieldInput {
  name: string;
  hint: string;
  field_type?: number;
  /** JSON-encodable: a select field's options, an external account's kind */
  field_data?: unknown;
  display_in_profile_summary?: boolean;
  required?: boolean;
}
export const addProfileField = (f: ProfileFieldInput) => api<{ id: number }>("POST", "/realm/profile_fields", { ...f });
export const editProfileField = (id: number, f: Partial<ProfileFieldInput>) => api("PATCH", `/realm/profile_fields/${id}`, { ...f });
export const deleteProfileField = (id: number) => api("DELETE", `/realm/profile_fields/${id}`);
export const reorderProfileFields = (ids: number[]) => api("PATCH", "/realm/profile_fields", { order: ids });

export const addDefaultChannel = (streamId: number) => api("POST", "/default_streams", { stream_id: streamId });
export const removeDefaultChannel = (streamId: number) => api("DELETE", "/default_streams", { stream_id: streamId });

export const createChannelFolder = (name: string, description: string) => api<{ channel_folder_id: number }>("POST", "/channel_folders/create", { name, description });
export const updateChannelFolder = (id: number, changes: { name?: string; description?: string; is_archived?: boolean }) => api("PATCH", `/channel_folders/${id}`, changes);
export const reorderChannelFolders = (ids: number[]) => api("PATCH", "/channel_folders", { order: ids });

/** What the owner's server page shows (GET /parley/server). */
export interface ServerFacts {
  version: string;
  zulip_feature_level: number;
  data_dir: string;
  database: { location: string; embedded: boolean; size: number };
  uploads: { dir: string; files: number; size: number };
  backups: {
    dir: string;
    automatic: boolean;
    every_hours: number;
    keep: number;
    latest: BackupFacts | null;
    last_failure_timestamp: number | null;
    running: boolean;
  };
  email: { configured: boolean; from: string };
  push: { relay_configured: boolean };
  web_push: { keys: boolean };
  /** Parley's switches for reading without an account (PATCH /realm; /register does not report them) */
  public_access: { web_public_streams_enabled: boolean; allow_public_access: boolean };
}
export interface BackupFacts {
  name: string;
  timestamp: number;
  size: number;
}
export const fetchServerFacts = () => api<ServerFacts & { result: string }>("GET", "/parley/server");
export const backUpNow = () => api<{ backup: BackupFacts }>("POST", "/parley/backups").then((r) => r.backup);
/** The newest archive, downloaded by the browser with the session cookie. */
export const LATEST_BACKUP_URL = "/json/parley/backups/latest";

export const createDefaultChannelGroup = (name: string, description: string, channelNames: string[]) =>
  api("POST", "/default_stream_groups/create", { group_name: name, description, stream_names: channelNames });
export const updateDefaultChannelGroup = (id: number, changes: { new_group_name?: string; new_description?: string }) => api("PATCH", `/default_stream_groups/${id}`, changes);
export const changeDefaultChannelGroupChannels = (id: number, op: "add" | "remove", channelNames: string[]) => api("PATCH", `/default_stream_groups/${id}/streams`, { op, stream_names: channelNames });
export const deleteDefaultChannelGroup = (id: number) => api("DELETE", `/default_stream_groups/${id}`);
