"""Tests of metabits.group: MV, CWMV, exact PCWMV, Theorem 8 and the Figure 8 noise groups
(Meyen et al., 2025, section "Relative Metainformation Improves Group Accuracy")."""

from fractions import Fraction
from itertools import product

import numpy as np

import metabits as mb
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from conftest import assert_paper
from metabits.group import (cwmv_accuracy, confidence_member, group_accuracy_bounds,
                            lattice_member, majority_vote_accuracy, max_group_member,
                            min_group_member, noise_group, noise_member, simulate_pcwmv,
                            simulate_students)
from metabits.group import pcwmv
from metabits.info import accuracy, transmitted_information
from metabits.info import noise_info


# ------------------------------------------------------------------------------ brute force
def brute_group(members, prior=Fraction(1, 2)):
    """Exact rational group accuracy: enumerate every joint response, fair coin on ties.

    ``members`` are lists of (P(r|+), P(r|-)) Fraction pairs; a response's likelihood ratio is
    compared exactly (zero probabilities give certain responses)."""
    acc = Fraction(0)
    for combo in product(*members):
        pos, neg = prior, 1 - prior
        for pp, pn in combo:
            pos, neg = pos * pp, neg * pn
        acc += max(pos, neg)  # = the coin's (pos + neg) / 2 when tied
    return acc


def brute_confidence_member(c, w):
    return [(wi * ci, wi * (1 - ci)) for ci, wi in zip(c, w)] + \
           [(wi * (1 - ci), wi * ci) for ci, wi in zip(c, w)]


def brute_weighted_vote(acc):
    """CWMV by an explicit weighted vote with weights log(a/(1-a)): + wins iff the product of
    odds^vote exceeds 1, exactly (rational accuracies); a tie is a fair coin."""
    total = Fraction(0)
    for votes in product([1, -1], repeat=len(acc)):
        prob, score = Fraction(1), Fraction(1)
        for a, v in zip(acc, votes):
            prob *= a if v == 1 else 1 - a
            score *= (a / (1 - a)) ** v
        total += prob * (1 if score > 1 else Fraction(1, 2) if score == 1 else 0)
    return total


# ------------------------------------------------------------------------- Figure 8, K = 3
def test_figure8_k3_paper_numbers():
    """Figure 8: K = 3 members with acc = 70%: uniform 89.2%, normal 82%, binary 78.4%.

    ``noise_group``'s values are asserted against the print once, in
    metabits_book.paper_numbers; here
    the independent route, the general exact convolution (normal: on a lattice), reproduces them.
    """
    assert_paper(pcwmv([noise_member("uniform", 0.7)] * 3)["acc"], 0.892, 3)
    assert_paper(pcwmv([noise_member("normal", 0.7)] * 3, step=0.01)["acc"], 0.82, 2)
    assert_paper(pcwmv([noise_member("binary", 0.7)] * 3)["acc"], 0.784, 3)


def test_normal_k3_from_dprime():
    """d' = 2Φ⁻¹(0.7) = 1.0488 gives Φ(√3 d'/2) = 0.8181, which rounds to the printed 82%."""
    d = 2 * stats.norm.ppf(0.7)
    assert d == pytest.approx(1.0488, abs=5e-5)
    value = stats.norm.cdf(np.sqrt(3) * d / 2)
    assert value == pytest.approx(0.81814, abs=1e-5)
    assert noise_group("normal", 0.7, 3)["acc"] == pytest.approx(value, abs=1e-14)


# ------------------------------------------------------------------------------ MV and CWMV
def test_majority_vote_binomial_and_ties():
    assert majority_vote_accuracy(0.7, 1) == pytest.approx(0.7)
    assert majority_vote_accuracy(0.7, 3) == pytest.approx(0.7 ** 3 + 3 * 0.7 ** 2 * 0.3)
    K = np.arange(1, 26)
    mv = majority_vote_accuracy(0.7, K)
    assert np.allclose(mv[1::2], mv[0::2][:12])  # even K = K - 1 with fair-coin ties: the steps
    assert np.all(np.diff(mv[0::2]) > 0)
    for k in range(1, 8):  # against exact enumeration with identical members
        assert majority_vote_accuracy(0.7, k) == pytest.approx(
            float(brute_weighted_vote([Fraction(7, 10)] * k)), abs=1e-14)
    assert majority_vote_accuracy(1.0, 4) == 1.0 and majority_vote_accuracy(0.5, 5) == pytest.approx(0.5)


