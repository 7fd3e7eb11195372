// MCP WASM client demo: plain ES module, no framework, no network beyond the MCP server.
// Serve the repository root and open /www/ (the wasm package lives in ../pkg/web).
//
// Query parameters: ?url=<mcp url>  &mode=auto|legacy|2026-07-28  &autoconnect=1
//                   &call=<tool>  &args=<JSON object>  (default args: {"text":"hello from the demo"})
import init, { Client, McpError } from "../pkg/web/mcp_wasm_client.js";

const DEFAULT_URL = "http://127.0.0.1:18101/mcp";
const DEFAULT_ARGS = { text: "hello from the demo" };

const $ = (sel) => document.querySelector(sel);
const el = {
  form: $("#connect-form"),
  url: $("#url"),
  mode: $("#mode"),
  connect: $("#connect"),
  disconnect: $("#disconnect"),
  status: $("#status"),
  instructions: $("#instructions"),
  instructionsText: $("#instructions-text"),
  tools: $("#tools"),
  toolTitle: $("#tool-title"),
  toolDescription: $("#tool-description"),
  args: $("#args"),
  fields: $("#fields"),
  call: $("#call"),
  result: $("#result"),
};

let client = null;
let tools = [];
let selected = null;
let busy = false;

/** Creates an element: h("div", { class: "x", text: "hi" }, child, ...). */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null) node.append(c);
  return node;
}

const pretty = (v) => JSON.stringify(v, null, 2);

function setStatus(state, ...parts) {
  el.status.dataset.state = state;
  el.status.replaceChildren(...parts);
  document.body.dataset.state = state;
}

/** Renders any thrown value; McpError shows its code, message and data. */
function errorNode(err, context) {
  const isMcp = err instanceof McpError || err?.name === "McpError";
  const box = h("div", { class: "error-box" });
  box.append(h("strong", { text: `${context} failed` }));
  if (isMcp) {
    box.append(
      h("div", {}, h("span", { class: "code", text: `McpError ${err.code}` }), " ", err.message),
    );
    if (err.data !== undefined && err.data !== null) {
      box.append(h("pre", { class: "json", text: pretty(err.data) }));
    }
  } else {
    box.append(h("div", { text: String(err?.message ?? err) }));
  }
  return box;
}

function updateButtons() {
  el.connect.disabled = busy;
  el.disconnect.disabled = busy || !client;
  el.call.disabled = busy || !client || !selected;
}

// ---------------------------------------------------------------------------- connection

async function connect() {
  if (busy) return;
  busy = true;
  updateButtons();
  if (client) await disconnect({ quiet: true, keepBusy: true });
  const url = el.url.value.trim();
  const mode = el.mode.value;
  setStatus("connecting", `Connecting to ${url} (mode ${mode})…`);
  try {
    const c = new Client(url, { mode, clientInfo: { name: "mcp-wasm-demo", version: "0.1.0" } });
    await c.connect();
    client = c;
    showConnected(c);
    const listed = await c.listTools();
    tools = listed?.tools ?? [];
    renderTools();
  } catch (err) {
    client = null;
    setStatus("error", errorNode(err, "Connect"));
    renderTools();
  } finally {
    busy = false;
    updateButtons();
  }
}

function showConnected(c) {
  const info = c.serverInfo ?? {};
  const server = [info.name ?? "(unnamed server)", info.version].filter(Boolean).join(" ");
  setStatus(
    "connected",
    h("span", { class: "dot" }),
    "Connected · era ",
    h("b", { id: "era", text: c.era ?? "?" }),
    " · protocol ",
    h("b", { id: "protocol-version", text: c.protocolVersion ?? "?" }),
    " · server ",
    h("b", { id: "server-info", text: server }),
  );
  const instructions = c.instructions;
  el.instructions.hidden = !instructions;
  el.instructionsText.textContent = instructions ?? "";
}

async function disconnect({ quiet = false, keepBusy = false } = {}) {
  const c = client;
  client = null;
  tools = [];
  selected = null;
  if (!keepBusy) {
    busy = true;
    updateButtons();
  }
  let closeError = null;
  try {
    if (c) await c.close();
  } catch (err) {
    closeError = err;
  }
  el.instructions.hidden = true;
  renderTools();
  renderForm();
  if (!quiet) {
    if (closeError) setStatus("error", errorNode(closeError, "Close"));
    else setStatus("idle", "Disconnected.");
  }
  if (!keepBusy) {
    busy = false;
    updateButtons();
  }
}

