"""Former home of the Part III explorers: now :mod:`metabits.explore.part3` and
:mod:`metabits.explore.part3_agents`, every one also ``metabits.explore.<name>``.

Kept so that ``from metabits import explore_oskr`` and ``metabits.explore_oskr.<name>`` go on
working; new code imports from :mod:`metabits.explore`.
"""

from .explore.part3 import (channel_noise_explorer, entropy_explorer, feedback_lab_explorer,
                            oskr_explorer, oskr_surface_explorer)
from .explore.part3_agents import (alpha_beta_explorer, deployment_explorer, router_explorer,
                                   verifier_explorer)

__all__ = ["alpha_beta_explorer", "channel_noise_explorer", "deployment_explorer",
           "entropy_explorer", "feedback_lab_explorer", "oskr_explorer", "oskr_surface_explorer",
           "router_explorer", "verifier_explorer"]
