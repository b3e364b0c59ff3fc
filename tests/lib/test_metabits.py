"""metabits (the package): a short public namespace, every public path importable, no import
circles, no package reaching into another's private names, and a light ``import metabits``.

The same checks of the book's code (metabits_book), which uses the library's public names only,
are tests/test_metabits_book.py's, with this module's helpers."""

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import metabits

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"metabits": ROOT / "lib" / "metabits"}


def test_the_namespace_is_short_and_every_name_resolves():
    assert len(metabits.__all__) <= 27  # incl. fit_meta_noise and fit_meta_uncertainty (issue 38)
    assert len(set(metabits.__all__)) == len(metabits.__all__)
    for name in metabits.__all__:
        assert getattr(metabits, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'info_bounds'"):
        metabits.info_bounds  # noqa: B018  (in metabits.info, not at the top)


def public_paths_import(package):
    """Every public module of ``package`` imports and has each name of its ``__all__``."""
    for m in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not any(part.startswith("_") for part in m.name.split(".")):
            module = importlib.import_module(m.name)
            for name in getattr(module, "__all__", ()):
                assert hasattr(module, name), f"{m.name}.{name}"


@pytest.mark.slow
def test_every_public_path_imports():
    public_paths_import(metabits)
    for path in ("metabits.info", "metabits.sdt", "metabits.oskr", "metabits.group",
                 "metabits.io", "metabits.plots", "metabits.resample", "metabits.reliability"):
        out = subprocess.run([sys.executable, "-c", f"import {path}"], capture_output=True)
        assert out.returncode == 0, (path, out.stderr)


def test_import_metabits_loads_no_numpy():
    code = "import sys, metabits; print('numpy' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.split() == ["False", "False"]


def _modules(package: str, packages=PACKAGES):
    """Module name -> (path, parsed source) of every module of a package."""
    root = packages[package]
    out = {}
    for path in root.rglob("*.py"):
        rel = path.relative_to(root.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def _imports(tree):
    """(module, [names]) of every absolute import in a module, at any depth."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, []


def _package_of(module: str, packages=PACKAGES) -> str:
    """The subpackage a module belongs to: ``metabits.info._bounds`` -> ``metabits.info``; a
    top-level private module (``metabits._stack``) belongs to the top package."""
    parts = module.split(".")
    if len(parts) >= 2 and (packages[parts[0]] / parts[1]).is_dir():
        return ".".join(parts[:2])
    return parts[0]


def private_imports(package: str, packages=PACKAGES) -> list:
    """Imports across packages of private names (``_name``), or of another top package's private
    paths: the library's packages may share its private modules' public names (as scipy's do),
    another package (the book's code) may not: it uses the library's public paths only."""
    offences = []
    for name, tree in _modules(package, packages).items():
        for module, names in _imports(tree):
            top = module.split(".")[0]
            if top not in packages or (_package_of(module, packages)
                                       == _package_of(name, packages)):
                continue
            private_path = any(part.startswith("_") for part in module.split(".")[1:])
            if any(n.startswith("_") for n in names) or (top != package and private_path):
                offences.append(f"{name}: from {module} import {', '.join(names)}")
    return offences


def test_no_package_imports_another_packages_private_names():
    """Across the library's packages only public names are imported (no ``_name``)."""
    offences = private_imports("metabits")
    assert not offences, "\n".join(offences)


def import_circles(package: str, packages=PACKAGES) -> list:
    """The circles of module-level imports between the modules of ``package``."""
    modules = _modules(package, packages)
    graph = {name: set() for name in modules}
    for name, tree in modules.items():
        for node in tree.body:  # module-level imports only: the ones that run at import
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
                target = node.module
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    graph[name].add(sub if sub in modules else target)
    graph = {k: {v for v in vs if v != k and not k.startswith(v + ".")} for k, vs in
             graph.items()}  # a package importing its own modules is not a circle
    seen, stack, cycles = set(), [], []

    def visit(node):
        if node in stack:
            cycles.append(stack[stack.index(node):] + [node])
            return
        if node in seen:
            return
        seen.add(node)
        stack.append(node)
        for nxt in graph.get(node, ()):
            visit(nxt)
        stack.pop()

    for node in graph:
        visit(node)
    cycles = [c for c in cycles if not all(m.split(".")[-1] == "__init__" for m in c)]
    return [c for c in cycles if not any(c[i + 1].startswith(c[i] + ".") or
                                         c[i].startswith(c[i + 1] + ".")
                                         for i in range(len(c) - 1))]


def test_no_import_circles_between_modules():
    real = import_circles("metabits")
    assert not real, real
