"""Recordings split per command: by input events, else by prompt markers, with the header's size."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_logs import captures, write_cast_v1, write_cast_v2, write_claude_code
from agent_samples import (
    BASH_PROMPT,
    OSC_133_PROMPT,
    write_recording_with_input,
    write_recording_with_prompts,
)

from textclean import clean
from textclean.measure import sources
from textclean.measure.recordings import Recording, split_by_input, split_by_marker
from textclean.measure.sources import ReadStats, detect_format, read_file


@pytest.fixture(scope="module")
def session_outputs() -> list[str]:
    by_name = dict(captures())
    return [by_name[n] for n in ("pytest_failures", "pip_download", "grep_color", "cargo_build_error", "tqdm_wide")]


def _read(path: Path) -> list[sources.ToolOutput]:
    return list(read_file(str(path), ReadStats()))


def test_split_by_input_events(tmp_path, session_outputs) -> None:
    path = tmp_path / "session.cast"
    expected = write_recording_with_input(path, session_outputs)
    outputs = _read(path)
    assert [o.text for o in outputs] == expected
    assert len(outputs) == len(session_outputs) + 1
    assert {(o.columns, o.rows) for o in outputs} == {(100, 30)}


@pytest.mark.parametrize("marker", [OSC_133_PROMPT, BASH_PROMPT])
@pytest.mark.parametrize("version", [2, 3])
def test_split_by_prompt_markers(tmp_path, session_outputs, marker, version) -> None:
    path = tmp_path / "session.cast"
    expected = write_recording_with_prompts(path, session_outputs, marker, version)
    assert detect_format(str(path)) == sources.ASCIICAST
    outputs = _read(path)
    assert [o.text for o in outputs] == expected
    assert "".join(o.text for o in outputs).count(marker) == len(session_outputs) + 1
    assert {(o.columns, o.rows) for o in outputs} == {(100, 30)}


def test_osc_133_wins_over_bracketed_paste() -> None:
    stream = f"{OSC_133_PROMPT}$ {BASH_PROMPT}a\r\nout\r\n{OSC_133_PROMPT}$ {BASH_PROMPT}"
    commands = split_by_marker(Recording(2, (80, 24), [("o", stream)]))
    first, second = f"{OSC_133_PROMPT}$ {BASH_PROMPT}a\r\nout\r\n", f"{OSC_133_PROMPT}$ {BASH_PROMPT}"
    assert [c.text for c in commands] == [first, second]


def test_a_resize_inside_a_command_leaves_it_without_a_size() -> None:
    events = [("o", "$ "), ("i", "a\r"), ("o", "x\r\n"), ("r", "120x40"), ("o", "y\r\n$ "), ("i", "b\n"),
              ("o", "z\r\n")]
    commands = split_by_input(Recording(2, (80, 24), events))
    assert [(c.text, c.size) for c in commands] == [("$ ", (80, 24)), ("x\r\ny\r\n$ ", None), ("z\r\n", (120, 40))]


def test_no_markers_no_input_is_one_output(tmp_path, session_outputs) -> None:
    path = tmp_path / "build.cast"
    write_cast_v2(path, session_outputs[0])  # its one "i" event ends a line: the output after it
    assert [o.text for o in _read(path)] == [session_outputs[0]]
    v1 = tmp_path / "old.cast"
    write_cast_v1(v1, session_outputs[1])
    assert [(o.text, o.columns) for o in _read(v1)] == [(session_outputs[1], 100)]


# one command opens an editor the gate refuses (vim's "CSI 0 % m" is in no table)
FULL_SCREEN = "\x1b[?1049h\x1b[H\x1b[2J\x1b[0%meditor screen\x1b[?1049l"


def test_splitting_lets_the_gate_fire_per_command(tmp_path, session_outputs) -> None:
    """The issue's finding: one command the gate must refuse (a full-screen program) made the whole
    session one refused output; per command, every other command fires."""
    path = tmp_path / "session.cast"
    write_recording_with_prompts(path, [*session_outputs, FULL_SCREEN], BASH_PROMPT)
    events = [json.loads(line) for line in path.read_text().splitlines() if line.startswith("[")]
    whole = clean("".join(event[2] for event in events))
    assert not whole.applied
    per_command = [clean(o.text, columns=o.columns, rows=o.rows) for o in _read(path)]  # the cast knows its size
    assert [r.applied for r in per_command] == [True] * len(session_outputs) + [False, False]
    assert sum(r.tokens_before - r.tokens_after for r in per_command if r.applied) > 0


def test_the_recordings_size_reaches_the_gate_when_it_takes_one(tmp_path, session_outputs) -> None:
    """A recording's size (and whether an output starts on a new terminal) reaches the gate."""
    from textclean.measure.engines import Options, measurer_for

    path = tmp_path / "session.cast"
    write_recording_with_prompts(path, session_outputs, BASH_PROMPT)
    measurer = measurer_for(Options())
    for output in _read(path):
        record, cleaned = measurer.measure(output)
        expected = clean(output.text, columns=output.columns, rows=output.rows, fresh=output.fresh,
                         terminal=output.on_a_terminal)
        assert (record.reason == "applied", record.tokens_after) == (expected.applied, expected.tokens_after)
        assert cleaned == (expected.text if expected.applied else None)


