import type { Params } from "./params";

/** The client's name (a message's `client`): the `client` parameter, else the User-Agent's first token. */
export function clientName(args: Params, request: Request): string {
  const given = args.raw.client;
  if (typeof given === "string" && given) return given.slice(0, 30);
  const ua = request.headers.get("user-agent") ?? "";
  if (/Mozilla/.test(ua) && !/Zulip/i.test(ua)) return "website";
  const token = ua.split(/[\s/]/)[0];
  return token ? token.slice(0, 30) : "Unspecified";
}
