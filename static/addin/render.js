// Drawing results into the pane from the <template>s in taskpane.html.
// Text always goes in through textContent: results quote the contract and the
// model, and neither is trusted markup.

import { clauseGroups } from "./clauses.js";
import { groupResults, kindLabel, validationCaution, validationIssues, verdictLabel } from "./results.js";

function clone(id) {
  return document.getElementById(id).content.firstElementChild.cloneNode(true);
}

function proposal(s) {
  if (s.kind === "comment") return s.comment;
  if (s.kind === "delete") return s.comment ? `Delete this text. ${s.comment}` : "Delete this text.";
  return s.comment ? `${s.new_text}\n\nWhy: ${s.comment}` : s.new_text;
}

function card(s) {
  const el = clone("result-tpl");
  el.dataset.id = s.id;
  el.classList.add(`kind-${s.kind}`);
  el.querySelector(".kind").textContent = kindLabel(s.kind);
  if (s.placement) {
    // A missing clause: say where it goes ("New §12A Governing law, after §12 Confidentiality"); the paragraph
    // it is anchored to is only its place, never quoted as if it were the problem.
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = s.placement;
    el.querySelector(".quote").replaceWith(where);
    el.querySelector(".locate").title = "Show where it goes in the document";
  } else {
    el.querySelector(".quote").textContent = s.quote;
  }
  el.querySelector(".proposal").textContent = proposal(s);
  const verdict = verdictLabel(s.validation);
  const verdictEl = el.querySelector(".verdict");
  verdictEl.hidden = !verdict;
  verdictEl.textContent = verdict ? `Validator: ${verdict}` : "";
  verdictEl.dataset.status = s.validation ? s.validation.status : "";
  // A suggestion the validator did not pass says so, and why, above its Apply button.
  const caution = el.querySelector(".caution");
  const lead = validationCaution(s);
  caution.hidden = !lead;
  caution.dataset.status = verdictEl.dataset.status;
  caution.querySelector(".caution-lead").textContent = lead;
  const issues = caution.querySelector(".issues");
  for (const text of lead ? validationIssues(s) : []) {
    const li = document.createElement("li");
    li.textContent = text;
    issues.append(li);
  }
  issues.hidden = !issues.children.length;
  if (lead) {
    caution.id = `caution-${s.id}`;
    el.querySelector(".apply").setAttribute("aria-describedby", caution.id);
  }
  el.dataset.verdict = verdictEl.dataset.status;
  return el;
}

/** The group's "Apply all" button: what it covers (data-value, read by patches.inScope) and its name. */
function groupButton(el, value, label) {
  const button = el.querySelector(".apply-group");
  button.dataset.value = value;
  button.setAttribute("aria-label", label);
}

/**
 * Replace the container's content with the grouped results.
 * @returns {Map<string, HTMLElement>} suggestion id -> its card, for paintCard.
 */
export function renderResults(container, { suggestions, anchors, rules }) {
  const cards = new Map();
  const fragment = document.createDocumentFragment();
  for (const group of groupResults(suggestions, anchors, rules)) {
    const section = clone("severity-tpl");
    section.classList.add(`sev-${group.severity}`);
    section.querySelector(".badge").textContent = group.label;
    section.querySelector(".count").textContent = `(${group.count})`;
    groupButton(section, group.severity, `Apply all ${group.label.toLowerCase()} suggestions`);
    for (const rule of group.rules) {
      const block = clone("rule-tpl");
      block.dataset.rule = rule.key;
      block.querySelector(".rule-title").textContent = rule.title;
      groupButton(block, rule.key, `Apply all suggestions for ${rule.title}`);
      const guidance = block.querySelector(".guidance");
      guidance.hidden = !rule.guidance;
      guidance.querySelector("p").textContent = rule.guidance;
      for (const s of rule.items) {
        const el = card(s);
        cards.set(s.id, el);
        block.append(el);
      }
      section.append(block);
    }
    fragment.append(section);
  }
  container.replaceChildren(fragment);
  return cards;
}

/**
 * Show one result's state.
 * @param {HTMLElement} el the card
 * @param {{canAct: boolean, canApply: boolean, applied: boolean, vote: "up"|"down"|null, message: string, tone: string}} view
 */
export function paintCard(el, { canAct, canApply, applied, vote, message, tone }) {
  const apply = el.querySelector(".apply");
  apply.disabled = !canAct || !canApply || applied;
  apply.textContent = applied ? "Applied" : el.dataset.verdict === "FAIL" ? "Apply anyway" : "Apply";
  for (const button of el.querySelectorAll(".vote")) {
    // A vote can be changed: pressing the other button replaces it (the API keeps one per person).
    button.disabled = !canAct;
    button.setAttribute("aria-pressed", String(button.classList.contains(vote || "none")));
  }
  const state = el.querySelector(".state");
  state.textContent = message || "";
  state.dataset.tone = tone || "";
  el.classList.toggle("is-applied", applied);
}

/**
 * Replace the container's content with the clause overview, grouped. A category found is a
 * button carrying its paragraph's anchor (data-anchor); the others are plain text.
 * @param {HTMLElement} container
 * @param {object} overview GET /documents/{id}/clauses
 */
export function renderClauses(container, overview) {
  const fragment = document.createDocumentFragment();
  for (const group of clauseGroups(overview)) {
    const section = clone("clause-group-tpl");
    section.open = group.found > 0;
    section.querySelector(".name").textContent = group.name;
    section.querySelector(".count").textContent = `${group.found} of ${group.rows.length} found`;
    const list = section.querySelector("ul");
    for (const row of group.rows) {
      const item = clone("clause-tpl");
      item.dataset.status = row.status;
      const label = item.querySelector(".label");
      if (row.anchor) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "locate-clause";
        button.dataset.anchor = row.anchor;
        button.title = row.quote ? `Show in the document: ${row.quote}` : "Show in the document";
        button.textContent = row.label;
        label.replaceWith(button);
      } else {
        label.textContent = row.label;
      }
      item.querySelector(".status").textContent = row.statusLabel;
      item.title = `The model's probability: ${row.percent}`; // the state is the engine's decision, not this number
      list.append(item);
    }
    fragment.append(section);
  }
  container.replaceChildren(fragment);
}
