// Elicitation requests, drawn by the package's <mcp-elicitation-form>: form mode as a card in the
// transcript (the element stays there, disabled, once answered), URL mode in the consent dialog.
import { h } from "./dom.js";
import { addMessage, systemNote } from "./chat.js";
import { urlConsent } from "./dialogs.js";

/** Who asks: "Server asks", or in a ClientGroup the server's name (context.server). */
export const asker = (context) => (context?.server ? `${context.server} asks` : "Server asks");

/** The client's elicitationCallback: resolves to { action, content? } once the user answers. */
export function onElicitation(context, params) {
  if (params?.mode === "url") return urlConsent(context, params);
  return elicitationCard(context, params);
}

/** What the card shows under the form once answered: a badge and what was sent. */
function summaryOf(answer) {
  const accepted = answer.action === "accept";
  return [h("span", { class: `badge ${accepted ? "good" : "bad"}`, text: accepted ? "sent" : answer.action }),
    accepted ? h("code", { text: JSON.stringify(answer.content) }) : " nothing was sent"];
}

/** A <mcp-elicitation-form> in the transcript; bad params throw the element's McpError (the call fails). */
function elicitationCard(context, params) {
  const form = document.createElement("mcp-elicitation-form");
  form.params = params;
  const summary = h("div", { class: "elicit-summary", "data-test": "elicitation-summary", hidden: true });
  const li = addMessage("server", { test: "elicitation", label: asker(context), dataset: { state: "pending" } }, form, summary);
  li.classList.add("elicitation");
  form.addEventListener("mcp-elicitation-answer", (ev) => {
    li.dataset.state = ev.detail.action;
    summary.replaceChildren(...summaryOf(ev.detail));
    summary.hidden = false;
  });
  context?.signal?.addEventListener("abort", () => {
    if (form.answered) return;
    systemNote("The server cancelled the form request.");
    form.cancel();
  });
  form.focusFirst();
  return form.answer;
}
