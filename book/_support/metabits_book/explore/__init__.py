"""Explorers: one metabits function, a grid of control values, two ways to move the controls.

An explorer is a function from the values of a few controls (an accuracy, a noise case, a group
size …) to a :class:`View` — the curves, points, bars and bands to draw, and a caption with the
numbers — plus the controls' grids and the panels' axes (:class:`Explorer`). Everything a view
shows is computed by the library when the function is called; the two front ends only draw it:

* **on the website** (:func:`static_html`): the function is called at every point of the grid
  of the controls (:func:`frames`), and the frames are written into the page as JSON with
  HTML sliders and menus. A small generic script (:data:`EXPLORER_JS`) picks the frame of the
  controls' positions and hands its traces to plotly.js (served once from the site's
  ``_static``, see ``_ext/metabits_explore.py``). No kernel, no network, no computation in
  JavaScript: moving a slider only selects a precomputed frame.
* **in a kernel** — Binder, Colab, local Jupyter (:func:`live`): ipywidgets sliders and menus
  call the same function at any value within the grid's range and draw its view with
  matplotlib (:func:`to_matplotlib`). Only widgets that exist in ipywidgets 7.7 (Colab) and 8
  are used (``FloatSlider``, ``IntSlider``, ``Dropdown``, ``Output``, ``HBox``, ``VBox``).

:func:`show` gives both at once: a notebook output whose website rendering is the static
explorer and whose rendering in Jupyter is the live one. No module here imports a plotting or
widget library at its top level; matplotlib and ipywidgets are imported when first needed, and
the website needs only the plotly.js file that the ``plotly`` package ships.

The package, one module per job:

* :mod:`~metabits_book.explore.model` — :class:`Explorer`, :class:`Control`, :class:`Panel`,
  :class:`Trace`, :class:`View`, :func:`control`, :func:`grid`, :func:`frames`;
* :mod:`~metabits_book.explore.labels` — where the points' text labels go (``_label_places``),
  the same for both renderers;
* :mod:`~metabits_book.explore.web` — the website: :func:`static_html`, :func:`plotly_figures`,
  :data:`EXPLORER_JS` (the package data file ``explorer.js``), :func:`plotly_js_path`;
* :mod:`~metabits_book.explore.kernel` — the live explorer: :func:`live`, :func:`to_matplotlib`,
  :func:`show`;
* :mod:`~metabits_book.explore.part1` — Meyen et al. (2025): :func:`noise_cases_explorer`,
  :func:`roc_explorer`, :func:`group_explorer`, :func:`type2_explorer`;
* :mod:`~metabits_book.explore.part3` and :mod:`~metabits_book.explore.part3_agents` — Roberts
  (2026): :func:`oskr_explorer`, :func:`feedback_lab_explorer`, :func:`oskr_surface_explorer`,
  :func:`entropy_explorer`, :func:`channel_noise_explorer`, :func:`alpha_beta_explorer`,
  :func:`verifier_explorer`, :func:`deployment_explorer`, :func:`router_explorer`;
* :mod:`~metabits_book.explore.people` — the Confidence Database: :func:`people_explorer` (a data
  set and a measure → every person against accuracy, with bootstrap intervals).

Every name is importable from ``metabits_book.explore`` itself. A new explorer is a function
returning an :class:`Explorer`; :func:`frames`, :func:`static_html`, :func:`live` and
:func:`show` need nothing else.
"""

from metabits_book.explore.kernel import ExplorerDisplay, live, show, to_matplotlib
from metabits_book.explore.model import (DASHES, TRACE_KINDS, Control, Explorer, Panel, Trace,
                                         View, control, frames, grid)
from metabits_book.explore.part1 import (ACC_GRID, group_explorer, noise_cases_explorer,
                                         roc_explorer, type2_explorer)
from metabits_book.explore.part3 import (channel_noise_explorer, entropy_explorer,
                                         feedback_lab_explorer, oskr_explorer,
                                         oskr_surface_explorer)
from metabits_book.explore.part3_agents import (alpha_beta_explorer, deployment_explorer,
                                                router_explorer, verifier_explorer)
from metabits_book.explore.people import people_explorer
from metabits_book.explore.web import (DIGITS, EXPLORER_JS, plotly_figures, plotly_js_path,
                                       static_html)

# the package's constants, importable from here too (not in __all__)
_CONSTANTS = (ACC_GRID, DASHES, DIGITS, TRACE_KINDS)

__all__ = ["EXPLORER_JS", "Control", "Explorer", "ExplorerDisplay", "Panel", "Trace", "View",
           "control", "frames", "grid", "group_explorer", "live", "noise_cases_explorer",
           "plotly_figures", "plotly_js_path", "roc_explorer", "show", "static_html",
           "to_matplotlib", "type2_explorer",
           # Part III (Roberts, 2026)
           "alpha_beta_explorer", "channel_noise_explorer", "deployment_explorer",
           "entropy_explorer", "feedback_lab_explorer", "oskr_explorer", "oskr_surface_explorer",
           "router_explorer", "verifier_explorer",
           # the Confidence Database (book/people)
           "people_explorer"]
