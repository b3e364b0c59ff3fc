"""HMeta-d fits shared by tests/test_bayes_metad.py and tests/test_bayes_checks.py: each is sampled
once per test process (cached), so the two modules' assertions on one fit cost one NUTS run."""

from functools import lru_cache

import metabits as mb

TABLE1 = ([84, 56, 48, 12], [4, 56, 64, 76])  # Meyen et al. (2025), Table 1: nR_S1, nR_S2
#: small single-subject fits: diagnostics reported and acceptable, not publication-grade
FAST = dict(chains=2, draws=300, tune=300)
#: the group model mixes slower: 2 x 300 gave R-hat 1.14 on GROUP_TABLES
GROUP = dict(chains=2, draws=500, tune=500)


@lru_cache(maxsize=None)
def table1_fast():
    """Table 1, toolbox defaults (d′ from the counts padded by 1/4), 2 chains x 300 draws."""
    return mb.fit_meta_d_bayes(*TABLE1, **FAST, seed=4)


@lru_cache(maxsize=None)
def group_tables():
    """Six simulated subjects, 200 trials per stimulus, d′ = 1.5, meta-d′ = 1.2 (M-ratio 0.8)."""
    return mb.simulate_ratings(1.5, 1.2, 200, n_sets=6, K=2, rng=7)


@lru_cache(maxsize=None)
def group_fit():
    return mb.fit_meta_d_bayes_group(group_tables(), seed=5, **GROUP)
