// The connection: creating the Client with the page's callbacks, connect, disconnect,
// and server messages that are not shown elsewhere.
import { el, h } from "./dom.js";
import { state } from "./state.js";
import { Client, ClientGroup } from "./pkg.js";
import { errorNode, isMcpError, systemNote } from "./chat.js";
import { onLog } from "./log.js";
import { setStatus, updateButtons } from "./status.js";
import { refreshTools, renderForm, renderTools } from "./tools.js";
import { onElicitation } from "./elicitation.js";
import { onSampling } from "./dialogs.js";
import { onListRoots } from "./roots.js";
import { groupEntries, renderServers } from "./servers.js";
import { authHint, needsSignIn, pageAuthOption, renderAuth } from "./auth.js";
import { resumeStoredTask } from "./tasks.js";

function clientOptions(url) {
  const auth = pageAuthOption(url);
  return {
    ...(auth ? { auth } : {}),
    mode: el.mode.value,
    clientInfo: { name: "mcp-wasm-demo", version: "0.2.0" },
    logLevel: "info",
    tasks: true, // long_task runs as a task (2026); see tasks.js for the reload
    apps: true, // declares the MCP Apps extension: show_chart's view renders inline (apps.js)
    elicitationCallback: onElicitation,
    samplingCallback: onSampling,
    listRootsCallback: onListRoots,
    loggingCallback: onLog,
    messageHandler: onMessage,
  };
}

/** The client's messageHandler: transport errors and notifications as transcript notes
 *  (in a ClientGroup, the second argument names the server). */
function onMessage(message, source) {
  const from = source?.server ? `${source.server}: ` : "";
  if (isMcpError(message) || message instanceof Error) {
    const kind = message?.data?.kind;
    systemNote(`${from}${kind ? `[${kind}] ` : ""}${message.message}`, "msg-transport");
    return;
  }
  const method = message?.method;
  if (method === "notifications/message" || method === "notifications/progress") return; // shown elsewhere
  if (method === "notifications/tools/list_changed") refreshTools();
  if (method) systemNote(`${from}Notification ${method}`, "msg-notification");
}

/**
 * Connects to the URL and mode in the top bar (closing any current session first), then lists
 * tools. `signIn` (the Sign in button's click): client.signIn() instead of connect(), which
 * opens the sign-in popup inside the click.
 */
export async function connect({ signIn = false } = {}) {
  if (state.busy) return;
  state.busy = true;
  updateButtons();
  const url = el.url.value.trim();
  const entries = groupEntries(url);
  if (entries) {
    if (state.client) await disconnect({ quiet: true, keepBusy: true });
    return connectGroup(entries);
  }
  let c;
  let connecting;
  try {
    // signIn() before any await: still in the click, its popup is not blocked (Safari blocks
    // one opened after an await).
    const options = clientOptions(url);
    c = new Client(url, options);
    connecting = signIn && options.auth ? c.signIn() : null;
    connecting?.catch(() => {}); // awaited below
  } catch (err) {
    connecting = Promise.reject(err);
    connecting.catch(() => {});
  }
  if (state.client) await disconnect({ quiet: true, keepBusy: true });
  setStatus("connecting", `Connecting to ${url} (mode ${el.mode.value})…`);
  try {
    await (connecting ?? c.connect());
    state.client = c;
    renderAuth();
    if (c.era !== "modern" && c.era !== "2026-07-28") {
      try { await c.setLoggingLevel("info"); } catch { /* not every server has logging/setLevel */ }
    }
    const listed = await c.listTools({ all: true });
    state.tools = listed?.tools ?? [];
    showConnected(c, listed);
    renderTools();
    systemNote(`Connected to ${url}: ${state.tools.length} tools.`, "msg-connected");
    resumeStoredTask(url); // a task a previous load of the page started (not awaited: the page stays usable)
  } catch (err) {
    state.client = null;
    renderAuth();
    if (err?.data?.kind === "auth_redirect") {
      // authorizeWithRedirect(): the page is on its way to the sign-in page.
      setStatus("connecting", "Redirecting to the sign-in page…");
      return;
    }
    setStatus("error", connectError(err));
    renderTools();
  } finally {
    state.busy = false;
    updateButtons();
  }
}

