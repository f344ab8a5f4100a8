// Result grouping and wording: what the lawyer reads in the pane.
//
// Results are grouped by severity (most severe first), then by rule, and listed
// in document order inside a rule, so the pane reads like the contract does.

export const SEVERITIES = ["critical", "major", "minor"];

const SEVERITY_LABELS = { critical: "Critical", major: "Major", minor: "Minor" };
const KIND_LABELS = {
  comment: "Comment",
  replace: "Replace",
  rewrite: "Rewrite",
  insert: "Insert clause",
  delete: "Delete",
};
const VERDICT_LABELS = { PASS: "Passes", WARN: "Has warnings", FAIL: "Fails" };

function severityRank(severity) {
  const i = SEVERITIES.indexOf(severity);
  return i === -1 ? SEVERITIES.length : i;
}

export function severityLabel(severity) {
  return SEVERITY_LABELS[severity] || "Other";
}

export function kindLabel(kind) {
  return KIND_LABELS[kind] || kind;
}

/** The validator's verdict in plain words, e.g. "Fails (90% confident)"; "" when not validated. */
export function verdictLabel(validation) {
  if (!validation || !validation.status) return "";
  const label = VERDICT_LABELS[validation.status] || validation.status;
  const confidence = typeof validation.confidence === "number" ? ` (${Math.round(validation.confidence * 100)}% confident)` : "";
  return label + confidence;
}

function words(text) {
  return String(text || "").trim().replace(/\s+/g, " ").toLowerCase();
}

/** True when an issue says nothing the comment does not: its words, or its words after a "Title: " lead-in, are in it. */
function repeatsComment(key, comment) {
  if (!comment) return false;
  const body = key.includes(": ") ? key.slice(key.indexOf(": ") + 2) : key;
  return comment.includes(key) || (body.length > 20 && comment.includes(body));
}

/** The validator's reasons, once each, leaving out any that only repeat the suggestion's own comment. */
export function validationIssues(suggestion) {
  const comment = words(suggestion.comment);
  const seen = new Set();
  const out = [];
  for (const issue of (suggestion.validation && suggestion.validation.issues) || []) {
    const text = String(issue.description || "").trim();
    const key = words(text);
    if (!key || repeatsComment(key, comment) || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

/**
 * What to know before applying a suggestion the validator did not pass; "" when it passed
 * (or was not validated). The reasons themselves are validationIssues().
 */
export function validationCaution(suggestion) {
  const status = suggestion.validation && suggestion.validation.status;
  if (status !== "FAIL" && status !== "WARN") return "";
  const lead = status === "FAIL"
    ? "Check before applying: the validator found problems with this suggestion."
    : "Check before applying: the validator has doubts about this suggestion.";
  return validationIssues(suggestion).length
    ? lead
    : `${lead} It gave no details, so compare the proposal with the contract yourself.`;
}

/**
 * Where a result sits in the document: its paragraph's index, then the server's order.
 * Results on paragraphs the pane cannot find sort last.
 */
export function documentOrder(suggestion, anchors) {
  const found = anchors.get(suggestion.anchor);
  return [found ? found.index : Number.MAX_SAFE_INTEGER, suggestion.position ?? 0];
}

function compareOrder(a, b) {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * Group results for display.
 *
 * @param {object[]} suggestions as the API (or the stream) reports them.
 * @param {Map<string, {index: number}>} anchors anchor -> paragraph (see anchors.js).
 * @param {Map<string, object>} rules rule key -> {title, guidance} (may lack keys).
 * @returns {{severity, label, count, rules: {key, title, guidance, items}[]}[]}
 */
export function groupResults(suggestions, anchors, rules = new Map()) {
  const ordered = suggestions
    .map((s, i) => ({ s, order: documentOrder({ ...s, position: s.position ?? i }, anchors) }))
    .sort((a, b) => compareOrder(a.order, b.order));
  const bySeverity = new Map();
  for (const { s, order } of ordered) {
    if (!bySeverity.has(s.severity)) bySeverity.set(s.severity, new Map());
    const byRule = bySeverity.get(s.severity);
    if (!byRule.has(s.rule)) {
      const rule = rules.get(s.rule) || {};
      byRule.set(s.rule, { key: s.rule, title: rule.title || s.rule_title || s.rule, guidance: rule.guidance || "", first: order, items: [] });
    }
    byRule.get(s.rule).items.push(s);
  }
  return [...bySeverity.entries()]
    .sort(([a], [b]) => severityRank(a) - severityRank(b))
    .map(([severity, byRule]) => {
      const groups = [...byRule.values()].sort((a, b) => compareOrder(a.first, b.first));
      return {
        severity,
        label: severityLabel(severity),
        count: groups.reduce((n, g) => n + g.items.length, 0),
        rules: groups.map(({ key, title, guidance, items }) => ({ key, title, guidance, items })),
      };
    });
}
