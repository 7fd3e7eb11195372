// A browser engine through its own W3C WebDriver server (selenium-webdriver's client; the
// drivers are started here, so selenium-manager never runs): Firefox ESR through geckodriver,
// WebKitGTK's MiniBrowser through WebKitWebDriver (needs a display: run under xvfb-run), and
// Chromium through chromedriver (the same steps where the Playwright suites run in full).
import fs from "node:fs";
import path from "node:path";
import { Builder, By, until } from "selenium-webdriver";
import { start, waitAnswering } from "../e2e/lib.mjs";

const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/** Per engine: the driver command (given its port) and the session's capabilities. */
const ENGINES = {
  firefox: {
    driver: (port) => ["geckodriver", ["--host", "127.0.0.1", "--port", String(port)]],
    capabilities: {
      browserName: "firefox",
      "moz:firefoxOptions": {
        binary: process.env.FIREFOX ?? "/usr/bin/firefox-esr",
        args: ["-headless", "--width=1100", "--height=800"],
      },
    },
  },
  webkit: {
    driver: (port) => ["WebKitWebDriver", [`--port=${port}`]],
    capabilities: {
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": { binary: process.env.MINIBROWSER ?? MINIBROWSER, args: ["--automation"] },
    },
  },
  chromium: {
    driver: (port) => ["chromedriver", [`--port=${port}`]],
    capabilities: {
      browserName: "chrome",
      "goog:chromeOptions": {
        binary: process.env.CHROMIUM ?? "/usr/bin/chromium",
        args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,800",
          "--disable-background-networking", "--disable-component-update", "--disable-quic", "--no-first-run"],
      },
    },
  },
};
export const ENGINE_NAMES = Object.keys(ENGINES);

/** Why `engine` cannot run on this machine (its driver or browser missing), or null. */
export function missing(engine) {
  const spec = ENGINES[engine];
  if (!spec) return `unknown engine "${engine}" (known: ${ENGINE_NAMES.join(", ")})`;
  const [cmd] = spec.driver(0);
  const onPath = (c) => (process.env.PATH ?? "").split(":").some((d) => fs.existsSync(path.join(d, c)));
  if (!onPath(cmd)) return `${cmd} is not on PATH (bash scripts/setup.sh installs it)`;
  if (engine === "webkit" && !process.env.DISPLAY) return "MiniBrowser needs a display: run under xvfb-run -a";
  return null;
}

/** Starts `engine`'s driver on `port` and opens a session; returns a Page over it. */
export async function openEngine(engine, port) {
  const spec = ENGINES[engine];
  const [cmd, args] = spec.driver(port);
  const child = start(`${engine} driver`, cmd, args);
  await waitAnswering(`http://127.0.0.1:${port}/status`, child, 30_000);
  const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities(spec.capabilities).build();
  await driver.manage().setTimeouts({ script: 20_000, pageLoad: 30_000 });
  try { await driver.manage().window().setRect({ width: 1100, height: 800 }); } catch { /* headless Firefox sizes by args */ }
  return new Page(engine, driver, child);
}

/** The few page operations the steps use, by CSS selector, each bounded by `ms`. */
export class Page {
  constructor(engine, driver, child) {
    this.engine = engine;
    this.driver = driver;
    this.child = child;
  }
  goto(url) { return this.driver.get(url); }
  /** The element `css` matches, once it is in the document. */
  find(css, ms = 10_000) { return this.driver.wait(until.elementLocated(By.css(css)), ms, `no ${css} within ${ms} ms`); }
  all(css) { return this.driver.findElements(By.css(css)); }
  async count(css) { return (await this.all(css)).length; }
  async text(css) { return (await this.find(css)).getText(); }
  async click(css) { await this.press(await this.find(css)); }
  /** A real click on `el`, scrolled to the middle of the viewport first (the demo's sticky bars
   *  cover the edges, and WebDriver refuses a click that would land on them). */
  async press(el) {
    await this.driver.executeScript('arguments[0].scrollIntoView({ block: "center", inline: "center" })', el);
    await el.click();
  }
  async fill(css, value) {
    const el = await this.find(css);
    await el.clear();
    await el.sendKeys(String(value));
  }
  /** Runs `fn` (its source) in the page with `args`; resolves to what it returns (or resolves to). */
  evaluate(fn, ...args) {
    return this.driver.executeAsyncScript(
      `const done = arguments[arguments.length - 1];
       Promise.resolve((${fn}).apply(null, Array.prototype.slice.call(arguments, 0, -1)))
         .then((v) => done({ ok: v }), (e) => done({ error: String(e && e.stack || e) }));`,
      ...args,
    ).then((r) => {
      if (r && "error" in r) throw new Error(`in the page: ${r.error}`);
      return r?.ok;
    });
  }
  /** Polls `fn` in the page until it returns a truthy value (which it resolves to). */
  waitFor(fn, ms = 10_000, what = String(fn), ...args) {
    return this.driver.wait(async () => (await this.driver.executeScript(`return (${fn}).apply(null, arguments)`, ...args)) || false, ms,
      `not within ${ms} ms: ${what}`);
  }
  /** The element the page-side function `fn` returns (it may reach into shadow roots). */
  async element(fn) {
    const el = await this.driver.executeScript(`return (${fn})()`);
    if (!el) throw new Error(`no element: ${fn}`);
    return el;
  }
  /** Switches into the iframe the page-side function `fn` returns (it may reach into shadow roots). */
  async enterFrame(fn) {
    await this.driver.switchTo().frame(await this.element(fn));
  }
  leaveFrames() { return this.driver.switchTo().defaultContent(); }
  async screenshot(file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(await this.driver.takeScreenshot(), "base64"));
  }
  async close() {
    try { await this.driver.quit(); } catch { /* the session is gone already */ }
    try { process.kill(this.child.pid, "SIGTERM"); } catch { /* the driver is gone already */ }
  }
}
