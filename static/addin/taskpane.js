// The task pane: sign in, review the open document, show results as they
// arrive, navigate, apply, give feedback, review again.
//
// Office.onReady gates everything. Decisions live in the pure modules
// (anchors, results, patches, drift, errors, outbox); Word access in word.js.

import { anchorIndex } from "./anchors.js";
import { Api } from "./api.js";
import { applyToParagraph } from "./apply.js";
import * as auth from "./auth.js";
import { ClauseSection } from "./clausepane.js";
import { describeError, ReviewFailed } from "./errors.js";
import { FeedbackQueue } from "./feedback.js";
import { FollowUp } from "./followup.js";
import { Outbox } from "./outbox.js";
import { showOverview, shown } from "./overview.js";
import { NO_SIDES, paintSides, rememberSide, sideFor } from "./side.js";
import { blockedReason, inScope, planApply } from "./patches.js";
import { progressView } from "./progress.js";
import { paintCard, renderResults } from "./render.js";
import { renderRuleLines } from "./rulestatus.js";
import { SinceSentSection } from "./sincesent.js";
import { renderUntracked } from "./untracked.js";
import { followRun, liveSuggestions } from "./stream.js";
import { uploadDocument } from "./upload.js";
import * as word from "./word.js";

const SECTIONS = ["starting", "load-failed", "unsupported", "signed-out", "workspace"];
// Office.js normally answers in well under a second; after this long the pane says what to do.
const OFFICE_TIMEOUT_MS = 8000;
const $ = (id) => document.getElementById(id);

const api = new Api(() => auth.storedKey());
let outbox;
let followUp;
let clauses;
let sinceSent;

// What the pane knows about the current review.
const state = {
  runId: null,
  anchors: new Map(), // anchor -> {index, text as analysed}
  rules: new Map(), // rule key -> {title, guidance}
  suggestions: [], // live (streamed) until the run is done, then the stored ones (with pk and patch)
  final: false,
  applied: new Set(), // suggestion pks applied in this pane
  records: new Map(), // anchor -> what was applied to that paragraph in this review (see patches.js)
  votes: new Map(), // pk -> "up" | "down"
  notes: new Map(), // suggestion id -> {message, tone}
  cards: new Map(), // suggestion id -> card element
  busy: false,
};

function show(section) {
  for (const id of SECTIONS) $(id).hidden = id !== section;
}

// -- alerts and progress ------------------------------------------------------

let retryAction = null;

function showError(error, retry) {
  const described = describeError(error);
  if (described.signedOut) {
    auth.forget();
    signedOut(described.message);
    return;
  }
  $("alert-text").textContent = described.message;
  retryAction = described.retry ? retry : null;
  $("retry").hidden = !retryAction;
  $("alert").hidden = false;
}

function clearAlert() {
  $("alert").hidden = true;
  retryAction = null;
}

function showProgress(kind, data) {
  const view = progressView(kind, data);
  const bar = $("progress-bar");
  if (view.fraction === null) bar.removeAttribute("value");
  else bar.value = view.fraction;
  $("progress-text").textContent = view.text;
  $("progress").hidden = false;
}

function setBusy(busy) {
  state.busy = busy;
  $("review").disabled = busy;
  $("since-sent-button").disabled = busy;
  $("side-select").disabled = busy; // a side chosen mid-review would not be the one the results were made for
  $("apply-all").disabled = busy || !state.final || !state.suggestions.some((s) => !blockedReason(s, state));
  paintGroups();
  for (const s of state.suggestions) paint(s);
}

/** Run an action with the pane busy; any failure is shown in plain words with a retry. */
async function guarded(action) {
  if (state.busy) return;
  clearAlert();
  setBusy(true);
  try {
    await action();
  } catch (error) {
    console.error(error);
    showError(error, () => guarded(action));
  } finally {
    setBusy(false);
  }
}

// -- sign in and out ------------------------------------------------------------

