// Anchor bookkeeping (static/addin/anchors.js) under Node's built-in test runner.
import assert from "node:assert/strict";
import { test } from "node:test";

import { anchorFromBytes, anchorIndex, isAnchor, isBlank, planAnchors } from "../../static/addin/anchors.js";

function counter() {
  let n = 0;
  return () => `_RL_${(++n).toString(16).padStart(12, "0")}`;
}

test("anchor names are _RL_ plus 12 lowercase hex", () => {
  assert.equal(anchorFromBytes(Uint8Array.from([0, 1, 0xab, 0xcd, 0xef, 0xff])), "_RL_0001abcdefff");
  assert.ok(isAnchor("_RL_0001abcdefff"));
  for (const bad of ["_RL_0001ABCDEFFF", "_RL_123", "RL_0001abcdefff", "_Toc123", null]) assert.ok(!isAnchor(bad));
  assert.throws(() => anchorFromBytes(new Uint8Array(5)));
});

test("every non-blank paragraph without an anchor gets one; blank ones get none", () => {
  const plan = planAnchors(
    [
      { text: "1. Definitions", names: [] },
      { text: "  \u200b ", names: [] },
      { text: "The Supplier shall deliver.", names: ["_RL_aaaaaaaaaaaa", "_Toc1"] },
    ],
    counter(),
  );
  assert.deepEqual(plan.anchors, ["_RL_000000000001", null, "_RL_aaaaaaaaaaaa"]);
  assert.deepEqual(plan.inserts, [{ index: 0, anchor: "_RL_000000000001" }]);
});

test("a split paragraph: the first half keeps the name, the second half gets a new one", () => {
  const plan = planAnchors(
    [
      { text: "First half.", names: ["_RL_aaaaaaaaaaaa"] },
      { text: "Second half.", names: ["_RL_aaaaaaaaaaaa"] },
    ],
    counter(),
  );
  assert.deepEqual(plan.anchors, ["_RL_aaaaaaaaaaaa", "_RL_000000000001"]);
  assert.deepEqual(plan.inserts, [{ index: 1, anchor: "_RL_000000000001" }]);
});

test("a merged paragraph keeps one of its names and needs nothing new; re-planning is stable", () => {
  const paragraphs = [{ text: "Merged.", names: ["_RL_bbbbbbbbbbbb", "_RL_aaaaaaaaaaaa"] }];
  const first = planAnchors(paragraphs, counter());
  assert.deepEqual(first, { anchors: ["_RL_aaaaaaaaaaaa"], inserts: [] });
  assert.deepEqual(planAnchors(paragraphs, counter()), first);
});

test("a fresh name never collides with one already in the document", () => {
  const taken = "_RL_000000000001";
  const plan = planAnchors([{ text: "A", names: [taken] }, { text: "B", names: [] }], counter());
  assert.deepEqual(plan.inserts, [{ index: 1, anchor: "_RL_000000000002" }]);
});

test("the server's anchors map to the first paragraph that holds them", () => {
  const paragraphs = [
    { text: "One", names: ["_RL_aaaaaaaaaaaa"] },
    { text: "Two", names: ["_RL_aaaaaaaaaaaa", "_RL_cccccccccccc"] },
    { text: "Three", names: ["_RL_dddddddddddd"] },
  ];
  const index = anchorIndex(paragraphs, ["_RL_aaaaaaaaaaaa", "_RL_cccccccccccc"]);
  assert.deepEqual([...index], [
    ["_RL_aaaaaaaaaaaa", { index: 0, text: "One" }],
    ["_RL_cccccccccccc", { index: 1, text: "Two" }],
  ]);
});

test("blank means no visible characters", () => {
  assert.ok(isBlank("") && isBlank(" \t\u00a0\ufeff") && !isBlank(" a "));
});
