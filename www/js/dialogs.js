// Modal dialogs, one at a time: URL-mode elicitation consent and sampling approval.
import { el, h } from "./dom.js";
import { state } from "./state.js";
import { addMessage, systemNote } from "./chat.js";
import { ElicitationForm } from "./pkg.js";

/** Runs modal dialogs one at a time. */
function queueModal(fn) {
  const run = state.modalChain.then(fn, fn);
  state.modalChain = run.catch(() => {});
  return run;
}

// ---------------------------------------------------------------------------- URL consent

/** URL-mode elicitation: the package's <mcp-elicitation-form> in the consent dialog (the full URL,
 *  its domain apart, Open only on the user's click, in a new window without an opener). */
export function urlConsent(context, params) {
  return queueModal(async () => {
    el.urlTitle.textContent = context?.server ? `The server "${context.server}" asks you to open a web page` : "The server asks you to open a web page";
    const li = addMessage("server", { test: "url-request", label: "Server asks", dataset: { state: "pending" } },
      h("div", { class: "message", text: params.message ?? "" }),
      h("div", { class: "muted" }, "wants you to open ", h("code", { text: params.url ?? "" })));
    const onAbort = () => systemNote("The server withdrew the URL request.");
    context?.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const answer = await ElicitationForm.ask(el.urlDialog, params, { signal: context?.signal });
      li.dataset.state = answer.action;
      li.querySelector(".bubble").append(h("div", { class: "elicit-summary" },
        h("span", { class: `badge ${answer.action === "accept" ? "good" : "bad"}`, text: answer.action === "accept" ? "opened" : answer.action }),
        answer.action === "accept" ? " in a new window" : " — the page was not opened"));
      return answer;
    } finally {
      context?.signal?.removeEventListener("abort", onAbort);
    }
  });
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
