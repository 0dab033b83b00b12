"""Intake as teachers and platforms really make it: one student's bad file never stops the class.

Hand-in times (garbled, in the future, missing), per-student extensions (``--extensions``), due
dates inside a daylight-saving jump or fold, class lists in the encodings spreadsheets save
(UTF-8 with and without BOM, Excel's "Unicode text", cp1252, GBK), names in any script, and what a
Gradescope learner sees before publishing (tests/test_gradescope.py). The class at the end is
graded through the command line with a fake executor: no notebook runs, so it takes seconds.
"""

from __future__ import annotations

import codecs
import csv
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

import nbformat
import pytest

from grader.grades import late
from grader.intake import class_intake, extensions
from grader.intake.class_intake import IntakeKind
from grader.lms import names, platforms, registry, roster, text_files
from tools.classroom import untouched

DAY = "day1"
NB = "00_environment"
MOODLE_HEADER = ["First name", "Last name", "ID number", "Email address", "Manual item: Day 1 (Real)"]


def now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def stamp(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M:%S}.000000 UTC"  # as nbgrader's exchange writes timestamp.txt


def table(rows: list[list[str]], sep: str = ",") -> str:
    return "".join(sep.join(row) + "\r\n" for row in rows)


# -- class lists as teachers save them ------------------------------------------------------------
ROWS = [MOODLE_HEADER, ["José", "Müller", "S-1", "jose@example.edu", "-"], ["Zoë", "Ærø", "S-2", "zoe@example.edu", "-"]]


@pytest.mark.parametrize("encoded, encoding", [
    (table(ROWS).encode("utf-8"), "UTF-8"),
    (codecs.BOM_UTF8 + table(ROWS).encode("utf-8"), "UTF-8 with BOM"),
    (table(ROWS, "\t").encode("utf-16"), "UTF-16"),  # Excel's "Unicode text": a BOM, tabs
    (table(ROWS, "\t").encode("utf-16-le"), "UTF-16"),  # the same without its mark
    (table(ROWS, ";").encode("cp1252"), "Windows-1252 (cp1252)"),  # Excel's "CSV" on a Western Windows
])
def test_rosters_are_read_in_every_encoding_a_spreadsheet_saves(tmp_path, encoded, encoding):
    path = tmp_path / "grades.csv"
    path.write_bytes(encoded)
    found = roster.load(path)
    assert found.encoding == encoding and found.kind is roster.RosterKind.MOODLE_GRADES
    assert [r["Last name"] for r in found.rows] == ["Müller", "Ærø"]  # the letters, not mojibake


@pytest.mark.parametrize("data, words", [
    (table(ROWS).encode("cp1252") + b"Bad,\x81row,S-3,x@example.edu,-\r\n", ["line 4", "0x81", "CSV UTF-8"]),
    (b"PK\x03\x04" + b"\x00" * 40, ["workbook", "CSV UTF-8"]),
    (codecs.BOM_UTF16_LE + "a,b\r\n".encode("utf-16-le") + b"\x00\xd8", ["line 2", "UTF-16", "CSV UTF-8"]),
    (b"First name,Email address\r\nA\x00B,a@b\r\n", ["line 2", "NUL", "CSV UTF-8"]),
])
def test_an_unreadable_roster_names_the_file_the_line_and_what_to_do(tmp_path, data, words):
    path = tmp_path / "class list.csv"
    path.write_bytes(data)
    with pytest.raises(roster.RosterError) as err:
        roster.load(path)
    text = str(err.value)
    assert "class list.csv" in text and all(w in text for w in words), text
    assert "codec" not in text and "decode" not in text and "Traceback" not in text


# Excel's plain "CSV" on a Simplified-Chinese Windows is GBK; most of its bytes are cp1252 letters too.
ZH_ROWS = [MOODLE_HEADER, ["伟", "张", "S-1", "wei@example.edu", "-"], ["芳", "王", "S-2", "fang@example.edu", "-"]]


