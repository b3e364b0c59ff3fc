"""tests/_kernel_forks.py: nbval's kernels, forked from a server that has done the imports.

A forked kernel must be what a kernel started the usual way is, but for the modules it has
imported already: the same paths, environment, working folder, signal handlers, threads,
matplotlib and pandas settings, and the same outputs for the same cell. And it must behave as
one for the kernel manager: it answers an interrupt, and it goes when its command is killed.
"""

from __future__ import annotations

import json
import os
import sys
import time

import pytest

import _kernel_forks as forks

pytestmark = [
    pytest.mark.skipif(not forks.available(), reason="no os.fork or Unix sockets here"),
    # nine kernels, 7 s: the full command runs them, with the notebooks; the quick loop runs none
    pytest.mark.slow,
]

#: what a kernel reports about itself, after the imports of a notebook's first cell
ABOUT = f"NOTEBOOK_MODULES = {forks.NOTEBOOK_MODULES!r}" + r"""
import gc, json, logging, os, signal, sys, threading, warnings
_before = sorted(m for m in ("pandas", "scipy.stats", "matplotlib.pyplot") if m in sys.modules)
import importlib
for _name in NOTEBOOK_MODULES:  # what every notebook imports (or a function of it does)
    importlib.import_module(_name)
import matplotlib, matplotlib.pyplot as plt, numpy as np, pandas as pd
plt.close(plt.figure())  # the backend is chosen at the first figure
_ip = get_ipython()
_options = pd._config.config._registered_options
_filters = [repr(f) for f in warnings.filters]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # reading a deprecated option warns
    _pandas = {k: repr(pd.get_option(k)) for k in _options}
print(json.dumps(dict(
    imported_before=_before, frozen=gc.get_freeze_count() > 0, gc_thresholds=gc.get_threshold(),
    ppid=os.getppid(), own_session=os.getsid(0) == os.getpid(),
    path=sys.path, argv0=sys.argv[0], cwd=os.getcwd(), env=dict(os.environ),
    backend=matplotlib.get_backend(),
    rc={k: repr(v) for k, v in matplotlib.rcParams.items()},
    pandas=_pandas,
    pandas_defaults={k: repr(_options[k].defval) for k in _options},
    signals={name: repr(signal.getsignal(getattr(signal, name))) for name in
             ("SIGINT", "SIGTERM", "SIGCHLD", "SIGPIPE", "SIGHUP", "SIGQUIT", "SIGUSR1")},
    threads=sorted(type(t).__name__ for t in threading.enumerate()),
    warning_filters=sorted(_filters),
    execution_count=_ip.execution_count, shell=type(_ip).__name__,
    post_execute=[f.__qualname__ for f in _ip.events.callbacks["post_execute"]],
    formatters=sorted(_ip.display_formatter.active_types),
    log_handlers=[type(h).__name__ for h in logging.getLogger().handlers],
    flags=repr(sys.flags), recursion_limit=sys.getrecursionlimit(),
    excepthook=sys.excepthook.__qualname__,
    stdout=type(sys.stdout).__name__, meta_path=[type(f).__name__ for f in sys.meta_path])))
"""

#: a cell of a notebook: a figure and a table wider than pandas shows in a kernel
SHOWS = """
fig, ax = plt.subplots(figsize=(3, 2))
ax.plot(np.arange(5), np.arange(5) ** 2)
plt.show()
pd.DataFrame(np.arange(60.0).reshape(2, 30) / 7)
"""


