// Sending the open document to the server: the whole file when Word can give it
// (outcomes are detected from the file), else its paragraphs with their anchors.

import * as word from "./word.js";

const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** The document's file name without extension, or "Untitled" for a new, unsaved document. */
export function documentTitle(url) {
  const name = decodeURIComponent(String(url || "").split(/[/\\]/).pop() || "").replace(/\.docx?$/i, "");
  return name || "Untitled";
}

/**
 * Upload the prepared document; the server's answer ({document, version, anchors}).
 *
 * @param {object} api the pane's Api
 * @param {{paragraphs: object[], anchors: string[], docId: string | null}} doc from word.prepareDocument()
 */
export async function uploadDocument(api, doc) {
  const title = documentTitle(Office.context.document.url);
  if (Office.context.requirements.isSetSupported("CompressedFile", "1.1")) {
    const bytes = await word.readFile();
    const form = new FormData();
    form.append("file", new Blob([bytes], { type: DOCX_MIME }), `${title}.docx`);
    form.append("title", title);
    return api.upload("/documents", form);
  }
  const paragraphs = doc.paragraphs
    .map((p, i) => ({ anchor: doc.anchors[i], text: p.text, style: p.style || null }))
    .filter((p) => p.anchor);
  return api.post("/documents", { title, doc_id: doc.docId, paragraphs });
}
