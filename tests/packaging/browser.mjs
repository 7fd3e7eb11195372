// The one Chromium launch of the packaging pages (matrix.mjs, no-tla.mjs, first-download.mjs):
// Debian's chromium through playwright-core (never a downloaded browser), headless, with the flags
// this machine's closed network needs.

/** Debian's chromium (or $CHROMIUM), headless; playwright-core is imported here, when first used. */
export async function launchChromium() {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--disable-quic", "--no-first-run"],
  });
}
