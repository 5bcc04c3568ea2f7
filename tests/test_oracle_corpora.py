"""The oracle against peer emulators' suites in ``../shared/corpora`` (see ``oracle/corpora.py``).

Each suite runs at its own screen size. The cases the oracle agrees on are recorded below: a
regression on any of them fails, and so does plain pyte catching up (the fixes must matter).
Skipped, with the reason, when the corpora are absent (``TEXTCLEAN_CORPORA`` overrides the place).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle import corpora

pytestmark = [pytest.mark.corpora, pytest.mark.usefixtures("corpora_root")]  # skips when absent

# Cases where the oracle's screen equals the real terminal's (docs/oracle.md has the counts).
RECORDED: dict[str, frozenset[str]] = {
    "xtermjs": frozenset(
        {
            "t0001-all_printable",
            "t0002-history",
            "t0002j-simple_string",
            "t0003-line_wrap",
            "t0003j-LF",
            "t0004-LF",
            "t0004j-CR",
            "t0005-CR",
            "t0006-IND",
            "t0007-space_at_end",
            "t0008-BS",
            "t0009-NEL",
            "t0010-RI",
            "t0011-RI_scroll",
            "t0012-VT",
            "t0013-FF",
            "t0014-CAN",
            "t0015-SUB",
            "t0016-SU",
            "t0017-SD",
            "t0020-CUF",
            "t0021-CUB",
            "t0022-CUU",
            "t0023-CUU_scroll",
            "t0024-CUD",
            "t0025-CUP",
            "t0026-CNL",
            "t0027-CPL",
            "t0030-HPR",
            "t0032-VPB",
            "t0033-VPB_scroll",
            "t0034-VPR",
            "t0035-HVP",
            "t0040-REP",
            "t0050-ICH",
            "t0051-IL",
            "t0052-DL",
            "t0053-DCH",
            "t0054-ECH",
            "t0055-EL",
            "t0056-ED",
            "t0057-ED3",
            "t0060-DECSC",
            "t0061-CSI_s",
            "t0070-DECSTBM_LF",
            "t0071-DECSTBM_IND",
            "t0072-DECSTBM_NEL",
            "t0073-DECSTBM_RI",
            "t0074-DECSTBM_SU_SD",
            "t0075-DECSTBM_CUU_CUD",
            "t0076-DECSTBM_IL_DL",
            "t0077-DECSTBM_quirks",
            "t0078-DECSTBM_CPL_CNL",
            "t0079-DECSTBM_VPR",
            "t0080-HT",
            "t0081-TBC",
            "t0082-HTS",
            "t0083-CHT",
            "t0090-alt_screen",
            "t0091-alt_screen_ED3",
            "t0092-alt_screen_DECSC",
            "t0100-IRM",
            "t0101-NLM",
            "t0102-DECAWM",
            "t0300-vttest1",
            "t0500-bash_long_line",
            "t0501-bash_ls",
            "t0502-bash_ls_color",
            "t0503-zsh_ls_color",
            "t0504-vim",
        }
    ),
    "alacritty": frozenset(
        {
            "alt_reset",
            "clear_underline",
            "colored_reset",
            "colored_underline",
            "csi_rep",
            "decaln_reset",
            "deccolm_reset",
            "delete_chars_reset",
            "delete_lines",
            "erase_chars_reset",
            "erase_in_line",
            "fish_cc",
            "grid_reset",
            "hyperlinks",
            "indexed_256_colors",
            "insert_blank_reset",
            "issue_855",
            "ll",
            "newline_with_cursor_beyond_scroll_region",
            "origin_goto",
            "region_scroll_down",
            "scroll_in_region_up_preserves_history",
            "scroll_up_reset",
            "selective_erasure",
            "sgr",
            "tab_rendering",
            "tmux_git_log",
            "tmux_htop",
            "underline",
            "vim_24bitcolors_bce",
            "vim_large_window_scroll",
            "vim_simple_edit",
            "vttest_cursor_movement_1",
            "vttest_insert",
            "vttest_origin_mode_1",
            "vttest_origin_mode_2",
            "vttest_scroll",
            "vttest_tab_clear_set",
            "zerowidth",
            "zsh_tab_completion",
        }
    ),
    "pyte": frozenset(
        {
            "cat-gpl3",
            "find-etc",
            "htop",
            "ls",
            "mc",
            "top",
            "vi",
        }
    ),
}
# Plain pyte 0.8.2's agreement, measured the same way (visible text, same sizes and LNM).
PLAIN_PYTE = {"xtermjs": 34, "alacritty": 29, "pyte": 7}
TOTAL = {"xtermjs": 76, "alacritty": 43, "pyte": 7}


@pytest.fixture(scope="module", params=sorted(corpora.SUITES))
def suite(request: pytest.FixtureRequest, corpora_root: Path) -> tuple[str, list[corpora.Case]]:
    return request.param, corpora.SUITES[request.param](corpora_root)


def test_suite_is_complete(suite: tuple[str, list[corpora.Case]]) -> None:
    name, cases = suite
    assert len(cases) == TOTAL[name]


def test_no_regression_below_the_recorded_agreement(suite: tuple[str, list[corpora.Case]]) -> None:
    name, cases = suite
    agreeing = corpora.agreeing(cases, corpora.oracle_screen)
    lost = RECORDED[name] - agreeing
    assert not lost, f"{name}: the oracle no longer agrees with the terminal on {sorted(lost)}"
    gained = agreeing - RECORDED[name]
    print(f"{name}: oracle {len(agreeing)}/{len(cases)}, plain pyte {PLAIN_PYTE[name]}/{len(cases)}")
    assert not gained, f"{name}: now also agrees on {sorted(gained)}: record them in RECORDED"


def test_plain_pyte_agreement_is_as_measured(suite: tuple[str, list[corpora.Case]]) -> None:
    name, cases = suite
    assert len(corpora.agreeing(cases, corpora.plain_pyte_screen)) == PLAIN_PYTE[name]
    assert len(RECORDED[name]) >= PLAIN_PYTE[name]

