// Tools: the tool list, the selected tool's arguments form, and calling a tool into the transcript.
import { el, h, firstLine } from "./dom.js";
import { state, nextCallId } from "./state.js";
import { addMessage, errorNode, renderResult, scrollToEnd, systemNote } from "./chat.js";
import { renderArgsForm, readArgs } from "./forms.js";
import { updateButtons } from "./status.js";
import { authHint, renderAuth } from "./auth.js";
import { renderServers } from "./servers.js";
import { callEnded, taskCallOptions } from "./tasks.js";
import { callWithApp, toolResourceUri, visibleTo } from "./apps.js";

/** Shows the tool list (or why there is none). */
export function renderTools() {
  if (!state.client) {
    el.tools.replaceChildren(h("li", { class: "empty", text: "Connect to list tools." }));
    return;
  }
  const offered = state.tools.filter((t) => visibleTo(t, "model")); // an app-only tool is for its app, not the list
  if (offered.length === 0) {
    el.tools.replaceChildren(h("li", { class: "empty", text: "The server has no tools." }));
    return;
  }
  el.tools.replaceChildren(...offered.map((tool) => h("li", {},
    h("button", {
      type: "button",
      class: tool === state.selected ? "tool selected" : "tool",
      dataset: { tool: tool.name },
      "data-test": `tool-${tool.name}`,
      "aria-pressed": tool === state.selected ? "true" : "false",
      title: tool.description ?? "",
      onclick: () => selectTool(tool.name),
    }, h("span", { class: "tool-name", text: tool.title ?? tool.name }),
    tool.description ? h("span", { class: "tool-desc", text: firstLine(tool.description) }) : null))));
}

/** Shows the arguments form of the selected tool. */
export function renderForm() {
  renderArgsForm(state.selected, Boolean(state.client));
}

/** Selects a tool by name and shows its form. */
export function selectTool(name) {
  state.selected = state.tools.find((t) => t.name === name) ?? null;
  renderTools();
  renderForm();
  updateButtons();
}

/** Lists the tools again (tools/list_changed), keeping the selection when the tool still exists. */
export async function refreshTools() {
  const { client } = state;
  if (!client) return;
  try {
    state.tools = (await client.listTools({ all: true, cache: false }))?.tools ?? [];
    if (state.selected) state.selected = state.tools.find((t) => t.name === state.selected.name) ?? null;
    renderTools();
    renderForm();
  } catch (err) {
    systemNote(`Could not refresh tools: ${err?.message ?? err}`);
  }
}

/** Submit handler of the arguments form: calls the selected tool with the form's values. */
export async function callSelected() {
  if (!state.client || !state.selected) return;
  if (!el.args.reportValidity()) return;
  const name = state.selected.name;
  let args;
  try {
    args = readArgs();
  } catch (err) {
    systemNote(err.message);
    return;
  }
  await callTool(name, args);
}

/** Calls a tool: the call, its progress and its result (or error) go into the transcript. */
export async function callTool(name, args) {
  const c = state.client;
  if (!c) return;
  const id = nextCallId();
  addMessage("user", { test: "msg-call", dataset: { tool: name, call: String(id) } },
    h("code", { class: "call", text: `${name}(${Object.keys(args).length ? JSON.stringify(args) : ""})` }));
  const li = addMessage("server", { test: "msg-result", dataset: { tool: name, call: String(id), state: "pending" } },
    h("span", { class: "pending", text: "working…" }));
  let progressBox = null;
  const onProgress = (p) => {
    if (!progressBox) {
      progressBox = h("div", { class: "progress", "data-test": "progress" },
        h("progress", { max: "1", value: "0" }), h("span", { class: "progress-text" }));
      li.querySelector(".bubble").append(progressBox);
    }
    const bar = progressBox.querySelector("progress");
    if (p.total) { bar.max = p.total; bar.value = p.progress; } else bar.removeAttribute("value");
    progressBox.querySelector(".progress-text").textContent =
      `${p.progress}${p.total ? ` / ${p.total}` : ""}${p.message ? ` · ${p.message}` : ""}`;
    scrollToEnd();
  };
  const started = performance.now();
  try {
    const options = { onProgress, ...taskCallOptions(li, name, el.url.value.trim()) };
    const hasApp = toolResourceUri(state.tools.find((t) => t.name === name)) !== undefined;
    const result = hasApp ? await callWithApp(li, name, args, options) : await c.callTool(name, args, options);
    renderResult(li, name, result, performance.now() - started);
    if (hasApp) li.querySelector('[data-test="structured"]')?.removeAttribute("open"); // the app shows it
    if (progressBox) li.querySelector(".bubble").append(progressBox);
  } catch (err) {
    li.dataset.state = "error";
    const box = errorNode(err, `Call ${name}`);
    const hint = authHint(err);
    if (hint) box.append(h("div", { class: "hint-line", "data-test": "auth-hint", text: hint }));
    li.querySelector(".bubble").replaceChildren(box);
  } finally {
    callEnded(li);
  }
  renderAuth(); // a call may have signed in, refreshed or stepped up
  renderServers(); // in a ClientGroup a call may find its server gone
  return li;
}
