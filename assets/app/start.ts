/**
 * The app page's inline start-up script (a classic script in its head, allowed by its hash in the page's
 * Content-Security-Policy): /register and the first messages are on their way while the bundle loads.
 */
import { startRequests } from "./api/start-requests";

window.parleyStart = startRequests(location.hash);
