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

/** Exits the process: 1 when a step failed. */
const finish = () => process.exit(failed ? 1 : 0);

module.exports = { step, expect, settle, finish };
