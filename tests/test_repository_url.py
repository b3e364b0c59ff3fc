"""Every notebook installs metabits on Colab from the one repository address of the book.

A chapter opened on Colab (the launch button) has no ``metabits``, so its first code cell installs
the library and the book's own code from the book's repository when, and only when, it runs
there::

    if "google.colab" in sys.modules:
        %pip install -q "metabits @ git+<repository.url>#subdirectory=lib" \
            "metabits-book @ git+<repository.url>#subdirectory=book/_support"

The address must be ``repository.url`` in ``_config.yml`` — the one setting the launch,
repository and issue buttons read — so that moving the book cannot leave a notebook installing
from the old place. The Part I chapters must have the cell; any other notebook that installs
``metabits`` from git must use the same address.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "book").rglob("*.ipynb"))
#: notebooks whose first code cell must install metabits on Colab
MUST_INSTALL = sorted((ROOT / "book" / "meyen").glob("*.ipynb"))
#: ``git+<url>#subdirectory=lib``, in a ``%pip install`` line or in a pip argument list
INSTALL_URL = re.compile(r"git\+(?P<url>[^\s\"'#]+)#subdirectory=lib")


def repository_url() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return config["repository"]["url"]


def code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def test_the_regex_reads_both_install_forms():
    url = "https://github.com/o/r"
    forms = [f'%pip install -q "metabits @ git+{url}#subdirectory=lib"',
             f'["pip", "install", "git+{url}#subdirectory=lib"]']
    assert [INSTALL_URL.search(form)["url"] for form in forms] == [url, url]


def test_part_one_is_found():
    """Every Part I chapter of the table of contents is among the notebooks checked here."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    part_one = {ROOT / f"{c['file']}.ipynb" for part in toc["parts"] for c in part["chapters"]
                if c["file"].startswith("book/meyen/")}
    assert len(part_one) >= 8 and part_one <= set(MUST_INSTALL), [p.name for p in MUST_INSTALL]


@pytest.mark.parametrize("path", MUST_INSTALL, ids=lambda p: p.name)
def test_first_code_cell_installs_metabits_on_colab_only(path):
    from IPython.core.inputtransformer2 import TransformerManager

    first = code_cells(path)[0]
    urls = INSTALL_URL.findall(first)
    assert urls, f"{path.name}: the first code cell does not install metabits from git"
    assert "#subdirectory=book/_support" in first, f"{path.name}: metabits-book not installed"
    guard = first.index('if "google.colab" in sys.modules')
    assert guard < first.index("git+"), f"{path.name}: the install is not guarded by Colab"
    imports = re.search(r"^(import metabits|from metabits)", first, re.M)
    assert imports, f"{path.name}: the first code cell does not import metabits"
    assert first.index("git+") < imports.start(), \
        f"{path.name}: metabits is imported before it is installed"
    # the cell is valid IPython: %pip inside the if block becomes a function call
    compile(TransformerManager().transform_cell(first), path.name, "exec")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "book")))
def test_install_url_is_the_configured_repository(path):
    urls = {m["url"] for cell in code_cells(path) for m in INSTALL_URL.finditer(cell)}
    if path not in MUST_INSTALL and not urls:
        pytest.skip("installs nothing")
    assert urls == {repository_url()}, (
        f"{path.name} installs metabits from {sorted(urls)}, but repository.url in _config.yml "
        f"is {repository_url()}: change the notebook (or the setting) so they agree")


# ---------------------------------------------------------------------------------------------
# the ref Binder and Colab open: the branch the website is published from

LAUNCH_NOTEBOOKS = sorted((ROOT / "launch").rglob("*.ipynb"))


def release() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return str(config["repository"]["branch"])


def test_launch_buttons_open_the_branch_the_site_is_published_from():
    """``repository.branch`` (the ref Binder, Colab and the launch notebooks' install lines
    use) is the branch the publishing workflow deploys the website from, so every launch URL
    exists from the moment the site is published, and opens the notebooks the site shows."""
    workflow = (ROOT / ".github" / "workflows" / "book.yml").read_text(encoding="utf-8")
    published = re.findall(r"github\.ref == 'refs/heads/([^']+)'", workflow)
    assert published, "the workflow names no branch it publishes from"
    assert set(published) == {release()}, (
        f"repository.branch is {release()!r}, but the site is published from {published}: "
        f"python3 scripts/set-repository-url.py --release {published[0]}")
    assert re.search(rf"branches: \[{re.escape(release())}\]", workflow)


def test_launch_notebooks_install_and_show_figures_from_the_release():
    url, ref = repository_url(), release()
    owner, name = url.removeprefix("https://github.com/").split("/")
    assert LAUNCH_NOTEBOOKS
    for path in LAUNCH_NOTEBOOKS:
        text = path.read_text(encoding="utf-8")
        installs = set(re.findall(r"git\+([^\s\"'#\\]+)#subdirectory=(?:lib|book/_support)",
                                  text))
        assert installs == {f"{url}@{ref}"}, f"{path.name} installs from {sorted(installs)}"
        raw = set(re.findall(rf"https://raw\.githubusercontent\.com/{owner}/{name}/([^/]+)/",
                             text))
        assert raw <= {ref}, f"{path.name} shows files of {sorted(raw)}, not of {ref}"
        assert "raw.githubusercontent.com" not in re.sub(
            rf"https://raw\.githubusercontent\.com/{owner}/{name}/", "", text)


def _mover():
    import importlib.util

    spec = importlib.util.spec_from_file_location("set_repository_url",
                                                  ROOT / "scripts" / "set-repository-url.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_mover_moves_address_and_release_everywhere(tmp_path):
    import shutil

    for rel in ["_config.yml", "CITATION.cff", "book/meyen/01_confidence_information.ipynb",
                "launch/student/book/meyen/01_confidence_information.ipynb",
                "launch/instructor/book/oskr/01_oskr.ipynb"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / rel, tmp_path / rel)
    old_url, old_ref = repository_url(), release()
    old_owner, old_name = old_url.removeprefix("https://github.com/").split("/")
    _mover().move(tmp_path, "https://github.com/someone/elsewhere", "v9.8")
    config = yaml.safe_load((tmp_path / "_config.yml").read_text(encoding="utf-8"))
    assert config["repository"]["url"] == "https://github.com/someone/elsewhere"
    assert config["repository"]["branch"] == "v9.8"
    assert "path_to_book" in config["repository"]
    cff = yaml.safe_load((tmp_path / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["repository-code"] == "https://github.com/someone/elsewhere"
    book = (tmp_path / "book/meyen/01_confidence_information.ipynb").read_text(encoding="utf-8")
    assert "git+https://github.com/someone/elsewhere#subdirectory=lib" in book
    for rel in ["launch/student/book/meyen/01_confidence_information.ipynb",
                "launch/instructor/book/oskr/01_oskr.ipynb"]:
        text = (tmp_path / rel).read_text(encoding="utf-8")
        assert "git+https://github.com/someone/elsewhere@v9.8#subdirectory=lib" in text
        assert "https://someone.github.io/elsewhere/book/" in text
        assert "git+https://github.com/someone/elsewhere@v9.8#subdirectory=book/_support" in text
        left = text.replace('"metabits-book @', "")  # the package's name, not the repository's
        assert old_owner not in left and old_name not in left and f"/{old_ref}/" not in text
        if "oskr" in rel:  # this chapter shows a figure file
            assert "https://raw.githubusercontent.com/someone/elsewhere/v9.8/figures/" in text
