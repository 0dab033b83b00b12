"""The class report's sections about the platform: late marks, hand-in times and extensions, and what
the grade exports left out.

Kept apart from :mod:`grader.results.report` (which imports this module, never the other way round):
each function returns the section's words in the report's language, every one from the catalogue;
the template ``grader/templates/report.html`` lays them out (and escapes them).
"""

from __future__ import annotations

from dataclasses import dataclass

from ptcourse.messages import msg_in


@dataclass(frozen=True)
class LateView:
    """Penalties from hand-in times, and the platform's own LATE marks beside them."""

    heading: str
    penalties: str  # "ann: −1 points, bob: −2 points", or ""
    platform: str  # the platform's marks (information only), or ""


@dataclass(frozen=True)
class ExportView:
    """One grade export: its file, the graded students kept out of it, the roster students with no hand-in."""

    heading: str
    unmatched: str = ""  # the warning over ``unmatched_rows``
    unmatched_rows: tuple[tuple[str, str], ...] = ()  # (student, why)
    missing: str = ""
    muted: str = ""  # no roster given
    fine: str = ""  # everyone matched
    read_as: str = ""  # the encoding the roster was read with (grader.lms.text_files)
    scaled: str = ""  # the grades were scaled to the platform's maximum for the assignment
    anonymous: str = ""  # hand-ins known by an anonymous id only: nobody was told missing


@dataclass(frozen=True)
class IntakeView:
    """Hand-in times and extensions (grader.intake.class_intake): who needs a human, and one row per note."""

    heading: str
    human: str  # "2 student(s) need a human ...", or ""
    rows: tuple[tuple[str, str], ...]  # (student, what)


def late_section(late: dict[str, float], platform_late: dict[str, str], lang: str) -> LateView | None:
    """Penalties from hand-in times, and the platform's own LATE marks beside them (information only)."""
    if not late and not platform_late:
        return None
    penalties = ", ".join(msg_in(lang, "grader.report.late_one", student=s, points=p) for s, p in sorted(late.items()))
    platform = ""
    if platform_late:
        marked = ", ".join(sorted(platform_late))
        name = ", ".join(sorted(set(platform_late.values()))).capitalize()
        platform = msg_in(lang, "grader.report.platform_late", platform=name, students=marked)
    return LateView(msg_in(lang, "grader.report.late"), penalties, platform)


def _reason(lang: str, reason: str) -> str:
    return msg_in(lang, f"grader.report.unmatched_{reason}")


def export_view(result, lang: str) -> ExportView:
    """One :class:`grader.lms.lms_files.ExportResult` in words."""
    heading = msg_in(lang, "grader.report.export", kind=result.kind.capitalize(), file=result.path.name)
    unmatched, rows, missing = "", (), ""
    if result.unmatched:
        listed = result.unmatched_path.name if result.unmatched_path else ""
        unmatched = msg_in(lang, "grader.report.unmatched", count=len(result.unmatched), file=listed)
        rows = tuple((u.student, _reason(lang, u.reason)) for u in result.unmatched)
    if result.missing:
        how = msg_in(lang, "grader.report.missing_zero" if result.missing_as_zero else "grader.report.missing_blank")
        missing = msg_in(lang, "grader.report.missing", count=len(result.missing), how=how) + " " + ", ".join(
            result.missing)
    muted = msg_in(lang, "grader.report.no_roster") if result.roster is None else ""
    fine = (msg_in(lang, "grader.report.roster_all")
            if result.roster is not None and not result.unmatched and not result.missing and not result.anonymous
            else "")
    read_as = (msg_in(lang, "grader.report.roster_read_as", file=result.roster.name, encoding=result.roster_encoding)
               if result.roster is not None and result.roster_encoding else "")
    scaled = (msg_in(lang, "grader.report.scaled", file=result.path.name, roster=result.roster.name,
                     course=f"{result.scaled[0]:g}", platform=f"{result.scaled[1]:g}")
              if result.scaled and result.roster is not None else "")
    anonymous = msg_in(lang, "grader.report.anonymous", count=result.anonymous) if result.anonymous else ""
    return ExportView(heading, unmatched, rows, missing, muted, fine, read_as, scaled, anonymous)


def exports_section(results: list, lang: str) -> list[ExportView]:
    """Per grade export: its file, the graded students kept out of it, the roster students with no hand-in."""
    return [export_view(result, lang) for result in results]


def intake_section(notes, lang: str) -> IntakeView | None:
    """Each :class:`grader.intake.class_intake.IntakeNote` in words, those that need a human first."""
    if not notes:
        return None
    ordered = sorted(notes, key=lambda n: (not n.needs_human, n.student))
    humans = {n.student for n in notes if n.needs_human}
    human = msg_in(lang, "grader.report.intake_human", count=len(humans)) if humans else ""
    nobody = msg_in(lang, "grader.report.nobody")
    return IntakeView(msg_in(lang, "grader.report.intake"), human,
                      tuple((n.student or nobody, n.text(lang)) for n in ordered))
