// Patch planning: which suggestions may be applied, grouped into one request per paragraph.
//
// A patch replaces its whole paragraph, so suggestions on one paragraph are never
// stacked: the pane asks the server for ONE patch holding every suggestion that
// paragraph should now have (those applied before plus the new ones), built by the
// same writer as redline.docx (POST /api/runs/{id}/patches). Any subset, in any
// order, therefore reads as that file does. What was applied to each paragraph is
// kept here as a "paragraph record": the suggestion ids in it, the texts Word
// reported right after the insert (the next drift check compares with these), and
// how many new paragraphs (an inserted clause) the patch put before and after it.

/**
 * Why a suggestion cannot be applied now, or "" when it can.
 *
 * @param {object} suggestion from the suggestions list ({pk, anchor, patch}).
 * @param {{anchors: Map<string, object>, applied: Set<number>}} state
 */
export function blockedReason(suggestion, { anchors, applied }) {
  if (applied.has(suggestion.pk)) return "Already applied.";
  if (!suggestion.patch) return "This suggestion cannot be applied automatically; make the change by hand.";
  if (!anchors.has(suggestion.anchor)) return "Its paragraph is no longer in the document. Review again.";
  return "";
}

/**
 * Plan applying several suggestions ("Apply all" for the run, a severity or a clause):
 * one group per paragraph, in document order, and the ones left out with their reason.
 *
 * @param {object[]} suggestions the ones in scope.
 * @param {{anchors: Map<string, {index: number}>, applied: Set<number>}} state
 * @returns {{groups: {anchor: string, add: object[]}[], skip: {suggestion: object, reason: string}[]}}
 */
export function planApply(suggestions, state) {
  const byAnchor = new Map();
  const skip = [];
  for (const suggestion of suggestions) {
    if (state.applied.has(suggestion.pk)) continue;
    const reason = blockedReason(suggestion, state);
    if (reason) {
      skip.push({ suggestion, reason });
      continue;
    }
    if (!byAnchor.has(suggestion.anchor)) byAnchor.set(suggestion.anchor, []);
    byAnchor.get(suggestion.anchor).push(suggestion);
  }
  const groups = [...byAnchor.entries()]
    .map(([anchor, add]) => ({ anchor, add }))
    .sort((a, b) => state.anchors.get(a.anchor).index - state.anchors.get(b.anchor).index);
  return { groups, skip };
}

/**
 * Which suggestions an "Apply all" button covers, from its data attributes:
 * `{scope: "severity", value: "critical"}` or `{scope: "rule", value: rule key}` (a clause's rule).
 */
export function inScope({ scope, value }) {
  if (scope === "severity") return (s) => s.severity === value;
  if (scope === "rule") return (s) => s.rule === value;
  throw new Error(`unknown apply-all scope ${scope}`);
}

/**
 * The request for one paragraph's composed patch: every suggestion it should hold after this step.
 *
 * @param {string} anchor
 * @param {object[]} add the suggestions to apply now.
 * @param {Map<string, {ids: string[]}>} records anchor -> what was applied there before.
 */
export function composeRequest(anchor, add, records) {
  const before = records.get(anchor)?.ids ?? [];
  return { anchor, suggestions: [...new Set([...before, ...add.map((s) => s.id)])] };
}

/**
 * The span of the document the next patch of `anchor` replaces, and the texts it must read
 * (the drift check): the paragraph as analysed until something was applied, then what Word
 * reported after the last patch, with the paragraphs that patch inserted around it.
 *
 * @returns {{before: number, after: number, texts: string[]}}
 */
export function currentSpan(anchor, records, anchors) {
  const record = records.get(anchor);
  if (record) return { before: record.before, after: record.after, texts: record.texts };
  return { before: 0, after: 0, texts: [anchors.get(anchor).text] };
}

/**
 * Read the server's answer for the suggestions applied now.
 *
 * A suggestion applied earlier must still be in the composed paragraph: if one
 * of the new ones would push it out (their changes overlap), nothing is inserted.
 *
 * @param {{patch: string|null, results: {id, status, message}[]}} response
 * @param {object[]} add the suggestions asked for now.
 * @returns {{insert: boolean, applied: object[], skipped: {suggestion: object, reason: string}[]}}
 */
export function readCompose(response, add) {
  const byId = new Map(response.results.map((r) => [r.id, r]));
  const asked = new Set(add.map((s) => s.id));
  const lost = response.results.filter((r) => !asked.has(r.id) && r.status !== "applied");
  if (lost.length) {
    const reason = "This change overlaps a suggestion already applied to this paragraph, so it cannot be added to it. Nothing was changed.";
    return { insert: false, applied: [], skipped: add.map((suggestion) => ({ suggestion, reason })) };
  }
  const applied = add.filter((s) => byId.get(s.id)?.status === "applied");
  const skipped = add
    .filter((s) => byId.get(s.id)?.status !== "applied")
    .map((suggestion) => ({
      suggestion,
      reason: `This suggestion no longer fits its paragraph: ${byId.get(suggestion.id)?.message || "it could not be applied"}`,
    }));
  return { insert: Boolean(response.patch) && applied.length > 0, applied, skipped };
}
