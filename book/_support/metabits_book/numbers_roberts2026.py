"""The paper numbers of Roberts (2026), *From Bits to Minds*: the numbers its demos display.

Entries of the book's registry (:mod:`metabits_book.paper_numbers`). The essay's printed settings
themselves live in :mod:`metabits_book.roberts2026`.
"""

from __future__ import annotations

import numpy as np

import metabits as mb
from metabits_book import roberts2026
from metabits.validation import as_prior, as_probability, as_scalar

from metabits_book.paper_number import KNOWN_DISCREPANCY, PaperNumber

__all__ = ["ROBERTS_ALPHA", "ROBERTS_BETA", "ROBERTS_LAB", "ROBERTS_SETUPS", "one_sided_detector_oskr",
           "roberts2026_numbers"]


# --- Roberts (2026), From Bits to Minds: the numbers its demos display ---------------------------

#: The essay's printed settings, from their home :mod:`metabits_book.roberts2026` (shared with the
#: Part III explorers): the feedback lab's prevalence, ε and g; Systems Alpha and Beta (accuracy,
#: OSKR, "confident when wrong"); the schematic OSKR of each verification set-up.
ROBERTS_LAB = roberts2026.LAB
ROBERTS_ALPHA = roberts2026.ALPHA
ROBERTS_BETA = roberts2026.BETA
ROBERTS_SETUPS = roberts2026.SETUPS


def _roberts_lab(gain=None):
    prevalence, error, g = ROBERTS_LAB
    return mb.oskr.feedback_channel(prevalence, error, g if gain is None else gain)


def _roberts_needed(oskr: float) -> dict:
    """The effective error, and the gain at the lab's ε, that would realise ``oskr``."""
    eff = mb.oskr.effective_error_for_oskr(oskr, ROBERTS_LAB[0])
    return {"eff_needed": eff, "g_needed": 1.0 - eff / ROBERTS_LAB[1]}


def one_sided_detector_oskr(prevalence: float = 0.5, flagged: float = 0.8) -> float:
    """OSKR of a detector that flags a share ``flagged`` of failures and never a success.

    T = success (probability ``prevalence``), S = "not flagged"; a reading of the essay's OSKR
    explorer at sliders 50% and 80% (chapter 'An audit of the essay's numbers').

    Parameters
    ----------
    prevalence : float, default 0.5
        P(T = success), in (0, 1).
    flagged : float, default 0.8
        The share of failures the detector flags, in [0, 1].

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For a prevalence outside (0, 1) or a share outside [0, 1].

    Examples
    --------
    >>> round(one_sided_detector_oskr(), 5)
    0.60999
    """
    prevalence = as_prior(prevalence, "prevalence")
    flagged = float(as_probability(as_scalar(flagged, "flagged"), "flagged"))
    return float(mb.oskr.binary_channel(prevalence, 1.0, 1.0 - flagged).oskr)


