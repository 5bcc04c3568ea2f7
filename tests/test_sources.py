"""The format readers: each yields exactly the tool outputs of a transcript built from real captures."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from agent_logs import (
    MALFORMED_LINES,
    captures,
    write_anthropic_json,
    write_cast_v1,
    write_cast_v2,
    write_claude_code,
    write_openai_jsonl,
    write_traj,
)
from agent_samples import read_outputs, texts_fixture  # noqa: F401  (the texts fixture)

from textclean.measure import opener, sources
from textclean.measure.sources import ReadStats, detect_format, read_file


def _read_back(path: Path, expected: list[str], fmt: str | None, malformed: int) -> list[sources.ToolOutput]:
    """Read ``path`` and check its detected format, the texts and the count of malformed records."""
    outputs, stats = read_outputs(path)
    if fmt is not None:
        assert detect_format(str(path)) == fmt
    assert [o.text for o in outputs] == expected
    assert stats.malformed == malformed
    return outputs


def test_claude_code_session(tmp_path: Path, texts: list[str]) -> None:
    path = tmp_path / "session.jsonl"
    expected = write_claude_code(path, texts)
    outputs = _read_back(path, expected, sources.CLAUDE_CODE, 2)
    assert [o.non_text_blocks for o in outputs] == [False] * (len(expected) - 1) + [True]
    assert outputs[1].label.endswith(":toolu_0[1]")  # the second text block of the first result


def test_openai_jsonl(tmp_path: Path, texts: list[str]) -> None:
    path = tmp_path / "chat.jsonl"
    expected = write_openai_jsonl(path, texts)
    outputs = _read_back(path, expected, sources.OPENAI, 2)
    assert sum(o.non_text_blocks for o in outputs) == 1 and outputs[-1].non_text_blocks


def test_openai_json_document(tmp_path: Path, texts: list[str]) -> None:
    from agent_logs import openai_messages

    messages, expected = openai_messages(texts)
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "gpt-4.1", "messages": messages}))
    _read_back(path, expected, sources.OPENAI, 0)


def test_anthropic_json(tmp_path: Path, texts: list[str]) -> None:
    path = tmp_path / "request.json"
    expected = write_anthropic_json(path, texts)
    outputs = _read_back(path, expected, sources.ANTHROPIC, 0)
    assert [o.non_text_blocks for o in outputs].count(True) == 1


def test_swe_agent_trajectory(tmp_path: Path, texts: list[str]) -> None:
    path = tmp_path / "run.traj"
    expected = write_traj(path, texts)
    _read_back(path, expected, sources.SWE_AGENT, 1)


def test_swe_agent_history_only(tmp_path: Path, texts: list[str]) -> None:
    history = [{"role": "system", "content": "setup"}, {"role": "user", "content": "task"}]
    for text in texts[:3]:
        history += [{"role": "assistant", "content": "make"}, {"role": "user", "content": text}]
    path = tmp_path / "old.traj"
    path.write_text(json.dumps({"history": history}))
    outputs, _ = read_outputs(path)
    assert [o.text for o in outputs] == texts[:3]


def test_asciicast_v2_joins_output_events(tmp_path: Path, texts: list[str]) -> None:
    longest = max(texts, key=len)
    path = tmp_path / "build.cast"
    write_cast_v2(path, longest)
    _read_back(path, [longest], sources.ASCIICAST, 1)  # byte-exact: "i" and "r" events left out


def test_asciicast_v1(tmp_path: Path, texts: list[str]) -> None:
    path = tmp_path / "old.cast"
    write_cast_v1(path, texts[0])
    _read_back(path, [texts[0]], None, 0)


def test_raw_directory_round_trips_bytes(tmp_path: Path) -> None:
    names = []
    for name, text in captures()[:5]:
        (tmp_path / f"{name}.raw").write_bytes(text.encode("utf-8", "surrogateescape"))
        (tmp_path / f"{name}.json").write_text(json.dumps({"name": name, "argv": ["x"]}))
        names.append(name)
    stats = ReadStats()
    outputs = [o for path in sources.expand_paths([str(tmp_path)]) for o in read_file(path, stats)]
    assert len(outputs) == 5
    for output, (_, text) in zip(outputs, captures()[:5], strict=True):
        assert output.text == text
    assert stats.files == 10 and stats.skipped_files == 5 and stats.malformed == 0


def test_broken_json_is_unknown_and_text_is_raw(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text('{"messages": [')
    (tmp_path / "broken.traj").write_text("[1, 2")
    (tmp_path / "notes.cast").write_text("nothing here\n")  # the name says recording, the content says text
    (tmp_path / "ninja.log").write_text("[0/5] CC parse.o\n")  # a bracket that is no JSON
    stats = ReadStats()
    paths = list(sources.expand_paths([str(tmp_path)]))
    assert [detect_format(p) for p in paths] == [sources.UNKNOWN, sources.UNKNOWN, sources.RAW, sources.RAW]
    outputs = [o for path in paths for o in read_file(path, stats)]
    assert [o.text for o in outputs] == ["[0/5] CC parse.o\n", "nothing here\n"]
    assert stats.skipped_files == 2 and stats.malformed == 0


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    stats = ReadStats()
    assert list(read_file(str(tmp_path / "gone.jsonl"), stats)) == []
    assert stats.unreadable_files == 1


def _measure_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``textclean measure`` in a child process, bounded: a FIFO read would block it forever."""
    return subprocess.run([sys.executable, "-m", "textclean", "measure", "--json", *args],
                          capture_output=True, text=True, timeout=120)


