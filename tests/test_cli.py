"""The command line: bytes in, bytes out."""

import json
import subprocess
import sys

GREP_BYTES = (
    b"\x1b[35m\x1b[Kfile.txt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K\x1b[32m\x1b[K3\x1b[m\x1b[K\x1b[36m\x1b[K:"
    b"\x1b[m\x1b[K caf\xc3\xa9 \xff\xfe raw \x1b[01;31m\x1b[Kmatch\x1b[m\x1b[K end\n"
) * 12


def run(*args, stdin=b""):
    return subprocess.run(
        [sys.executable, "-m", "textclean", *args], input=stdin, capture_output=True, timeout=60
    )


def test_invalid_utf8_round_trips_through_a_cleaning():
    proc = run(stdin=GREP_BYTES)
    assert proc.returncode == 0
    line = b"file.txt:3: caf\xc3\xa9 \xff\xfe raw match end\n"
    assert proc.stdout == line * 12


def test_refusal_writes_the_input_bytes_unchanged_and_exits_zero():
    data = b"plain \xff\xfe bytes\r\n" * 30
    proc = run("--explain", stdin=data)
    assert proc.returncode == 0
    assert proc.stdout == data
    assert b"refused: no_terminal_noise" in proc.stderr


def test_explain_reports_tokens_and_reason(tmp_path):
    path = tmp_path / "grep.raw"
    path.write_bytes(GREP_BYTES)
    proc = run("--explain", str(path))
    assert proc.returncode == 0
    assert b"applied" in proc.stderr and b"tokens" in proc.stderr


def test_min_tokens_option():
    proc = run("--min-tokens", "100000", "--explain", stdin=GREP_BYTES)
    assert proc.stdout == GREP_BYTES
    assert b"below_min_tokens" in proc.stderr


def test_max_chars_option():
    proc = run("--max-chars", "100", "--explain", stdin=GREP_BYTES)
    assert proc.stdout == GREP_BYTES
    assert b"too_large" in proc.stderr


def test_missing_file_is_a_clear_error():
    proc = run("/nonexistent/file")
    assert proc.returncode == 2
    assert b"cannot read /nonexistent/file" in proc.stderr


def test_nul_bytes_are_refused_not_lost():
    data = GREP_BYTES + b"\x00binary\x00"
    proc = run("--explain", stdin=data)
    assert proc.returncode == 0
    assert proc.stdout == data
    assert b"unsupported_control" in proc.stderr


def test_help():
    proc = run("--help")
    assert proc.returncode == 0
    assert b"--min-tokens" in proc.stdout and b"--explain" in proc.stdout


def test_version():
    import textclean

    proc = run("--version")
    assert proc.returncode == 0
    assert proc.stdout.decode().split()[:2] == ["textclean", textclean.__version__]


def test_several_files_are_cleaned_one_after_the_other_like_cat(tmp_path):
    plain = b"plain \xff line\n" * 5
    (tmp_path / "a.raw").write_bytes(GREP_BYTES)
    (tmp_path / "b.raw").write_bytes(plain)
    one = run(str(tmp_path / "a.raw")).stdout
    proc = run("--explain", "--json", str(tmp_path / "a.raw"), str(tmp_path / "missing"), str(tmp_path / "b.raw"))
    assert proc.returncode == 2  # the missing file, reported; the others still written
    assert proc.stdout == one + plain
    lines = [line for line in proc.stderr.decode().splitlines() if line.startswith("{")]
    verdicts = [json.loads(line) for line in lines]
    assert [v["file"].rsplit("/", 1)[-1] for v in verdicts] == ["a.raw", "b.raw"]
    assert verdicts[0]["applied"] is True and verdicts[0]["tokens_after"] < verdicts[0]["tokens_before"]
    assert verdicts[0]["removed"]["escape_sequences"] > 0
    assert verdicts[1]["reason"] == "below_min_tokens"
    assert b"cannot read" in proc.stderr


def _offline_env(tmp_path):
    """No tiktoken cache and a proxy that refuses: tiktoken cannot download an encoding here."""
    import os

    env = dict(os.environ, TIKTOKEN_CACHE_DIR=str(tmp_path / "cache"), HTTPS_PROXY="http://127.0.0.1:9",
               HTTP_PROXY="http://127.0.0.1:9", NO_PROXY="")
    env.pop("DATA_GYM_CACHE_DIR", None)
    return env


def test_an_unknown_or_unloadable_tokenizer_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "grep.raw"
    path.write_bytes(GREP_BYTES)
    for command in ([], ["measure"]):
        for name, says in (("nonsense", "unknown encoding 'nonsense'"), ("r50k_base", "cannot load encoding")):
            proc = subprocess.run(
                [sys.executable, "-m", "textclean", *command, "--tokenizer", name, str(path)],
                capture_output=True, timeout=60, env=_offline_env(tmp_path),
            )
            assert proc.returncode == 2, (command, name, proc.stderr)
            assert proc.stdout == b""
            lines = proc.stderr.decode().splitlines()
            assert len(lines) == 1 and says in lines[0] and "o200k_base" in lines[0], (command, name, lines)


def test_the_tokenizer_error_is_a_value_error_callers_can_catch():
    import pytest

    import textclean

    with pytest.raises(textclean.TokenizerError, match="unknown encoding"):
        textclean.TextClean(tokenizer="nonsense", min_tokens=0).clean("\x1b[1mx\x1b[m\n" * 40)
    assert issubclass(textclean.TokenizerError, ValueError)


def test_explain_is_one_readable_line_per_file(tmp_path):
    path = tmp_path / "grep.raw"
    path.write_bytes(GREP_BYTES)
    plain = tmp_path / "plain.txt"
    plain.write_bytes(b"plain text\n" * 40)
    proc = run("--explain", str(path), str(plain))
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 2, lines
    applied, refused = lines
    assert "Removed(" not in applied and "=" not in applied  # no Python repr
    sequences = GREP_BYTES.count(b"\x1b")
    assert applied.endswith(f"; removed {sequences} escape sequences ({sum(len(m) for m in _escapes())} characters)")
    assert refused.startswith("textclean: refused: no_terminal_noise; tokens ") and "removed" not in refused


def _escapes():
    import re

    return re.findall(rb"\x1b\[[0-9;]*[mK]", GREP_BYTES)
