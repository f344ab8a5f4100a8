// The clause overview's grouping and wording (static/addin/clauses.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { clauseGroups, clauseLabel, clauseLegend, clauseSummary, percentLabel, statusLabel } from "../../static/addin/clauses.js";

const WORDS = { present: "present", absent: "absent", not_sure: "not sure" };
const LABELS = { "Parties": "Parties", "Expiration Date": "Expiry date", "Governing Law": "Governing law",
  "Non-Compete": "Non-compete", "governing_law": "Governing law" };

function clause(category, group, status, probability, { kind = "cuad", anchors = [], quotes = [] } = {}) {
  return { category, label: LABELS[category], kind, group, present: status === "present", status,
    status_label: WORDS[status], probability, anchors, quotes };
}

const OVERVIEW = {
  clauses: [
    clause("Parties", "Basic information", "present", 0.97, {
      anchors: ["_RL_000000000001", "_RL_000000000002"],
      quotes: [{ anchor: "_RL_000000000001", paragraph: 0, text: "between Acme and Beta", score: 0.9 }],
    }),
    clause("Expiration Date", "Term, renewal and termination", "not_sure", 0.42),
    clause("Governing Law", "Basic information", "present", 0.88, { anchors: ["_RL_000000000003"] }),
    clause("Non-Compete", "Restrictive covenants", "absent", 0.031),
    clause("governing_law", "Playbook categories", "present", 0.88, { kind: "playbook", anchors: ["_RL_000000000003"] }),
  ],
  status_meanings: { present: "Found.", absent: "Confidently none.", not_sure: "Read it yourself." },
};

test("groups in the order they first appear, categories in the server's order, with counts", () => {
  const groups = clauseGroups(OVERVIEW);
  assert.deepEqual(groups.map((g) => [g.name, g.found, g.rows.length]), [
    ["Basic information", 2, 2],
    ["Term, renewal and termination", 0, 1],
    ["Restrictive covenants", 0, 1],
    ["Playbook categories", 1, 1],
  ]);
  assert.deepEqual(groups[0].rows.map((r) => r.category), ["Parties", "Governing Law"]);
});

test("a category found links to its best paragraph; the others link nowhere", () => {
  const [basic, term, restrictive, playbook] = clauseGroups(OVERVIEW);
  assert.equal(basic.rows[0].anchor, "_RL_000000000001");
  assert.equal(basic.rows[0].quote, "between Acme and Beta");
  assert.equal(basic.rows[1].quote, "");
  assert.equal(term.rows[0].anchor, null);
  assert.equal(restrictive.rows[0].anchor, null);
  assert.equal(playbook.rows[0].label, "Governing law");
});

test("status and probability in words; the server's status is kept as it is", () => {
  const rows = clauseGroups(OVERVIEW).flatMap((g) => g.rows);
  assert.deepEqual(rows.map((r) => [r.statusLabel, r.percent]), [
    ["present", "97%"], ["present", "88%"], ["not sure", "42%"], ["absent", "3%"], ["present", "88%"],
  ]);
  assert.deepEqual([0, 0.004, 0.995, 0.9999, 1].map(percentLabel), ["0%", "<1%", ">99%", ">99%", "100%"]);
  assert.equal(statusLabel({ status: "something_new" }), "something_new");
  assert.equal(clauseLabel({ category: "Rofr/Rofo/Rofn", label: "Right of first refusal / offer / negotiation" }),
    "Right of first refusal / offer / negotiation");
});

test("the legend: each state the server names, with its meaning", () => {
  assert.deepEqual(clauseLegend(OVERVIEW).map((l) => [l.status, l.label, l.meaning]), [
    ["present", "present", "Found."], ["absent", "absent", "Confidently none."], ["not_sure", "not sure", "Read it yourself."]]);
  assert.deepEqual(clauseLegend(undefined), []);
});

test("the summary counts CUAD's categories only; an empty or missing overview is zero of zero", () => {
  assert.equal(clauseSummary(OVERVIEW), "2 of 4 kinds of clause found.");
  assert.equal(clauseSummary({ clauses: [] }), "0 of 0 kinds of clause found.");
  assert.deepEqual(clauseGroups(undefined), []);
});
