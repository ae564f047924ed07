// The rule each issue code enforces, for the inspector's issue lines: the package's `rules()`
// table (code → TASKS-SPEC reference and summary; one source of truth, src/validate/rules.rs)
// shown next to the code as "§D 50", with the rule's text as a tooltip and, for screen readers,
// as text in the line itself (a title alone is not read out reliably). The table comes from the
// page's modules that load the package (live.js in the page, the transcript worker).

/** code → { spec, summary } */
const table = new Map();

/** Takes the rows of `rules()` (once is enough; later calls replace them). */
export function setRules(rows) {
  table.clear();
  for (const r of Array.isArray(rows) ? rows : []) if (r && typeof r.code === "string") table.set(r.code, r);
}

/** "§D 35, 86" for a §D rule list ("35, 86"), the section or area as it is written otherwise. */
export function ruleRef(spec) {
  return /^\d/.test(spec) ? `§D ${spec}` : spec;
}

/**
 * The element that names the rule of issue code `code` (null for a code the table lacks, such as
 * the page's own "inspector" code).
 */
export function ruleNode(code) {
  const r = table.get(code);
  if (!r) return null;
  const el = document.createElement("span");
  el.className = "issue-rule";
  el.title = r.summary;
  el.dataset.spec = r.spec;
  const hidden = document.createElement("span");
  hidden.className = "visually-hidden";
  hidden.textContent = `: ${r.summary}`;
  el.append(ruleRef(r.spec), hidden);
  return el;
}
