// "Changes since we sent it": what the other side did to the redline Redline gave out, as the open document
// reads now (GET /documents/{id}/since-sent): paragraphs they changed with tracking on, and those changed
// without tracking (the edits Word's markup does not show), each leading to its paragraph.

import { untrackedLine } from "./untracked.js";
import * as word from "./word.js";

/** The lines to show: untracked changes first (worst first, as the server orders them), then tracked ones. */
export function sinceSentLines(body) {
  const untracked = ((body && body.untracked) || []).map((c) => ({
    tone: c.severity,
    label: "Not tracked",
    text: untrackedLine(c),
    anchor: c.kind === "deleted" ? null : c.anchor,
  }));
  const tracked = ((body && body.tracked) || []).map((t) => ({
    tone: "tracked",
    label: `Tracked by ${t.authors.join(", ")}`,
    text: `“${t.before}” → “${t.after}”`,
    anchor: t.anchor && t.anchor.startsWith("_RL_") ? t.anchor : null,
  }));
  return [...untracked, ...tracked];
}

export class SinceSentSection {
  /** @param {{api: object, $: Function, upload: () => Promise<object>}} deps upload: the open document, sent */
  constructor({ api, $, upload }) {
    Object.assign(this, { api, $, upload });
  }

  clear() {
    this.$("since-sent").hidden = true;
    this.$("since-sent-list").replaceChildren();
  }

  /** Upload the open document and show what changed since the redline went out. */
  async load() {
    const $ = this.$;
    this.clear();
    const uploaded = await this.upload();
    $("since-sent").hidden = false;
    let body;
    try {
      body = await this.api.get(`/documents/${uploaded.document.id}/since-sent?version_id=${uploaded.version.id}`);
    } catch (error) {
      if (error.code !== "not_sent") throw error;
      $("since-sent-state").textContent = "Nothing was downloaded from Redline for this document yet, so there is nothing to compare it with.";
      return;
    }
    const lines = sinceSentLines(body);
    $("since-sent-state").textContent = lines.length
      ? `${lines.length} paragraph${lines.length === 1 ? "" : "s"} changed since the redline went out.`
      : "Nothing changed since the redline went out.";
    $("since-sent-list").replaceChildren(...lines.map((line) => this.item(line)));
  }

  item(line) {
    const li = document.createElement("li");
    li.className = `since-sent ${line.tone}`;
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = line.label;
    const text = document.createElement(line.anchor ? "button" : "span");
    text.textContent = line.text;
    if (line.anchor) {
      text.type = "button";
      text.className = "link";
      text.addEventListener("click", async () => {
        if (!(await word.selectAnchor(line.anchor))) this.$("since-sent-state").textContent = "That paragraph is no longer in the document.";
      });
    }
    li.append(badge, " ", text);
    return li;
  }
}