def test_cwmv_against_explicit_weighted_vote():
    cases = [[Fraction(7, 10)] * 3, [Fraction(4, 5), Fraction(2, 3), Fraction(2, 3)],  # exact tie
             [Fraction(9, 10), Fraction(6, 10), Fraction(6, 10), Fraction(55, 100)],
             [Fraction(3, 4), Fraction(3, 4)], [Fraction(99, 100), Fraction(3, 5), Fraction(3, 5)]]
    for acc in cases:
        expected = float(brute_weighted_vote(acc))
        assert cwmv_accuracy([float(a) for a in acc]) == pytest.approx(expected, abs=1e-14)
    # vectorised over leading axes
    batch = np.array([[0.7, 0.7, 0.7], [0.8, 2 / 3, 2 / 3]])
    assert np.allclose(cwmv_accuracy(batch), [cwmv_accuracy(b) for b in batch])
    # identical members: CWMV = MV
    assert np.allclose([cwmv_accuracy([0.7] * k) for k in range(1, 10)],
                       majority_vote_accuracy(0.7, np.arange(1, 10)))


# ------------------------------------------------------------------------------- exact PCWMV
def test_pcwmv_matches_rational_brute_force_with_exact_ties():
    members = [([Fraction(4, 5)], [Fraction(1)]),                      # odds 4
               ([Fraction(2, 3)], [Fraction(1)]),                      # odds 2: 4 = 2·2 ties
               ([Fraction(2, 3), Fraction(1)], [Fraction(3, 4), Fraction(1, 4)]),
               ([Fraction(1, 2), Fraction(4, 5)], [Fraction(1, 2), Fraction(1, 2)])]
    for k in range(1, len(members) + 1):
        group = members[:k]
        expected = float(brute_group([brute_confidence_member(c, w) for c, w in group]))
        tables = [confidence_member([float(x) for x in c], [float(x) for x in w]) for c, w in group]
        assert pcwmv(tables)["acc"] == pytest.approx(expected, abs=1e-14)
        assert pcwmv(tables[::-1])["acc"] == pytest.approx(expected, abs=1e-14)  # order-free


def test_pcwmv_binary_members_equal_cwmv_and_mv():
    accs = [0.9, 0.6, 0.6, 0.55, 0.75]
    tables = [confidence_member([a]) for a in accs]
    assert pcwmv(tables)["acc"] == pytest.approx(cwmv_accuracy(accs), abs=1e-14)
    for k in range(1, 9):
        assert pcwmv([confidence_member([0.7])] * k)["acc"] == pytest.approx(
            majority_vote_accuracy(0.7, k), abs=1e-14)


def test_single_member_reproduces_accuracy_and_information():
    c, w = [0.5, 0.65, 0.9, 1.0], [0.1, 0.4, 0.3, 0.2]
    r = pcwmv([confidence_member(c, w)])
    assert r["acc"] == pytest.approx(accuracy(c, w), abs=1e-14)
    assert r["info"] == pytest.approx(transmitted_information(c, w), abs=1e-12)


@pytest.mark.parametrize("kind", ["uniform", "binary"])
def test_exact_convolution_equals_closed_forms(kind):
    for acc in (0.55, 0.7, 0.9):
        closed = noise_group(kind, acc, np.arange(1, 16))
        for K in range(1, 16):
            r = pcwmv([noise_member(kind, acc)] * K)
            assert r["acc"] == pytest.approx(closed["acc"][K - 1], abs=1e-12)
            assert r["info"] == pytest.approx(closed["info"][K - 1], abs=1e-10)


@pytest.mark.parametrize("acc", [0.55, 0.6, 0.7, 0.8, 0.9, 0.95])
def test_lattice_method_against_exact_normal(acc):
    """The lattice (h = 0.01) reproduces Φ(√K d'/2) and normal_info(√K d') within 3e-5."""
    member = noise_member("normal", acc, step=0.01)
    exact = noise_group("normal", acc, np.arange(1, 26))
    for K in (1, 2, 3, 7, 12, 25):
        r = pcwmv([member] * K, step=0.01)
        assert abs(r["acc"] - exact["acc"][K - 1]) < 3e-5
        assert abs(r["info"] - exact["info"][K - 1]) < 3e-5


