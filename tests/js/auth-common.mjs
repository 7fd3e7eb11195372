// What the auth.test.mjs files share (auth.test.mjs, auth-tokens.test.mjs, auth-popup-storage.test.mjs,
// auth-arguments.test.mjs, auth-peer.test.mjs): the package's auth exports, the client metadata, and
// the harness of auth-harness.mjs set up for them (headless sign-in unless a test passes auth: null).
import assert from "node:assert/strict";
import { pkg } from "./peers.mjs";
import { scenarios } from "./auth-harness.mjs";

export const {
  Client,
  McpError,
  authorizeHeadless,
  authorizeWithPopup,
  authorizeWithRedirect,
  completeAuthorizationPopup,
  memoryStorage,
  webStorage,
  indexedDbStorage,
} = pkg;

export const REDIRECT = "http://127.0.0.1/callback";
export const CLIENT_METADATA = { client_name: "auth.test.mjs", redirect_uris: [REDIRECT] };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- the harness (auth-harness.mjs) -------------------------------------------------------------

// Clients get the auth option with headless sign-in and this client metadata unless a
// test passes auth: null.
export const scenario = scenarios({
  requireSecrets: true,
  options: ({ auth, ...rest }) => ({
    ...rest,
    ...(auth === null ? {} : { auth: { clientMetadata: CLIENT_METADATA, authorize: authorizeHeadless(), ...auth } }),
  }),
});

export const bearerOf = (r) => /^Bearer (.+)$/.exec(r.headers.authorization ?? "")?.[1];
export const rpcs = (world, method) => world.mcp().filter((r) => r.rpc === method);
/** Waits until `pred()` holds (polling), failing after `ms`. */
export async function until(pred, what, ms = 5000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
