// Modal dialogs, one at a time: URL-mode elicitation consent and sampling approval.
import { el, h } from "./dom.js";
import { state } from "./state.js";
import { addMessage, systemNote } from "./chat.js";

/** Runs modal dialogs one at a time. */
function queueModal(fn) {
  const run = state.modalChain.then(fn, fn);
  state.modalChain = run.catch(() => {});
  return run;
}

/** Splits a URL around its host (hostname[:port]) so the domain can be highlighted; null if invalid. */
function splitUrl(raw) {
  let u;
  try { u = new URL(raw); } catch { return null; }
  const host = u.host; // hostname[:port]
  const i = u.href.indexOf(host, u.protocol.length);
  return { url: u, before: u.href.slice(0, i), host, after: u.href.slice(i + host.length) };
}

// ---------------------------------------------------------------------------- URL consent

/** URL-mode elicitation: show the full URL, highlight its domain, open only after consent. */
export function urlConsent(context, params) {
  return queueModal(() => new Promise((resolve) => {
    const parts = splitUrl(params.url ?? "");
    el.urlTitle.textContent = context?.server ? `The server "${context.server}" asks you to open a web page` : "The server asks you to open a web page";
    el.urlMessage.textContent = params.message ?? "";
    el.urlFull.replaceChildren();
    const warnings = [];
    if (!parts) {
      el.urlDomain.textContent = "(invalid URL)";
      el.urlFull.textContent = String(params.url ?? "");
      warnings.push("This is not a valid URL; it cannot be opened.");
    } else {
      el.urlDomain.textContent = parts.url.hostname + (parts.url.port ? `:${parts.url.port}` : "");
      el.urlFull.append(h("span", { class: "dim", text: parts.before }), h("mark", { text: parts.host }), h("span", { class: "dim", text: parts.after }));
      if (!/^https?:$/.test(parts.url.protocol)) warnings.push(`Unusual scheme ${parts.url.protocol}`);
      else if (parts.url.protocol === "http:" && !["127.0.0.1", "localhost", "[::1]"].includes(parts.url.hostname)) warnings.push("Not encrypted (http:).");
      if (parts.url.username || parts.url.password) warnings.push("The URL contains a user name: the real domain is the highlighted one.");
      if (/^xn--|\.xn--/.test(parts.url.hostname)) warnings.push("The domain uses international characters (punycode).");
    }
    el.urlWarning.textContent = warnings.join(" ");
    el.urlWarning.hidden = warnings.length === 0;
    el.urlOpen.disabled = !parts || !/^https?:$/.test(parts.url.protocol);

    const li = addMessage("server", { test: "url-request", label: "Server asks", dataset: { state: "pending" } },
      h("div", { class: "message", text: params.message ?? "" }),
      h("div", { class: "muted" }, "wants you to open ", h("code", { text: params.url ?? "" })));
    const done = (action) => {
      cleanup();
      el.urlDialog.close();
      li.dataset.state = action;
      li.querySelector(".bubble").append(h("div", { class: "elicit-summary" },
        h("span", { class: `badge ${action === "accept" ? "good" : "bad"}`, text: action === "accept" ? "opened" : action }),
        action === "accept" ? " in a new window" : " — the page was not opened"));
      resolve({ action });
    };
    const onOpen = () => {
      window.open(parts.url.href, "_blank", "noopener,noreferrer");
      done("accept");
    };
    const onDecline = () => done("decline");
    const onCancel = (ev) => { ev?.preventDefault?.(); done("cancel"); };
    const onAbort = () => { systemNote("The server withdrew the URL request."); done("cancel"); };
    const cleanup = listenAll([
      [el.urlOpen, "click", onOpen],
      [el.urlDecline, "click", onDecline],
      [el.urlCancel, "click", onCancel],
      [el.urlDialog, "cancel", onCancel],
      [context?.signal, "abort", onAbort],
    ]);
    el.urlDialog.showModal();
    el.urlDecline.focus();
  }));
}

