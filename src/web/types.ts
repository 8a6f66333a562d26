/** The bundled web app: its hashed files (served under /static/), the two pages that link them, and the service worker. */
export interface WebFile {
  name: string;
  type: string;
  /** the text, or for a binary file (an icon) its bytes in base64 */
  body: string;
  base64?: boolean;
  /** left out of the service worker's install-time cache: fetched only when the page uses it */
  onDemand?: boolean;
  /** in the executable, a file embedded beside the code (build/compile.ts), read when asked for; `body` is then empty */
  path?: string;
}

export interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

export interface WebBuild {
  files: WebFile[];
  /** the app's page, for a signed-in person */
  appHtml: string;
  /** the CSP sources ('sha256-…') of the app page's inline scripts: its Content-Security-Policy allows these and no other */
  appScriptHashes: string[];
  /** the login page; `<!--login-error-->`, `<!--realm-name-->` and `<!--next-->` are filled per request */
  loginHtml: string;
  /** /sw.js: the service worker, with this build's shell (the files it caches) built in */
  serviceWorker: string;
  /** the web app manifest's icons (under /static/) */
  icons: ManifestIcon[];
}
