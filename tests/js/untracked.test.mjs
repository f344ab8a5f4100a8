// Changes made without tracking, as the pane words them (static/addin/untracked.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { untrackedLine } from "../../static/addin/untracked.js";

test("each kind of change says what it was and what it is", () => {
  assert.equal(untrackedLine({ kind: "changed", before: "within ten (10) days", after: "within thirty (30) days" }),
    "Changed: “within ten (10) days” → “within thirty (30) days”");
  assert.equal(untrackedLine({ kind: "inserted", before: "", after: "The Customer waives all claims." }),
    "Added: “The Customer waives all claims.”");
  assert.equal(untrackedLine({ kind: "deleted", before: "Governed by English law.", after: "" }),
    "Removed: “Governed by English law.”");
});
