import { t, type Static } from "elysia";

/** parley.toml, section by section. Every key has a default; unknown keys are refused. */
const section = <P extends Parameters<typeof t.Object>[0]>(props: P) =>
  t.Object(props, { additionalProperties: false, default: {} });

export const ConfigSchema = t.Object(
  {
    server: section({
      host: t.String({ default: "127.0.0.1" }),
      port: t.Integer({ minimum: 0, maximum: 65535, default: 9991 }),
      external_url: t.String({ default: "" }),
      // HTTPS served by Parley itself: PEM files (a certificate chain and its private key), both or neither
      tls_cert: t.String({ default: "" }),
      tls_key: t.String({ default: "" }),
      // reverse proxies whose X-Forwarded-For / X-Forwarded-Proto are believed: IP addresses or CIDR ranges
      trusted_proxies: t.Array(t.String(), { default: [] }),
    }),
    storage: section({
      database: t.String({ default: "" }),
      auth_token: t.String({ default: "" }),
      uploads_dir: t.String({ default: "" }),
    }),
    organization: section({
      name: t.String({ default: "Parley" }),
      description: t.String({ default: "" }),
      owner_email: t.String({ default: "admin@parley.localhost" }),
      owner_full_name: t.String({ default: "Parley Admin" }),
    }),
    limits: section({
      max_message_length: t.Integer({ minimum: 1, default: 10000 }),
      max_topic_length: t.Integer({ minimum: 1, default: 60 }),
      max_stream_name_length: t.Integer({ minimum: 1, default: 60 }),
      max_stream_description_length: t.Integer({ minimum: 1, default: 1024 }),
      max_file_upload_size_mib: t.Integer({ minimum: 0, default: 25 }),
      // the largest Slack or Zulip export the owner may upload from the web app (stored in the data dir)
      max_import_size_mib: t.Integer({ minimum: 0, default: 2048 }),
      // invitation emails an organization may send in 24 hours (Zulip's max_invites); 0 turns the limit off
      max_invites_per_day: t.Integer({ minimum: 0, default: 100 }),
    }),
    rate_limit: section({
      // 0 turns a limit off
      requests_per_minute: t.Integer({ minimum: 0, default: 200 }),
      unauthenticated_per_minute: t.Integer({ minimum: 0, default: 100 }),
      // failed logins in 30 minutes before more attempts wait (Zulip's authenticate_by_username: 5)
      login_failures_per_account: t.Integer({ minimum: 0, default: 5 }),
      login_failures_per_address: t.Integer({ minimum: 0, default: 50 }),
    }),
    retention: section({
      unreferenced_upload_days: t.Number({ minimum: 0, default: 21 }),
      event_queue_idle_minutes: t.Number({ minimum: 0, default: 10 }),
    }),
    log: section({
      // request lines are info; debug adds each request's user agent
      level: t.Union([t.Literal("debug"), t.Literal("info"), t.Literal("warn"), t.Literal("error")], { default: "info" }),
      // text: one readable line per entry; json: one JSON object per line
      format: t.Union([t.Literal("text"), t.Literal("json")], { default: "text" }),
    }),
    push: section({
      relay_url: t.String({ default: "" }),
      // Web Push to http endpoints and loopback/private addresses: for tests and LAN experiments only
      allow_insecure_web_push: t.Boolean({ default: false }),
      // Web Push without message text ("New message"), whatever the organization allows (Zulip's PUSH_NOTIFICATION_REDACT_CONTENT)
      redact_content: t.Boolean({ default: false }),
    }),
    // automatic backups by the timer loop; off while dir is empty
    backup: section({
      dir: t.String({ default: "" }),
      every_hours: t.Number({ exclusiveMinimum: 0, default: 24 }),
      keep: t.Integer({ minimum: 1, default: 7 }),
      gzip: t.Boolean({ default: true }),
    }),
    // Prometheus metrics at /metrics; port 0 serves them on the main port (token required there)
    metrics: section({
      enabled: t.Boolean({ default: false }),
      host: t.String({ default: "127.0.0.1" }),
      port: t.Integer({ minimum: 0, maximum: 65535, default: 0 }),
      token: t.String({ default: "" }),
    }),
    // incoming webhooks (/api/v1/external/<integration>) and outgoing-webhook bots
    webhooks: section({
      // the largest payload a tool may post (real ones stay far below; Zulip allows 25 MiB behind nginx)
      max_payload_kib: t.Integer({ minimum: 1, maximum: 5120, default: 5120 }),
      // outgoing webhooks to loopback, private and link-local addresses (tests and self-hosted bots on the LAN)
      allow_private_outgoing: t.Boolean({ default: false }),
      // how long an outgoing webhook's server may take to answer (Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS)
      outgoing_timeout_seconds: t.Number({ exclusiveMinimum: 0, maximum: 60, default: 10 }),
    }),
    email: section({
      smtp_url: t.String({ default: "" }),
      from: t.String({ default: "Parley <noreply@parley.localhost>" }),
    }),
    // bounds on native memory (outside the JavaScript heap), sized for a small team on a Raspberry Pi
    memory: section({
      // SQLite's page cache per connection (the server keeps two: reads and writes)
      sqlite_cache_mib: t.Number({ minimum: 0.1, maximum: 1024, default: 2 }),
      // SQL text of the prepared statements each connection keeps (a statement's native memory is ~50× its text)
      statement_cache_kib: t.Integer({ minimum: 1, maximum: 65536, default: 64 }),
      // threads libvips uses for one image (thumbnails); each thread keeps its own buffers
      image_threads: t.Integer({ minimum: 1, maximum: 64, default: 1 }),
      // glibc malloc arenas for native code on other threads (libSQL, libvips); 0 keeps glibc's 8 per core
      malloc_arena_max: t.Integer({ minimum: 0, maximum: 1024, default: 2 }),
      // how often freed native memory is handed back to the system (glibc's malloc_trim); 0 never
      malloc_trim_seconds: t.Number({ minimum: 0, default: 60 }),
      // the executable's and libraries' pages only this process maps are handed back once start-up is over and
      // a minute later (what only start-up used; read back from the file if ever used again)
      release_start_up_pages: t.Boolean({ default: true }),
      // and then this often (what rare requests touched; each release reads back the pages requests use); 0 never
      release_file_pages_seconds: t.Number({ minimum: 0, default: 0 }),
      // how far the JavaScript heap grows past what a full collection kept before the next (2: to twice
      // that); JavaScriptCore's own choice is 4 on a machine with 16 GiB of RAM or more, 2 below; 0 leaves it
      // to JavaScriptCore; otherwise at least 1.25 (src/lib/jsc-options.ts)
      js_heap_growth: t.Number({ minimum: 0, maximum: 8, default: 2 }),
      // JavaScriptCore's last JIT tier (FTL); off, its compiler's memory and code are saved (src/lib/jsc-options.ts)
      js_ftl_jit: t.Boolean({ default: false }),
    }),
  },
  { additionalProperties: false },
);

export type Config = Static<typeof ConfigSchema> & { data_dir: string };
