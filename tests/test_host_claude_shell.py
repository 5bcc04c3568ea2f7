"""The real Claude Code runs a Bash command in a shell holding the user's aliases and functions (its
snapshot of ~/.bashrc); textclean's rewrite runs it in a fresh ``bash -c``. Found by
fuzz/hook_decisions.py (issue 36's red team): with the hooks a command must run exactly as without them,
so the hook leaves alone a command whose name is no program on PATH, or an alias or function of the
host's shell snapshot (``alias ls='ls -a'`` shadows a program). And the host merges stdout and stderr in
the order written: so must the rewrite.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hosts.anthropic_mock import MockAnthropic
from tests.test_host_claude_code import BYPASS, Case, _claude, _run

BASHRC = "alias ll='ls -a'\nalias ls='ls -a'\ngreet() { printf 'RAN%s\\n' OK; }\n"
CASES = [
    Case("shell-function", "greet", BYPASS, bashrc=BASHRC),           # seen: RANOK bare, 127 hooked
    Case("shell-alias", "ll", BYPASS, bashrc=BASHRC),                 # seen: the listing bare, 127 hooked
    Case("shell-not-found", "nosuchcmd_zz x", BYPASS, bashrc=BASHRC),  # seen: "/bin/bash: line 1" vs "bash: line 1"
    Case("shell-host-grep", "grep", BYPASS),  # the host's grep is a function (ugrep): seen GNU grep's usage hooked
    # the host merges stdout and stderr in the order written: seen "a b error" hooked, "a error b" bare
    Case("stream-order", "printf 'a\\n'; ls missing_zz; printf 'b\\n'", BYPASS),
    # an alias that shadows a program: the hook reads the host's shell snapshot and leaves it alone
    Case("shell-alias-shadows", "ls", BYPASS, bashrc=BASHRC),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_the_model_reads_what_it_reads_without_the_hooks(case: Case, tmp_path: Path) -> None:
    claude = _claude()
    mock = MockAnthropic(max_requests=40, lifetime=300).start()
    try:
        hooked = _run(claude, mock, case, True, tmp_path)
        bare = _run(claude, mock, case, False, tmp_path)
    finally:
        mock.stop()
    assert len(bare.results) == len(hooked.results) == 1, (bare.stdout, hooked.stdout)
    got, want = hooked.results[0], bare.results[0]
    assert (got.is_error, got.text.replace("/hooked/", "/bare/")) == (want.is_error, want.text)
