/* metabits website: accessible names that match what a reader sees (Jupyter Book adds every .js
   file in _static to every page).

   A control whose aria-label differs from its visible text is announced by a name a voice-control
   user cannot say (axe-core: label-content-name-mismatch). Two such controls come from the stack:
   pydata-sphinx-theme's search field button (label "Search", visible "Search Ctrl+K") and
   MyST-NB's hidden-cell toggles (label "Toggle hidden content", visible "Show code cell source").
   Without the aria-label their accessible name is their visible text. */
(function () {
  "use strict";
  function setup() {
    document.querySelectorAll(
      'button.search-button-field[aria-label], details > summary[aria-label="Toggle hidden content"]'
    ).forEach((el) => {
      if ((el.innerText || el.textContent || "").trim()) el.removeAttribute("aria-label");
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