def test_lattice_member_of_a_discrete_cdf_and_halving_the_step():
    """Halving h shrinks the lattice error (O(h²))."""
    acc = 0.6
    exact = noise_group("normal", acc, 10)["acc"]
    errs = [abs(pcwmv([noise_member("normal", acc, step=h)] * 10, step=h)["acc"] - exact)
            for h in (0.04, 0.02)]
    assert errs[1] < errs[0] / 2.5
    # a point mass at |log-odds| = 0 is the uninformative member
    flat = lattice_member(lambda lam: np.ones_like(np.asarray(lam, dtype=float)))
    assert pcwmv([flat] * 3, step=0.01) == pytest.approx({"acc": 0.5, "info": 0.0}, abs=1e-12)


def test_noise_groups_stay_in_their_noise_family():
    """Uniform (and normal) groups are again uniform (normal) classifiers (Figure 8a)."""
    for kind in ("uniform", "normal"):
        g = noise_group(kind, 0.7, np.arange(1, 26))
        assert np.allclose(g["info"], noise_info(kind, g["acc"]), atol=1e-10)
    g = noise_group("binary", 0.7, np.arange(2, 26))  # binary groups differentiate uncertainty
    assert np.all(g["info"] > noise_info("binary", g["acc"]) + 1e-6)


def test_noise_group_extremes_are_finite():
    for kind in ("uniform", "normal", "binary"):
        for acc in (0.5, 1.0):
            g = noise_group(kind, acc, [1, 2, 25])
            assert np.all(np.isfinite(g["acc"])) and np.all(np.isfinite(g["info"]))
            assert np.allclose(g["acc"], acc) and np.allclose(g["info"], 0.0 if acc == 0.5 else 1.0)


# ------------------------------------------------------------------------------- Theorem 8
@pytest.mark.parametrize("acc", [0.55, 0.7, 0.9])
def test_theorem8_attained_by_uniform_and_binary_groups(acc):
    for K in range(1, 13):
        lo, hi = group_accuracy_bounds([acc] * K, [acc] * K)
        assert noise_group("uniform", acc, K)["acc"] == pytest.approx(hi, abs=1e-12)   # RMI = 1
        assert noise_group("binary", acc, K)["acc"] == pytest.approx(lo, abs=1e-12)    # RMI = 0
        assert cwmv_accuracy([acc] * K) == pytest.approx(lo, abs=1e-14)               # = CWMV
        normal = noise_group("normal", acc, K)["acc"]
        assert lo - 1e-12 <= normal <= hi + 1e-12
        if K > 1:
            assert lo < normal < hi


def test_theorem8_lower_bound_is_cwmv_for_unequal_members():
    acc = np.array([0.95, 0.7, 0.66, 0.6, 0.52])
    assert group_accuracy_bounds(acc, acc)[0] == pytest.approx(cwmv_accuracy(acc), abs=1e-14)


@pytest.mark.parametrize("prior", [0.5, 0.6, 0.8, 0.3, 0.1])
def test_theorem8_label_specific_rates_and_unequal_priors(prior):
    """Brute force: members reporting only predictions attain the lower bound; RMI = 1 members
    attain 1 − Π(1 − acc_k)/max(p₊, p₋)^{K−1}. The printed p₊^{K−1} agrees for p₊ ≥ 1/2 (Assumption
    2) but is exceeded by an actual group for p₊ < 1/2."""
    tp, tn = np.array([0.93, 0.85, 0.97]), np.array([0.95, 0.92, 0.92])
    lo, hi = group_accuracy_bounds(tp, tn, prior)
    worst = pcwmv([min_group_member(a, b) for a, b in zip(tp, tn)], prior)["acc"]
    best = pcwmv([max_group_member(a, b, prior) for a, b in zip(tp, tn)], prior)["acc"]
    assert worst == pytest.approx(lo, abs=1e-12)
    assert best == pytest.approx(hi, abs=1e-12)
    acc = prior * tp + (1 - prior) * tn
    printed = 1 - np.prod(1 - acc) / prior ** (len(tp) - 1)
    if prior >= 0.5:
        assert printed == pytest.approx(hi, abs=1e-14)
    else:
        assert best > printed + 1e-3


