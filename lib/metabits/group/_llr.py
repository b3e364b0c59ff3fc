"""Integer keys of log-likelihood ratios, shared by the exact PCWMV and its simulations.

To find ties exactly despite rounding, log-likelihood ratios are keyed by integers (multiples of
:data:`RES` = 2⁻³⁰ ≈ 1e-9, or of the lattice ``step``) and sums are taken over the integer keys
(sums closer than about K·1e-9 count as ties); infinite ratios (confidence 1) get the key
±:data:`INF_KEY`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["INF_KEY", "MAX_CELLS", "MAX_MEMBERS", "RES", "llr_keys"]

RES = 2.0 ** -30       # log-odds resolution of the exact-tie keys
INF_KEY = 2 ** 52      # key of an infinite log-likelihood ratio
MAX_MEMBERS = 1024     # keeps every sum of keys inside int64
MAX_CELLS = 10 ** 7    # lattice cells of one member (a few 80 MB arrays; pcwmv's FFT input)


def llr_keys(pn, pp, scale):
    """Integer keys of the log-likelihood ratios log(pp/pn) in units of ``scale``; ±INF_KEY for a
    response that only one label produces (0 for one that neither does)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        llr = np.log(pp) - np.log(pn)
    finite = np.isfinite(llr)
    cells = np.where(finite, llr, 0.0) / scale
    if np.any(np.abs(cells) > 2.0 ** 50):
        raise ValueError(f"step = {scale:g} is too small for these log-odds (over 2**50 cells)")
    return np.where(finite, np.rint(cells), np.sign(np.nan_to_num(llr)) * INF_KEY).astype(np.int64)
