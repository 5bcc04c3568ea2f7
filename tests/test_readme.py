"""The README's numbers are the ones the code produces today."""

import json
import re
import subprocess
import sys
from pathlib import Path

from fixtures_gen.checks import load_fixtures
from fixtures_gen.savings import markdown_table, measure, summary_table

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
SAVINGS = (ROOT / "docs" / "savings.md").read_text()
BENCHMARKS = (ROOT / "docs" / "benchmarks.md").read_text()


def test_savings_tables_are_current():
    rows = [measure(f) for f in load_fixtures(ROOT / "tests" / "fixtures")]
    assert summary_table(rows) in README, "regenerate with: python -m fixtures_gen.savings --summary"
    assert markdown_table(rows) in SAVINGS, "regenerate docs/savings.md's table with: python -m fixtures_gen.savings"


def test_the_speed_line_is_the_first_headline_row_of_the_benchmarks():
    ratio = re.search(r"Cleaning and verifying the 33 committed captures takes about (\d+\.\d+)x one ANSI-stripping",
                      README.replace("\n", " "))
    assert ratio, "the README's speed line"
    row = "| clean + verify / one ANSI-stripping `re.sub`, the 33 committed captures | "
    assert f"{row}{ratio.group(1)}x |" in BENCHMARKS


def _second_line(name: str) -> bytes:
    return (ROOT / "tests" / "fixtures" / name).read_bytes().split(b"\n")[1] + b"\n"


def test_before_after_examples_are_current():
    for name in ("grep_color.raw", "cr_progress.raw"):
        proc = subprocess.run(
            [sys.executable, "-m", "textclean", "--min-tokens", "0", "--explain"],
            input=_second_line(name), capture_output=True, check=True,
        )
        shown = proc.stdout.decode().rstrip("\r\n")
        verdict = proc.stderr.decode().rstrip("\n")
        assert f"\n{shown}\n" in README, name
        assert f"\n{verdict}\n" in README, (name, verdict)  # the whole line, as printed


def test_extras_are_named_by_the_distribution_everywhere():
    """`pip install 'textclean[...]'` installs another project: every install hint names textclean-lossless."""
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md"),
             *(ROOT / "textclean").rglob("*.py"), *(ROOT / "fixtures_gen").rglob("*.py")]
    wrong = [f"{path.relative_to(ROOT)}: {match.group(0)}" for path in files
             for match in re.finditer(r"(?<![\w-])textclean\[\w+\]", path.read_text(encoding="utf-8"))]
    assert not wrong, wrong


def test_the_dask_engine_names_the_extra_when_dask_is_missing(monkeypatch):
    import importlib

    import pytest

    from textclean.measure import engines

    real = importlib.import_module

    def without_dask(name, *args):
        if name.startswith("dask"):
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(engines.importlib, "import_module", without_dask)
    with pytest.raises(RuntimeError, match=re.escape("pip install 'textclean-lossless[dask]'")):
        engines.run_dask(["x"], engines.Options(min_tokens=50), 1)


def test_the_readme_is_for_users():
    """A guide under 200 lines: no development log, issue, session or goal (those live in docs/ and
    CHANGELOG.md), and the sections a user looks for."""
    assert README.count("\n") < 200, README.count("\n")
    log = re.findall(r"\bthis stop\b|\b[Ii]ssue ?\d+\b|\b[Ss]ession \d+\b|\bgoals?\b|\bF\d{1,2}\b|\bred[- ]team\b",
                     README)
    assert not log, log
    for section in ("## Install", "## Two commands", "## Three displays", "## Command line", "## Python API",
                    "## Agent hosts", "## Measure", "## How it stays lossless", "## Speed"):
        assert f"\n{section}" in README, section
    for linked in ("docs/benchmarks.md", "docs/savings.md", "docs/hosts.md", "docs/integration.md"):
        assert f"({linked})" in README, linked


def test_the_hosts_table_names_the_versions_the_host_tests_run():
    """The README's hosts table and docs/hosts.md speak of the binaries tests/test_host_*.py run: the
    versions tests/hosts/package.json pins (a bump there without measuring again fails here)."""
    pins = json.loads((ROOT / "tests" / "hosts" / "package.json").read_text())["dependencies"]
    hosts_doc = (ROOT / "docs" / "hosts.md").read_text()
    table = README[README.index("## Agent hosts"):README.index("## Measure")]
    for package, name in (("@anthropic-ai/claude-code", "Claude Code"), ("@openai/codex", "Codex")):
        rows = [line for line in table.splitlines() if line.startswith(f"| {name} ")]
        assert rows == [f"| {name} {pins[package]} |" + rows[0].split("|", 2)[2]] if rows else False, (name, rows)
        assert re.search(rf"{name}(?: CLI)? {re.escape(pins[package])}\b", hosts_doc), (name, pins[package])


def test_repository_commands_name_what_to_install_instead_of_a_traceback():
    """Run without the module they need (hidden), they print one line naming the install and exit 2."""
    for hidden, command, says in (
        ("pyte", "runpy.run_module('fixtures_gen.savings', run_name='__main__')", "pip install . ./packaging/oracle"),
        ("pytest", "runpy.run_path('tests/agent_samples.py', run_name='__main__')", "pip install pytest"),
    ):
        proc = subprocess.run(
            [sys.executable, "-c", f"import runpy, sys; sys.modules[{hidden!r}] = None; sys.argv[1:] = ['/tmp/x']; "
                                   f"{command}"],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )
        assert proc.returncode == 2, (hidden, proc.stderr)
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and f"needs {hidden}: {says}" in lines[0], lines
