"""Meyen et al.'s printed formulas (metabits_book.meyen2025) against the library's."""

import numpy as np
import pytest

import metabits as mb
from metabits_book.meyen2025 import theorem8_upper_as_printed


def test_printed_upper_bound_only_for_p_plus_at_least_half():
    tp, tn = np.full(3, 0.5), np.full(3, 0.9)
    _, general = mb.group.group_accuracy_bounds(tp, tn, prior=0.3)
    printed = theorem8_upper_as_printed(tp, tn, prior=0.3)
    best = mb.group.pcwmv([mb.group.max_group_member(0.5, 0.9, 0.3)] * 3, prior=0.3)["acc"]
    assert printed < best == pytest.approx(general, abs=1e-12)
    rates = np.full(3, 0.7)
    assert theorem8_upper_as_printed(rates, rates) == pytest.approx(
        mb.group.group_accuracy_bounds(rates, rates)[1])


def test_meta_I1r_as_statconfr_computes_it():
    """statConfR 0.2.2's estimateMetaI (shipped, run in R on the 16 MaskOri people pooled over
    the SOAs) is reproduced by meta_I1r_variants(...).statconfr; its meta-I, meta-I₂ʳ and RMI
    are the library's, and only its meta-I₁ʳ differs — by its response-conditional sensitivity
    and, less, by the table's priors in the normaliser's lower bound."""
    from metabits_book.meyen2025 import meta_I1r_variants, statconfr_maskori_meta_i
    from metabits_book.studies import datasets

    counts = datasets.maskori_counts(by=("participant",)).counts
    ref = statconfr_maskori_meta_i()
    assert list(ref.index) == list(range(1, 17))
    ours = mb.all_measures(counts)
    for name, theirs in [("meta_I", "meta_I"), ("meta_I2r", "meta_Ir2"), ("RMI", "RMI")]:
        np.testing.assert_allclose(ours.value(name), ref[theirs], rtol=0, atol=1e-10)
    v = meta_I1r_variants(counts)
    np.testing.assert_allclose(v.statconfr, ref["meta_Ir1"], rtol=0, atol=1e-9)
    np.testing.assert_allclose(v.book, ours.value("meta_I1r"), rtol=0, atol=1e-12)
    gap = np.abs(v.book - v.statconfr)
    assert 0.1 < gap.max() < 0.5  # the difference the measures chapter reports
    # the sensitivity explains most of it: with the library's normaliser at statConfR's d
    assert np.abs(v.book - v.response_d).max() > 0.5 * gap.max()


def test_meta_I1r_variants_coincide_on_symmetric_tables():
    v = meta_I1r_variants_of([[84, 56, 48, 12], [4, 56, 64, 76]])
    assert v.statconfr == pytest.approx(v.book, abs=1e-12)
    assert v.d_response == pytest.approx(mb.type1_sdt([[84, 56, 48, 12], [4, 56, 64, 76]]).d)
    # a biased table with unequal stimuli: the response-conditional sensitivity differs from
    # d′, and the priors move statConfR's lower bound, hence its meta-I₁ʳ, further
    biased = [[90, 40, 50, 20], [10, 30, 60, 40]]
    w = meta_I1r_variants_of(biased)
    assert abs(w.d_response - mb.type1_sdt(biased).d) > 0.005
    assert abs(w.statconfr - w.response_d) > 0.1


def meta_I1r_variants_of(counts):
    from metabits_book.meyen2025 import meta_I1r_variants

    return meta_I1r_variants(counts)
