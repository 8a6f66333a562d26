/** Where this browser remembers the Web Push subscription the server knows ({ id, endpoint }). */
export const SUBSCRIPTION_KEY = "parley.web-push-subscription";
