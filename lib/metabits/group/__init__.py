"""Group accuracy of optimally combined classifiers (Meyen et al., 2025, section "Relative
Metainformation Improves Group Accuracy"; Figure 8, Theorem 8).

Members
    :func:`noise_member`, :func:`confidence_member`, :func:`lattice_member`,
    :func:`member_confidence`, :func:`min_group_member`, :func:`max_group_member` (the members
    that attain Theorem 8's bounds).
Group accuracy
    :func:`pcwmv` (exact accuracy and information of an optimally combined group),
    :func:`majority_vote_accuracy`, :func:`cwmv_accuracy`, :func:`weighted_vote_accuracy`,
    :func:`noise_group` (closed forms for identical noise members), :func:`group_accuracy_bounds`
    (Theorem 8).
Simulation
    :func:`simulate_pcwmv`, :func:`simulate_students`.
More than two labels (exploration)
    :func:`multilabel_group_accuracy`, :func:`multilabel_member`, :func:`random_multilabel_members`.

**Members** are response tables in the library's table convention (:mod:`metabits.validation`):
shape ``(2, R)``, row 0 :math:`P(r \\mid Y = -1)`, row 1 :math:`P(r \\mid Y = +1)`, responses from
"predict −1, most confident" to "predict +1, most confident". Such a table is also a valid count
table: ``type2_measures(member)`` gives the member's measures under equal priors. Members are
conditionally independent given Y (Assumption 13) and the group combines them optimally
(Assumption 14): it predicts the sign of the summed log-likelihood ratios plus the prior log-odds.

**Accuracies** of members are in [0.5, 1] throughout (Bayes predictions with equal priors,
Assumption 4); label-specific rates (:func:`group_accuracy_bounds`) may be lower as long as the
member's accuracy reaches the larger prior.

**Ties.** The paper's rule :math:`\\mathrm{sign}(\\sum_k \\log\\frac{C_k}{1-C_k}\\hat Y_k)` is undefined
when the sum is 0; the paper omits even groups ("tie-breaker problem"). We break exact ties with a
fair coin. At an exact tie the group posterior is 1/2, so *every* tie rule is correct with
probability 1/2 there and the optimal group accuracy is
:math:`\\sum_s \\max\\{p_+P(s\\mid+),\\,p_-P(s\\mid-)\\}` over the values s of the summed
log-likelihood ratio.

**Unequal priors.** Theorem 8 drops Assumptions 11–12. Then the optimal rule adds the prior
log-odds :math:`\\log(p_+/p_-)` once to the summed log-*likelihood* ratios; summing the members'
posterior log-odds :math:`\\log\\frac{C_k}{1-C_k}` as printed counts the prior K times. The printed
rule appears in the paper before Assumption 11 is dropped, and Theorem 8 is stated under
Assumption 14 (optimal combination), so the theorem itself is unaffected.
"""


from metabits.group._members import (confidence_member, lattice_member, max_group_member,
                                     member_confidence, min_group_member, noise_member)
from metabits.group._multilabel import (multilabel_group_accuracy, multilabel_member,
                                        random_multilabel_members)
from metabits.group._noise_groups import noise_group
from metabits.group._pcwmv import GroupResult, pcwmv
from metabits.group._simulate import (SimulatedAccuracy, StudentsResult, simulate_pcwmv,
                                      simulate_students)
from metabits.group._theorem8 import group_accuracy_bounds
from metabits.group._voting import cwmv_accuracy, majority_vote_accuracy
from metabits.group._weighted import weighted_vote_accuracy

__all__ = ["GroupResult", "SimulatedAccuracy", "StudentsResult", "confidence_member",
           "cwmv_accuracy", "group_accuracy_bounds", "lattice_member", "majority_vote_accuracy",
           "max_group_member", "member_confidence", "min_group_member",
           "multilabel_group_accuracy", "multilabel_member", "noise_group", "noise_member",
           "pcwmv", "random_multilabel_members", "simulate_pcwmv", "simulate_students",
           "weighted_vote_accuracy"]