def test_max_group_member_has_requested_rates_and_rmi_one():
    prior, tp, tn = 0.7, 0.9, 0.6
    t = max_group_member(tp, tn, prior)
    assert t.sum(axis=1) == pytest.approx([1, 1])
    # rows Y = -1, +1; columns: certain -1, unsure -1, unsure +1, certain +1
    assert t[1, [2, 3]].sum() == pytest.approx(tp) and t[0, [0, 1]].sum() == pytest.approx(tn)
    acc = prior * tp + (1 - prior) * tn
    from metabits.info import info_upper_bound
    assert pcwmv([t], prior)["info"] == pytest.approx(info_upper_bound(acc, prior), abs=1e-12)


def test_printed_rule_with_unequal_priors_is_not_optimal():
    """sign(Σ log(C_k/(1−C_k)) Ŷ_k) with posterior confidences counts the prior K times; with
    p₊ = 0.7 it loses 9 points against the optimal rule (Assumption 14) used by pcwmv."""
    prior, tp, tn, K = 0.7, 0.85, 0.7, 3
    conf = {+1: prior * tp / (prior * tp + (1 - prior) * (1 - tn)),
            -1: (1 - prior) * tn / ((1 - prior) * tn + prior * (1 - tp))}
    naive = 0.0
    for votes in product([1, -1], repeat=K):
        pos = prior * np.prod([tp if v == 1 else 1 - tp for v in votes])
        neg = (1 - prior) * np.prod([1 - tn if v == 1 else tn for v in votes])
        s = sum(v * np.log(conf[v] / (1 - conf[v])) for v in votes)
        naive += pos if s > 0 else neg if s < 0 else (pos + neg) / 2
    optimal = pcwmv([min_group_member(tp, tn)] * K, prior)["acc"]
    assert optimal == pytest.approx(group_accuracy_bounds([tp] * K, [tn] * K, prior)[0])
    assert naive < optimal - 0.09


# ------------------------------------------------------------------------------ hypothesis
confidence = st.one_of(st.sampled_from([0.5, 0.75, 1.0]), st.floats(0.5, 1.0))
member = st.integers(1, 3).flatmap(lambda r: st.tuples(
    st.lists(confidence, min_size=r, max_size=r),
    st.lists(st.floats(0.05, 1.0), min_size=r, max_size=r)))


@given(st.lists(member, min_size=1, max_size=4))
def test_random_calibrated_groups_within_theorem8(members):
    tables, accs = [], []
    for c, w in members:
        w = np.array(w) / np.sum(w)
        tables.append(confidence_member(c, w))
        accs.append(accuracy(c, w))
    lo, hi = group_accuracy_bounds(accs, accs)
    g = pcwmv(tables)
    assert lo - 1e-12 <= g["acc"] <= hi + 1e-12
    assert 0.0 <= g["info"] <= 1.0


@given(st.floats(0.05, 0.95), st.lists(st.integers(1, 3).flatmap(lambda r: st.lists(
    st.tuples(st.floats(0.01, 1.0), st.floats(0.01, 1.0)), min_size=r, max_size=r)),
    min_size=1, max_size=4))
def test_random_label_specific_groups_within_theorem8(prior, raw):
    tables, tp, tn = [], [], []
    for responses in raw:
        t = np.array(responses, dtype=float).T   # rows P(r | Y = -1), P(r | Y = +1)
        t /= t.sum(axis=1, keepdims=True)
        says_pos = prior * t[1] >= (1 - prior) * t[0]  # Bayes predictions (Assumption 4)
        tables.append(t)
        tp.append(t[1, says_pos].sum())
        tn.append(t[0, ~says_pos].sum())
    lo, hi = group_accuracy_bounds(tp, tn, prior)
    acc = pcwmv(tables, prior)["acc"]
    assert lo - 1e-9 <= acc <= hi + 1e-9


