"""The book's colours: one home for the matplotlib figures and the explorers alike.

The colours are Okabe & Ito's (2008) colour-blind-safe palette; the noise cases follow Meyen et
al. (2025): uniform noise (highest information) black with inverted triangles and solid lines,
normal noise orange with diamonds and dashed lines, binary noise (lowest information) green with
triangles and dotted lines. Every value is a matplotlib colour string (``"#0072b2"``, a grey
level ``"0.85"``); the website's explorers turn them into CSS colours
(:mod:`metabits_book.explore.web` does, with matplotlib's ``to_hex``). This module imports
nothing, so that the explorers' models and :mod:`metabits_book.plotting`'s import stay free of
matplotlib.

Examples
--------
>>> NOISE_STYLE["normal"]["color"] == ORANGE, NOISE_DASH["binary"]
(True, 'dot')
"""

from __future__ import annotations

__all__ = ["ACCENT", "BLACK", "BLUE", "GREEN", "GREY", "LIGHT_GREY", "MODEL_COLORS",
           "NOISE_DASH", "NOISE_STYLE", "NORMALISER", "ORANGE", "PURPLE", "REGION_COLOR",
           "SEQUENCE", "SKY_BLUE", "VERMILLION", "WEB_AXIS", "WEB_GRID"]

# --- Okabe & Ito's colours ---------------------------------------------------------------------
BLACK = "black"
ORANGE = "#e69f00"
SKY_BLUE = "#56b4e9"
GREEN = "#009e73"
BLUE = "#0072b2"
VERMILLION = "#d55e00"
PURPLE = "#cc79a7"

# --- greys -------------------------------------------------------------------------------------
#: fill of an admissible region (Theorem 3's accuracy–information region, the ROC bounds, …)
REGION_COLOR = "0.85"
#: reference lines and secondary curves (the chance diagonal is a little lighter, "0.6")
GREY = "0.55"
LIGHT_GREY = "0.6"
#: the website explorers' axis lines and grid (plotly's CSS colours)
WEB_AXIS = "#444"
WEB_GRID = "#e5e5e5"

# --- roles ---------------------------------------------------------------------------------------
#: highlight colour for the measured quantity (Figure 5), a chosen setting, "this classifier"
ACCENT = VERMILLION
#: colour of a normaliser or of a second quantity beside the accent
NORMALISER = BLUE

#: colour, marker and line style of each noise case (matplotlib keywords)
NOISE_STYLE = {
    "uniform": {"color": BLACK, "marker": "v", "linestyle": "-", "label": "uniform noise"},
    "normal": {"color": ORANGE, "marker": "D", "linestyle": "--", "label": "normal noise"},
    "binary": {"color": GREEN, "marker": "^", "linestyle": ":", "label": "binary noise"},
}
#: the noise cases' line styles as the explorers name them (plotly's dash names)
NOISE_DASH = {kind: {"-": "solid", "--": "dash", ":": "dot"}[style["linestyle"]]
              for kind, style in NOISE_STYLE.items()}

#: five colours for an ordered factor (the MaskOri SOAs, shortest first)
SEQUENCE = (PURPLE, VERMILLION, ORANGE, GREEN, BLUE)
#: Servajean & Servajean's three language models
#: (:data:`metabits_book.studies.datasets.SERVAJEAN_MODELS`)
MODEL_COLORS = {"GPT-5": BLUE, "DeepSeek-V3.2-Exp": VERMILLION, "Mistral-Medium-2508": GREEN}
