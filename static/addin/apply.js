// Applying suggestions to one paragraph: ask for the composed patch, check, insert.
//
// The decisions are patches.js's (what to ask for, what the answer means) and
// drift.js's; Word access is word.js's. This module only runs the steps in order
// and keeps the paragraph's record up to date, so the next suggestion applied to
// the same paragraph is composed with the ones already in it.

import { composeRequest, currentSpan, readCompose } from "./patches.js";
import * as word from "./word.js";

const W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

/**
 * A paragraph's first suggestion, alone: its patch from the suggestions list is what the server
 * would compose (the same writer, the same document), so no request is needed. Its layout (new
 * paragraphs before and after the anchored one) is read from the patch; null if it cannot be.
 */
function listed(s) {
  const xml = new DOMParser().parseFromString(s.patch, "application/xml");
  const body = xml.getElementsByTagNameNS(W_NS, "body")[0];
  if (!body) return null;
  const paragraphs = [...body.children].filter((el) => el.namespaceURI === W_NS && el.localName === "p");
  const at = paragraphs.findIndex((p) => [...p.getElementsByTagNameNS(W_NS, "bookmarkStart")]
    .some((b) => b.getAttributeNS(W_NS, "name") === s.anchor));
  if (at === -1) return null;
  return { patch: s.patch, before: at, after: paragraphs.length - at - 1, results: [{ id: s.id, status: "applied", message: "" }] };
}

/**
 * Apply `add` (suggestions on `anchor`'s paragraph) on top of what that paragraph already holds.
 *
 * @param {{api: object, runId: number, anchor: string, add: object[],
 *          records: Map<string, object>, anchors: Map<string, object>}} args
 *   records: anchor -> {ids, texts, before, after}, updated when the patch went in.
 * @returns {Promise<{applied: object[], skipped: {suggestion: object, reason: string}[]}>}
 */
export async function applyToParagraph({ api, runId, anchor, add, records, anchors }) {
  const response = (!records.has(anchor) && add.length === 1 && listed(add[0]))
    || (await api.post(`/runs/${runId}/patches`, composeRequest(anchor, add, records)));
  const outcome = readCompose(response, add);
  if (!outcome.insert) return { applied: [], skipped: outcome.skipped };
  const next = { before: response.before, after: response.after };
  const result = await word.applyPatch({ anchor, patch: response.patch, span: currentSpan(anchor, records, anchors), next });
  if (!result.ok) return { applied: [], skipped: add.map((suggestion) => ({ suggestion, reason: result.message })) };
  const ids = response.results.filter((r) => r.status === "applied").map((r) => r.id);
  records.set(anchor, { ids, texts: result.texts, ...next });
  return { applied: outcome.applied, skipped: outcome.skipped };
}
