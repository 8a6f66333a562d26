/** The one error type. Thrown anywhere; rendered once by the HTTP error handler as Zulip's envelope. */
export class ZulipError extends Error {
  constructor(
    readonly code: string,
    msg: string,
    readonly httpStatus = 400,
    readonly data: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(msg);
  }
}

/** Zulip's usual "bad request" (JsonableError). */
export const badRequest = (msg: string, data: Record<string, unknown> = {}) =>
  new ZulipError("BAD_REQUEST", msg, 400, data);

/** Zulip's RateLimitedError: 429 with `retry-after` (seconds) in the body and a Retry-After header. */
export const rateLimitHit = (retryAfterSecs: number, headers: Record<string, string> = {}) =>
  new ZulipError("RATE_LIMIT_HIT", "API usage exceeded rate limit", 429, { "retry-after": retryAfterSecs }, { "Retry-After": String(Math.ceil(retryAfterSecs)), ...headers });

export const notFound = (msg: string) => new ZulipError("BAD_REQUEST", msg, 404);

export const unauthorized = (msg = "Not logged in: API authentication or user session required") =>
  new ZulipError("UNAUTHORIZED", msg, 401, {}, { "WWW-Authenticate": 'Basic realm="zulip"' });

export const missingArgument = (name: string) =>
  new ZulipError("REQUEST_VARIABLE_MISSING", `Missing '${name}' argument`, 400, { var_name: name });

export const accessDenied = () => new ZulipError("BAD_REQUEST", "Access denied", 403);

export const streamDoesNotExist = (stream: string) =>
  new ZulipError("STREAM_DOES_NOT_EXIST", `Channel '${stream}' does not exist`, 400, { stream });

export const streamIdDoesNotExist = (streamId: number) =>
  new ZulipError("STREAM_DOES_NOT_EXIST", `Channel with ID '${streamId}' does not exist`, 400, { stream_id: streamId });

export const badEventQueueId = (queueId: string) =>
  new ZulipError("BAD_EVENT_QUEUE_ID", `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });

export const adminRequired = () =>
  new ZulipError("UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator", 400);

export const ownerRequired = () => new ZulipError("UNAUTHORIZED_PRINCIPAL", "Must be an organization owner", 400);
