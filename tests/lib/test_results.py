"""metabits.results: every result the library returns converts to a DataFrame.

Every public function's valid call of the bad-input fuzz (tests/lib/test_api_bad_input.py) is
made once; each result that is a :class:`~metabits.results.Result` or one of the named tuples must
give a non-empty DataFrame with ``to_frame()``, whose columns hold the result's numbers, and
``pd.DataFrame(result)`` must raise rather than guess. The book's results are checked the same
way in tests/test_book_bad_input.py.
"""

import functools

import numpy as np
import pandas as pd
import pytest
import test_api_bad_input as fuzz

from metabits.results import Bounds, Curve, Distribution, Result

TUPLES = (Bounds, Curve, Distribution)


def results_of(f) -> list:
    """(name, result) of every valid call of a fuzz (:class:`test_api_bad_input.Fuzz`) whose result
    is a :class:`~metabits.results.Result` or one of the named tuples."""
    out = []
    for name in f.fuzzed:
        func, kwargs, _ = f.valid_call(name)
        kind, value = fuzz.run_limited(func, kwargs, limit=10.0)[0]
        if kind == "value" and isinstance(value, (Result, *TUPLES)):
            out.append((name, value))
    return out


def check_to_frame(result):
    """``to_frame()`` gives a non-empty DataFrame whose columns hold the result's numbers."""
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) >= 1 and frame.shape[1] >= 1
    keys = result._fields if isinstance(result, TUPLES) else result._keys()
    numeric = [k for k in keys if isinstance(getattr(result, k), (int, float, np.floating))
               and not isinstance(getattr(result, k), bool)]
    for key in numeric:  # a scalar field is a column of its value (AllMeasures: names instead)
        if key in frame.columns:
            assert np.allclose(frame[key].to_numpy(dtype=float), getattr(result, key),
                               equal_nan=True)


def check_pandas_refuses(result):
    with pytest.raises(TypeError, match="to_frame"):
        pd.DataFrame(result)


def check_all(results) -> None:
    """:func:`check_to_frame` on every result and :func:`check_pandas_refuses` on every
    :class:`~metabits.results.Result` of ``results`` ((name, result) pairs): one failure names
    every result that fails, and why."""
    failures = []
    for name, result in results:
        checks = [check_to_frame] + ([check_pandas_refuses] if isinstance(result, Result) else [])
        for check in checks:
            try:
                check(result)
            except Exception as error:  # noqa: BLE001 - every failure is reported below
                failures.append(f"{name}: {check.__name__}: {type(error).__name__}: {error}")
    assert not failures, "\n".join(failures)


@functools.cache
def results() -> list:
    """The library's results (:func:`results_of` its fuzz), made once, on first use: the calls
    run in the test that needs them, not while every worker collects the tests."""
    return results_of(fuzz.FUZZ)


def test_the_fuzz_gives_results_of_many_types():
    assert len({type(r).__name__ for _, r in results()}) >= 33


def test_every_result_gives_its_numbers_in_a_frame_and_pandas_refuses_it():
    check_all(results())


def test_a_stack_gives_one_row_per_table_and_a_table_one_row():
    import metabits as mb

    one = mb.fit_meta_d([[84, 56, 48, 12], [4, 56, 64, 76]], pad=0.25).to_frame()
    three = mb.fit_meta_d([[[84, 56, 48, 12], [4, 56, 64, 76]]] * 3, pad=0.25).to_frame()
    assert len(one) == 1 and len(three) == 3
    assert list(one.columns) == list(three.columns)
    assert one.loc[0, "t2c_S1_0"] == pytest.approx(three.loc[2, "t2c_S1_0"])
    grid = mb.all_measures(np.full((2, 3, 2, 4), 10)).to_frame()
    assert grid.index.nlevels == 2 and len(grid) == 6
