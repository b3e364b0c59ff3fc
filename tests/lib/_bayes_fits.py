"""HMeta-d fits shared by tests/lib/test_bayes_metad.py and tests/lib/test_bayes_checks.py: each
is sampled once per test process (cached), so the two modules' assertions on one fit cost one NUTS
run."""

from functools import lru_cache

import numpy as np

import metabits as mb

TABLE1 = ([84, 56, 48, 12], [4, 56, 64, 76])  # Meyen et al. (2025), Table 1: nR_S1, nR_S2
#: small single-subject fits: diagnostics reported and acceptable, not publication-grade
FAST = dict(chains=2, draws=300, tune=300)
#: the group model: 2 chains x (300 tuning + 300 draws). Six subjects alike in everything (d′ and
#: meta-d′ 1.5, c = 0) would put the criteria's group SD near 0, a funnel that such short chains
#: do not cross (R-hat far above 1.01) and that needs several times the tuning. Subjects who
#: differ in d′ and c, as people do (group_tables), leave no funnel: with seed 6 these settings
#: give an R-hat near 1.02 and no divergences
GROUP = dict(chains=2, draws=300, tune=300)


@lru_cache(maxsize=None)
def table1_fast():
    """Table 1, toolbox defaults (d′ from the counts padded by 1/4), 2 chains x 300 draws."""
    return mb.fit_meta_d_bayes(*TABLE1, **FAST, seed=4)


@lru_cache(maxsize=None)
def group_tables():
    """Six simulated subjects, 200 trials per stimulus, M-ratio 0.8 each: d′ from 1.0 to 2.0 and
    c from 0.2 to -0.2 in equal steps, meta-d′ = 0.8 d′."""
    d = np.linspace(1.0, 2.0, 6)
    return mb.sdt.simulate_ratings(d, 0.8 * d, 200, c=np.linspace(0.2, -0.2, 6), K=2, rng=7)[:, 0]


@lru_cache(maxsize=None)
def group_fit():
    return mb.fit_meta_d_bayes_group(group_tables(), seed=6, **GROUP)
