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
 * Replace the anchored paragraph's content with the suggestion's OOXML patch.
 *
 * Word's own change tracking is switched off around the insert (otherwise Word
 * would record the whole paragraph as deleted and re-inserted by the user, on top
 * of our tracked changes) and restored afterwards, also when the insert fails.
 * The paragraph must still read as it did when it was analysed.
 *
 * @returns {Promise<{ok: true} | {ok: false, message: string}>}
 */
export function applyPatch({ anchor, patch, analysed }) {
  return run(async (context) => {
    const document = context.document;
    const range = document.getBookmarkRangeOrNullObject(anchor);
    range.load("isNullObject");
    document.load("changeTrackingMode");
    await context.sync();
    if (range.isNullObject) {
      return { ok: false, message: "This paragraph is no longer in the document. Nothing was changed." };
    }
    const paragraph = range.paragraphs.getFirst();
    paragraph.load("text");
    await context.sync();
    const check = driftCheck({ analysed, current: paragraph.text });
    if (!check.ok) return check;
    const mode = document.changeTrackingMode;
    document.changeTrackingMode = Word.ChangeTrackingMode.off;
    paragraph.getRange("Content").insertOoxml(patch, Word.InsertLocation.replace);
    document.changeTrackingMode = mode;
    try {
      await context.sync();
    } catch (error) {
      document.changeTrackingMode = mode; // the failed batch stopped before restoring it
      await context.sync();
      throw error;
    }
    return { ok: true };
  });
}
