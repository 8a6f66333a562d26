import type { App } from "../app";
import { missingArgument, ZulipError } from "../errors";
import { findUserByApiKey, type UserRow } from "../store/users";
import { apiKeyFailed } from "../actions/login-throttle";
import { clientOf } from "./client-address";
import { noteUser } from "./request-log";

const invalidKey = (msg: string) => new ZulipError("INVALID_API_KEY", msg, 401);

/**
 * Who posts to an incoming webhook: the `api_key` parameter of the URL (what third-party tools can be
 * given), or HTTP Basic `email:api_key`. Any active user's key works, as in Zulip (validate_api_key
 * with webhook access); the answers are Zulip's: Malformed / Invalid API key, Account is deactivated.
 */
export async function authenticateWebhook(app: App, request: Request, apiKeyParam: string | undefined): Promise<UserRow> {
  let key = apiKeyParam?.trim();
  let email: string | null = null;
  if (key === undefined) {
    const m = /^Basic\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
    if (!m) throw missingArgument("api_key");
    const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw invalidKey("Invalid API key");
    email = decoded.slice(0, colon).trim();
    key = decoded.slice(colon + 1).trim();
  }
  const address = () => clientOf(app, request, null).address;
  if (!/^[A-Za-z0-9]{32}$/.test(key)) throw apiKeyFailed(app, address(), invalidKey("Malformed API key"));
  const user = await findUserByApiKey(app.db, key);
  if (!user || (email !== null && user.delivery_email.toLowerCase() !== email.toLowerCase() && user.email.toLowerCase() !== email.toLowerCase())) {
    throw apiKeyFailed(app, address(), invalidKey("Invalid API key"));
  }
  if (app.realm?.deactivated) throw new ZulipError("REALM_DEACTIVATED", "This organization has been deactivated", 401);
  if (!user.is_active) throw new ZulipError("USER_DEACTIVATED", "Account is deactivated", 401);
  noteUser(request, user.id);
  return user;
}
