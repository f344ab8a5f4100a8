// Progress wording: the run's SSE events as a bar and a sentence.

const STAGES = {
  queued: "Waiting for a reviewer",
  started: "Starting the review",
  read: "Reading the document",
  reading: "Reading the document",
  prepare: "Preparing the playbook",
  analyze: "Checking the rules",
  finalize: "Checking the suggestions",
};

/**
 * @param {string} kind the SSE event kind (started, progress, done, error).
 * @param {object} data its data ({stage, done, total} for progress; requests_done and requests while a model
 *   answers the contract's parts).
 * @returns {{fraction: number|null, text: string}} fraction in [0, 1], null when unknown.
 */
export function progressView(kind, data = {}) {
  if (kind === "done") return { fraction: 1, text: "Review complete." };
  if (kind === "started") return { fraction: 0, text: STAGES.started + "…" };
  const label = STAGES[data.stage] || "Working";
  const total = Number(data.total);
  const done = Number(data.done);
  if (Number.isFinite(total) && total > 0 && Number.isFinite(done)) {
    const clamped = Math.min(Math.max(done, 0), total);
    // a model reads the contract in parts, each for several rules: say how many parts it has answered
    const parts = Number(data.requests);
    const read = Number.isFinite(parts) && parts > 1 ? ` (model answered ${Math.min(Number(data.requests_done) || 0, parts)} of ${parts} parts)` : "";
    return { fraction: clamped / total, text: `${label}: ${clamped} of ${total}${read}` };
  }
  return { fraction: null, text: label + "…" };
}
