"""The paper numbers of Meyen et al. (2025): Figures 1, 2, 5, 8, Tables 1–2, the text's examples.

Entries of the book's registry (:mod:`metabits_book.paper_numbers`), each recomputed with public
``metabits`` calls.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

import metabits as mb
from metabits_book.studies import datasets

from metabits_book.paper_number import KNOWN_DISCREPANCY, PaperNumber

__all__ = ["TABLE1_BAYES", "TABLE1_BAYES_OPTIONS", "TABLE1_REFERENCES", "meyen2025",
           "table1_bayes", "table1_bayes_rows", "table1_candidates", "table1_meta_d_boundary",
           "table1_references"]


# --- shared computations -------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _table1():
    """Meyen et al.'s Table 1 as the (nR_S1, nR_S2) rows: true label -1, then +1."""
    return datasets.meyen_table1()


@lru_cache(maxsize=None)
def _table1_measures():
    return mb.type2_measures(_table1())


@lru_cache(maxsize=None)
def _table1_fit(pad: float):
    counts = _table1()
    return mb.fit_meta_d(counts, pad=pad)


@lru_cache(maxsize=None)
def _table1_bayes(pad, estimate_dprime: bool, chains: int = 4, draws: int = 2500,
                  tune: int = 1000):
    """HMeta-d's Bayesian fit of Table 1 (metabits.sdt, imported here: PyMC is slow to
    load), seeded; 4 chains x 2500 draws put the M-ratio's Monte Carlo SE near 0.003."""
    from metabits.sdt import fit_meta_d_bayes

    counts = _table1()
    return fit_meta_d_bayes(counts[0], counts[1], pad=pad, estimate_dprime=estimate_dprime,
                            chains=chains, draws=draws, tune=tune, seed=2025)


#: the shipped posterior summary of Table 1 under HMeta-d (``metabits_book/data``), written by
#: :func:`table1_bayes_rows`; ``tests/test_paper_numbers.py`` refits it (marked slow), so the
#: registry, the report and the quick tests read it instead of sampling three posteriors
TABLE1_BAYES = "meyen2025_table1_bayes.csv"
#: Table 1 fitted by implementations the book does not run when it builds (metadpy's hmetad,
#: statConfR at two versions), written by ``scripts/table1_references.py``
TABLE1_REFERENCES = "meyen2025_table1_references.csv"
#: the three d′ options of HMeta-d fitted to Table 1: (pad of the d′ counts, estimate_dprime)
TABLE1_BAYES_OPTIONS = {"padded": ("statconfr", False), "unpadded": (0.0, False),
                        "estimated": (None, True)}


def table1_bayes_rows(*, chains: int = 4, draws: int = 2500, tune: int = 1000) -> list[dict]:
    """Refit Table 1 with HMeta-d under the three d′ options: the rule behind the shipped CSV.

    Seeded NUTS fits, one per option of :data:`TABLE1_BAYES_OPTIONS` (the slow test refits with
    fewer draws than the shipped file's).

    Parameters
    ----------
    chains, draws, tune : int, default 4, 2500, 1000
        NUTS settings of every fit (:func:`metabits.sdt.fit_meta_d_bayes`); the defaults are
        the shipped file's.

    Returns
    -------
    list of dict
        One row per option: ``option``, ``d`` (the fixed d′, or its posterior mean when
        estimated), the posterior means ``meta_d`` and ``m_ratio`` with their Monte Carlo SEs
        ``meta_d_mcse`` and ``m_ratio_mcse``, ``draws`` and the fit's ``r_hat``, ``ess_bulk``
        and ``divergences``.

    Raises
    ------
    ValueError
        For sampler settings :func:`metabits.sdt.fit_meta_d_bayes` refuses.

    References
    ----------
    Meyen et al. (2025), Table 1; Fleming (2017), HMeta-d.
    """
    rows = []
    for option, (pad, estimate) in TABLE1_BAYES_OPTIONS.items():
        fit = _table1_bayes(_statconfr_pad() if pad == "statconfr" else pad, estimate, chains,
                            draws, tune)
        rows.append({"option": option, "d": float(np.mean(fit.d)),
                     "meta_d": float(fit.meta_d.mean()), "m_ratio": float(fit.m_ratio.mean()),
                     "meta_d_mcse": float(fit.mcse("meta_d")),
                     "m_ratio_mcse": float(fit.mcse("m_ratio")), "draws": int(fit.m_ratio.size),
                     "r_hat": float(fit.r_hat), "ess_bulk": float(fit.ess_bulk),
                     "divergences": int(fit.divergences)})
    return rows


