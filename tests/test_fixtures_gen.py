"""The pty capture harness, the loopback server and the fixtures_gen CLI."""

from __future__ import annotations

import hashlib
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from fixtures_gen import CATALOGUE, capture
from fixtures_gen.__main__ import generate
from fixtures_gen.__main__ import main as fixtures_gen_main
from fixtures_gen.catalogue import Entry, Invocation
from fixtures_gen.checks import CAPTURE_METADATA_KEYS
from fixtures_gen.servers import LoopbackServer

pytestmark = pytest.mark.pty


def test_window_size_is_honoured() -> None:
    result = capture(["stty", "size"], columns=77, lines=13, version_argv=())
    assert result.raw == b"13 77\r\n"
    assert (result.metadata["columns"], result.metadata["lines"]) == (77, 13)


def test_stderr_is_merged_in_order_and_exit_code_kept() -> None:
    script = "import sys; print('out', flush=True); print('err', file=sys.stderr, flush=True); sys.exit(3)"
    result = capture([sys.executable, "-c", script], version_argv=())
    assert result.raw == b"out\r\nerr\r\n"
    assert result.exit_code == 3
    assert result.metadata["exit_code"] == 3
    assert not result.timed_out


def test_timeout_kills_the_process_group() -> None:
    """The background child is killed with the shell (how fast: a row of ``benchmarks.bench --only captures``)."""
    result = capture(["sh", "-c", "sleep 100 & echo $!; sleep 100"], timeout=1.0, version_argv=())
    assert result.timed_out
    assert result.exit_code == -9
    child = int(result.raw.split()[0])
    assert not _still_running_after(child, seconds=10.0)


def _still_running_after(pid: int, seconds: float) -> bool:
    """Whether ``pid`` still runs after ``seconds``: SIGKILL is delivered asynchronously, and on a loaded
    machine the killed child may still be scheduled for a moment after the capture returns."""
    import time

    deadline = time.monotonic() + seconds
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _running(pid)


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie, killed but not yet reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_background_child_holding_the_pty_does_not_hold_up_the_capture() -> None:
    """Waiting for the pty to close would run into the timeout (20 s) before the child's 30 s end."""
    result = capture(["sh", "-c", "sleep 30 & echo done"], timeout=20.0, version_argv=())
    assert (result.raw, result.exit_code, result.timed_out) == (b"done\r\n", 0, False)


def test_env_and_term_are_honoured_over_a_minimal_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEAKED_FROM_CALLER", "yes")
    script = (
        'echo "$TERM|$FOO|$LC_ALL|${LEAKED_FROM_CALLER:-unset}|$COLUMNS"; test -t 0 && test -t 1 && echo tty'
    )
    result = capture(["sh", "-c", script], env={"FOO": "bar"}, term="vt100", columns=90, version_argv=())
    assert result.raw == b"vt100|bar|C.UTF-8|unset|90\r\ntty\r\n"
    assert result.metadata["term"] == "vt100"
    assert result.metadata["env"] == {"FOO": "bar"}


def test_invalid_utf8_comes_back_byte_exact() -> None:
    payload = b"ok \xff\xfe \xc3( \x1b[31mred\x1b[0m \xe2\x82"
    script = f"import sys; sys.stdout.buffer.write({payload!r}); sys.stdout.flush()"
    result = capture([sys.executable, "-c", script], version_argv=())
    assert result.raw == payload
    assert result.metadata["sha256"] == hashlib.sha256(payload).hexdigest()


def test_cwd_is_home_and_metadata_is_complete(tmp_path: Path) -> None:
    result = capture(["sh", "-c", 'pwd; echo "$HOME"'], cwd=tmp_path)
    assert result.raw == f"{tmp_path}\r\n{tmp_path}\r\n".encode()
    assert CAPTURE_METADATA_KEYS <= set(result.metadata)
    assert result.metadata["program_version"] is None  # dash has no --version: recorded as unknown
    assert capture(["grep", "-q", "x", "/dev/null"]).metadata["program_version"].startswith("grep")


