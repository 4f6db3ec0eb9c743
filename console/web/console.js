// The axbus console: a NATS client over the server's WebSocket listener, as the identity its
// session names. Everything it shows comes from subjects and endpoints that identity may use.
import { wsconnect, nkeyAuthenticator } from "./nats.js";

const enc = new TextEncoder();
const dec = new TextDecoder();
// What the page keeps: past these the oldest go, and the page says how many went.
const MAX_EVENTS = 5000;
const MAX_ACTIONS = 2000;
const MAX_FLOWS = 200;
const SHOWN = 300; // rows a table shows
const $ = (id) => document.getElementById(id);

// window.axbus is what tests and the benchmark read: whether the page is connected, what it
// holds, and when each event was shown.
const probe = (window.axbus = { ready: false, error: "", events: 0, actions: 0, dropped: 0, shownLag: [], actionLag: [], frames: [] });

let nc, session, base;
let hosts = []; // the daemons the connection reaches (a hub's whole fleet)
let host = ""; // the one the Desktops, Agents and Window views ask
const events = [];
const actions = [];
const flows = new Map();
let droppedEvents = 0;
let droppedActions = 0;
let paused = false;
let view = "desktops";
let selectedApp = null;
let selectedWindow = null;
let listing = null;
let shot = null;
let pendingEvents = [];
let pendingActions = [];

main().catch((e) => fail(e));

async function main() {
  const r = await fetch("/session");
  if (!r.ok) throw new Error(await r.text());
  session = await r.json();
  base = `${session.prefix}.${session.host}`; // a hub's: every host's, <prefix>.*
  host = session.host === "*" ? "" : session.host;
  $("who").textContent = `${session.name} (${session.role})${host ? ` on ${host}` : " on a hub"}`;
  nc = await wsconnect({
    servers: session.websocket,
    authenticator: nkeyAuthenticator(enc.encode(session.seed.trim())),
    name: "axbus console",
    maxReconnectAttempts: -1,
  });
  session.seed = "";
  status(true);
  watchStatus();
  listen(`${base}.evt.>`, onEvent);
  listen(`${base}.act.>`, onAction);
  listen(`${base}.flow.>`, onFlow);
  listen(`${base}.lease.>`, () => view === "agents" && refreshAgents());
  for (const b of document.querySelectorAll("#tabs button")) b.onclick = () => show(b.dataset.view);
  for (const id of ["live-host", "live-app", "live-type", "live-text"]) $(id).oninput = () => renderLive(true);
  $("actions-agent").oninput = () => renderActions(true);
  $("live-pause").onclick = () => {
    paused = !paused;
    $("live-pause").textContent = paused ? "Resume" : "Pause";
    if (!paused) renderLive(true);
  };
  $("live-history").onclick = () => loadHistory($("live-since").value.trim() || "5m");
  $("window-refresh").onclick = () => selectedWindow && inspectWindow();
  const canvas = $("window-canvas");
  canvas.onmousemove = (e) => hoverAt(e);
  canvas.onclick = (e) => hoverAt(e);
  $("hosts-refresh").onclick = () => refreshHosts();
  setInterval(refreshHosts, 15000); // hosts join and leave a hub
  requestAnimationFrame(frame);
  await refreshHosts();
  probe.ready = true;
}

function fail(e) {
  probe.error = String(e && e.message ? e.message : e);
  $("status").textContent = probe.error;
  $("status").className = "status bad";
}

function status(ok, text) {
  $("status").textContent = text || (ok ? "connected" : "disconnected");
  $("status").className = "status " + (ok ? "ok" : "bad");
}

async function watchStatus() {
  for await (const s of nc.status()) {
    if (s.type === "disconnect") status(false);
    if (s.type === "reconnect") status(true);
    if (s.type === "error") status(false, String(s.error || s.data));
  }
}

