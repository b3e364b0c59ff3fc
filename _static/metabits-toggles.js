/* metabits website: make every sidebar toggle button work (Jupyter Book adds every .js file in
   _static to every page).

   pydata-sphinx-theme >= 0.17 binds its "open the drawer" handler (and sphinx-book-theme its
   "hide the sidebar" handler at >= 992 px) to the FIRST element with the class .primary-toggle
   (.secondary-toggle), found with document.querySelector. sphinx-book-theme renders a second
   copy of each in the article header, and that copy is the one a reader sees: the hidden first
   copy sits in the top navbar. So on a phone the visible ☰ and "Contents" buttons did nothing
   (upstream: https://github.com/pydata/pydata-sphinx-theme/issues/2451).

   Here every other copy forwards its click to the first one, so the theme's own code runs: the
   drawer opens as a modal dialog on a narrow screen, the sidebar hides/shows on a wide one.
   Harmless once the theme binds every copy itself: then the forwarded click is not needed, and
   the guard below (a copy whose own handler already ran stops here) keeps it from running twice. */
(function () {
  "use strict";
  function forward(selector) {
    const all = Array.from(document.querySelectorAll(selector));
    if (all.length < 2) return;
    const first = all[0];
    all.slice(1).forEach((button) => {
      button.addEventListener("click", (event) => {
        if (event.defaultPrevented) return;  // a theme handler on this copy already acted
        event.preventDefault();
        event.stopPropagation();
        first.click();
      });
    });
  }
  function setup() {
    forward(".primary-toggle");
    forward(".secondary-toggle");
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
