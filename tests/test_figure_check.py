"""The figure check (metabits_book.figure_check, and tests/figure_check.py over a repository)
passes float noise and fails on a visible change; save_figure keeps a file that shows the same."""

import re
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import figure_check as changes  # noqa: E402
from metabits_book import figure_check as fc  # noqa: E402
from metabits_book.style import save_figure  # noqa: E402


def _draw(folder, stem, shift=0.0, label="accuracy"):
    """A small figure with one line; ``shift`` moves the line up by that many data units."""
    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1, 2, 3], [1 + shift, 2 + shift, 1.5 + shift, 2.5 + shift], lw=1.5)
    ax.set_xlim(0, 3)
    ax.set_ylim(0, 4)
    ax.set_xlabel(label)
    png, svg = save_figure(fig, stem, folder)
    plt.close(fig)
    return png, svg


def _nudge_numbers(text, eps):
    """Every decimal number of an SVG outside its labels (``<!-- text -->``) moved by ``eps``:
    the noise another CPU makes in the coordinates."""
    parts = re.split(r"(<!--.*?-->)", text, flags=re.S)
    return "".join(part if part.startswith("<!--") else
                   re.sub(r"(?<![\w#-])(\d+\.\d+)", lambda m: f"{float(m.group(1)) + eps:.6f}", part)
                   for part in parts)


@pytest.fixture
def line(tmp_path):
    return _draw(tmp_path, "line")


def test_same_figure_is_the_same(line, tmp_path):
    png, svg = line
    png2, svg2 = _draw(tmp_path / "again", "line")
    assert fc.svg_difference(svg.read_text(), svg2.read_text()) is None
    assert fc.png_difference(png, png2) is None


def test_float_noise_passes(line):
    _, svg = line
    text = svg.read_text()
    noisy = _nudge_numbers(text, 1e-6)
    assert noisy != text
    assert fc.svg_difference(text, noisy) is None


def test_changed_hash_ids_pass(line):
    """matplotlib derives clip-path and marker ids from hashes of coordinates: renamed ids that
    are used consistently are no change."""
    _, svg = line
    text = svg.read_text()
    ids = re.findall(r'id="(p[0-9a-f]{8,})"', text)
    assert ids, "the test figure should have a hashed clip-path id"
    renamed = text.replace(ids[0], "p0123456789")
    assert fc.svg_difference(text, renamed) is None


def test_a_line_moved_by_a_pixel_fails(line, tmp_path):
    png, svg = line
    # 4 data units span the axes' height (~1.2 in at 150 dpi ≈ 180 px): 0.03 units ≈ 1.3 px
    png2, svg2 = _draw(tmp_path / "moved", "line", shift=0.03)
    assert "moved" in fc.svg_difference(svg.read_text(), svg2.read_text())
    png3, _ = _draw(tmp_path / "far", "line", shift=0.3)
    assert "RMS" in fc.png_difference(png, png3)


def test_a_moved_coordinate_beyond_the_tolerance_fails(line):
    _, svg = line
    text = svg.read_text()
    assert fc.svg_difference(text, _nudge_numbers(text, 0.01)) is not None


def test_a_changed_label_fails(line, tmp_path):
    png, svg = line
    png2, svg2 = _draw(tmp_path / "label", "line", label="accurate")
    assert "label" in fc.svg_difference(svg.read_text(), svg2.read_text())
    assert fc.png_difference(png, png2) is not None


def test_a_resized_image_fails(line, tmp_path):
    png, _ = line
    fig, ax = plt.subplots(figsize=(4, 2))
    ax.plot([0, 1], [0, 1])
    png2, _ = save_figure(fig, "wide", tmp_path)
    plt.close(fig)
    assert fc.png_difference(png, png2) is not None


def test_changed_figures_in_a_repository(tmp_path):
    """Noise in a committed figure is no change; a moved line, a new and a deleted figure are."""
    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    folder = tmp_path / "figures"
    _draw(folder, "noisy")
    _draw(folder, "moved")
    _draw(folder, "gone")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "figures")
    svg = folder / "noisy.svg"
    svg.write_text(_nudge_numbers(svg.read_text(), 1e-6))
    _draw(folder, "moved", shift=0.5)
    _draw(folder, "new")
    (folder / "gone.png").unlink()
    problems = changes.changed_figures(tmp_path)
    assert set(problems) == {"figures/moved.png", "figures/moved.svg", "figures/new.png",
                             "figures/new.svg", "figures/gone.png"}
    assert problems["figures/gone.png"] == "deleted"
    assert problems["figures/new.svg"].startswith("new figure")


def _scatter(folder, stem, shift=0.0, size=20):
    fig, ax = plt.subplots(figsize=(3, 2))
    x = [0.1 * i for i in range(30)]
    ax.scatter(x, [v * v + shift for v in x], s=size, rasterized=True)
    ax.set_ylim(-1, 10)
    _, svg = save_figure(fig, stem, folder)
    plt.close(fig)
    return svg.read_text()


def test_embedded_rasters_are_compared_as_images(tmp_path):
    """A rasterised scatter sits in the SVG as a base64 PNG: the same drawing passes, moved
    points fail, whatever the bytes of the encoding."""
    a = _scatter(tmp_path / "a", "s")
    assert "data:image/png;base64" in a
    assert fc.svg_difference(a, _scatter(tmp_path / "b", "s")) is None
    assert fc.svg_difference(a, _scatter(tmp_path / "c", "s", shift=1.0)) is not None  # placed
    assert "embedded image" in fc.svg_difference(a, _scatter(tmp_path / "d", "s", size=60))


def test_save_figure_keeps_a_file_that_shows_the_same_and_replaces_one_that_changed(tmp_path):
    png, svg = _draw(tmp_path, "f")
    noisy = _nudge_numbers(svg.read_text(), 1e-6)  # another machine's last digits
    svg.write_text(noisy)
    png_bytes = png.read_bytes()
    _draw(tmp_path, "f")
    assert svg.read_text() == noisy and png.read_bytes() == png_bytes  # kept as they were
    _draw(tmp_path, "f", shift=0.5)
    assert svg.read_text() != noisy and fc.svg_difference(noisy, svg.read_text()) is not None
    assert not list(tmp_path.glob(".*"))  # no temporary file left