// listen subscribes to subject, each message's JSON to fn.
function listen(subject, fn) {
  nc.subscribe(subject, {
    callback: (err, m) => {
      if (err) return fail(err);
      try {
        fn(JSON.parse(dec.decode(m.data)), m.subject);
      } catch (e) {
        console.warn("console: a message on", m.subject, e);
      }
    },
  });
}

// call asks an endpoint; an error reply throws its code and suggestion.
async function call(endpoint, body, timeout = 10000, on = host) {
  const api = `${session.prefix}.${on}.api`;
  let m;
  try {
    m = await nc.request(`${api}.${endpoint}`, enc.encode(JSON.stringify(body || {})), { timeout });
  } catch (e) {
    if (!/no ?responders/i.test(`${e.name} ${e.message}`)) throw e;
    // Nobody in this identity's account answers the endpoint: the server keeps it from this
    // role, unless the daemon is away (then status does not answer either).
    const up = await nc.request(`${api}.status`, enc.encode("{}"), { timeout: 2000 }).then(() => true, () => false);
    const err = new Error(up ? `PERMISSION_DENIED: ${session.name} (role ${session.role}) may not call ${endpoint}` : "UNAVAILABLE: the daemon does not answer");
    err.code = up ? "PERMISSION_DENIED" : "UNAVAILABLE";
    throw err;
  }
  const text = dec.decode(m.data);
  const v = text ? JSON.parse(text) : {};
  if (v && v.error) {
    const e = new Error(`${v.error.code}: ${v.error.message}`);
    e.code = v.error.code;
    throw e;
  }
  return v;
}

// tryAction publishes an action request the way an agent would; tests use it to see the
// server refuse a monitor's (its permissions, not the page, decide).
probe.tryAction = async (action, body) => {
  try {
    await call(action, body, 3000);
    return "done";
  } catch (e) {
    return e.code || String(e.message || e);
  }
};

function show(name) {
  view = name;
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("on", b.dataset.view === name);
  for (const s of document.querySelectorAll(".view")) s.classList.toggle("on", s.id === name);
  if (name === "agents") refreshAgents();
  if (name === "live") renderLive(true);
  if (name === "actions") renderActions(true);
  if (name === "flows") renderFlows();
}

// keep appends v to list, dropping the oldest past max; it returns how many went.
function keep(list, v, max) {
  list.push(v);
  if (list.length > max) {
    list.splice(0, list.length - max);
    return 1;
  }
  return 0;
}

function onEvent(ev) {
  probe.events++;
  droppedEvents += keep(events, ev, MAX_EVENTS);
  probe.dropped = droppedEvents;
  pendingEvents.push(ev);
  const t = ev.type;
  if ((t === "app_launched" || t === "app_terminated") && ev.host === host) refreshAppsSoon();
  if (selectedApp && ev.host === host && ev.app && ev.app.pid === selectedApp.pid && (t === "window_created" || t === "window_closed" || t === "title_changed")) refreshWindowsSoon();
  const w = selectedWindow;
  if (view === "window" && w && ev.host === w.host && ev.app && ev.app.pid === w.app.pid && t !== "focus_changed") inspectSoon();
}

// inspectSoon inspects the window view's window again, once its app's changes have paused for
// a moment and at most every INSPECT_EVERY: the view follows the app without a walk per event.
const INSPECT_EVERY = 2000;
let inspectTimer = 0;
let lastInspect = 0;
function inspectSoon() {
  if (inspectTimer) return;
  inspectTimer = setTimeout(() => {
    inspectTimer = 0;
    lastInspect = Date.now();
    inspectWindow();
  }, Math.max(300, INSPECT_EVERY - (Date.now() - lastInspect)));
}

function onAction(rec) {
  probe.actions++;
  droppedActions += keep(actions, rec, MAX_ACTIONS);
  pendingActions.push(rec);
}

