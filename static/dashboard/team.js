/* The team page: a refused change (the last admin, an unknown account) comes back as 4xx with the
   team part of the page explaining why, marked X-Redline-Error: refused. htmx does not swap error
   responses; this swaps that one in, where the person is looking, instead of a generic error. */
(function () {
  "use strict";
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr.getResponseHeader("X-Redline-Error") !== "refused") return;
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  });
})();
