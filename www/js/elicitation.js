// Elicitation requests: form mode as a card in the transcript, URL mode through the consent dialog.
import { h } from "./dom.js";
import { nextFormId } from "./state.js";
import { addMessage, systemNote } from "./chat.js";
import { elicitationRow } from "./forms.js";
import { urlConsent } from "./dialogs.js";
import { elicitationForm, validateElicitation } from "./pkg.js";

/** Who asks: "Server asks", or in a ClientGroup the server's name (context.server). */
export const asker = (context) => (context?.server ? `${context.server} asks` : "Server asks");

/** The client's elicitationCallback: resolves to { action, content? } once the user answers. */
export function onElicitation(context, params) {
  if (params?.mode === "url") return urlConsent(context, params);
  return elicitationCard(context, params);
}

/** Builds a real form from elicitationForm(requestedSchema) inside the transcript. */
function elicitationCard(context, params) {
  const schema = params.requestedSchema ?? { type: "object", properties: {} };
  const { fields } = elicitationForm(schema);
  const formId = nextFormId();
  return new Promise((resolve) => {
    const inputs = new Map(); // field name -> { field, get(), wrap, error }
    const form = h("form", { class: "elicit-form", novalidate: true, autocomplete: "off", "data-test": "elicitation-form" });
    for (const field of fields) {
      const row = elicitationRow(formId, field);
      inputs.set(field.name, row);
      form.append(row.wrap);
    }
    const buttons = h("div", { class: "buttons" },
      h("button", { type: "submit", "data-test": "elicitation-accept", text: "Submit" }),
      h("button", { type: "button", class: "secondary", "data-test": "elicitation-decline", text: "Decline", onclick: () => finish("decline") }),
      h("button", { type: "button", class: "secondary", "data-test": "elicitation-cancel", text: "Cancel", onclick: () => finish("cancel") }));
    const summary = h("div", { class: "elicit-summary", "data-test": "elicitation-summary", hidden: true });
    form.append(h("div", { class: "form-errors", "data-test": "elicitation-errors", hidden: true }), buttons);
    const li = addMessage("server", { test: "elicitation", label: asker(context), dataset: { state: "pending" } },
      h("div", { class: "message", "data-test": "elicitation-message", text: params.message ?? "" }), form, summary);
    li.classList.add("elicitation");

    const collect = () => {
      const raw = {};
      for (const [name, entry] of inputs) {
        const v = entry.get();
        if (v !== undefined) raw[name] = v;
      }
      return raw;
    };
    const showErrors = (errors, only) => {
      const byField = new Map();
      const general = [];
      for (const e of errors) {
        if (e.field && inputs.has(e.field)) {
          if (!byField.has(e.field)) byField.set(e.field, e.message);
        } else general.push(e.field ? `${e.field}: ${e.message}` : e.message);
      }
      for (const [name, entry] of inputs) {
        if (only && name !== only) continue;
        const msg = byField.get(name);
        entry.error.textContent = msg ?? "";
        entry.error.hidden = !msg;
        entry.wrap.classList.toggle("invalid", Boolean(msg));
        for (const i of entry.wrap.querySelectorAll("input, select, textarea")) {
          if (msg) i.setAttribute("aria-invalid", "true");
          else i.removeAttribute("aria-invalid");
        }
      }
      if (!only) {
        const box = form.querySelector(".form-errors");
        box.textContent = general.join("; ");
        box.hidden = general.length === 0;
      }
      return byField;
    };
    // Re-check a field as soon as it changes, once it has shown an error.
    form.addEventListener("input", (ev) => {
      const wrap = ev.target.closest(".efield");
      if (!wrap || !wrap.classList.contains("invalid")) return;
      showErrors(validateElicitation(schema, collect()).errors, wrap.dataset.field);
    });
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const { content, errors } = validateElicitation(schema, collect());
      if (errors.length) {
        const byField = showErrors(errors);
        const first = [...byField.keys()][0];
        inputs.get(first)?.wrap.querySelector("input, select, textarea")?.focus();
        li.dataset.invalid = String(errors.length);
        return;
      }
      showErrors([]);
      finish("accept", content);
    });

    let done = false;
    function finish(action, content) {
      if (done) return;
      done = true;
      li.dataset.state = action;
      form.querySelectorAll("input, select, textarea, button").forEach((n) => { n.disabled = true; });
      form.classList.add("done");
      summary.hidden = false;
      summary.replaceChildren(h("span", { class: `badge ${action === "accept" ? "good" : "bad"}`, text: action === "accept" ? "sent" : action }),
        action === "accept" ? h("code", { text: JSON.stringify(content) }) : " nothing was sent");
      resolve(action === "accept" ? { action, content } : { action });
    }
    context?.signal?.addEventListener("abort", () => {
      if (done) return;
      systemNote("The server cancelled the form request.");
      finish("cancel");
    });
    form.querySelector("input, select, textarea")?.focus({ preventScroll: true });
  });
}
