// Paragraphs changed without tracking since the redline went out (GET /runs/{id} → summary.untracked): the
// edits nobody sees in Word's markup, listed worst first, each leading to its paragraph.

const KIND_WORDS = { changed: "Changed", inserted: "Added", deleted: "Removed" };

/** One line of text for a change: what it was and what it is now. */
export function untrackedLine(change) {
  const kind = KIND_WORDS[change.kind] || change.kind;
  if (change.kind === "changed") return `${kind}: “${change.before}” → “${change.after}”`;
  return `${kind}: “${change.kind === "inserted" ? change.after : change.before}”`;
}

/**
 * Replace the list's items with one per change; `onPick(change, item)` runs for a change whose paragraph is in
 * the open document (a removed one is not). Returns how many were drawn.
 */
export function renderUntracked(list, summary, onPick) {
  const changes = (summary && summary.untracked) || [];
  list.replaceChildren(...changes.map((change) => {
    const li = document.createElement("li");
    li.className = `untracked sev-${change.severity}`;
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = change.severity;
    const text = document.createElement(change.kind !== "deleted" && change.anchor ? "button" : "span");
    text.textContent = untrackedLine(change);
    if (text.tagName === "BUTTON") {
      text.type = "button";
      text.className = "link";
      text.addEventListener("click", () => onPick(change, li));
    }
    li.append(badge, " ", text);
    return li;
  }));
  return changes.length;
}