def roberts2026_numbers() -> tuple[PaperNumber, ...]:
    """Roberts (2026): the numbers the essay's demos display, against its own formulas.

    The essay labels its numbers illustrative; a disagreement here says that a displayed number
    does not follow from the formulas the essay states (or that the book could find), not that
    an experiment failed to replicate. The book's audit chapter shows every displayed number,
    including those with no formula to check.

    Returns
    -------
    tuple of PaperNumber
        The registry's entries of the work ``"roberts2026"``.

    References
    ----------
    Roberts (2026), *From Bits to Minds*.

    Examples
    --------
    >>> roberts2026_numbers()[0].id
    'roberts2026/primer-entropy-8'
    """

    def n(name, where, what, printed, book, **kw):
        return PaperNumber(f"roberts2026/{name}", "roberts2026", where, what, printed, book, **kw)

    lab = "Binary feedback lab (ε = 0.22, g = 0.35)"
    cells = [("tp", "true positive", 0, 0, "0.39"), ("fn", "false negative", 0, 1, "0.11"),
             ("fp", "false positive", 1, 0, "0.11"), ("tn", "true negative", 1, 1, "0.39")]
    out = [
        n("primer-entropy-8", "Primer 'Feel it'", "H(X) of eight equally likely outcomes",
          "3.00", lambda: mb.info.entropy(np.full(8, 1 / 8)), unit="bit"),
        n("lab-h-outcome", lab, "H(T) at prevalence 0.50", "1.00",
          lambda: _roberts_lab().h_outcome, unit="bit"),
        n("lab-eps-eff", lab, "ε effective", "0.14", lambda: _roberts_lab().error_effective,
          explanation=("The essay prints no formula for its effective error; ε(1 − g) = {eff:.4f} reproduces "
                       "it, while ε/(1 + g) = {alt:.4f} would not. The book uses ε(1 − g)."),
          facts=lambda: {"eff": _roberts_lab().error_effective,
                         "alt": ROBERTS_LAB[1] / (1 + ROBERTS_LAB[2])}),
        n("lab-h-cond", lab, "H(T | S)", "0.54", lambda: _roberts_lab().h_outcome_given_signal,
          unit="bit", status=KNOWN_DISCREPANCY,
          explanation=(
              "A binary symmetric channel with the lab's own effective error ε(1 − g) = {eff:.4f} at balanced "
              "outcomes leaves H(T | S) = H₂(ε(1 − g)) = {h:.4f} bit, not 0.54. The printed 0.54 "
              "needs an effective error of {eff_needed:.4f}, i.e. a gain g = {g_needed:.3f} at ε = 0.22, "
              "which contradicts the effective error 0.14 printed beside it. The book found no reading "
              "of the three controls that gives 0.14, 0.54 and 0.46 together (chapter 'An audit "
              "of the essay's numbers')."),
          facts=lambda: {"eff": _roberts_lab().error_effective,
                         "h": _roberts_lab().h_outcome_given_signal,
                         **_roberts_needed(0.46)}),
        n("lab-oskr", lab, "OSKR", "0.46", lambda: _roberts_lab().oskr,
          status=KNOWN_DISCREPANCY,
          explanation=(
              "OSKR = 1 − H(T | S)/H(T) = {oskr:.4f} with the lab's effective error {eff:.4f}. The "
              "printed 0.46 is 1 − 0.54, consistent with the printed H(T | S) but not with "
              "the effective error (it needs g = {g_needed:.3f}). The book's value rounds to {oskr:.2f}, the "
              "OSKR the essay later prints for the 'actor + passive judge'."),
          facts=lambda: {"oskr": _roberts_lab().oskr, "eff": _roberts_lab().error_effective,
                         **_roberts_needed(0.46)}),
    ]
    for key, name, i, j, printed in cells:
        out.append(n(
            f"lab-confusion-{key}", lab, f"confusion structure: {name} (joint probability)",
            printed, lambda i=i, j=j: _roberts_lab().confusion[i, j], status=KNOWN_DISCREPANCY,
            explanation=(
                "With the verifier the self-report errs with probability ε(1 − g) = {eff:.4f}, so "
                "this cell is {book:.4f}. The printed value is the cell of the channel *without* "
                "the verifier, error ε = 0.22 ({raw:.4f}): the confusion panel ignores the gain "
                "that the effective-error panel applies."),
            facts=lambda i=i, j=j: {"eff": _roberts_lab().error_effective,
                                    "book": _roberts_lab().confusion[i, j],
                                    "raw": _roberts_lab(gain=0.0).confusion[i, j]},
            paper_recipe=lambda i=i, j=j: _roberts_lab(gain=0.0).confusion[i, j]))
    out += [
        n("explorer-oskr", "Interactive · OSKR Explorer (sliders 50% and 80%)",
          "OSKR shown for a balanced outcome and a self-assessment right 80% of the time", "0.60",
          lambda: mb.oskr.feedback_channel(0.5, 0.2, 0.0).oskr, status=KNOWN_DISCREPANCY,
          explanation=(
              "The essay does not label the two sliders. Read as a success rate of 50% and a "
              "self-assessment that matches the outcome 80% of the time (a binary symmetric "
              "channel), OSKR = 1 − H₂(0.2) = {oskr:.4f}, not 0.60. Two other readings reach "
              "the printed value: the linear 2 × 0.8 − 1 = {linear:.2f} (hit rate − false-alarm "
              "rate, Youden's J, of that self-assessment; not an information ratio), and a "
              "one-sided detector — balanced outcome, 80% of failures flagged, no false alarms — "
              "whose OSKR is {one_sided:.5f}, shown as 0.60 if the display truncates instead of "
              "rounding. Established: the displayed value is not the OSKR of the symmetric "
              "reading. Not established: which of the two the explorer computes; the book's "
              "explorer draws the linear score beside OSKR (the audit chapter lists the "
              "readings)."),
          facts=lambda: {"oskr": mb.oskr.feedback_channel(0.5, 0.2, 0.0).oskr,
                         "linear": 2 * 0.8 - 1, "one_sided": one_sided_detector_oskr()}),
        n("alpha-oskr", "Same Accuracy, Different Self-Knowledge: System Alpha",
          "largest OSKR at accuracy 72% with P(confident | wrong) = 9%", "0.81",
          lambda: mb.oskr.binary_channel(ROBERTS_ALPHA[0], 1.0, ROBERTS_ALPHA[2]).oskr,
          explanation=(
              "T = correct, S = confident. With 'confident when wrong' read as "
              "P(confident | wrong) = 9%, the largest OSKR any binary confidence can reach at "
              "72% accuracy (confident after every success) is {best:.4f}: Alpha's 0.81 is "
              "realisable, but only at the edge — it needs P(confident | correct) = {hit:.4f}. "
              "Read as 9% of all trials (P(confident | wrong) = {fa_joint:.3f}), the largest "
              "OSKR is {best_joint:.4f} and Alpha is not realisable."),
          facts=lambda: {
              "best": mb.oskr.binary_channel(ROBERTS_ALPHA[0], 1.0, ROBERTS_ALPHA[2]).oskr,
              "hit": mb.oskr.hit_rate_for_oskr(*ROBERTS_ALPHA[1::-1], ROBERTS_ALPHA[2]),
              "fa_joint": ROBERTS_ALPHA[2] / (1 - ROBERTS_ALPHA[0]),
              "best_joint": mb.oskr.binary_channel(ROBERTS_ALPHA[0], 1.0,
                                              ROBERTS_ALPHA[2] / (1 - ROBERTS_ALPHA[0])).oskr},
          tolerance=0.005),
    ]
    return tuple(out)


#: Every paper number the book recomputes, in the order of the works and of each paper.
