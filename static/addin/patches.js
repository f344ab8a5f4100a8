// Patch ordering: which suggestions may be applied, and in what order.
//
// A patch replaces its anchored paragraph with the server's copy of that
// paragraph plus the suggestion, so a second patch on the same paragraph would
// drop the first one's changes (and its comment). One patch per paragraph per
// review; the next review gives fresh patches that include what was applied.

/**
 * Why a suggestion cannot be applied now, or "" when it can.
 *
 * @param {object} suggestion from the suggestions list ({pk, anchor, patch, patch_status}).
 * @param {{anchors: Map<string, object>, applied: Set<number>, touched: Set<string>}} state
 */
export function blockedReason(suggestion, { anchors, applied, touched }) {
  if (applied.has(suggestion.pk)) return "Already applied.";
  if (!suggestion.patch) return "This suggestion cannot be applied automatically; make the change by hand.";
  if (!anchors.has(suggestion.anchor)) return "Its paragraph is no longer in the document. Review again.";
  if (touched.has(suggestion.anchor)) {
    return "Another suggestion was applied to this paragraph. Review again to apply this one on top of it.";
  }
  return "";
}

/**
 * Plan "Apply all": the applicable suggestions in document order, at most one per
 * paragraph (the most severe, then the earliest), and the rest with their reason.
 *
 * @param {object[]} suggestions
 * @param {{anchors: Map<string, {index: number}>, applied: Set<number>, touched: Set<string>}} state
 * @returns {{apply: object[], skip: {suggestion: object, reason: string}[]}}
 */
export function planApplyAll(suggestions, state) {
  const rank = { critical: 0, major: 1, minor: 2 };
  const ordered = [...suggestions].sort((a, b) => {
    const ia = state.anchors.get(a.anchor)?.index ?? Number.MAX_SAFE_INTEGER;
    const ib = state.anchors.get(b.anchor)?.index ?? Number.MAX_SAFE_INTEGER;
    return ia - ib || (rank[a.severity] ?? 3) - (rank[b.severity] ?? 3) || (a.position ?? 0) - (b.position ?? 0);
  });
  const touched = new Set(state.touched);
  const apply = [];
  const skip = [];
  for (const suggestion of ordered) {
    if (state.applied.has(suggestion.pk)) continue;
    const reason = blockedReason(suggestion, { ...state, touched });
    if (reason) {
      skip.push({ suggestion, reason });
    } else {
      apply.push(suggestion);
      touched.add(suggestion.anchor);
    }
  }
  return { apply, skip };
}
