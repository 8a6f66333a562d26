/** What the bench scripts speak to a server with: Zulip's form bodies, Basic auth and one API call. */

/** Zulip's form encoding: strings as they are, everything else as JSON. */
export const form = (o: Record<string, unknown>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString();

export const basic = (email: string, key: string) => "Basic " + btoa(`${email}:${key}`);

/** One call of `base`'s API; throws unless it succeeded. */
export async function callApi(base: string, auth: string, method: string, path: string, params: Record<string, unknown> = {}): Promise<any> {
  const q = method === "GET" ? `?${form(params)}` : "";
  const res = await fetch(`${base}/api/v1${path}${q}`, { method, headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" }, body: method === "GET" ? undefined : form(params) });
  const body = (await res.json()) as { result: string; [k: string]: unknown };
  if (body.result !== "success") throw new Error(`${method} ${path}: ${JSON.stringify(body)}`);
  return body;
}