@pytest.mark.parametrize("rows, sep, last_names", [
    (ZH_ROWS, ",", ["张", "王"]),
    ([MOODLE_HEADER, ["明", "李", "S-1", "ming@example.edu", "-"]], ";", ["李"]),  # one short name
    ([*ZH_ROWS, ["Renée", "Dupré", "S-3", "renee@example.edu", "-"]], ",", ["张", "王", "Dupré"]),  # GBK has é too
])
def test_a_chinese_excel_roster_is_read_as_gbk_not_as_mojibake(tmp_path, rows, sep, last_names):
    path = tmp_path / "grades.csv"
    data = table(rows, sep).encode("gbk")
    data.decode("cp1252")  # the trap: these bytes are valid Windows-1252 too
    path.write_bytes(data)
    found = roster.load(path)
    assert found.encoding == "GBK (GB18030)" and [r["Last name"] for r in found.rows] == last_names


# Each accented letter followed by a letter: GBK reads every pair as one Chinese character.
@pytest.mark.parametrize("rows", [
    [MOODLE_HEADER, ["François", "Hénault", "S-1", "f@example.edu", "-"], ["Éloïse", "Ångström", "S-2", "e@x.edu", "-"]],
    [MOODLE_HEADER, ["Loïc", "Bénard", "S-1", "loic@example.edu", "-"]],
    [MOODLE_HEADER, ["Jürgen", "Müller", "S-1", "jm@example.edu", "-"], ["Anaïs", "Brontës", "S-2", "ab@example.edu", "-"]],
])
def test_a_western_excel_roster_that_gbk_could_also_read_stays_cp1252(tmp_path, rows):
    path = tmp_path / "grades.csv"
    data = table(rows, ";").encode("cp1252")
    data.decode("gb18030")  # the trap: these bytes are valid GBK too
    path.write_bytes(data)
    found = roster.load(path)
    assert found.encoding == "Windows-1252 (cp1252)"
    assert [r["Last name"] for r in found.rows] == [r[1] for r in rows[1:]]