function onFlow(p, subject) {
  const on = subject.split(".")[1];
  let run = flows.get(p.run);
  if (!run) {
    run = { run: p.run, host: on, flow: p.flow || "", agent: p.agent, steps: p.steps || 0, done: 0, outcome: "running" };
    flows.set(p.run, run);
    if (flows.size > MAX_FLOWS) flows.delete(flows.keys().next().value);
  }
  if (p.event === "step" && p.step) {
    run.done = p.step.step;
    run.last = p.step;
  }
  if (p.event === "ended") run.outcome = p.outcome;
  if (view === "flows") renderFlows();
}

// frame renders what came since the last frame, once a frame, and keeps frame times for the
// benchmark.
let lastFrame = 0;
function frame(now) {
  if (lastFrame) {
    probe.frames.push(now - lastFrame);
    if (probe.frames.length > 2000) probe.frames.splice(0, 1000);
  }
  lastFrame = now;
  if (pendingEvents.length) {
    const fresh = pendingEvents;
    pendingEvents = [];
    if (view === "live" && !paused) appendLive(fresh);
  }
  if (pendingActions.length) {
    const fresh = pendingActions;
    pendingActions = [];
    if (view === "actions") appendActions(fresh);
  }
  requestAnimationFrame(frame);
}

// ---- Desktops

// refreshHosts asks every daemon the connection reaches to say who it is (service discovery,
// as `axbus hosts` does): one on a desktop's own daemon, every host of a hub's fleet.
async function refreshHosts() {
  const found = [];
  try {
    const replies = await nc.requestMany("$SRV.INFO.axbus", enc.encode(""), { strategy: "timer", maxWait: 700 });
    for await (const m of replies) {
      const info = JSON.parse(dec.decode(m.data));
      if (info.metadata && info.metadata.host) found.push(info.metadata.host);
    }
  } catch (e) {
    console.warn("console: discovery", e);
  }
  hosts = [...new Set(found)].sort();
  if (!host || !hosts.includes(host)) host = hosts[0] || session.host;
  const ul = $("hosts");
  ul.replaceChildren(
    ...hosts.map((h) => {
      const li = el("li", h);
      li.dataset.host = h;
      li.classList.toggle("on", h === host);
      li.onclick = () => selectHost(h);
      return li;
    }),
  );
  probe.hosts = hosts;
  await refreshApps();
}

async function selectHost(h) {
  host = h;
  selectedApp = null;
  for (const li of $("hosts").children) li.classList.toggle("on", li.dataset.host === h);
  $("windows").replaceChildren();
  $("apps-app").textContent = "";
  await refreshApps();
}

let appsTimer = 0;
function refreshAppsSoon() {
  clearTimeout(appsTimer);
  appsTimer = setTimeout(refreshApps, 150);
}

async function refreshApps() {
  try {
    const r = await call("apps");
    $("apps-host").textContent = host;
    const ul = $("apps");
    ul.replaceChildren();
    for (const a of r.apps || []) {
      const li = el("li", `${a.name}  `, el("span", `pid ${a.pid}${a.toolkit ? " · " + a.toolkit : ""}`, null, "dim"));
      li.dataset.pid = a.pid;
      li.dataset.name = a.name;
      if (selectedApp && selectedApp.pid === a.pid) li.classList.add("on");
      li.onclick = () => selectApp(a);
      ul.append(li);
    }
  } catch (e) {
    fail(e);
  }
}

let windowsTimer = 0;
function refreshWindowsSoon() {
  clearTimeout(windowsTimer);
  windowsTimer = setTimeout(refreshWindows, 150);
}

async function selectApp(a) {
  selectedApp = a;
  for (const li of $("apps").children) li.classList.toggle("on", Number(li.dataset.pid) === a.pid);
  $("apps-app").textContent = a.name;
  await refreshWindows();
}