# ------------------------------------------------------------------------------ Monte Carlo
@pytest.mark.parametrize("members, prior", [
    ([noise_member("uniform", 0.7)] * 3, 0.5),
    ([noise_member("binary", 0.7)] * 4, 0.5),  # ties every time two members disagree
    ([confidence_member([0.8]), confidence_member([2 / 3]), confidence_member([2 / 3]),
      confidence_member([0.5, 0.9, 1.0], [0.3, 0.5, 0.2])], 0.5),
    ([max_group_member(0.9, 0.95, 0.3), max_group_member(0.85, 0.9, 0.3)], 0.3),
    ([min_group_member(0.9, 0.6)] * 3, 0.7),
])
def test_monte_carlo_lands_on_exact(members, prior):
    exact = pcwmv(members, prior)["acc"]
    mc = simulate_pcwmv(members, 200_000, rng=np.random.default_rng(1), prior=prior)
    assert abs(mc["acc"] - exact) <= 4 * mc["se"]
    again = simulate_pcwmv(members, 200_000, rng=np.random.default_rng(1), prior=prior)
    assert again == mc  # seeded


def test_students_specialists_beat_generalists():
    rng = np.random.default_rng(7)
    res = {kind: simulate_students(kind, 0.7, 3, n_groups=2000, n_questions=100, rng=rng)
           for kind in ("uniform", "normal", "binary")}
    for r in res.values():
        assert r["individual_acc"] == pytest.approx(0.7)
        assert abs(r["acc"] - r["exact"]) <= 4 * r["se"]
    assert res["uniform"]["acc"] > res["normal"]["acc"] > res["binary"]["acc"]
    # the exact reference is the closed form; the general convolution gives the same
    assert res["uniform"]["exact"] == pytest.approx(
        pcwmv([noise_member("uniform", 0.7)] * 3)["acc"], abs=1e-12)
    # coordinated specialists break Assumption 13 and exceed the Theorem 8 upper bound
    coord = simulate_students("uniform", 0.6, 3, n_groups=500, n_questions=100, rng=rng,
                              coordinated=True)
    assert coord["exact"] == pytest.approx(0.8) and abs(coord["acc"] - 0.8) <= 4 * coord["se"]
    assert coord["acc"] > group_accuracy_bounds([0.6] * 3, [0.6] * 3)[1] + 0.05


# ------------------------------------------------------------------------------- bad input
_T = confidence_member([0.7])


