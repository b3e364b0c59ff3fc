"""The palette (metabits_book.palette): one home for the colours of the figures and the
explorers."""

import re
from pathlib import Path

import numpy as np
from matplotlib.colors import to_hex, to_rgb

import metabits
import metabits_book
from metabits_book import palette
from metabits_book.explore import noise_cases_explorer, roc_explorer

PACKAGES = (Path(metabits.__file__).parent, Path(metabits_book.__file__).parent)
HEX = re.compile(r"""["']#[0-9a-fA-F]{6}["']""")


def test_no_colour_is_written_outside_the_palette():
    """No module of the library or of the book's code spells out a hex colour: the colours live
    in the palette."""
    offenders = [str(p) for package in PACKAGES for p in package.rglob("*.py")
                 if p.name != "palette.py" and HEX.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_every_colour_is_a_valid_distinct_matplotlib_colour():
    named = {n: getattr(palette, n) for n in ("BLACK", "ORANGE", "SKY_BLUE", "GREEN", "BLUE",
                                              "VERMILLION", "PURPLE")}
    hexes = {n: to_hex(c) for n, c in named.items()}
    assert len(set(hexes.values())) == len(hexes)
    # Okabe & Ito (2008), as 0-255 RGB
    okabe_ito = {"BLACK": (0, 0, 0), "ORANGE": (230, 159, 0), "SKY_BLUE": (86, 180, 233),
                 "GREEN": (0, 158, 115), "BLUE": (0, 114, 178), "VERMILLION": (213, 94, 0),
                 "PURPLE": (204, 121, 167)}
    for n, rgb in okabe_ito.items():
        assert np.allclose(np.array(to_rgb(named[n])) * 255, rgb), n
    assert [to_hex(c) for c in palette.SEQUENCE] == [hexes[n] for n in
                                                    ("PURPLE", "VERMILLION", "ORANGE", "GREEN",
                                                     "BLUE")]
    assert to_rgb(palette.REGION_COLOR) == (0.85, 0.85, 0.85)


def test_figures_and_explorers_share_the_noise_styles():
    from metabits_book import plotting

    assert plotting.NOISE_STYLE is palette.NOISE_STYLE
    assert plotting.REGION_COLOR == palette.REGION_COLOR
    v = noise_cases_explorer(acc=[0.7]).view(acc=0.7, kind="binary")
    assert v.trace("lower bound (binary noise)").color == palette.NOISE_STYLE["binary"]["color"]
    assert v.trace("lower bound (binary noise)").dash == "dot"
    assert v.trace("this classifier").color == palette.NOISE_STYLE["binary"]["color"]
    assert v.trace("Theorem 3 region").color == palette.REGION_COLOR
    roc = roc_explorer(acc=[0.7]).view()
    for kind, dash in palette.NOISE_DASH.items():
        t = roc.trace(f"{kind} noise", panel=0)
        assert (t.color, t.dash) == (palette.NOISE_STYLE[kind]["color"], dash)