// ---------------------------------------------------------------------------- tools

function renderTools() {
  if (!client) {
    el.tools.replaceChildren(h("li", { class: "empty", text: "Connect to list tools." }));
    return;
  }
  if (tools.length === 0) {
    el.tools.replaceChildren(h("li", { class: "empty", text: "The server has no tools." }));
    return;
  }
  el.tools.replaceChildren(
    ...tools.map((tool) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: tool === selected ? "tool selected" : "tool",
            dataset: { tool: tool.name },
            "aria-pressed": tool === selected ? "true" : "false",
            onclick: () => selectTool(tool.name),
          },
          h("span", { class: "tool-name", text: tool.name }),
          tool.description ? h("span", { class: "tool-desc", text: firstLine(tool.description) }) : null,
        ),
      ),
    ),
  );
}

const firstLine = (s) => String(s).trim().split("\n")[0];

function selectTool(name) {
  selected = tools.find((t) => t.name === name) ?? null;
  renderTools();
  renderForm();
  updateButtons();
}

/** The schema type of a property: handles `type: [..., "null"]` and `anyOf` (Optional[...]). */
function propType(prop) {
  let t = prop?.type;
  if (Array.isArray(t)) t = t.find((x) => x !== "null");
  if (!t && Array.isArray(prop?.anyOf)) {
    for (const alt of prop.anyOf) {
      const at = propType(alt);
      if (at && at !== "null") return at;
    }
  }
  return t ?? "string";
}

function renderForm() {
  el.fields.replaceChildren();
  if (!selected) {
    el.toolTitle.textContent = "Call a tool";
    el.toolDescription.textContent = client ? "Select a tool on the left." : "";
    return;
  }
  el.toolTitle.textContent = selected.name;
  el.toolDescription.textContent = selected.description ?? "";
  const schema = selected.inputSchema ?? {};
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = Object.keys(props);
  if (names.length === 0) {
    el.fields.append(h("p", { class: "empty", text: "No arguments." }));
  }
  for (const name of names) {
    const prop = props[name] ?? {};
    const type = propType(prop);
    const id = `arg-${name}`;
    const req = required.has(name);
    let input;
    if (type === "boolean") {
      input = h("input", { id, type: "checkbox", name, checked: prop.default === true });
    } else if (type === "integer" || type === "number") {
      input = h("input", {
        id, type: "number", name, required: req,
        step: type === "integer" ? "1" : "any",
        value: prop.default ?? undefined,
      });
    } else if (type === "object" || type === "array") {
      input = h("textarea", {
        id, name, required: req, rows: "3", placeholder: type === "array" ? "[ … ] (JSON)" : "{ … } (JSON)",
      });
      if (prop.default !== undefined) input.value = JSON.stringify(prop.default);
    } else {
      input = h("input", { id, type: "text", name, required: req, value: prop.default ?? undefined });
    }
    input.dataset.type = type;
    const label = h(
      "label",
      { for: id, class: type === "boolean" ? "field check" : "field" },
      h("span", { class: "field-name" }, name, req ? h("span", { class: "req", title: "required", text: " *" }) : null,
        h("span", { class: "field-type", text: ` ${type}` })),
    );
    if (type === "boolean") label.prepend(input);
    else label.append(input);
    if (prop.description) label.append(h("small", { text: prop.description }));
    el.fields.append(label);
  }
}

/** Reads the form into an arguments object; empty optional fields are left out. */
function readArgs() {
  const args = {};
  for (const input of el.fields.querySelectorAll("input, textarea")) {
    const { name } = input;
    const type = input.dataset.type;
    if (type === "boolean") {
      args[name] = input.checked;
      continue;
    }
    const raw = input.value;
    if (raw === "") continue;
    if (type === "integer" || type === "number") args[name] = Number(raw);
    else if (type === "object" || type === "array") {
      try {
        args[name] = JSON.parse(raw);
      } catch (e) {
        throw new Error(`Argument ${name}: invalid JSON (${e.message})`);
      }
    } else args[name] = raw;
  }
  return args;
}

