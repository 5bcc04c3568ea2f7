"""`python -m benchmarks.stream` on a tiny size runs and reports every field (no timing is asserted here:
the numbers live in its output, docs/benchmarks.md and the issue)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_stream_benchmark_reports_memory_cost_and_every_stamped_line() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))
    proc = subprocess.run([sys.executable, "-m", "benchmarks.stream", "--size", "1", "--slice", "1", "--lines", "4",
                           "--json"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    streams = result["memory"]["streams"]
    assert [row["display"] for row in streams] == ["no terminal", "terminal 80x24"]
    for row in streams:
        assert row["in_bytes"] == 1 << 20
        assert set(row["peak_kb"]) == {"0", "10", "50", "100"}
        assert all(value > 0 for value in row["peak_kb"].values())
        assert row["cpu_s_per_mb"] > 0
    # the stream cleans as it goes, for no terminal and at a terminal's size (cut points at both)
    assert all(0 < row["out_bytes"] < row["in_bytes"] for row in streams)
    one_shot = result["memory"]["slice"]
    assert one_shot["clean_applied"] is True, one_shot["clean_reason"]
    assert 0 < one_shot["clean_out_chars"] < one_shot["in_chars"]
    assert one_shot["clean_cpu_s_per_mb"] > 0 and one_shot["stream_cpu_s_per_mb"] > 0
    # every stamped line the child wrote came out of textclean run and textclean -f, each with its latency
    expected = {"steady": 4, "colour": 4, "burst": 40, "progress": 2}
    rows = {(row["mode"], row["pattern"]): row for row in result["latency"]}
    assert set(rows) == {(mode, pattern) for mode in ("run", "follow") for pattern in expected}
    for (_, pattern), row in rows.items():
        assert row["lines"] == expected[pattern], row
        assert 0 <= row["p50_ms"] <= row["p99_ms"] <= row["max_ms"]
