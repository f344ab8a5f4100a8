// Following a run's progress over server-sent events.
//
// EventSource cannot send an Authorization header, so each connection uses a
// short-lived ticket from POST /api/runs/{id}/ticket. When the connection drops,
// EventSource would retry with the same (possibly expired) ticket, so we close it
// and reconnect ourselves with a fresh ticket and the last event id we saw.

import { NetworkError, ReviewFailed } from "./errors.js";

const KINDS = ["started", "progress", "suggestion", "done", "error"];
const MAX_RECONNECTS = 5;
const STATUS_CHECK_MS = 15000;

/**
 * How a run that ended shows in its status: "done", "error", or null while it runs. The pane asks when
 * the stream is quiet or reconnects, so a run that finished without its terminal event still ends.
 * @param {{status?: string}} run
 * @returns {"done"|"error"|null}
 */
export function runEnd(run) {
  if (run && run.status === "done") return "done";
  if (run && run.status === "error") return "error";
  return null;
}

/**
 * The suggestions streamed so far, after one more event. A `started` event begins an
 * attempt: a job retried after its worker died starts over, so what the failed attempt
 * streamed is dropped rather than shown twice.
 * @param {object[]} suggestions
 * @param {string} kind
 * @param {object} data
 * @returns {object[]}
 */
export function liveSuggestions(suggestions, kind, data) {
  if (kind === "started") return [];
  if (kind === "suggestion" && !suggestions.some((s) => s.id === data.id)) return [...suggestions, data];
  return suggestions;
}

/**
 * @param {import("./api.js").Api} api
 * @param {number} runId
 * @param {{onEvent: (kind: string, data: object) => void, statusCheckMs?: number}} handlers: onEvent is
 *   called for every event, in order, each once; after statusCheckMs without one the run's status is read.
 * @returns {Promise<void>} resolves after `done`; rejects with ReviewFailed after a
 *   server `error` event (the run holds the reason), or with NetworkError when the
 *   stream cannot be re-established.
 */
export function followRun(api, runId, { onEvent, statusCheckMs = STATUS_CHECK_MS }) {
  return new Promise((resolve, reject) => {
    let lastId = 0;
    let failures = 0;
    let source = null;
    let settled = false;
    let quiet = null;

    const finish = (end) => {
      if (settled) return;
      settled = true;
      clearTimeout(quiet);
      if (source) source.close();
      if (end === "done") resolve();
      else reject(new ReviewFailed(""));
    };
    // A quiet stream asks for the run's status: the run may have ended without its terminal event.
    const watch = () => {
      clearTimeout(quiet);
      quiet = setTimeout(async () => {
        try {
          const end = runEnd(await api.get(`/runs/${runId}`));
          if (end) return finish(end);
        } catch (error) {
          // the next reconnect or check tries again
        }
        if (!settled) watch();
      }, statusCheckMs);
    };

    const connect = async () => {
      if (settled) return;
      watch();
      let ticket;
      try {
        ({ ticket } = await api.post(`/runs/${runId}/ticket`));
      } catch (error) {
        settled = true;
        clearTimeout(quiet);
        reject(error);
        return;
      }
      const url = `/api/runs/${runId}/events?ticket=${encodeURIComponent(ticket)}&last_event_id=${lastId}`;
      source = new EventSource(url);
      for (const kind of KINDS) {
        source.addEventListener(kind, (event) => {
          // A connection failure is also an "error" event, but without data.
          if (!(event instanceof MessageEvent) || typeof event.data !== "string") return;
          const seq = Number(event.lastEventId);
          if (seq && seq <= lastId) return;
          lastId = seq || lastId;
          failures = 0;
          const data = JSON.parse(event.data);
          onEvent(kind, data);
          if (kind === "done" || kind === "error") finish(kind);
          else watch();
        });
      }
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED || source.readyState === EventSource.CONNECTING) {
          source.close();
          failures += 1;
          if (failures > MAX_RECONNECTS) {
            settled = true;
            clearTimeout(quiet);
            reject(new NetworkError("the progress stream was lost"));
          } else {
            setTimeout(connect, 500 * failures);
          }
        }
      };
    };
    connect();
  });
}
