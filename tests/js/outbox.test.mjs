// The applied-suggestions outbox (static/addin/outbox.js) over an in-memory storage.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Outbox } from "../../static/addin/outbox.js";

function memoryStorage() {
  const map = new Map();
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
    map,
  };
}

test("adds deduplicated pks per run and flushes them", async () => {
  const storage = memoryStorage();
  const outbox = new Outbox(storage, "p:outbox");
  outbox.add(7, [1, 2]);
  outbox.add(7, [2, 3]);
  outbox.add(8, [9]);
  assert.deepEqual(outbox.pending(), { 7: [1, 2, 3], 8: [9] });
  const sent = [];
  await outbox.flush(async (run, pks) => sent.push([run, pks]));
  assert.deepEqual(sent, [[7, [1, 2, 3]], [8, [9]]]);
  assert.deepEqual(outbox.pending(), {});
  assert.equal(storage.map.size, 0);
});

test("a failed report keeps what was not sent, and rethrows", async () => {
  const outbox = new Outbox(memoryStorage(), "k");
  outbox.add(1, [10]);
  outbox.add(2, [20]);
  await assert.rejects(
    outbox.flush(async (run) => {
      if (run === 2) throw new Error("offline");
    }),
    /offline/,
  );
  assert.deepEqual(outbox.pending(), { 2: [20] });
});

test("pks added while a report is in flight are kept", async () => {
  const outbox = new Outbox(memoryStorage(), "k");
  outbox.add(1, [10]);
  await outbox.flush(async () => outbox.add(1, [11]));
  assert.deepEqual(outbox.pending(), { 1: [11] });
});

test("corrupt storage reads as empty", () => {
  const storage = memoryStorage();
  storage.setItem("k", "{not json");
  assert.deepEqual(new Outbox(storage, "k").pending(), {});
});
