"""Every measure of a stack of tables (metabits._stack): the functions that report
several measures of a stack — all_measures, classic_type2, measure_study, database_measures —
give the same numbers, column for column, because they compute them the same way. Simulated tables
(metabits_book.studies.simulation) and the MaskOri tables (fixture in conftest.py).
"""

import numpy as np
import pytest

import metabits as mb
from metabits import _bootstrap as measure_bootstrap, _stack as stack_measures
from metabits_book.studies import simulation as sim
from metabits_book.studies.database_measures import NAMES, database_measures
from metabits._stack import PLUGIN, all_measures


@pytest.fixture(scope="module")
def study():
    """A small study of all three noise kinds (3, 4, 20, 2, 4), some with undefined measures."""
    return sim.simulate_study(n_sets=20, n_per_label=40, rng=3)


def test_measure_study_is_a_choice_of_all_measures_columns(study):
    res = sim.measure_study(study)
    a = all_measures(study, pad=sim.SDT_PAD)
    for name in sim.SIX_MEASURES:
        assert np.array_equal(res[name], a.value(name), equal_nan=True), name
    # acc is the information measures' accuracy (columns recoded to their majority label)
    assert np.array_equal(res.acc, mb.type2_measures(study, undefined="nan").acc)
    assert np.array_equal(res.acc, mb.info.recoding(study).acc_recoded)


def test_measure_study_bias_reduction_is_type2_measures(study):
    res = sim.measure_study(study, bias_reduction=50, rng=9)
    ref = mb.type2_measures(study, bias_reduction=50, rng=9, undefined="nan")
    for name in ("meta_I", "meta_I1r", "meta_I2r", "RMI"):
        assert np.array_equal(res[name], ref[name], equal_nan=True), name
        assert res.bias_excluded[name] == int(np.sum(ref.bias_excluded[name]))
    plain = sim.measure_study(study)  # the SDT measures are never bias-reduced
    assert np.array_equal(res.meta_d, plain.meta_d, equal_nan=True)


def test_the_two_accuracies_differ_where_a_column_has_more_errors():
    # the low-confidence "S2" column holds more S1 than S2 trials
    t = np.array([[[30, 10, 12, 8], [5, 10, 8, 37]]], dtype=float)
    res = sim.measure_study(t)
    assert res.acc[0] == pytest.approx((30 + 10 + 12 + 37) / 120, abs=1e-12)
    assert all_measures(t).value("acc")[0] == pytest.approx((30 + 10 + 8 + 37) / 120, abs=1e-12)


def test_classic_type2_is_the_sdt_part_of_all_measures(tables):
    t = tables.counts  # (16, 5, 2, 10): some tables without a finite meta-d′
    c = mb.classic_type2(t, undefined="nan")
    a = all_measures(t)
    for name, key in [("auroc2", "auroc2"), ("gamma", "gamma"), ("phi", "phi"),
                      ("d_prime", "d"), ("meta_d", "meta_d"), ("m_ratio", "m_ratio"),
                      ("m_diff", "m_diff")]:
        assert np.array_equal(a.value(name), c[key], equal_nan=True), name
    assert c.pad == a.pad == pytest.approx(1 / 10, abs=1e-15)


def test_database_measures_carry_all_measures(tables):
    t = tables.counts[:4, 2]
    db = database_measures(t, [5] * 4)
    a = all_measures(t)
    for name in PLUGIN:
        assert np.array_equal(db.value(name), a.value(name), equal_nan=True), name
    assert NAMES[:len(PLUGIN)] == PLUGIN


def test_all_adds_the_model_based_measures_of_the_meta_noise_fit():
    """measures="all": meta_noise is fit_meta_noise's σ_meta and meta_uncertainty
    fit_meta_uncertainty's σ_m, with the same padding; 0 where σ is fitted at 0."""
    tables = np.array([mb.sdt.simulate_ratings(1.5, m, 300, c=0.2, K=4, rng=s)[0]
                       for s, m in enumerate([1.5, 1.0, 0.6])], dtype=float)
    r = mb.all_measures(tables, measures="all")
    assert r.names[-2:] == ("meta_noise", "meta_uncertainty")
    noise = mb.fit_meta_noise(tables)
    unc = mb.fit_meta_uncertainty(tables)
    np.testing.assert_allclose(r.value("meta_noise"), noise.sigma_meta, rtol=1e-12)
    np.testing.assert_allclose(r.value("meta_uncertainty"), unc.sigma_m, rtol=1e-9)
    # less metacognitive sensitivity, more meta-noise
    assert r.value("meta_noise")[2] > r.value("meta_noise")[0]


def test_model_measures_leave_a_table_with_an_empty_row_unfitted():
    from metabits._stack import model_measures

    flat = np.array([[[84, 56, 48, 12], [4, 56, 64, 76]], [[0, 0, 0, 0], [4, 56, 64, 76]]],
                    dtype=float)
    values, status = model_measures(flat, 0.25)
    assert status[1] == "empty_row" and np.isnan(values["meta_noise"][1])
    assert status[0] == mb.fit_meta_noise(flat[0]).status
    assert values["meta_noise"][0] == mb.fit_meta_noise(flat[0]).sigma_meta
