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

  // A failed action is explained next to the control that sent it (not at the top of the
  // page, out of sight), with a Reload button when reloading is what fixes it.
  function explain(elt, message, reload) {
    var anchor = elt && elt.closest ? (elt.closest("form") || elt) : null;
    if (!anchor || !anchor.parentNode) {
      flash(message);
      return;
    }
    var box = document.createElement("p");
    box.className = "action-error";
    box.setAttribute("role", "alert");
    box.append(document.createTextNode(message + " "));
    if (reload) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "primary";
      button.setAttribute("data-reload", "");
      button.textContent = "Reload the page";
      box.append(button);
    }
    var previous = anchor.nextElementSibling;
    if (previous && previous.classList.contains("action-error")) previous.remove();
    anchor.after(box);
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-reload]")) window.location.reload();
  });

  // htmx does not swap error responses; say what happened instead of doing nothing.
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr;
    var elt = event.detail.elt;
    if (xhr.getResponseHeader("X-Redline-Error") === "stale-page") explain(elt, xhr.responseText, true);
    else if (xhr.status === 403) explain(elt, "Your role in this workspace does not allow this. A workspace admin can do it, or change your role.", false);
    else if (xhr.status === 404) explain(elt, "That item no longer exists.", true);
    else explain(elt, "Something went wrong on the server (" + xhr.status + "), so nothing was saved.", true);
  });
  document.addEventListener("htmx:sendError", function (event) {
    explain(event.detail.elt, "The server could not be reached, so nothing was saved. Check your connection and try again.", false);
  });
})();
