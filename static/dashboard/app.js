/* Redline dashboard: the little htmx does not do. Pages read fine without it. */
(function () {
  "use strict";

  function flash(message) {
    var region = document.getElementById("flash");
    if (!region) return;
    var p = document.createElement("p");
    p.className = "flash error";
    p.setAttribute("role", "alert");
    p.textContent = message;
    region.replaceChildren(p);
  }

  // Copy buttons: <button data-copy="#input-id">, status in [data-copy-status].
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.getAttribute("data-copy"));
    var status = document.querySelector("[data-copy-status]");
    if (!input) return;
    input.select();
    function done(ok) {
      if (status) status.textContent = ok ? "Copied to the clipboard." : "Press Ctrl+C (⌘C) to copy the selected key.";
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { done(true); }, function () { done(false); });
    } else {
      try { done(document.execCommand("copy")); } catch (e) { done(false); }
    }
  });

  // <select data-autosubmit>: choosing an option submits its form (the workspace switcher).
  // A listener here, not an onchange attribute: the page's CSP allows no inline script.
  document.addEventListener("change", function (event) {
    var select = event.target.closest("select[data-autosubmit]");
    if (select && select.form) select.form.requestSubmit();
  });

  // htmx does not swap error responses; say what happened instead of doing nothing.
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail.xhr.status;
    if (status === 403) flash("You don't have permission to do that. Ask a workspace admin.");
    else if (status === 404) flash("That item no longer exists. Reload the page.");
    else flash("Something went wrong (" + status + "). Reload the page and try again.");
  });
  document.addEventListener("htmx:sendError", function () {
    flash("The server could not be reached. Check your connection and try again.");
  });
})();