async function refreshWindows() {
  if (!selectedApp) return;
  const ul = $("windows");
  try {
    const r = await call("windows", { pid: selectedApp.pid });
    ul.replaceChildren();
    for (const w of r.windows || []) {
      const li = el("li", `${w.title || "(untitled)"}  `, el("span", `${w.role}${w.focused ? " · focused" : ""}`, null, "dim"));
      li.dataset.window = w.id;
      li.onclick = () => {
        selectedWindow = { host, app: selectedApp, window: w };
        show("window");
        inspectWindow();
      };
      ul.append(li);
    }
  } catch (e) {
    ul.replaceChildren(el("li", e.message));
  }
}

// ---- Live

function liveFilter() {
  const on = $("live-host").value.trim().toLowerCase();
  const app = $("live-app").value.trim().toLowerCase();
  const type = $("live-type").value.trim().toLowerCase();
  const text = $("live-text").value.trim().toLowerCase();
  return (ev) =>
    (!on || (ev.host || "").toLowerCase().includes(on)) &&
    (!app || ((ev.app && ev.app.name) || "").toLowerCase().includes(app)) &&
    (!type || (ev.type || "").includes(type)) &&
    (!text || JSON.stringify(ev).toLowerCase().includes(text));
}

function liveRow(ev) {
  const e = ev.element || {};
  const detail = ev.detail ? JSON.stringify(ev.detail) : ev.window ? ev.window.title || "" : "";
  const tr = el("tr", null, [
    el("td", clock(ev.time)),
    el("td", ev.host || ""),
    el("td", (ev.app && ev.app.name) || ""),
    el("td", ev.type),
    el("td", [e.role, e.name && `"${e.name}"`, e.value !== undefined && e.value !== "" ? `= ${e.value}` : ""].filter(Boolean).join(" ")),
    el("td", detail),
  ]);
  tr.dataset.seq = ev.seq;
  return tr;
}

function appendLive(fresh) {
  const ok = liveFilter();
  const rows = $("live-rows");
  const frag = document.createDocumentFragment();
  const now = Date.now();
  for (let i = fresh.length - 1; i >= 0; i--) {
    const ev = fresh[i];
    if (!ok(ev)) continue;
    frag.append(liveRow(ev));
    const lag = now - Date.parse(ev.time);
    probe.shownLag.push(lag);
    if (probe.shownLag.length > 20000) probe.shownLag.splice(0, 10000);
  }
  rows.prepend(frag);
  while (rows.children.length > SHOWN) rows.lastChild.remove();
  liveCount();
}

function renderLive(all) {
  if (!all) return;
  const ok = liveFilter();
  const rows = $("live-rows");
  const out = [];
  for (let i = events.length - 1; i >= 0 && out.length < SHOWN; i--) if (ok(events[i])) out.push(liveRow(events[i]));
  rows.replaceChildren(...out);
  liveCount();
}

// loadHistory reads the events of the last since (5m, 90s, 2h) from each host's stream, a page
// of HISTORY_PAGE per host in one request (JetStream's batched direct get, by time), and keeps
// those older than the oldest kept, in time order.
const HISTORY_PAGE = 2000;
async function loadHistory(since) {
  const m = /^(\d+)(s|m|h)$/.exec(since);
  if (!m) return ($("live-count").textContent = `since: say 90s, 5m or 2h, not ${since}`);
  const from = new Date(Date.now() - Number(m[1]) * { s: 1e3, m: 60e3, h: 3600e3 }[m[2]]);
  const have = new Set(events.map(key));
  const oldest = events.length ? Date.parse(events[0].time) : Infinity;
  const got = [];
  for (const h of session.host === "*" ? hosts : [session.host]) {
    const stream = "AXBUS_EVT_" + h.toUpperCase().replaceAll("-", "_");
    try {
      const replies = await nc.requestMany(`$JS.${h}.API.DIRECT.GET.${stream}`, enc.encode(JSON.stringify({ start_time: from.toISOString(), batch: HISTORY_PAGE })),
        { strategy: "sentinel", maxWait: 5000 });
      for await (const r of replies) {
        if (!r.data.length) break; // the batch's end
        const ev = JSON.parse(dec.decode(r.data));
        if (!have.has(key(ev)) && Date.parse(ev.time) <= oldest) got.push(ev);
      }
    } catch (e) {
      $("live-count").textContent = `history of ${h}: ${e.message}`;
      return;
    }
  }
  got.sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const room = Math.max(0, MAX_EVENTS - events.length);
  droppedEvents += Math.max(0, got.length - room);
  events.unshift(...got.slice(got.length - room));
  probe.history = got.length;
  renderLive(true);
}

