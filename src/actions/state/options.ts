import type { App } from "../../app";
import type { UserRow } from "../../store/users";

/** What a /register asks for, as each part of the initial state reads it (in a file of its own, below them all). */
export interface StateOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean | undefined;
  includeSubscribers: boolean;
  slimPresence: boolean;
  /** presence_history_limit_days (default 14) */
  presenceHistoryLimitDays?: number;
  clientCapabilities: Record<string, boolean>;
  /** a request without credentials (public access): `me` is an anonymous guest with id 0 */
  spectator?: boolean;
}

export type StateFetcher = (app: App, me: UserRow, opts: StateOptions) => Promise<Record<string, unknown>> | Record<string, unknown>;
