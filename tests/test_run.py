"""``textclean run`` as an agent's shell runs it: a subprocess, real programs, real pipes and ptys."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from textclean import clean, has_terminal_noise
from textclean.integrations.run import Captured, Options, capture, write_stream
from textclean.pipeline.probe import bytes_have_terminal_noise

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = Path(__file__).resolve().parent.parent
TEXTCLEAN = [sys.executable, "-m", "textclean"]


def _run(*args: str, stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*TEXTCLEAN, "run", *args], input=stdin, capture_output=True, timeout=timeout, cwd=ROOT)


def test_exit_status_and_each_stream_cleaned_on_its_own() -> None:
    out, err = FIXTURES / "pytest_failures.raw", FIXTURES / "gcc_errors.raw"
    proc = _run("--", "sh", "-c", f"cat '{out}'; cat '{err}' >&2; exit 3")
    assert proc.returncode == 3
    expected_out, expected_err = clean(out.read_bytes()), clean(err.read_bytes())
    assert expected_out.applied and expected_err.applied  # both streams had something to clean
    assert proc.stdout == expected_out.text
    assert proc.stderr == expected_err.text


def test_output_without_noise_comes_back_byte_for_byte() -> None:
    data = b"plain\r\nbytes \xff\xfe not utf-8\n" * 50
    proc = _run("--", sys.executable, "-c", f"import sys; sys.stdout.buffer.write({data!r})")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, data, b"")


def test_one_stream_keeps_the_order_written_and_cleans_it_as_one() -> None:
    script = "echo out1; sleep 0.05; echo err1 >&2; sleep 0.05; echo out2; exit 3"
    proc = _run("--one-stream", "--", "sh", "-c", script)
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, b"out1\nerr1\nout2\n", b"")
    out = FIXTURES / "pytest_failures.raw"
    proc = _run("--one-stream", "--", "sh", "-c", f"cat '{out}' >&2")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, clean(out.read_bytes()).text, b"")


def _on_a_terminal(*args: str) -> tuple[int, bytes]:
    """``textclean run ARGS`` with a terminal for stdout and stderr, as a host's interactive PTY gives."""
    import pty

    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([*TEXTCLEAN, "run", *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                                cwd=ROOT)
    finally:
        os.close(slave)
    output = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer is gone
            break
        if not chunk:
            break
        output += chunk
    os.close(master)
    return proc.wait(timeout=60), output


def test_tty_passthrough_runs_the_command_on_the_terminal_itself() -> None:
    script = r"test -t 1 && echo on-a-terminal; printf '\033[31mred\033[0m\n'; exit 5"
    assert _on_a_terminal("--tty-passthrough", "--", "sh", "-c", script) == (
        5, b"on-a-terminal\r\n\x1b[31mred\x1b[0m\r\n")
    status, output = _on_a_terminal("--", "sh", "-c", script)  # without it: captured through pipes
    assert status == 5 and b"on-a-terminal" not in output
    proc = _run("--tty-passthrough", "--", "sh", "-c", script)  # no terminal: captured as ever
    assert (proc.returncode, proc.stdout) == (5, b"\x1b[31mred\x1b[0m\n")


def test_standard_input_passes_through() -> None:
    proc = _run("--", "tr", "a-z", "A-Z", stdin=b"hello\n")
    assert (proc.returncode, proc.stdout) == (0, b"HELLO\n")


BAR = r"""
import os, sys
size = os.get_terminal_size()
print(f"terminal {size.columns}x{size.lines} stdout-is-a-tty={sys.stdout.isatty()}")
for percent in range(0, 101, 4):
    sys.stdout.write(f"\rDownloading model.bin |{'#' * (percent // 4):<25}| {percent:3d}% of 42 MB")
    sys.stdout.flush()
print()
print("saved model.bin")
"""


def test_pty_run_prints_the_last_frame_once_at_the_size_given() -> None:
    proc = _run("--pty", "--size", "100x30", "--min-tokens", "0", "--", sys.executable, "-c", BAR)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        b"terminal 100x30 stdout-is-a-tty=True\n"
        b"Downloading model.bin |#########################| 100% of 42 MB\n"
        b"saved model.bin\n"
    )