function signedOut(reason = "") {
  Object.assign(state, { runId: null, suggestions: [], final: false });
  draw();
  clearAlert();
  $("progress").hidden = true;
  $("summary").textContent = "";
  $("not-repeated").hidden = true;
  $("run-cost").hidden = true;
  $("rule-status").hidden = true;
  $("untracked").hidden = true;
  clauses.clear();
  $("account").replaceChildren();
  $("signed-out-reason").textContent = reason;
  $("signed-out-reason").hidden = !reason;
  show("signed-out");
}

function signedIn() {
  show("workspace");
  htmx.ajax("GET", $("account").dataset.url, { target: "#account", swap: "innerHTML" });
  reportApplied();
}

async function signIn() {
  $("sign-in").disabled = true;
  try {
    auth.remember(await auth.signIn());
    signedIn();
  } catch (error) {
    signedOut(error.message);
  } finally {
    $("sign-in").disabled = false;
  }
}

// -- review -----------------------------------------------------------------------

async function review() {
  $("not-repeated").hidden = true;
  $("run-cost").hidden = true;
  $("rule-status").hidden = true;
  $("untracked").hidden = true;
  $("summary").textContent = "";
  showProgress("progress", { stage: "read" });
  await flushApplied(); // the server must know what we wrote before it reads the file back
  const doc = await word.prepareDocument();
  const uploaded = await uploadDocument(api, doc);
  clauses.load(uploaded); // beside the review: it never holds it up or fails it
  if (!doc.docId) await word.writeDocId(uploaded.document.doc_id);
  const sides = await api.get(`/documents/${uploaded.document.id}/parties`).catch(() => NO_SIDES); // no side: questions
  state.docKey = uploaded.document.doc_id;
  const actingFor = sideFor(state.docKey, sides);
  paintSides($("side"), sides, actingFor);
  const run = await api.post(`/documents/${uploaded.document.id}/runs`, { acting_for: actingFor });
  const rules = await api.get(`/runs/${run.id}/rules`);
  Object.assign(state, {
    runId: run.id,
    anchors: anchorIndex(doc.paragraphs, uploaded.anchors),
    rules: new Map(rules.map((r) => [r.key, r])),
    suggestions: [],
    final: false,
    applied: new Set(),
    records: new Map(),
    votes: new Map(),
    notes: new Map(),
  });
  draw();
  if (run.status !== "done") {
    try {
      await followRun(api, run.id, {
        onEvent(kind, data) {
          showProgress(kind, data);
          const live = liveSuggestions(state.suggestions, kind, data);
          if (live !== state.suggestions) {
            state.suggestions = live;
            draw();
          }
        },
      });
    } catch (error) {
      if (!(error instanceof ReviewFailed)) throw error;
      throw new ReviewFailed((await api.get(`/runs/${run.id}`)).error_message);
    }
  }
  const [finished, suggestions] = await Promise.all([api.get(`/runs/${run.id}`), api.get(`/runs/${run.id}/suggestions`)]);
  state.suggestions = suggestions;
  state.final = true;
  $("progress").hidden = true; // the summary below is the one completion message
  showSummary(finished.summary, finished.cost);
  draw();
}

/** The server's honest summary: headline, what was not proposed again, what the model was asked and its
 * estimated cost (in the server's words, as the run page says it), one line per rule. */
function showSummary(summary, cost) {
  const headline = summary ? summary.headline : "";
  $("summary").textContent = headline && `Review complete: ${headline[0].toLowerCase()}${headline.slice(1)}`;
  const notRepeated = (summary && summary.not_repeated) || "";
  $("not-repeated").textContent = notRepeated;
  $("not-repeated").hidden = !notRepeated;
  $("run-cost").textContent = (cost && cost.line) || "";
  $("run-cost").hidden = !cost;
  $("rule-status").hidden = !renderRuleLines($("rule-lines"), summary, pickRule);
  $("untracked").hidden = !renderUntracked($("untracked-list"), summary, (change, item) => showParagraph(change.anchor, item));
}

/** A rule line leads to its suggestions here, else to the paragraph it read in the document. */
async function pickRule(line, item) {
  if (line.target === "results") {
    const block = $("results").querySelector(`[data-rule="${CSS.escape(line.key)}"]`);
    if (block) block.scrollIntoView({ block: "start" });
    return;
  }
  await showParagraph(line.anchor, item);
}

