/**
 * Failed logins are throttled, as Zulip's authenticate_by_username rule does (5 failures in 30
 * minutes per account), and per client address as well: a password guessed at many accounts from
 * one place, or API keys guessed over HTTP Basic. A throttled attempt is answered with Zulip's
 * RATE_LIMIT_HIT (429, retry-after) before the password is even checked, and is not counted.
 * A success forgives only its own address's failures on that account: it resets nobody else's count,
 * and no address's own count (a guesser cannot clear it by logging in to an account of their own).
 */
import type { App } from "../app";
import { rateLimitHit } from "../errors";
import { FailureLimiter } from "../lib/rate-limiter";

const WINDOW_MS = 30 * 60_000;

interface Throttles {
  account: FailureLimiter;
  address: FailureLimiter;
  apiKey: FailureLimiter;
}
const throttles = new WeakMap<App, Throttles>();

function of(app: App): Throttles {
  let t = throttles.get(app);
  if (!t) {
    const now = () => app.clock.now();
    const { login_failures_per_account: perAccount, login_failures_per_address: perAddress } = app.config.rate_limit;
    t = {
      account: new FailureLimiter(perAccount, WINDOW_MS, now),
      address: new FailureLimiter(perAddress, WINDOW_MS, now),
      apiKey: new FailureLimiter(perAddress, WINDOW_MS, now),
    };
    throttles.set(app, t);
  }
  return t;
}

/** Accounts are named as the client typed them, without case or surrounding spaces. */
const accountKey = (username: string) => username.trim().toLowerCase();

/** Throws RATE_LIMIT_HIT when the account or the address has no attempts left. */
export function checkLoginAllowed(app: App, username: string, address: string): void {
  const t = of(app);
  const wait = Math.max(t.account.waitSecs(accountKey(username)), t.address.waitSecs(address));
  if (wait > 0) throw rateLimitHit(wait);
}

export function loginFailed(app: App, username: string, address: string): void {
  const t = of(app);
  const account = accountKey(username);
  const accountSpent = t.account.fail(account, address);
  const addressSpent = t.address.fail(address);
  if (accountSpent || addressSpent) app.log.warn("failed logins throttled", { account, address, by: accountSpent ? "account" : "address" });
}

export function loginSucceeded(app: App, username: string, address: string): void {
  of(app).account.forgive(accountKey(username), address);
}

/**
 * HTTP Basic with a key that matches nobody: counted per address; once the address has no attempts
 * left, such a request gets RATE_LIMIT_HIT instead of 401 (a right key always gets through: an
 * office behind one address is not locked out by one stale client).
 */
export function apiKeyFailed(app: App, address: string, refusal: Error): Error {
  const t = of(app);
  const wait = t.apiKey.waitSecs(address);
  if (wait > 0) return rateLimitHit(wait);
  if (t.apiKey.fail(address)) app.log.warn("failed API keys throttled", { address });
  return refusal;
}