@lru_cache(maxsize=None)
def table1_bayes() -> dict:
    """The shipped summary of :func:`table1_bayes_rows`: option -> its posterior means and the
    fit's diagnostics (R-hat, bulk ESS and divergences of the whole fit).

    Examples
    --------
    >>> round(table1_bayes()["padded"]["m_ratio"], 1)
    1.8
    """
    import csv
    from importlib.resources import files

    with files("metabits_book").joinpath("data", TABLE1_BAYES).open(encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {r["option"]: {"d": float(r["d"]), "meta_d": float(r["meta_d"]),
                          "m_ratio": float(r["m_ratio"]), "meta_d_mcse": float(r["meta_d_mcse"]),
                          "m_ratio_mcse": float(r["m_ratio_mcse"]), "draws": int(r["draws"]),
                          "r_hat": float(r["r_hat"]), "ess_bulk": float(r["ess_bulk"]),
                          "divergences": int(r["divergences"])}
            for r in rows}


@lru_cache(maxsize=None)
def table1_references() -> dict:
    """The shipped fits of Table 1 by implementations the book does not run when it builds.

    Read from :data:`TABLE1_REFERENCES`, written by ``scripts/table1_references.py``: metadpy's
    Bayesian ``hmetad`` and statConfR's maximum-likelihood ``fitMetaDprime`` at its current
    version and at 0.0.1, the version the paper cites.

    Returns
    -------
    dict
        ``"implementation version"`` -> ``d``, ``meta_d``, ``m_ratio`` (NaN where the fit
        stopped with an error), ``r_hat`` (NaN if none) and ``outcome`` (``"ok"`` or
        ``"error: ..."``).

    Examples
    --------
    >>> refs = table1_references()
    >>> refs["statConfR fitMetaDprime ML 0.0.1"]["outcome"].startswith("error")
    True
    """
    import csv
    from importlib.resources import files

    def number(text):
        return float(text) if text else float("nan")

    with files("metabits_book").joinpath("data", TABLE1_REFERENCES).open(encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {f"{r['implementation']} {r['version']}": {
        "d": number(r["d"]), "meta_d": number(r["meta_d"]), "m_ratio": number(r["m_ratio"]),
        "r_hat": number(r["r_hat"]), "outcome": r["outcome"]} for r in rows}


#: Table 1's printed SDT numbers and their decimals: d′ (text next to Figure 2 and Table 1),
#: meta-d′ and the M-ratio (text next to Table 1)
TABLE1_PRINTED = {"d": ("1.05", 2), "meta_d": ("1.9", 1), "m_ratio": ("1.8", 1)}


def table1_candidates():
    """Every computed route to Table 1's printed d′ = 1.05, meta-d′ = 1.9 and M-ratio = 1.8.

    The paper names statConfR (maximum likelihood) as its implementation and prints
    "M-ratio = meta-d′/d′ = 1.8" without saying how its values were rounded or padded. Each row
    is one candidate: the ratio of the printed values; maximum likelihood without padding and
    with statConfR's padding 1/(2K) (:func:`metabits.fit_meta_d`); statConfR itself (shipped,
    :func:`table1_references`); HMeta-d's posterior means under its three d′ options (shipped,
    :func:`table1_bayes`); and metadpy's Bayesian variant (shipped). For each it gives the d′
    its M-ratio divides by, meta-d′ and the M-ratio, each rounded as the paper prints it, and
    whether each rounds to the printed value.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``candidate``; columns ``d``, ``meta_d``, ``m_ratio`` (NaN for an
        implementation that stopped with an error), ``mcse`` (Monte Carlo SE of a posterior
        mean M-ratio, NaN otherwise), ``d_prints``, ``meta_d_prints``, ``m_ratio_prints``
        (as the paper would print them), ``matches_d``, ``matches_meta_d``,
        ``matches_m_ratio`` and ``matches_all`` (booleans), ``outcome`` and
        ``m_ratio_margin`` (distance of the M-ratio from the nearest value at which its
        printed digit changes, such as 1.85).

    Examples
    --------
    >>> t = table1_candidates()
    >>> t.loc["maximum likelihood with statConfR's padding", "m_ratio_prints"]
    '1.9'
    >>> bool(t.loc["HMeta-d, d′ from the unpadded counts", "matches_all"])
    True
    """
    import pandas as pd

    bayes, refs = table1_bayes(), table1_references()
    raw, pad = _table1_fit(0.0), _table1_fit(_statconfr_pad())
    printed = {key: float(text) for key, (text, _) in TABLE1_PRINTED.items()}
    rows = {
        "meta-d′/d′ of the printed values": (printed["d"], printed["meta_d"],
                                             printed["meta_d"] / printed["d"], np.nan, "ok"),
        "maximum likelihood without padding": (raw["d"], raw["meta_d"],
                                                             raw["m_ratio"], np.nan, "ok"),
        "maximum likelihood with statConfR's padding": (pad["d"], pad["meta_d"],
                                                               pad["m_ratio"], np.nan, "ok"),
    }
    for key, ref in refs.items():
        if key.startswith("statConfR"):
            version = key.rsplit(" ", 1)[1]
            rows[f"statConfR {version}, maximum likelihood"] = (
                ref["d"], ref["meta_d"], ref["m_ratio"], np.nan, ref["outcome"])
    names = {"padded": "HMeta-d's default, d′ from the padded counts",
             "unpadded": "HMeta-d, d′ from the unpadded counts",
             "estimated": "HMeta-d, d′ estimated in the model"}
    for option, name in names.items():
        b = bayes[option]
        rows[name] = (b["d"], b["meta_d"], b["m_ratio"], b["m_ratio_mcse"], "ok")
    for key, ref in refs.items():
        if key.startswith("metadpy"):
            rows["metadpy's Bayesian hmetad"] = (ref["d"], ref["meta_d"], ref["m_ratio"],
                                                   np.nan, ref["outcome"])
    out = pd.DataFrame.from_dict(rows, orient="index",
                                 columns=["d", "meta_d", "m_ratio", "mcse", "outcome"])
    out.index.name = "candidate"
    for key, (text, decimals) in TABLE1_PRINTED.items():
        values = out[key].to_numpy(dtype=float)
        out[f"{key}_prints"] = [f"{v:.{decimals}f}" if np.isfinite(v) else "" for v in values]
        out[f"matches_{key}"] = out[f"{key}_prints"] == text
    out["matches_all"] = out[[f"matches_{key}" for key in TABLE1_PRINTED]].all(axis=1)
    # distance of the M-ratio from the nearest boundary where its printed digit changes
    m = out["m_ratio"].to_numpy(dtype=float)
    out["m_ratio_margin"] = np.abs(m - (np.floor(m * 10) + 0.5) / 10)
    return out


def table1_meta_d_boundary() -> dict:
    """How close Table 1's maximum-likelihood meta-d′ lies to the rounding boundary 1.95.

    With statConfR's padding the maximum-likelihood meta-d′ prints as the paper's 1.9, but lies
    just below 1.95, where it would print as 2.0. The profile log-likelihood (the type 2
    criteria refitted, d′ and c fixed at their Type 1 values, meta-c = c·meta-d′/d′ as in the
    maximum-likelihood fit) says how little separates the two: its drop from the maximum to
    meta-d′ = 1.95 is compared with the change in log-likelihood that statConfR's optimiser
    (``optim`` with ``reltol = 1e-4``) treats as converged.

    Returns
    -------
    dict
        ``meta_d`` (the maximum), ``margin`` (1.95 − meta_d), ``drop`` (log-likelihood at the
        maximum minus the profile at 1.95), ``stop`` (1e-4 times the absolute value of the maximum log-likelihood) and
        ``statconfr`` (statConfR 0.2.2's meta-d′, shipped).

    Examples
    --------
    >>> b = table1_meta_d_boundary()
    >>> 0 < b["margin"] < 0.001, b["drop"] < 1e-3 * b["stop"]
    (True, True)
    """
    from scipy.optimize import minimize

    fit = _table1_fit(_statconfr_pad())
    counts = _table1() + _statconfr_pad()

    def profile(meta_d):
        meta_c = fit["c"] * meta_d / fit["d"]

        def negative(x):
            criteria = ([meta_c - np.exp(x[0])], [meta_c + np.exp(x[1])])
            p = mb.sdt.rating_probabilities(fit["d"], meta_d, fit["c"], K=2, criteria=criteria)
            return -float((counts * np.log(p)).sum())

        start = np.log([meta_c - fit["t2c_S1"][0], fit["t2c_S2"][0] - meta_c])
        return -minimize(negative, start, method="Nelder-Mead",
                         options={"xatol": 1e-10, "fatol": 1e-13, "maxiter": 10_000}).fun

    boundary = 1.95
    refs = table1_references()
    return {"meta_d": float(fit["meta_d"]), "margin": boundary - float(fit["meta_d"]),
            "drop": float(profile(fit["meta_d"]) - profile(boundary)),
            "stop": 1e-4 * abs(float(fit["log_likelihood"])),
            "statconfr": refs["statConfR fitMetaDprime ML 0.2.2"]["meta_d"]}


def _statconfr_pad() -> float:
    """statConfR's padding 1/(2K) for Table 1's K = 2 confidence levels (4 responses = 2K)."""
    return 1.0 / _table1().shape[1]


def _farthest(values, target: float) -> float:
    """The value farthest from ``target``: the book value of a number printed for several."""
    values = np.ravel(values)
    return float(values[np.argmax(np.abs(values - target))])


def _others(conf) -> np.ndarray:
    """Each response's confidences in the labels it does not predict (one per row)."""
    conf = np.asarray(conf)
    top = np.argmax(conf, axis=1)
    keep = np.arange(conf.shape[1])[None, :] != top[:, None]
    return conf[keep].reshape(conf.shape[0], -1)


# --- Meyen et al. (2025) -------------------------------------------------------------------------

_FIG1 = ([0.6, 0.9], [2 / 3, 1 / 3])  # Figure 1: confidence 60% on 2/3, 90% on 1/3 of the trials
_L4_UNIFORM = [0.25, 0.25, 0.25, 0.25]  # Theorem 6 worked examples: L = 4, acc = 0.4
_L4_SKEWED = [0.32, 0.32, 0.32, 0.04]
_LABELS = {0: "−1", 1: "+1"}


def meyen2025() -> tuple[PaperNumber, ...]:
    """Meyen et al. (2025): Figures 1, 2, 5, 8, Tables 1–2 and the worked examples of the text.

    Returns
    -------
    tuple of PaperNumber
        The registry's entries of the work ``"meyen2025"``, in the order of the paper.

    References
    ----------
    Meyen et al. (2025).

    Examples
    --------
    >>> meyen2025()[0].id
    'meyen2025/fig1-acc'
    """

    def n(name, where, what, printed, book, **kw):
        return PaperNumber(f"meyen2025/{name}", "meyen2025", where, what, printed, book, **kw)

    out = [
        n("fig1-acc", "Figure 1a", "accuracy of the example classifier (60% on 2/3, 90% on 1/3)",
          "70", lambda: 100 * mb.info.accuracy(*_FIG1), unit="%"),
        n("fig1-pti60", "Figure 1b", "pti(60%)", "0.03", lambda: mb.info.pti(0.6), unit="bit"),
        n("fig1-pti90", "Figure 1b", "pti(90%)", "0.53", lambda: mb.info.pti(0.9), unit="bit"),
        n("fig1-info", "Figure 1c", "info = E[pti(C)] of the example classifier", "0.20",
          lambda: mb.info.transmitted_information(*_FIG1), unit="bit"),
        n("text-h2-70", "Transmitted Information (text)", "remaining uncertainty H₂(70%)",
          "0.88", lambda: mb.info.binary_entropy(0.7), unit="bit"),
        n("text-pti-70", "Transmitted Information (text)", "pti(70%) = 1 − H₂(70%)", "0.12",
          lambda: mb.info.pti(0.7), unit="bit"),
        n("fig2-normal-acc", "Figure 2a–c (text)", "accuracy of normal noise with d′ = 1.05",
          "70", lambda: 100 * mb.info.accuracy_from_dprime(1.05), unit="%"),
        n("fig2-normal-info", "Figure 2a–c (text)", "info of normal noise with d′ = 1.05",
          "0.18", lambda: mb.info.normal_info(1.05), unit="bit",
          explanation=(
              "The paper fixes the sensitivity of this row, d′ = 1.05, and derives acc = 70% from "
              "it; at d′ = 1.05 the information is {info_paper:.4f} bit, which prints as "
              "{info_paper:.2f}. The book's chapters define the normal-noise classifier by its "
              "accuracy instead (acc = 70% exactly, d′ = 2Φ⁻¹(0.7) = {d_exact:.4f}), where the "
              "information is {info_exact:.4f} bit and prints as {info_exact:.2f}: the book's "
              "other number, explained by the rounding of d′ (the accuracy at d′ = 1.05 is "
              "{acc_paper:.2f}%). The two values straddle the rounding boundary 0.175 "
              "(chapter 2)."),
          facts=lambda: {"d_exact": mb.info.dprime_from_accuracy(0.7),
                         "info_exact": mb.info.noise_info("normal", 0.7),
                         "info_paper": mb.info.normal_info(1.05),
                         "acc_paper": 100 * mb.info.accuracy_from_dprime(1.05)}),
        n("fig2-binary-info", "Figure 2d–f (text)", "info of binary noise at acc = 70%", "0.12",
          lambda: mb.info.noise_info("binary", 0.7), unit="bit"),
        n("fig2-uniform-info", "Figure 2g–i (text)", "info of uniform noise at acc = 70%", "0.4",
          lambda: mb.info.noise_info("uniform", 0.7), unit="bit"),
    ]

    # Theorem 6's worked examples: L = 4 labels, acc = 0.4
    def best_sizes():
        conf, _ = mb.info.max_info_classifier(0.4, _L4_UNIFORM)
        return (np.asarray(conf) > 0).sum(axis=1)

    def worst(priors):
        return np.asarray(mb.info.min_info_classifier(0.4, priors)[0])

    where6 = "Theorem 6 examples (text)"
    out += [
        n("thm6-best-m1", where6, "best classifier, uniform priors: fewest labels named (m₁)",
          "2", lambda: best_sizes().min()),
        n("thm6-best-m2", where6, "best classifier, uniform priors: most labels named (m₂)",
          "3", lambda: best_sizes().max()),
        n("thm6-worst-top", where6, "worst classifier, uniform priors: predicted label", "40",
          lambda: 100 * _farthest(worst(_L4_UNIFORM).max(axis=1), 0.40), unit="%"),
        n("thm6-worst-rest", where6, "worst classifier, uniform priors: each other label", "20",
          lambda: 100 * _farthest(_others(worst(_L4_UNIFORM)), 0.20), unit="%"),
        n("thm6-skewed-top", where6, "worst classifier, priors 32/32/32/4%: predicted label",
          "40", lambda: 100 * _farthest(worst(_L4_SKEWED).max(axis=1), 0.40), unit="%"),
        n("thm6-skewed-common", where6,
          "worst classifier, priors 32/32/32/4%: each other common label", "28",
          lambda: 100 * _farthest(_others(worst(_L4_SKEWED)[:, :3]), 0.28), unit="%"),
        n("thm6-skewed-rare", where6, "worst classifier, priors 32/32/32/4%: the rare label",
          "4", lambda: 100 * _farthest(worst(_L4_SKEWED)[:, 3], 0.04), unit="%"),
    ]

    def cells(stem, where, what, printed, table):
        """One entry per printed cell of a table with rows Y = −1, +1 and columns r1 … r4;
        ``table()`` computes the whole table."""
        return [n(f"{stem}-y{'neg' if row == 0 else 'pos'}-r{col + 1}", where,
                  f"{what} of Y = {_LABELS[row]}, response r{col + 1}", cell,
                  lambda row=row, col=col: table()[row, col])
                for row, line in enumerate(printed) for col, cell in enumerate(line)]

    # Table 1: the counts (the package's copy must match the print; "04" as printed)
    out += cells("tab1-count", "Table 1", "count", [["84", "56", "48", "12"],
                                                     ["04", "56", "64", "76"]], _table1)

    # Table 1's SDT measures (text next to Table 1)
    pad = _statconfr_pad()
    out += [
        n("tab1-meta-d", "Table 1 (text)", "meta-d′ (statConfR's padding 1/(2K) per cell)", "1.9",
          lambda: _table1_fit(pad)["meta_d"],
          explanation=(
              "statConfR, which the paper names as its implementation, adds 1/(2K) to every "
              "cell; with it meta-d′ = {padded:.6f}, which prints as 1.9 by a margin of "
              "{margin:.4f}: from 1.95 on it would print as 2.0. The profile log-likelihood at "
              "1.95 lies {drop:.1e} below its maximum, far less than the change of {stop:.3f} "
              "at which statConfR's optimiser (optim, reltol = 1e-4) stops, so a "
              "maximum-likelihood fit may print either digit depending on where its optimiser "
              "stops; statConfR 0.2.2 returns {statconfr:.6f} for this table. statConfR 0.0.1, "
              "the version the paper cites, stops on this two-level table with the error "
              "\"{error}\". Unpadded, meta-d′ = {raw:.4f} would print as {raw:.1f}."),
          facts=lambda: {"padded": _table1_fit(pad)["meta_d"],
                         "raw": _table1_fit(0.0)["meta_d"],
                         "error": table1_references()["statConfR fitMetaDprime ML 0.0.1"][
                             "outcome"].removeprefix("error: "),
                         **table1_meta_d_boundary()}),
        n("tab1-m-ratio", "Table 1 (text)", "M-ratio = meta-d′/d′ (statConfR's padding)", "1.8",
          lambda: _table1_fit(pad)["m_ratio"], status=KNOWN_DISCREPANCY,
          explanation=(
              "The book reports the maximum-likelihood fit with statConfR's padding of 1/(2K) "
              "per cell, which reproduces the paper's meta-d′ = 1.9 ({meta_d:.4f}) and gives "
              "M-ratio = {m_ratio:.4f}, printing as {m_ratio:.1f}; no maximum-likelihood fit "
              "in the candidates below prints 1.8. The paper does not say how it obtained its "
              "1.8. These computations print it: {print_18}. Of them, {all_three} "
              "also agree with the d′ = 1.05 the paper prints; the others divide by the d′ of "
              "the padded counts, {d_pad:.4f}, which prints as {d_pad:.2f}. The table of "
              "candidates below, and the chapter on the measures of Table 1, set every "
              "candidate side by side; none is singled out by the paper's numbers alone. The "
              "conclusion, an M-ratio well above 1, is the same for every candidate."),
          facts=lambda: {"meta_d": _table1_fit(pad)["meta_d"],
                         "m_ratio": _table1_fit(pad)["m_ratio"],
                         "d_pad": _table1_fit(pad)["d"],
                         **_candidate_lists()}),
    ]

    # Table 2: relative frequencies, margins, confidences and pti of each response
    out += cells("tab2-freq", "Table 2", "relative frequency",
                 [["0.21", "0.14", "0.12", "0.03"], ["0.01", "0.14", "0.16", "0.19"]],
                 lambda: mb.info.response_table(_table1())["freq"])
    rows = {"m": ("margin m̂", ["0.22", "0.28", "0.28", "0.22"], ""),
            "c": ("confidence ĉ", ["0.95", "0.50", "0.57", "0.86"], ""),
            "pti": ("pti(ĉ)", ["0.73", "0.00", "0.01", "0.43"], "bit")}
    for key, (label, cells, unit) in rows.items():
        for col, printed in enumerate(cells):
            out.append(n(f"tab2-{key}-r{col + 1}", "Table 2", f"{label} of response r{col + 1}",
                         printed,
                         lambda key=key, col=col: mb.info.response_table(_table1())[key][col],
                         unit=unit))

    # Figure 5 and the text around it: the measures of Table 1
    fig5 = [("acc", "Figure 5a (text)", "estimated accuracy", "0.7", ""),
            ("info", "Figure 5a (text)", "estimated transmitted information", "0.26", "bit"),
            ("min_info", "Figure 5a (text)", "min info(acc), Theorem 3", "0.12", "bit"),
            ("max_info", "Figure 5d (text)", "max info(acc), Theorem 3", "0.4", "bit"),
            ("meta_I", "Figure 5a (text)", "meta-I = info − min info", "0.14", "bit"),
            ("d_prime", "Tables 1–2, Figure 5b (text)", "sensitivity d′ of Table 1", "1.05", ""),
            ("meta_I_dprime", "Figure 5b (text)", "normaliser meta-I(d′) of normal noise",
             "0.056", "bit"),
            ("meta_I1r", "Figure 5b (text)", "meta-I₁ʳ = meta-I / meta-I(d′)", "2.5", ""),
            ("H_acc", "Figure 5c (text)", "remaining uncertainty H(Y = Ŷ)", "0.88", "bit"),
            ("meta_I2r", "Figure 5c (text)", "meta-I₂ʳ = meta-I / H(Y = Ŷ)", "0.16", ""),
            ("RMI", "Figure 5d (text)", "RMI = meta-I / (max info − min info)", "0.50", "")]
    for key, where, what, printed, unit in fig5:
        out.append(n(f"fig5-{key.replace('_', '-')}", where, what, printed,
                     lambda key=key: _table1_measures()[key], unit=unit))

    # Figure 8: groups of K = 3 members with accuracy 70% (PCWMV)
    for kind, printed in [("uniform", "89.2"), ("normal", "82"), ("binary", "78.4")]:
        out.append(n(f"fig8-{kind}-k3", "Figure 8 (text)",
                     f"group accuracy of three {kind}-noise members with acc = 70%", printed,
                     lambda kind=kind: 100 * mb.group.noise_group(kind, 0.7, 3)["acc"], unit="%"))
    return tuple(out)


def _candidate_lists() -> dict:
    """The candidates of :func:`table1_candidates` that print 1.8, and those that print all
    three of the paper's numbers, as phrases for the registry's explanation."""
    table = table1_candidates()

    def phrase(names):
        names = list(names)
        return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1]

    def value(name, row):
        mcse = f" ± {row.mcse:.3f} Monte Carlo SE" if np.isfinite(row.mcse) else ""
        return f"{name} ({row.m_ratio:.3f}{mcse})"

    return {"print_18": "; ".join(value(name, row) for name, row in table.iterrows()
                                  if row.matches_m_ratio),
            "all_three": phrase(table.index[table.matches_all])}


def _printed_ratio() -> float:
    """M-ratio from the printed meta-d′ (one decimal) and d′ (two decimals), as the paper's 1.8."""
    meta_d = round(_table1_fit(_statconfr_pad())["meta_d"], 1)
    d = round(_table1_measures()["d_prime"], 2)
    return meta_d / d
