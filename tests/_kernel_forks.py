"""Notebook kernels forked from a process that has already imported what every kernel imports.

Each notebook that nbval runs gets a new kernel: a process with an empty namespace that runs the
notebook from the top. Starting one the usual way costs a core-second or more: a new Python
imports IPython, ipykernel, ZeroMQ and tornado, and then, in the notebook's first cell, NumPy,
SciPy, pandas, matplotlib and the library. With this module a test worker pays for those
imports once:

* ``python _kernel_forks.py serve SOCKET`` (the *fork server*, one per test worker, started by
  :func:`start`) imports them and then waits on the Unix socket ``SOCKET``;
* ``python _kernel_forks.py kernel SOCKET -f CONNECTION_FILE`` is the command of the ``python3``
  kernel spec that :func:`start` writes and puts first on ``JUPYTER_PATH``. It sends its
  arguments, working directory, environment and standard streams to the fork server, which
  forks a child that becomes the kernel (``IPKernelApp``, as ``python -m ipykernel_launcher``
  starts it); the command lives as long as its kernel, passes on the signals it gets (an
  interrupt) and exits with the kernel's status. If there is no server it replaces itself with
  ``python -m ipykernel_launcher``: the kernel then starts the usual way.

A forked kernel shares only imported modules with the server: no notebook code ran there. The
child sets the kernel up from scratch (sockets, shell, namespace, execution count), takes the
kernel manager's environment and working directory, and draws a new seed for NumPy's global
generator (Python's draws one by itself in a forked process). Some imports look at their
surroundings, and the server gives them what a kernel gives them: matplotlib reads
``MPLBACKEND``, which ``IPKernelApp`` sets before a kernel runs anything; pandas asks
``get_ipython()`` whether it runs in a kernel (in a cell's imports, it does), to choose how many
columns a table shows, and takes its encoding from ``sys.stdout`` (a kernel's says UTF-8);
matplotlib's inline backend hooks itself into the kernel's shell, so the server leaves it to
the kernel. The server refuses to serve if its imports print or warn, which a notebook's first
cell would show. Its objects are frozen (``gc.freeze``) before it forks, so that a kernel's
garbage collector, otherwise as in any kernel, does not walk them again.
``tests/test_kernel_forks.py`` compares a forked kernel with one started the usual way, and the
outputs of the book's notebooks were compared in both (the same, but for memory addresses,
widget ids and wall times).

What a forked kernel cannot tell: a notebook that uses a module it never imports, as
``scipy.stats`` after ``import scipy`` alone, finds it imported here and would fail on Binder.
The book's own build (``scripts/build-book.sh``) runs every notebook on a kernel started the
usual way, and so does the launch notebooks' test for two of them.

On Linux only (``os.fork``, file descriptors passed over Unix sockets); elsewhere, or
with ``METABITS_FRESH_KERNELS=1`` (in the run's environment, or in the kernel manager's for one
kernel), kernels start the usual way.
"""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import struct
import sys

#: imported first, as ``python -m ipykernel_launcher`` imports them
KERNEL_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell")
#: then as a notebook's first cell imports them: what the book's notebooks import there
NOTEBOOK_MODULES = ("numpy", "scipy.special", "scipy.stats", "scipy.optimize", "pandas",
                    "matplotlib.pyplot", "metabits", "metabits_book")


class _KernelShell:
    """What ``get_ipython()`` gives code that a kernel runs, as far as an import looks."""

    kernel = None


class _CellOutput(io.StringIO):
    """What ``sys.stdout`` is to code that a kernel runs, as far as an import looks (pandas
    takes its ``display.encoding`` from it)."""

    encoding = "UTF-8"  # ipykernel's OutStream


def _send(conn, data: bytes, fds=()):
    message = struct.pack("!I", len(data)) + data
    sent = socket.send_fds(conn, [message], list(fds)) if fds else 0
    conn.sendall(message[sent:])  # what one sendmsg did not take


def _recv(conn, nfds: int = 0):
    """One length-prefixed message (with up to ``nfds`` file descriptors) from ``conn``."""
    buf, fds = b"", []
    while len(buf) < 4 or len(buf) < 4 + struct.unpack("!I", buf[:4])[0]:
        if nfds and not buf:
            chunk, fds, _, _ = socket.recv_fds(conn, 1 << 16, nfds)
        else:
            chunk = conn.recv(1 << 16)
        if not chunk:
            raise EOFError("the other end closed the connection")
        buf += chunk
    return buf[4:], fds


