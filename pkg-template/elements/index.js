// The package's custom elements, plain JS beside the wasm (they never enter the .wasm): each entry
// (index.js, manual.js, core/…) calls defineElements with its own wasm exports. In a page the tags
// are defined; in Node, Deno and workers (no customElements) the classes exist and nothing is
// defined, so importing the package there fails nothing.
import { appFrameClass } from './app-frame.js';
import { elicitationFormClass } from './elicitation-form.js';

/** The tag of each element class, as `customElements.define` gets it. */
export const TAGS = { AppFrame: 'mcp-app-frame', ElicitationForm: 'mcp-elicitation-form' };

/**
 * Builds AppFrame and ElicitationForm over one entry's wasm exports (McpError,
 * elicitationForm, validateElicitation, …) and defines their tags when the host has a
 * customElements registry (a tag already defined, by another copy of the package, is left alone).
 */
export function defineElements(wasm) {
  const classes = { AppFrame: appFrameClass(wasm), ElicitationForm: elicitationFormClass(wasm) };
  const registry = globalThis.customElements;
  if (registry) {
    for (const [name, tag] of Object.entries(TAGS)) {
      if (!registry.get(tag)) registry.define(tag, classes[name]);
    }
  }
  return classes;
}
