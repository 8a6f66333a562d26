import pkg from "../../package.json" with { type: "json" };

/** What Parley reports as its Zulip compatibility (see design.md: at least Zulip 10.0). */
export const ZULIP_VERSION = "10.2";
export const ZULIP_FEATURE_LEVEL = 372;
export const ZULIP_MERGE_BASE = "10.2";
export const PARLEY_VERSION: string = pkg.version;
