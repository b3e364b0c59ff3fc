"""The Part III explorers (metabits_book.explore.part3, part3_agents): every frame equals a
direct computation.

The direct computations go another way than the explorers' library calls where one exists: the
mutual information and entropies of a hand-built joint table (metabits.info, plug-in sums)
rather than the closed form of metabits.oskr, and entropy by -Σ p log2 p.
"""

import functools

import numpy as np
import pytest

import metabits as mb
from metabits_book import cognitive_chain
from metabits_book import explore, roberts2026
from metabits_book.explore import part3, part3_agents

from conftest import assert_paper

AGENTS = {"Alpha": (0.72, 0.81), "Beta": (0.72, 0.18), "fluent": (0.95, 0.3)}
TASKS = {"checkout": [0.3, 0.3, 0.2, 0, 0.2, 0.1, 0, 0.6],
         "compute only": [0, 0, 0, 0, 0, 0.5, 0, 0]}
AGENT_OSKR = np.array([0.5, 0.55, 0.6, 0.45, 0.5, 0.8, 0.6, 0.2])
ARGS = {"deployment_explorer": (AGENTS,), "router_explorer": (TASKS, AGENT_OSKR)}
PART3 = part3.__all__ + part3_agents.__all__
ALL = [pytest.param(functools.partial(getattr(explore, name), *ARGS.get(name, ())), id=name)
       for name in PART3]
DEFAULTS = [pytest.param(getattr(explore, name), id=name) for name in PART3]


def joint_symmetric(prevalence, error):
    """P(T, S) of a symmetric self-report, rows T = success/failure, columns
    S = success/failure."""
    return np.array([[prevalence * (1 - error), prevalence * error],
                     [(1 - prevalence) * error, (1 - prevalence) * (1 - error)]])


def info_of(joint):
    """(H(T), I(S; T), OSKR) of a joint table, by plug-in sums."""
    h_t = float(mb.info.entropy(joint.sum(axis=1)))
    mi = float(mb.info.mutual_information(joint))
    return h_t, mi, mi / h_t


@pytest.mark.parametrize("success, right", [(0.5, 0.8), (0.1, 0.95), (0.9, 0.5), (0.35, 1.0)])
def test_oskr_explorer_frames(success, right):
    e = explore.oskr_explorer()
    v = e.view(success=success, right=right)
    h_t, mi, ratio = info_of(joint_symmetric(success, 1 - right))
    assert v.trace("this setting").y[0] == pytest.approx(ratio, abs=1e-9)
    assert v.trace("bits").x == pytest.approx([h_t, h_t - mi, mi], abs=1e-9)
    # the curve at this success rate passes through the point
    curve = v.trace("OSKR at this success rate")
    assert np.interp(right, curve.x, curve.y) == pytest.approx(ratio, abs=0.01)


def test_oskr_explorer_reading_of_the_essay():
    """The essay's 0.60 at sliders (50%, 80%) is the linear score, not OSKR (audit chapter)."""
    v = explore.oskr_explorer().view(success=0.5, right=0.8)
    linear = v.trace("linear score: hit − false-alarm rate")
    assert_paper(float(np.interp(0.8, linear.x, linear.y)), 0.60, 2, "linear score at 80%")
    assert v.trace("this setting").y[0] == pytest.approx(0.278, abs=5e-4)


@pytest.mark.parametrize("prevalence, error, gain", [(0.5, 0.2, 0.3), (0.7, 0.45, 0.0),
                                                     (0.9, 0.05, 0.9), (0.5, 0.5, 1.0)])
def test_feedback_lab_frames(prevalence, error, gain):
    v = explore.feedback_lab_explorer().view(prevalence=prevalence, error=error, gain=gain)
    eff = error * (1 - gain)
    joint = joint_symmetric(prevalence, eff)
    h_t, mi, ratio = info_of(joint)
    assert v.trace("bits").x == pytest.approx([h_t, h_t - mi, mi], abs=1e-9)
    assert v.trace("P(T, S)").x == pytest.approx(joint.ravel(), abs=1e-12)
    assert v.trace("this gain").y[0] == pytest.approx(ratio, abs=1e-9)
    assert f"effective error ε(1 − g) = {eff:.3f}" in v.caption


