/** The bundled web app: its hashed files (served under /static/) and the two pages that link them. */
export interface WebFile {
  name: string;
  type: string;
  body: string;
}

export interface WebBuild {
  files: WebFile[];
  /** the app's page, for a signed-in person */
  appHtml: string;
  /** the login page; `<!--login-error-->`, `<!--realm-name-->` and `<!--next-->` are filled per request */
  loginHtml: string;
}
