"""What `textclean measure` reports: per-file rows, totals with repeats, the HTML page, the CLI's
conventions, and the map/merge run serially, on a process pool and on Dask, all giving one report."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from agent_logs import captures, write_anthropic_json, write_claude_code
from agent_samples import BASH_PROMPT, write_codex, write_mini_swe_agent, write_recording_with_prompts

from textclean import clean
from textclean.measure import Options, measure_file, measure_main, measure_paths, merge, summarize
from textclean.measure.engines import measurer_for
from textclean.measure.opener import expand_paths
from textclean.pipeline.tokens import count_tokens

# A full-screen program the gate refuses: vim's "CSI 0 % m" is in no table, and a page kept for it
# would leave the main screen's state unknown.
FULL_SCREEN = "\x1b[?1049h\x1b[H\x1b[2J\x1b[0%m" + "editor screen line\r\n" * 30 + "\x1b[?1049l"
HOSTILE_NAME = "a<b>&\"c'.log"  # a path the page must escape


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("logs")
    texts = [text for _, text in captures()]
    write_claude_code(root / "session.jsonl", texts[:6])
    write_codex(root / "rollout.jsonl", texts[4:9])  # overlaps the session: repeats across files
    write_mini_swe_agent(root / "run.traj.json", texts[8:11])
    write_anthropic_json(root / "request.json", texts[:3])
    write_recording_with_prompts(root / "session.cast", [texts[12], FULL_SCREEN, texts[13]], BASH_PROMPT)
    (root / "editor.log").write_text(FULL_SCREEN)
    (root / HOSTILE_NAME).write_bytes(texts[14].encode("utf-8", "surrogateescape"))
    (root / "fixture.json").write_text(json.dumps({"name": "x", "argv": ["ls"]}))
    shutil.copy(root / "rollout.jsonl", root / "rollout-copy.jsonl")
    return root


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert measure_main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _size(output) -> dict:
    return {"columns": output.columns, "rows": output.rows, "fresh": output.fresh} if output.columns else {}


def test_per_file_rows_follow_from_each_files_outputs(corpus, capsys) -> None:
    report = _json(capsys, str(corpus))
    from textclean.measure.sources import ReadStats, read_file

    rows = {Path(row["path"]).name: row for row in report["per_file"]}
    assert set(rows) == {p.name for p in corpus.iterdir()}
    for name, row in rows.items():
        outputs = list(read_file(str(corpus / name), ReadStats()))
        results = [None if o.non_text_blocks else clean(o.text, **_size(o)) for o in outputs]
        assert row["outputs"] == len(outputs), name
        assert row["fired"] == sum(bool(r and r.applied) for r in results), name
        assert row["tokens_before"] == sum(count_tokens(o.text) for o in outputs), name
        assert row["tokens_after"] == sum(
            count_tokens(r.text) if r else count_tokens(o.text) for o, r in zip(outputs, results, strict=True)
        ), name
    assert rows["rollout.jsonl"]["format"] == "codex" and rows["run.traj.json"]["format"] == "mini-swe-agent"
    assert rows["fixture.json"]["format"] == "unknown" and rows["fixture.json"]["top_refusal"] == "unknown_shape"
    assert report["unknown_files"] == [str(corpus / "fixture.json")]
    editor = rows["editor.log"]
    refused = clean(FULL_SCREEN)
    assert not refused.applied
    assert (editor["top_refusal"], editor["top_refusal_outputs"]) == (refused.reason, 1)
    assert editor["top_refusal_detail"] == refused.detail
    assert rows["session.cast"]["outputs"] == 4  # two commands, the editor, the last prompt


def test_totals_count_repeats_beside_distinct(corpus, capsys) -> None:
    report = _json(capsys, str(corpus))
    every = report["all_outputs"]
    assert every["outputs"] == report["outputs_seen"] == sum(r["outputs"] for r in report["per_file"])
    assert every["tokens_before"] == sum(r["tokens_before"] for r in report["per_file"])
    copy = next(r for r in report["per_file"] if r["path"].endswith("rollout-copy.jsonl"))
    assert every["tokens_before"] - report["tokens_before"] >= copy["tokens_before"] > 0
    assert every["tokens_saved"] > report["tokens_saved"] > 0
    assert sum(e["tokens_saved"] for e in report["saved_by_format"].values()) == every["tokens_saved"]


def test_per_file_table(corpus, capsys) -> None:
    assert measure_main([str(corpus), "--per-file"]) == 0
    out = capsys.readouterr().out
    assert "all outputs" in out and "unknown shape" in out
    table = out[out.index("top refusal  path"):]
    assert table.count("\n") == 1 + len(list(corpus.iterdir()))
    refused = clean(FULL_SCREEN)
    assert f" 0  {refused.reason} x1 ({refused.detail})  {corpus / 'editor.log'}" in table
    session = next(line for line in table.splitlines() if line.endswith("session.jsonl"))
    assert session.split()[5] == "2"  # the Claude Code log's two malformed lines


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bars: dict[str, dict[str, int]] = {}
        self.summary: dict[str, int] = {}
        self.cells: list[list[str]] = []
        self.tags: set[str] = set()
        self.attrs_seen: list[tuple[str, str | None]] = []
        self._chart: str | None = None
        self._table: str | None = None
        self._cell: list[str] | None = None
        self._key: str | None = None
        self.pre: list[str] = []
        self._in_pre = False
        self.shown: list[str] = []  # every piece of text a reader sees

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        self.tags.add(tag)
        self.attrs_seen += attrs
        if tag == "svg":
            self._chart = a.get("id")
            self.bars[self._chart] = {}
        elif tag == "rect" and self._chart:
            self.bars[self._chart][a["data-label"]] = int(a["data-value"])
        elif tag == "table":
            self._table = a.get("id")
        elif tag == "tr" and self._table == "per-file":
            self.cells.append([])
        elif tag == "td":
            self._cell = []
            self._key = a.get("data-key")
        elif tag == "pre":
            self._in_pre = True
            self.pre.append("")

    def handle_endtag(self, tag) -> None:
        if tag == "svg":
            self._chart = None
        elif tag == "td" and self._cell is not None:
            text = "".join(self._cell)
            if self._table == "per-file":
                self.cells[-1].append(text)
            if self._key:
                self.summary[self._key] = int(text.replace(",", ""))
            self._cell = None
        elif tag == "pre":
            self._in_pre = False

    def handle_data(self, data) -> None:
        self.shown.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._in_pre:
            self.pre[-1] += data


def test_html_page_agrees_with_json(corpus, capsys, tmp_path) -> None:
    page_path = tmp_path / "report.html"
    report = _json(capsys, str(corpus), "--html", str(page_path))
    text = page_path.read_text(encoding="utf-8")
    page = _Page()
    page.feed(text)
    assert page.bars["chart-transform"] == report["saved_by_transform"]
    assert page.bars["chart-format"] == {f: e["tokens_saved"] for f, e in report["saved_by_format"].items()}
    assert page.bars["chart-refusals"] == {k: v for k, v in report["gate_reasons"].items() if k != "applied"}
    for key, value in page.summary.items():
        node = report
        for part in key.split("."):
            node = node[part]
        assert node == value, key
    assert len(page.summary) >= 10
    rows = [r for r in page.cells if r]
    assert [(r[0], r[1], int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6])) for r in rows] == [
        (r["path"], r["format"], r["outputs"], r["fired"], r["tokens_before"], r["tokens_after"], r["malformed"])
        for r in report["per_file"]
    ]
    assert str(corpus / HOSTILE_NAME) in [r[0] for r in rows]  # escaped in the page, read back exactly
    assert len(page.pre) == 2 * len(report["largest_savings"]) > 0
    # ESC shown as its name in a span, not as a control picture (U+2400-U+243F: no common font has them)
    assert "\x1b" not in text and '<span class="c" title="ESC (U+001B)">ESC</span>' in text
    assert not [ch for ch in text if 0x2400 <= ord(ch) <= 0x243F]
    assert "ESC" in page.pre[0]
    # People read words: no JSON key is shown as a label (they stay in data-key / data-label)
    shown = " ".join(page.shown)
    for key in ("all_outputs", "tokens_before", "outputs_seen", "escape_sequences", "malformed_records"):
        assert key not in shown, key
    assert "tokens saved, every output (repeats included)" in shown and "escape sequences" in shown
    # Self-contained: no scripts, no fetched resources, no links out.
    assert "script" not in page.tags and "link" not in page.tags and "img" not in page.tags
    assert not [v for k, v in page.attrs_seen if k in ("src", "href")]


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "textclean", *args], input=stdin, capture_output=True, timeout=120)


def test_cli_conventions(tmp_path) -> None:
    missing = _cli("measure", str(tmp_path / "missing"))
    assert missing.returncode == 2 and missing.stdout == b""
    assert missing.stderr.decode().count("\n") == 1 and "missing" in missing.stderr.decode()
    negative = _cli("measure", str(tmp_path), "--min-tokens", "-5")
    assert negative.returncode == 2 and negative.stderr.decode().count("\n") == 1
    assert b"Traceback" not in negative.stderr and b"--min-tokens" in negative.stderr
    empty = _cli("measure", str(tmp_path))
    assert empty.returncode == 1 and b"found no files" in empty.stderr
    assert b"measure" in _cli("--help").stdout
    capture = dict(captures())["grep_color"].encode("utf-8", "surrogateescape")
    piped = _cli("measure", "-", "--json", stdin=capture)
    report = json.loads(piped.stdout)
    assert piped.returncode == 0 and report["per_file"][0]["path"] == "-"
    assert (report["outputs_seen"], report["outputs_fired"]) == (1, 1)


def test_merge_is_associative_and_equals_one_pass(corpus) -> None:
    options = Options()
    paths = list(expand_paths([str(corpus)]))
    parts = [measure_file(p, measurer_for(options), index=i) for i, p in enumerate(paths)]
    serial = summarize(measure_paths([str(corpus)]), 50)
    left = merge(merge(*parts[:3]), merge(*parts[3:]))
    right = merge(parts[0], merge(*parts[1:5]), merge(*parts[5:]))
    assert summarize(left, 50) == summarize(right, 50) == serial


def test_dask_cluster_gives_the_serial_report(corpus) -> None:
    """Two workers on a LocalCluster (in-process: quick to start; tasks still go through the scheduler)."""
    pytest.importorskip("dask.bag")
    distributed = pytest.importorskip("distributed")
    serial = summarize(measure_paths([str(corpus)]), 50)
    cluster_options = {"n_workers": 2, "threads_per_worker": 1, "processes": False, "dashboard_address": None}
    with distributed.LocalCluster(**cluster_options) as cluster:
        assert len(cluster.workers) == 2
        on_cluster = measure_paths([str(corpus)], engine="dask", scheduler=cluster.scheduler_address, jobs=2)
    assert summarize(on_cluster, 50) == serial


def test_fsspec_urls_read_like_local_paths(corpus) -> None:
    fsspec = pytest.importorskip("fsspec")
    fs = fsspec.filesystem("memory")
    for path in sorted(corpus.iterdir()):
        fs.pipe(f"/logs/{path.name}", path.read_bytes())
    try:
        remote = summarize(measure_paths(["memory://logs"]), 50)
    finally:
        fs.rm("/logs", recursive=True)
    local = summarize(measure_paths([str(corpus)]), 50)
    assert [Path(r["path"]).name for r in remote["per_file"]] == [Path(r["path"]).name for r in local["per_file"]]
    assert remote["per_file"][0]["path"].startswith("memory://")
    for key in ("outputs_seen", "outputs_fired", "tokens_before", "tokens_after", "formats", "all_outputs"):
        assert remote[key] == local[key], key


def test_readme_run_is_current(capsys) -> None:
    """The README's measure run: its output starts with the lines the README shows (up to its ``...``)."""
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    command = "$ textclean measure tests/fixtures/*.raw tests/fixtures/sessions/*.cast 2>/dev/null\n"
    shown = readme[readme.index(command) + len(command):]
    shown = shown[:shown.index("...\n```")]
    paths = sorted(str(p) for p in (root / "tests" / "fixtures").glob("*.raw"))
    paths += sorted(str(p) for p in (root / "tests" / "fixtures" / "sessions").glob("*.cast"))
    assert measure_main(paths) == 0
    out = capsys.readouterr().out
    assert out.startswith(shown), "rerun the README's measure command and paste its first lines"