def test_feedback_lab_all_frames_are_channels():
    e = explore.feedback_lab_explorer()
    views = explore.frames(e)
    assert len(views) == len(part3.PREVALENCE_GRID) * 11 * 11
    for v in views:
        assert v.trace("P(T, S)").x.sum() == pytest.approx(1.0)
        assert 0 <= v.trace("this gain").y[0] <= 1


def test_the_lab_and_the_surface_share_one_prevalence_grid():
    lab, surface = explore.feedback_lab_explorer(), explore.oskr_surface_explorer()
    assert lab.controls[0].values == surface.controls[0].values == part3.PREVALENCE_GRID


def test_surface_lines_depend_on_the_effective_error_only():
    v = explore.oskr_surface_explorer(gains=(0.0, 0.5)).view(prevalence=0.8)
    g0, g5 = v.trace("g = 0"), v.trace("g = 0.5")
    # ε = 0.2 at gain 0.5 is ε_eff = 0.1, which is ε = 0.1 at gain 0
    assert np.interp(0.2, g5.x, g5.y) == pytest.approx(np.interp(0.1, g0.x, g0.y), abs=1e-9)
    assert np.interp(0.3, g0.x, g0.y) == pytest.approx(info_of(joint_symmetric(0.8, 0.3))[2],
                                                       abs=1e-9)


@pytest.mark.parametrize("prevalence", [0.5, 0.8, 0.95])
def test_surface_essay_point(prevalence):
    v = explore.oskr_surface_explorer().view(prevalence=prevalence)
    expected = info_of(joint_symmetric(prevalence, 0.22 * 0.65))[2]
    assert v.trace("the essay's setting").y[0] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("active, skew", [(8, 0.0), (1, 2.0), (5, 0.75), (8, 3.0)])
def test_entropy_explorer_frames(active, skew):
    v = explore.entropy_explorer().view(active=active, skew=skew)
    p = v.trace("P(X)").y
    assert p.sum() == pytest.approx(1.0)
    assert np.all(p[active:] == 0)
    nz = p[p > 0]
    assert v.trace("bits").x[0] == pytest.approx(-(nz * np.log2(nz)).sum(), abs=1e-12)
    assert v.trace("bits").x[1] == pytest.approx(np.log2(active), abs=1e-12)


def test_entropy_primer_printed_value():
    v = explore.entropy_explorer().view()   # the defaults: eight equally likely outcomes
    assert_paper(float(v.trace("bits").x[0]), 3.00, 2, "H(X), eight equally likely outcomes")


@pytest.mark.parametrize("noise", [0.0, 0.1, 0.4, 0.5])
def test_channel_noise_frames(noise):
    v = explore.channel_noise_explorer().view(noise=noise)
    h2 = 0.0 if noise in (0.0, 1.0) else -(noise * np.log2(noise)
                                           + (1 - noise) * np.log2(1 - noise))
    assert v.trace("this noise").y[0] == pytest.approx(1 - h2, abs=1e-12)
    assert v.trace("P(X, Y)").y == pytest.approx([(1 - noise) / 2, noise / 2, noise / 2,
                                                  (1 - noise) / 2])


@pytest.mark.parametrize("wrong", [0.0, 0.09, 0.24, 0.5])
def test_alpha_beta_frames(wrong):
    v = explore.alpha_beta_explorer().view(wrong=wrong)
    joint = np.array([[0.72, 0.0], [0.28 * wrong, 0.28 * (1 - wrong)]])  # hit rate 1
    assert v.trace("this P(confident | wrong)", panel=1).y[0] == pytest.approx(
        info_of(joint)[2], abs=1e-9)
    curve = v.trace("OSKR at this P(confident | wrong)")
    assert curve.y[0] == pytest.approx(0.0, abs=1e-12)  # hit rate = false-alarm rate


def test_alpha_beta_systems_sit_at_the_printed_oskr():
    v = explore.alpha_beta_explorer().view()
    for name, (acc, target, wrong) in {"Alpha": roberts2026.ALPHA, "Beta": roberts2026.BETA}.items():
        t = v.trace(f"System {name}")
        hit = float(t.x[0])
        joint = np.array([[acc * hit, acc * (1 - hit)], [(1 - acc) * wrong, (1 - acc) * (1 - wrong)]])
        assert_paper(info_of(joint)[2], target, 2, f"OSKR of System {name}")
    # another accuracy: the essay's systems are not drawn
    names = [t.name for t in explore.alpha_beta_explorer(accuracy=0.8).view().traces]
    assert "System Alpha" not in names


