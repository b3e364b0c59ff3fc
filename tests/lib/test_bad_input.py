"""Bad input across the public API: a clear ValueError naming the problem, never a silent NaN,
a wrong number, a warning or another exception type (found in a review of the library)."""

import warnings

import numpy as np
import pytest

import metabits as mb

TABLE1 = [[84, 56, 48, 12], [4, 56, 64, 76]]

CASES = [
    (lambda: mb.info.accuracy([]), "confidence c must not be empty"),
    (lambda: mb.info.transmitted_information([], []), "confidence c must not be empty"),
    (lambda: mb.info.transmitted_information([0.6], [1.0], prior=0.9), "below the prior"),
    (lambda: mb.info.transmitted_information([0.6, 0.9], [0.5, 0.5], prior=[0.6, 0.7]), "single number"),
    (lambda: mb.info.entropy([0.5, 0.5], axis=1), "out of range"),
    (lambda: mb.info.binary_entropy("0.3"), "numeric"),
    (lambda: mb.info.binary_entropy(True), "numeric"),
    (lambda: mb.info.binary_entropy(10 ** 400), "numeric"),
    (lambda: mb.type2_measures([[1e308, 1e308], [1, 1]]), "too large"),
    (lambda: mb.type2_measures(np.array(TABLE1) * 1e17, bias_reduction=2), "2\\*\\*62"),
    (lambda: mb.type2_measures(TABLE1, bias_reduction=5, rng="abc"), "rng must be"),
    (lambda: mb.type2_measures([["a", "b"], ["c", "d"]]), "numeric"),
    (lambda: mb.info.max_info_classifier([0.7, 0.8], [0.5, 0.5]), "single"),
    (lambda: mb.info.discrete_confidence("binary", [0.6, 0.7]), "single number"),
    (lambda: mb.info.normal_confidence_pdf(0.7, [1, 2]), "single number"),
    (lambda: mb.info.confidence_from_observation("normal", 0.0, 1.0), r"\[0.5, 1\).*infinite d'"),
    (lambda: mb.info.observation_pdf("normal", 0.0, 1, 1.0), r"\[0.5, 1\).*infinite d'"),
    (lambda: mb.info.observation_pdf("normal", 0.0, True, 0.7), "label must be"),
    (lambda: mb.info.roc_curve_type1("normal", 0.7, n=2.5), "n must be an integer"),
    (lambda: mb.info.roc_curve_type2("normal", 0.7, n="a"), "n must be an integer"),
    (lambda: mb.group.pcwmv([mb.group.confidence_member(0.7)], step=1e-20), "too small"),
    (lambda: mb.group.pcwmv([mb.group.confidence_member(0.7)], step="0.01"), "numeric"),
    (lambda: mb.group.pcwmv([mb.group.confidence_member(0.7)], step=[0.01, 0.02]), "single number"),
    (lambda: mb.group.lattice_member(lambda l: 1 - np.exp(-l), tail=np.nan), "finite"),
    (lambda: mb.group.lattice_member(lambda l: 1 - np.exp(-l), tail=2.0), "strictly between"),
    (lambda: mb.group.majority_vote_accuracy(0.7, 10 ** 17), "<= 9007199254740992"),
    (lambda: mb.group.noise_group("uniform", 0.7, 2 ** 63), "<= 9007199254740992"),
    (lambda: mb.group.majority_vote_accuracy(0.7, 3.0), "integers"),  # one integer rule everywhere
    (lambda: mb.group.majority_vote_accuracy(0.3, 3), r"acc must lie in \[0.5, 1\]"),
    (lambda: mb.group.cwmv_accuracy([0.3] * 3), r"acc must lie in \[0.5, 1\]"),
    (lambda: mb.group.simulate_pcwmv([mb.group.confidence_member(0.7)], 10, rng="a"), "rng must be"),
    # found by the one-argument fuzz (test_api_bad_input.py): without its check, each gives a
    # silent NaN, a plausible value, a foreign exception or a hang
    (lambda: mb.group.lattice_member(lambda lam: np.full(np.shape(lam), np.nan)), "abs_llr_cdf"),
    (lambda: mb.group.lattice_member(lambda lam: 2 * (1 - np.exp(-lam))), "abs_llr_cdf"),
    (lambda: mb.group.lattice_member(lambda lam: np.where((lam > 0.5) & (lam < 1), 0.9,
                                                    1 - np.exp(-np.asarray(lam)))),
     "non-decreasing"),
    (lambda: mb.group.lattice_member(3), "abs_llr_cdf must be a function"),
    (lambda: mb.sdt.rating_probabilities(1.0, 80.0), "meta-d' = 80 is too large"),
    (lambda: mb.group.multilabel_group_accuracy([[0.7, 0.3], [0.3, 0.7]], 10 ** 10),
     "too many to enumerate"),
    (lambda: mb.group.simulate_students("uniform", 0.7, 3, coordinated="False"), "coordinated must be"),
    (lambda: mb.type2_measures(TABLE1, rng="abc"), "rng must be"),  # unused, still checked
    (lambda: mb.oskr.oskr([1, 0, 1, 0], [1, 1, 0, 0], neighbors=0), "neighbors"),  # unused too
    (lambda: mb.sdt.bootstrap_meta_d(TABLE1, n_boot=10 ** 10), "n_boot must be an integer"),
    (lambda: mb.sdt.compare_criteria([0.1, 0.2], [0.03, 0.03], level=[0.9, 0.95]), "level must be a "
                                                                                "single number"),
    (lambda: mb.group.pcwmv(None), "members must be a sequence"),
]


@pytest.mark.parametrize("call, match", CASES)
def test_bad_input_raises_value_error(call, match):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning on the way is a defect too
        with pytest.raises(ValueError, match=match):
            call()


def test_edge_inputs_give_clean_numbers():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mb.info.normal_info(1e200) == 1.0
        assert mb.info.noise_info("normal", 1.0) == 1.0
        assert mb.group.pcwmv([mb.group.confidence_member([1.0, 0.5])] * 2, rule="printed")["acc"] == \
            pytest.approx(mb.group.pcwmv([mb.group.confidence_member([1.0, 0.5])] * 2)["acc"])
        # unequal priors, acc equal to the larger prior: RMI is defined (and 0)
        assert mb.type2_measures([[9, 0, 0, 1], [81, 0, 0, 9]], undefined="nan")["RMI"] == \
            pytest.approx(0.0, abs=1e-12)


def test_rating_probabilities_stay_exact_for_a_large_meta_d():
    """Computed as 1 - 1, a side's area is 0 at meta-d' = 20 (NaN) and wrong at meta-d' = 15;
    the survival function above meta-c keeps both rows mirror images (c = 0) that sum to 1."""
    for meta_d in (15.0, 20.0, 60.0):
        p = mb.sdt.rating_probabilities(1.0, meta_d, K=3)
        assert np.all(np.isfinite(p)) and np.all(p >= 0)
        np.testing.assert_allclose(p.sum(axis=-1), 1.0, atol=1e-12)
        np.testing.assert_allclose(p[1], p[0][::-1], atol=1e-12)
