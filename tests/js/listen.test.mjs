// client.listen(): change notifications as an async iterable, on both eras.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pkg, PY, EVERYTHING, rejection } from "./peers.mjs";

const { Client } = pkg;

async function connected(url, options = {}) {
  const c = new Client(url, options);
  await c.connect();
  return c;
}

test("2026 (Python): acknowledged filter, list_changed and resource updates, close ends the iteration", async () => {
  const c = await connected(PY);
  assert.equal(c.era, "modern");
  const sub = await c.listen({ toolsListChanged: true, resourceSubscriptions: ["demo://hello"] });
  assert.equal(sub.honoured.toolsListChanged, true);
  assert.deepEqual(sub.honoured.resourceSubscriptions, ["demo://hello"]);
  await c.callTool("poke", { kind: "tools" });
  await c.callTool("poke", { kind: "updated", uri: "demo://hello" });
  const got = [];
  for await (const n of sub) {
    got.push(n);
    if (got.length === 2) break; // break calls return(), which closes the stream
  }
  assert.deepEqual(got.map((n) => n.method), ["notifications/tools/list_changed", "notifications/resources/updated"]);
  assert.equal(got[1].params.uri, "demo://hello");
  assert.deepEqual(await sub.next(), { done: true, value: undefined });
  await c.close();
});

test("2026: a notification the filter did not ask for is not delivered", async () => {
  const c = await connected(PY);
  const sub = await c.listen({ promptsListChanged: true });
  await c.callTool("poke", { kind: "tools" });
  await c.callTool("poke", { kind: "prompts" });
  const first = await sub.next();
  assert.equal(first.value.method, "notifications/prompts/list_changed");
  await sub.close();
  await c.close();
});

test("legacy (server-everything): resource subscriptions through the same API", async () => {
  const c = await connected(EVERYTHING);
  assert.equal(c.era, "legacy");
  const { resources } = await c.listResources();
  const uri = resources[0].uri;
  const sub = await c.listen({ resourceSubscriptions: [uri] });
  assert.deepEqual(sub.honoured.resourceSubscriptions, [uri]);
  await c.callTool("toggle-subscriber-updates", {});
  const first = await sub.next();
  await c.callTool("toggle-subscriber-updates", {});
  assert.equal(first.value.method, "notifications/resources/updated");
  assert.equal(first.value.params.uri, uri);
  await sub.close();
  assert.equal((await sub.next()).done, true);
  await c.close();
});

test("a filter that asks for nothing, or the wrong types, is refused", async () => {
  const c = await connected(PY);
  assert.match((await rejection(c.listen({}))).message, /asks for nothing/);
  assert.match((await rejection(c.listen({ toolsListChanged: "yes" }))).message, /must be a boolean/);
  await c.close();
});
