/**
 * The app page's inline start-up script (a classic script in its head, allowed by its hash in the page's
 * Content-Security-Policy): /register and the first messages are on their way while the bundle loads.
 */
import { startRequests } from "./api/start-requests";

window.parleyStart = startRequests(location.hash);
// The first date formatter a page makes loads the locale's data (several ms; later ones take a fraction
// of a millisecond). The message rows' times need it: made here, in a task of its own, it is loaded while
// the page waits for the bundle and the answers rather than on the way to the first frame.
setTimeout(() => new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" }).format(0));
