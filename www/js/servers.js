// The demo's several-servers mode: the URL field holds "name=url name=url …", the page then runs
// one ClientGroup (session.js) and this card lists each server with its status.
import { el, h } from "./dom.js";
import { state } from "./state.js";
import { ClientGroup } from "./pkg.js";

/** [[name, url], …] when the field names several servers (or one as name=url), else null. */
export function groupEntries(text) {
  const parts = text.split(/\s+/).filter(Boolean);
  const named = (p) => /^[A-Za-z0-9_-]+=\S+$/.test(p);
  if (parts.length < 2 && !(parts.length === 1 && named(parts[0]))) return null;
  return parts.map((p, i) => (named(p) ? [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)] : [`s${i + 1}`, p]));
}

/** The servers card: each server of the group with its status (hidden for a single Client). */
export function renderServers() {
  const group = state.client instanceof ClientGroup ? state.client : null;
  el.serversCard.hidden = !group;
  if (!group) return el.servers.replaceChildren();
  const errors = group.errors;
  el.servers.replaceChildren(...Object.entries(group.status).map(([name, status]) => h("li", {
    class: `server ${status}`, "data-test": `server-${name}`, dataset: { status },
    title: errors[name]?.message ?? group.client(name)?.serverInfo?.name ?? "",
  }, h("span", { class: "dot" }), h("b", { text: name }), h("span", { class: "server-status", "data-test": "server-status", text: status }))));
}
