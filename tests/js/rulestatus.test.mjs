// The pane's rule lines (static/addin/rulestatus.js): where each line leads.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ruleLines, ruleTarget } from "../../static/addin/rulestatus.js";

test("a rule with new suggestions leads to them; else to the paragraph it read; else nowhere", () => {
  assert.equal(ruleTarget({ suggestions: 2, anchor: "_RL_1" }), "results");
  assert.equal(ruleTarget({ suggestions: 0, anchor: "_RL_1" }), "paragraph");
  assert.equal(ruleTarget({ suggestions: 0, anchor: "" }), "none");
});

test("lines keep the server's words and order; no summary, no lines", () => {
  const summary = { rules: [
    { key: "cap", title: "Liability cap", status: "does_not_meet", label: "Does not meet", note: "1 earlier suggestion still open in the document.", anchor: "_RL_2", suggestions: 0 },
    { key: "law", title: "Governing law", status: "meets", label: "Meets", note: "Its clause was read.", anchor: "_RL_9", suggestions: 0 },
  ] };
  assert.deepEqual(ruleLines(summary).map((l) => [l.key, l.label, l.target]), [
    ["cap", "Does not meet", "paragraph"], ["law", "Meets", "paragraph"]]);
  assert.deepEqual(ruleLines(null), []);
  assert.deepEqual(ruleLines({ rules: [] }), []);
});
