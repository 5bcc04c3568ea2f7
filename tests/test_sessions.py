"""The committed whole-session captures (tests/fixtures/sessions): real bytes, their size, the
command that regenerates them, and what the oracle shows for them at that size."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import oracle
from fixtures_gen.__main__ import BY_NAME
from fixtures_gen.checks import Session, load_sessions
from oracle.asciicast import read_asciicast

SESSIONS_DIR = Path(__file__).resolve().parent / "fixtures" / "sessions"
SESSIONS = load_sessions(SESSIONS_DIR)

# Lines a person saw on the terminal during each session (checked against the oracle's shown lines).
SEEN = {
    "session_bash": [
        "$ clear",
        "Successfully installed demo-weights-1.0",
        "layer 29 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 100% 0:00:00",
        "30 layers converted",
        "FAILED test_orders.py::test_parse_quantity - ValueError: invalid literal for int() with base 10: 'three'",
        "+def greet(name: str) -> str:",
        "$ exit",
    ],
    "session_less": ["0001 INFO request served in 1 ms", "0200 INFO request served in 2 ms"],
    "session_vim": ["new first line", "0037 ERROR disk quota exceeded", '"server.log" 200L, 6574B written'],
    "session_man": ["NAME", "EXIT STATUS"],
    "session_top": ["top - ", "  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND"],
    "session_apt_fancy": ["Setting up demo-doc (1.0) ...", "Processing triggers for man-db (2.11.2-2) ..."],
    "session_asciinema": ["downloading", "30 shards fetched"],
    "session_asciinema_shell": ["$ python fetch.py", "30 shards fetched", "$ exit"],
    "session_tb_uv": [
        "root@7f3e9c2a1b4d:/app# uv pip install",
        "Installed 5 packages in ",
        " + pandas==2.2.3",
        "FAILED tests/test_orders.py::test_parse_quantity - ValueError",
        "model-00001-of-00003.safetensors: 100%|",
        "root@7f3e9c2a1b4d:/app# exit",
    ],
    "session_tb_apt": [
        "Successfully downloaded numpy pygments",
        "Processing triggers for man-db (2.11.2-2) ...",
        "safetensors-0.4.3.whl ━━━━",
        "4 wheels downloaded",
        "root@7f3e9c2a1b4d:/app# exit",
    ],
}


def by_name(sessions: list[Session]) -> list[pytest.param]:
    return [pytest.param(session, id=session.name) for session in sessions]


def test_every_session_capture_is_committed_and_small() -> None:
    assert sorted(session.name for session in SESSIONS) == sorted(SEEN)
    total = sum(path.stat().st_size for path in SESSIONS_DIR.iterdir())
    assert total < 1_000_000


@pytest.mark.parametrize("session", by_name(SESSIONS))
def test_capture_matches_its_metadata(session: Session) -> None:
    metadata = session.metadata
    assert metadata["sha256"] == hashlib.sha256(session.path.read_bytes()).hexdigest()
    assert (session.columns, session.rows) == (metadata["columns"], metadata["lines"])
    entry = BY_NAME[session.name]  # python -m fixtures_gen NAME regenerates it
    assert (entry.columns, entry.lines, entry.subdir) == (session.columns, session.rows, "sessions")
    assert metadata["exit_code"] == 0


@pytest.mark.parametrize("session", by_name([s for s in SESSIONS if s.path.suffix == ".cast"]))
def test_asciicast_header_carries_the_size(session: Session) -> None:
    header = json.loads(session.path.read_text().splitlines()[0])
    assert header["version"] == 2 and header["env"]["TERM"] == "xterm-256color"
    assert read_asciicast(session.path.read_bytes()).columns == header["width"] == session.columns


@pytest.mark.parametrize("session", by_name(SESSIONS))
def test_the_oracle_shows_what_the_session_showed(session: Session) -> None:
    rendering = oracle.render(session.raw, columns=session.columns, lines=session.rows, flavour="tmux")
    shown = rendering.shown
    position = 0
    for line in SEEN[session.name]:
        matches = [i for i, text in enumerate(shown) if i >= position and text.startswith(line)]
        assert matches, f"{line!r} not shown (in order)"
        position = matches[0] + 1
    assert all(len(row) <= session.columns for row in rendering.screen)


def test_asciicast_reader_rejects_other_formats() -> None:
    with pytest.raises(ValueError):
        read_asciicast(b'{"version": 1, "width": 80, "height": 24, "stdout": []}\n')


@pytest.mark.parametrize("session", by_name(SESSIONS))
def test_the_ideal_is_lossless_at_the_recorded_size(session: Session) -> None:
    size = {"columns": session.columns, "rows": session.rows}
    ideal = oracle.ideal_lines(session.raw, **size)
    assert ideal and all(line for line in ideal)
    assert oracle.check_lossless(session.raw, "\n".join(ideal) + "\n", **size).ok
    dropped = oracle.check_lossless(session.raw, "\n".join(ideal[1:]) + "\n", **size)
    assert not dropped.ok and dropped.missing == ideal[0]


def test_a_cleared_page_and_a_wrapped_line_at_the_recorded_size() -> None:
    [bash] = [session for session in SESSIONS if session.name == "session_bash"]
    size = {"columns": bash.columns, "rows": bash.rows}
    ideal = oracle.ideal_lines(bash.raw, **size)
    assert ideal[0] == "$ clear"  # typed on the page clear then cleared: tmux keeps it in its history
    without_clear = oracle.check_lossless(bash.raw, "\n".join(ideal[1:]), **size)
    assert without_clear.missing == "$ clear"
    # pip's warning wrapped at 120 columns: the logical line, unwrapped, shows the same two rows.
    wrapped = [i for i, line in enumerate(ideal) if line.startswith("WARNING: Running pip")][0]
    assert len(ideal[wrapped]) == bash.columns
    joined = [*ideal[:wrapped], ideal[wrapped] + ideal[wrapped + 1], *ideal[wrapped + 2 :]]
    assert oracle.check_lossless(bash.raw, "\n".join(joined), **size).ok
    assert not oracle.check_lossless(bash.raw, "\n".join(joined)).ok  # unsized: no wrapping assumed


def test_savings_reports_sessions_at_their_size(capsys: pytest.CaptureFixture[str]) -> None:
    from fixtures_gen.savings import main

    assert main(["--sessions"]) == 0
    table = capsys.readouterr().out
    assert all(f"| {name} | " in table for name in SEEN)
    assert "| session_bash | 120x40 | " in table
