/* The rule form (templates/dashboard/rule_form.html): red-line rows added in place, and an edit kept
 * across an expired session.
 *
 * Red lines: "Add another red line" copies the formset's empty row (<template data-red-line-template>)
 * and counts it in the management form. Without JavaScript the form always ends with one empty row.
 *
 * Drafts: a rule form posted after the session ended is answered with a redirect to sign-in
 * (HX-Redirect) or, when the cookies are gone too, a "page out of date" 403; either way the page goes
 * and the lawyer's wording with it. So each post first keeps the form's fields in sessionStorage under
 * the form's data-draft key (this tab's storage, gone when the tab closes), and an answer the server
 * took (anything swapped in) drops them. When the playbook page loads with a kept draft, that editor is
 * opened again and the draft put back into it, saying it is not saved yet.
 */
(function () {
  "use strict";
  var STORE = "redline.draft.";

  function addRow(form) {
    var list = form.querySelector("[data-red-lines]");
    var template = form.querySelector("template[data-red-line-template]");
    var total = form.querySelector('input[name="red_lines-TOTAL_FORMS"]');
    if (!list || !template || !total) return null;
    var index = Number(total.value);
    list.insertAdjacentHTML("beforeend", template.innerHTML.replace(/__prefix__/g, String(index))
      .replace(/__number__/g, String(index + 1)));
    total.value = String(index + 1);
    return list.lastElementChild;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-red-line-add]");
    var row = button && addRow(button.form);
    var first = row && row.querySelector("input, textarea, select");
    if (first) first.focus();
  });

  function read(name) {
    try { return JSON.parse(sessionStorage.getItem(name) || "null"); } catch (e) { return null; }
  }

  function keep(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    var draft = {open: form.dataset.draftOpen, target: form.dataset.draftTarget, swap: form.dataset.draftSwap,
                 fields: fields};
    try { sessionStorage.setItem(STORE + form.dataset.draft, JSON.stringify(draft)); } catch (e) { /* no storage */ }
  }

  function restore(form) {
    var name = STORE + form.dataset.draft, draft = read(name);
    if (!draft) return;
    sessionStorage.removeItem(name);
    var rows = draft.fields.find(function (f) { return f[0] === "red_lines-TOTAL_FORMS"; });
    var total = form.querySelector('input[name="red_lines-TOTAL_FORMS"]');
    while (rows && total && Number(total.value) < Number(rows[1]) && addRow(form)) { /* one row per pass */ }
    // A box left unchecked is not in the draft at all: start from none checked.
    form.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (box) { box.checked = false; });
    draft.fields.forEach(function (field) {
      Array.prototype.forEach.call(form.elements, function (el) {
        if (el.name !== field[0] || el.disabled) return;
        if (el.type === "checkbox" || el.type === "radio") { if (el.value === field[1]) el.checked = true; }
        else el.value = field[1];
      });
    });
    var note = document.createElement("p");
    note.className = "flash info";
    note.setAttribute("role", "status");
    note.textContent = "Your changes to this rule are back in the form: they were not saved, because you were " +
      "signed out or the server could not be reached. Save the rule to keep them.";
    form.querySelector(".form-title").after(note);
  }

  // On the playbook page, open each editor that has a kept draft; restore() fills it once it is swapped in.
  function reopen(scope) {
    var prefix = STORE + scope.getAttribute("data-drafts"), names = [];
    for (var i = 0; i < sessionStorage.length; i++) {
      if (sessionStorage.key(i).indexOf(prefix) === 0) names.push(sessionStorage.key(i));
    }
    names.forEach(function (name) {
      var draft = read(name);
      var target = draft && /^\/[^/]/.test(draft.open) && document.querySelector(draft.target);
      if (target) htmx.ajax("GET", draft.open, {target: target, swap: draft.swap});
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt.matches("form[data-draft]")) keep(event.detail.elt);
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var form = event.detail.requestConfig.elt;  // detail.elt is the swap's target here
    if (!event.detail.isError && form.matches("form[data-draft]")) sessionStorage.removeItem(STORE + form.dataset.draft);
  });
  // app.js (loaded first) has put its explanation after the form; say that the wording is not lost.
  document.addEventListener("htmx:responseError", function (event) {
    var form = event.detail.elt, box = form.nextElementSibling;
    if (!form.matches("form[data-draft]") || !box || !box.classList.contains("action-error")) return;
    box.firstChild.textContent += "Your changes to this rule are kept in this browser and come back when " +
      "you reload the page (and sign in, if asked). ";
  });

  htmx.onLoad(function (elt) {
    elt.querySelectorAll("[data-red-line-add]").forEach(function (button) { button.hidden = false; });
    var forms = elt.matches("form[data-draft]") ? [elt] : elt.querySelectorAll("form[data-draft]");
    forms.forEach(restore);
    var scope = elt === document.body && elt.querySelector("[data-drafts]");
    if (scope) reopen(scope);
  });
})();
