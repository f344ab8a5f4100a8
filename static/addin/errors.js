// Errors in plain words. Every failure the pane shows goes through here, so the
// lawyer always gets a sentence saying what happened and whether retrying helps.

/** An error answer from the API: {code, message, detail} with its HTTP status. */
export class ApiError extends Error {
  constructor(status, body = {}) {
    super(body.message || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || "error";
    this.detail = body.detail || {};
  }
}

/** The server could not be reached at all (offline, DNS, TLS, CORS). */
export class NetworkError extends Error {}

/** Word refused an operation (Office.js error or failed async result). */
export class WordError extends Error {}

/** The review itself ended in an error on the server (the message is the run's). */
export class ReviewFailed extends Error {}

function megabytes(bytes) {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/**
 * @param {Error} error
 * @returns {{message: string, retry: boolean, signedOut: boolean}}
 */
export function describeError(error) {
  if (error instanceof NetworkError) {
    return { message: "Redline can't be reached. Check your connection, then retry.", retry: true, signedOut: false };
  }
  if (error instanceof ReviewFailed) {
    const why = error.message ? ` ${error.message}` : "";
    return { message: `The review did not finish.${why} Retrying starts it again.`, retry: true, signedOut: false };
  }
  if (error instanceof WordError) {
    return { message: `Word couldn't do that: ${error.message}`, retry: true, signedOut: false };
  }
  if (error instanceof ApiError) {
    if (error.status === 401) {
      return { message: "Your sign-in is no longer valid (it may have been revoked). Sign in again.", retry: false, signedOut: true };
    }
    if (error.status === 413) {
      const limit = error.detail.limit ? ` (the limit is ${megabytes(error.detail.limit)})` : "";
      return { message: `This document is too large for Redline to review${limit}.`, retry: false, signedOut: false };
    }
    if (error.status === 403) return { message: error.message || "You are not allowed to do that.", retry: false, signedOut: false };
    if (error.status >= 500) {
      return { message: "Redline had a problem on its side. Please retry in a moment.", retry: true, signedOut: false };
    }
    return { message: error.message || "Redline refused the request.", retry: true, signedOut: false };
  }
  return { message: "Something unexpected went wrong. Please retry.", retry: true, signedOut: false };
}