/** Several servers (name=url …) as one ClientGroup: a status per server, the merged tools. */
async function connectGroup(entries) {
  const { auth, ...options } = clientOptions(entries[0][1]);
  void auth; // sign-in stays a one-server feature of the page
  state.auth = null;
  const servers = Object.fromEntries(entries.map(([name, url]) => [name, { url }]));
  setStatus("connecting", `Connecting to ${entries.length} servers (mode ${el.mode.value})…`);
  try {
    const group = new ClientGroup({ servers, ...options });
    state.client = group;
    const connecting = group.connect();
    renderServers();
    await connecting;
    renderServers();
    for (const c of group.clients.values()) {
      if (c.era === "legacy") c.setLoggingLevel("info").catch(() => {});
    }
    state.tools = (await group.listTools())?.tools ?? [];
    renderTools();
    const status = Object.values(group.status);
    const up = status.filter((s) => s === "connected").length;
    setStatus(up ? "connected" : "error", h("span", { class: "dot" }), "ClientGroup · ",
      h("b", { "data-test": "group-summary", text: `${up} of ${status.length} servers connected` }),
      ` · ${state.tools.length} tools`);
    systemNote(`Connected to ${up} of ${status.length} servers: ${state.tools.length} tools.`, "msg-connected");
  } catch (err) {
    state.client = null;
    setStatus("error", errorNode(err, "Connect"));
    renderTools();
    renderServers();
  } finally {
    state.busy = false;
    updateButtons();
  }
}

/** The connect error, with what to do for the authorization kinds (a "Sign in" button for a 401). */
function connectError(err) {
  const box = errorNode(err, "Connect");
  const hint = authHint(err);
  if (hint) box.append(h("div", { class: "hint-line", "data-test": "auth-hint", text: hint }));
  if ((needsSignIn(err) && !el.auth.checked) || err?.data?.kind === "popup_blocked") {
    box.append(h("div", { class: "buttons" }, h("button", {
      type: "button", "data-test": "sign-in",
      onclick: () => { el.auth.checked = true; connect({ signIn: true }); }, // the popup opens in this click
    }, "Sign in and connect")));
  }
  return box;
}

function showConnected(c, listed) {
  const info = c.serverInfo ?? listed?._meta?.["io.modelcontextprotocol/serverInfo"] ?? {};
  const server = [info.name ?? "(server did not say)", info.version].filter(Boolean).join(" ");
  setStatus(
    "connected",
    h("span", { class: "dot" }),
    "Connected · era ",
    h("b", { id: "era", "data-test": "era", text: c.era ?? "?" }),
    " · protocol ",
    h("b", { id: "protocol-version", "data-test": "protocol-version", text: c.protocolVersion ?? "?" }),
    " · transport ",
    h("b", { id: "transport", text: c.transport ?? "?" }),
    " · server ",
    h("b", { id: "server-info", "data-test": "server-info", text: server }),
  );
  el.instructions.hidden = !c.instructions;
  el.instructions.textContent = c.instructions ?? "";
}

/** Closes the session and clears tools and form; `quiet` skips the status and note, `keepBusy` leaves `busy` to the caller. */
export async function disconnect({ quiet = false, keepBusy = false } = {}) {
  const c = state.client;
  state.client = null;
  state.tools = [];
  state.selected = null;
  if (!keepBusy) { state.busy = true; updateButtons(); }
  let closeError = null;
  try { if (c) await c.close(); } catch (err) { closeError = err; }
  el.instructions.hidden = true;
  renderAuth();
  renderServers();
  renderTools();
  renderForm();
  if (!quiet) {
    if (closeError) setStatus("error", errorNode(closeError, "Close"));
    else setStatus("idle", "Disconnected.");
    systemNote("Disconnected.");
  }
  if (!keepBusy) { state.busy = false; updateButtons(); }
}
