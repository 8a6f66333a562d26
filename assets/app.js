// Parley's small web client: log in, read channels, topics and direct messages, send, live updates.
// It uses the same Zulip REST API as every other client, authenticated by the session cookie.
"use strict";

const $ = (id) => document.getElementById(id);
const cookie = (name) => (document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)")) || [])[1];
const csrf = cookie("parley_csrf") || "";
const state = { me: null, users: new Map(), subs: [], narrow: null, queue: null, lastEventId: -1 };

async function api(method, path, params = {}) {
  const entries = Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]);
  const query = method === "GET" ? "?" + new URLSearchParams(entries) : "";
  const res = await fetch("/api/v1" + path + query, {
    method,
    headers: { "X-CSRFToken": csrf },
    body: method === "GET" ? undefined : new URLSearchParams(entries),
  });
  const body = await res.json();
  if (body.result !== "success") throw Object.assign(new Error(body.msg), { status: res.status, body });
  return body;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) k === "class" ? (node.className = v) : (node[k] = v);
  node.append(...children);
  return node;
}

async function start() {
  if (location.search.includes("login_failed")) $("login-error").hidden = false;
  // No CSRF cookie means no session (both are set at login and cleared at logout): show the form without
  // asking the API, whose 401 carries "WWW-Authenticate: Basic" and would make the browser pop up its own login.
  if (!csrf) {
    $("login").hidden = false;
    return;
  }
  try {
    state.me = await api("GET", "/users/me");
  } catch {
    $("login").hidden = false;
    return;
  }
  $("chat").hidden = false;
  const reg = await api("POST", "/register", {
    apply_markdown: true,
    client_gravatar: false,
    event_types: ["message", "subscription", "realm_user", "update_message", "delete_message"],
    fetch_event_types: ["realm", "realm_user", "subscription"],
  });
  state.queue = reg.queue_id;
  state.lastEventId = reg.last_event_id;
  $("org-name").textContent = reg.realm_name || "Parley";
  $("me").textContent = state.me.full_name;
  for (const u of reg.realm_users || []) state.users.set(u.user_id, u);
  state.subs = reg.subscriptions || [];
  renderSidebar();
  poll();
}

function renderSidebar() {
  const channels = $("channels");
  channels.replaceChildren();
  for (const sub of state.subs) {
    const item = el("li", { onclick: () => select({ stream: sub }) }, el("span", { class: "swatch", style: `background:${sub.color}` }), sub.name);
    item.querySelector(".swatch").style.background = sub.color;
    if (state.narrow?.stream?.stream_id === sub.stream_id && !state.narrow.topic) item.classList.add("active");
    channels.append(item);
    if (state.narrow?.stream?.stream_id === sub.stream_id) {
      for (const t of state.narrow.topics || []) {
        const topic = el("li", { class: "topic", onclick: (e) => (e.stopPropagation(), select({ stream: sub, topic: t.name })) }, t.name || "general chat");
        if (state.narrow.topic === t.name) topic.classList.add("active");
        channels.append(topic);
      }
    }
  }
  const people = $("people");
  people.replaceChildren();
  for (const u of state.users.values()) {
    if (u.is_bot || u.user_id === state.me.user_id) continue;
    const item = el("li", { onclick: () => select({ dm: u }) }, u.full_name);
    if (state.narrow?.dm?.user_id === u.user_id) item.classList.add("active");
    people.append(item);
  }
}

function narrowOperators(n) {
  if (n.dm) return [{ operator: "dm", operand: [n.dm.user_id] }];
  const ops = [{ operator: "channel", operand: n.stream.stream_id }];
  if (n.topic !== undefined) ops.push({ operator: "topic", operand: n.topic });
  return ops;
}

async function select(n) {
  state.narrow = n;
  if (n.stream) {
    try {
      n.topics = (await api("GET", `/users/me/${n.stream.stream_id}/topics`)).topics;
    } catch {
      n.topics = [];
    }
  }
  $("narrow-title").textContent = n.dm ? `Direct messages with ${n.dm.full_name}` : n.topic !== undefined ? `#${n.stream.name} > ${n.topic || "general chat"}` : `#${n.stream.name}`;
  $("compose").hidden = false;
  $("compose-topic").hidden = Boolean(n.dm);
  if (n.topic !== undefined) $("compose-topic").value = n.topic;
  renderSidebar();
  const res = await api("GET", "/messages", { anchor: "newest", num_before: 100, num_after: 0, narrow: narrowOperators(n), apply_markdown: true });
  $("messages").replaceChildren(...res.messages.map(renderMessage));
  $("messages").scrollTop = $("messages").scrollHeight;
}

function renderMessage(m) {
  const content = el("div", { class: "content" });
  content.innerHTML = m.content; // server-rendered HTML: raw HTML in the Markdown is never passed through
  return el(
    "div",
    { class: "message", id: `m${m.id}` },
    el("span", { class: "sender" }, m.sender_full_name),
    el("span", { class: "when" }, new Date(m.timestamp * 1000).toLocaleString()),
    m.type === "stream" ? el("span", { class: "topic-tag" }, m.subject || "general chat") : "",
    content,
  );
}

function matches(m) {
  const n = state.narrow;
  if (!n) return false;
  if (n.dm) return m.type === "private" && m.display_recipient.some((r) => r.id === n.dm.user_id);
  return m.type === "stream" && m.stream_id === n.stream.stream_id && (n.topic === undefined || m.subject === n.topic);
}

async function poll() {
  for (;;) {
    try {
      const res = await api("GET", "/events", { queue_id: state.queue, last_event_id: state.lastEventId });
      for (const ev of res.events) {
        state.lastEventId = Math.max(state.lastEventId, ev.id);
        handle(ev);
      }
    } catch (e) {
      // a queue that is gone, or one we lost our place in (pruned events): start over with a fresh one
      if (e.body && (e.body.code === "BAD_EVENT_QUEUE_ID" || e.body.code === "BAD_REQUEST")) return location.reload();
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

function handle(ev) {
  if (ev.type === "message") {
    const n = state.narrow;
    if (n?.stream && ev.message.stream_id === n.stream.stream_id && !(n.topics || []).some((t) => t.name === ev.message.subject)) {
      n.topics = [{ name: ev.message.subject, max_id: ev.message.id }, ...(n.topics || [])];
      renderSidebar();
    }
    if (matches(ev.message)) {
      $("messages").append(renderMessage(ev.message));
      $("messages").scrollTop = $("messages").scrollHeight;
    }
  } else if (ev.type === "delete_message") {
    for (const id of ev.message_ids || [ev.message_id]) document.getElementById(`m${id}`)?.remove();
  } else if (ev.type === "update_message" && ev.rendered_content !== undefined) {
    const node = document.querySelector(`#m${ev.message_id} .content`);
    if (node) node.innerHTML = ev.rendered_content;
  } else if (ev.type === "subscription" && (ev.op === "add" || ev.op === "remove")) {
    api("GET", "/users/me/subscriptions").then((r) => ((state.subs = r.subscriptions), renderSidebar()));
  } else if (ev.type === "realm_user" && ev.op === "add") {
    state.users.set(ev.person.user_id, ev.person);
    renderSidebar();
  }
}

$("compose").addEventListener("submit", async (e) => {
  e.preventDefault();
  const n = state.narrow;
  const content = $("compose-content").value;
  const params = n.dm ? { type: "direct", to: [n.dm.user_id], content } : { type: "channel", to: n.stream.stream_id, topic: $("compose-topic").value, content };
  try {
    await api("POST", "/messages", params);
    $("compose-content").value = "";
  } catch (err) {
    alert(err.message);
  }
});

start();
