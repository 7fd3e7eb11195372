// The transcript: messages, system notes, error boxes and tool results.
import { el, h, pretty } from "./dom.js";
import { McpError } from "./pkg.js";

const ICON = { user: "You", server: "Server", system: "·", log: "log" };

/** True for an McpError from the package (also across realms, by name). */
export const isMcpError = (err) => err instanceof McpError || err?.name === "McpError";

/** An error box: "<context> failed", with the McpError code and data when there are any. */
export function errorNode(err, context) {
  const box = h("div", { class: "error-box", "data-test": "error" });
  box.append(h("strong", { text: `${context} failed` }));
  if (isMcpError(err)) {
    box.append(h("div", {}, h("span", { class: "code", text: `McpError ${err.code}` }), " ", err.message));
    if (err.data !== undefined && err.data !== null) box.append(h("pre", { class: "json", text: pretty(err.data) }));
  } else {
    box.append(h("div", { text: String(err?.message ?? err) }));
  }
  return box;
}

/** Appends a message to the transcript; returns its <li> (the body is its .bubble). */
export function addMessage(kind, { test, label, dataset } = {}, ...children) {
  const body = h("div", { class: "bubble" }, ...children);
  const li = h(
    "li",
    { class: `msg ${kind}`, "data-test": test ?? `msg-${kind}`, dataset },
    label !== null ? h("div", { class: "who", text: label ?? ICON[kind] ?? kind }) : null,
    body,
  );
  el.transcript.append(li);
  scrollToEnd();
  return li;
}

/** Scrolls the transcript to its last message on the next frame. */
export function scrollToEnd() {
  requestAnimationFrame(() => el.transcript.lastElementChild?.scrollIntoView({ block: "end", behavior: "instant" }));
}

/** Appends an unlabelled one-line note. */
export function systemNote(text, test = "msg-system") {
  return addMessage("system", { test, label: null }, text);
}

/** Renders one content block of a tool result. */
function contentBlock(block) {
  switch (block?.type) {
    case "text":
      return h("div", { class: "block text", "data-test": "content-text" }, h("pre", { class: "plain", text: block.text ?? "" }));
    case "image":
      return h("div", { class: "block image", "data-test": "content-image" },
        h("img", { src: `data:${block.mimeType};base64,${block.data}`, alt: "image from the tool" }),
        h("div", { class: "block-label", text: block.mimeType }));
    case "audio":
      return h("div", { class: "block" }, h("audio", { controls: true, src: `data:${block.mimeType};base64,${block.data}` }));
    case "resource_link":
      return h("div", { class: "block" }, h("div", { class: "block-label", text: "resource link" }),
        h("code", { text: block.uri }), block.name ? ` ${block.name}` : null);
    case "resource": {
      const r = block.resource ?? {};
      return h("div", { class: "block" }, h("div", { class: "block-label", text: `resource ${r.uri ?? ""}` }),
        h("pre", { class: "plain", text: r.text ?? `(${r.mimeType ?? "binary"} blob)` }));
    }
    default:
      return h("div", { class: "block" }, h("pre", { class: "json", text: pretty(block) }));
  }
}

/** Replaces a pending result message with the tool's result (content, structuredContent, isError). */
export function renderResult(li, name, result, ms) {
  const isError = result?.isError === true;
  li.dataset.state = isError ? "tool-error" : "ok";
  const bubble = li.querySelector(".bubble");
  const parts = [h("div", { class: "result-head" },
    h("span", { class: isError ? "badge bad" : "badge good", text: isError ? "isError" : "ok" }),
    h("span", { class: "ms", text: `${name} · ${ms.toFixed(0)} ms` }))];
  const content = Array.isArray(result?.content) ? result.content : [];
  for (const block of content) parts.push(contentBlock(block));
  const sc = result?.structuredContent;
  const scIsEcho = sc && Object.keys(sc).length === 1 && "result" in sc &&
    content.length === 1 && content[0]?.text === sc.result;
  if (sc !== undefined && !scIsEcho) {
    parts.push(h("details", { class: "block structured", "data-test": "structured", open: true },
      h("summary", { class: "block-label", text: "structuredContent" }),
      h("pre", { class: "json", text: pretty(sc) })));
  }
  if (content.length === 0 && sc === undefined) parts.push(h("pre", { class: "json", text: pretty(result) }));
  bubble.replaceChildren(...parts);
  scrollToEnd();
}
