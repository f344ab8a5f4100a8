// Patch planning and the text-drift check (static/addin/patches.js, drift.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { driftCheck, normaliseText } from "../../static/addin/drift.js";
import { blockedReason, composeRequest, currentSpan, inScope, planApply, readCompose } from "../../static/addin/patches.js";

const anchors = new Map([
  ["_RL_000000000001", { index: 0, text: "First as analysed." }],
  ["_RL_000000000002", { index: 1, text: "Second as analysed." }],
  ["_RL_000000000003", { index: 2, text: "Third as analysed." }],
]);

function s(pk, anchor, severity = "major", position = pk, patch = "<pkg:package/>", rule = "rule-" + pk) {
  return { pk, id: `sid${pk}`, anchor, severity, position, patch, rule };
}

function state(extra = {}) {
  return { anchors, applied: new Set(), ...extra };
}

test("apply all groups a paragraph's suggestions into one request, paragraphs in document order", () => {
  const plan = planApply(
    [
      s(1, "_RL_000000000003"),
      s(2, "_RL_000000000001", "minor", 2),
      s(3, "_RL_000000000001", "critical", 9),
      s(4, "_RL_000000000002"),
    ],
    state(),
  );
  assert.deepEqual(plan.groups.map((g) => [g.anchor.slice(-1), g.add.map((x) => x.pk)]), [["1", [2, 3]], ["2", [4]], ["3", [1]]]);
  assert.deepEqual(plan.skip, []);
});

test("apply all leaves out what was applied, has no patch, or lost its paragraph; a paragraph with one applied still takes more", () => {
  const plan = planApply(
    [s(1, "_RL_000000000001"), s(5, "_RL_000000000001"), s(2, "_RL_000000000002", "major", 2, null), s(3, "_RL_ffffffffffff"),
      s(4, "_RL_000000000003")],
    state({ applied: new Set([1]) }),
  );
  assert.deepEqual(plan.groups.map((g) => g.add.map((x) => x.pk)), [[5], [4]]);
  assert.deepEqual(plan.skip.map((x) => [x.suggestion.pk, x.reason.split(" ")[0]]), [[2, "This"], [3, "Its"]]);
});

test("a single apply is only blocked by being applied, having no patch, or a lost paragraph", () => {
  assert.equal(blockedReason(s(1, "_RL_000000000001"), state({ applied: new Set([2]) })), "");
  assert.equal(blockedReason(s(1, "_RL_000000000001"), state({ applied: new Set([1]) })), "Already applied.");
  assert.match(blockedReason(s(1, "_RL_ffffffffffff"), state()), /Review again/);
  assert.match(blockedReason(s(1, "_RL_000000000001", "major", 1, null), state()), /by hand/);
});

test("the scope of a severity's or a clause's Apply all", () => {
  const all = [s(1, "_RL_000000000001", "critical"), s(2, "_RL_000000000002", "minor", 2, "x", "payment-terms")];
  assert.deepEqual(all.filter(inScope({ scope: "severity", value: "critical" })).map((x) => x.pk), [1]);
  assert.deepEqual(all.filter(inScope({ scope: "rule", value: "payment-terms" })).map((x) => x.pk), [2]);
  assert.throws(() => inScope({ scope: "colour", value: "red" }), /unknown apply-all scope/);
});

test("the request holds what the paragraph already has and the new ones, once each", () => {
  const records = new Map([["_RL_000000000001", { ids: ["sid3", "sid1"], texts: ["x"], before: 0, after: 0 }]]);
  assert.deepEqual(composeRequest("_RL_000000000001", [s(2, "_RL_000000000001"), s(1, "_RL_000000000001")], records),
    { anchor: "_RL_000000000001", suggestions: ["sid3", "sid1", "sid2"] });
  assert.deepEqual(composeRequest("_RL_000000000002", [s(4, "_RL_000000000002")], records).suggestions, ["sid4"]);
});

test("the span checked before a patch: the analysed text first, then what the last patch left", () => {
  const records = new Map([["_RL_000000000002", { ids: ["sid4"], texts: ["Second, changed.", "A new clause."], before: 0, after: 1 }]]);
  assert.deepEqual(currentSpan("_RL_000000000001", records, anchors), { before: 0, after: 0, texts: ["First as analysed."] });
  assert.deepEqual(currentSpan("_RL_000000000002", records, anchors),
    { before: 0, after: 1, texts: ["Second, changed.", "A new clause."] });
});

test("the answer: applied ones go in, the ones that no longer fit say why", () => {
  const add = [s(2, "_RL_000000000001"), s(3, "_RL_000000000001")];
  const got = readCompose({ patch: "<pkg:package/>", results: [
    { id: "sid1", status: "applied", message: "" },
    { id: "sid2", status: "applied", message: "" },
    { id: "sid3", status: "skipped", message: "The quote is not in the paragraph." },
  ] }, add);
  assert.equal(got.insert, true);
  assert.deepEqual(got.applied.map((x) => x.pk), [2]);
  assert.equal(got.skipped[0].suggestion.pk, 3);
  assert.match(got.skipped[0].reason, /no longer fits.*The quote is not in the paragraph/);
});

test("the answer: nothing goes in when a suggestion applied earlier would be pushed out", () => {
  const add = [s(2, "_RL_000000000001")];
  const got = readCompose({ patch: "<pkg:package/>", results: [
    { id: "sid1", status: "skipped", message: "The quote is not in the paragraph." },
    { id: "sid2", status: "applied", message: "" },
  ] }, add);
  assert.deepEqual([got.insert, got.applied], [false, []]);
  assert.match(got.skipped[0].reason, /overlaps a suggestion already applied.*Nothing was changed/);
  const none = readCompose({ patch: null, results: [{ id: "sid2", status: "skipped", message: "No." }] }, add);
  assert.deepEqual([none.insert, none.applied.length, none.skipped.length], [false, 0, 1]);
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
