// Votes and follow-up reasons, sent in order per suggestion: a changed vote is
// sent after the one it replaces, so the server keeps the last. Fire and forget:
// nothing waits for feedback, and a failure is only logged.

export class FeedbackQueue {
  constructor(api) {
    this.api = api;
    this.last = new Map(); // pk -> the last request sent for it
  }

  send(pk, body) {
    const sent = (this.last.get(pk) || Promise.resolve())
      .then(() => this.api.post(`/suggestions/${pk}/feedback`, body))
      .catch((error) => console.warn("feedback not sent", error));
    this.last.set(pk, sent);
    return sent;
  }
}
