// The connection: creating the Client with the page's callbacks, connect, disconnect,
// and server messages that are not shown elsewhere.
import { el, h } from "./dom.js";
import { state } from "./state.js";
import { Client } from "./pkg.js";
import { errorNode, isMcpError, systemNote } from "./chat.js";
import { onLog } from "./log.js";
import { setStatus, updateButtons } from "./status.js";
import { refreshTools, renderForm, renderTools } from "./tools.js";
import { onElicitation } from "./elicitation.js";
import { onSampling } from "./dialogs.js";
import { onListRoots } from "./roots.js";

function clientOptions() {
  return {
    mode: el.mode.value,
    clientInfo: { name: "mcp-wasm-demo", version: "0.2.0" },
    logLevel: "info",
    elicitationCallback: onElicitation,
    samplingCallback: onSampling,
    listRootsCallback: onListRoots,
    loggingCallback: onLog,
    messageHandler: onMessage,
  };
}

/** The client's messageHandler: transport errors and notifications as transcript notes. */
function onMessage(message) {
  if (isMcpError(message) || message instanceof Error) {
    const kind = message?.data?.kind;
    systemNote(`${kind ? `[${kind}] ` : ""}${message.message}`, "msg-transport");
    return;
  }
  const method = message?.method;
  if (method === "notifications/message" || method === "notifications/progress") return; // shown elsewhere
  if (method === "notifications/tools/list_changed") refreshTools();
  if (method) systemNote(`Notification ${method}`, "msg-notification");
}

/** Connects to the URL and mode in the top bar (closing any current session first), then lists tools. */
export async function connect() {
  if (state.busy) return;
  state.busy = true;
  updateButtons();
  if (state.client) await disconnect({ quiet: true, keepBusy: true });
  const url = el.url.value.trim();
  setStatus("connecting", `Connecting to ${url} (mode ${el.mode.value})…`);
  try {
    const c = new Client(url, clientOptions());
    await c.connect();
    state.client = c;
    if (c.era !== "modern" && c.era !== "2026-07-28") {
      try { await c.setLoggingLevel("info"); } catch { /* not every server has logging/setLevel */ }
    }
    const listed = await c.listTools({ all: true });
    state.tools = listed?.tools ?? [];
    showConnected(c, listed);
    renderTools();
    systemNote(`Connected to ${url}: ${state.tools.length} tools.`, "msg-connected");
  } catch (err) {
    state.client = null;
    setStatus("error", errorNode(err, "Connect"));
    renderTools();
  } finally {
    state.busy = false;
    updateButtons();
  }
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
  renderTools();
  renderForm();
  if (!quiet) {
    if (closeError) setStatus("error", errorNode(closeError, "Close"));
    else setStatus("idle", "Disconnected.");
    systemNote("Disconnected.");
  }
  if (!keepBusy) { state.busy = false; updateButtons(); }
}
