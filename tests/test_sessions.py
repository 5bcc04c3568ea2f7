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
