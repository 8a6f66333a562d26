// Importing a Slack or Zulip export from the web app (the owner's server page), for an organization
// that has no messages yet: start, watch, and read the outcome after the server switched.
export { startImport } from "./start";
export { importOutcome, importStatus } from "./status";
export { recoverWebImports } from "./recover";