/** Select a summary line's paragraph in Word; the line says so when it is no longer in the document. */
async function showParagraph(anchor, item) {
  try {
    if (await word.selectAnchor(anchor)) return;
    let gone = item.querySelector(".gone");
    if (!gone) {
      gone = document.createElement("span");
      gone.className = "gone small";
      item.append(" ", gone);
    }
    gone.textContent = "This paragraph is no longer in the document.";
  } catch (error) {
    showError(error, () => showParagraph(anchor, item));
  }
}

// -- results ----------------------------------------------------------------------

function draw() {
  followUp.close(); // its result may be redrawn
  state.cards = renderResults($("results"), state);
  paintGroups();
  for (const s of state.suggestions) paint(s);
  showOverview($("overview"), state.suggestions, state.cards);
}

/** "Apply all" of a severity or a clause: on while any of its suggestions can be applied. */
function paintGroups() {
  for (const button of $("results").querySelectorAll(".apply-group")) {
    const open = state.suggestions.some((s) => inScope(button.dataset)(s) && !blockedReason(s, state));
    button.disabled = state.busy || !state.final || !open;
  }
}

function paint(s) {
  const el = state.cards.get(s.id);
  if (!el) return;
  const note = state.notes.get(s.id);
  const blocked = state.final ? blockedReason(s, state) : "";
  paintCard(el, {
    canAct: state.final && !state.busy,
    canApply: !blocked,
    applied: state.applied.has(s.pk),
    vote: state.votes.get(s.pk) || null,
    message: note ? note.message : blocked, // why Apply is off, unless something newer happened
    tone: note ? note.tone : blocked && "warn",
  });
}

function note(s, message, tone = "") {
  state.notes.set(s.id, { message, tone });
  paint(s);
}

function suggestionFor(element) {
  const card = element.closest(".result");
  return card && state.suggestions.find((s) => s.id === card.dataset.id);
}

/** Select the result's paragraph in Word; allowed at any time, even while a review runs. */
async function locate(s) {
  try {
    if (!(await word.selectAnchor(s.anchor))) note(s, "This paragraph is no longer in the document.", "warn");
  } catch (error) {
    showError(error, () => locate(s));
  }
}

// -- apply --------------------------------------------------------------------------

/** Apply suggestions of one paragraph, composed with those already applied there; how many went in. */
async function applyGroup(anchor, add) {
  for (const s of add) note(s, "Applying…");
  let outcome;
  try {
    outcome = await applyToParagraph({ api, runId: state.runId, anchor, add, records: state.records, anchors: state.anchors });
  } catch (error) {
    for (const s of add) state.notes.delete(s.id); // the alert says what failed; no card stays "Applying…"
    throw error;
  }
  for (const { suggestion, reason } of outcome.skipped) note(suggestion, reason, "warn");
  for (const s of outcome.applied) {
    state.applied.add(s.pk);
    note(s, s.kind === "comment" ? "Added as a comment." : "Applied as a tracked change.", "ok");
  }
  if (outcome.applied.length) outbox.add(state.runId, outcome.applied.map((s) => s.pk));
  return outcome.applied.length;
}

async function flushApplied() {
  await outbox.flush((runId, pks) => api.post(`/runs/${runId}/applied`, { suggestions: pks }));
}

/** Report applied suggestions now if possible; what fails stays queued for the next action. */
async function reportApplied() {
  try {
    await flushApplied();
  } catch (error) {
    console.warn("applied suggestions not reported yet", error);
  }
}

async function applySingle(s) {
  const reason = blockedReason(s, state);
  if (reason) {
    note(s, reason, "warn");
    return;
  }
  try {
    await applyGroup(s.anchor, [s]);
  } finally {
    await reportApplied();
  }
}

/** Apply every applicable suggestion in scope (the run, a severity, a clause): one composed patch per paragraph. */
async function applyAll(inScope = () => true) {
  const plan = planApply(state.suggestions.filter((s) => inScope(s) && shown(s)), state); // hidden cards stay
  for (const { suggestion, reason } of plan.skip) note(suggestion, reason, "warn");
  const total = plan.groups.reduce((n, g) => n + g.add.length, plan.skip.length);
  let applied = 0;
  try {
    for (const { anchor, add } of plan.groups) applied += await applyGroup(anchor, add);
  } finally {
    await reportApplied();
    $("summary").textContent = `Applied ${applied} of ${total} suggestions.`;
  }
}

