// Roots: the list shared with the server (roots/list), its card, and add / remove.
import { el, h } from "./dom.js";
import { state } from "./state.js";
import { addMessage, systemNote } from "./chat.js";

/** The client's listRootsCallback: answers roots/list with the current roots and notes it. */
export function onListRoots() {
  const shared = state.roots.map((r) => ({ ...r }));
  addMessage("server", { test: "roots-request", label: "Server asks" },
    h("div", { class: "message", text: `Your roots (roots/list): shared ${shared.length}.` }),
    shared.length ? h("ul", { class: "mini" }, ...shared.map((r) => h("li", {}, h("code", { text: r.uri }), r.name ? ` ${r.name}` : null))) : null);
  return { roots: shared };
}

/** Shows the current roots in the roots card. */
export function renderRoots() {
  if (state.roots.length === 0) {
    el.roots.replaceChildren(h("li", { class: "empty", text: "No roots: the server sees an empty list." }));
    return;
  }
  el.roots.replaceChildren(...state.roots.map((r, i) => h("li", { "data-test": "root", dataset: { uri: r.uri } },
    h("div", { class: "root-text" }, h("b", { text: r.name || "(unnamed)" }), h("code", { text: r.uri })),
    h("button", { type: "button", class: "link", "data-test": "root-remove", "aria-label": `Remove ${r.uri}`, text: "Remove", onclick: () => removeRoot(i) }))));
}

async function rootsChanged(what) {
  renderRoots();
  systemNote(`Roots: ${what}.`, "msg-roots");
  const { client } = state;
  if (client && (client.era === "legacy")) {
    try { await client.sendRootsListChanged(); } catch { /* informational only */ }
  }
}

/** Submit handler of the root form: checks the file:// URI, adds the root. */
export function addRoot(ev) {
  ev.preventDefault();
  const uri = el.rootUri.value.trim();
  const name = el.rootName.value.trim();
  let problem = null;
  let parsed = null;
  try { parsed = new URL(uri); } catch { problem = "Enter a file:// URI, e.g. file:///home/me/project"; }
  if (!problem && parsed.protocol !== "file:") problem = "Roots must be file:// URIs.";
  if (!problem && state.roots.some((r) => r.uri === parsed.href)) problem = "That root is already shared.";
  el.rootError.textContent = problem ?? "";
  el.rootError.hidden = !problem;
  if (problem) return;
  state.roots.push(name ? { uri: parsed.href, name } : { uri: parsed.href });
  el.rootUri.value = "";
  el.rootName.value = "";
  rootsChanged(`added ${parsed.href}`);
}

function removeRoot(i) {
  const [r] = state.roots.splice(i, 1);
  if (r) rootsChanged(`removed ${r.uri}`);
}
