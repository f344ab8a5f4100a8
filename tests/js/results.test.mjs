// Result grouping and wording (static/addin/results.js, progress.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { progressView } from "../../static/addin/progress.js";
import {
  groupResults,
  kindLabel,
  validationCaution,
  validationIssues,
  verdictLabel,
} from "../../static/addin/results.js";

const anchors = new Map([
  ["_RL_000000000001", { index: 0 }],
  ["_RL_000000000002", { index: 1 }],
  ["_RL_000000000003", { index: 2 }],
]);

function s(pk, severity, rule, anchor, position) {
  return { pk, severity, rule, rule_title: rule.toUpperCase(), anchor, position };
}

test("groups by severity (most severe first), then rule (first in document first), items in document order", () => {
  const groups = groupResults(
    [
      s(1, "minor", "notices", "_RL_000000000001", 0),
      s(2, "critical", "liability", "_RL_000000000003", 1),
      s(3, "major", "payment", "_RL_000000000002", 2),
      s(4, "critical", "indemnity", "_RL_000000000002", 3),
      s(5, "critical", "liability", "_RL_000000000001", 4),
    ],
    anchors,
    new Map([["liability", { title: "Limitation of liability", guidance: "Cap it." }]]),
  );
  assert.deepEqual(groups.map((g) => [g.severity, g.label, g.count]), [
    ["critical", "Critical", 3],
    ["major", "Major", 1],
    ["minor", "Minor", 1],
  ]);
  const critical = groups[0].rules;
  assert.deepEqual(critical.map((r) => r.key), ["liability", "indemnity"]);
  assert.deepEqual(critical[0].items.map((i) => i.pk), [5, 2]);
  assert.equal(critical[0].title, "Limitation of liability");
  assert.equal(critical[0].guidance, "Cap it.");
  assert.equal(critical[1].title, "INDEMNITY"); // no rule info yet: the suggestion's own title
});

test("results whose paragraph is unknown come last; unknown severities after minor", () => {
  const groups = groupResults(
    [s(1, "odd", "x", "_RL_000000000001", 0), s(2, "minor", "y", "_RL_ffffffffffff", 1), s(3, "minor", "z", "_RL_000000000003", 2)],
    anchors,
  );
  assert.deepEqual(groups.map((g) => g.severity), ["minor", "odd"]);
  assert.deepEqual(groups[0].rules.map((r) => r.key), ["z", "y"]);
  assert.equal(groups[1].label, "Other");
});

test("streamed suggestions without a position keep their arrival order", () => {
  const groups = groupResults(
    [{ pk: undefined, severity: "major", rule: "a", anchor: "_RL_000000000001" }, { severity: "major", rule: "a", anchor: "_RL_000000000001", quote: "second" }],
    anchors,
  );
  assert.equal(groups[0].rules[0].items[1].quote, "second");
});

test("labels", () => {
  assert.equal(kindLabel("insert"), "Insert clause");
  assert.equal(verdictLabel({ status: "FAIL", confidence: 0.9 }), "Fails (90% confident)");
  assert.equal(verdictLabel({ status: "PASS" }), "Passes");
  assert.equal(verdictLabel(null), "");
});

test("progress: stage fractions, then done", () => {
  assert.deepEqual(progressView("started"), { fraction: 0, text: "Starting the review…" });
  assert.deepEqual(progressView("progress", { stage: "analyze", done: 6, total: 24 }), { fraction: 0.25, text: "Checking the rules: 6 of 24" });
  assert.deepEqual(progressView("progress", { stage: "analyze", done: 30, total: 24 }).fraction, 1);
  assert.deepEqual(progressView("progress", { stage: "analyze", done: 6, total: 24, requests_done: 1, requests: 3 }).text,
                   "Checking the rules: 6 of 24 (model answered 1 of 3 parts)");
  assert.deepEqual(progressView("progress", { stage: "analyze", done: 6, total: 24, requests_done: 6, requests: 1 }).text,
                   "Checking the rules: 6 of 24");
  assert.deepEqual(progressView("progress", { stage: "mystery" }), { fraction: null, text: "Working…" });
  assert.deepEqual(progressView("done"), { fraction: 1, text: "Review complete." });
});

test("validation issues: once each, without the ones that repeat the comment", () => {
  const s = {
    comment: "The cap  is missing.",
    validation: {
      status: "FAIL",
      issues: [
        { description: "the cap is missing." },
        { description: "The quote is not in the paragraph." },
        { description: "The quote is not in the paragraph. " },
        { description: "" },
      ],
    },
  };
  assert.deepEqual(validationIssues(s), ["The quote is not in the paragraph."]);
  assert.deepEqual(validationIssues({ comment: "x" }), []);
  const titled = {
    comment: "Liability is expressly unlimited. Cap general liability. Playbook position: mutual cap.",
    validation: { status: "FAIL", issues: [
      { description: "Limitation of liability: Liability is expressly unlimited. Cap general liability." },
      { description: "unlimited liability" },
    ] },
  };
  assert.deepEqual(validationIssues(titled), ["unlimited liability"]); // a lead-in title does not make the comment news
  assert.deepEqual(validationIssues({ comment: "Short.", validation: { issues: [{ description: "Quote missing." }] } }),
    ["Quote missing."]);
});

test("validation caution: said before Apply for FAIL and WARN, with or without reasons", () => {
  const fail = { validation: { status: "FAIL", issues: [{ description: "Wrong clause." }] } };
  assert.equal(validationCaution(fail), "Check before applying: the validator found problems with this suggestion.");
  const silent = { validation: { status: "WARN", issues: [] } };
  assert.match(validationCaution(silent), /^Check before applying: the validator has doubts.*gave no details/);
  assert.equal(validationCaution({ validation: { status: "PASS", issues: [] } }), "");
  assert.equal(validationCaution({}), "");
});
