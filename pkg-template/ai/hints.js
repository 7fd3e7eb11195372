// Keywords a provider does not take, kept as words in the schema's description so the model still
// reads them (the server checks them either way).

/** Appends `hints` (e.g. `minLength: 3`) to `node.description`, in place. */
export function addHints(node, hints) {
  if (hints.length === 0) return;
  const text = `(${hints.join("; ")})`;
  node.description = node.description ? `${node.description} ${text}` : text;
}
