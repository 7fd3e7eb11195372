// What the packaging page tests share (lazy-parts.mjs, doc-examples.mjs, stored-token.mjs,
// first-download.mjs): approving the OAuth peer's consent page, and a test's end.
import { rm } from "node:fs/promises";
import { stopChildren } from "../e2e/lib.mjs";

/** Approves the OAuth peer's consent page in the sign-in popup (`popup`, the promise of it that
 *  context.waitForEvent("page") gave), `afterMs` after it showed; resolves once the popup closed. */
export async function approveConsent(popup, afterMs = 0) {
  const consent = await popup;
  await consent.waitForURL(/\/consent\?request_id=/, { timeout: 30_000 });
  if (afterMs) await new Promise((resolve) => setTimeout(resolve, afterMs));
  const closed = consent.waitForEvent("close", { timeout: 30_000 });
  await consent.locator("#approve").click();
  await closed;
}

/** Closes the page test's browser and static server, stops its peers (started with
 *  e2e/lib.mjs's start) and removes its site folder. */
export async function closeAll({ browser, server, site }) {
  await browser?.close();
  server?.close();
  stopChildren();
  await rm(site, { recursive: true, force: true });
}