def _manager(kernel_dirs):
    """A kernel manager whose ``python3`` is the spec in ``kernel_dirs`` (or ipykernel's own)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    specs = KernelSpecManager(kernel_dirs=list(kernel_dirs), ensure_native_kernel=True)
    return KernelManager(kernel_name="python3", kernel_spec_manager=specs)


def _run(km, cells, env, cwd):
    """Start ``km``'s kernel; run ``cells``; each cell's stdout text and display data."""
    km.start_kernel(env=env, cwd=cwd)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        results = []
        for code in cells:
            out = {"stdout": "", "data": []}

            def hook(msg, out=out):
                kind, content = msg["msg_type"], msg["content"]
                if kind == "stream" and content["name"] == "stdout":
                    out["stdout"] += content["text"]
                elif kind in ("display_data", "execute_result"):
                    out["data"].append(content["data"])
                elif kind == "error":
                    raise AssertionError("\n".join(content["traceback"]))

            kc.execute_interactive(code, output_hook=hook, timeout=60)
            results.append(out)
        return results
    finally:
        kc.stop_channels()
        km.shutdown_kernel()


@pytest.fixture(scope="module")
def server():
    saved = os.environ.get("JUPYTER_PATH")
    started = forks.start()
    yield started
    forks.stop(started)
    assert os.environ.get("JUPYTER_PATH") == saved


def _env():
    """The kernel's environment, the same for both kernels: this process's, without any kernel
    spec of a fork server (the spec comes from the kernel manager's ``kernel_dirs``)."""
    return {k: v for k, v in os.environ.items() if k != "JUPYTER_PATH"}


def test_a_forked_kernel_is_a_usual_kernel_with_its_imports_done(server, tmp_path):
    env = _env()
    usual = _run(_manager([]), [ABOUT, SHOWS], env, str(tmp_path))
    forked = _run(_manager([os.path.join(server.spec_dir, "kernels")]), [ABOUT, SHOWS], env,
                  str(tmp_path))
    about_usual, about_forked = (json.loads(r[0]["stdout"]) for r in (usual, forked))
    # forked: pandas, SciPy and pyplot were imported before the first cell; usual: not
    assert about_usual.pop("imported_before") == []
    assert about_forked.pop("imported_before") == ["matplotlib.pyplot", "pandas", "scipy.stats"]
    assert about_forked.pop("ppid") == server.pid and about_usual.pop("ppid") == os.getpid()
    # the server's objects are frozen: the kernel's garbage collector leaves them alone
    assert about_forked.pop("frozen") and not about_usual.pop("frozen")
    assert about_usual["gc_thresholds"] == [700, 10, 10]  # Python's, in both
    # everything else is the same; the warning filters compare sorted: the libraries' (set as
    # they are imported) and the kernel's come in the other order, and none overlap
    for name, value in about_usual.items():
        assert about_forked[name] == value, name
    assert about_usual["backend"] == "module://matplotlib_inline.backend_inline"
    assert about_usual["own_session"] and about_usual["env"]["JPY_PARENT_PID"] == str(os.getpid())
    # the same figure, byte for byte, and the same table (pandas shows 20 of its 30 columns)
    assert forked[1]["data"] == usual[1]["data"]
    kinds = [sorted(d) for d in usual[1]["data"]]
    assert kinds == [["image/png", "text/plain"], ["text/html", "text/plain"]]
    assert "..." in usual[1]["data"][1]["text/plain"]


def test_forked_kernels_draw_new_seeds(server, tmp_path):
    """Python's and NumPy's global generators, unseeded, draw differently in each kernel."""
    draw = "import random, numpy as np; print(random.random(), np.random.random())"
    first, second = (_run(_manager([os.path.join(server.spec_dir, "kernels")]), [draw], _env(),
                          str(tmp_path))[0]["stdout"].split() for _ in range(2))
    assert first[0] != second[0] and first[1] != second[1]


def test_a_forked_kernel_answers_an_interrupt_and_goes_with_its_command(server, tmp_path):
    km = _manager([os.path.join(server.spec_dir, "kernels")])
    km.start_kernel(env=_env(), cwd=str(tmp_path))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        pid = []
        kc.execute_interactive("import os; print(os.getpid())", timeout=30, output_hook=lambda m: (
            pid.append(int(m["content"]["text"])) if m["msg_type"] == "stream" else None))
        msg_id = kc.execute("import time; time.sleep(60)")
        time.sleep(0.5)
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=10)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["content"]["status"] == "error"
        assert reply["content"]["ename"] == "KeyboardInterrupt"
        # the kernel manager kills what it started (the command): the kernel goes too
        km.provisioner.process.kill()
        km.provisioner.process.wait(timeout=10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(pid[0], 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"the kernel {pid[0]} outlived its command")
    finally:
        kc.stop_channels()
        km.cleanup_resources()


def test_without_its_server_the_spec_starts_a_usual_kernel(tmp_path):
    forks.write_spec(tmp_path)  # no server listens at tmp_path/kernels.sock
    out = _run(_manager([str(tmp_path / "kernels")]),
               ["import os, sys; print('pandas' in sys.modules, os.getppid())"], _env(),
               str(tmp_path))
    assert out[0]["stdout"].split() == ["False", str(os.getpid())]


@pytest.mark.parametrize("source,said", [("print('hello')", "hello"),
                                         ("import warnings; warnings.warn('careful')",
                                          "UserWarning: careful")])
def test_the_server_refuses_imports_that_print_or_warn(source, said, tmp_path, monkeypatch):
    (tmp_path / "noisy_import.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(forks, "KERNEL_MODULES", ())
    monkeypatch.setattr(forks, "NOTEBOOK_MODULES", ("noisy_import",))
    monkeypatch.setenv("MPLBACKEND", "agg")
    try:
        with pytest.raises(RuntimeError, match=said):
            forks._preload()
    finally:
        sys.modules.pop("noisy_import", None)
