"""metabits_book._arguments: the argument checks of the book's own code (explorer grids and
formats, files, results)."""

import numpy as np
import pytest

from metabits_book._arguments import (as_axis, as_file_to_write, as_folder, as_format, as_grid,
                                      as_instance, as_nonnegative, as_number_grid, as_pair,
                                      as_text)


def test_grids():
    assert as_grid([1, 2.5], "g") == (1, 2.5) and as_grid(("a", "b"), "g") == ("a", "b")
    assert as_number_grid([0.6, 0.8], "acc", 0.5, 1.0) == (0.6, 0.8)
    for bad, match in (([], "must not be empty"), ([2, 1], "increase strictly"),
                       (["a", "a"], "repeat a name"), ([1, "a"], "all numbers or all names"),
                       ([1, np.nan], "finite"), (3, "sequence")):
        with pytest.raises(ValueError, match=match):
            as_grid(bad, "g")
    with pytest.raises(ValueError, match="acc"):
        as_number_grid([0.4, 0.8], "acc", 0.5, 1.0)
    with pytest.raises(ValueError, match="integers"):
        as_number_grid([1, 2.5], "K", integer=True)


def test_formats_and_text():
    assert as_format("{:.0%}", "fmt", (0.5, 0.75)) == "{:.0%}"
    for bad in ("{:d}", "plain", 3):
        with pytest.raises(ValueError, match="fmt"):
            as_format(bad, "fmt", (0.5,))
    assert as_text("acc", "name", identifier=True) == "acc"
    with pytest.raises(ValueError, match="name must be a Python identifier"):
        as_text("a b", "name", identifier=True)


def test_files(tmp_path):
    assert as_file_to_write(tmp_path / "a.csv", "path") == tmp_path / "a.csv"
    with pytest.raises(ValueError, match="path must name a file in an existing folder"):
        as_file_to_write(tmp_path, "path")                      # a folder
    with pytest.raises(ValueError, match="target must name a file in an existing folder"):
        as_file_to_write(tmp_path / "no" / "a.csv", "target")   # no such folder
    with pytest.raises(ValueError, match="path must be a file path"):
        as_file_to_write(3)
    assert as_folder(tmp_path) == tmp_path
    with pytest.raises(ValueError, match="folder must be an existing folder"):
        as_folder(tmp_path / "none")


def test_instances_axes_pairs_and_tolerances():
    assert as_instance(3, int, "n") == 3
    with pytest.raises(ValueError, match=r"db must be a dict \(a mapping\); got int"):
        as_instance(3, dict, "db", "a mapping")
    assert as_axis(-1, 3) == 2
    for bad in (3, 1.0, True):
        with pytest.raises(ValueError, match="axis"):
            as_axis(bad, 3)
    assert as_pair([1, 2], "r").tolist() == [1, 2]
    with pytest.raises(ValueError, match="r must be a pair"):
        as_pair([1, 2, 3], "r")
    assert as_nonnegative(0, "tol") == 0.0
    with pytest.raises(ValueError, match="tol must be >= 0"):
        as_nonnegative(-1e-3, "tol")