def test_loopback_server_serves_on_127_0_0_1_and_stops() -> None:
    with LoopbackServer({"/blob": b"x" * 50_000}, chunk_size=10_000, chunk_delay=0.01) as server:
        assert server.url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(f"{server.url}/blob", timeout=10) as response:
            assert response.read() == b"x" * 50_000
        with urllib.request.urlopen(f"{server.url}/./blob", timeout=10) as response:  # as apt asks
            assert response.status == 200
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{server.url}/missing", timeout=10)
        assert missing.value.code == 404
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{server.url}/blob", timeout=2)


def test_every_catalogue_entry_says_whether_it_can_run() -> None:
    names = [entry.name for entry in CATALOGUE]
    assert len(names) == len(set(names))
    for entry in CATALOGUE:
        ok, reason = entry.available()
        assert ok or reason, entry.name


def test_cli_writes_raw_and_metadata(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert fixtures_gen_main(["--out", str(tmp_path), "diff_unified"]) == 0
    assert "written diff_unified" in capsys.readouterr().out
    raw = (tmp_path / "diff_unified.raw").read_bytes()
    metadata = json.loads((tmp_path / "diff_unified.json").read_text())
    assert metadata["name"] == "diff_unified"
    assert metadata["sha256"] == hashlib.sha256(raw).hexdigest()
    assert metadata["exit_code"] == 1
    assert b"\x1b[" in raw


def test_cli_lists_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    assert fixtures_gen_main(["--list"]) == 0
    listed = capsys.readouterr().out
    assert all(entry.name in listed for entry in CATALOGUE)


def test_cli_rejects_unknown_names() -> None:
    assert fixtures_gen_main(["--out", "unused", "no_such_entry"]) == 2


def test_an_entry_whose_program_is_missing_is_skipped_not_faked(tmp_path: Path) -> None:
    def never_called(tmp: Path) -> Invocation:
        raise AssertionError("setup of an unavailable entry ran")

    entry = Entry("ghost", "a program this machine lacks", never_called, ("no-such-program-fixtures-gen",))
    line = generate(entry, tmp_path)
    assert line == "skipped ghost: no-such-program-fixtures-gen not found on PATH"
    assert list(tmp_path.iterdir()) == []


def test_cli_captures_a_users_own_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    argv = ["--out", "out", "--capture", "mine", "--columns", "50", "--env", "GREP_COLORS=mt=01;32"]
    argv += ["--", "grep", "--color=always", "beta", "notes.txt"]
    assert fixtures_gen_main(argv) == 0
    assert "written mine" in capsys.readouterr().out
    assert (tmp_path / "out" / "mine.raw").read_bytes() == b"\x1b[01;32m\x1b[Kbeta\x1b[m\x1b[K\r\n"
    metadata = json.loads((tmp_path / "out" / "mine.json").read_text())
    assert metadata["columns"] == 50 and metadata["env"]["GREP_COLORS"] == "mt=01;32"


def test_steps_are_typed_when_the_output_asks_for_them() -> None:
    from fixtures_gen.pty_capture import Step

    script = "printf 'name? '; read name; printf 'again? '; read other; echo \"got $name/$other\""
    steps = [Step(b"ada\r", rb"name\? $", 0.1), Step(b"bob\r", rb"again\? $", 0.1)]
    result = capture(["sh", "-c", script], steps=steps, timeout=20.0, version_argv=())
    assert not result.timed_out
    assert result.raw.endswith(b"got ada/bob\r\n")
    assert result.metadata["keys"] == ["ada\r", "bob\r"]


def test_pending_wrap_counts_a_move_made_while_the_wrap_is_pending() -> None:
    """fixtures_gen.pending_wrap (pyte's model): a row filled to the width then CUU is counted with
    what follows it; one cell short of the width is not a dispute."""
    from fixtures_gen.pending_wrap import count

    full = count("x" * 10 + "\x1b[A\r" + "y" * 10 + "\x1b[1A\x1b[Kz", 10, 4)
    assert full.disputes == 2 and dict(full.pairs) == {("CUU", "CR"): 1, ("CUU", "EL"): 1}
    assert full.cuu_then_cr() == 1
    assert count("x" * 9 + "\x1b[A\r", 10, 4).disputes == 0
    assert dict(count("x" * 10 + "\b", 10, 4).pairs) == {("BS", "end"): 1}
