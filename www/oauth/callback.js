// The sign-in callback page (the redirect URI registered by the demo, see js/auth-options.js).
//
// Popup mode: completeAuthorizationPopup() hands this URL (code, state, iss) to the page that
// opened the popup (BroadcastChannel and postMessage, same origin only) and closes the window.
// Redirect mode (?auth=redirect on the demo): the demo left a note in sessionStorage before it
// navigated away; a client with the same URL and auth options redeems the code with
// finishAuthorization(location.href), and the browser goes back to the demo, which connects
// with the stored token.
import { init, Client, completeAuthorizationPopup } from "../js/pkg.js";
import { REDIRECT_KEY, authOptions } from "../js/auth-options.js";

const box = document.getElementById("callback");
const text = document.getElementById("callback-text");
const back = document.getElementById("back");

function show(state, message, backHref) {
  box.dataset.state = state;
  text.textContent = message;
  if (backHref) {
    back.href = backHref;
    back.hidden = false;
  }
}

async function main() {
  await init();
  const raw = sessionStorage.getItem(REDIRECT_KEY);
  if (!raw) {
    // Popup mode.
    if (completeAuthorizationPopup()) show("done", "Signed in: this window closes by itself.");
    else show("error", "This page finishes a sign-in started by the demo, but no demo page is waiting for it.", "../");
    return;
  }
  const note = JSON.parse(raw);
  sessionStorage.removeItem(REDIRECT_KEY); // the demo writes it again when it connects in redirect mode
  const returnTo = note.returnTo ?? "../";
  const client = new Client(note.url, { mode: note.mode, auth: authOptions({ mode: "redirect", asProxy: note.asProxy, dpop: note.dpop }) });
  try {
    await client.finishAuthorization(location.href);
  } catch (err) {
    const kind = err?.data?.kind ? ` [${err.data.kind}]` : "";
    show("error", `Sign-in failed${kind}: ${err?.message ?? err}`, returnTo.replace(/([?&])autoconnect=1&?/, "$1"));
    return;
  }
  show("done", "Signed in: returning to the demo…", returnTo);
  // replace(): the callback URL (a used code) does not stay in the history.
  location.replace(returnTo);
}

main().catch((err) => show("error", `Sign-in failed: ${err?.message ?? err}`, "../"));