# ------------------------------------------------------------------ the kernel spec's command

def _usual_kernel(args):
    os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *args])


def client(path: str, args: list[str]):
    """Have the fork server at ``path`` fork a kernel with ``args``; live as long as it."""
    if not available():  # e.g. a test that wants a kernel started the usual way
        _usual_kernel(args)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        request = {"argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}
        _send(sock, json.dumps(request).encode(), fds=(0, 1, 2))
        pid = int(_recv(sock)[0])
    except (OSError, EOFError, ValueError):  # no server (any more): the usual way
        sock.close()
        _usual_kernel(args)

    def forward(signum, frame):
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, forward)
    try:
        status = int(_recv(sock)[0])
    except EOFError:  # the server stopped (it kills its kernels first)
        status = 1
    sys.exit(status)


# ------------------------------------------------------------------ the fork server

def _preload():
    import builtins
    import importlib
    import warnings

    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    out, caught = _CellOutput(), []
    saved = sys.stdout, sys.stderr, warnings.showwarning
    sys.stdout = sys.stderr = out
    # a warning an import gives under the usual filters (which the imports may extend, and
    # the kernels keep) would show in a notebook's first cell
    warnings.showwarning = lambda message, category, *args, **kwargs: caught.append(
        f"{category.__name__}: {message}")
    try:
        for name in KERNEL_MODULES:
            importlib.import_module(name)
        builtins.get_ipython = _KernelShell  # IPython's, among the builtins in a cell
        try:
            for name in NOTEBOOK_MODULES:
                importlib.import_module(name)
        finally:
            del builtins.get_ipython
    finally:
        sys.stdout, sys.stderr, warnings.showwarning = saved
    if out.getvalue() or caught:
        said = out.getvalue() + "".join(f"{line}\n" for line in caught)
        raise RuntimeError(f"the fork server's imports printed or warned:\n{said}")