@pytest.mark.parametrize("error", [0.22, 0.3, 0.5])
def test_verifier_points_realise_the_essay_levels(error):
    v = explore.verifier_explorer().view(error=error)
    pts = v.trace("set-ups on the curve")
    for g, level in zip(pts.x, pts.y):
        assert 0 <= g <= 1
        assert info_of(joint_symmetric(0.5, error * (1 - g)))[2] == pytest.approx(level, abs=1e-9)
    # the actor's 0.14 needs more error than ε = 0.22 gives (the audit chapter): not drawn
    if error == 0.22:
        assert 0.14 not in pts.y.round(2).tolist() and "out of reach" in v.caption


@pytest.mark.parametrize("a_t, k_t", [(0.6, 0.1), (0.8, 0.5), (0.95, 0.9), (0.7, 0.2)])
def test_deployment_frames(a_t, k_t):
    v = explore.deployment_explorer(AGENTS).view(accuracy_threshold=a_t, oskr_threshold=k_t)
    placed = {}
    for posture in cognitive_chain.POSTURES.values():
        t = v.trace(posture)
        for x, y in zip(t.x, t.y):
            placed[(x, y)] = posture
    # each agent sits in the quadrant its accuracy and OSKR put it in, by direct comparison
    for acc, k in AGENTS.values():
        assert placed[(acc, k)] == cognitive_chain.POSTURES[(acc >= a_t, k >= k_t)]
    assert len(placed) == len(AGENTS)


@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("verify", [0.0, 0.6, 1.0])
def test_router_frames(task, verify):
    v = explore.router_explorer(TASKS, AGENT_OSKR).view(task=task, verify=verify)
    k = AGENT_OSKR.copy()
    k[-1] = verify                               # Verify is the last operation
    load = np.asarray(TASKS[task])
    used = load > 0
    bars = v.trace("OSKR − load")
    assert bars.y == tuple(np.array(cognitive_chain.OPERATIONS)[used])
    assert bars.x == pytest.approx(k[used] - load[used])
    human = [op for op, m in zip(bars.y, bars.x) if m < 0]
    verdict = "agent" if not human else "human" if len(human) == len(bars.y) else "hybrid"
    assert v.caption.split(": ")[1].startswith(verdict)


@pytest.mark.parametrize("make, kwargs", [
    (explore.deployment_explorer, {"agents": {}}),
    (explore.deployment_explorer, {"agents": {"x": (1.2, 0.5)}}),
    (explore.deployment_explorer, {"agents": AGENTS, "oskr_threshold": [0.5, 1.5]}),
    (explore.router_explorer, {"tasks": {}, "oskr_by_operation": AGENT_OSKR}),
    (explore.router_explorer, {"tasks": {"none": [0] * 8}, "oskr_by_operation": AGENT_OSKR}),
    (explore.router_explorer, {"tasks": TASKS, "oskr_by_operation": AGENT_OSKR[:7]}),
    (explore.router_explorer, {"tasks": TASKS, "oskr_by_operation": AGENT_OSKR, "verify": [-0.1]}),
    (explore.oskr_explorer, {"success": [0.0, 0.5]}),
    (explore.oskr_explorer, {"right": [0.4, 0.8]}),
    (explore.oskr_explorer, {"right": [0.9, 0.8]}),          # not increasing
    (explore.feedback_lab_explorer, {"error": [0.2, 1.2]}),
    (explore.feedback_lab_explorer, {"prevalence": [1.0]}),
    (explore.feedback_lab_explorer, {"gain": []}),
    (explore.oskr_surface_explorer, {"gains": (0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)}),
    (explore.oskr_surface_explorer, {"gains": (0, 1.5)}),
    (explore.entropy_explorer, {"active": [0, 1]}),
    (explore.entropy_explorer, {"active": [9]}),
    (explore.entropy_explorer, {"skew": [-1.0, 0.0]}),
    (explore.channel_noise_explorer, {"noise": [0.1, float("nan")]}),
    (explore.alpha_beta_explorer, {"accuracy": 1.0}),
    (explore.alpha_beta_explorer, {"wrong": [0.1, 0.1]}),
    (explore.verifier_explorer, {"error": [0.0, 0.2]}),
])
def test_bad_grids_are_value_errors(make, kwargs):
    with pytest.raises(ValueError):
        explore.frames(make(**kwargs))


