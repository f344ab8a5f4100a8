// Anchor bookkeeping: which paragraph is which, across edits and reviews.
//
// Every paragraph carries a hidden bookmark "_RL_" + 12 hex characters. Word
// reports the bookmarks *in or overlapping* a paragraph's range, in no promised
// order, so after a split both halves report the old name and after a merge one
// paragraph reports two. The rules here mirror the server's (redline/ooxml/anchors.py):
// a name belongs to the first paragraph (document order) that holds it, and a
// paragraph left without a name of its own gets a fresh one.

export const ANCHOR_RE = /^_RL_[0-9a-f]{12}$/;

/** True for the names of our anchors. */
export function isAnchor(name) {
  return typeof name === "string" && ANCHOR_RE.test(name);
}

/** A fresh anchor name from six random bytes (48 bits: collisions are checked by the caller). */
export function anchorFromBytes(bytes) {
  if (bytes.length !== 6) throw new Error("an anchor needs exactly 6 random bytes");
  return "_RL_" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Paragraphs with nothing to review get no anchor: the server ignores them too. */
export function isBlank(text) {
  return !text || !text.replace(/[\s\u200b-\u200d\ufeff]/g, "");
}

/**
 * Decide each paragraph's anchor and which bookmarks must be inserted.
 *
 * @param {{text: string, names: string[]}[]} paragraphs in document order, with
 *   the bookmark names Word reports on each.
 * @param {() => string} makeAnchor returns a random anchor name.
 * @returns {{anchors: (string|null)[], inserts: {index: number, anchor: string}[]}}
 *   the anchor of every paragraph (null when blank) and the bookmarks to insert.
 */
export function planAnchors(paragraphs, makeAnchor) {
  const taken = new Set(paragraphs.flatMap((p) => p.names.filter(isAnchor)));
  const claimed = new Set();
  const anchors = [];
  const inserts = [];
  paragraphs.forEach((p, index) => {
    if (isBlank(p.text)) {
      anchors.push(null);
      return;
    }
    let anchor = p.names.filter(isAnchor).sort().find((n) => !claimed.has(n));
    if (!anchor) {
      do anchor = makeAnchor(); while (taken.has(anchor));
      taken.add(anchor);
      inserts.push({ index, anchor });
    }
    claimed.add(anchor);
    anchors.push(anchor);
  });
  return { anchors, inserts };
}

/**
 * Map the anchors the server reports (its reading of the uploaded file) to our paragraphs.
 *
 * @param {{text: string, names: string[]}[]} paragraphs as read before the upload, with
 *   the names inserted by planAnchors added.
 * @param {string[]} serverAnchors the upload's `anchors`, in document order.
 * @returns {Map<string, {index: number, text: string}>} anchor -> the first paragraph holding it.
 */
export function anchorIndex(paragraphs, serverAnchors) {
  const wanted = new Set(serverAnchors);
  const out = new Map();
  paragraphs.forEach((p, index) => {
    for (const name of p.names) {
      if (wanted.has(name) && !out.has(name)) out.set(name, { index, text: p.text });
    }
  });
  return out;
}
