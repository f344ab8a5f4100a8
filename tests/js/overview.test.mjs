// The pane's overview: counts by severity and kind, and the filters' matching, on a known set.
import assert from "node:assert/strict";
import { test } from "node:test";

import { matches, overviewCounts } from "../../static/addin/overview.js";

const RESULTS = [
  { id: "a", severity: "minor", kind: "comment", category: "payment_terms", outcome: null },
  { id: "b", severity: "critical", kind: "replace", category: "liability", outcome: "rejected" },
  { id: "c", severity: "major", kind: "replace", category: "liability", outcome: "accepted" },
  { id: "d", severity: "critical", kind: "insert", category: "liability", outcome: null },
  { id: "e", severity: "major", kind: "replace", category: "payment_terms", outcome: "pending" },
];

test("counts by severity run most severe first, with labels", () => {
  const { total, counts } = overviewCounts(RESULTS);
  assert.equal(total, 5);
  assert.deepEqual(counts.severity.map((c) => [c.value, c.label, c.count]),
    [["critical", "Critical", 2], ["major", "Major", 2], ["minor", "Minor", 1]]);
});

test("kinds, categories and outcomes count most frequent first; no outcome is 'not exported yet'", () => {
  const { counts } = overviewCounts(RESULTS);
  assert.deepEqual(counts.kind.map((c) => [c.value, c.count]), [["replace", 3], ["comment", 1], ["insert", 1]]);
  assert.deepEqual(counts.category.map((c) => [c.label, c.count]), [["liability", 3], ["payment terms", 2]]);
  assert.deepEqual(counts.outcome[0], { value: "none", label: "Not exported yet", count: 2 });
});

test("filters combine, and an empty filter lets everything through", () => {
  const pick = (filters) => RESULTS.filter((s) => matches(s, filters)).map((s) => s.id);
  assert.deepEqual(pick({}), ["a", "b", "c", "d", "e"]);
  assert.deepEqual(pick({ severity: "critical" }), ["b", "d"]);
  assert.deepEqual(pick({ category: "liability", kind: "replace" }), ["b", "c"]);
  assert.deepEqual(pick({ outcome: "none", severity: "critical" }), ["d"]);
  assert.deepEqual(pick({ severity: "minor", outcome: "accepted" }), []);
});

test("drafting hygiene has its own filter beside the playbook's rules (issue #27)", () => {
  const mixed = [...RESULTS, { id: "h", severity: "major", kind: "comment", category: "drafting_blanks",
    source: "hygiene", outcome: null }];
  const { counts } = overviewCounts(mixed);
  assert.deepEqual(counts.check.map((c) => [c.value, c.label, c.count]),
    [["playbook", "Playbook rules", 5], ["drafting", "Drafting hygiene", 1]]);
  const pick = (filters) => mixed.filter((s) => matches(s, filters)).map((s) => s.id);
  assert.deepEqual(pick({ check: "drafting" }), ["h"]);
  assert.deepEqual(pick({ check: "playbook", kind: "comment" }), ["a"]);
});