@pytest.mark.parametrize("call, match", [
    (lambda: majority_vote_accuracy(1.2, 3), "acc"),
    (lambda: majority_vote_accuracy(0.7, 0), "group size K"),
    (lambda: majority_vote_accuracy(0.7, 2.5), "group size K"),
    (lambda: cwmv_accuracy([]), "acc must not be empty"),
    (lambda: cwmv_accuracy([0.7, -0.1]), "acc"),
    (lambda: cwmv_accuracy([0.7] * 21), "K <= 20"),
    (lambda: group_accuracy_bounds([0.7, 0.8], [0.7]), "shapes"),
    (lambda: group_accuracy_bounds([], []), r"acc_pos \(true positive rates\) must not be empty"),
    (lambda: group_accuracy_bounds([1.1], [0.7]), "acc_pos"),
    (lambda: group_accuracy_bounds([0.7], [np.nan]), "finite"),
    (lambda: group_accuracy_bounds([0.7], [0.7], prior=0.0), "prior"),
    (lambda: group_accuracy_bounds([0.7], [0.7], prior=1.0), "prior"),
    (lambda: group_accuracy_bounds([0.7], [0.7], prior=1.5), "prior"),
    (lambda: group_accuracy_bounds([0.6], [0.6], prior=0.7), "Bayes"),
    (lambda: confidence_member([0.4]), "confidence"),
    (lambda: confidence_member([0.6, 0.7], [0.5, 0.6]), "sum to 1"),
    (lambda: confidence_member([0.6, 0.7], [1.0]), "equal length"),
    (lambda: pcwmv([]), "K >= 1"),
    (lambda: pcwmv(_T), "sequence"),
    (lambda: pcwmv([[[0.5, 0.6], [0.5, 0.5]]]), "sum to 1"),
    (lambda: pcwmv([[0.5, 0.5]]), "shape"),
    (lambda: pcwmv([_T], prior=0.0), "prior"),
    (lambda: pcwmv([noise_member("uniform", 0.7)], step=0.01), "confidence 1"),
    (lambda: pcwmv([_T], step=-1), "step"),
    (lambda: pcwmv([_T], step=1e-12), "too small"),
    (lambda: lattice_member(lambda lam: 0.5 * np.ones_like(lam), step=0.01), "CDF"),
    (lambda: lattice_member(lambda lam: lam, step=0), "step"),
    (lambda: noise_group("gaussian", 0.7, 3), "noise kind"),
    (lambda: noise_group("uniform", 0.3, 3), "acc"),
    (lambda: noise_group("uniform", 0.7, 0), "group size K"),
    (lambda: noise_member("normal", 1.0), "acc = 1"),
    # step is checked for every kind, though only normal noise uses it (it was ignored)
    (lambda: noise_member("uniform", 0.7, step=-1), r"step must be > 0; got -1"),
    (lambda: noise_member("binary", 0.7, step=np.nan), "step must be finite .* got nan"),
    (lambda: noise_member("uniform", 0.7, step="abc"), r"step must be a numeric .*\('abc'\)"),
    (lambda: noise_member("uniform", 0.7, step=None), "step must be a number .* got None"),
    # a lattice too fine to build is refused before allocating (it was a MemoryError)
    (lambda: noise_member("normal", 0.7, step=1e-9),
     r"8,000,000,001 lattice cells .* the smallest step is 1.61e-06"),
    (lambda: lattice_member(lambda lam: 1 - np.exp(-lam), step=1e-300), "the smallest step is"),
    (lambda: max_group_member(0.6, 0.6, 0.8), "Bayes"),
    (lambda: min_group_member([0.9, 0.8], [0.9, 0.8]), "single numbers"),
    (lambda: simulate_pcwmv([_T], 0), "n must"),
    (lambda: simulate_pcwmv([_T], 10, prior=-0.2), "prior"),
    (lambda: simulate_students("expert", 0.7, 3), "noise kind"),
    (lambda: simulate_students("binary", 0.7, 0), "group size K"),
    (lambda: simulate_students("binary", 0.7, 3, n_groups=1), "two groups"),
    (lambda: simulate_students("normal", 1.0, 3), "acc = 1"),
])
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.slow
def test_the_smallest_step_named_in_the_refusal_works():
    """The step a refusal names builds a member that pcwmv accepts; a little less is refused."""
    with pytest.raises(ValueError, match="the smallest step") as info:
        noise_member("normal", 0.8, step=1e-9)
    smallest = float(str(info.value).split()[-1])
    assert noise_member("normal", 0.8, step=smallest).shape[1] <= 10 ** 7
    with pytest.raises(ValueError, match="the smallest step"):
        noise_member("normal", 0.8, step=smallest * 0.99)


def test_printed_rule_counts_the_prior_k_times():
    """With p+ = 0.6 and three vote-only members at 70%, summing posterior log-odds is worse than
    each member alone; brute force over the 8 vote patterns gives the same number."""
    from itertools import product
    p, rate, K = 0.6, 0.7, 3
    members = [mb.group.min_group_member(rate, rate)] * K
    printed = mb.group.pcwmv(members, prior=p, rule="printed")["acc"]
    optimal = mb.group.pcwmv(members, prior=p)["acc"]
    c_plus = p * rate / (p * rate + (1 - p) * (1 - rate))
    c_minus = (1 - p) * rate / ((1 - p) * rate + p * (1 - rate))
    brute = 0.0
    for votes in product([1, -1], repeat=K):
        n_plus = votes.count(1)
        score = n_plus * np.log(c_plus / (1 - c_plus)) - (K - n_plus) * np.log(c_minus / (1 - c_minus))
        like_pos = rate ** n_plus * (1 - rate) ** (K - n_plus)
        like_neg = (1 - rate) ** n_plus * rate ** (K - n_plus)
        brute += p * like_pos if score > 0 else (1 - p) * like_neg
    assert printed == pytest.approx(brute, abs=1e-12)
    assert rate < printed < optimal - 0.05
    same = mb.group.pcwmv(members, prior=0.5, rule="printed")["acc"]
    assert same == pytest.approx(mb.group.pcwmv(members, prior=0.5)["acc"], abs=1e-12)


def test_an_unknown_rule_is_refused():
    with pytest.raises(ValueError, match="rule must be"):
        mb.group.pcwmv([mb.group.min_group_member(0.7, 0.7)], rule="sum")
