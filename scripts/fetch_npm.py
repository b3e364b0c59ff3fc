"""Install pinned npm packages the website and its tests serve into the virtual environment.

- ``mathjax@3.2.2`` — the website serves MathJax itself (math renders offline, the site makes no
  external request): ``_ext/metabits_site.py`` copies the ``tex-chtml`` component and the folders
  it loads on demand from here into ``_build/html/_static/mathjax``. It is the MathJax project's
  own npm distribution of its browser bundles.
- ``axe-core@4.14.1`` (tests only) — the accessibility engine that ``tests/test_browser.py``
  injects into every page.

Each tarball is downloaded from the npm registry and checked against the registry's published
``sha512`` integrity (``npm view <name>@<version> dist.integrity``, pinned below), so a changed
tarball fails instead of being served; the part that is used is unpacked into
``<venv>/share/<name>-<version>/``. Only Python's standard library is needed (no Node or npm).

Run by ``scripts/setup-env.sh``: ``python scripts/fetch_npm.py mathjax [axe-core]``. Does nothing
for a package already unpacked with that checksum; ``--check`` only reports.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import shutil
import sys
import tarfile
import urllib.request
from pathlib import Path

#: name -> (version, sha512 integrity of the registry's tarball, files and folders to unpack)
PACKAGES = {
    "mathjax": ("3.2.2",
                "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1v"
                "O+geW0OhGw==",
                ("LICENSE", "package.json", "es5/tex-chtml.js", "es5/input/", "es5/output/chtml/",
                 "es5/ui/", "es5/a11y/", "es5/sre/")),
    "axe-core": ("4.14.1",
                 "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFoo"
                 "JpZe37OgudVGtQ==",
                 ("LICENSE", "package.json", "axe.min.js")),
}


def tarball(name: str) -> str:
    return f"https://registry.npmjs.org/{name}/-/{name}-{PACKAGES[name][0]}.tgz"


def destination(name: str, prefix: str | Path = sys.prefix) -> Path:
    """Where a package is unpacked: ``<prefix>/share/<name>-<version>``."""
    return Path(prefix) / "share" / f"{name}-{PACKAGES[name][0]}"


def installed(name: str, dest: Path | None = None) -> bool:
    dest = dest or destination(name)
    stamp = dest / ".integrity"
    return stamp.is_file() and stamp.read_text().strip() == PACKAGES[name][1]


def unpack(name: str, data: bytes, dest: Path) -> int:
    """Check ``data`` (the tarball) and unpack its kept files into ``dest``; return their count."""
    version, integrity, keep = PACKAGES[name]
    algorithm, expected = integrity.split("-", 1)
    got = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if got != expected:
        raise SystemExit(f"{tarball(name)}: checksum mismatch ({algorithm} {got}, expected "
                         f"{expected}); not installing it")
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    count = 0
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.startswith("package/"):
                continue
            rel = member.name[len("package/"):]
            if ".." in Path(rel).parts or not any(
                    rel == k or (k.endswith("/") and rel.startswith(k)) for k in keep):
                continue
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tar.extractfile(member).read())
            count += 1
    found = json.loads((tmp / "package.json").read_text(encoding="utf-8"))["version"]
    if found != version:
        raise SystemExit(f"{tarball(name)} holds {name} {found}, not {version}")
    (tmp / ".integrity").write_text(integrity + "\n")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)
    return count


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("--")] or ["mathjax"]
    unknown = sorted(set(names) - set(PACKAGES))
    if unknown:
        raise SystemExit(f"unknown package(s) {unknown}; known: {sorted(PACKAGES)}")
    status = 0
    for name in names:
        dest = destination(name)
        if "--check" in argv:
            ok = installed(name)
            print(f"{name} {PACKAGES[name][0]} {'is' if ok else 'is NOT'} installed at {dest}")
            status |= not ok
        elif not installed(name):
            with urllib.request.urlopen(tarball(name), timeout=120) as response:
                data = response.read()
            count = unpack(name, data, dest)
            print(f"{name} {PACKAGES[name][0]} from {tarball(name)} (checksum verified): "
                  f"{count} files in {dest}")
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
