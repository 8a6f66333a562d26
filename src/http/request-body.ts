/**
 * Request bodies over a limit. Bun stops reading a request's body once the response is sent, so a
 * client still sending (most upload to the end before they read an answer) stalls until its
 * connection is closed: a refused body is read to its end and thrown away first, so the client can
 * read the refusal. Bun's maxRequestBodySize caps how much is read that way (server.ts listenLimits).
 */

/** The body, when it is at most `limit` bytes; null when longer (the rest is left unread). */
export async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Blob | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) return null;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return new Blob(chunks as BlobPart[]);
}

/**
 * Makes the framework's body parsers (text, json, formData, ...) read `body`, already read off the
 * request's stream. The request stays the same object: the client address, metrics and the rest
 * that are keyed by it still find it.
 */
export function readFrom(request: Request, body: Blob): void {
  const copy = new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? "" } });
  for (const method of ["text", "json", "formData", "arrayBuffer", "blob", "bytes"] as const) {
    Object.defineProperty(request, method, { value: () => copy[method](), configurable: true });
  }
}

/**
 * Reads what is left of a request's body, up to `cap` bytes, and throws it away. Code that stops
 * reading a body early releases its reader (never cancels the stream), so this can finish the job
 * before the answer goes. Past the cap the rest stays unread (Bun closes such a connection anyway).
 */
export async function discardRest(request: Request, cap: number): Promise<void> {
  const body = request.body;
  if (!body || body.locked) return;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    reader = body.getReader();
    for (let read = 0; read <= cap; ) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.length;
    }
  } catch {
    // a body over maxRequestBodySize, or a client gone: Bun closes that connection
  } finally {
    reader?.releaseLock();
  }
}