def test_text_files_say_which_encoding_they_used(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes("student,extra\r\nAndré,2 days\r\n".encode("cp1252"))
    assert text_files.read_text(path) == text_files.TextFile("student,extra\r\nAndré,2 days\r\n",
                                                             "Windows-1252 (cp1252)")


# -- names in any script ----------------------------------------------------------------------------
def test_keys_fold_case_and_unicode_forms():
    assert names.key("Müller, José") == names.key("MÜLLER JOSÉ") == names.key("mu\u0308ller jose\u0301")
    assert names.key("张伟") == names.key("张 伟") == "张伟" and names.key("Straße") == names.key("STRASSE")
    assert names.key("Ｍｉｎｇ") == "ming"  # full-width letters (a Chinese input method) fold to plain ones
    assert roster.key("张伟") == "张伟"  # the roster compares with it (was: "", so nobody matched)


def test_a_chinese_name_matches_the_moodle_export_and_is_not_also_missing(tmp_path):
    path = tmp_path / "grades.csv"
    path.write_text(table([MOODLE_HEADER, ["伟", "张", "S-1", "wei@example.edu", "-"],
                           ["Ana", "Silva", "S-2", "ana@example.edu", "-"]]), encoding="utf-8-sig")
    handin = registry.parse("张伟_123457_assignsubmission_file/00_environment.ipynb") or registry.parse(
        "张伟_123457_assignsubmission_file_/00_environment.ipynb")
    assert handin is not None and handin.student == "张伟_123457"  # letters kept, not "student_123457"
    got = roster.match([handin.student], roster.load(path), {handin.student: handin})
    assert got.found[handin.student]["Email address"] == "wei@example.edu" and not got.unmatched
    assert [r["First name"] for r in got.missing] == ["Ana"]


def test_a_student_who_fits_two_rows_is_unmatched_and_neither_row_is_no_hand_in(tmp_path):
    path = tmp_path / "grades.csv"
    path.write_text(table([MOODLE_HEADER, ["Li", "Wang", "S-1", "li1@example.edu", "-"],
                           ["Li", "Wang", "S-2", "li2@example.edu", "-"], ["Ana", "Silva", "S-3", "a@x", "-"]]))
    got = roster.match(["Li_Wang"], roster.load(path))
    assert [(u.student, u.reason) for u in got.unmatched] == [("Li_Wang", "ambiguous")]
    assert [r["First name"] for r in got.missing] == ["Ana"]  # not the two rows Li_Wang fits


@pytest.mark.parametrize("name, expected", [
    ("Müller, José", "Müller_José"), ("张伟", "张伟"), ("  Zoë ", "Zoë"), ("a/b\\c:d*e", "a_b_c_d_e"),
    ("CON", "CON_"), ("nul.txt", "nul.txt_"), ("...", "unnamed"), ("jose\u0301", "josé"),
])
def test_grader_ids_keep_letters_of_any_script_and_are_safe_file_names(name, expected):
    assert names.student_id(name) == expected
    long = names.student_id("张" * 200)
    assert len(long.encode()) <= names.MAX_ID_BYTES and set(long) == {"张"}


def test_different_students_get_different_ids():
    ids = {registry.parse(f"{n}_{pid}_assignsubmission_file_/x.ipynb").student
           for n, pid in [("张伟", "1"), ("张伟", "2"), ("王芳", "3"), ("Müller", "4"), ("Muller", "5")]}
    assert len(ids) == 5


# -- due dates inside a daylight-saving change --------------------------------------------------------
def test_a_due_time_that_does_not_exist_is_refused_naming_both_candidates():
    with pytest.raises(ValueError) as err:
        late.parse_due("2027-03-28 02:30 Europe/Berlin")  # the clocks jump from 02:00 to 03:00
    assert "does not exist" in str(err.value)
    assert "2027-03-28 00:30 UTC" in str(err.value) and "2027-03-28 01:30 UTC" in str(err.value)


def test_a_due_time_that_happens_twice_is_refused_naming_both_candidates():
    with pytest.raises(ValueError) as err:
        late.parse_due("2027-10-31 02:30 Europe/Berlin")  # 03:00 goes back to 02:00
    assert "happens twice" in str(err.value)
    assert "2027-10-31 00:30 UTC" in str(err.value) and "2027-10-31 01:30 UTC" in str(err.value)
    assert late.parse_due("2027-10-31 03:30 Europe/Berlin") == datetime(2027, 10, 31, 2, 30)
    assert late.parse_due("2027-03-28 Europe/Berlin") == datetime(2027, 3, 28, 21, 59, 59)


# -- hand-in times -----------------------------------------------------------------------------------
def test_hand_in_times_are_read_as_nbgrader_reads_them():
    t = now()
    assert late.handin_time(stamp(t - timedelta(days=1)), t).problem is None
    assert late.handin_time("2027-01-15T10:00:00+01:00", datetime(2028, 1, 1)).moment == datetime(2027, 1, 15, 9)
    assert late.handin_time("last Tuesday-ish ???", t).problem is late.TimeProblem.GARBLED
    assert late.handin_time("\x00\x01\x02", t).problem is late.TimeProblem.GARBLED
    assert late.handin_time(stamp(t + timedelta(days=3)), t).problem is late.TimeProblem.FUTURE
    assert late.handin_time(stamp(t + timedelta(minutes=2)), t).problem is None  # clocks differ a little
    assert late.handin_time("  ", t).problem is late.TimeProblem.MISSING


# -- extensions --------------------------------------------------------------------------------------
def test_extra_time_is_a_number_with_its_unit():
    assert late.parse_extra("2 days") == timedelta(days=2) and late.parse_extra("36h") == timedelta(hours=36)
    assert late.parse_extra("1 day 12 hours") == timedelta(days=1, hours=12) == late.parse_extra("1.5d")
    assert late.parse_extra("2天") == timedelta(days=2) and late.parse_extra("90 min") == timedelta(minutes=90)
    for text in ("2", "two days", "2 fortnights", ""):
        with pytest.raises(ValueError):
            late.parse_extra(text)


def test_an_extensions_file_without_its_columns_is_refused(tmp_path):
    path = tmp_path / "ext.csv"
    path.write_text("name,when\nalice,tomorrow\n")
    with pytest.raises(extensions.ExtensionsError) as err:
        extensions.load(path)
    assert "ext.csv" in str(err.value) and "'student'" in str(err.value) and "name, when" in str(err.value)


@dataclass
class Sub:
    """What class_intake reads of a submissions.Submission."""

    student: str
    timestamp: str | None = None
    lang: str = "en"
    attributed: bool = True
    origin: platforms.Handin | None = None
    notes: list[str] = field(default_factory=list)


def test_each_extension_row_affects_its_own_student_only(tmp_path):
    path = tmp_path / "ext.csv"
    path.write_bytes(table([["student", "due", "extra"], ["ALICE", "", "2 days"], ["bob", "next week", ""],
                            ["carol", "2027-01-20 12:00 UTC", "1 day"], ["dave", "", "1 day"], ["dave", "", "2 days"],
                            ["nobody", "", "1 day"], ["10004", "2027-01-18 09:00 Europe/Berlin", ""]]).encode("cp1252"))
    rows = extensions.load(path)
    subs = [Sub(s, stamp(datetime(2027, 1, 14))) for s in ("alice", "bob", "carol", "dave", "erin")]
    subs.append(Sub("smithfrank_10004", stamp(datetime(2027, 1, 14)),
                    origin=registry.parse("smithfrank_10004_1_00_environment.ipynb")))
    intake = class_intake.check(subs, "2027-01-15T23:59:00", rows, now=datetime(2027, 2, 1))
    assert intake.dues == {"alice": "2027-01-17T23:59:00", "smithfrank_10004": "2027-01-18T08:00:00"}
    bad = {n.student: n.text() for n in intake.notes if n.kind is IntakeKind.EXTENSION_BAD}
    assert set(bad) == {"bob", "carol", "dave"} and intake.needing_human() == ["bob", "carol", "dave"]
    assert "line 3" in bad["bob"] and "'next week'" in bad["bob"] and "ext.csv" in bad["bob"]
    assert "both a new due date and extra time" in bad["carol"] and "lines 5, 6" in bad["dave"]
    assert [n.text() for n in intake.notes if n.kind is IntakeKind.EXTENSION_NOBODY] == [
        "ext.csv, line 7: 'nobody' is none of the graded students, so this extension was given to nobody"]
    assert intake.due_for("erin", "2027-01-15T23:59:00") == "2027-01-15T23:59:00"
    assert subs[0].notes == ["You have an extension: your work was due 2027-01-17 23:59 UTC."]


def test_a_bad_hand_in_time_is_taken_off_that_student_only():
    t = datetime(2027, 2, 1)
    subs = [Sub("ann", stamp(t - timedelta(days=5))), Sub("bob", "31/02/2027 25:61"), Sub("bob", "31/02/2027 25:61"),
            Sub("cy", stamp(t + timedelta(days=30)), lang="zh-CN"), Sub("dee")]
    intake = class_intake.check(subs, "2027-01-20T00:00:00", now=t)
    assert [s.timestamp for s in subs[1:4]] == [None, None, None] and subs[0].timestamp is not None
    assert [(n.student, n.kind) for n in intake.notes] == [
        ("bob", IntakeKind.TIME_GARBLED), ("cy", IntakeKind.TIME_FUTURE), ("dee", IntakeKind.TIME_MISSING)]
    assert intake.needing_human() == ["bob", "cy"]
    assert "'31/02/2027 25:61'" in intake.notes[0].text() and "not a date" in intake.notes[0].text()
    assert "in the future" in intake.notes[1].text() and "2027-02-01 00:00 UTC" in intake.notes[1].text()
    assert subs[1].notes and "迟交" in subs[3].notes[0]  # the learner's note, in their notebook's language
    assert not class_intake.check([Sub("dee")], None, now=t).notes  # no due date: a missing time does not matter


# -- the acceptance test: a class with three bad files ------------------------------------------------
class FakeExecutor:
    """Full marks for every job, and nbgrader's late penalty from the job's own hand-in time and due date."""

    name = "fake"
    in_process = False

    def __init__(self, maxes: dict[str, dict[str, float]]):
        self.maxes, self.specs = maxes, []

    def warm_up(self, items) -> None:
        pass

    def run(self, items):
        from grader.run import jobs
        from tests.harness import fakes

        for key, spec in items:
            self.specs.append(spec)
            cells = self.maxes[spec.notebook]
            score = sum(cells.values())
            moment = late.handin_time(spec.timestamp).moment if spec.timestamp else None
            seconds = (moment - datetime.fromisoformat(spec.due)).total_seconds() if moment and spec.due else 0
            penalty = late.penalty(score, seconds, 0.1, 1.0) if seconds > 0 else None
            yield key, jobs.JobOutcome(fakes.graded(cells, 1.0, penalty))

    def close(self) -> None:
        pass


def write_class(folder: Path, stamps: dict[str, str | None]) -> Path:
    for student, text in stamps.items():
        day = folder / "submitted" / student / DAY
        day.mkdir(parents=True)
        nbformat.write(untouched(DAY, NB), str(day / f"{NB}.ipynb"))
        if text is not None:
            (day / "timestamp.txt").write_text(text)
    return folder / "submitted"


def test_a_class_with_a_garbled_time_a_cp1252_roster_and_a_future_time_grades_everyone_else(
        tmp_path, monkeypatch, capsys):
    from grader.grades import gradebook
    from grader.run import cli, engine

    t = now()
    due = t - timedelta(days=10)
    late_stamp = stamp(due + timedelta(hours=32))  # two started days late
    subs = write_class(tmp_path / "class", {
        "alice": stamp(due - timedelta(hours=3)), "bob": "yesterday, around noon?", "carol": stamp(t + timedelta(days=400)),
        "dave": late_stamp, "José_Müller": late_stamp, "erin": None})
    roster_path = tmp_path / "class" / "moodle grades.csv"
    roster_path.write_bytes(table([MOODLE_HEADER, *[[first, last, f"S-{i}", f"{mail}@example.edu", "-"] for i, (
        first, last, mail) in enumerate([("Alice", "A", "alice"), ("Bob", "B", "bob"), ("Carol", "C", "carol"),
                                         ("Dave", "D", "dave"), ("José", "Müller", "jmuller"), ("Erin", "E", "erin"),
                                         ("Fay", "F", "fay")])]]).encode("cp1252"))
    ext = tmp_path / "class" / "extensions.csv"
    ext.write_text("student,extra\nJosé Müller,2 days\n", encoding="utf-8")
    maxes = {}

    def fake(self, workers, work_root, hide):
        maxes.update(gradebook.max_scores(self.db_url, self.day))
        executor = FakeExecutor(maxes)
        fakes.append(executor)
        return executor, False

    fakes: list[FakeExecutor] = []
    monkeypatch.setattr(engine.Grader, "executor", fake)
    monkeypatch.setenv("PTGRADE_SECOND_KEY", "off")
    out = tmp_path / "out"
    rc = cli.main(["grade", DAY, "--submissions", str(subs), "--out", str(out), "--quiet", "--workers", "1",
                   "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--due", f"{due:%Y-%m-%d %H:%M} UTC",
                   "--extensions", str(ext), "--lms-roster", str(roster_path), "--export", "moodle"])
    stdout, stderr = capsys.readouterr()
    assert rc == 1, stdout + stderr  # two students need a human: the run says so in its exit status
    reports = out / "reports" / DAY
    grades = {r["student"]: r for r in csv.DictReader(open(reports / "grades.csv", encoding="utf-8"))}
    assert set(grades) == {"alice", "bob", "carol", "dave", "José_Müller", "erin"}
    full = float(grades["alice"]["total"])
    assert full > 0 and all(float(r["total"]) == full for r in grades.values())
    penalties = {s: float(r["late_penalty"]) for s, r in grades.items()}
    assert penalties == {"alice": 0, "bob": 0, "carol": 0, "dave": pytest.approx(0.2 * full), "José_Müller": 0,
                         "erin": 0}
    by_student = {spec.student: spec for spec in fakes[0].specs}
    assert by_student["bob"].timestamp is None and by_student["carol"].timestamp is None  # never reach nbgrader
    assert by_student["José_Müller"].due == (due + timedelta(days=2)).replace(second=0, microsecond=0).isoformat()
    # exactly what is wrong, on the student's row, on stderr and in the report
    assert "'yesterday, around noon?'" in grades["bob"]["needs_review"] and "not a date" in grades["bob"]["intake"]
    assert "in the future" in grades["carol"]["needs_review"] and not grades["alice"]["needs_review"]
    assert "no hand-in time" in grades["erin"]["intake"] and not grades["erin"]["needs_review"]
    assert grades["José_Müller"]["due"] and "extension: due" in grades["José_Müller"]["intake"]
    assert "error: bob: the hand-in time 'yesterday, around noon?'" in stderr
    assert "error: carol: the hand-in time" in stderr and "2 student(s) need a human" in stderr
    assert "moodle grades.csv was read as Windows-1252 (cp1252)." in stdout
    page = (reports / "report.html").read_text()
    assert "Hand-in times and extensions" in page and "yesterday, around noon?" in page
    assert "was read as Windows-1252 (cp1252)" in page
    with open(reports / "moodle.csv", encoding="utf-8") as f:
        moodle = {r["Email address"]: r for r in csv.DictReader(f)}
    assert moodle["jmuller@example.edu"]["Last name"] == "Müller"  # the cp1252 letters, matched and kept
    assert float(list(moodle["jmuller@example.edu"].values())[-1]) == full  # the grade column comes last
    assert list(moodle["fay@example.edu"].values())[-1] == ""  # on the roster, no hand-in
    assert "Fay F" in stdout and "José" not in stdout.split("no hand-in")[-1]
    feedback = (out / "feedback" / "bob" / DAY / f"{NB}.html").read_text()
    assert "hand-in time could not be read" in feedback


def test_the_readme_example_of_an_extensions_file_is_read(tmp_path):
    """The class guide's example is a file the grader reads, and the flag it names exists."""
    from grader.run import cli
    from tools.notebooks import ROOT

    readme = (ROOT / "README.md").read_text()
    example = readme[readme.index("--extensions extensions.csv"):].split("```\n")[1]
    path = tmp_path / "extensions.csv"
    path.write_text(example)
    rows = extensions.load(path)
    assert [(r.student, r.error) for r in rows] == [("alice", ""), ("José Müller", "")]
    assert rows[0].due == datetime(2027, 1, 17, 22, 59) and rows[1].extra == timedelta(days=2)
    assert "--extensions" in cli.build_parser()._subparsers._group_actions[0].choices["grade"].format_help()


def test_a_malformed_csv_names_the_file_and_the_line(tmp_path):
    path = tmp_path / "ext.csv"
    path.write_text("student,extra\nalice,1 day\nbob," + "x" * (200 * 1024) + "\n")  # past csv's field limit
    with pytest.raises(extensions.ExtensionsError) as err:
        extensions.load(path)
    assert str(err.value).startswith("ext.csv, line 3:") and "CSV UTF-8" in str(err.value)
