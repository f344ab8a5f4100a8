// The clause overview in the pane: which kinds of clause the document has, grouped as the
// server groups them, and where each one found is (its paragraph's anchor).
//
// The server decides present / absent / not sure (absent only when its model is confident) and
// words each category and state; this module only orders what it says.

/** The category in the server's words ("IP ownership assignment"); its key when the server sent none. */
export function clauseLabel(clause) {
  return clause.label || clause.category;
}

/** A probability as a percentage that never rounds to a certainty it does not have: "<1%", "42%", ">99%". */
export function percentLabel(probability) {
  if (probability > 0 && probability < 0.01) return "<1%";
  if (probability > 0.99 && probability < 1) return ">99%";
  return `${Math.round(probability * 100)}%`;
}

/** The status in the server's words ("not sure"). */
export function statusLabel(clause) {
  return clause.status_label || clause.status;
}

/** The map's legend: each state the server names, with what it means, in the server's order. */
export function clauseLegend(overview) {
  const meanings = (overview && overview.status_meanings) || {};
  const labels = new Map(((overview && overview.clauses) || []).map((c) => [c.status, statusLabel(c)]));
  return Object.entries(meanings).map(([status, meaning]) => ({ status, label: labels.get(status) || status.replace(/_/g, " "), meaning }));
}

/**
 * Group the API's clauses for display: groups in the order they first appear, categories in
 * the server's order within a group.
 *
 * @param {{clauses: object[]}} overview GET /documents/{id}/clauses
 * @returns {{name: string, found: number, rows: {category, kind, label, status, statusLabel, percent, anchor, quote}[]}[]}
 */
export function clauseGroups(overview) {
  const groups = new Map();
  for (const clause of (overview && overview.clauses) || []) {
    if (!groups.has(clause.group)) groups.set(clause.group, { name: clause.group, found: 0, rows: [] });
    const group = groups.get(clause.group);
    const present = clause.status === "present";
    if (present) group.found += 1;
    const best = (clause.quotes || [])[0];
    group.rows.push({
      category: clause.category,
      kind: clause.kind,
      label: clauseLabel(clause),
      status: clause.status,
      statusLabel: statusLabel(clause),
      percent: percentLabel(clause.probability),
      anchor: present ? (clause.anchors || [])[0] || null : null,
      quote: best ? best.text : "",
    });
  }
  return [...groups.values()];
}

/** One line about the overview: "12 of 41 kinds of clause found." (CUAD's categories only). */
export function clauseSummary(overview) {
  const cuad = ((overview && overview.clauses) || []).filter((c) => c.kind === "cuad");
  const found = cuad.filter((c) => c.status === "present").length;
  return `${found} of ${cuad.length} kinds of clause found.`;
}
