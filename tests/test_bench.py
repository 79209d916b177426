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


def test_bench_floor_prints_the_peak_the_floor_and_the_ratios():
    from ikviz.bench import bench_floor

    lines = []
    out = bench_floor(n=2000, d=4, t=10, psi=8, repeats=1, peers=True, echo=lines.append)
    assert out["sgemm_gflops"] > 0
    assert abs(out["floor_s"] - 2 * 2000 * 10 * 8 * 4 / (out["sgemm_gflops"] * 1e9)) < 1e-12
    assert {"ikviz anne cells", "ikviz iforest cells", "ikviz anne fit + transform"} <= set(out["times"])
    assert any("scikit-learn" in name for name in out["times"])     # always installed: a peer is timed
    text = "\n".join(lines)
    assert "GFLOP/s" in text and "x the floor" in text and "faster" in text
