"""``textclean run`` through pipes, ``textclean run --pty`` and ``textclean --follow`` write each line as
it settles, before the command ends (issue 40). Ordering, not speed: the child waits on its standard
input after its first line, and the test reads that line from textclean's output before it lets the
child go on."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from textclean import clean

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
TEXTCLEAN = [sys.executable, "-m", "textclean"]
WAIT = 30.0  # a bound on a hang, not a measurement: the line is there long before

# prints a line, waits for a line on stdin, prints another
CHILD = ("import sys; out = getattr(sys, sys.argv[1]); out.write(sys.argv[2] + '\\n'); out.flush(); "
         "sys.stdin.readline(); out.write('second \\x1b[32mline\\x1b[0m\\n'); out.flush()")


def read_line(fd: int) -> bytes:
    """One line from ``fd``, read as it comes; b"" if none came within WAIT."""
    got = b""
    while not got.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], WAIT)
        if not ready:
            return b""
        chunk = os.read(fd, 1)
        if not chunk:
            break
        got += chunk
    return got


@pytest.mark.parametrize("where", ["stdout", "stderr"])
@pytest.mark.parametrize(("first", "expected"), [
    ("plain first line", b"plain first line\n"),
    ("\x1b[1mbuilding\x1b[0m 1/2", b"building 1/2\n"),
])
def test_run_writes_the_first_line_before_the_command_ends(where: str, first: str, expected: bytes) -> None:
    process = subprocess.Popen([*TEXTCLEAN, "run", "--min-tokens", "0", "--", sys.executable, "-c", CHILD,
                                where, first], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=ROOT)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    try:
        line = read_line((process.stdout if where == "stdout" else process.stderr).fileno())
        assert process.poll() is None  # the child still waits for us
        assert line == expected
        process.stdin.write(b"go on\n")
        process.stdin.close()
        rest = (process.stdout if where == "stdout" else process.stderr).read()
        assert rest == b"second line\n"
        assert process.wait(timeout=WAIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize(("first", "expected"), [
    ("plain first line", b"plain first line\n"),
    ("\x1b[1mbuilding\x1b[0m 1/2", b"building 1/2\n"),
])
def test_run_pty_writes_the_first_line_before_the_command_ends(first: str, expected: bytes) -> None:
    """Through a pty of a known size the stream is cut at rows that settled (the spooled path wrote
    nothing until the command ended: this read would find no line while the child waits)."""
    process = subprocess.Popen([*TEXTCLEAN, "run", "--pty", "--size", "80x24", "--min-tokens", "0", "--",
                                sys.executable, "-c", CHILD, "stdout", first], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert process.stdin is not None and process.stdout is not None
    try:
        line = read_line(process.stdout.fileno())
        assert process.poll() is None  # the child still waits for us
        assert line == expected
        process.stdin.write(b"go on\n")
        process.stdin.close()
        assert process.stdout.read() == b"second line\n"
        assert process.wait(timeout=WAIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_run_pty_keeps_the_exit_status_and_the_raw_copy(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    script = "printf 'a \\033[1mbold\\033[0m line\\n50%%\\r100%%\\n'; exit 7"
    proc = subprocess.run([*TEXTCLEAN, "run", "--pty", "--size", "40x10", "--min-tokens", "0", "--raw", str(raw),
                           "--", "sh", "-c", script], capture_output=True, cwd=ROOT, timeout=WAIT, check=False)
    assert proc.returncode == 7
    assert raw.read_bytes() == b"a \x1b[1mbold\x1b[0m line\n50%\r100%\n"
    assert proc.stdout == clean(raw.read_bytes(), columns=40, rows=10, fresh=True, min_tokens=0).text
    assert proc.stdout == b"a bold line\n100%\n"


def test_run_keeps_the_exit_status_and_the_raw_copy(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    data = (FIXTURES / "pytest_failures.raw").read_bytes()
    proc = subprocess.run([*TEXTCLEAN, "run", "--raw", str(raw), "--", "sh", "-c",
                           f"cat '{FIXTURES / 'pytest_failures.raw'}'; exit 7"], capture_output=True, cwd=ROOT,
                          timeout=60)
    assert proc.returncode == 7
    assert raw.read_bytes() == data
    assert proc.stdout == clean(data).text != data


def test_follow_streams_standard_input() -> None:
    process = subprocess.Popen([*TEXTCLEAN, "--follow", "--min-tokens", "0"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, cwd=ROOT)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"step \x1b[1mone\x1b[0m\n50%\r")
        process.stdin.flush()
        assert read_line(process.stdout.fileno()) == b"step one\n"  # while stdin is still open
        process.stdin.write(b"100%\n")
        process.stdin.close()
        assert process.stdout.read() == b"100%\n"
        assert process.wait(timeout=WAIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


@pytest.mark.parametrize("name", ["pip_download", "rich_progress", "pytest_failures", "session_bash"])
def test_follow_on_a_capture_is_one_shot_clean_or_as_lossless(name: str) -> None:
    import oracle

    path = FIXTURES / f"{name}.raw"
    if not path.exists():
        path = FIXTURES / "sessions" / f"{name}.raw"
    data = path.read_bytes()
    proc = subprocess.run([*TEXTCLEAN, "-f"], input=data, capture_output=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0
    one_shot = clean(data, terminal=False)
    assert proc.stdout == one_shot.text or oracle.check_lossless(data, proc.stdout, terminal=False).ok


def test_follow_takes_no_files() -> None:
    proc = subprocess.run([*TEXTCLEAN, "-f", "x.log"], capture_output=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count(b"\n") == 1


def test_a_cleaning_error_leaves_the_rest_as_it_came(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from textclean.integrations.follow import Follower

    def broken(text: str) -> int:
        raise RuntimeError("no tokenizer here")

    data = [b"plain line\n", b"\x1b[1mbold\x1b[0m line\n", b"more \x1b[32mgreen\x1b[0m\n", b"tail"]
    out = io.BytesIO()
    follower = Follower(out, min_tokens=5, tokenizer=broken)
    for chunk in data:
        follower.write(chunk)
    follower.close()
    assert out.getvalue() == b"".join(data)
    assert capsys.readouterr().err.count("\n") == 1
