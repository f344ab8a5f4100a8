// The text-drift check: never apply a suggestion to a paragraph the lawyer has
// changed since it was analysed. A patch replaces the whole paragraph, so
// applying it over newer words would silently undo them.

const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** Text as compared: Unicode NFC, invisible characters dropped, any run of whitespace one space. */
export function normaliseText(text) {
  return String(text ?? "")
    .normalize("NFC")
    .replace(INVISIBLE, "")
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * Compare the paragraph as analysed (or as our last patch left it) with the
 * paragraph now. Both texts come from Word (read before the upload or right after
 * the patch, and read again before applying), so any difference after
 * normalisation is an edit.
 *
 * @param {{analysed: string, current: string}} texts
 * @returns {{ok: true} | {ok: false, message: string}}
 */
export function driftCheck({ analysed, current }) {
  if (normaliseText(current) !== normaliseText(analysed)) {
    return {
      ok: false,
      message: "This paragraph was edited after the review, so the suggestion may no longer fit. Nothing was changed; review again for a fresh suggestion.",
    };
  }
  return { ok: true };
}
