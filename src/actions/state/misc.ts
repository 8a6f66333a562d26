/**
 * Initial state for features Parley does not offer (or offers no data for) but that clients read at
 * start-up: each answers Zulip's shape with the "nothing here" value.
 */

/** Onboarding hints are the official web app's; nothing to show, and no tour video. */
export const onboardingStepsState = () => ({ onboarding_steps: [], navigation_tour_video_url: null });

/** No domain-restricted sign-up: the list of allowed domains is empty. */
export const realmDomainsState = () => ({ realm_domains: [] });

/** No Zoom integration. */
export const videoCallsState = () => ({ has_zoom_token: false });

/** No GIPHY integration. */
export const giphyState = () => ({ giphy_api_key: "" });

/** Full-text search ignores no words, so there are no stop words to warn about. */
export const stopWordsState = () => ({ stop_words: [] });

/** Embedded bots and incoming-webhook integrations are not offered. */
export const embeddedBotsState = () => ({ realm_embedded_bots: [] });
export const incomingWebhookBotsState = () => ({ realm_incoming_webhook_bots: [] });

/** No billing. */
export const realmBillingState = () => ({ realm_billing: { has_pending_sponsorship_request: false } });