def test_readme_recording_numbers_are_current(tmp_path) -> None:
    by_name = dict(captures())
    names = ["pytest_failures", "pip_download", "cargo_build_error", "git_clone_progress", "ruff_check",
             "tqdm_nested", "npm_spinner"]
    outputs = [by_name[n] for n in names[:4]] + [FULL_SCREEN_LONG] + [by_name[n] for n in names[4:]]
    path = tmp_path / "session.cast"
    write_recording_with_prompts(path, outputs, BASH_PROMPT, 2)
    events = [json.loads(line) for line in path.read_text().splitlines() if line.startswith("[")]
    whole = clean("".join(event[2] for event in events))
    unsized = [clean(o.text) for o in _read(path)]
    before, after = sum(r.tokens_before for r in unsized), sum(r.tokens_after for r in unsized)
    fired = sum(r.applied for r in unsized)
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    whole_said = (
        f"cleaned page by page ({whole.tokens_before:,} → {whole.tokens_after:,} tokens)" if whole.applied
        else f"refused ({whole.tokens_before:,} tokens kept)"
    )
    sentence = (
        f"recording of 7 captured commands plus one full-screen editor, the whole recording as one output is\n"
        f"{whole_said}; split, {fired} of {len(unsized)} outputs fire: {before:,} → {after:,} tokens."
    )
    assert sentence in readme
    sized = [clean(o.text, **_size(o)) for o in _read(path)]
    sized_fired = sum(r.applied for r in sized)
    sized_after = sum(r.tokens_after for r in sized)
    with_size = f"With the size, as `measure` passes it, {sized_fired} of {len(sized)} fire: "
    with_size += f"{before:,} → {sized_after:,}"
    assert with_size in readme


FULL_SCREEN_LONG = "\x1b[?1049h\x1b[H\x1b[2J\x1b[0%m" + "editor screen line\r\n" * 30 + "\x1b[?1049l"


def _size(output: sources.ToolOutput) -> dict:
    return {"columns": output.columns, "rows": output.rows, "fresh": output.fresh} if output.columns else {}


# --- Which display measure cleans each output for (issue 28 item 3) ------------------------------------------


def test_a_recording_is_a_terminal_and_its_first_output_a_new_one(tmp_path, session_outputs) -> None:
    from textclean.measure.outputs import NEW_TERMINAL_AT_SIZE, TERMINAL_AT_SIZE

    path = tmp_path / "session.cast"
    write_recording_with_prompts(path, session_outputs, BASH_PROMPT)
    outputs = _read(path)
    assert len(outputs) > 2
    assert [o.fresh for o in outputs] == [True] + [False] * (len(outputs) - 1)
    assert all(o.terminal and o.columns == 100 and o.rows == 30 for o in outputs)
    assert [o.display for o in outputs] == [NEW_TERMINAL_AT_SIZE] + [TERMINAL_AT_SIZE] * (len(outputs) - 1)


def _cast(path: Path, events: list[list]) -> None:
    header = {"version": 2, "width": 80, "height": 24}
    path.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n")


def test_an_output_resized_midway_is_a_terminal_of_unknown_size(tmp_path, monkeypatch) -> None:
    """No single width describes it: cleaned for a terminal of unknown size, never as no terminal."""
    from textclean.measure.engines import Options, measurer_for
    from textclean.measure.outputs import NEW_TERMINAL_AT_SIZE, TERMINAL

    path = tmp_path / "resized.cast"
    _cast(path, [[0.1, "o", "$ ls\r\n"], [0.2, "i", "\r"], [0.3, "o", "50%\r"], [0.4, "r", "120x40"],
                 [0.5, "o", "100%\r\n"]])
    outputs = _read(path)
    assert [o.display for o in outputs] == [NEW_TERMINAL_AT_SIZE, TERMINAL]
    assert (outputs[1].columns, outputs[1].terminal) == (None, True)
    measurer = measurer_for(Options())
    seen = []
    original = measurer.gate.clean

    def spy(text, **display):
        seen.append(display)
        return original(text, **display)

    monkeypatch.setattr(measurer.gate, "clean", spy)
    for output in outputs:
        measurer.measure(output)
    assert seen == [{"columns": 80, "rows": 24, "terminal": True, "fresh": True},
                    {"columns": None, "rows": None, "terminal": True, "fresh": False}]


def test_measure_reports_the_display_per_format(tmp_path, session_outputs, capsys) -> None:
    from textclean.measure.outputs import NEW_TERMINAL_AT_SIZE, NO_TERMINAL, TERMINAL_AT_SIZE
    from textclean.measure.report import measure_main, measure_paths, summarize

    write_recording_with_prompts(tmp_path / "session.cast", session_outputs, BASH_PROMPT)
    logged = write_claude_code(tmp_path / "log.jsonl", session_outputs)
    report = summarize(measure_paths([str(tmp_path)]), 50)
    recorded = len(_read(tmp_path / "session.cast"))
    assert report["displays_by_format"] == {
        "asciicast": {NEW_TERMINAL_AT_SIZE: 1, TERMINAL_AT_SIZE: recorded - 1},
        "claude-code": {NO_TERMINAL: len(logged)},
    }
    assert all(sum(row["displays"].values()) == row["outputs"] for row in report["per_file"])
    assert measure_main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "cleaned for (display per format)" in out
    assert f"claude-code          {len(logged)} no terminal" in out
