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