function key(ev) {
  return `${ev.host}/${ev.boot}/${ev.seq}`;
}

function liveCount() {
  $("live-count").textContent = `${events.length} kept${droppedEvents ? `, ${droppedEvents} oldest dropped (the page keeps ${MAX_EVENTS})` : ""}${paused ? " · paused" : ""}`;
}

// ---- Actions

function actionRow(rec) {
  const t = rec.target || {};
  const target = [t.role, t.name && `"${t.name}"`, t.element].filter(Boolean).join(" ") || (rec.app && rec.app.name) || "";
  const outcome = rec.error ? rec.error : `${rec.done ? "done" : "not done"}${rec.delivered ? "" : ", not delivered"}`;
  const exp = rec.expect ? `${rec.expect.outcome} ${Math.round(rec.expect.elapsed_ms || 0)} ms${rec.expect.trigger ? ` by ${rec.expect.trigger}` : ""}` : "";
  const chain = (rec.trace || []).map((st) => `${st.step} ${st.result} ${Math.round(st.elapsed_ms)} ms`).join(" › ");
  const tr = el("tr", null, [
    el("td", clock(rec.time)),
    el("td", rec.host || ""),
    el("td", (rec.agent && rec.agent.name) || ""),
    el("td", rec.action + (rec.op ? ` ${rec.op}` : "")),
    el("td", target),
    el("td", outcome, null, rec.error ? "failed" : "met"),
    el("td", exp, null, rec.expect ? (rec.expect.outcome === "met" ? "met" : "failed") : ""),
    el("td", String(Math.round(rec.elapsed_ms || 0))),
    el("td", rec.disposition ? rec.disposition.replaceAll("_", " ") : ""),
    el("td", chain),
  ]);
  tr.dataset.seq = rec.seq;
  tr.dataset.action = rec.action;
  tr.onclick = () => actionDetail(rec, tr);
  return tr;
}

function actionOK() {
  const who = $("actions-agent").value.trim().toLowerCase();
  return (rec) => !who || ((rec.agent && rec.agent.name) || "").toLowerCase().includes(who);
}

function appendActions(fresh) {
  const ok = actionOK();
  const rows = $("actions-rows");
  const frag = document.createDocumentFragment();
  const now = Date.now();
  for (let i = fresh.length - 1; i >= 0; i--) {
    if (!ok(fresh[i])) continue;
    frag.append(actionRow(fresh[i]));
    // from the action's end (its start and how long it took) to its row on the page
    probe.actionLag.push(now - Date.parse(fresh[i].time) - (fresh[i].elapsed_ms || 0));
    if (probe.actionLag.length > 2000) probe.actionLag.splice(0, 1000);
  }
  rows.prepend(frag);
  while (rows.children.length > SHOWN) rows.lastChild.remove();
  actionsCount();
}

function renderActions() {
  const ok = actionOK();
  const out = [];
  for (let i = actions.length - 1; i >= 0 && out.length < SHOWN; i--) if (ok(actions[i])) out.push(actionRow(actions[i]));
  $("actions-rows").replaceChildren(...out);
  actionsCount();
}

function actionsCount() {
  $("actions-count").textContent = `${actions.length} kept${droppedActions ? `, ${droppedActions} oldest dropped` : ""}`;
}

