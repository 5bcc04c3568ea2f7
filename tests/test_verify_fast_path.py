"""The verifier's fast path (append-only text) answers exactly as its line model does, where it answers."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from oracle import corpora
from textclean.pipeline import verify

from .agent_logs import captures
from .strategies import private_modes, screen_controls, strings, terminal_streams, two_byte_escapes


def _model(text: str) -> list[str] | str:
    try:
        return verify._model_lines(text)
    except verify.Unresolvable as exc:
        return f"unresolvable: {exc}"


def _agrees(text: str) -> bool:
    """Whether the fast path answered, asserting it answered as the model does."""
    fast = verify._append_only_lines(text)
    if fast is not None:
        assert fast == _model(text), repr(text[:200])
    return fast is not None


def test_fast_path_agrees_on_every_capture() -> None:
    answered = sum(_agrees(text) for _, text in captures())
    assert answered >= 8  # the coloured-only captures (grep, ls, diff, git diff, ...) take it
    root = corpora.locate()
    if root is not None:
        texts = [p.read_bytes().decode("utf-8", "surrogateescape") for p in sorted(root.rglob("*"))
                 if p.is_file() and p.suffix in (".input", ".in", ".recording")]
        assert sum(_agrees(text) for text in texts) >= 12


_EXTRA = st.one_of(
    screen_controls(), strings(), two_byte_escapes(), private_modes(),
    st.sampled_from(["\x07", "\x08", "\x00", "\x7f", "\x85", "\x9b31m", "\x1b", "\x1b[", "\r", "\t", "\u200b",
                     "\x1b]8;;http://x\x1b\\", "\x1b]0;t\x07", "\x1b]0;a\x18b\x07", "\x1b[1;2 m", "\udcff",
                     "\x1b[?25l", "\x1b[?1049h", "\x1b[K", "\x1b[1K", "\x1b[X", "\x1b[2J", "\x1b[H", "wide 你好"]),
)


@given(terminal_streams(extra_pieces=[_EXTRA]))
@example("abc\r\x1b[K\n")
@example("abc\x1b[K\r\n\x1b[2J")
@example("\x1b[2Jabc\n")
@example("a\tb\x1b[31m\tc\r\r\n  \n\x1b[0m")
def test_fast_path_agrees_on_generated_streams(text: str) -> None:
    _agrees(text)
