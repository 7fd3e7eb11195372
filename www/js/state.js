// The page's mutable state, in one object. Writers: session.js (client, tools, busy),
// tools.js (selected), roots.js (roots), dialogs.js (modalChain); the counters go through next*().

/** Roots shared with the server before the user adds any. */
export const DEFAULT_ROOTS = [{ uri: "file:///home/demo/projects/mcp-wasm-client", name: "mcp-wasm-client" }];

/** Everything that changes while the page runs. */
export const state = {
  client: null, // the connected Client, or null
  tools: [], // tools/list of the connected server
  selected: null, // the tool whose arguments form is shown
  busy: false, // a connect or disconnect is under way
  auth: null, // the client's sign-in mode ("popup" | "redirect"), or null without the auth option
  dpop: false, // the client's auth option has dpop: true (tokens and key in IndexedDB "mcp-demo")
  grant: null, // the type of an auth.grant set with auth.js useGrant(), or null (the sign-in page)
  roots: DEFAULT_ROOTS.map((r) => ({ ...r })),
  modalChain: Promise.resolve(), // dialogs run one at a time
  callSeq: 0,
};

/** A fresh id for a tool call in the transcript. */
export const nextCallId = () => ++state.callSeq;
