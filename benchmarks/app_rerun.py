"""How long a page takes to rerun after a control changes (server side, AppTest).

Run from the repository root: ``python benchmarks/app_rerun.py [PAGE ...]``
(pages: kernel_shapes, density; default all). Prints the script time of each
rerun; the browser adds Plotly drawing on top.
"""

import statistics
import sys
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

HOME = str(Path(__file__).resolve().parents[1] / "app" / "Home.py")

# page -> steps (description, widget kind, key, value); each step starts from the state the previous one left
STEPS = {"kernel_shapes": [
    ("ψ 64 → 128 (new kernels)", "select_slider", "_w_psi", 128),
    ("ψ 128 → 64 (cached)", "select_slider", "_w_psi", 64),
    ("reference x → 0.3", "slider", "_w_ref_x", 0.3),
    ("reference y → -0.4", "slider", "_w_ref_y", -0.4),
    ("RBF γ → 3", "select_slider", "_w_gamma", 3.0),
    ("t 200 → 500 (new kernels)", "select_slider", "_w_t", 500),
    ("partitioning → 5", "slider", "_w_part", 5),
    ("seed → 1 (new data and kernels)", "number_input", "_w_seed", 1),
], "density": [
    ("ψ 32 → 16 (new kernels)", "select_slider", "_w_psi", 16),
    ("reference x → 0.3", "slider", "_w_ref_x", 0.3),
    ("probe S2 x → 0.3", "number_input", "_w_s2x", 0.3),
    ("RBF γ → 3", "select_slider", "_w_gamma", 3.0),
    ("t 1000 → 500 (new kernels)", "select_slider", "_w_t", 500),
    ("seed → 1 (new data and kernels)", "number_input", "_w_seed", 1),
]}


def main(page: str, repeats: int = 3) -> None:
    at = AppTest.from_file(HOME, default_timeout=300)
    at.run()
    at.switch_page(f"views/{page}.py")
    start = time.perf_counter()
    at.run()
    print(f"{page}: first render (cold caches): {time.perf_counter() - start:.2f} s")
    for label, kind, key, value in STEPS[page]:
        times = []
        for i in range(repeats):
            # alternate between the target and the previous value so every repeat is a real change
            widget = getattr(at, kind)(key=key)
            previous = widget.value
            widget.set_value(value)
            start = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - start)
            if i < repeats - 1:
                getattr(at, kind)(key=key).set_value(previous)
                at.run()
        assert not at.exception, at.exception
        print(f"{label:<36} first {times[0]:.2f} s, then median {statistics.median(times[1:]):.2f} s")


if __name__ == "__main__":
    for name in sys.argv[1:] or STEPS:
        main(name)
