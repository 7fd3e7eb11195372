// <mcp-elicitation-form>: a drop-in form for an elicitation/create request (form and URL mode),
// plain JS beside the wasm. This file is the element: its params (checked with the package's form
// model, wasm.elicitationForm), its answer, its buttons' actions and its check on submit (the
// package's validator, wasm.validateElicitation). The drawing is elicitation-view.js's, imported
// when the first form is made or asked for (a page that never shows one never fetches it); until it
// has arrived a form whose params are set is not drawn yet, and draws as soon as it is.
//
//   elicitationCallback: (ctx, params) => ElicitationForm.ask(dialog, params, { signal: ctx.signal })

/** The element's tag. */
const TAG = "mcp-elicitation-form";

/** The answer event's name. */
const ANSWER_EVENT = "mcp-elicitation-answer";

/** The base of the element classes: HTMLElement in a page, a plain class in Node, Deno and workers. */
const Base = globalThis.HTMLElement ?? class {};

/** Whether this host can show the form: a document and a customElements registry. */
const hasDom = () => typeof globalThis.document?.createElement === "function" && Boolean(globalThis.customElements) && globalThis.HTMLElement !== undefined;

/** An McpError (kind input) of the entry whose exports are `wasm`. */
const inputError = (wasm, message) => new wasm.McpError(-32602, message, { local: true, kind: "input" });

let view = null; // elicitation-view.js, once it has arrived
let viewLoad = null; // its import under way (reset after a failure: a later form tries again)

/** elicitation-view.js, imported once; a failure rejects with the entry's McpError, kind module_load. */
function loadView(wasm) {
  viewLoad ??= import("./elicitation-view.js").then(
    (m) => (view = m),
    (e) => {
      viewLoad = null;
      const url = new URL("./elicitation-view.js", import.meta.url).href;
      throw new wasm.McpError(-32603, `mcp-elicitation-form: its drawing module could not be loaded from ${url}: ${e?.message ?? e}`,
        { local: true, kind: "module_load", url, cause: String(e?.message ?? e) });
    },
  );
  return viewLoad;
}

/** Checks elicitation params and returns what to draw; throws the model's McpError (kind input). */
function modelOf(wasm, params) {
  if (params === null || typeof params !== "object" || Array.isArray(params)) throw inputError(wasm, "ElicitationForm: params must be the elicitation/create params object");
  if (params.message !== undefined && typeof params.message !== "string") throw inputError(wasm, "ElicitationForm: params.message must be a string");
  const mode = params.mode ?? "form";
  if (mode === "url") {
    if (typeof params.url !== "string" || params.url === "") throw inputError(wasm, "ElicitationForm: URL mode needs params.url (a string)");
    return { mode, message: params.message ?? "", url: params.url };
  }
  if (mode !== "form") throw inputError(wasm, `ElicitationForm: params.mode must be "form" or "url", not ${JSON.stringify(mode)}`);
  if (params.requestedSchema === undefined) throw inputError(wasm, "ElicitationForm: form mode needs params.requestedSchema");
  const { fields } = wasm.elicitationForm(params.requestedSchema); // throws McpError (kind input)
  return { mode, message: params.message ?? "", schema: params.requestedSchema, fields };
}

/** ElicitationForm.ask() of `cls` once the form helpers are there. */
function askNow(cls, container, params, options) {
  try {
    modelOf(cls.wasm, params);
    if (!(container instanceof Node) || typeof container.append !== "function") throw inputError(cls.wasm, "ElicitationForm.ask: container must be an element (a <dialog> or any element the form goes into)");
    if (options === null || typeof options !== "object") throw inputError(cls.wasm, "ElicitationForm.ask: options must be an object ({ signal })");
    if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) throw inputError(cls.wasm, "ElicitationForm.ask: options.signal must be an AbortSignal");
  } catch (e) {
    return Promise.reject(e);
  }
  if (options.signal?.aborted) return Promise.resolve({ action: "cancel" });
  if (view) return view.askIn(cls, container, params, options.signal);
  return loadView(cls.wasm).then(() => (options.signal?.aborted ? { action: "cancel" } : view.askIn(cls, container, params, options.signal)));
}

/**
 * `<mcp-elicitation-form>`: set `params`, await `answer` (or listen for `mcp-elicitation-answer`).
 * Each entry gets its own subclass from elicitationFormClass(wasm), whose static `wasm` holds the
 * entry's McpError, elicitationForm and validateElicitation.
 */
class ElicitationFormElement extends Base {
  #params = null;
  #model = null;
  #view = null; // the drawn form (elicitation-view.js's FormView), or null until it is drawn
  #focusWhenDrawn = false;
  #resolve = null;
  #answered = null;
  #answer = null;

