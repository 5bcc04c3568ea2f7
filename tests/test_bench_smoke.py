"""`python -m benchmarks.bench --quick` runs and prints every ratio line (no timing is asserted here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks.bench import ANSI_REGEX, strip_ansi

RATIO_LINES = (
    "inert path, LF 4 KB, tokens_before given",
    "inert path, LF 4 KB, tokens_before not given",
    "inert path, CRLF 64 KB, tokens_before given",
    "inert path, CRLF 64 KB, tokens_before not given",
    "clean+verify / ansi-regex port, fixtures (ANSI-heavy, all together)",
    "full gate / one encode_ordinary, fixtures (ANSI-heavy, all together)",
    "clean+verify / ansi-regex port, generated coloured log",
    "full gate / one encode_ordinary, generated coloured log",
    "pathological, largest ratio to coloured text",
    "pathological, largest growth t(4S)/4t(S)",
    "pathological, largest growth of clean+verify alone",
    "grammar, largest growth t(2S)/2t(S)",  # were tests/test_grammar.py's timed test
    "verifier, largest growth t(2S)/2t(S)",  # were tests/test_verify.py's timed tests
    "verifier, captures: no shortcut (the walk) / every shortcut (CPU)",  # issue 24: each shortcut's gain
    "verifier, recordings: no overlay / every shortcut (CPU)",
    "oracle throughput",
    "oracle.render / pyte ByteStream, time per byte",  # was tests/test_oracle_fixes.py's timed test
    "pty capture timing out after 1 s",  # were tests/test_fixtures_gen.py's wall-clock limits
    "pty capture, a background child holding the pty",
    "peak memory / input size, one 50 MB line",
    # issue 13's table and issue 17's counting rows
    "clean+verify (tokenizer len) / ansi-regex re.sub, all",
    "clean+verify (tokenizer len) / ansi-regex re.sub, adopted captures joined",
    "full gate, tokens_before given / one encode_ordinary, adopted captures joined",
    "full gate, tokens_before not given / one encode_ordinary",
    "inert path, fresh 1 MB CRLF text / '\\x1b' in s",
    "inert path, fresh 1 MB LF text / '\\x1b' in s",
    "peak memory / input, 16 MB of adopted captures",
    "counting MB/s, cl100k_base, tiktoken",
    "counting MB/s, o200k_base, tiktoken",
    "clean_many / one clean() at a time",
    # issue 27's table (captures, sessions at 160x40, the gate, inert text, memory, issue 23's families)
    "issue 27: clean+verify (len) / ansi-regex, committed captures x",
    "issue 27: clean+verify (len) / ansi-regex, sessions at 160x40",
    "issue 27: gate, tokens_before given / one encode, captures x",
    "issue 27: gate, tokens_before given / one encode, sessions at 160x40",
    "issue 27: clean() on inert",
    "issue 27: peak memory / input, adopted captures",
    "issue 27: clean() (len) at 80x24, s/MB at",
    "issue 27: clean() (len) at 80x24, s/MB growth",
    # issue 25: the hook as an agent runs it
    "hook latency / python -c pass, clean Bash output",
    "hook latency / python -c pass, noisy pip output",
)


ROOT = Path(__file__).resolve().parent.parent


def test_quick_bench_prints_every_ratio() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench", "--quick"],
        capture_output=True, text=True, timeout=300, check=True, cwd=ROOT,
    )
    table = run.stdout.split("\nratio ", 1)[1]
    for label in RATIO_LINES:
        assert label in table, label
    assert "Traceback" not in run.stderr


def test_ansi_regex_port_matches_what_strip_ansi_does() -> None:
    # Cases from ansi-regex's own tests and readme.
    assert strip_ansi("\x1b[4mcake\x1b[0m") == "cake"
    assert strip_ansi("\x1b]8;;https://github.com\x07click\x1b]8;;\x07") == "click"
    assert strip_ansi("\x1b]8;;https://github.com\x1b\\click\x1b]8;;\x1b\\") == "click"  # 6.1.0: ST ends OSC
    assert strip_ansi("\x9b31mred\x9b0m") == "red"
    assert strip_ansi("\x1b[38;2;255;0;0mtruecolor\x1b[m") == "truecolor"
    assert ANSI_REGEX.findall("\x1b[1;2;3;4;5K") == ["\x1b[1;2;3;4;5K"]
    assert strip_ansi("\x1b[٣m") == "\x1b[٣m"  # JavaScript's \d is ASCII only


def test_sessions_saving_measures_a_recording_and_judges_it_with_tmux(tmp_path: Path) -> None:
    """`python -m benchmarks.sessions_saving` on one committed session: a row with its size, the
    oracle's ideal below the raw tokens, the tmux judge's verdict, and a summary per kind."""
    import json

    from oracle import tmux

    out = tmp_path / "saving.json"
    argv = [sys.executable, "-m", "benchmarks.sessions_saving", "--no-peers", "--material", str(tmp_path),
            "--match", "session_man", "--json", str(out)]
    if not tmux.available():
        argv.append("--no-tmux")
    subprocess.run(argv, check=True, capture_output=True, cwd=Path(__file__).resolve().parent.parent, timeout=300)
    report = json.loads(out.read_text())
    [row] = report["rows"]
    assert (row["name"], row["size"]) == ("session_man", "80x16")
    assert 0 < row["ideal"] < row["before"]
    run = row["runs"]["plain"]
    assert run["judged"] == (run["adopted"] and tmux.available())
    assert report["summaries"][0]["kinds"]["captured"]["recordings"] == 1
