"""metabits.io._stacks: count tables of different K in one padded stack, and the removal of a
confidence criterion (Xue, Shekhar & Rahnev, 2021) from every table of a stack.

Independent checks: each table sliced back out of the stack, trial counts and Type 1 responses
kept, and the merged table of one K written out by hand.
"""

import numpy as np
import pytest

from metabits.io import merge_levels, stack_tables


@pytest.fixture
def tables():
    rng = np.random.default_rng(7)
    out = []
    for k in (2, 4, 3, 6):
        p = rng.dirichlet(np.arange(1, 2 * k + 1)[::-1] + 1.0)
        out.append(np.stack([rng.multinomial(150, p), rng.multinomial(150, p[::-1])]))
    return out


def test_a_stack_holds_every_table_in_its_first_columns(tables):
    stack, K = stack_tables(tables)
    assert stack.shape == (4, 2, 12) and stack.dtype.kind == "i"
    assert K.tolist() == [2, 4, 3, 6]
    for p, t in enumerate(tables):
        assert np.array_equal(stack[p, :, : 2 * K[p]], t)
        assert not stack[p, :, 2 * K[p]:].any()
    # leading axes (conditions) are kept; float counts stay float
    two, K2 = stack_tables([np.stack([tables[0]] * 2), np.stack([tables[2] / 2] * 2)])
    assert two.shape == (2, 2, 2, 6) and two.dtype.kind == "f" and K2.tolist() == [2, 3]


def test_merging_keeps_trials_and_responses(tables):
    stack, K = stack_tables(tables[1:])                    # K = 4, 3, 6
    for which in ("top", "bottom"):
        merged, K1 = merge_levels(stack, K, which)
        assert K1.tolist() == [3, 2, 5] and merged.dtype == stack.dtype
        assert np.array_equal(merged.sum(-1), stack.sum(-1))    # trials per stimulus
        for p, k in enumerate(K):                           # S1 and S2 responses per row
            assert np.array_equal(merged[p, :, : k - 1].sum(-1), stack[p, :, :k].sum(-1))
            assert not merged[p, :, 2 * (k - 1):].any()


def test_merging_top_and_bottom_by_hand():
    t = np.array([[[5, 4, 3, 2, 1, 0], [0, 1, 2, 3, 4, 5]]])
    top, K = merge_levels(t, [3], "top")
    assert top.tolist() == [[[9, 3, 2, 1, 0, 0], [1, 2, 3, 9, 0, 0]]] and K.tolist() == [2]
    bottom, _ = merge_levels(t, [3], "bottom")
    assert bottom.tolist() == [[[5, 7, 3, 0, 0, 0], [0, 3, 7, 5, 0, 0]]]


@pytest.mark.parametrize("call, match", [
    (lambda: stack_tables([]), "must not be empty"),
    (lambda: stack_tables([[[1, 2, 3], [4, 5, 6]]]), r"tables\[0\]"),
    (lambda: stack_tables([[[1, 2], [3, 4]], [[[1, 2], [3, 4]]]]), "leading shape"),
    (lambda: stack_tables([[[1, -2], [3, 4]]]), "non-negative"),
    (lambda: merge_levels(np.ones((2, 2, 6)), [2, 3], "top"), "K >= 3"),
    (lambda: merge_levels(np.ones((2, 2, 6)), [3, 4], "top"), "n_levels"),
    (lambda: merge_levels(np.ones((2, 2, 6)), [3, 3], "middle"), "which"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
