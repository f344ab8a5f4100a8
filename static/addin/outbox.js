// Applied suggestions waiting to be reported to the server.
//
// A patch is in the document as soon as Word accepts it; the report that makes
// it a known entry (what the learning loop reads when the file comes back) may
// fail if the network drops. The outbox keeps unreported suggestions in storage,
// so they are sent later, at the latest before the next review uploads the file.

export class Outbox {
  /**
   * @param {{getItem(k: string): string|null, setItem(k: string, v: string): void, removeItem(k: string): void}} storage
   * @param {string} key the storage key (partitioned by the caller).
   */
  constructor(storage, key) {
    this.storage = storage;
    this.key = key;
  }

  /** @returns {Record<string, number[]>} run id -> suggestion pks not yet reported. */
  pending() {
    try {
      return JSON.parse(this.storage.getItem(this.key) || "{}");
    } catch {
      return {};
    }
  }

  #save(pending) {
    if (Object.keys(pending).length) this.storage.setItem(this.key, JSON.stringify(pending));
    else this.storage.removeItem(this.key);
  }

  add(runId, pks) {
    const pending = this.pending();
    pending[runId] = [...new Set([...(pending[runId] || []), ...pks])];
    this.#save(pending);
  }

  /**
   * Report everything pending with `send(runId, pks)`; what was sent is removed.
   * Stops at the first failure and rethrows it (the rest stays pending).
   */
  async flush(send) {
    for (const [runId, pks] of Object.entries(this.pending())) {
      await send(Number(runId), pks);
      const pending = this.pending();
      pending[runId] = (pending[runId] || []).filter((pk) => !pks.includes(pk));
      if (!pending[runId].length) delete pending[runId];
      this.#save(pending);
    }
  }
}
