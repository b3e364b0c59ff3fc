"""The fast path of the meta-d′ fit gives exactly the numbers of the plain one: the likelihood
evaluated in cache-sized blocks equals it evaluated table by table, and step halving tried in
blocks of halvings picks the same step as halving one at a time.

The references here are the simple algorithms written out again (one table at a time, one
halving at a time); equality is exact (bit for bit), as the speed-up must not move a single
bootstrap replicate. The last test fits again with NumPy's baseline kernels: fits that stall on
a flat ridge of the likelihood must end alike on any CPU.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import maskori_counts
from metabits.sdt import _fisher
from metabits.sdt import _metad as metad


def _bootstrap_like(n_boot, seed, pad=0.1):
    """Bootstrap replicates of the MaskOri tables, padded: many easy tables, some near chance
    (d′ ≈ 0, where scoring crawls and halves its steps many times)."""
    counts = maskori_counts().counts.reshape(-1, 2, 10).astype(float)
    n = counts.sum(-1).astype(np.int64)
    rng = np.random.default_rng(seed)
    reps = rng.multinomial(n[:, None, :], (counts / counts.sum(-1, keepdims=True))[:, None],
                           size=(len(counts), n_boot, 2)).astype(float)
    padded = reps.reshape(-1, 2, 10) + pad
    d, c, crit = metad._type1(padded)
    keep = np.abs(d) > 1e-8
    return metad._start(d[keep], crit[keep]), padded[keep], c[keep] / d[keep]


def _scoring_one_halving_at_a_time(theta, counts, kappa, max_iter=100, xtol=1e-9):
    """Fisher scoring written plainly: the whole stack at once, one halving per call."""
    theta = theta.copy()
    ll, g, F = metad._loglik(theta, counts, kappa)
    active = np.isfinite(ll)
    converged = np.zeros(len(theta), bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(active)
        if not idx.size:
            break
        step = np.linalg.solve(F[idx], g[idx][..., None])[..., 0]
        done = np.all(np.abs(step) < xtol, axis=1)
        theta[idx[done]] += step[done]
        converged[idx[done]], active[idx[done]] = True, False
        idx, step = idx[~done], step[~done]
        flat = 0.5 * np.einsum("np,np->n", g[idx], step) <= _fisher.FLAT * (1 + np.abs(ll[idx]))
        cand = theta[idx] + step
        worse = ~(metad._loglik(cand, counts[idx], kappa[idx], derivatives=False) >= ll[idx])
        theta[idx[flat & ~worse]] = cand[flat & ~worse]  # the last step, unless it falls
        converged[idx[flat]], active[idx[flat]] = True, False
        idx, step, cand, worse = idx[~flat], step[~flat], cand[~flat], worse[~flat]
        t = np.ones(len(idx))
        for _ in range(39):
            redo = np.flatnonzero(worse)
            if not redo.size:
                break
            t[redo] *= 0.5
            cand[redo] = theta[idx[redo]] + t[redo, None] * step[redo]
            worse[redo] = ~(metad._loglik(cand[redo], counts[idx[redo]], kappa[idx[redo]],
                                          derivatives=False) >= ll[idx[redo]])
        active[idx[worse]] = False  # no rise after 39 halvings: left to the fallback
        idx, cand = idx[~worse], cand[~worse]
        theta[idx] = cand
        ll[idx], g[idx], F[idx] = metad._loglik(cand, counts[idx], kappa[idx])
    return theta, converged


def test_blocks_equal_table_by_table():
    theta, counts, kappa = _bootstrap_like(40, seed=3)  # 3,200 tables: four blocks
    assert len(theta) > 3 * metad._BLOCK
    rng = np.random.default_rng(4)
    theta = theta + rng.normal(0, 0.3, theta.shape)  # away from the start, as scoring goes
    ll, g, F = metad._loglik_blocks(theta, counts, kappa)
    assert ll.shape == (len(theta),) and g.shape == theta.shape
    assert F.shape == (len(theta), theta.shape[1], theta.shape[1])
    for i in rng.choice(len(theta), 40, replace=False):
        one = metad._loglik(theta[i:i + 1], counts[i:i + 1], kappa[i:i + 1])
        np.testing.assert_array_equal(ll[i], one[0][0])
        np.testing.assert_array_equal(g[i], one[1][0])
        np.testing.assert_array_equal(F[i], one[2][0])
    np.testing.assert_array_equal(metad._loglik_blocks(theta, counts, kappa, derivatives=False),
                                  ll)
    # an expected information: symmetric
    np.testing.assert_allclose(F, F.transpose(0, 2, 1), rtol=1e-12, atol=1e-9)


def test_blocks_of_halvings_pick_the_same_steps():
    theta0, counts, kappa = _bootstrap_like(30, seed=5)  # 2,400 tables
    theta, ok = metad._fisher_scoring(theta0, counts, kappa)
    ref, ref_ok = _scoring_one_halving_at_a_time(theta0, counts, kappa)
    assert 0 < (~ok).sum() < len(ok) // 10  # the hard tables are there, and rare
    np.testing.assert_array_equal(ok, ref_ok)
    np.testing.assert_array_equal(theta, ref)


@pytest.mark.slow
def test_stalled_fits_end_alike_on_any_cpu(tmp_path):
    """Bootstrap-like replicates, many of them on flat ridges of the likelihood, fitted here and
    in a process whose NumPy is held to its baseline (SSE4.2) kernels, as on a CPU without AVX2
    (``NPY_DISABLE_CPU_FEATURES``; its exp, log and sums round differently): the same tables
    converge, meta-d′ to within 1e-6 and every parameter to within 1e-5. A rule on the step's
    length (a step below 1e-6 where rounding stops the rise) would let some of these verdicts
    differ between the two."""
    code = textwrap.dedent("""
        import sys
        import numpy as np
        sys.path[:0] = [sys.argv[2], sys.argv[3]]  # tests/lib and tests (conftest)
        from test_metad_blocks import _bootstrap_like
        from metabits.sdt import _metad as metad
        theta, ok = metad._fisher_scoring(*_bootstrap_like(30, seed=5))
        np.savez(sys.argv[1], theta=theta, ok=ok)
        """)
    out = tmp_path / "baseline.npz"
    env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": "AVX512_ICL X86_V4 X86_V3"}
    here = os.path.dirname(__file__)
    subprocess.run([sys.executable, "-c", code, str(out), here, os.path.dirname(here)], env=env,
                   check=True)
    other = np.load(out)
    theta, ok = metad._fisher_scoring(*_bootstrap_like(30, seed=5))
    assert 0 < (~ok).sum() < len(ok) // 10
    np.testing.assert_array_equal(ok, other["ok"])
    # meta-d′ moved by 2e-7 at most; a ridge fit's criteria by 1.05e-6 (they are flat there)
    np.testing.assert_allclose(theta[ok, 0], other["theta"][ok, 0], rtol=0, atol=1e-6)
    np.testing.assert_allclose(theta[ok], other["theta"][ok], rtol=0, atol=1e-5)
