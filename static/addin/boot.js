// The pane's first words, before Office.js. Microsoft's CDN can hang (a firewall that drops packets) and the
// browser waits for it; this script runs first, with "Starting…" already on screen, and gives the pane eight
// seconds from here. If Office.js has not arrived by then, the pane says so. Once it has, taskpane.js takes
// over and counts its own eight seconds from the same moment (window.redlineBoot.at), so every failure is
// explained within eight seconds of the pane appearing.
window.redlineBoot = {
  at: Date.now(),
  timer: setTimeout(() => {
    if (typeof window.Office !== "undefined") return; // loaded: taskpane.js is in charge
    document.getElementById("load-failed-text").textContent =
      "Office.js, which lets the pane talk to Word, has not loaded from appsforoffice.microsoft.com in 8 seconds. " +
      "Check your internet connection, or ask IT whether a firewall or proxy blocks that address, then reload the pane.";
    document.getElementById("reload").addEventListener("click", () => window.location.reload());
    document.getElementById("starting").hidden = true;
    document.getElementById("load-failed").hidden = false;
  }, 8000),
};