  /** Attaches the shadow root; Escape anywhere in the form answers cancel. Starts loading the drawing. */
  constructor() {
    super();
    this.#answer = new Promise((resolve) => { this.#resolve = resolve; });
    this.attachShadow({ mode: "open" });
    this.addEventListener("keydown", (ev) => {
      if (ev.key !== "Escape" || this.#answered) return;
      ev.preventDefault();
      ev.stopPropagation();
      this.cancel();
    });
    loadView(this.constructor.wasm).catch(() => {}); // reported when a form needs it (#draw, ask)
  }

  /** The tag this class is defined under. */
  static get tagName() { return TAG; }

  /**
   * Shows a form for `params` in `container` and resolves with the person's answer:
   * `{ action: "accept", content }`, `{ action: "decline" }` or `{ action: "cancel" }` (Escape,
   * or `signal` aborted). A `<dialog>` container that is closed is opened with showModal() and
   * closed again afterwards. The element is removed once answered. Bad params reject with an
   * McpError (kind input); without a DOM, with one of kind unsupported; a drawing module that
   * cannot be loaded, with one of kind module_load.
   */
  static ask(container, params, options = {}) {
    if (!hasDom()) {
      return Promise.reject(new this.wasm.McpError(-32602, "ElicitationForm.ask needs a page (DOM): there is no document or customElements here (Node, Deno, a worker); answer elicitation/create in your own callback", { local: true, kind: "unsupported" }));
    }
    // The entry's init() first: it loads the form helpers where they arrive on first use.
    if (this.wasm.init) return this.wasm.init().then(() => askNow(this, container, params, options));
    return askNow(this, container, params, options);
  }

  /** The elicitation/create params shown (setting them draws the form; bad params, or a form already answered, throw an McpError, kind input). */
  get params() { return this.#params; }
  set params(value) {
    if (this.#answered) throw inputError(this.constructor.wasm, "ElicitationForm: this form has been answered; create a new element for another request");
    const model = modelOf(this.constructor.wasm, value);
    this.#params = value;
    this.#model = model;
    this.#view = null;
    this.setAttribute("data-state", "pending");
    if (view) this.#draw(model);
    else loadView(this.constructor.wasm).then(() => this.#draw(model), (e) => this.#undrawable(model, e));
  }

  /** Draws `model` when it is still the one shown; a form answered meanwhile is drawn disabled. */
  #draw(model) {
    if (this.#model !== model) return;
    const wasm = this.constructor.wasm;
    this.#view = new view.FormView(this, model, {
      finish: (answer) => this.#finish(answer),
      validate: (raw) => wasm.validateElicitation(model.schema, raw),
    });
    if (this.#answered) this.#disable();
    else if (this.#focusWhenDrawn) this.#view.focusFirst();
    this.#focusWhenDrawn = false;
  }

  /** The drawing module could not be loaded: the page hears of it (reportError) and the form answers cancel, nobody being able to answer it. */
  #undrawable(model, error) {
    if (this.#model !== model) return;
    globalThis.reportError?.(error);
    this.cancel();
  }

  /** A promise of the answer: `{ action, content? }`, settled once. */
  get answer() { return this.#answer; }

  /** Whether the person has answered (then the controls are disabled). */
  get answered() { return this.#answered !== null; }

  /** Answers `cancel` (as Escape does); nothing once answered. */
  cancel() { this.#finish({ action: "cancel" }); }

  /** Answers `decline`; nothing once answered. */
  decline() { this.#finish({ action: "decline" }); }

  /**
   * Checks the fields with validateElicitation: when valid answers accept with the typed content
   * and returns true; else shows the errors inline, focuses the first and returns false (false too
   * while the form is not drawn yet: nobody can have filled it).
   */
  submit() {
    if (this.#answered || this.#model?.mode !== "form" || !this.#view) return false;
    const { content, errors } = this.constructor.wasm.validateElicitation(this.#model.schema, this.#view.collect());
    if (errors.length) {
      this.#view.showErrors(errors);
      return false;
    }
    this.#view.showErrors([]);
    this.#finish({ action: "accept", content });
    return true;
  }

  /** Focuses the first field (form mode) or the Decline button (URL mode: a stray Enter never opens a page); before the form is drawn, as soon as it is. */
  focusFirst() {
    if (this.#view) this.#view.focusFirst();
    else this.#focusWhenDrawn = this.#model !== null;
  }

  /** Disables the drawn controls (an answered form stays in place as a record). */
  #disable() {
    for (const n of this.shadowRoot.querySelectorAll("input, select, button")) n.disabled = true;
  }

  /** Settles the answer once: disables the controls, reflects data-state, dispatches mcp-elicitation-answer. */
  #finish(answer) {
    if (this.#answered || !this.#resolve) return;
    this.#answered = answer;
    this.#disable();
    this.setAttribute("data-state", answer.action);
    this.dispatchEvent(new CustomEvent(ANSWER_EVENT, { bubbles: true, composed: true, detail: answer }));
    this.#resolve(answer);
  }
}

/**
 * The ElicitationForm class bound to one entry's wasm exports (McpError, elicitationForm,
 * validateElicitation). It loads anywhere; only a page (DOM) can show it.
 */
export function elicitationFormClass(wasm) {
  return class ElicitationForm extends ElicitationFormElement {
    /** The entry's exports the form draws and checks with. */
    static wasm = wasm;
  };
}
