const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random string of [A-Za-z0-9] (API keys are 32 of these, like Zulip's). */
export function randomAlnum(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
  let out = "";
  for (let i = 0; out.length < length; i++) {
    const b = bytes[i % bytes.length]!;
    if (b < 248) out += ALNUM[b % 62]; // 248 = 4*62: no modulo bias
    else if (i >= bytes.length) crypto.getRandomValues(bytes);
  }
  return out;
}

export const generateApiKey = () => randomAlnum(32);