def test_pty_output_is_what_the_gate_makes_of_the_raw_bytes(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    proc = _run("--pty", "--size", "100x30", "--raw", str(raw), "--", sys.executable, "-c", BAR)
    assert proc.returncode == 0
    assert b"\r" in raw.read_bytes()
    assert proc.stdout == clean(raw.read_bytes(), columns=100, rows=30, fresh=True).text


def test_raw_file_keeps_the_exact_bytes(tmp_path: Path) -> None:
    raw = tmp_path / "raw.bin"
    data = (FIXTURES / "pip_download.raw").read_bytes()
    proc = _run("--raw", str(raw), "--", "cat", str(FIXTURES / "pip_download.raw"))
    assert proc.returncode == 0
    assert raw.read_bytes() == data
    assert proc.stdout == clean(data).text != data


@pytest.mark.parametrize(("pty", "signum"), [(False, signal.SIGTERM), (True, signal.SIGTERM), (False, signal.SIGINT)])
def test_terminated_run_still_prints_what_was_written(pty: bool, signum: int) -> None:
    script = "echo started; printf '\\033[32mstill here\\033[0m\\n' >&2; sleep 30; echo never"
    argv = [*TEXTCLEAN, "run", *(["--pty"] if pty else []), "--", "sh", "-c", script]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               cwd=ROOT)
    time.sleep(2)
    start = time.monotonic()
    process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=20)
    assert time.monotonic() - start < 5  # forwarded: the command did not run its 30 s
    assert process.returncode == 128 + signum
    assert stdout.splitlines()[0] == b"started"
    assert b"never" not in stdout
    # Below min_tokens: the gate leaves it raw, and raw is what comes back.
    assert b"\x1b[32mstill here\x1b[0m" in (stdout if pty else stderr)


def test_command_killed_by_a_signal_exits_128_plus_n() -> None:
    proc = _run("--", "sh", "-c", "kill -KILL $$")
    assert proc.returncode == 128 + signal.SIGKILL


def test_missing_command_is_127_and_one_line() -> None:
    proc = _run("--", "no-such-command-textclean")
    assert proc.returncode == 127
    assert proc.stderr.count(b"\n") == 1 and proc.stderr.startswith(b"textclean run: cannot run")


def test_no_command_is_a_usage_error() -> None:
    proc = _run()
    assert proc.returncode == 2 and b"no command given" in proc.stderr


def test_large_output_is_spooled_to_a_file_and_written_whole(tmp_path: Path) -> None:
    data = (FIXTURES / "pip_download.raw").read_bytes() * 8
    source = tmp_path / "big.raw"
    source.write_bytes(data)
    status, streams = capture(["cat", str(source)], Options(spool_bytes=4096))
    try:
        assert status == 0
        assert streams[0].size == len(data)
        assert streams[0].spool.on_disk
        assert _written(streams[0], tmp_path) == clean(data).text
    finally:
        for stream in streams:
            stream.spool.close()


def _written(stream: Captured, tmp_path: Path) -> bytes:
    """What write_stream writes of a captured stream (cleaned or raw), read back from a file."""
    written = tmp_path / "out"
    with written.open("wb") as out:
        write_stream(stream, out, Options(spool_bytes=4096))
    return written.read_bytes()


def test_large_output_stays_whole_where_no_temporary_file_can_be_made(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # Codex's read-only sandbox: "No usable temporary directory found", and textclean runs inside it.
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "no such directory"))
    data = (FIXTURES / "pip_download.raw").read_bytes() * 8
    source = tmp_path / "big.raw"
    source.write_bytes(data)
    status, streams = capture(["sh", "-c", f"cat '{source}'; exit 4"], Options(spool_bytes=4096))
    try:
        assert (status, streams[0].size, streams[0].spool.on_disk) == (4, len(data), False)
        assert _written(streams[0], tmp_path) == clean(data).text
    finally:
        for stream in streams:
            stream.spool.close()


