// The run's one line per playbook rule, in the server's words (GET /runs/{id} → summary): the pane opens
// with it, as a reviewer reads a playbook, so "no suggestions" is never mistaken for "meets every rule".

/** Where a rule line leads: its suggestions in the pane, the paragraph it read in Word, or nowhere. */
export function ruleTarget(line) {
  if (line.suggestions > 0) return "results";
  if (line.anchor) return "paragraph";
  return "none";
}

/** The lines as plain data: the label's tone follows the status. */
export function ruleLines(summary) {
  return ((summary && summary.rules) || []).map((line) => ({
    key: line.key,
    title: line.title,
    label: line.label,
    status: line.status,
    note: line.note,
    anchor: line.anchor,
    target: ruleTarget(line),
  }));
}

/**
 * Replace the container's list with one item per rule; `onPick(line, item)` runs when a line with a target
 * is chosen.
 * @returns {number} how many lines were drawn
 */
export function renderRuleLines(list, summary, onPick) {
  const items = ruleLines(summary).map((line) => {
    const li = document.createElement("li");
    li.className = `rule-line rule-${line.status}`;
    const title = document.createElement(line.target === "none" ? "span" : "button");
    title.textContent = line.title;
    if (line.target !== "none") {
      title.type = "button";
      title.className = "link";
      title.addEventListener("click", () => onPick(line, li));
    }
    const badge = document.createElement("span");
    badge.className = `badge rule-${line.status}`;
    badge.textContent = line.label;
    const note = document.createElement("span");
    note.className = "rule-note small";
    note.textContent = line.note;
    li.append(title, " ", badge, " ", note);
    return li;
  });
  list.replaceChildren(...items);
  return items.length;
}
