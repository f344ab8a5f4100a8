// The clause overview in the pane: which kinds of clause the document has, grouped as the
// server groups them, and where each one found is (its paragraph's anchor).
//
// The server decides present / absent / uncertain (absent only when its model is confident);
// this module only orders and words what it says.

const STATUS_LABELS = { present: "found", absent: "absent", uncertain: "uncertain" };

/** A playbook key in words ("governing_law" -> "Governing law"); CUAD's names stay as they are. */
export function clauseLabel(clause) {
  if (clause.kind !== "playbook") return clause.category;
  const words = clause.category.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A probability as a percentage that never rounds to a certainty it does not have: "<1%", "42%", ">99%". */
export function percentLabel(probability) {
  if (probability > 0 && probability < 0.01) return "<1%";
  if (probability > 0.99 && probability < 1) return ">99%";
  return `${Math.round(probability * 100)}%`;
}

export function statusLabel(status) {
  return STATUS_LABELS[status] || status;
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
      statusLabel: statusLabel(clause.status),
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
