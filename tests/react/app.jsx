// The React test page: components using mcp-wasm-client/react, bundled by esbuild (run.mjs) with
// React 19. run.mjs drives it through window.mount(name, props) / window.unmount() and the
// rendered DOM (data-test attributes); window.seen records what the hooks returned.
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { flushSync } from "react-dom";
import { Client } from "mcp-wasm-client";
import { useMcp, useMcpGroup } from "mcp-wasm-client/react";
import { Tools as Readme } from "readme:example"; // the package README's example (run.mjs)

// Every object a hook returned, in render order (identity checks), and the states rendered.
window.seen = [];
window.states = [];

/** An elicitation answered from React: the callback shows a form and resolves from its buttons. */
function useElicitation() {
  const [asking, setAsking] = useState(null);
  const elicitationCallback = (ctx, params) =>
    new Promise((resolve) => setAsking({ params, server: ctx.server, resolve: (answer) => { setAsking(null); resolve(answer); } }));
  return [asking, elicitationCallback];
}

function ElicitationForm({ asking }) {
  const [name, setName] = useState("");
  return (
    <form data-test="elicitation" onSubmit={(e) => { e.preventDefault(); asking.resolve({ action: "accept", content: { name } }); }}>
      <p data-test="elicitation-message">{asking.params.message}</p>
      {asking.server && <p data-test="elicitation-server">{asking.server}</p>}
      <input data-test="elicitation-name" value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit" data-test="elicitation-accept">Accept</button>
      <button type="button" data-test="elicitation-decline" onClick={() => asking.resolve({ action: "decline" })}>Decline</button>
    </form>
  );
}

/** The name of the first listed tool that is `tool` (a group's merged list: `server__tool`). */
const named = (mcp, tool) => mcp.tools?.find((t) => t.name === tool || t.originalName === tool)?.name ?? tool;

/** What every scenario shows of a hook's result. */
function View({ mcp, children }) {
  const [result, setResult] = useState("");
  const [tick, setTick] = useState(0);
  window.seen.push(mcp);
  if (window.states.at(-1) !== mcp.state) window.states.push(mcp.state);
  window.current = mcp;
  const call = (name, args) => mcp.callTool(name, args).then(
    (r) => setResult(r.content.map((c) => c.text).join(" ")),
    (e) => setResult(`error: ${e.message}`),
  );
  return (
    <div>
      <p data-test="state">{mcp.state}</p>
      <p data-test="error">{mcp.error ? `${mcp.error.data?.kind ?? mcp.error.code}: ${mcp.error.message}` : ""}</p>
      <ul data-test="tools">{(mcp.tools ?? []).map((t) => <li key={t.name} data-test="tool">{t.name}</li>)}</ul>
      <ul data-test="prompts">{(mcp.prompts ?? []).map((p) => <li key={p.name} data-test="prompt">{p.name}</li>)}</ul>
      <ul data-test="resources">{(mcp.resources ?? []).map((r) => <li key={`${r.server ?? ""} ${r.uri}`} data-test="resource">{r.uri}</li>)}</ul>
      <button data-test="call-echo" onClick={() => call(named(mcp, "echo"), { text: "hello from React" })}>echo</button>
      <button data-test="call-card" onClick={() => call(named(mcp, "issue_card"), {})}>issue card</button>
      <button data-test="toggle-bonus" onClick={() => call(named(mcp, "toggle_bonus"), {})}>toggle bonus</button>
      <button data-test="tick" onClick={() => setTick(tick + 1)}>re-render ({tick})</button>
      <button data-test="retry" onClick={() => mcp.retry()}>retry</button>
      <p data-test="result">{result}</p>
      {children}
    </div>
  );
}

function One({ url, options = {} }) {
  const [asking, elicitationCallback] = useElicitation();
  const mcp = useMcp(url, { ...options, elicitationCallback });
  return <View mcp={mcp}>{asking && <ElicitationForm asking={asking} />}</View>;
}

function Given({ client }) {
  return <View mcp={useMcp(client)} />;
}

function Group({ servers }) {
  const [asking, elicitationCallback] = useElicitation();
  const mcp = useMcpGroup(servers, { toolNames: "prefix", elicitationCallback });
  return (
    <View mcp={mcp}>
      <p data-test="status">{Object.entries(mcp.status).map(([n, s]) => `${n}=${s}`).join(" ")}</p>
      {asking && <ElicitationForm asking={asking} />}
    </View>
  );
}

/** Sign-in (OAuth) through the hook: signIn from a click, authorization shown, signOut. */
function SignIn({ url }) {
  const mcp = useMcp(url, {
    auth: { clientMetadata: { client_name: "react test", redirect_uris: [`${location.origin}/callback.html`] } },
  });
  return (
    <View mcp={mcp}>
      <p data-test="authorization">{mcp.authorization ? mcp.authorization.issuer : "none"}</p>
      <button data-test="sign-in" onClick={() => mcp.signIn()}>Sign in</button>
      <button data-test="sign-out" onClick={() => mcp.signOut()}>Sign out</button>
    </View>
  );
}

/** No elicitationCallback: the hook's pendingRequests rendered as forms (issue 43). */
function Pending({ url, options = {} }) {
  const mcp = useMcp(url, options);
  const [sampled, setSampled] = useState("");
  const ask = () => mcp.callTool("ask_llm", { topic: "tea" }).then((r) => setSampled(r.content[0].text), (e) => setSampled(`error: ${e.message}`));
  return (
    <View mcp={mcp}>
      <p data-test="pending-count">{mcp.pendingRequests.length}</p>
      <button data-test="call-llm" onClick={ask}>ask the model</button>
      <p data-test="sampled">{sampled}</p>
      {mcp.pendingRequests.map((r) =>
        r.kind === "elicitation" ? <PendingForm key={r.id} request={r} /> : (
          <section key={r.id} data-test="sampling" aria-label="The server asks your model">
            <p>{r.params.messages[0]?.content?.text}</p>
            <button data-test="sampling-answer" onClick={() => r.respond({ role: "assistant", content: { type: "text", text: "roses" }, model: "react-ui" })}>Answer</button>
            <button data-test="sampling-decline" onClick={r.decline}>Decline</button>
          </section>
        ))}
    </View>
  );
}

function PendingForm({ request }) {
  const [name, setName] = useState("");
  return (
    <form data-test="pending" aria-label={request.params.message} onSubmit={(e) => { e.preventDefault(); request.respond({ action: "accept", content: { name } }); }}>
      <label>{request.params.message} <input data-test="pending-name" value={name} onChange={(e) => setName(e.target.value)} /></label>
      <button type="submit" data-test="pending-accept">Accept</button>
      <button type="button" data-test="pending-decline" onClick={request.decline}>Decline</button>
    </form>
  );
}

const SCENARIOS = { One, Given, Group, Readme, SignIn, Pending };
let root = null;
let host = null;

/** Renders SCENARIOS[name] with props (strict: inside <StrictMode>) in a fresh root. */
window.mount = (name, props, strict = false) => {
  window.unmount();
  window.seen = [];
  window.states = [];
  host = document.createElement("div");
  host.dataset.test = "root";
  document.body.append(host);
  root = createRoot(host);
  const element = (() => { const C = SCENARIOS[name]; return <C {...props} />; })();
  flushSync(() => root.render(strict ? <StrictMode>{element}</StrictMode> : element));
};
window.unmount = () => {
  if (!root) return;
  flushSync(() => root.unmount());
  host.remove();
  root = null;
};
window.makeClient = (url) => new Client(url);
window.ready = true;
