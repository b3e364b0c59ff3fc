"""The cognitive chain (metabits_book.cognitive_chain): the essay's profile table, simulated
traces, per-operation OSKR, the deployment matrix and the router."""

import numpy as np
import pytest

import metabits as mb
from metabits_book import cognitive_chain as cc


def test_profile_table_is_the_printed_one():
    p = cc.roberts_profiles()
    assert p.operations == cc.OPERATIONS
    assert p.scores.shape == (4, 8)
    # a few printed cells, and the printed row of Agent C
    assert p.scores[0, 5] == 4.8 and p.scores[1, 7] == 1.9 and p.scores[2, 3] == 2.6
    assert np.array_equal(p.scores[3], [2.5, 3.4, 3.8, 2.3, 2.8, 3.6, 3.0, 1.6])


def test_simulated_rates_match_the_model():
    scores = np.array([1, 2, 3, 4, 5, 3, 2, 1.0])
    tr = cc.simulate_chain(scores, 200_000, rng=0, success_range=(0.6, 0.99))
    q = (scores - 1) / 4
    # the first operation is always reached: its success and report rates are the model's
    assert tr.reached[:, 0].all()
    assert tr.success[:, 0].mean() == pytest.approx(0.6 + 0.39 * q[0], abs=0.005)
    fa = tr.report[:, 0][~tr.success[:, 0]].mean()
    assert fa == pytest.approx(0.9 + q[0] * (0.05 - 0.9), abs=0.005)
    # reached = no earlier failure; failed_at = first failure
    first = np.argmax(~tr.success, axis=1)
    has = (~tr.success).any(axis=1)
    assert np.array_equal(tr.failed_at, np.where(has, first, -1))
    k = np.arange(8)
    assert np.array_equal(tr.reached, (k[None, :] <= np.where(has, first, 7)[:, None]))


def test_per_operation_oskr_recovers_the_channel():
    scores = np.array([3.0, 4, 4.5, 3.5, 4, 4.8, 4, 2])
    tr = cc.simulate_chain(scores, 50_000, rng=1)
    est = cc.per_operation_oskr(tr, rng=2, n_boot=500)
    truth = mb.oskr.binary_channel(tr.p_success, tr.hit_rate, tr.false_alarm).oskr
    assert np.all(np.abs(est.oskr - truth) < 4 * (est.upper - est.lower) / 3.92 + 0.005)
    assert np.all((est.lower <= est.oskr) & (est.oskr <= est.upper))


def test_deployment_posture_and_router():
    got = cc.deployment_posture([0.9, 0.9, 0.5, 0.5], [0.8, 0.2, 0.8, 0.2],
                                accuracy_threshold=0.8, oskr_threshold=0.5)
    assert list(got) == ["automate", "automate with verification", "scout / draft generator",
                         "do not delegate"]
    k = np.array([.5, .5, .6, .5, .5, .8, .6, .2])
    assert cc.route_task([0, 0, 0.3, 0, 0, 0.5, 0, 0], k).verdict == "agent"
    assert cc.route_task([0, 0, 0, 0, 0, 0, 0, 0.6], k).verdict == "human"
    r = cc.route_task([0, 0, 0.3, 0, 0, 0.5, 0, 0.6], k)
    assert r.verdict == "hybrid" and r.to_agent == ("Extract", "Compute") and r.to_human == ("Verify",)
    with pytest.raises(ValueError, match="loads no operation"):
        cc.route_task(np.zeros(8), k)
    with pytest.raises(ValueError, match="1–5 scale"):
        cc.simulate_chain(np.full(8, 6.0), 10)
    with pytest.raises(ValueError, match="one value per operation"):
        cc.simulate_chain([3, 3], 10)