def _become_kernel(request: dict, fds: list[int], launcher: str, spec_dir: str):
    """In the forked child: take the client's streams, folder and environment; be the kernel."""
    import atexit

    import numpy as np
    from ipykernel import kernelapp

    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.setsid()  # a session of its own, as the kernel manager starts a kernel
    os.chdir(request["cwd"])
    env = dict(request["env"])
    _set_jupyter_path(env, spec_dir, first=False)
    os.environ.clear()
    os.environ.update(env)
    np.random.seed()  # (Python's own generator draws a new seed in a forked child by itself)
    sys.argv = [launcher, *request["argv"]]
    code = 0
    try:
        # IPKernelApp takes JPY_PARENT_PID (the kernel manager's process, which a kernel
        # watches) from the environment when it is imported: here, the kernel's environment
        kernelapp.IPKernelApp.launch_instance(
            argv=request["argv"], parent_handle=int(env.get("JPY_PARENT_PID") or 0))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        try:
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve(path: str):
    """Import :data:`KERNEL_MODULES` and :data:`NOTEBOOK_MODULES`, then fork a kernel for each
    client of ``path`` until standard input closes; kill the kernels left then."""
    import gc
    import importlib.util
    import selectors
    import threading

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)  # first: a kernel asked for meanwhile waits for the imports
    listener.listen(64)
    _preload()
    # what the kernels share stays out of their garbage collector's walks (and so in the pages
    # they share with the server: a collection that walks an object writes to it)
    gc.collect()
    gc.freeze()
    launcher = importlib.util.find_spec("ipykernel_launcher").origin
    spec_dir = os.path.dirname(path)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *args: None)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "accept")
    sel.register(wake_r, selectors.EVENT_READ, "children")
    sel.register(sys.stdin, selectors.EVENT_READ, "parent")
    kernels: dict[int, socket.socket] = {}  # pid -> its command's connection
    gone: set[int] = set()  # kernels whose command went first

    def finished(pid, message):
        conn = kernels.pop(pid)
        if pid not in gone:
            sel.unregister(conn)
        gone.discard(pid)
        try:
            _send(conn, message.encode())
        except OSError:
            pass
        conn.close()

    try:
        while True:
            for key, _ in sel.select():
                if key.data == "accept":
                    conn, _ = listener.accept()
                    try:
                        data, fds = _recv(conn, nfds=3)
                        request = json.loads(data)
                    except (EOFError, OSError, ValueError):
                        conn.close()
                        continue
                    if threading.active_count() != 1:
                        raise RuntimeError("a thread started in the fork server: it cannot fork")
                    pid = os.fork()
                    if pid == 0:  # never back into this loop, or its finally
                        try:
                            signal.set_wakeup_fd(-1)
                            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                            sel.close()
                            for fd in (listener, conn, *kernels.values()):
                                fd.close()
                            os.close(wake_r)
                            os.close(wake_w)
                            _become_kernel(request, fds, launcher, spec_dir)
                        except BaseException:
                            import traceback

                            traceback.print_exc()
                        finally:
                            os._exit(1)
                    for fd in fds:
                        os.close(fd)
                    _send(conn, str(pid).encode())
                    kernels[pid] = conn
                    sel.register(conn, selectors.EVENT_READ, pid)
                elif key.data == "children":
                    os.read(wake_r, 4096)
                    while kernels:
                        pid, status = os.waitpid(-1, os.WNOHANG)
                        if pid == 0:
                            break
                        if pid in kernels:
                            finished(pid, str(os.waitstatus_to_exitcode(status)))
                elif key.data == "parent":
                    if not os.read(sys.stdin.fileno(), 4096):
                        return  # the test worker closed its end (or exited)
                elif key.data in kernels and not key.fileobj.recv(1):
                    # the kernel's command is gone (the kernel manager killed it): so goes
                    # the kernel, as it would go with it if the command were the kernel
                    try:
                        os.kill(key.data, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    sel.unregister(key.fileobj)
                    gone.add(key.data)  # reaped (and its connection closed) when it exits
    finally:
        for pid in kernels:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        listener.close()
        os.unlink(path)


def available() -> bool:
    """Whether kernels are forked here: on Linux (macOS's system libraries do not all survive a
    fork), unless ``METABITS_FRESH_KERNELS`` says no."""
    return (os.environ.get("METABITS_FRESH_KERNELS", "") in ("", "0")
            and sys.platform.startswith("linux") and hasattr(socket, "send_fds"))


def write_spec(directory) -> str:
    """Write the ``python3`` kernel spec whose command asks the server at
    ``directory``/kernels.sock for a kernel (into ``directory``/kernels); the socket's path."""
    from pathlib import Path

    path = str(Path(directory) / "kernels.sock")
    spec = Path(directory) / "kernels" / "python3"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(Path(__file__).resolve()), "kernel", path, "-f",
                 "{connection_file}"],
        "display_name": "Python 3 (ipykernel)", "language": "python",
        "metadata": {"debugger": True}}))
    return path


def _set_jupyter_path(env: dict, directory: str, first: bool) -> None:
    """Put ``directory`` first on ``env``'s ``JUPYTER_PATH`` (``first``) or take it off."""
    paths = [p for p in env.get("JUPYTER_PATH", "").split(os.pathsep) if p and p != directory]
    env.pop("JUPYTER_PATH", None)
    paths = [directory, *paths] if first else paths
    if paths:
        env["JUPYTER_PATH"] = os.pathsep.join(paths)


def start():
    """Start a fork server for this process's ``python3`` kernels; None where none can run.

    Writes the kernel spec into a new temporary folder (short: a Unix socket's path has at most
    about 100 characters), ``server.spec_dir``, and puts it first on this process's
    ``JUPYTER_PATH``. The server stops when its standard input closes: call :func:`stop`, or let
    this process exit.
    """
    import subprocess
    import tempfile
    from pathlib import Path

    if not available():
        return None
    directory = tempfile.mkdtemp(prefix="metabits-kernels-")
    path = write_spec(directory)
    server = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "serve", path],
                              stdin=subprocess.PIPE)
    _set_jupyter_path(os.environ, directory, first=True)
    server.spec_dir = directory
    return server


def stop(server) -> None:
    """Stop a server of :func:`start`; take its kernel spec off ``JUPYTER_PATH`` and delete it."""
    if server is None:
        return
    server.stdin.close()
    try:
        server.wait(timeout=10)
    except Exception:
        server.kill()
        server.wait()
    _set_jupyter_path(os.environ, server.spec_dir, first=False)
    import shutil

    shutil.rmtree(server.spec_dir, ignore_errors=True)


if __name__ == "__main__":
    del sys.path[0]  # this file's folder: the server's modules come from where a kernel's do
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        client(sys.argv[2], sys.argv[3:])
