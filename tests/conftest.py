"""Shared test helpers.

Paper numbers are asserted with :func:`assert_paper`: the value we compute must round to the
number the paper prints, i.e. lie within half a unit of its last printed digit (the stated
tolerance of every reproduction test), unless a test states a different tolerance and says why.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles decide how many examples every property test draws (no test sets its own
# max_examples). "dev" (the default) draws a modest number and new random examples on every run;
# "ci" (used when CI is set) draws more, is derandomized, so a CI failure reproduces exactly, and
# prints the blob to replay it. Choose one with HYPOTHESIS_PROFILE=dev|ci. No deadline: the
# tests check numbers, and a timing limit on numerical fits only makes them flaky.
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def assert_paper(value, printed, decimals, what=""):
    """Assert ``value`` agrees with the paper's ``printed`` number shown to ``decimals`` places."""
    tol = 0.5 * 10.0 ** (-decimals) + 1e-12
    assert abs(value - printed) <= tol, (
        f"{what or 'value'} = {value:.6g}, but the paper prints {printed} "
        f"(tolerance ±{tol:.2g}, half a unit of the last printed digit)"
    )


@pytest.fixture
def table1():
    """Meyen et al. (2025), Table 1: rows true label -1, +1; columns responses r1..r4."""
    return [[84, 56, 48, 12], [4, 56, 64, 76]]
