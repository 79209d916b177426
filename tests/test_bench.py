"""The benchmark harness runs end to end (timings themselves are not asserted)."""

from ikviz.bench import bench_kernel, format_row, measure_one


def test_measure_one_reports_time_memory_and_shape():
    row = measure_one("ikviz", "anne", n=3000, d=5, t=20, psi=16)
    assert row["shape"] == [3000, 320] and row["nnz"] == 3000 * 20  # one cell per row and partitioning
    assert {"seconds", "warmup_s", "peak_extra_mb"} <= set(row) and row["impl"] == "ikviz"


def test_bench_kernel_in_child_processes():
    lines = []
    rows = bench_kernel(sizes=(2500,), methods=("iforest",), d=4, t=10, psi=8, repeats=1, peer=False,
                        echo=lines.append)
    assert rows[0]["ikviz_s"] > 0 and "ikviz" in lines[0]
    assert "ratio" in format_row({**rows[0], "ikpykit_s": 1.0, "ikpykit_peak_mb": 1.0, "speedup": 2.0})
