// What the pane shows while a run streams (static/addin/stream.js): a retried attempt replaces the failed one.
import assert from "node:assert/strict";
import { test } from "node:test";

import { liveSuggestions } from "../../static/addin/stream.js";

function replay(events) {
  return events.reduce((list, [kind, data]) => liveSuggestions(list, kind, data), []);
}

test("suggestions accumulate within an attempt, once each", () => {
  const shown = replay([["started", { attempt: 1 }], ["suggestion", { id: "a" }], ["progress", {}],
    ["suggestion", { id: "b" }], ["suggestion", { id: "a" }]]);
  assert.deepEqual(shown.map((s) => s.id), ["a", "b"]);
});

test("a new attempt's started event drops what the failed attempt streamed", () => {
  const shown = replay([["started", { attempt: 1 }], ["suggestion", { id: "a" }], ["suggestion", { id: "b" }],
    ["started", { attempt: 2 }], ["suggestion", { id: "a" }]]);
  assert.deepEqual(shown.map((s) => s.id), ["a"]);
});

test("events that change nothing keep the same list (no redraw)", () => {
  const list = [{ id: "a" }];
  assert.equal(liveSuggestions(list, "progress", { stage: "read" }), list);
  assert.equal(liveSuggestions(list, "suggestion", { id: "a" }), list);
});
