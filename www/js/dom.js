// DOM helpers: the page's fixed elements, an element builder, and text formatting.

const $ = (sel) => document.querySelector(sel);

/** The fixed elements of index.html, by role. */
export const el = {
  form: $("#connect-form"),
  url: $("#url"),
  mode: $("#mode"),
  connect: $("#connect"),
  auth: $("#auth"),
  dpop: $("#dpop"),
  authCard: $("#auth-card"),
  authMode: $("#auth-mode"),
  authState: $("#auth-state"),
  signOut: $("#sign-out"),
  workerCall: $("#worker-call"),
  disconnect: $("#disconnect"),
  status: $("#status"),
  instructions: $("#instructions"),
  tools: $("#tools"),
  servers: $("#servers"),
  serversCard: $("#servers-card"),
  toolTitle: $("#tool-title"),
  toolDescription: $("#tool-description"),
  args: $("#args"),
  fields: $("#fields"),
  call: $("#call"),
  transcript: $("#transcript"),
  clear: $("#clear"),
  roots: $("#roots"),
  rootForm: $("#root-form"),
  rootUri: $("#root-uri"),
  rootName: $("#root-name"),
  rootError: $("#root-error"),
  samplingDialog: $("#sampling-dialog"),
  samplingTitle: $("#sampling-title"),
  samplingRequest: $("#sampling-request"),
  samplingReply: $("#sampling-reply"),
  samplingModel: $("#sampling-model"),
  samplingError: $("#sampling-error"),
  samplingApprove: $("#sampling-approve"),
  samplingReject: $("#sampling-reject"),
  urlDialog: $("#url-dialog"),
  urlTitle: $("#url-title"),
};

/** Creates an element: h("div", { class: "x", text: "hi" }, child, ...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null && c !== false) node.append(c);
  return node;
}

/** JSON, indented for a <pre>. */
export const pretty = (v) => JSON.stringify(v, null, 2);

/** The first line of a (trimmed) text. */
export const firstLine = (s) => String(s).trim().split("\n")[0];
