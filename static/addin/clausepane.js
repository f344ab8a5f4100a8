// The pane's clause section: the clause overview of the version just uploaded,
// each clause a button that selects its paragraph in Word. It loads beside the
// review and never holds it up or fails it: a failure is said in the section.

import { clauseLegend, clauseSummary } from "./clauses.js";
import { describeError } from "./errors.js";
import { renderClauses } from "./render.js";
import * as word from "./word.js";

export class ClauseSection {
  /**
   * @param {{api: object, $: (id: string) => HTMLElement, showError: (error: Error, retry?: Function) => void}} deps
   */
  constructor({ api, $, showError }) {
    this.api = api;
    this.$ = $;
    this.showError = showError;
    this.shown = 0; // which request the section shows: a slower, older answer never overwrites a newer one
    $("clauses-list").addEventListener("click", (event) => {
      const button = event.target.closest("button.locate-clause");
      if (button) this.locate(button.dataset.anchor);
    });
  }

  clear() {
    const $ = this.$;
    this.shown += 1;
    $("clauses").hidden = true;
    $("clauses-list").replaceChildren();
    $("clauses-legend").replaceChildren();
    $("clauses-summary").textContent = "";
    $("clauses-state").textContent = "";
  }

  /** Show the clause overview of an upload ({document, version}). */
  async load(uploaded) {
    const $ = this.$;
    this.clear();
    const mine = this.shown;
    $("clauses").hidden = false;
    $("clauses-summary").textContent = "Finding clauses…";
    try {
      const overview = await this.api.get(`/documents/${uploaded.document.id}/clauses?version_id=${uploaded.version.id}`);
      if (mine !== this.shown) return;
      renderClauses($("clauses-list"), overview);
      $("clauses-summary").textContent = clauseSummary(overview);
      $("clauses-legend").replaceChildren(...clauseLegend(overview).map(({ status, label, meaning }) => {
        const item = document.createElement("li");
        const badge = document.createElement("span");
        badge.className = `state-${status}`;
        badge.textContent = label;
        item.append(badge, `: ${meaning}`);
        return item;
      }));
    } catch (error) {
      if (mine !== this.shown) return;
      console.warn("clause overview not loaded", error);
      const described = describeError(error);
      if (described.signedOut) {
        this.showError(error);
        return;
      }
      $("clauses-summary").textContent = "";
      $("clauses-state").textContent = `The clause overview could not be loaded. ${described.message}`;
    }
  }

  /** Select the paragraph a clause was found in (as a result card's quote does). */
  async locate(anchor) {
    const $ = this.$;
    $("clauses-state").textContent = "";
    try {
      if (!(await word.selectAnchor(anchor))) $("clauses-state").textContent = "This paragraph is no longer in the document.";
    } catch (error) {
      this.showError(error, () => this.locate(anchor));
    }
  }
}
