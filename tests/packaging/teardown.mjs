// The end of a packaging page test (lazy-parts.mjs, doc-examples.mjs, stored-token.mjs).
import { rm } from "node:fs/promises";
import { stopChildren } from "../e2e/lib.mjs";

/** Closes the page test's browser and static server, stops its peers (started with
 *  e2e/lib.mjs's start) and removes its site folder. */
export async function closeAll({ browser, server, site }) {
  await browser?.close();
  server?.close();
  stopChildren();
  await rm(site, { recursive: true, force: true });
}
