// The pane's run overview: counts by severity and kind, and filters by check (the playbook's
// rules or drafting hygiene), severity, category, kind and outcome over the results already in the pane (no round trip: the pane holds
// the whole run). Filtering hides cards, and the rule and severity blocks left empty, so
// a long review can be narrowed to what matters without reloading anything.
// The chosen filters live here, so they survive the pane redrawing its results.

import { SEVERITIES, kindLabel, severityLabel } from "./results.js";

export const FILTERS = ["check", "severity", "category", "kind", "outcome"];
const HEADINGS = { check: "Check", severity: "Severity", category: "Category", kind: "Kind", outcome: "Outcome" };
const CHECKS = { playbook: "Playbook rules", drafting: "Drafting hygiene" };
const NOT_EXPORTED = "none";

const chosen = Object.fromEntries(FILTERS.map((name) => [name, ""]));

function valueOf(s, name) {
  if (name === "check") return s.source === "hygiene" ? "drafting" : "playbook";
  return name === "outcome" ? s.outcome || NOT_EXPORTED : String(s[name] || "");
}

function label(name, value) {
  if (name === "check") return CHECKS[value] || value;
  if (name === "severity") return severityLabel(value);
  if (name === "kind") return kindLabel(value);
  if (name === "outcome") return value === NOT_EXPORTED ? "Not exported yet" : value[0].toUpperCase() + value.slice(1);
  return value.replace(/_/g, " ");
}

/**
 * Counts of each filter's values, severities most severe first, the rest most frequent first.
 * @returns {{total: number, counts: Object<string, {value: string, label: string, count: number}[]>}}
 */
export function overviewCounts(suggestions) {
  const counts = {};
  for (const name of FILTERS) {
    const tally = new Map();
    for (const s of suggestions) tally.set(valueOf(s, name), (tally.get(valueOf(s, name)) || 0) + 1);
    const rank = (v) => (name === "severity" && SEVERITIES.includes(v) ? SEVERITIES.indexOf(v) : SEVERITIES.length);
    counts[name] = [...tally.entries()]
      .sort(([a, n], [b, m]) => rank(a) - rank(b) || m - n || a.localeCompare(b))
      .map(([value, count]) => ({ value, label: label(name, value), count }));
  }
  return { total: suggestions.length, counts };
}

/** True when the suggestion passes the filters chosen in the pane now (what Apply all may apply). */
export function shown(s) {
  return matches(s, chosen);
}

/** True when the suggestion passes every chosen filter ("" means any). */
export function matches(s, filters) {
  return FILTERS.every((name) => !filters[name] || valueOf(s, name) === filters[name]);
}

function summaryLine({ total, counts }) {
  const parts = (name) => counts[name].map((c) => `${c.count} ${c.label.toLowerCase()}`).join(", ");
  return `${total} suggestion${total === 1 ? "" : "s"}: ${parts("severity")}. By kind: ${parts("kind")}.`;
}

function select(name, options) {
  const wrap = document.createElement("div");
  wrap.className = "overview-filter";
  const labelEl = document.createElement("label");
  labelEl.htmlFor = `overview-${name}`;
  labelEl.textContent = HEADINGS[name];
  const el = document.createElement("select");
  el.id = `overview-${name}`;
  el.dataset.filter = name;
  el.append(new Option("All", ""));
  for (const o of options) el.append(new Option(`${o.label} (${o.count})`, o.value, false, o.value === chosen[name]));
  if (!options.some((o) => o.value === chosen[name])) chosen[name] = ""; // a value gone from this run
  el.value = chosen[name];
  wrap.append(labelEl, el);
  return wrap;
}

/** Hide the cards the filters leave out, then the rule and severity blocks left empty; returns how many show. */
function applyFilters(container, suggestions, cards) {
  let shown = 0;
  for (const s of suggestions) {
    const card = cards.get(s.id);
    if (!card) continue;
    card.hidden = !matches(s, chosen);
    if (!card.hidden) shown += 1;
  }
  const results = [...cards.values()][0]?.closest("#results");
  for (const block of results ? results.querySelectorAll(".rule, .severity") : []) {
    block.hidden = !block.querySelector(".result:not([hidden])");
  }
  const status = container.querySelector(".overview-status");
  const active = FILTERS.some((name) => chosen[name]);
  status.textContent = active ? `Showing ${shown} of ${suggestions.length}.` : "";
  container.querySelector(".overview-clear").hidden = !active;
  return shown;
}

/**
 * Draw the overview into ``container`` for the results just drawn (``cards``: id -> card), and
 * filter them. Called after every redraw of the results; keeps the focused filter focused.
 */
export function showOverview(container, suggestions, cards) {
  container.hidden = !suggestions.length;
  if (!suggestions.length) return;
  const focused = container.contains(document.activeElement) ? document.activeElement.id : "";
  const summary = overviewCounts(suggestions);
  const title = document.createElement("h2");
  title.id = "overview-title";
  title.textContent = "Overview";
  const line = document.createElement("p");
  line.className = "overview-summary";
  line.textContent = summaryLine(summary);
  const form = document.createElement("form");
  form.className = "overview-filters";
  form.setAttribute("aria-label", "Filter results");
  form.append(...FILTERS.map((name) => select(name, summary.counts[name])));
  const clear = document.createElement("button");
  clear.type = "button";
  clear.id = "overview-clear";
  clear.className = "overview-clear secondary";
  clear.textContent = "Clear filters";
  form.append(clear);
  const status = document.createElement("p");
  status.className = "overview-status muted";
  status.setAttribute("role", "status");
  container.replaceChildren(title, line, form, status);
  form.addEventListener("change", (event) => {
    chosen[event.target.dataset.filter] = event.target.value;
    applyFilters(container, suggestions, cards);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  clear.addEventListener("click", () => {
    for (const name of FILTERS) chosen[name] = "";
    for (const el of form.querySelectorAll("select")) el.value = "";
    applyFilters(container, suggestions, cards);
    form.querySelector("select").focus();
  });
  applyFilters(container, suggestions, cards);
  if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
}
