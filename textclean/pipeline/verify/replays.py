"""Pages that repeat, replayed: a page after a home and ED 2 walked before from the same state ends as
that walk did (its records are remembered), and a page of the same shape is made from its template."""

from __future__ import annotations

from operator import itemgetter

from .. import grammar
from ..grammar import ESC
from ..names import CUP, ED
from .page_breaks import Breaks
from .state import BLANK, PAGE_FIELDS, Changes, Memo, Page, Shape

#: The break run a page is replayed after (:class:`Replays`), pages replayed up to this length, the memo's size
FRESH_BREAK = grammar.CSI + CUP + grammar.CSI + "2" + ED
_MEMO_BODY = 4096
_MEMO_LIMIT = 256
_SEEN_LIMIT = 4096
#: Outside a replay's state: constant for a text (``text``, ``on_page``), the page records and the budget
#: (replayed by difference), the scroll count (by difference: no saved cursor reads it), the CR run read
#: last (it ends before the page: read again), the memos and where the last home and ED 2 ended.
UNKEYED = ("text", "on_page", "pages", "work_left", "scrolls", "cr_run", "lines_read", "memo", "recording",
           "seen", "fresh_at", "shapes")
_KEY_TYPES = frozenset((type(None), bool, int, str, tuple, frozenset))
_PAGE_FIELDS = tuple(slot for slot in PAGE_FIELDS if slot not in ("start", "break_end", "end"))


def _page_fields(page: Page) -> tuple[object, ...]:
    return tuple(tuple(value.items()) if type(value) is dict else tuple(value) if type(value) is list else value
                 for value in map(page.__getattribute__, _PAGE_FIELDS))


NEW_PAGE = _page_fields(Page(0, 0))  # a page record as made, before its break run sets any field


#: The characters a page's walk reads only as printable, one cell wide and not blank (outside its escape
#: sequences): a page's shape is its text with each of them read as ``a`` (:meth:`Replays.shape_template`)
_CLASS = "".join(map(chr, range(0x21, 0x7F)))
_CLASS_INDEX = {char: index for index, char in enumerate(_CLASS)}
_SHAPE = str.maketrans(_CLASS, "a" * len(_CLASS))
_EMPTY_LINE = itemgetter(slice(0, 0))


_NO_SHAPE = Shape((), ({}, 0, 0, (), ()), (), "")  # a shape whose template failed (or not the one met)


def page_changes(before: tuple[object, ...], after: tuple[object, ...]) -> Changes:
    """The fields of :func:`_page_fields` that differ (in type or value) from ``before`` to ``after``."""
    return tuple((name, value) for name, old, value in zip(_PAGE_FIELDS, before, after, strict=True)
                 if type(old) is not type(value) or old != value)


def set_page_fields(page: Page, changes: Changes) -> None:
    for name, value in changes:
        if name == "lines":
            value = list(value)  # type: ignore[call-overload]
        elif name == "inherits":
            value = dict(value)  # type: ignore[call-overload]
        setattr(page, name, value)


