// Everything the pane does to the document, through Office.js.
//
// Each function is one Word.run with as few syncs as the API allows; nothing
// here decides anything (that is anchors.js, drift.js and patches.js), so the
// browser test's Office double exercises exactly this code.

import { anchorFromBytes, planAnchors } from "./anchors.js";
import { driftCheck } from "./drift.js";
import { WordError } from "./errors.js";

export const DOC_ID_PROPERTY = "RedlineDocID";
const SLICE_BYTES = 4 * 1024 * 1024; // the largest slice Office hands out

function randomAnchor() {
  return anchorFromBytes(crypto.getRandomValues(new Uint8Array(6)));
}

async function run(batch) {
  try {
    return await Word.run(batch);
  } catch (error) {
    throw error instanceof WordError ? error : new WordError(error.message || String(error));
  }
}

/**
 * Give every paragraph its hidden _RL_ bookmark (one batched sync for all inserts)
 * and read what a review needs.
 *
 * @returns {Promise<{paragraphs: {text, style, names}[], anchors: (string|null)[], docId: string|null}>}
 */
export function prepareDocument() {
  return run(async (context) => {
    const paragraphs = context.document.body.paragraphs;
    paragraphs.load("items/text,items/style");
    const docId = context.document.properties.customProperties.getItemOrNullObject(DOC_ID_PROPERTY);
    docId.load("value");
    await context.sync();
    const names = paragraphs.items.map((p) => p.getRange("Whole").getBookmarks(true, false));
    await context.sync();
    const read = paragraphs.items.map((p, i) => ({ text: p.text, style: p.style, names: [...names[i].value] }));
    const plan = planAnchors(read, randomAnchor);
    for (const { index, anchor } of plan.inserts) {
      paragraphs.items[index].getRange("Content").insertBookmark(anchor);
      read[index].names.push(anchor);
    }
    if (plan.inserts.length) await context.sync();
    return { paragraphs: read, anchors: plan.anchors, docId: docId.isNullObject ? null : String(docId.value) };
  });
}

/** Record the server's document id in the file, so the next review is recognised. */
export function writeDocId(docId) {
  return run(async (context) => {
    context.document.properties.customProperties.add(DOC_ID_PROPERTY, docId);
    await context.sync();
  });
}

/** The whole document as .docx bytes (getFileAsync, Compressed, in slices). */
export function readFile() {
  return new Promise((resolve, reject) => {
    Office.context.document.getFileAsync(Office.FileType.Compressed, { sliceSize: SLICE_BYTES }, (result) => {
      if (result.status !== Office.AsyncResultStatus.Succeeded) {
        reject(new WordError(result.error.message));
        return;
      }
      const file = result.value;
      const bytes = new Uint8Array(file.size);
      let offset = 0;
      const finish = (error) => file.closeAsync(() => (error ? reject(error) : resolve(bytes.subarray(0, offset))));
      const next = (index) => {
        if (index === file.sliceCount) return finish(null);
        file.getSliceAsync(index, (slice) => {
          if (slice.status !== Office.AsyncResultStatus.Succeeded) return finish(new WordError(slice.error.message));
          bytes.set(slice.value.data, offset);
          offset += slice.value.data.length;
          next(index + 1);
        });
      };
      next(0);
    });
  });
}

/** Select the paragraph holding `anchor`; false when the anchor is gone. */
export function selectAnchor(anchor) {
  return run(async (context) => {
    const range = context.document.getBookmarkRangeOrNullObject(anchor);
    range.load("isNullObject");
    await context.sync();
    if (range.isNullObject) return false;
    range.paragraphs.getFirst().select();
    await context.sync();
    return true;
  });
}

/**
 * The anchored paragraph and `before`/`after` of its neighbours, in document order, loaded;
 * null when one of them is not there. One step at a time: a neighbour is asked of a
 * paragraph known to exist (asking it of a null object may fail the batch in Word).
 */
async function spanAround(context, paragraph, { before, after }) {
  paragraph.load("text");
  const span = [paragraph];
  for (const [count, step, add] of [
    [before, (p) => p.getPreviousOrNullObject(), (p) => span.unshift(p)],
    [after, (p) => p.getNextOrNullObject(), (p) => span.push(p)],
  ]) {
    for (let p = paragraph, i = 0; i < count; i++) {
      p = step(p);
      p.load("text,isNullObject");
      await context.sync();
      if (p.isNullObject) return null;
      add(p);
    }
  }
  await context.sync();
  return span;
}

/**
 * Replace the anchored paragraph (with the paragraphs an earlier patch inserted around
 * it: `span.before`, `span.after`) by a composed OOXML patch, and read back what Word
 * now shows there (`next.before`, `next.after`: the new patch's layout), for the next
 * drift check.
 *
 * Word's own change tracking is switched off around the insert (otherwise Word
 * would record the whole paragraph as deleted and re-inserted by the user, on top
 * of our tracked changes) and restored afterwards, also when the insert fails.
 * The span must still read `span.texts` (as analysed, or as the last patch left it).
 *
 * @returns {Promise<{ok: true, texts: string[]} | {ok: false, message: string}>}
 */
export function applyPatch({ anchor, patch, span, next }) {
  return run(async (context) => {
    const document = context.document;
    const range = document.getBookmarkRangeOrNullObject(anchor);
    range.load("isNullObject");
    document.load("changeTrackingMode");
    await context.sync();
    if (range.isNullObject) {
      return { ok: false, message: "This paragraph is no longer in the document. Nothing was changed." };
    }
    const current = await spanAround(context, range.paragraphs.getFirst(), span);
    if (!current) {
      return { ok: false, message: "A clause applied here earlier was removed from the document. Nothing was changed; review again." };
    }
    for (const [i, p] of current.entries()) {
      const check = driftCheck({ analysed: span.texts[i], current: p.text });
      if (!check.ok) return check;
    }
    const target = current.length === 1
      ? current[0].getRange("Content")
      : current[0].getRange("Content").expandTo(current[current.length - 1].getRange("Content"));
    const mode = document.changeTrackingMode;
    document.changeTrackingMode = Word.ChangeTrackingMode.off;
    target.insertOoxml(patch, Word.InsertLocation.replace);
    document.changeTrackingMode = mode;
    try {
      await context.sync();
    } catch (error) {
      document.changeTrackingMode = mode; // the failed batch stopped before restoring it
      await context.sync();
      throw error;
    }
    // The patch is in: whatever the read-back meets, report it applied (the next apply's drift check
    // refuses a paragraph whose texts could not be read, rather than this one being reported as failed).
    try {
      const after = document.getBookmarkRangeOrNullObject(anchor);
      after.load("isNullObject");
      await context.sync();
      if (after.isNullObject) return { ok: true, texts: [] }; // Word dropped the bookmark: the next apply says so
      const written = await spanAround(context, after.paragraphs.getFirst(), next);
      return { ok: true, texts: written ? written.map((p) => p.text) : [] };
    } catch (error) {
      console.warn("applied; the paragraph could not be read back", error);
      return { ok: true, texts: [] };
    }
  });
}
