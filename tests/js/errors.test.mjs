// Error wording (static/addin/errors.js): plain words, retry only where it can help.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError, describeError, NetworkError, ReviewFailed, WordError } from "../../static/addin/errors.js";

test("network down: retry", () => {
  assert.deepEqual(describeError(new NetworkError("fetch failed")), {
    message: "Redline can't be reached. Check your connection, then retry.", retry: true, signedOut: false,
  });
});

test("revoked key: sign in again, no retry", () => {
  const d = describeError(new ApiError(401, { code: "unauthorized", message: "A valid API key is required" }));
  assert.equal(d.signedOut, true);
  assert.equal(d.retry, false);
  assert.match(d.message, /Sign in again/);
});

test("too large: says the limit, no retry", () => {
  const d = describeError(new ApiError(413, { code: "too_large", message: "x", detail: { limit: 52428800 } }));
  assert.equal(d.message, "This document is too large for Redline to review (the limit is 50 MB).");
  assert.equal(d.retry, false);
});

test("server error: generic words (never the server's internals), retry", () => {
  const d = describeError(new ApiError(500, { code: "internal_error", message: "Traceback..." }));
  assert.equal(d.message, "Redline had a problem on its side. Please retry in a moment.");
  assert.equal(d.retry, true);
});

test("a refused request shows the server's message; Word errors say it was Word", () => {
  assert.equal(describeError(new ApiError(422, { message: "There are no paragraphs to review." })).message,
    "There are no paragraphs to review.");
  assert.match(describeError(new WordError("GeneralException")).message, /^Word couldn't do that: GeneralException/);
  assert.equal(describeError(new TypeError("x")).retry, true);
});

test("a failed review says so and offers to start it again", () => {
  const d = describeError(new ReviewFailed("The provider timed out."));
  assert.equal(d.message, "The review did not finish. The provider timed out. Retrying starts it again.");
  assert.equal(d.retry, true);
});