class Replays(Breaks):
    """Pages that repeat: a page after a home and ED 2 whose bytes up to the next home and ED 2 were walked
    before from the same state ends as that walk did (the model is a function of its state and the
    text; the walk reads no byte past that break), so its records are replayed, not walked again."""

    def state_key(self) -> dict[str, object] | None:
        """Everything the walk of the next page reads, frozen (None: state that records page indexes or
        rows of their own, never replayed). Outside it: :data:`UNKEYED`."""
        if (self.saved is not None or self.saved_on is not None or self.alt_on is not None or self.set_on
                or self.alt is not None or self.lost is not None or self.tight):
            return None
        state = self.fields()
        for name in UNKEYED:
            del state[name]
        grid = state["grid"] = tuple(self.grid)
        if grid.count(BLANK) != len(grid):
            return None
        state["history"], state["tail"] = tuple(self.history), tuple(self.tail)
        state["modes"], state["set_on"] = frozenset(self.modes), ()
        state["page"] = _page_fields(self.pages[-1])
        types = tuple(map(type, state.values()))
        if not _KEY_TYPES.issuperset(types):
            return None
        state["types"] = types  # True == 1: the types must agree too
        return state

    def replay(self, at: int) -> int:
        """At ``at``, just after a home and ED 2: the pages walked before from this state, replayed (the
        last one's walk recorded for the next time), or made from the template of a page of the same shape
        (:meth:`shape_template`). Returns where the walk goes on."""
        text, pages = self.text, self.pages
        recording, self.recording = self.recording, None
        if recording is not None:  # the page since the last home and ED 2, walked: remembered if it ended here
            body, state, count, work, scrolls, start, shape = recording
            # the page decided (a reason names offsets), its break run not extended, the next one at the end
            done, page = pages[-2:] if len(pages) > 1 else (None, None)
            valid = (len(pages) == count + 1 and done is not None and page is not None and done.reason is None
                     and done.break_end == start and page.start == start + len(body)
                     and page.break_end == at == page.start + len(FRESH_BREAK)
                     and self.work_left >= work - self.work_left and self.state_key() == state)
            if valid:
                assert done is not None
                if len(self.memo) >= _MEMO_LIMIT:
                    self.memo.clear()
                fields = state["page"]  # the page as it began (so began the next one): only what changed is set
                assert isinstance(fields, tuple)
                self.memo[body] = (state, work - self.work_left, self.scrolls - scrolls,
                                   page_changes(fields, _page_fields(done)), page_changes(NEW_PAGE, fields))
            if shape is not None and self.shapes is not None:
                made = self.shape_template(body, start, self.memo[body], work) if valid else None
                self.shapes[shape] = _NO_SHAPE if made is None else made
        known_state: dict[str, object] | None = None
        shapes = self.shapes
        while True:
            end = text.find(FRESH_BREAK, at, at + _MEMO_BODY)
            if end < 0:
                return at
            body = text[at:end]
            known = self.memo.get(body)
            kind: str | None = None
            template: Shape | None = None
            if known is None and shapes is not None:
                kind = body.translate(_SHAPE)
                template = shapes.get(kind, _NO_SHAPE)
                if template is None:  # seen once: this page, if new, is recorded for a template
                    kind = None if body in self.seen else kind
                elif template is not _NO_SHAPE and all(
                        text.startswith(token, at + offset) for offset, token in template.tokens):
                    known = template.memo
                else:
                    if kind not in shapes:
                        if len(shapes) >= _SEEN_LIMIT:
                            shapes.clear()
                        shapes[kind] = None
                    kind, template = None, None
            if known is None and kind is None and body not in self.seen:
                # the first time only noted: pages that never repeat pay a set lookup, not a record of state
                if len(self.seen) >= _SEEN_LIMIT:
                    self.seen.clear()
                self.seen.add(body)
                return at
            if known_state is None:
                known_state = self.state_key()
                if known_state is None:
                    return at
            if known is None or self.work_left < known[1] or known[0] != known_state:
                self.recording = (body, known_state, len(pages), self.work_left, self.scrolls, at,
                                  kind if known is None else None)
                return at
            # the walk's every charge lowers the budget, and the recording's stayed within it: so does this
            self.work_left -= known[1]
            self.scrolls += known[2]
            done = pages[-1]
            done.end = end
            set_page_fields(done, known[3])
            if template is not None:
                source = body + template.literals
                done.lines = ["".join(line(source)) for line in template.lines]
            at = end + len(FRESH_BREAK)
            page = Page(end, at)
            set_page_fields(page, known[4])  # the walk left the state as it found it: its page too
            pages.append(page)
            if self.on_page is not None:
                self.on_page(pages)

    def shape_template(self, body: str, at: int, memo: Memo, budget: int) -> Shape | None:
        """The template of the page ``body`` at ``at``, just walked from the state ``memo`` starts from with
        ``budget`` work left: for a page of the same shape (the same text but for printable characters
        other than space outside its escape sequences, which are the same), its walk is this one's with
        those characters in the cells they took (the walk reads them only as one cell wide, printable and
        not blank: tests/test_verify_fast_path.py). Where each line's characters come from is read from
        walks of the page with those characters replaced by digits of their offset (base 94, as many
        walks as digits), each from the same state (copied, compared) and ending as this one did; the
        template must rebuild all of their lines and this page's. None where any of it fails."""
        text = self.text
        tokens: list[tuple[int, str]] = []
        fixed = bytearray(len(body))  # offsets inside escape sequences: kept as they are
        offset = body.find(ESC)
        while offset >= 0:
            found = grammar.match_at(text, at + offset)
            if found is None or found.end() > at + len(body):
                return None
            tokens.append((offset, found.group()))
            fixed[offset:found.end() - at] = b"\x01" * (found.end() - at - offset)
            offset = body.find(ESC, found.end() - at)
        changes = dict(memo[3])
        want = list(changes.pop("lines", ()))  # type: ignore[call-overload]
        rest = tuple(changes.items())
        count = len(_CLASS)
        digits = 1 if len(body) <= count else 2
        if len(body) > count ** digits:
            return None
        walks = []
        for digit in range(digits):
            step = count ** digit
            marked = "".join(_CLASS[offset // step % count] if not fixed[offset] and char in _CLASS_INDEX else char
                             for offset, char in enumerate(body))
            walked = self.walk_alone(marked, memo, budget)
            if walked is None or walked[1] != rest or len(walked[0]) != len(want):
                return None
            walks.append((marked, walked[0]))
        literals: list[str] = []
        lines = []
        for index, line in enumerate(want):
            sources = []
            columns = [walk[1][index] for walk in walks]
            if any(len(column) != len(line) for column in columns):
                return None
            for chars in zip(*columns, strict=True):
                if chars[0] in _CLASS_INDEX:
                    if not all(char in _CLASS_INDEX for char in chars):
                        return None
                    source = sum(_CLASS_INDEX[char] * count ** digit for digit, char in enumerate(chars))
                    if source >= len(body) or fixed[source] or body[source] not in _CLASS_INDEX:
                        return None
                elif len(set(chars)) == 1:
                    if chars[0] not in literals:
                        literals.append(chars[0])
                    source = len(body) + literals.index(chars[0])
                else:
                    return None
                sources.append(source)
            lines.append(itemgetter(*sources) if sources else _EMPTY_LINE)
        template = Shape(tuple(tokens), (memo[0], memo[1], memo[2], rest, memo[4]), tuple(lines),
                         "".join(literals))
        for source, expected in [(body, want)] + [(marked, made) for marked, made in walks]:
            joined = source + template.literals
            if ["".join(line(joined)) for line in template.lines] != expected:
                return None
        return template

    def walk_alone(self, body: str, memo: Memo, budget: int) -> tuple[list[str], Changes] | None:
        """``body`` walked by a model of its own (:meth:`shape_template`): :class:`Model`'s, the whole
        model, which makes one of its class."""
        raise NotImplementedError
