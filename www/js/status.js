// The status bar and the enabled state of the connect / disconnect / call buttons.
import { el } from "./dom.js";
import { state } from "./state.js";

/** Shows a status line; its state (idle|connecting|connected|error) also goes on <body>. */
export function setStatus(pageState, ...parts) {
  el.status.dataset.state = pageState;
  el.status.replaceChildren(...parts);
  document.body.dataset.state = pageState;
}

/** Enables the buttons that make sense for the current state. */
export function updateButtons() {
  el.connect.disabled = state.busy;
  el.disconnect.disabled = state.busy || !state.client;
  el.call.disabled = state.busy || !state.client || !state.selected;
}
