"""Weighted votes of a group (metabits.group): the optimal weights give PCWMV, equal
votes majority vote, and any weights the brute-force sum over every response pattern."""

import itertools

import numpy as np
import pytest

import metabits as mb
from metabits.group import noise_member, weighted_vote_accuracy


def test_weighted_vote_with_true_llrs_is_the_optimal_group():
    members = [noise_member("normal", 0.7, step=0.05), noise_member("uniform", 0.8),
               mb.group.confidence_member([0.6, 0.9], [0.5, 0.5])]
    with np.errstate(divide="ignore"):     # uniform noise: certain responses, infinite votes
        w = [np.log(t[1] / t[0]) for t in members]
    assert weighted_vote_accuracy(members, w) == pytest.approx(mb.group.pcwmv(members).acc, abs=1e-9)
    votes = [np.where(np.arange(t.shape[1]) < t.shape[1] // 2, -1.0, 1.0) for t in members]
    assert weighted_vote_accuracy([members[2]] * 5, votes[2:] * 5) == pytest.approx(
        mb.group.majority_vote_accuracy(0.75, 5), abs=1e-12)


def test_weighted_vote_by_brute_force():
    rng = np.random.default_rng(8)
    members = [rng.dirichlet(np.ones(4), size=2) for _ in range(3)]
    weights = [rng.normal(size=4) for _ in range(3)]
    acc = 0.0
    for r in itertools.product(range(4), repeat=3):
        s = sum(w[j] for w, j in zip(weights, r))
        for y, row in ((1, 1), (-1, 0)):
            p = 0.5 * np.prod([t[row, j] for t, j in zip(members, r)])
            acc += p * (1.0 if np.sign(s) == y else 0.5 if s == 0 else 0.0)
    assert weighted_vote_accuracy(members, weights) == pytest.approx(acc, abs=1e-12)
