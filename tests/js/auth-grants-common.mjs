// What the grant tests share (auth-grants.test.mjs, auth-jwt-bearer.test.mjs, auth-dpop.test.mjs,
// auth-grants-arguments.test.mjs): the package's exports they use, keys (PEM and WebCrypto), and the
// harness of auth-harness.mjs with the checks on what the world saw.
import assert from "node:assert/strict";
import { generateKeyPairSync, KeyObject } from "node:crypto";
import { pkg } from "./peers.mjs";
import { scenarios } from "./auth-harness.mjs";

export const { Client, McpError, authorizeHeadless, memoryStorage, idJagAssertion } = pkg;

export const REDIRECT = "http://127.0.0.1/callback";
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const subtle = globalThis.crypto.subtle;

// ---- keys ----------------------------------------------------------------------------------------

/** A PKCS#8 PEM private key and its node:crypto public key. */
export function pemPair(kind) {
  const { privateKey, publicKey } =
    kind === "ES256"
      ? generateKeyPairSync("ec", { namedCurve: "P-256" })
      : generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { pem: privateKey.export({ type: "pkcs8", format: "pem" }), publicKey };
}

/** A non-extractable ES256 CryptoKey pair (WebCrypto) and its public key as a KeyObject. */
export async function cryptoKeyPair() {
  const pair = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
  return { pair, publicKey: KeyObject.from(pair.publicKey) };
}

/** The lines of a PEM body: each is a secret that must not show anywhere. */
export const pemLines = (pem) => pem.split("\n").filter((l) => l && !l.startsWith("-----"));

// ---- the harness (auth-harness.mjs) -------------------------------------------------------------

// Clients get the auth option as given: no redirectUri, no authorize function.
export const scenario = scenarios();

export const form = (r) => new URLSearchParams(r.body);
export const tokenPosts = (world) => world.requests("/as/token");
export const okTokens = (world) => world.tokenRequests.filter((r) => r.status === 200);
export const calls = (world, method = "tools/call") => world.mcp().filter((r) => r.rpc === method);
/** Nothing refused by the world but stale or missing nonces (those are asserted where wanted). */
export const noFailures = (world) =>
  assert.deepEqual(world.failures.filter((f) => !/: nonce /.test(f)), [], "the world refused something");

/** The grant's sign-in made no use of the user flow: no registration, no authorization page. */
export function noUserFlow(world) {
  assert.equal(world.count((r) => r.path.endsWith("/register")), 0, "no registration");
  assert.equal(world.count((r) => r.path.endsWith("/authorize")), 0, "no authorization page");
}