// ---------------------------------------------------------------------------- sampling

/** The text of sampling content (one block or a list); non-text blocks as [type]. */
function textOf(content) {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => (b?.type === "text" ? b.text : `[${b?.type ?? "?"}]`)).join("\n");
}

/** A prefilled reply for the demo server's haiku request; empty otherwise. */
function draftReply(params) {
  const last = textOf(params.messages?.at(-1)?.content ?? "");
  const m = /haiku about (.+?)\.?$/i.exec(last);
  if (m) return `${m[1]} in the browser\ncompiled down to tiny bytes\nthe server listens`;
  return "";
}

/** The client's samplingCallback: the user reads the request and approves (or edits, or rejects) a reply. */
export function onSampling(context, params) {
  return queueModal(() => new Promise((resolve, reject) => {
    el.samplingRequest.replaceChildren(
      params.systemPrompt ? h("div", { class: "sys" }, h("b", { text: "System: " }), params.systemPrompt) : "",
      ...(params.messages ?? []).map((m) => h("div", { class: `smsg ${m.role}`, "data-test": "sampling-message" },
        h("b", { text: `${m.role}: ` }), textOf(m.content))),
      h("div", { class: "muted" }, `max tokens ${params.maxTokens ?? "?"}`,
        params.modelPreferences?.hints?.length ? ` · model hints ${params.modelPreferences.hints.map((x) => x.name).join(", ")}` : ""));
    el.samplingReply.value = draftReply(params);
    el.samplingError.hidden = true;
    el.samplingTitle.textContent = context?.server ? `The server "${context.server}" wants a completion` : "The server wants a completion";
    const li = addMessage("server", { test: "sampling-request-msg", label: context?.server ? `${context.server} asks` : "Server asks", dataset: { state: "pending" } },
      h("div", { class: "message", text: "A completion from your model (sampling):" }),
      h("blockquote", { text: textOf(params.messages?.at(-1)?.content ?? "") }));

    const finish = (outcome, extra) => {
      cleanup();
      el.samplingDialog.close();
      li.dataset.state = outcome;
      li.querySelector(".bubble").append(extra);
    };
    const onApprove = () => {
      const text = el.samplingReply.value.trim();
      if (!text) {
        el.samplingError.textContent = "Write a reply first, or reject the request.";
        el.samplingError.hidden = false;
        el.samplingReply.focus();
        return;
      }
      const model = el.samplingModel.value.trim() || "human-in-the-loop";
      finish("approved", h("div", { class: "elicit-summary" }, h("span", { class: "badge good", text: "approved" }),
        h("pre", { class: "plain", text }), h("span", { class: "muted", text: `as model ${model}` })));
      resolve({ role: "assistant", content: { type: "text", text }, model, stopReason: "endTurn" });
    };
    const onReject = (ev) => {
      ev?.preventDefault?.();
      finish("rejected", h("div", { class: "elicit-summary" }, h("span", { class: "badge bad", text: "rejected" }), " nothing was sent"));
      reject(new Error("The user rejected the sampling request"));
    };
    const onAbort = () => { systemNote("The server withdrew the sampling request."); onReject(); };
    const cleanup = listenAll([
      [el.samplingApprove, "click", onApprove],
      [el.samplingReject, "click", onReject],
      [el.samplingDialog, "cancel", onReject],
      [context?.signal, "abort", onAbort],
    ]);
    el.samplingDialog.showModal();
    el.samplingReply.focus();
  }));
}

/** Adds each [target, event, handler] listener (a missing target is skipped); returns the
 *  function that removes them all. */
function listenAll(listeners) {
  for (const [target, event, handler] of listeners) target?.addEventListener(event, handler);
  return () => {
    for (const [target, event, handler] of listeners) target?.removeEventListener(event, handler);
  };
}
