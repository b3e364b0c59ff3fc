"""Every measure of a stack of tables (metabits._stack): the functions that report several
measures of a stack — all_measures and classic_type2 — give the same numbers, column for column,
because they compute them the same way (the book's measure_study and database_measures too:
tests/test_simulation.py and tests/test_database_measures.py). The MaskOri tables (fixture in
conftest.py) and simulated tables.
"""

import numpy as np
import pytest

import metabits as mb
from metabits import _bootstrap as measure_bootstrap, _stack as stack_measures
from metabits._stack import all_measures


def test_classic_type2_is_the_sdt_part_of_all_measures(tables):
    t = tables.counts  # (16, 5, 2, 10): some tables without a finite meta-d′
    c = mb.classic_type2(t, undefined="nan")
    a = all_measures(t)
    for name, key in [("auroc2", "auroc2"), ("gamma", "gamma"), ("phi", "phi"),
                      ("d_prime", "d"), ("meta_d", "meta_d"), ("m_ratio", "m_ratio"),
                      ("m_diff", "m_diff")]:
        assert np.array_equal(a.value(name), c[key], equal_nan=True), name
    assert c.pad == a.pad == pytest.approx(1 / 10, abs=1e-15)


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
