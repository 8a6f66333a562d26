/** Small server-rendered pages outside the web app (links opened from emails, the sign-up form). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

const STYLE = `:root{color-scheme:light dark}body{font-family:system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.4rem;box-sizing:border-box;font:inherit}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit}.note{margin:.2rem 0;font-size:.9em;opacity:.75}input[readonly]{opacity:.7}.error{color:#c0182f}@media (prefers-color-scheme:dark){.error{color:#ff8a9a}}`;

/** A complete page: `title` is its heading too; `body` is HTML (escape what it quotes). */
export function htmlPage(title: string, body: string, status = 200): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
  return new Response(html, { status, headers: HEADERS });
}
