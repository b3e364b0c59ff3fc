"""The paper numbers of Servajean & Servajean (2026): the M-ratios of Table S1.

Entries of the book's registry (:mod:`metabits_book.paper_numbers`), with the two recipes its
explanations use (:func:`servajean_ratio_range`, :func:`servajean_mean_of_ratios`).
"""

from __future__ import annotations

from functools import lru_cache

import metabits as mb
from metabits_book.studies import datasets
from metabits.results import Bounds

from metabits_book.paper_number import AGREES, FLOAT_SLACK, KNOWN_DISCREPANCY, PaperNumber

__all__ = ["servajean2026", "servajean_mean_of_ratios", "servajean_ratio_range"]


# --- Servajean & Servajean (2026) ----------------------------------------------------------------

@lru_cache(maxsize=None)
def _servajean():
    return datasets.servajean_table_s1(), datasets.servajean_table_s2()


def servajean_ratio_range(task: str, model: str) -> Bounds:
    """meta-d′/d′ for every d′ and meta-d′ that round to Table S1's printed values (±0.00005).

    Parameters
    ----------
    task, model : str
        A task (``"A"``, ``"B"``, ``"C"``) and a model of Table S1.

    Returns
    -------
    Bounds
        The smallest and the largest ratio.

    Raises
    ------
    ValueError
        For an unknown task or model.

    References
    ----------
    Servajean & Servajean (2026), Table S1.

    Examples
    --------
    Table S1 prints the M-ratio 0.8563 for GPT-5 in task A, above every ratio its printed
    d′ = 3.2396 and meta-d′ = 2.7738 allow:

    >>> lo, hi = servajean_ratio_range("A", "GPT-5")
    >>> round(lo, 5), round(hi, 5)
    (0.85619, 0.85625)
    """
    row = _servajean()[0].at(task, model)
    h = 0.00005
    return Bounds((row.meta_d - h) / (row.d_prime + h), (row.meta_d + h) / (row.d_prime - h))


def servajean_mean_of_ratios(task: str, model: str) -> float:
    """Second-order approximation of HMeta-d's M-ratio, the posterior mean of meta-d′/d′.

    :math:`E[m/d] \\approx (E m / E d)(1 + \\mathrm{Var}\\,d / (E d)^2)` for a d′ uncorrelated
    with meta-d′ (the Type 2 likelihood does not involve d′), with Var d′ = 4 Var c (Delta
    method) and Var c from Table S2's "None" interval of the same task and model — the precision
    of the c-calibration experiment standing in for that of the meta-d′ experiment.

    Parameters
    ----------
    task, model : str
        A task (``"A"``, ``"B"``, ``"C"``) and a model of Tables S1 and S2.

    Returns
    -------
    float
        The approximate posterior mean of meta-d′/d′.

    Raises
    ------
    ValueError
        For an unknown task or model.

    References
    ----------
    Servajean & Servajean (2026), Tables S1 and S2; Fleming (2017), HMeta-d.

    Examples
    --------
    GPT-5 in task A, whose M-ratio Table S1 prints as 0.8563:

    >>> round(servajean_mean_of_ratios("A", "GPT-5"), 4)
    0.8563
    """
    s1, s2 = _servajean()
    row = s1.at(task, model)
    i, j = s2.tasks.index(task), s2.models.index(model)
    var_d = 4 * mb.sdt.se_from_ci(s2.half_width[i, 1, j]) ** 2
    return row.meta_d / row.d_prime * (1 + var_d / row.d_prime ** 2)


def servajean2026() -> tuple[PaperNumber, ...]:
    """Servajean & Servajean (2026): M-ratio = meta-d′/d′ in every row of Table S1.

    Returns
    -------
    tuple of PaperNumber
        The registry's entries of the work ``"servajean2026"``, one per task and model.

    References
    ----------
    Servajean & Servajean (2026), Table S1.

    Examples
    --------
    >>> len(servajean2026()), servajean2026()[0].id
    (9, 'servajean2026/tabS1-m-ratio-A-GPT-5')
    """
    out = []
    s1 = _servajean()[0]
    for task in s1.tasks:
        for model in s1.models:
            row = s1.at(task, model)
            lo, hi = servajean_ratio_range(task, model)
            ratio = row.meta_d / row.d_prime
            # agreement: the printed M-ratio's rounding interval meets the ratios that the
            # printed meta-d′ and d′ allow, i.e. |ratio − printed| <= half a unit + input rounding
            tol = 0.00005 + max(hi - ratio, ratio - lo)

            def facts(task=task, model=model):
                r = _servajean()[0].at(task, model)
                ratio = r.meta_d / r.d_prime
                approx = servajean_mean_of_ratios(task, model)
                return {"ratio": ratio, "printed": r.m_ratio, "excess": r.m_ratio - ratio,
                        "approx": approx, "approx_excess": approx - ratio}

            status = AGREES if abs(ratio - row.m_ratio) <= tol + FLOAT_SLACK else KNOWN_DISCREPANCY
            explanation = (
                "HMeta-d reports the M-ratio as the posterior mean of meta-d′/d′, not as the ratio "
                "of the posterior means it prints for meta-d′ and d′; by Jensen's inequality the "
                "mean of a ratio exceeds the ratio of means by about the squared coefficient of "
                "variation of d′. Here meta-d′/d′ = {ratio:.6f}, the printed M-ratio is "
                "{printed:.4f} (excess {excess:.6f}); the second-order correction with the "
                "precision of d′ implied by Table S2 (Var d′ = 4 Var c) gives {approx:.6f} "
                "(excess {approx_excess:.6f}). All nine rows of Table S1 exceed their ratio in "
                "the same direction (chapter 'Metacognitive efficiency of three LLMs').")
            recipe = None
            if status == AGREES:
                explanation = ("Agrees within the print's precision (half a unit of the M-ratio's "
                               "last digit plus the rounding of meta-d′ and d′). " + explanation)
            elif abs(servajean_mean_of_ratios(task, model) - row.m_ratio) <= tol:
                recipe = (lambda task=task, model=model: servajean_mean_of_ratios(task, model))
                explanation += " The correction reproduces the printed value within the tolerance."
            else:
                explanation += (" Here the correction falls just outside the tolerance: it borrows "
                                "the precision of d′ from the other experiment (and ignores the "
                                "prior), so it is an approximation, not the paper's computation.")
            out.append(PaperNumber(
                f"servajean2026/tabS1-m-ratio-{task}-{model}", "servajean2026", "Table S1",
                f"M-ratio = meta-d′/d′, task {task}, {model}", f"{row.m_ratio:.4f}",
                lambda ratio=ratio: ratio, tolerance=tol, status=status,
                explanation=explanation, facts=facts, paper_recipe=recipe))
    return tuple(out)
