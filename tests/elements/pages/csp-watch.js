// Records every Content-Security-Policy violation on the page, before any module runs
// (tests/elements/form.mjs reads window.cspViolations).
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push(`${e.violatedDirective}: ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
});