def test_a_directory_walk_reads_regular_files_only_and_names_what_it_skips(tmp_path: Path) -> None:
    (name, text), *_ = captures()
    (tmp_path / f"{name}.raw").write_bytes(text.encode("utf-8", "surrogateescape"))
    os.mkfifo(tmp_path / "pipe")  # opened for reading, it would wait for a writer that never comes
    (tmp_path / "gone.log").symlink_to(tmp_path / "deleted.log")
    (tmp_path / "linked.log").symlink_to(tmp_path / f"{name}.raw")  # a link to a regular file is read
    (tmp_path / "bad.jsonl.gz").write_bytes(b"not gzip at all\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".notes").write_text("mine\n")
    proc = _measure_cli(str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["files"] == 3 and report["unreadable_files"] == 1
    lines = proc.stderr.splitlines()
    assert f"textclean measure: skipped {tmp_path / 'pipe'}: a FIFO, not a regular file" in proc.stderr
    assert f"textclean measure: skipped {tmp_path / 'gone.log'}: dangling symbolic link to " \
           f"{tmp_path / 'deleted.log'}" in lines
    assert any(line.startswith(f"textclean measure: skipped {tmp_path / 'bad.jsonl.gz'}: ") for line in lines)
    hidden = [line for line in lines if line.endswith(opener.HIDDEN)]
    assert hidden == [f"textclean measure: skipped {tmp_path / '.git'}{os.sep}: {opener.HIDDEN}",
                      f"textclean measure: skipped {tmp_path / '.notes'}: {opener.HIDDEN}"]
    assert len(lines) == 5, lines


@pytest.mark.parametrize("with_fsspec", [True, False], ids=["fsspec", "stdlib"])
def test_compressed_logs_are_read_decompressed(tmp_path: Path, texts, monkeypatch, with_fsspec) -> None:
    if with_fsspec:
        pytest.importorskip("fsspec")
    else:
        monkeypatch.setattr(opener, "_optional_fsspec", lambda: None)
    plain = tmp_path / "session.jsonl"
    expected = write_claude_code(plain, texts[:3])
    packed = tmp_path / "session.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    plain.unlink()
    assert detect_format(str(packed)) == sources.CLAUDE_CODE
    _read_back(packed, expected, sources.CLAUDE_CODE, len(MALFORMED_LINES))
    raw = tmp_path / "build.log.gz"
    raw.write_bytes(gzip.compress(texts[0].encode("utf-8", "surrogateescape")))
    assert [o.text for o in read_outputs(raw)[0]] == [texts[0]]


def test_zip_members_are_read_through_fsspec_urls(tmp_path: Path, texts) -> None:
    pytest.importorskip("fsspec")
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("run/build.log", texts[0].encode("utf-8", "surrogateescape"))
        z.writestr("run/test.log", texts[1].encode("utf-8", "surrogateescape"))
    member = f"zip://run/build.log::{archive}"
    assert [o.text for o in read_outputs(member)[0]] == [texts[0]]  # type: ignore[arg-type]
    folder = list(sources.expand_paths([f"zip://run::{archive}"]))
    assert folder == [f"zip://run/build.log::{archive}", f"zip://run/test.log::{archive}"]
    report = json.loads(_measure_cli(member, f"zip://run::{archive}").stdout)
    assert report["files"] == 3 and report["unreadable_files"] == 0
    skipped: list[tuple[str, str]] = []
    assert list(sources.expand_paths([str(archive)], lambda p, r: skipped.append((p, r)))) == []
    assert skipped and "zip://MEMBER::" in skipped[0][1]
