// The pane's first words, before Office.js. Microsoft requires Office.js in the page's head, so the browser
// waits for it before it shows anything; its CDN can hang (a firewall that drops packets). This script runs
// first and gives the pane eight seconds from here. If Office.js has not arrived by then, the pane says so,
// even though its body has not been read yet. Once Office.js is there, taskpane.js takes over and counts its
// own eight seconds from the same moment (window.redlineBoot.at): every failure is explained within eight
// seconds of the pane being opened.
window.redlineBoot = {
  at: Date.now(),
  timer: setTimeout(() => {
    if (typeof window.Office !== "undefined") return; // loaded: taskpane.js is in charge
    const box = document.createElement("section");
    box.className = "boot-failed";
    const title = document.createElement("h1");
    title.textContent = "Redline could not start";
    const text = document.createElement("p");
    text.setAttribute("role", "alert");
    text.textContent =
      "Office.js, which lets the pane talk to Word, has not loaded from appsforoffice.microsoft.com in 8 seconds. " +
      "Check your internet connection, or ask IT whether a firewall or proxy blocks that address, then reload the pane.";
    const reload = document.createElement("button");
    reload.type = "button";
    reload.textContent = "Reload the pane";
    reload.addEventListener("click", () => window.location.reload());
    box.append(title, text, reload);
    (document.body || document.documentElement).append(box);
  }, 8000),
};
