"""Shared test helpers.

Paper numbers are asserted with :func:`assert_paper`: the value we compute must round to the
number the paper prints, i.e. lie within half a unit of its last printed digit (the stated
tolerance of every reproduction test), unless a test states a different tolerance and says why.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles. Each property test keeps its own max_examples (sized to its cost); the
# profile decides the rest. "ci" (used when CI is set) is derandomized, so a CI failure
# reproduces exactly, and prints the blob to replay it; "dev" explores new random examples on
# every run. Choose one with HYPOTHESIS_PROFILE=dev|ci.
settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
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
