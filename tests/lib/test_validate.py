"""metabits.validation: the checks every public function shares (pad, undefined, same length,
whole counts, column names to group by), public and shared from its private modules."""

import numpy as np
import pytest

import metabits.validation as V
from metabits.validation import _scalars, _tables
from metabits.validation import as_pad, as_same_length, as_whole_counts
from metabits.validation._scalars import as_column_names, as_undefined, as_whole_numbers


def test_pad_default_and_rules():
    assert as_pad(None, 2) == 0.25 and as_pad(None, 4) == 0.125
    assert as_pad(0, 2) == 0.0 and as_pad(0.5, 3) == 0.5
    with pytest.raises(ValueError, match="pad must be non-negative"):
        as_pad(-0.1, 2)
    with pytest.raises(ValueError, match=r"pad must be > 0"):
        as_pad(0.0, 2, positive=True)
    for bad in ("abc", np.nan, np.inf, [1.0, 2.0]):
        with pytest.raises(ValueError, match="pad"):
            as_pad(bad, 2)


def test_undefined():
    assert as_undefined("raise") == "raise" and as_undefined("nan") == "nan"
    for bad in ("ignore", None, 1):
        with pytest.raises(ValueError, match="undefined must be one of 'raise' or 'nan'"):
            as_undefined(bad)


def test_same_length():
    assert as_same_length([1, 2, 3], np.zeros(3), "a and b") == 3
    assert as_same_length(np.zeros((2, 5)), np.ones((2, 5)), "a and b", one_d=False) == 5
    with pytest.raises(ValueError, match="a and b must be 1-D arrays of the same shape"):
        as_same_length([1, 2], [1, 2, 3], "a and b")
    with pytest.raises(ValueError, match="same shape"):
        as_same_length(np.zeros((2, 5)), np.ones((2, 5)), "a and b")     # 1-D by default
    with pytest.raises(ValueError, match="same shape"):
        as_same_length(np.zeros((2, 5)), np.ones((3, 5)), "a and b", one_d=False)


def test_whole_counts():
    out = as_whole_counts(np.array([[1.0, 2.0], [3.0, 4.0]]), "x")
    assert out.dtype == np.int64 and out.tolist() == [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match="x resamples trials: counts must be whole numbers"):
        as_whole_counts(np.array([1.5, 2.0]), "x")
    with pytest.raises(ValueError, match=r"2\*\*62"):
        as_whole_counts(np.array([2.0 ** 62, 2.0 ** 62]), "x")
    # the resampler's tables grow with a row's trials; the resamples with m
    with pytest.raises(ValueError, match=r"x resamples trials: a row of t of 20,000,000 trials "
                                         r"\(\[5e\+06, 5e\+06, 5e\+06, 5e\+06\]\) needs"):
        as_whole_counts(np.full((2, 4), 5e6), "x", "t")
    with pytest.raises(ValueError, match=r"x: n_boot = 20,000,000 resamples of 8 counts"):
        as_whole_counts(np.ones((2, 4)), "x", m=2 * 10 ** 7, m_name="n_boot")
    assert as_whole_counts(np.ones((2, 4)), "x", m=10 ** 7).shape == (2, 4)


def test_whole_numbers():
    assert as_whole_numbers([1000, 1000.0, 1e300], "n").tolist() == [1000.0, 1000.0, 1e300]
    for bad, shown in ((2.5, "2.5"), (0.001, "0.001"), (0, "0"), ([3, -1], "-1")):
        with pytest.raises(ValueError, match=f"n must be whole numbers >= 1; got {shown}"):
            as_whole_numbers(bad, "n")
    with pytest.raises(ValueError, match="n must be finite"):
        as_whole_numbers(np.inf, "n")


@pytest.mark.parametrize("check", [
    lambda x: V.as_float_array(x, "v"), lambda x: V.as_scalar(x, "v"),
    lambda x: V.as_probability(x, "v"), lambda x: V.as_accuracy(x, "v"),
    lambda x: V.as_confidence(x, "v"), lambda x: V.as_positive(x, "v"),
    lambda x: V.as_counts(x, "v"), lambda x: V.as_labels(x, "v"),
    lambda x: as_whole_numbers(x, "v"), lambda x: _scalars.as_numbers(x, "v"),
    lambda x: V.as_values_with_nan(x, "v"), lambda x: V.as_int_array(x, "v"),
    lambda x: V.as_count_table(x, "v"), lambda x: _tables.as_contingency_table(x, "v"),
    lambda x: V.as_same_length(x, x, "v and w", one_d=False),
])
@pytest.mark.parametrize("empty", [[], np.zeros(0), np.zeros((0, 2, 4)), np.zeros((3, 0))])
def test_empty_arrays_are_refused(check, empty):
    """The library's rule (metabits.validation's docstring): an empty array of values is
    refused by name, whatever its shape."""
    with pytest.raises(ValueError,
                       match=r"^v (and w )?must not be empty; got (an array|arrays) of shape"):
        check(empty)


def test_float_arrays_name_the_value_they_refuse():
    with pytest.raises(ValueError, match=r"^v must be a number or an array of numbers; got None$"):
        V.as_float_array(None, "v")
    with pytest.raises(ValueError, match=r"^v must be a numeric array .* \('abc'\)$"):
        V.as_float_array("abc", "v")
    with pytest.raises(ValueError, match=r"^v must be finite \(found NaN or infinity\); got -inf$"):
        V.as_float_array([1.0, -np.inf, np.nan], "v")


def test_empty_is_allowed_only_when_asked():
    assert V.as_float_array([], "edges", empty=True).shape == (0,)
    with pytest.raises(ValueError, match=r"^v must not be empty; got an array of shape \(0,\)$"):
        V.as_float_array([], "v")


def test_column_names_in_both_loaders():
    import functools

    from metabits.io import confidence_database_tables
    from metabits.io import count_tables

    assert as_column_names("soa_ms") == ("soa_ms",)
    assert as_column_names(["a", "b"]) == ("a", "b") and as_column_names(()) == ()
    for bad in (1, None, ["a", 2], {"a"}):
        with pytest.raises(ValueError, match="by must be a column name or a sequence"):
            as_column_names(bad)
    trials = {"stimulus": [0, 90], "response": [0, 90], "rating": [0, 1], "confidence": [1, 2]}
    # the one check, in both
    for loader in (functools.partial(count_tables, n_ratings=2), confidence_database_tables):
        with pytest.raises(ValueError, match="by must be a column name or a sequence"):
            loader(trials, by=5)


def test_the_public_checks_are_the_documented_ones():
    """``__all__`` is the small public set the package's docstring lists; every name in it is
    documented there, and the book-only checks (explorer grids, files to write) are not in the
    library at all."""
    assert len(V.__all__) == len(set(V.__all__)) <= 27
    for name in V.__all__:
        assert getattr(V, name) is not None
        assert f"`{name}`" in V.__doc__, name
    for gone in ("as_grid", "as_number_grid", "as_format", "as_file_to_write", "as_folder",
                 "as_instance"):
        assert not hasattr(V, gone) and not hasattr(_scalars, gone), gone
