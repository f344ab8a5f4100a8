// The party the review acts for: asked once per document and remembered (this pane's last choice for the
// document, else the side of the document's last run on the server); the select above the results changes
// it and reviews again. Without a side the review asks instead of editing where a finding depends on one.

import { partitioned } from "./auth.js";

const KEY = "redline.side.";
const chosen = new Map(); // this pane's choices, also where storage is refused
export const NO_SIDES = { parties: [], last_acting_for: "" };

function stored(docId) {
  if (chosen.has(docId)) return chosen.get(docId);
  try {
    return window.localStorage.getItem(partitioned(KEY + docId));
  } catch {
    return null; // storage may be refused inside some Office hosts: fall back to the server's memory
  }
}

export function sideFor(docId, sides, storage = stored) {
  const mine = storage(docId);
  const names = sides.parties.map((p) => p.name);
  if (mine !== null && (mine === "" || names.includes(mine))) return mine;
  return names.includes(sides.last_acting_for) ? sides.last_acting_for : ""; // a party this version still has
}

export function rememberSide(docId, value) {
  chosen.set(docId, value);
  try {
    window.localStorage.setItem(partitioned(KEY + docId), value);
  } catch {
    // not remembered in this pane; the server keeps the side of the run it starts
  }
}

export function paintSides(box, sides, chosen) {
  const select = box.querySelector("select");
  const none = new Option("No side: questions, no edits", "");
  const options = sides.parties.map((p) => new Option(p.legal && p.legal !== p.name ? `${p.name} (${p.legal})` : p.name, p.name));
  select.replaceChildren(none, ...options);
  select.value = chosen;
  box.querySelector(".hint").hidden = chosen !== "" || sides.parties.length === 0;
  box.hidden = sides.parties.length === 0;
}
