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

// Issue #31: a run that finished without its terminal event left the pane waiting forever.
class SilentSource {
  static CLOSED = 2;
  static CONNECTING = 0;
  constructor(url) { this.url = url; this.readyState = 1; this.closed = false; SilentSource.opened.push(this); }
  addEventListener() {}
  close() { this.closed = true; this.readyState = SilentSource.CLOSED; }
}

function fakeApi(statuses) {
  const asked = [];
  return {
    asked,
    post: async () => ({ ticket: "t" }),
    get: async (path) => { asked.push(path); return { status: statuses.shift() ?? "running" }; },
  };
}

test("a quiet stream ends when the run's status says it ended", async () => {
  SilentSource.opened = [];
  globalThis.EventSource = SilentSource;
  const api = fakeApi(["running", "done"]);
  const { followRun } = await import("../../static/addin/stream.js");
  await followRun(api, 7, { onEvent: () => {}, statusCheckMs: 5 });
  assert.deepEqual(api.asked, ["/runs/7", "/runs/7"]);
  assert.ok(SilentSource.opened.every((s) => s.closed));
});

test("a run whose status says error rejects as a failed review", async () => {
  SilentSource.opened = [];
  globalThis.EventSource = SilentSource;
  const { followRun } = await import("../../static/addin/stream.js");
  await assert.rejects(followRun(fakeApi(["error"]), 8, { onEvent: () => {}, statusCheckMs: 5 }),
    (error) => error.name === "ReviewFailed" || error.constructor.name === "ReviewFailed");
});