def test_bytes_probe_agrees_with_the_text_probe_on_the_captures() -> None:
    for path in sorted(FIXTURES.glob("*.raw")):
        data = path.read_bytes()
        assert bytes_have_terminal_noise(data) == has_terminal_noise(data.decode("utf-8", "surrogateescape")), path
        plain = data.replace(b"\x1b", b"").replace(b"\x08", b"").replace(b"\r", b"")
        assert bytes_have_terminal_noise(plain) == has_terminal_noise(plain.decode("utf-8", "surrogateescape"))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([b"\x1b", b"\x08", b"\r", b"\n", b"\xc2", b"\x9b", b"\x80", b"\xa0", b"\xe2",
                                 b"\x82", b"a", b" ", b"\xc3\xa9", b"\xff"]), max_size=12).map(b"".join))
def test_bytes_probe_agrees_with_the_text_probe(data: bytes) -> None:
    assert bytes_have_terminal_noise(data) == has_terminal_noise(data.decode("utf-8", "surrogateescape"))


def test_clean_output_is_answered_without_importing_the_pipeline() -> None:
    code = (
        "import sys; from textclean.cli import main; status = main(['run', '--', 'echo', 'plain']);"
        "sys.stdout.flush(); print(sorted(m for m in sys.modules if m.startswith('textclean.pipeline.')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60, cwd=ROOT, check=True)
    assert proc.stdout == b"plain\n['textclean.pipeline.probe']\n"


def test_pty_size_defaults_to_80x24_without_a_terminal() -> None:
    code = "import os; s = os.get_terminal_size(); print(s.columns, s.lines)"
    proc = subprocess.run([*TEXTCLEAN, "run", "--pty", "--", sys.executable, "-c", code], capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=60, cwd=ROOT)
    assert proc.stdout == b"80 24\n"


def _documented_agent_file() -> str:
    doc = (ROOT / "docs" / "integration.md").read_text()
    block = doc.split("<!-- textclean-agent.sh -->\n```bash\n", 1)[1]
    return block.split("\n```", 1)[0] + "\n"


def test_documented_shell_functions_send_tools_through_textclean_run(tmp_path: Path) -> None:
    agent_file = tmp_path / "textclean-agent.sh"
    agent_file.write_text(_documented_agent_file())
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    # `textclean` as installed, for this checkout; `make` a program that writes a real capture and fails.
    shim = bin_dir / "textclean"
    shim.write_text(f"#!/bin/sh\nPYTHONPATH='{ROOT}' exec '{sys.executable}' -m textclean \"$@\"\n")
    make = bin_dir / "make"
    make.write_text(f"#!/bin/sh\ncat '{FIXTURES / 'pytest_failures.raw'}'\necho \"args: $*\" >&2\nexit 2\n")
    for path in (shim, make):
        path.chmod(0o755)
    env = {**os.environ, "BASH_ENV": str(agent_file), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    script = "make -j2 'all tests' && echo never; echo \"status $?\"; type -t make; command make >/dev/null 2>&1"
    proc = subprocess.run(["bash", "-c", script], capture_output=True, env=env, timeout=60, cwd=tmp_path)
    expected = clean((FIXTURES / "pytest_failures.raw").read_bytes())
    assert expected.applied
    assert proc.stdout == expected.text + b"status 2\nfunction\n"
    assert proc.stderr == b"args: -j2 all tests\n"
    assert proc.returncode == 2  # `command make` ran the program itself


def test_what_the_command_leaves_running_does_not_hold_the_output_back() -> None:
    start = time.monotonic()
    proc = _run("--", "sh", "-c", "(sleep 4 &); echo started; exit 5", timeout=30)
    assert time.monotonic() - start < 3.5  # the orphan holds the pipe for 4 s
    assert (proc.returncode, proc.stdout) == (5, b"started\n")
