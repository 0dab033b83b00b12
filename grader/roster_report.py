"""The class report's sections about the platform: late marks, and what the grade exports left out.

Kept apart from :mod:`grader.report` (which imports this module, never the other way round):
each function returns HTML fragments in the report's language, every word from the catalogue.
"""

from __future__ import annotations

import html

from ptcourse.messages import msg_in


def _t(lang: str, key: str, **values) -> str:
    return html.escape(msg_in(lang, key, **values))


def late_section(late: dict[str, float], platform_late: dict[str, str], lang: str) -> list[str]:
    """Penalties from hand-in times, and the platform's own LATE marks beside them (information only)."""
    if not late and not platform_late:
        return []
    parts = [f"<h2>{_t(lang, 'grader.report.late')}</h2>"]
    if late:
        parts.append("<p>" + ", ".join(_t(lang, "grader.report.late_one", student=s, points=p)
                                       for s, p in sorted(late.items())) + "</p>")
    if platform_late:
        marked = ", ".join(sorted(platform_late))
        platform = ", ".join(sorted(set(platform_late.values()))).capitalize()
        parts.append(f"<p class='muted'>{_t(lang, 'grader.report.platform_late', platform=platform, students=marked)}</p>")
    return parts


def _reason(lang: str, reason: str) -> str:
    return msg_in(lang, f"grader.report.unmatched_{reason}")


def exports_section(results: list, lang: str) -> list[str]:
    """Per grade export: its file, the graded students kept out of it, the roster students with no hand-in."""
    parts = []
    for result in results:
        parts.append(f"<h2>{_t(lang, 'grader.report.export', kind=result.kind.capitalize(), file=result.path.name)}</h2>")
        if result.unmatched:
            rows = "".join(f"<tr><td>{html.escape(u.student)}</td><td>{html.escape(_reason(lang, u.reason))}</td></tr>"
                           for u in result.unmatched)
            listed = result.unmatched_path.name if result.unmatched_path else ""
            parts.append(f"<div class='bad'>{_t(lang, 'grader.report.unmatched', count=len(result.unmatched), file=listed)}"
                         f"</div><table>{rows}</table>")
        if result.missing:
            how = msg_in(lang, "grader.report.missing_zero" if result.missing_as_zero else "grader.report.missing_blank")
            parts.append(f"<p>{_t(lang, 'grader.report.missing', count=len(result.missing), how=how)} "
                         f"{html.escape(', '.join(result.missing))}</p>")
        if result.roster is None:
            parts.append(f"<p class='muted'>{_t(lang, 'grader.report.no_roster')}</p>")
        elif not result.unmatched and not result.missing:
            parts.append(f"<p>{_t(lang, 'grader.report.roster_all')}</p>")
    return parts
