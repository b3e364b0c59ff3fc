"""Run every notebook of the book and record its text outputs, or compare two such records.

A refactor of the library must leave every number of the book as it was. This runs each
notebook top to bottom on a fresh kernel (as nbval does) and writes, per notebook, the text of
every output: printed text, the plain-text and HTML forms of displayed values and glued values.
Figures are left out (the build test compares them); memory addresses and the random ids of
pandas' styled tables are masked.

    python scripts/notebook_outputs.py record before.json        # on the old commit
    python scripts/notebook_outputs.py record after.json         # on the new one
    python scripts/notebook_outputs.py compare before.json after.json

``record`` takes notebook paths after the file name to run only those (default: every notebook
under book/). ``compare`` prints each output that differs and exits with 1 if any does.
"""

import argparse
import json
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = ("text/plain", "text/html", "text/markdown", "text/latex")
ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
STYLER_ID = re.compile(r"\bT_[0-9a-f]{5}(?=[_\"\s])")


def _masked(text: str) -> str:
    return STYLER_ID.sub("T_…", ADDRESS.sub("0x…", text))


def _texts(output: dict) -> list:
    if output.get("output_type") == "stream":
        return [output["text"]]
    if output.get("output_type") == "error":
        return ["ERROR " + output.get("ename", "") + ": " + output.get("evalue", "")]
    data = output.get("data", {})
    return [data[m] if isinstance(data[m], str) else "".join(data[m]) for m in TEXT if m in data]


def run(path: str) -> tuple:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(nb, timeout=1800, kernel_name="python3",
                   resources={"metadata": {"path": str(Path(path).parent)}}).execute()
    cells = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        texts = [_masked(t) for o in cell.get("outputs", []) for t in _texts(o)]
        cells.append({"cell": i, "id": cell.get("id"), "outputs": texts})
    return path, cells, time.perf_counter() - start


def record(out: str, paths: list, jobs: int) -> None:
    paths = paths or sorted(str(p.relative_to(ROOT)) for p in (ROOT / "book").rglob("*.ipynb")
                            if ".ipynb_checkpoints" not in p.parts and "_build" not in p.parts)
    result = {}
    with ProcessPoolExecutor(jobs) as pool:
        for path, cells, seconds in pool.map(run, [str(ROOT / p) for p in paths]):
            name = str(Path(path).relative_to(ROOT))
            result[name] = cells
            print(f"{name}: {len(cells)} code cells, {seconds:.0f} s", flush=True)
    Path(out).write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")


def compare(before: str, after: str) -> int:
    a, b = (json.loads(Path(f).read_text()) for f in (before, after))
    differ = 0
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            print(f"{name}: only in {'after' if name in b else 'before'}")
            differ += 1
            continue
        old = {c["id"] or c["cell"]: [_masked(t) for t in c["outputs"]] for c in a[name]}
        new = {c["id"] or c["cell"]: [_masked(t) for t in c["outputs"]] for c in b[name]}
        for key in sorted(set(old) | set(new), key=str):
            if old.get(key) != new.get(key):
                differ += 1
                print(f"--- {name} cell {key}\n  before: {old.get(key)!r:.2000}\n"
                      f"  after:  {new.get(key)!r:.2000}")
    print(f"{differ} outputs differ" if differ else "every output is the same")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record", help="run the notebooks and write their text outputs")
    r.add_argument("out")
    r.add_argument("notebooks", nargs="*")
    r.add_argument("--jobs", type=int, default=2, help="notebooks run at once (default 2)")
    c = sub.add_parser("compare", help="print the outputs that differ between two records")
    c.add_argument("before")
    c.add_argument("after")
    args = parser.parse_args()
    if args.command == "record":
        record(args.out, args.notebooks, args.jobs)
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
