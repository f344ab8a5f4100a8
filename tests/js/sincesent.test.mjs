// "Changes since we sent it" in words (static/addin/sincesent.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { sinceSentLines } from "../../static/addin/sincesent.js";

test("untracked changes first, then tracked ones, each leading to its paragraph when it has one", () => {
  const lines = sinceSentLines({
    untracked: [{ kind: "changed", anchor: "_RL_1", before: "ten (10) days", after: "thirty (30) days", severity: "critical" },
      { kind: "deleted", anchor: "_RL_2", before: "Gone.", after: "", severity: "major" }],
    tracked: [{ anchor: "_RL_3", authors: ["Counsel"], before: "a", after: "b" },
      { anchor: "_anon_para_4", authors: ["Counsel", "Jo"], before: "c", after: "d" }],
  });
  assert.deepEqual(lines.map((l) => [l.label, l.anchor]), [
    ["Not tracked", "_RL_1"], ["Not tracked", null], ["Tracked by Counsel", "_RL_3"], ["Tracked by Counsel, Jo", null]]);
  assert.equal(lines[0].text, "Changed: “ten (10) days” → “thirty (30) days”");
  assert.deepEqual(sinceSentLines(undefined), []);
});
