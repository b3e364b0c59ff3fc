"""Shared test helpers.

Fixtures used by more than one test module: the MaskOri data (``trials``, ``tables``: the
library tests' copy in tests/lib/data, for tests/lib) and the built site served on
127.0.0.1 (``site_url``) and every page of it visited once in headless Chromium (``site_visits``),
for test_browser and test_explore_browser, whose other helpers are in _browser.py.

With ``METABITS_LIB_ONLY=1`` (``scripts/quick-tests.sh``, which runs ``tests/lib``) importing
``metabits_book`` fails: the library's own tests must pass without the book's code, even where
it is installed. This file imports nothing of the book at its top for that reason; fixtures that
need the book import it inside.

Paper numbers are asserted with :func:`assert_paper`: the value we compute must round to the
number the paper prints, i.e. lie within half a unit of its last printed digit (the stated
tolerance of every reproduction test), unless a test states a different tolerance and says why.
"""

import functools
import http.server
import os
import threading
from pathlib import Path

import importlib.abc
import sys

import pytest
from _browser import BrowserUnavailable, _QuietHandler, _unavailable, visit_site
from hypothesis import HealthCheck, settings


class _NoBook(importlib.abc.MetaPathFinder):
    """Refuses ``metabits_book`` and its modules (``METABITS_LIB_ONLY``)."""

    def find_spec(self, name, path=None, target=None):
        if name == "metabits_book" or name.startswith("metabits_book."):
            raise ImportError(f"{name}: the library's tests run without the book's code "
                              "(METABITS_LIB_ONLY is set)")
        return None


if os.environ.get("METABITS_LIB_ONLY"):
    if any(m.split(".")[0] == "metabits_book" for m in sys.modules):
        raise pytest.UsageError("metabits_book was imported before the tests were collected; "
                                "METABITS_LIB_ONLY needs the library alone")
    sys.meta_path.insert(0, _NoBook())

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


@pytest.fixture
def pytensor_in_python():
    """PyTensor functions compiled during the test (a model's log density at a few points,
    prior draws) run in its FAST_COMPILE mode, on Python's implementation of each operation:
    compiling them to C takes longer than all their evaluations (on a fresh machine, 102 C
    modules for the tests that use this). NUTS (nutpie on JAX) does not read the mode."""
    import pytensor

    with pytensor.config.change_flags(mode="FAST_COMPILE"):
        yield


# --- files in the Confidence Database's format -------------------------------------------------

#: The raw files of the Confidence Database, where a maintainer has them: the folder named by
#: METABITS_CONFIDENCE_DATABASE (the tests that compare with them skip without it).
RAW_DATABASE = Path(os.environ.get("METABITS_CONFIDENCE_DATABASE", "/nonexistent"))
#: The four columns every data set of the database has.
DATABASE_HEADER = "Subj_idx,Stimulus,Response,Confidence"


def write_database_file(tmp_path, text, name="data_Demo.csv", gz=False, readme=None):
    """A small data set file (``text``, optionally gzipped) in ``tmp_path``, with its readme."""
    import gzip

    from metabits.io import dataset_name

    path = tmp_path / (name + (".gz" if gz else ""))
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data) if gz else data)
    if readme is not None:
        (tmp_path / f"readme_{dataset_name(path)}.txt").write_bytes(
            readme if isinstance(readme, bytes) else readme.encode("utf-8"))
    return path


# --- the library tests' data (tests/lib/data; sources and licences in its README.md) -------------

#: The folder of the library tests' own data files.
LIB_DATA = Path(__file__).parent / "lib" / "data"
#: A file of trials in the Confidence Database's format: Shekhar & Rahnev (2018), 19 people.
SHEKHAR_2018 = LIB_DATA / "data_Shekhar_2018.csv.gz"
#: The MaskOri data's five stimulus-onset asynchronies in ms, hardest first.
MASKORI_SOAS = (8.3, 16.7, 33.3, 66.7, 133.3)


def maskori_trials():
    """The MaskOri trials of 16 people (Hellmann, Zehetleitner & Rausch, 2023): a fresh frame."""
    import pandas as pd

    return pd.read_csv(LIB_DATA / "maskori.csv.gz")


def maskori_counts(by=("participant", "soa_ms")):
    """Their count tables (S1 horizontal, S2 vertical; K = 5), by participant and SOA."""
    from metabits.io import count_tables

    return count_tables(maskori_trials(), by=by, stimuli=(0, 90), n_ratings=5)


@pytest.fixture(scope="session")
def trials():
    """The MaskOri trials of 16 people (:func:`maskori_trials`)."""
    return maskori_trials()


@pytest.fixture(scope="session")
def tables():
    """Their count tables per participant and SOA (:func:`maskori_counts`)."""
    return maskori_counts()


# --- the built site in a browser -----------------------------------------------------------------

@pytest.fixture(scope="session")
def site_url(built_site):
    root = Path(built_site)
    assert (root / "index.html").is_file(), f"no built site at {root}"
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_visits(site_url, built_site):
    """Every page of the built site loaded once and measured at 1280 and 400 px, its explorers'
    controls moved, and the phone menu and the explorers' point labels measured
    (``_browser.visit_site``, several pages at a time): what test_browser and
    test_explore_browser check."""
    try:
        return visit_site(site_url, Path(built_site))
    except BrowserUnavailable as error:
        _unavailable(str(error))