// -- feedback -------------------------------------------------------------------------

const feedback = new FeedbackQueue(api);

function vote(s, up, button) {
  const choice = up ? "up" : "down";
  if (state.votes.get(s.pk) === choice) return; // pressing the current vote again changes nothing
  state.votes.set(s.pk, choice);
  paint(s);
  feedback.send(s.pk, { thumbs_up: up }); // fire and forget: nothing waits for it
  if (!up) {
    followUp.open(
      state.cards.get(s.id),
      ({ reason, comment }) => {
        if (reason || comment) {
          feedback.send(s.pk, { thumbs_up: false, follow_up_reason: reason, additional_comments: comment });
        }
      },
      button,
    );
  }
}

// -- wiring ---------------------------------------------------------------------------

function wire() {
  auth.wireHtmx(signedOut);
  clauses = new ClauseSection({ api, $, showError });
  sinceSent = new SinceSentSection({ api, $, upload: async () => {
    await flushApplied(); // what we wrote is ours, not theirs
    return uploadDocument(api, await word.prepareDocument());
  } });
  followUp = new FollowUp($("follow-up"));
  $("sign-in").addEventListener("click", signIn);
  $("review").addEventListener("click", () => guarded(review));
  $("side-select").addEventListener("change", (event) => {
    rememberSide(state.docKey, event.target.value);
    guarded(review);
  });
  $("apply-all").addEventListener("click", () => guarded(() => applyAll()));
  $("since-sent-button").addEventListener("click", () => guarded(() => sinceSent.load()));
  $("retry").addEventListener("click", () => retryAction && retryAction());
  $("dismiss").addEventListener("click", clearAlert);
  $("results").addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (button && button.classList.contains("apply-group")) {
      guarded(() => applyAll(inScope(button.dataset)));
      return;
    }
    const s = button && suggestionFor(button);
    if (!s) return;
    if (button.classList.contains("locate")) locate(s);
    else if (button.classList.contains("apply")) guarded(() => applySingle(s));
    else if (button.classList.contains("vote")) vote(s, button.classList.contains("up"), button);
  });
}

/** Office.js did not load or Word does not answer: say so, and what to do, instead of "Starting…" forever. */
function loadFailed(message) {
  $("load-failed-text").textContent = message;
  $("reload").addEventListener("click", () => window.location.reload());
  show("load-failed");
}

function start(info) {
  if (info.host !== Office.HostType.Word) {
    show("unsupported");
    return;
  }
  if (!Office.context.requirements.isSetSupported("WordApi", "1.4")) {
    $("unsupported-text").textContent =
      "This version of Word is too old for Redline: it needs Word API 1.4 (Word 2019 or later, Microsoft 365, or Word on the web).";
    show("unsupported");
    return;
  }
  outbox = new Outbox(localStorage, auth.partitioned("redline.outbox"));
  wire();
  if (auth.storedKey()) signedIn();
  else signedOut();
}

// boot.js started the clock when the pane appeared; from here on this script keeps it.
const boot = window.redlineBoot;
if (boot) clearTimeout(boot.timer);
document.querySelector(".boot-failed")?.remove(); // Office.js came after all: the pane speaks for itself now
if (typeof Office === "undefined") {
  loadFailed(
    "Office.js, which lets the pane talk to Word, could not be loaded from appsforoffice.microsoft.com. " +
      "Check your internet connection, or ask IT whether a firewall or proxy blocks that address, then reload the pane.",
  );
} else {
  const timer = setTimeout(() => {
    loadFailed(
      "Word has not answered the pane for 8 seconds. Close the Redline pane and open it again from " +
        "Home › Review contract; if this keeps happening, save your work and restart Word.",
    );
  }, Math.max(0, OFFICE_TIMEOUT_MS - (boot ? Date.now() - boot.at : 0)));
  Office.onReady().then((info) => {
    clearTimeout(timer);
    start(info);
  });
}
