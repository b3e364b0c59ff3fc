"""Cost of the book's explorers (not a test): for each explorer of metabits_book.explore, the
number of settings on its grid, the time to compute every frame and write the static HTML
(what the book build does per explorer), its size in the page, and the time of one live redraw
in a kernel (the view plus the matplotlib PNG).

Run: python scripts/bench_explorers.py
"""

import time

from metabits_book import explore

EXPLORERS = [getattr(explore, name) for name in explore.__all__ if name.endswith("_explorer")]


def best_of(fn, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main():
    print(f"{'explorer':<28s} {'settings':>8s} {'static HTML':>12s} {'size':>9s} "
          f"{'live redraw':>12s}")
    total = 0
    for make in EXPLORERS:
        e = make()
        t_html, page = best_of(lambda: explore.static_html(e))
        size = len(page.encode())
        total += size
        t_live, _ = best_of(lambda: explore.kernel._png(explore.to_matplotlib(e, e.view())))
        print(f"{e.key:<28s} {len(explore.grid(e)):8d} {t_html:10.2f} s {size / 1e3:7.0f} kB "
              f"{t_live * 1e3:9.0f} ms")
    print(f"all explorers' HTML together: {total / 1e6:.2f} MB "
          f"(plotly.min.js, shared by every page: "
          f"{explore.plotly_js_path().stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
