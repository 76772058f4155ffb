"""The observation benchmark's tables: per page side by side, the targets, the off-screen recall."""

from __future__ import annotations

from typing import Any

from benchmarks.common import environment_md, fmt, md_table

#: The targets of issue 14 (ratios of our median time to the peer's, on every page).
TARGETS = {
    "cold_to_browser_use": 0.3,
    "warm_to_browser_use": 0.3,
    "warm_to_aria": 1.0,
    "cold_to_aria": 0.6,
    "recall": 0.99,
    "max_tokens": 2500,
}


def _med(stats: dict[str, Any] | None) -> Any:
    return (stats or {}).get("median")


def page_rows(report: dict[str, Any]) -> list[list[Any]]:
    rows = []
    for r in report["pages"]:
        bu = r.get("browser_use") or {}
        ratios = r.get("ratios") or {}
        rows.append(
            [
                f"{r['group']}: {r['page']}",
                _med(r["observe_cold_ms"]),
                _med(r["observe_warm_ms"]),
                _med(r["aria_ms"]),
                _med(bu.get("cold_ms")),
                _med(bu.get("warm_ms")),
                ratios.get("cold_to_browser_use"),
                ratios.get("warm_to_browser_use"),
                ratios.get("cold_to_aria"),
                ratios.get("warm_to_aria"),
                r["tokens"],
                r["aria_tokens"],
                bu.get("tokens"),
                f"{r['elements_shown']}/{r['elements_marked']}",
                r["aria_elements"],
                bu.get("elements"),
            ]
        )
    return rows


def targets(report: dict[str, Any]) -> list[list[Any]]:
    """Each target of issue 14 against the worst page (or the recall) of this run."""
    pages = report["pages"]
    out = []
    for key, label in (
        ("cold_to_browser_use", "cold / browser-use"),
        ("warm_to_browser_use", "warm / browser-use"),
        ("cold_to_aria", "cold / aria_snapshot"),
        ("warm_to_aria", "warm / aria_snapshot"),
    ):
        values = [
            (p["ratios"].get(key), f"{p['group']}: {p['page']}")
            for p in pages
            if p.get("ratios", {}).get(key) is not None
        ]
        if not values:
            out.append([label, f"<= {TARGETS[key]}", "not measured", "-"])
            continue
        worst, where = max(values)
        met = sum(1 for v, _ in values if v <= TARGETS[key])
        out.append([label, f"<= {TARGETS[key]}", f"{worst} ({where})", f"{met}/{len(values)} pages"])
    tokens = max(((p["tokens"], p["page"]) for p in pages), default=(None, "-"))
    out.append(["our tokens, any page", f"<= {TARGETS['max_tokens']}", f"{tokens[0]} ({tokens[1]})", "-"])
    recall = report.get("recall") or {}
    n = len(recall.get("pairs") or [])
    out.append(
        ["off-screen recall (ours)", f">= {TARGETS['recall']}", fmt(recall.get("ours"), 3), f"{n} pairs"]
    )
    return out


def to_markdown(report: dict[str, Any]) -> str:
    head = [
        "page",
        "ours cold ms",
        "ours warm ms",
        "aria ms",
        "b-u first ms",
        "b-u next ms",
        "cold/b-u",
        "warm/b-u",
        "cold/aria",
        "warm/aria",
        "tokens ours",
        "tokens aria",
        "tokens b-u",
        "ours shown/marked",
        "aria nodes",
        "b-u elements",
    ]
    recall = report.get("recall") or {}
    pairs = recall.get("pairs") or []
    bu_note = (
        f"browser-use {report['environment'].get('browser_use')} measured in the same run."
        if report.get("browser_use_measured")
        else f"**browser-use not measured**: {report.get('browser_use_note')}. Its columns are empty."
    )
    lines = [
        "## Observation, side by side",
        "",
        environment_md(report["environment"]),
        "",
        f"{report['runs']} runs per page, interleaved (ours cold and warm, aria_snapshot of the same document, "
        f"then browser-use's first and next page state); times are medians in ms. {bu_note} Ratios are our "
        "median over the peer's (below 1: we are faster). Tokens: tiktoken o200k_base of the text each system "
        "gives its model (ours: the observation text; aria: the snapshot; browser-use: `llm_representation()`). "
        "`shown/marked`: elements in our text / elements our marking pass found; aria nodes: `- role` lines; "
        "browser-use elements: its indexed interactive elements.",
        "",
        md_table(head, page_rows(report)),
        "",
        "Targets (issue 14), worst page of this run:",
        "",
        md_table(["measure", "target", "worst", "met"], targets(report)),
        "",
    ]
    if pairs:
        lines += [
            f"Off-screen recall: {len(pairs)} goal/page pairs, each naming a target far below the first screen; "
            "recalled when the text holds the target's name and its value. Ours observes with the goal; the "
            "peers take no goal, so their text of the page is checked. Recall: ours "
            f"{fmt(recall.get('ours'), 3)}, aria_snapshot {fmt(recall.get('aria'), 3)}, browser-use "
            f"{fmt(recall.get('browser_use'), 3)}.",
            "",
            md_table(
                ["page", "goal", "value", "ours", "aria", "browser-use", "our tokens"],
                [
                    [
                        p["page"],
                        p["goal"],
                        p["value"],
                        p["ours"],
                        p["aria"],
                        p["browser_use"],
                        p["ours_tokens"],
                    ]
                    for p in pairs
                ],
            ),
            "",
        ]
    problems = []
    for r in report["pages"]:
        said = [
            *(f"ours: {e}" for e in r.get("observe_errors") or []),
            *(f"aria_snapshot: {e}" for e in r.get("aria_errors") or []),
            *(f"browser-use: {e}" for e in (r.get("browser_use") or {}).get("errors") or []),
        ]
        if said:
            problems.append(f"- {r['group']}: {r['page']}: " + "; ".join(said))
    if problems:
        lines += [
            "Observations that failed (ours: time in the medians; aria_snapshot: left out of its median):",
            "",
            *problems,
            "",
        ]
    peaks = report.get("memory_peaks") or {}
    lines.append(
        f"Memory (largest sample after a page): our Chromium PSS {peaks.get('browser_pss_mb')} MB; Python peak "
        f"RSS {peaks.get('python_peak_mb')} MB. Total wall time: {report['wall_s']} s."
    )
    return "\n".join(lines) + "\n"
