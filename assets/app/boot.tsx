/**
 * Start-up: one POST /register builds the store, the router picks the view from the URL, the page is
 * drawn, then the event loop and the presence reports start. /register and the first view's messages
 * are sent by the page's inline script before this bundle has loaded (api/start-requests.ts). A lost event queue registers again and
 * rebuilds the store (the compose box keeps what it holds: it lives outside the store).
 */
import { render } from "preact";
import { EventLoop } from "./api/events";
import { answerOf, api, describeError, NetworkError } from "./api/http";
import { earlySettled, fetchEarly, noteRegistered } from "./api/first-messages";
import { takeStartRequests } from "./api/start-requests";
import { startPresence } from "./api/presence";
import { register } from "./api/register";
import { startDrafts } from "./compose/drafts";
import { dropPending } from "./compose/outbox";
import { noteTypingEvents } from "./views/TypingNotice";
import { startRouter } from "./nav/router";
import { setQueueId } from "./session";
import type { ServerEvent } from "./state/apply-event";
import { fromRegister } from "./state/from-register";
import { invitesChanged, noteInviteEvents } from "./state/invites-changed";
import { mergePresences } from "./state/reduce/people";
import { dispatch, state, update } from "./state/store";
import { alertForEvents } from "./notify/desktop";
import { unlockSoundOnFirstGesture } from "./notify/sound";
import { registerServiceWorker, startServiceWorker } from "./notify/service-worker";
import { App, generation } from "./views/App";
import { afterNextPaint } from "./lib/after-paint";
import { forgetViews } from "./views/MessageView";

function onEvents(events: ServerEvent[]): void {
  for (const e of events) if (e.type === "message" && typeof e.local_message_id === "string") dropPending(e.local_message_id);
  // judged against the state the messages arrive in (their topic's muting, the settings then)
  alertForEvents(state.value!, events);
  dispatch(events);
  noteTypingEvents(events);
  noteInviteEvents(events);
}

async function reregister() {
  const r = await register();
  setQueueId(r.queue_id);
  forgetViews();
  state.value = fromRegister(r);
  generation.value++;
  // events may have been missed while the queue was gone
  invitesChanged.value++;
  return { queueId: r.queue_id as string, lastEventId: r.last_event_id as number };
}

function StartFailed({ message, unreachable }: { message: string; unreachable: boolean }) {
  return (
    <div class="start-failed" role="alert">
      {/* offline, the page itself comes from the service worker's cache: say what is missing */}
      <h1>{unreachable ? "Parley can't reach the server" : "Parley could not start"}</h1>
      <p>{unreachable && !navigator.onLine ? "You're offline. Parley opens as soon as the network is back." : message}</p>
      <button type="button" class="button primary" onClick={() => location.reload()}>
        Try again
      </button>
    </div>
  );
}

/** How long the first drawing waits for the first view's messages once /register has answered. */
const FIRST_MESSAGES_WAIT_MS = 250;

/**
 * After the first frames: the service worker's install fetches and stores every file of the build, which
 * on a small machine competes with drawing the first messages (and with the server answering them).
 */
function whenIdle(run: () => void): void {
  const later = () => ("requestIdleCallback" in window ? requestIdleCallback(() => run(), { timeout: 3000 }) : setTimeout(run, 1000));
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}

/**
 * /register's answer and the first view's messages, from the requests the page's start-up script sent
 * while the bundle loaded (api/start-requests.ts), or sent now. A network failure of a request the page
 * sent is tried once more from here: the page may have come from the service worker's cache.
 */
function startAnswers() {
  const started = takeStartRequests();
  const again = <T,>(answer: Promise<T>, ask: () => Promise<T>) =>
    started.adopted ? answer.catch((e) => (e instanceof NetworkError ? ask() : Promise.reject(e))) : answer;
  if (started.messages) {
    const { params, response } = started.messages;
    fetchEarly(params, () => again(answerOf(response), () => api("GET", "/messages", params)));
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return again(answerOf<any>(started.register), register);
}

export async function boot(root: HTMLElement): Promise<void> {
  let r;
  try {
    r = await startAnswers();
    noteRegistered(r.max_message_id);
  } catch (e) {
    root.removeAttribute("aria-busy");
    render(<StartFailed message={describeError(e)} unreachable={e instanceof NetworkError} />, root);
    // the shell can open without the server (from the service worker's cache): it keeps working for when it is back
    registerServiceWorker();
    if (e instanceof NetworkError) window.addEventListener("online", () => location.reload(), { once: true });
    return;
  }
  setQueueId(r.queue_id);
  const start = fromRegister(r);
  // the first view's messages, asked for with /register, usually come with it: the app is drawn once
  // they are here (the view takes them as it opens, in the same frame), or after a short wait without them
  await earlySettled(FIRST_MESSAGES_WAIT_MS);
  state.value = start;
  startDrafts();
  startRouter();
  const loop = new EventLoop({ queueId: r.queue_id, lastEventId: r.last_event_id }, { onEvents, reregister });
  root.classList.remove("app-loading");
  root.removeAttribute("aria-busy");
  root.textContent = "";
  render(<App onRetry={loop.retryNow} />, root);
  unlockSoundOnFirstGesture();
  whenIdle(startServiceWorker);
  // the first poll and presence report wait for the first frame: on a small machine their requests (and the
  // server's work answering them) compete with drawing it; the server queues events meanwhile, so none is missed
  afterNextPaint(() => {
    loop.start();
    startPresence({ intervalSeconds: state.value!.realm.ping_interval_seconds, onPresences: (p) => update((s) => mergePresences(s, p)) });
  });
}