@pytest.mark.parametrize("make", ALL)
def test_every_frame_draws_on_the_site_and_live(make):
    import matplotlib.pyplot as plt
    import plotly.graph_objects as go

    e = make()
    views = explore.frames(e)           # validates every trace of every frame
    assert len(views) == len(explore.grid(e))
    for fig in explore.plotly_figures(e):
        go.Figure(fig)                  # plotly accepts the figure dicts
    fig = explore.to_matplotlib(e)
    assert len(fig.axes) >= len(e.panels)
    plt.close(fig)


@pytest.mark.parametrize("make", DEFAULTS)
def test_every_explorer_has_defaults(make):
    """Called with no arguments (as scripts/bench_explorers.py does), each explorer draws."""
    assert len(explore.frames(make())) >= 1


def test_default_router_and_matrix():
    v = explore.deployment_explorer().view(accuracy_threshold=0.8, oskr_threshold=0.5)
    assert v.trace("scout / draft generator").y.round(2).tolist() == [roberts2026.ALPHA[1]]
    assert v.trace("do not delegate").y.round(2).tolist() == [roberts2026.BETA[1]]
    trace = cognitive_chain.simulate_chain(cognitive_chain.roberts_profiles().scores[0],
                                              20_000, rng=7)
    k = cognitive_chain.per_operation_oskr(trace, rng=8).oskr   # another n_boot: same point
    v = explore.router_explorer().view(verify=0.0)
    k[-1] = 0.0
    assert v.trace("OSKR − load").x == pytest.approx(k - 0.3)


def test_the_demos_page_stays_small():
    """All Part III explorers sit on one page; their frames must stay well under 3 MB."""
    total = sum(len(explore.static_html(p.values[0]())) for p in ALL)
    assert total < 2_000_000, f"{total / 1e6:.2f} MB of explorers on the demos page"


def _caption(out):
    return "".join(o.get("text", "") for o in out.outputs if o.get("output_type") == "stream")


@pytest.mark.parametrize("make", ALL)
def test_live_controls_redraw(make, monkeypatch):
    """In a kernel: each widget, moved to the end of its grid, redraws that setting's view.

    The matplotlib figure of every redraw is checked (one axes per panel), but not rasterised:
    the PNG itself is tests/test_explore.py's (test_live_slider_and_menu_redraw_the_output), and
    rendering some 25 PNGs here would repeat that test at a high cost.
    """
    pytest.importorskip("ipywidgets")
    from IPython.display import Image
    from matplotlib.figure import Figure

    from metabits_book.explore import kernel

    drawn = []
    tiny = kernel._png(Figure(figsize=(0.1, 0.1)))
    monkeypatch.setattr(kernel, "_png", lambda fig, explorer=None: drawn.append(fig) or
                        Image(data=tiny.data, format="png"))
    e = make()
    box = explore.live(e)
    widgets, out = box.children[0].children, box.children[1]
    assert _caption(out).strip() == e.view().caption
    setting = {c.name: c.default for c in e.controls}
    for c, w in zip(e.controls, widgets):
        w.value = c.values[-1]
        setting[c.name] = c.values[-1]
        assert _caption(out).strip() == e.view(**setting).caption
        assert any("image/png" in o.get("data", {}) for o in out.outputs)
    assert len(drawn) == 1 + sum(c.values[-1] != c.default for c in e.controls)  # one per change
    assert all(len(fig.axes) == len(e.panels) for fig in drawn)




# --- panel order, point labels and captions ------------------------------------------------------

def test_feedback_lab_draws_oskr_first():
    """The OSKR panel sits next to the controls (the lab is three panels tall)."""
    e = explore.feedback_lab_explorer(prevalence=[0.5], error=[0.2], gain=[0.3])
    assert e.panels[0].title == "OSKR as the verifier improves"
    v = e.view()
    assert v.trace("OSKR against g").panel == v.trace("this gain").panel == 0
    assert (v.trace("bits").panel, v.trace("P(T, S)").panel) == (1, 2)


