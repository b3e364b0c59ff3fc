"""Groups with L labels (metabits.group): two labels are PCWMV, the exact accuracy
against a simulation, calibrated members, and the three-label routes of book/meyen/09_limits."""

import numpy as np
import pytest

import metabits as mb
from metabits.group import (multilabel_group_accuracy, multilabel_member,
                            random_multilabel_members)


# --- groups with L labels (exploration) ------------------------------------------------------

def test_multilabel_groups_with_two_labels_are_pcwmv():
    member = mb.group.confidence_member([0.55, 0.8, 0.95], [0.3, 0.5, 0.2])
    for K in (1, 2, 3, 4):
        assert multilabel_group_accuracy(member, K) == pytest.approx(
            mb.group.pcwmv([member] * K).acc, abs=1e-12)
    best = mb.info.max_info_classifier(0.7, [0.5, 0.5])
    upper = multilabel_member(best.values, best.weights, [0.5, 0.5])
    assert multilabel_group_accuracy(upper, 3) == pytest.approx(
        mb.group.group_accuracy_bounds([0.7] * 3, [0.7] * 3).upper, abs=1e-12)


def test_multilabel_group_accuracy_against_simulation():
    rng = np.random.default_rng(4)
    member = random_multilabel_members(3, 4, 1, rng=rng)[0]
    exact = multilabel_group_accuracy(member, 3)
    n = 200_000
    y = rng.integers(3, size=n)
    cum = np.cumsum(member, axis=1)
    r = np.stack([(rng.random(n)[:, None] > cum[y]).sum(1) for _ in range(3)], axis=1)
    loglik = np.log(member[:, r]).sum(axis=-1)                 # (3 labels, n)
    acc = np.mean(np.argmax(loglik, axis=0) == y)
    assert acc == pytest.approx(exact, abs=4 * np.sqrt(exact * (1 - exact) / n))


def test_multilabel_member_is_calibrated():
    worst = mb.info.min_info_classifier(0.5, [1 / 3] * 3)
    t = multilabel_member(worst.values, worst.weights, [1 / 3] * 3)
    post = t / t.sum(axis=0)                      # equal priors: P(y | r)
    np.testing.assert_allclose(post.T, worst.values, atol=1e-12)
    assert multilabel_group_accuracy(t, 1) == pytest.approx(0.5, abs=1e-12)


def test_chapter_three_label_routes():
    P3 = np.full(3, 1 / 3)
    for acc in (0.6, 0.7, 0.8):
        q = 2 * acc - 1
        vals = np.vstack([np.eye(3), [[0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]]])
        w = np.r_[np.full(3, q / 3), np.full(3, (1 - q) / 3)]
        sym = multilabel_member(vals, w, P3)
        # wrong only when all three name a pair and it is the same pair: 1 - (1 - acc)^3
        assert multilabel_group_accuracy(sym, 3) == pytest.approx(1 - (1 - acc) ** 3, abs=1e-12)
        best = mb.info.max_info_classifier(acc, P3)
        lib = multilabel_member(best.values, best.weights, P3)
        assert mb.info.mutual_information(P3[:, None] * lib) == pytest.approx(
            mb.info.mutual_information(P3[:, None] * sym), abs=1e-9)         # same information ...
        assert multilabel_group_accuracy(lib, 3) < multilabel_group_accuracy(sym, 3) - 0.05
