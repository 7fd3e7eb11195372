// The step runner of ssr.mjs and ssr-cjs.cjs (CommonJS, so both can load it: an ESM file imports it,
// a CommonJS one requires it). Each step prints "ok …" or "FAIL …: reason" (run.mjs reads the lines).
"use strict";

let failed = 0;

/** Runs `fn` as the step `name`, printing its outcome; a throw counts as a failure. */
async function step(name, fn) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e?.message ?? e}`);
  }
}

/** Throws `message` unless `cond`. */
const expect = (cond, message) => {
  if (!cond) throw new Error(message);
};

/** Waits for messages in flight (the loader hook's, a rejected promise's). */
const settle = () => new Promise((r) => setTimeout(r, 50));

/**
 * renderToString of a component using useMcp and useMcpGroup (`hooks`) on a server: the HTML must
 * be the idle state and no fetch may happen. Returns useMcp's result, for later checks.
 */
async function renderIdle(React, renderToString, hooks) {
  let fetched = 0;
  let rendered;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (...args) => {
    fetched++;
    return realFetch(...args);
  };
  try {
    const App = () => {
      const one = hooks.useMcp("http://127.0.0.1:9/mcp");
      const group = hooks.useMcpGroup({ a: { url: "http://127.0.0.1:9/mcp" } });
      rendered = one;
      return React.createElement("p", null, `${one.state} ${one.tools === undefined} ${group.state} ${JSON.stringify(group.status)}`);
    };
    const html = renderToString(React.createElement(App));
    await settle();
    expect(html === "<p>idle true idle {}</p>", `rendered ${html}`);
    expect(fetched === 0, `${fetched} fetches during a server render`);
    return rendered;
  } finally {
    globalThis.fetch = realFetch;
  }
}

/** Exits the process: 1 when a step failed. */
const finish = () => process.exit(failed ? 1 : 0);

module.exports = { step, expect, settle, renderIdle, finish };