// actionDetail shows a record and the events of its app around it (2 s before, 3 s after).
function actionDetail(rec, tr) {
  for (const r of $("actions-rows").children) r.classList.toggle("on", r === tr);
  const at = Date.parse(rec.time);
  const pid = rec.app && rec.app.pid;
  const around = events.filter((ev) => ev.host === rec.host && ev.app && ev.app.pid === pid && Math.abs(Date.parse(ev.time) - at - 500) <= 2500);
  const lines = around.map((ev) => `${clock(ev.time)} ${ev.type} ${ev.element ? `${ev.element.role} "${ev.element.name || ""}"` : ""}`);
  $("action-detail").textContent = JSON.stringify(rec, null, 2) + "\n\nevents of its app around it:\n" + (lines.join("\n") || "(none kept)");
}

// ---- Agents

async function refreshAgents() {
  try {
    const r = await call("agents");
    const rows = (r.agents || []).map((a) =>
      el("tr", null, [
        el("td", a.name),
        el("td", a.role),
        el("td", String((a.connections || []).length)),
        el("td", clock(a.since)),
        el("td", [...(a.leases || []), ...(a.waiting || []).map((k) => `waiting for ${k}`)].join(", ")),
        el("td", a.last_action ? `${a.last_action.action} ${clock(a.last_action.time)}` : ""),
      ]),
    );
    $("agents-rows").replaceChildren(...rows);
  } catch (e) {
    $("agents-rows").replaceChildren(el("tr", null, [el("td", e.message)]));
  }
}

// ---- Window

async function inspectWindow() {
  const { app, window: w } = selectedWindow;
  host = selectedWindow.host;
  $("window-title").textContent = `${hosts.length > 1 ? host + " · " : ""}${app.name} · ${w.title || w.id}`;
  $("window-note").textContent = "inspecting";
  lastInspect = Date.now();
  try {
    listing = await call("inspect", { pid: app.pid, window: w.id, locators: true }, 25000);
  } catch (e) {
    $("window-note").textContent = e.message;
    return;
  }
  renderTree();
  shot = null;
  if (session.role === "monitor") {
    $("window-note").textContent = "boxes only: a screenshot needs an agent's identity (axbus console --role agent)";
  } else {
    try {
      shot = await screenshot(app.pid, w.id);
      $("window-note").textContent = `${listing.elements.length} elements · screenshot ${shot.width}×${shot.height}`;
    } catch (e) {
      $("window-note").textContent = e.message;
    }
  }
  drawWindow(null);
  probe.window = { elements: listing.elements.length, shot: !!shot, boxes: boxes().length };
}

async function screenshot(pid, window) {
  const r = await call("screenshot", { pid, window }, 30000);
  const parts = [];
  for (let i = 0; i < r.parts; i++) {
    const m = await nc.request(`${session.prefix}.${host}.api.screenshot_part`, enc.encode(JSON.stringify({ id: r.id, part: i })), { timeout: 10000 });
    parts.push(m.data);
  }
  r.image = await createImageBitmap(new Blob(parts, { type: "image/png" }));
  return r;
}

function renderTree() {
  const items = listing.elements.map((e) => {
    const li = el("li", `${e.id} ${e.role}${e.name ? ` "${e.name}"` : ""}${e.value ? ` = ${e.value}` : ""}`);
    li.style.paddingLeft = `${e.depth * 0.8 + 0.3}em`;
    li.dataset.id = e.id;
    li.onmouseenter = () => highlight(e);
    return li;
  });
  $("window-tree").replaceChildren(...items);
}

// origin is the window's top left and its scale: a screenshot's, else the window's bounds at 1.
function frameOf() {
  if (shot) return { x: shot.bounds.x, y: shot.bounds.y, scale: shot.scale, w: shot.width, h: shot.height };
  const b = (listing.window && listing.window.bounds) || boundsOf(listing.elements);
  return { x: b.x, y: b.y, scale: 1, w: Math.max(10, b.w), h: Math.max(10, b.h) };
}