def test_deployment_points_are_labelled_with_their_agent():
    e = explore.deployment_explorer(AGENTS)
    v = e.view(accuracy_threshold=0.8, oskr_threshold=0.5)
    labels = {}
    for posture in cognitive_chain.POSTURES.values():
        t = v.trace(posture)
        labels.update(zip(t.text, zip(t.x, t.y)))
    assert labels == {n: (pytest.approx(a), pytest.approx(k)) for n, (a, k) in AGENTS.items()}
    fig = explore.plotly_figures(e)[0]
    shown = [d for d in fig["data"] if d.get("text")]
    assert all(d["mode"] == "markers+text" for d in shown)
    assert sorted(s for d in shown for s in d["text"]) == sorted(AGENTS)
    # a label near the right edge goes to the left of its point (it must not run off the plot)
    sides = {s: pos for d in shown for s, pos in zip(d["text"], d["textposition"])}
    assert e.panels[0].xrange == (0.5, 1.04)           # from chance, as in the book's figure
    cut = 0.5 + 0.6 * 0.54                             # the right 40% of the x range
    assert sides == {n: "middle left" if a > cut else "middle right"
                     for n, (a, _) in AGENTS.items()}
    assert sides["fluent"] == "middle left"


# the chapter's five agents (book/oskr/03_demos): "Alpha" and "verified agent" crowd at 400 px
BOOK_AGENTS = {"Alpha": (0.72, 0.81), "Beta": (0.72, 0.18), "fluent but unaware": (0.95, 0.3),
               "unsure but honest": (0.6, 0.7), "verified agent": (0.9, 0.8)}


def _label_boxes(e, view, width, height):
    """The labels' and markers' boxes (px) of panel 0 at a plot size, as the placement sees
    them."""
    from metabits_book.explore.labels import _MARKER_R_PX, _label_box, _label_positions

    (x0, x1), (y0, y1) = e.panels[0].xrange, e.panels[0].yrange
    traces = [t for t in view.traces if t.panel == 0]
    places = _label_positions(traces, e.panels[0])
    labels, dots = [], []
    for i, t in enumerate(traces):
        for j, (x, y) in enumerate(zip(t.x, t.y)) if t.kind == "points" else ():
            px, py = (x - x0) / (x1 - x0) * width, (y1 - y) / (y1 - y0) * height
            dots.append((px - _MARKER_R_PX, py - _MARKER_R_PX, px + _MARKER_R_PX,
                         py + _MARKER_R_PX))
            if t.text is not None:
                labels.append((t.text[j], _label_box(px, py, t.text[j], places[i][j]), len(dots) - 1))
    return labels, dots


def _intersect(a, b):
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


@pytest.mark.parametrize("agents", [AGENTS, BOOK_AGENTS], ids=["three", "book's five"])
def test_deployment_labels_do_not_overlap_at_any_panel_width(agents):
    """At every plot size of LABEL_PLOT_SIZES (400 px to wide windows; the browser test measures
    the drawn labels), no label overlaps another, covers another agent's marker or leaves the
    plot, at every setting of the thresholds."""
    from metabits_book.explore.labels import LABEL_PLOT_SIZES

    e = explore.deployment_explorer(agents)
    for setting in explore.grid(e):
        view = e.view(**setting)
        for width, height in LABEL_PLOT_SIZES:
            labels, dots = _label_boxes(e, view, width, height)
            assert sorted(n for n, _, _ in labels) == sorted(agents)
            for k, (name, box, own) in enumerate(labels):
                assert 0 <= box[0] and box[2] <= width and 0 <= box[1] and box[3] <= height, name
                assert not any(_intersect(box, d) for d in dots), (name, width)
                for other, box2, _ in labels[k + 1:]:
                    assert not _intersect(box, box2), (name, other, width, setting)


def test_crowded_labels_still_get_a_position():
    """Agents on one spot cannot all be labelled apart: each label still gets a place (the one
    that collides least), and the explorer still draws."""
    crowd = {f"agent {i}": (0.8, 0.5) for i in range(12)}
    e = explore.deployment_explorer(crowd, accuracy_threshold=[0.7], oskr_threshold=[0.5])
    shown = [d for d in explore.plotly_figures(e)[0]["data"] if d.get("text")]
    positions = [pos for d in shown for pos in d["textposition"]]
    assert len(positions) == 12 and all(isinstance(p, str) and " " in p for p in positions)


def test_entropy_explorer_explains_skew():
    e = explore.entropy_explorer()
    assert "0 = even" in e.controls[1].label
    assert "exp(−skew·(k − 1))" in e.view(active=4, skew=1.0).caption


def test_no_caption_writes_eps_eff_with_an_underscore():
    for make in ALL:
        for v in explore.frames(make.values[0]()):
            assert "_eff" not in v.caption
