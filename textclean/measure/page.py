"""``--html FILE``: the measure report as one self-contained page (inline CSS and SVG, no scripts,
no external assets), rendered from the same dict ``--json`` prints, so both always agree.

Every number a chart draws is also in the bar's ``data-value`` attribute (the JSON key in
``data-label`` / ``data-key``) and in a table beside it; what a person reads are labels in words.
Log text (paths, excerpts, details) is HTML-escaped; control characters in excerpts are shown as their
ECMA-48 names in a boxed span (``ESC``, ``CR``: the Unicode control pictures U+2400-U+243F are in
no common font, so browsers drew boxes) and undecodable bytes as U+FFFD.
"""

from __future__ import annotations

import html
from typing import Any

from textclean.pipeline.names import C0_NAMES

BAR_WIDTH = 420
BAR_HEIGHT = 18
LABEL_WIDTH = 190

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}
td.l,th.l{text-align:left}.num{font-variant-numeric:tabular-nums}
pre{background:#f6f6f6;padding:6px;overflow:auto;max-height:18em;font-size:12px;white-space:pre-wrap}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1em}.pair>div{min-width:0}.muted{color:#777}
svg text{font:12px system-ui,sans-serif}
.c{font:bold 9px/1 system-ui,sans-serif;color:#a33;border:1px solid #d99;border-radius:2px;padding:0 1px;
margin:0 1px;vertical-align:1px}
"""

#: What a person reads for each JSON key and gate reason the page shows (unknown keys read as themselves).
LABELS = {
    "files": "files read",
    "outputs_seen": "tool outputs seen",
    "outputs_unique": "distinct outputs (by text)",
    "outputs_fired": "outputs cleaned (gate fired)",
    "tokens_before": "tokens before, distinct outputs",
    "tokens_after": "tokens after, distinct outputs",
    "tokens_saved": "tokens saved, distinct outputs",
    "all_outputs.tokens_before": "tokens before, every output (repeats included)",
    "all_outputs.tokens_after": "tokens after, every output (repeats included)",
    "all_outputs.tokens_saved": "tokens saved, every output (repeats included)",
    "malformed_records": "malformed records (skipped)",
    "escape_sequences": "escape sequences",
    "cr_redraws": "carriage-return redraws",
    "backspace": "backspace overstrike",
    "multiline_redraws": "multi-line redraws",
    "applied": "cleaned",
    "too_large": "too large",
    "below_min_tokens": "below --min-tokens",
    "no_terminal_noise": "no terminal noise",
    "unsupported_control": "unsupported control",
    "malformed_escape": "malformed escape",
    "content_would_change": "content would change",
    "not_smaller": "not smaller",
    "non_text_blocks": "non-text blocks (left whole)",
    "unknown_shape": "unknown JSON shape",
}


def label(key: str) -> str:
    return LABELS.get(key, key)


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def visible(text: str) -> str:
    """``text`` as HTML: escaped, control characters (but line feeds and tabs) as their names in a
    boxed span, undecodable bytes (lone surrogates) as U+FFFD."""
    out = []
    run: list[str] = []
    for ch in text:
        code = ord(ch)
        if (code < 0x20 and ch not in "\n\t") or code == 0x7F:
            out.append(_e("".join(run)))
            run = []
            name = C0_NAMES.get(code, "DEL")
            out.append(f'<span class="c" title="{name} (U+{code:04X})">{name}</span>')
        else:
            run.append("\ufffd" if 0xD800 <= code <= 0xDFFF else ch)
    out.append(_e("".join(run)))
    return "".join(out)


def bar_chart(chart_id: str, title: str, items: list[tuple[str, int]]) -> str:
    """Horizontal bars, one per ``(label, value)``, as inline SVG."""
    widest = max((v for _, v in items), default=0) or 1
    height = BAR_HEIGHT * max(1, len(items)) + 10
    parts = [
        f'<svg id="{_e(chart_id)}" class="chart" role="img" aria-label="{_e(title)}" '
        f'width="{LABEL_WIDTH + BAR_WIDTH + 110}" height="{height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for i, (key, value) in enumerate(items):
        y = 5 + i * BAR_HEIGHT
        width = max(1, round(BAR_WIDTH * max(value, 0) / widest))
        parts.append(
            f'<text x="{LABEL_WIDTH - 6}" y="{y + 13}" text-anchor="end">{_e(label(key))}</text>'
            f'<rect x="{LABEL_WIDTH}" y="{y + 2}" width="{width}" height="{BAR_HEIGHT - 4}" fill="#4a78b5" '
            f'data-label="{_e(key)}" data-value="{value}"><title>{_e(label(key))}: {value:,}</title></rect>'
            f'<text x="{LABEL_WIDTH + width + 6}" y="{y + 13}">{value:,}</text>'
        )
    if not items:
        parts.append(f'<text x="{LABEL_WIDTH}" y="18" class="muted">(nothing)</text>')
    parts.append("</svg>")
    return "".join(parts)


def _summary(report: dict[str, Any]) -> str:
    every = report["all_outputs"]
    rows = [
        ("files", report["files"]),
        ("outputs_seen", report["outputs_seen"]),
        ("outputs_unique", report["outputs_unique"]),
        ("outputs_fired", report["outputs_fired"]),
        ("tokens_before", report["tokens_before"]),
        ("tokens_after", report["tokens_after"]),
        ("tokens_saved", report["tokens_saved"]),
        ("all_outputs.tokens_before", every["tokens_before"]),
        ("all_outputs.tokens_after", every["tokens_after"]),
        ("all_outputs.tokens_saved", every["tokens_saved"]),
        ("malformed_records", report["malformed_records"]),
    ]
    body = "".join(
        f'<tr><th class="l">{_e(label(key))}</th><td class="num" data-key="{_e(key)}">{value:,}</td></tr>'
        for key, value in rows
    )
    return f'<table id="summary">{body}</table>'


def _savings(report: dict[str, Any]) -> str:
    if not report["largest_savings"]:
        return '<p class="muted">No output fired.</p>'
    parts = []
    for n, item in enumerate(report["largest_savings"]):
        parts.append(
            f'<section class="saving" data-saved="{item["saved"]}"><h3>{n + 1}. −{item["saved"]:,} tokens '
            f'({item["tokens_before"]:,} → {item["tokens_after"]:,}) <span class="muted">{_e(item["source"])}'
            f'</span></h3><div class="pair"><div><b>before</b><pre>{visible(item["before_excerpt"])}</pre>'
            f'</div><div><b>after</b><pre>{visible(item["after_excerpt"])}</pre></div></div></section>'
        )
    return "".join(parts)


def _per_file(report: dict[str, Any]) -> str:
    head = (
        '<tr><th class="l">path</th><th class="l">format</th><th>outputs</th><th>fired</th>'
        '<th>tokens before</th><th>tokens after</th><th>malformed</th><th class="l">top refusal</th></tr>'
    )
    rows = []
    for row in report["per_file"]:
        refusal = ""
        if row["top_refusal"]:
            refusal = _e(label(row["top_refusal"]))
            if row["top_refusal_outputs"]:
                refusal += f" ×{row['top_refusal_outputs']}"
            if row["top_refusal_detail"]:
                refusal += f'<br><span class="muted">{_e(row["top_refusal_detail"])}</span>'
        rows.append(
            f'<tr><td class="l">{_e(row["path"])}</td><td class="l">{_e(row["format"])}</td>'
            f'<td class="num">{row["outputs"]}</td><td class="num">{row["fired"]}</td>'
            f'<td class="num">{row["tokens_before"]}</td><td class="num">{row["tokens_after"]}</td>'
            f'<td class="num">{row["malformed"]}</td>'
            f'<td class="l">{refusal}</td></tr>'
        )
    return f'<table id="per-file">{head}{"".join(rows)}</table>'


def render_page(report: dict[str, Any]) -> str:
    """The whole page for one ``summarize`` report."""
    transforms = list(report["saved_by_transform"].items())
    formats = sorted(
        ((fmt, entry["tokens_saved"]) for fmt, entry in report["saved_by_format"].items()),
        key=lambda item: -item[1],
    )
    refusals = [(reason, n) for reason, n in report["gate_reasons"].items() if reason != "applied"]
    details = "".join(
        f'<tr><th class="l">{_e(label(reason))}</th><td class="l">{_e(detail)}</td></tr>'
        for reason, detail in report["refusal_details"].items()
    )
    unknown = "".join(f"<li>{_e(path)}</li>" for path in report["unknown_files"])
    saved, before = report["tokens_saved"], report["tokens_before"]
    share = f"{100 * saved / before:.1f}%" if before else "n/a"
    return "".join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        "<title>textclean measure report</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>textclean measure: −{saved:,} tokens ({share} of distinct outputs)</h1>",
        f'<p>{report["files"]:,} files, {report["outputs_seen"]:,} outputs ({report["outputs_unique"]:,} distinct), '
        f'{report["outputs_fired"]:,} fired at --min-tokens {report["min_tokens"]}.</p>',
        _summary(report),
        "<h2>Tokens saved by transform</h2>",
        bar_chart("chart-transform", "tokens saved by transform", transforms),
        f'<p class="muted">{_e(report["notes"]["attribution"])}</p>',
        "<h2>Tokens saved by format (all outputs, repeats included)</h2>",
        bar_chart("chart-format", "tokens saved by format", formats),
        "<h2>Refusal reasons (distinct outputs)</h2>",
        bar_chart("chart-refusals", "refusal reasons", refusals),
        f'<table id="refusal-details">{details}</table>' if details else "",
        "<h2>Largest savings</h2>",
        _savings(report),
        "<h2>Per file</h2>",
        _per_file(report),
        f"<h2>Unknown shape (not measured)</h2><ul id=\"unknown\">{unknown}</ul>" if unknown else "",
        f'<p class="muted">{_e(report["notes"]["distinct"])}</p>',
        "</body></html>\n",
    ])