function boundsOf(els) {
  const bs = els.map((e) => e.bounds).filter(Boolean);
  const x = Math.min(...bs.map((b) => b.x));
  const y = Math.min(...bs.map((b) => b.y));
  return { x, y, w: Math.max(...bs.map((b) => b.x + b.w)) - x, h: Math.max(...bs.map((b) => b.y + b.h)) - y };
}

function boxes() {
  return listing ? listing.elements.filter((e) => e.bounds && e.bounds.w > 0 && e.bounds.h > 0) : [];
}

function drawWindow(on) {
  const f = frameOf();
  const c = $("window-canvas");
  c.width = f.w;
  c.height = f.h;
  const g = c.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, f.w, f.h);
  if (shot) g.drawImage(shot.image, 0, 0);
  for (const e of boxes()) {
    const b = e.bounds;
    g.strokeStyle = e === on ? "#d1242f" : "rgba(9,105,218,.55)";
    g.lineWidth = e === on ? 3 : 1;
    g.strokeRect((b.x - f.x) * f.scale + 0.5, (b.y - f.y) * f.scale + 0.5, b.w * f.scale, b.h * f.scale);
  }
}

// hoverAt highlights the smallest element under the pointer and shows its locator.
function hoverAt(e) {
  if (!listing) return;
  const c = $("window-canvas");
  const r = c.getBoundingClientRect();
  const f = frameOf();
  const px = ((e.clientX - r.left) * c.width) / r.width / f.scale + f.x;
  const py = ((e.clientY - r.top) * c.height) / r.height / f.scale + f.y;
  let best = null;
  for (const el of boxes()) {
    const b = el.bounds;
    if (px >= b.x && py >= b.y && px < b.x + b.w && py < b.y + b.h && (!best || b.w * b.h <= best.bounds.w * best.bounds.h)) best = el;
  }
  if (best) highlight(best);
}

// pointFor is where, in the page, the window view shows the element of role and name: the
// centre of its box on the canvas (tests move the pointer there).
probe.pointFor = (role, name) => {
  const e = boxes().find((x) => x.role === role && x.name === name);
  if (!e) return null;
  const c = $("window-canvas");
  const r = c.getBoundingClientRect();
  const f = frameOf();
  const cx = (e.bounds.x + e.bounds.w / 2 - f.x) * f.scale;
  const cy = (e.bounds.y + e.bounds.h / 2 - f.y) * f.scale;
  return { x: r.left + (cx * r.width) / c.width, y: r.top + (cy * r.height) / c.height };
};

function highlight(e) {
  drawWindow(e);
  for (const li of $("window-tree").children) li.classList.toggle("on", li.dataset.id === e.id);
  $("window-locator").textContent = e.locator ? `axbus click '${e.locator}'` : `${e.id} (no unique locator)`;
  probe.hovered = { id: e.id, locator: e.locator || "" };
}

// ---- Flows

function renderFlows() {
  const rows = [...flows.values()].reverse().map((r) =>
    el("tr", null, [el("td", r.run), el("td", r.host), el("td", r.flow), el("td", r.agent), el("td", `${r.done}/${r.steps}`), el("td", r.outcome, null, r.outcome === "met" ? "met" : r.outcome === "running" ? "" : "failed")]),
  );
  $("flows-rows").replaceChildren(...rows);
}

// ---- helpers

// el makes an element with text (never markup: what apps say is shown as text) or children.
function el(tag, text, children, cls) {
  const n = document.createElement(tag);
  if (Array.isArray(text)) children = text;
  else if (text !== null && text !== undefined) n.textContent = text;
  if (children) n.append(...[].concat(children));
  if (cls) n.className = cls;
  return n;
}

function clock(t) {
  if (!t) return "";
  const d = new Date(t);
  return d.toLocaleTimeString([], { hour12: false }) + "." + String(d.getMilliseconds()).padStart(3, "0");
}