function fillArgs(values) {
  for (const [name, value] of Object.entries(values ?? {})) {
    const input = el.fields.querySelector(`[name="${CSS.escape(name)}"]`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = Boolean(value);
    else input.value = typeof value === "object" ? JSON.stringify(value) : String(value);
  }
}

// ---------------------------------------------------------------------------- calling

async function callSelected() {
  if (!client || !selected || busy) return;
  if (!el.args.reportValidity()) return;
  const name = selected.name;
  busy = true;
  updateButtons();
  el.result.dataset.state = "pending";
  el.result.replaceChildren(h("p", { class: "empty", text: `Calling ${name}…` }));
  const started = performance.now();
  try {
    const args = readArgs();
    const result = await client.callTool(name, args);
    renderResult(name, args, result, performance.now() - started);
  } catch (err) {
    el.result.dataset.state = "error";
    el.result.replaceChildren(errorNode(err, `Call ${name}`));
  } finally {
    busy = false;
    updateButtons();
  }
}

function renderResult(name, args, result, ms) {
  const isError = result?.isError === true;
  el.result.dataset.state = isError ? "tool-error" : "ok";
  const parts = [
    h("div", { class: "result-head" },
      h("code", { text: `${name}(${JSON.stringify(args)})` }),
      h("span", { class: isError ? "badge bad" : "badge good", text: isError ? "isError" : "ok" }),
      h("span", { class: "ms", text: `${ms.toFixed(0)} ms` })),
  ];
  const content = Array.isArray(result?.content) ? result.content : [];
  for (const block of content) parts.push(contentBlock(block, isError));
  if (result?.structuredContent !== undefined) {
    parts.push(h("div", { class: "block" },
      h("div", { class: "block-label", text: "structuredContent" }),
      h("pre", { class: "json", text: pretty(result.structuredContent) })));
  }
  if (content.length === 0 && result?.structuredContent === undefined) {
    parts.push(h("pre", { class: "json", text: pretty(result) }));
  } else {
    parts.push(h("details", { class: "raw" }, h("summary", { text: "raw result" }),
      h("pre", { class: "json", text: pretty(result) })));
  }
  el.result.replaceChildren(...parts);
}

function contentBlock(block, isError) {
  const label = (text) => h("div", { class: "block-label", text });
  switch (block?.type) {
    case "text":
      return h("div", { class: isError ? "block text is-error" : "block text" }, label("text"),
        h("pre", { text: block.text ?? "" }));
    case "image":
      return h("div", { class: "block image" }, label(`image · ${block.mimeType}`),
        h("img", { src: `data:${block.mimeType};base64,${block.data}`, alt: "tool result image" }));
    case "audio":
      return h("div", { class: "block audio" }, label(`audio · ${block.mimeType}`),
        h("audio", { controls: true, src: `data:${block.mimeType};base64,${block.data}` }));
    default:
      return h("div", { class: "block" }, label(block?.type ?? "content"),
        h("pre", { class: "json", text: pretty(block) }));
  }
}

// ---------------------------------------------------------------------------- start-up

el.form.addEventListener("submit", (e) => {
  e.preventDefault();
  connect();
});
el.disconnect.addEventListener("click", () => disconnect());
el.args.addEventListener("submit", (e) => {
  e.preventDefault();
  callSelected();
});

const params = new URLSearchParams(location.search);
el.url.value = params.get("url") || DEFAULT_URL;
if (params.has("mode")) el.mode.value = params.get("mode");

async function main() {
  setStatus("loading", "Loading the WebAssembly module…");
  el.connect.disabled = true;
  try {
    await init();
  } catch (err) {
    setStatus("error", errorNode(err, "Loading the wasm module"));
    return;
  }
  setStatus("idle", "Not connected.");
  updateButtons();
  window.mcpDemo = { get client() { return client; }, connect, disconnect, selectTool, callSelected };

  if (params.get("autoconnect") === "1") {
    await connect();
    const toCall = params.get("call");
    if (client && toCall) {
      if (!tools.some((t) => t.name === toCall)) {
        el.result.dataset.state = "error";
        el.result.replaceChildren(errorNode(new Error(`no tool named ${toCall}`), `Call ${toCall}`));
        return;
      }
      let args = DEFAULT_ARGS;
      if (params.has("args")) {
        try {
          args = JSON.parse(params.get("args"));
        } catch {
          /* keep the default */
        }
      }
      selectTool(toCall);
      fillArgs(args);
      await callSelected();
    }
  }
}

main();
