// Patch ordering and the text-drift check (static/addin/patches.js, drift.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { driftCheck, normaliseText } from "../../static/addin/drift.js";
import { blockedReason, planApplyAll } from "../../static/addin/patches.js";

const anchors = new Map([
  ["_RL_000000000001", { index: 0 }],
  ["_RL_000000000002", { index: 1 }],
  ["_RL_000000000003", { index: 2 }],
]);

function s(pk, anchor, severity = "major", position = pk, patch = "<pkg:package/>") {
  return { pk, anchor, severity, position, patch };
}

function state(extra = {}) {
  return { anchors, applied: new Set(), touched: new Set(), ...extra };
}

test("apply all goes in document order, one patch per paragraph, the most severe first", () => {
  const plan = planApplyAll(
    [
      s(1, "_RL_000000000003"),
      s(2, "_RL_000000000001", "minor", 2),
      s(3, "_RL_000000000001", "critical", 9),
      s(4, "_RL_000000000002"),
    ],
    state(),
  );
  assert.deepEqual(plan.apply.map((x) => x.pk), [3, 4, 1]);
  assert.deepEqual(plan.skip.map((x) => x.suggestion.pk), [2]);
  assert.match(plan.skip[0].reason, /Another suggestion was applied to this paragraph/);
});

test("apply all leaves out what was applied, has no patch, or lost its paragraph", () => {
  const plan = planApplyAll(
    [s(1, "_RL_000000000001"), s(2, "_RL_000000000002", "major", 2, null), s(3, "_RL_ffffffffffff"), s(4, "_RL_000000000003")],
    state({ applied: new Set([1]), touched: new Set(["_RL_000000000001"]) }),
  );
  assert.deepEqual(plan.apply.map((x) => x.pk), [4]);
  assert.deepEqual(plan.skip.map((x) => [x.suggestion.pk, x.reason.split(" ")[0]]), [[2, "This"], [3, "Its"]]);
});

test("a single apply is blocked on a paragraph that already took a patch", () => {
  const st = state({ touched: new Set(["_RL_000000000002"]) });
  assert.equal(blockedReason(s(1, "_RL_000000000001"), st), "");
  assert.match(blockedReason(s(2, "_RL_000000000002"), st), /Review again/);
  assert.equal(blockedReason(s(1, "_RL_000000000001"), state({ applied: new Set([1]) })), "Already applied.");
});

test("drift: whitespace, invisible characters and Unicode forms do not count as edits", () => {
  assert.equal(normaliseText("  Caf\u0065\u0301\u00a0 terms\u200b\tapply \r\n"), "Café terms apply");
  assert.deepEqual(driftCheck({ analysed: "The fee is 90 days.", current: "The fee is\u00a090 days. " }), { ok: true });
});

test("drift: a changed word refuses, and says nothing was changed", () => {
  const result = driftCheck({ analysed: "Payment is due within 90 days.", current: "Payment is due within 30 days." });
  assert.equal(result.ok, false);
  assert.match(result.message, /edited after the review/);
  assert.match(result.message, /Nothing was changed/);
});
