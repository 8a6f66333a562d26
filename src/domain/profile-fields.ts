import { badRequest } from "../errors";
import { loadRenderer, type RenderContext } from "./markdown";
import { own } from "../lib/own";

/** Zulip's custom profile field types. */
export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

/** `custom_profile_field_types` in /register: keyed by the type's constant name. */
export const FIELD_TYPES: Record<string, { id: number; name: string }> = {
  SHORT_TEXT: { id: 1, name: "Text (short)" },
  LONG_TEXT: { id: 2, name: "Text (long)" },
  SELECT: { id: 3, name: "List of options" },
  DATE: { id: 4, name: "Date" },
  URL: { id: 5, name: "Link" },
  USER: { id: 6, name: "Users" },
  EXTERNAL_ACCOUNT: { id: 7, name: "External account" },
  PRONOUNS: { id: 8, name: "Pronouns" },
};

/** Pronouns fields as short-text ones, for clients that declared pronouns_field_type_supported false. */
export const withoutPronounsType = <T extends Record<string, unknown>>(fields: T[]): T[] =>
  fields.map((f) => (f.type === FIELD_TYPE.PRONOUNS ? { ...f, type: FIELD_TYPE.SHORT_TEXT } : f));

export const NAME_MAX_LENGTH = 40;
export const HINT_MAX_LENGTH = 80;
export const SHORT_VALUE_MAX_LENGTH = 50;
export const LONG_VALUE_MAX_LENGTH = 500;
export const MAX_DISPLAY_IN_PROFILE_SUMMARY = 2;

/** External account kinds a field of type 7 may name, and their profile URL patterns. */
export const EXTERNAL_ACCOUNTS: Record<string, { name: string; url_pattern: string }> = {
  github: { name: "GitHub", url_pattern: "https://github.com/%(username)s" },
  twitter: { name: "Twitter", url_pattern: "https://twitter.com/%(username)s" },
};

export interface FieldRow {
  id: number;
  realm_id: number;
  name: string;
  hint: string;
  field_type: number;
  field_data: string;
  order: number;
  display_in_profile_summary: number;
  required: number;
  editable_by_user: number;
}

/** The API shape of a field (GET /realm/profile_fields, custom_profile_fields events). */
export function fieldDict(f: FieldRow) {
  const out: Record<string, unknown> = {
    id: f.id,
    name: f.name,
    type: f.field_type,
    hint: f.hint,
    field_data: f.field_data,
    order: f.order,
    required: Boolean(f.required),
    editable_by_user: Boolean(f.editable_by_user),
  };
  if (f.display_in_profile_summary) out.display_in_profile_summary = true;
  return out;
}

export function checkFieldNameAndHint(name: string, hint: string) {
  if (!name.trim()) throw badRequest("Label cannot be blank.");
  if (hint.length > HINT_MAX_LENGTH) throw badRequest(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`);
  if (name.length > NAME_MAX_LENGTH) throw badRequest(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`);
}

/**
 * Checks `field_data` for the field type and returns what is stored: a JSON string for choices
 * and external accounts, "" for the other types.
 */
export function checkFieldData(fieldType: number, data: Record<string, unknown>): string {
  if (!Object.values(FIELD_TYPE).includes(fieldType as any)) throw badRequest("Invalid field type.");
  if (fieldType === FIELD_TYPE.SELECT) {
    const entries = Object.entries(data);
    if (entries.length < 1) throw badRequest("Field must have at least one choice.");
    const texts = new Set<string>();
    for (const [key, choice] of entries) {
      if (typeof choice !== "object" || choice === null || Array.isArray(choice)) throw badRequest(`field_data["${key}"] is not a dict`);
      const c = choice as Record<string, unknown>;
      for (const k of ["text", "order"]) {
        if (c[k] === undefined) throw badRequest(`field_data["${key}"] key is missing: ${k}`);
        if (typeof c[k] !== "string") throw badRequest(`field_data["${key}"]["${k}"] is not a string`);
      }
      if (!(c.text as string).trim()) throw badRequest(`field_data["${key}"]["text"] cannot be blank.`);
      if (texts.has(c.text as string)) throw badRequest("Field must not have duplicate choices.");
      texts.add(c.text as string);
    }
    return JSON.stringify(data);
  }
  if (fieldType === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    const subtype = data.subtype;
    if (typeof subtype !== "string") throw badRequest("field_data is missing key 'subtype'.");
    if (subtype === "custom") {
      const pattern = data.url_pattern;
      if (typeof pattern !== "string" || !pattern) throw badRequest("Custom external account must define URL pattern");
      if (!/^https?:\/\/\S+$/.test(pattern.replace("%(username)s", "x"))) throw badRequest("Invalid URL pattern");
      if (pattern.split("%(username)s").length !== 2) throw badRequest("URL pattern must contain '%(username)s'.");
    } else if (!own(EXTERNAL_ACCOUNTS, subtype)) {
      throw badRequest("Invalid external account type");
    }
    const allowed = new Set(["subtype", "url_pattern"]);
    for (const k of Object.keys(data)) if (!allowed.has(k)) throw badRequest(`field_data has unexpected key '${k}'.`);
    return JSON.stringify(data);
  }
  return "";
}

