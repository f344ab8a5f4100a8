// Applying suggestions to one paragraph: ask for the composed patch, check, insert.
//
// The decisions are patches.js's (what to ask for, what the answer means) and
// drift.js's; Word access is word.js's. This module only runs the steps in order
// and keeps the paragraph's record up to date, so the next suggestion applied to
// the same paragraph is composed with the ones already in it.

import { composeRequest, currentSpan, readCompose } from "./patches.js";
import * as word from "./word.js";

/**
 * Apply `add` (suggestions on `anchor`'s paragraph) on top of what that paragraph already holds.
 *
 * @param {{api: object, runId: number, anchor: string, add: object[],
 *          records: Map<string, object>, anchors: Map<string, object>}} args
 *   records: anchor -> {ids, texts, before, after}, updated when the patch went in.
 * @returns {Promise<{applied: object[], skipped: {suggestion: object, reason: string}[]}>}
 */
export async function applyToParagraph({ api, runId, anchor, add, records, anchors }) {
  const response = await api.post(`/runs/${runId}/patches`, composeRequest(anchor, add, records));
  const outcome = readCompose(response, add);
  if (!outcome.insert) return { applied: [], skipped: outcome.skipped };
  const next = { before: response.before, after: response.after };
  const result = await word.applyPatch({ anchor, patch: response.patch, span: currentSpan(anchor, records, anchors), next });
  if (!result.ok) return { applied: [], skipped: add.map((suggestion) => ({ suggestion, reason: result.message })) };
  const ids = response.results.filter((r) => r.status === "applied").map((r) => r.id);
  records.set(anchor, { ids, texts: result.texts, ...next });
  return { applied: outcome.applied, skipped: outcome.skipped };
}
