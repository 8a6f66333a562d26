import { badRequest } from "../errors";
import type { Integration } from "./types";
import type { Wild } from "./wild";

/**
 * Zulip's slack_incoming integration: Slack's incoming-webhook format (text with mrkdwn, blocks,
 * legacy attachments), posted as JSON or as a `payload` form field. The topic is the URL's, else
 * the payload's `channel` without its # or @, else "(no topic)".
 */
export const slackIncoming: Integration = {
  name: "slack_incoming",
  displayName: "SlackIncoming",
  acceptsFormPayload: true,
  answersLikeSlack: true,
  handle({ payload, params }) {
    let topic = params.topic ?? null;
    if (topic === null && payload.has("channel")) topic = payload.at("channel").str().replace(/^[@#]/, "");
    topic ??= "(no topic)";
    const pieces: string[] = [];
    if (payload.get("blocks").truthy) pieces.push(...payload.at("blocks").list().map(renderBlock));
    if (payload.get("attachments").truthy) pieces.push(...payload.at("attachments").list().map(renderAttachment));
    let body = joinPieces(pieces);
    if (body === "" && payload.get("text").truthy) {
      if (payload.get("icon_emoji").truthy) body = payload.at("icon_emoji").str() + " ";
      body += payload.at("text").str();
      body = body.trim();
    }
    if (body === "") return [];
    return [{ topic, body: replaceFormatting(replaceLinks(body).trim()) }];
  },
};

const joinPieces = (pieces: string[]) =>
  pieces
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .join("\n\n");

function oneOf(w: Wild, allowed: string[]): string {
  const v = w.str();
  if (!allowed.includes(v)) throw badRequest(`Invalid ${w.path}`);
  return v;
}

/** Slack's text object: {type: plain_text | mrkdwn, text}. */
function textBlock(w: Wild, plainOnly = false): string {
  oneOf(w.at("type"), plainOnly ? ["plain_text"] : ["plain_text", "mrkdwn"]);
  return w.at("text").str();
}

function url(w: Wild): string {
  const v = w.str();
  if (!URL.canParse(v)) throw badRequest(`${w.path} is not a URL`);
  return v;
}

/**
 * Zulip's process_slack_block_and_attachment, which its Slack import applies to every message too:
 * the message's blocks, then its legacy attachments, one non-empty piece per line.
 */
export function renderBlocksAndAttachments(message: Wild): string {
  const pieces: string[] = [];
  if (message.get("blocks").truthy) pieces.push(...message.at("blocks").list().map(renderBlock));
  if (message.get("attachments").truthy) pieces.push(...message.at("attachments").list().map(renderAttachment));
  return pieces
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .join("\n");
}

// Block types Zulip leaves out: interactive ones, those it cannot show, and rich_text, which
// repeats the message's own text (every message a person writes in Slack carries one).
const UNSHOWN_BLOCKS = ["actions", "call", "condition", "contact_card", "file", "input", "rich_text", "table"];

function renderBlock(block: Wild): string {
  const type = oneOf(block.at("type"), [...UNSHOWN_BLOCKS, "context", "divider", "header", "image", "section"]);
  if (type === "context" && block.get("elements").truthy) {
    const pieces = block.at("elements").list().map((e) => (oneOf(e.at("type"), ["image", "plain_text", "mrkdwn"]) === "image" ? renderElement(e) : textBlock(e)));
    return joinPieces(pieces);
  }
  if (type === "divider") return "----";
  if (type === "header") return "## " + textBlock(block.at("text"), true);
  if (type === "image") {
    const imageUrl = url(block.at("image_url"));
    let alt = block.at("alt_text").str();
    if (block.has("title")) alt = textBlock(block.at("title"), true);
    return `[${alt}](${imageUrl})`;
  }
  if (type === "section") {
    const pieces: string[] = [];
    if (block.has("text")) pieces.push(textBlock(block.at("text")));
    if (block.has("accessory")) pieces.push(renderElement(block.at("accessory")));
    if (block.has("fields")) {
      const fields = block.at("fields").list().map((f) => textBlock(f));
      if (fields.length === 1) pieces.push(fields[0]!);
      else {
        // a Markdown table holds no newline and no pipe: Slack shows fields as two columns
        const cells = fields.map((f) => f.replace(/\n/g, " ").replace(/\|/g, " "));
        let table = "| | |\n|-|-|\n";
        for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ""} |\n`;
        pieces.push(table);
      }
    }
    return joinPieces(pieces);
  }
  return ""; // actions and input blocks are interactive: nothing to show
}

function renderElement(element: Wild): string {
  if (element.at("type").str() !== "image") return "";
  return `[${element.at("alt_text").str()}](${url(element.at("image_url"))})`;
}

function renderAttachment(a: Wild): string {
  const pieces: string[] = [];
  if (a.get("title").truthy) {
    const title = a.at("title").str();
    pieces.push(a.get("title_link").truthy ? `## [${title}](${url(a.at("title_link"))})` : `## ${title}`);
  }
  if (a.get("pretext").truthy) pieces.push(a.at("pretext").str());
  if (a.get("text").truthy) pieces.push(a.at("text").str());
  if (a.has("fields")) {
    const fields: string[] = [];
    for (const f of a.at("fields").list()) {
      const title = f.get("title").truthy ? f.at("title").str() : null;
      const value = f.get("value").truthy ? f.at("value").str() : null;
      if (title !== null && value !== null) fields.push(`*${title}*: ${value}`);
      else if (title !== null) fields.push(`*${title}*`);
      else if (value !== null) fields.push(value);
    }
    pieces.push(fields.join("\n"));
  }
  if (a.get("blocks").truthy) pieces.push(...a.at("blocks").list().map(renderBlock));
  if (a.get("image_url").truthy) pieces.push(`[](${url(a.at("image_url"))})`);
  if (a.get("footer").truthy) pieces.push(a.at("footer").str());
  if (a.get("ts").truthy) pieces.push(globalTime(a.at("ts")));
  return joinPieces(pieces);
}

/**
 * An attachment's time as Zulip's datetime_to_global_time writes it (<time:2024-01-01T00:00:00+00:00>);
 * Slack sometimes sends it as a string holding a float.
 */
function globalTime(ts: Wild): string {
  let seconds: number;
  if (typeof ts.value === "string" && ts.value.trim() !== "" && Number.isFinite(Number(ts.value))) seconds = Math.trunc(Number(ts.value));
  else seconds = ts.int();
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) throw badRequest(`${ts.path} is not a time`);
  return `<time:${d.toISOString().slice(0, 19)}+00:00>`;
}

/** Slack's <https://x|label> links as Markdown links. */
export const replaceLinks = (text: string) => text.replace(/<(\w+?:\/\/.*?)\|(.*?)>/g, "[$2]($1)");

const BOLD = new RegExp(`([^\\p{L}\\p{N}_]|^)\\*(?!\\s+)([^*\\n]+)(?<!\\s)\\*((?=[^\\p{L}\\p{N}_])|$)`, "gu");
const ITALIC = new RegExp(`([^\\p{L}\\p{N}_]|^)_(?!\\s+)([^_\\n]+)(?<!\\s)_((?=[^\\p{L}\\p{N}_])|$)`, "gu");

/** Slack's mrkdwn: *bold* is Zulip's **bold**, _italic_ is Zulip's *italic*. */
export const replaceFormatting = (text: string) => text.replace(BOLD, "$1**$2**$3").replace(ITALIC, "$1*$2*$3");