/** Long text, person picker and the list type cannot be shown in the profile summary. */
export const canBeInSummary = (fieldType: number) => fieldType !== FIELD_TYPE.LONG_TEXT && fieldType !== FIELD_TYPE.USER;

const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s + "T00:00:00Z")) && new Date(s + "T00:00:00Z").toISOString().startsWith(s);

function isUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && !!u.hostname;
  } catch {
    return false;
  }
}

/**
 * Checks a user's value for a field and returns the stored text (person picker values are stored
 * as the JSON list of ids). `userExists` answers whether an id names an active user.
 */
export function checkFieldValue(field: FieldRow, value: unknown, userExists: (id: number) => boolean): string {
  const name = field.name;
  switch (field.field_type) {
    case FIELD_TYPE.USER: {
      if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
      for (const [i, id] of value.entries()) {
        if (typeof id !== "number" || !Number.isInteger(id)) throw badRequest(`${name}[${i}] is not an integer`);
        if (!userExists(id)) throw badRequest(`Invalid user ID: ${id}`);
      }
      return JSON.stringify([...new Set(value as number[])]);
    }
    default: {
      if (typeof value !== "string") throw badRequest(`${name} is not a string`);
      switch (field.field_type) {
        case FIELD_TYPE.LONG_TEXT:
          if (value.length > LONG_VALUE_MAX_LENGTH) throw badRequest(`${name} is too long (limit: ${LONG_VALUE_MAX_LENGTH} characters)`);
          return value;
        case FIELD_TYPE.DATE:
          if (!isDate(value)) throw badRequest(`${name} is not a date`);
          return value;
        case FIELD_TYPE.URL:
          if (value.length > 2048 || !isUrl(value)) throw badRequest(`${name} is not a URL`);
          return value;
        case FIELD_TYPE.SELECT: {
          const choices = field.field_data ? (JSON.parse(field.field_data) as Record<string, unknown>) : {};
          if (!Object.hasOwn(choices, value)) throw badRequest(`'${value}' is not a valid choice for '${name}'.`);
          return value;
        }
        default:
          if (value.length > SHORT_VALUE_MAX_LENGTH) throw badRequest(`${name} is too long (limit: ${SHORT_VALUE_MAX_LENGTH} characters)`);
          return value;
      }
    }
  }
}

/** An empty value removes the user's value for the field. */
export const isEmptyValue = (value: unknown) => value === null || value === "" || (Array.isArray(value) && value.length === 0);

/** Profile values are rendered without mentions, channel links or previews. */
const PLAIN_CONTEXT: RenderContext = {
  usersByName: () => [],
  userById: () => undefined,
  groupByName: () => undefined,
  streamByName: () => undefined,
  realmEmoji: () => undefined,
  realmUrl: "",
  uploadsPathPrefix: "/user_uploads/",
};

/** Text fields carry a rendered_value (their Markdown as Zulip's HTML); other types do not. */
export async function renderFieldValue(fieldType: number, value: string): Promise<string | null> {
  if (fieldType !== FIELD_TYPE.SHORT_TEXT && fieldType !== FIELD_TYPE.LONG_TEXT) return null;
  const { renderMarkdown } = await loadRenderer();
  return renderMarkdown(value, PLAIN_CONTEXT).html;
}
