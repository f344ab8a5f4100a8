// The optional thumbs-down follow-up: reasons and a comment, shown under the result.
// It never blocks: the thumbs-down itself is already sent, nothing else waits for this
// panel, and Skip, Escape or a click anywhere outside closes it.

export class FollowUp {
  /** @param {HTMLElement} panel the #follow-up element */
  constructor(panel) {
    this.panel = panel;
    this.form = panel.querySelector("form");
    this.onSubmit = null;
    this.returnFocus = null;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      const data = new FormData(this.form);
      const submit = this.onSubmit;
      this.close();
      submit({ reason: data.get("reason") || null, comment: String(data.get("comment") || "").trim() });
    });
    panel.querySelector("#follow-up-close").addEventListener("click", () => this.close());
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !this.panel.hidden) this.close();
    });
    document.addEventListener(
      "pointerdown",
      (event) => {
        if (!this.panel.hidden && !this.panel.contains(event.target)) this.close();
      },
      true,
    );
  }

  /**
   * @param {HTMLElement} card the result it is about (the panel opens right under it)
   * @param {(answer: {reason: string|null, comment: string}) => void} onSubmit
   * @param {HTMLElement} opener gets focus back on close
   */
  open(card, onSubmit, opener) {
    this.form.reset();
    this.onSubmit = onSubmit;
    this.returnFocus = opener;
    card.after(this.panel);
    this.panel.hidden = false;
    this.panel.querySelector("input").focus();
  }

  close() {
    if (this.panel.hidden) return;
    this.panel.hidden = true;
    this.onSubmit = null;
    if (this.returnFocus && document.contains(this.returnFocus)) this.returnFocus.focus();
    this.returnFocus = null;
  }
}
