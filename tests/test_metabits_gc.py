"""_ext/metabits_gc.py: the garbage collector set for the book build and the test processes."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "_ext"


def test_this_test_process_runs_with_the_settings():
    """conftest.py set the thresholds at configure and froze what existed after collection."""
    sys.path.insert(0, str(EXT))
    try:
        import metabits_gc
    finally:
        sys.path.remove(str(EXT))
    assert gc.get_threshold() == metabits_gc.THRESHOLDS != (700, 10, 10)
    assert gc.get_freeze_count() > 0


def test_the_book_build_loads_the_extension_and_it_freezes_when_the_builder_is_set_up():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["sphinx"]["local_extensions"]["metabits_gc"] == "_ext"
    # a fresh Python: Sphinx's setup sets the thresholds; builder-inited freezes
    script = """
import gc, json, sys
sys.path.insert(0, sys.argv[1])
import metabits_gc
handlers = {}
class App:
    def connect(self, event, handler):
        handlers[event] = handler
before = gc.get_threshold()
meta = metabits_gc.setup(App())
after = gc.get_threshold()
frozen = gc.get_freeze_count()
handlers["builder-inited"](App())
print(json.dumps([before, after, frozen, gc.get_freeze_count() > 0, meta["parallel_read_safe"]]))
"""
    out = subprocess.run([sys.executable, "-c", script, str(EXT)], capture_output=True,
                         text=True, check=True).stdout
    before, after, frozen, now_frozen, parallel = json.loads(out)
    assert before == [700, 10, 10] and after == [50_000, 50, 100]
    assert frozen == 0 and now_frozen and parallel
