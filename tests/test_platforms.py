"""The instructor's platforms as they really are: Canvas's and Moodle's downloads, rosters and imports.

Download trees are built from each platform's documented naming (tests/data/README.md), zipped
and unzipped; rosters are the samples in tests/data/. Nothing here runs a notebook except the
one slow test, which grades a small Canvas download end to end.
"""

from __future__ import annotations

import csv
import re
import shutil
import zipfile
from pathlib import Path

import nbformat
import pytest

from grader.grades import late
from grader.intake import submissions
from grader.lms import lms_files, platforms, registry, roster
from grader.lms.platforms import Platform
from grader.records import NotebookRecord
from grader.results import exports, report, roster_report
from tests.harness import fakes
from tools.classroom import solved, untouched
from tools.notebooks import ROOT

DATA = ROOT / "tests" / "data"
DAY = "day1"
NOTEBOOKS = ["00_environment", "01_tensors", "02_autograd", "03_modules"]
COLUMN = "Day 1: PyTorch's building blocks"


def masters():
    from grader.run.engine import masters_of

    return masters_of(ROOT / "solutions" / DAY)[0]


def rows(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.reader(f))


def write(folder: Path, name: str, nb=None) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb if nb is not None else untouched(DAY, "00_environment"), str(path))
    return path


def zipped(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w") as z:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                z.write(path, path.relative_to(folder).as_posix())
    return target


# -- file names ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name, expected", [
    ("smithalice_10001_5551_01_tensors.ipynb", ("10001", "smithalice", "01_tensors.ipynb", False, 0)),
    ("jonesbob_LATE_10002_5552_01_tensors.ipynb", ("10002", "jonesbob", "01_tensors.ipynb", True, 0)),
    ("smithalice_10001_5551_01_tensors-2.ipynb", ("10001", "smithalice", "01_tensors.ipynb", False, 2)),
    ("leecarol_LATE_10003_5553_my work final-1.ipynb", ("10003", "leecarol", "my work final.ipynb", True, 1)),
])
def test_canvas_names(name, expected):
    """Canvas: lastnamefirstname_[LATE_]<user id>_<submission id>_<original>, -N before the extension."""
    h = registry.parse(name)
    assert h.platform is Platform.CANVAS
    assert (h.platform_id, h.name, h.original, h.late, h.version) == expected


@pytest.mark.parametrize("path", [
    "Bob Jones_123457_assignsubmission_file_/01_tensors.ipynb",
    "Bob Jones_123457_assignsubmission_file_01_tensors.ipynb",
])
def test_moodle_names(path):
    """Moodle: one folder, or one file-name prefix, per student: Full Name_<participant id>_assignsubmission_file_."""
    h = registry.parse(path)
    assert (h.platform, h.platform_id, h.name, h.original) == (Platform.MOODLE, "123457", "Bob Jones", "01_tensors.ipynb")
    assert h.student == "Bob_Jones_123457"


@pytest.mark.parametrize("name", ["alice.ipynb", "alice_01_tensors.ipynb", "01_tensors - Alice Smith.ipynb",
                                  "notes.ipynb", "Bob Jones_assignsubmission_file_/x.ipynb"])
def test_other_names_are_no_platforms(name):
    assert registry.parse(name) is None


# -- intake -------------------------------------------------------------------------------------
def canvas_download(folder: Path) -> Path:
    """Alice: all four notebooks, 01 resubmitted twice; Bob: late; Zed: not on the roster; one stray file."""
    for nb in NOTEBOOKS:
        write(folder, f"smithalice_10001_5551_{nb}.ipynb", untouched(DAY, nb))
    write(folder, "smithalice_10001_5551_01_tensors-1.ipynb", untouched(DAY, "01_tensors"))
    write(folder, "smithalice_10001_5551_01_tensors-2.ipynb", untouched(DAY, "01_tensors"))
    write(folder, "jonesbob_LATE_10002_5552_00_environment.ipynb")
    write(folder, "zedzed_10099_5559_00_environment.ipynb")
    write(folder, "00_environment.ipynb")  # renamed by hand: whose?
    (folder / "smithalice_10001_5551_readme.txt").write_text("hi")
    return folder


def by_student(subs):
    out = {}
    for s in subs:
        out.setdefault(s.student, []).append(s)
    return out


@pytest.mark.parametrize("packed", ["folder", "zip", "wrapped"])
def test_canvas_download_groups_files_by_student(tmp_path, packed):
    """One Canvas student with four notebooks is one student, not four; the newest resubmission is graded."""
    folder = canvas_download(tmp_path / "canvas" / "submissions")
    source = {"folder": folder, "zip": zipped(folder, tmp_path / "submissions.zip"), "wrapped": folder.parent}[packed]
    students = by_student(submissions.discover(source, DAY, masters()))
    assert set(students) == {"smithalice_10001", "jonesbob_10002", "zedzed_10099", "00_environment.ipynb"}
    alice = {s.notebook: s for s in students["smithalice_10001"] if s.notebook}
    assert sorted(alice) == NOTEBOOKS
    assert alice["01_tensors"].path.name == "smithalice_10001_5551_01_tensors-2.ipynb"
    assert any("newest upload" in n and "01_tensors-1.ipynb" in n for n in alice["01_tensors"].notes)
    assert any(s.error and "readme.txt" in s.error for s in students["smithalice_10001"])
    (bob,) = students["jonesbob_10002"]
    assert bob.origin.late and bob.notebook == "00_environment" and bob.error is None
    (stray,) = students["00_environment.ipynb"]
    assert not stray.attributed and stray.notebook is None and "neither Canvas's nor Moodle's" in stray.error


@pytest.mark.parametrize("layout", ["folders", "prefixes", "zip"])
def test_moodle_download_groups_files_by_student(tmp_path, layout):
    folder = tmp_path / "moodle"
    sep = "/" if layout != "prefixes" else ""
    for nb in NOTEBOOKS[:2]:
        write(folder, f"Bob Jones_123457_assignsubmission_file_{sep}{nb}.ipynb", untouched(DAY, nb))
    write(folder, f"Alice Smith_123456_assignsubmission_file_{sep}00_environment.ipynb")
    source = zipped(folder, tmp_path / "moodle.zip") if layout == "zip" else folder
    students = by_student(submissions.discover(source, DAY, masters()))
    assert set(students) == {"Bob_Jones_123457", "Alice_Smith_123456"}
    assert sorted(s.notebook for s in students["Bob_Jones_123457"]) == NOTEBOOKS[:2]
    assert students["Bob_Jones_123457"][0].origin.platform_id == "123457"


def test_one_student_in_nbgrader_layout_is_still_read(tmp_path):
    """The wrapper-folder rule never hides nbgrader's layout (`grader check` hands in as me/day1/)."""
    write(tmp_path / "me" / DAY, "00_environment.ipynb")
    (sub,) = submissions.discover(tmp_path, DAY, masters())
    assert (sub.student, sub.notebook) == ("me", "00_environment")


def test_zip_cannot_escape_or_link(tmp_path):
    """Member names with .. or absolute paths, and links, are skipped: nothing lands outside the folder."""
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("../escape.ipynb", "{}")
        z.writestr("/abs.ipynb", "{}")
        link = zipfile.ZipInfo("smithalice_10001_5551_link.ipynb")
        link.external_attr = 0o120777 << 16
        z.writestr(link, "/etc/passwd")
        z.writestr("smithalice_10001_5551_00_environment.ipynb", nbformat.writes(untouched(DAY, "00_environment")))
    from grader.intake import downloads

    out = downloads.unpack(archive, 10**6, into=tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").rglob("*")) == ["smithalice_10001_5551_00_environment.ipynb"]
    assert not (tmp_path / "escape.ipynb").exists()
    assert {(s.name, s.reason.value) for s in out.skipped} == {
        ("../escape.ipynb", "unsafe"), ("/abs.ipynb", "unsafe"), ("smithalice_10001_5551_link.ipynb", "link")}


def _damage(archive: Path, member: str) -> None:
    """Flip a byte of ``member``'s stored contents: zipfile then fails its CRC check when it reads it."""
    with zipfile.ZipFile(archive) as z:
        info = z.getinfo(member)
    data = bytearray(archive.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0xFF
    archive.write_bytes(bytes(data))


def damaged_download(tmp_path: Path) -> Path:
    """A Canvas download: Alice's notebook whole, Bob's damaged, Zed's a link, one escaping name, and
    members that are nobody's hand-in (macOS's metadata, a damaged text file)."""
    nb = nbformat.writes(solved(DAY, "00_environment"))
    archive = tmp_path / "submissions.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("smithalice_10001_5551_00_environment.ipynb", nb)
        z.writestr("jonesbob_10002_5552_00_environment.ipynb", nb)
        z.writestr("jonesbob_10002_5553_readme.txt", "x" * 200)
        link = zipfile.ZipInfo("zedzed_10099_5554_00_environment.ipynb")
        link.external_attr = 0o120777 << 16
        z.writestr(link, "../../solutions/day1/00_environment.ipynb")
        z.writestr("../leeca_10003_5555_00_environment.ipynb", nb)
        z.writestr("__MACOSX/._smithalice_10001_5551_00_environment.ipynb", "\0" * 200)
    _damage(archive, "jonesbob_10002_5552_00_environment.ipynb")
    _damage(archive, "jonesbob_10002_5553_readme.txt")
    return archive


def test_a_notebook_the_download_could_not_unpack_is_said_on_its_students_row(tmp_path):
    """Never a silent zero: a damaged notebook or a link in a class's zip is on its student's row with why, an
    escaping name is nobody's; each needs the instructor. What nobody would have graded is not listed."""
    by: dict[str, list] = {}
    for sub in submissions.discover(damaged_download(tmp_path), DAY, masters()):
        by.setdefault(sub.student, []).append(sub)
    assert sorted(by) == ["../leeca_10003_5555_00_environment.ipynb", "jonesbob_10002", "smithalice_10001",
                          "zedzed_10099"], sorted(by)
    assert by["smithalice_10001"][0].notebook == "00_environment" and not by["smithalice_10001"][0].error
    (bob,) = by["jonesbob_10002"]
    assert bob.attributed and bob.intake_problem and "damaged" in bob.error
    assert "'jonesbob_10002_5552_00_environment.ipynb' in 'submissions.zip' could not be unpacked" in bob.error
    (zed,) = by["zedzed_10099"]
    assert zed.attributed and zed.intake_problem and "a link" in zed.error
    (escaping,) = by["../leeca_10003_5555_00_environment.ipynb"]  # its name is not trusted to say whose it is
    assert not escaping.attributed and escaping.intake_problem and "outside the folder" in escaping.error


def test_a_download_with_a_notebook_it_could_not_unpack_grades_the_rest_and_exits_non_zero(tmp_path, monkeypatch,
                                                                                          capsys):
    """The run says which files it could not unpack, on the terminal and in the class report, grades the
    rest, and exits non-zero: the instructor must look at them."""
    out = tmp_path / "out"
    code, stdout, stderr = grade(monkeypatch, capsys, "--submissions", str(damaged_download(tmp_path)),
                                 "--out", str(out), "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}")
    assert code == 1, stdout + stderr
    assert "needs a human: 3 hand-in(s)" in stderr, stderr
    assert "jonesbob_10002_5552_00_environment.ipynb" in stderr and "zedzed_10099_5554" in stderr
    reports = out / "reports" / DAY
    page = (reports / "report.html").read_text().replace("&#39;", "'")
    assert "'jonesbob_10002_5552_00_environment.ipynb' in 'submissions.zip' could not be unpacked" in page
    graded = {r["student"]: r for r in csv.DictReader(open(reports / "grades.csv"))}
    assert float(graded["smithalice_10001"]["total"]) > 0 and not graded["smithalice_10001"]["needs_review"], graded
    assert "could not be unpacked" in graded["jonesbob_10002"]["needs_review"], graded


def test_names_read_in_a_worked_out_encoding_are_said(tmp_path, monkeypatch, capsys):
    """A download zipped again without UTF-8 names: the run says which encoding its names were read in, on
    the terminal and in the class report; a platform's own download (names marked UTF-8) says nothing."""
    nb = nbformat.writes(untouched(DAY, "00_environment"))
    rezipped, marked = tmp_path / "rezipped.zip", tmp_path / "marked.zip"
    for archive, unmarked in ((rezipped, True), (marked, False)):
        with zipfile.ZipFile(archive, "w") as z:
            name = "张伟_123457_assignsubmission_file_/00_environment.ipynb"
            member = _Unmarked(name) if unmarked else zipfile.ZipInfo(name)
            if unmarked:
                member.raw = name.encode("gbk")
            z.writestr(member, nb)
    assert submissions.names_read(marked) == []
    assert submissions.names_read(rezipped) == [("rezipped.zip", "GBK (GB18030)")]
    out = tmp_path / "out"
    code, stdout, stderr = grade(monkeypatch, capsys, "--submissions", str(rezipped), "--out", str(out),
                                 "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}")
    assert code == 0, stdout + stderr
    said = "The file names in 'rezipped.zip' are not marked as UTF-8, so their encoding was worked out: they were read as GBK (GB18030)."
    assert said in stderr, stderr
    assert said in (out / "reports" / DAY / "report.html").read_text().replace("&#39;", "'")
    assert "张伟_123457" in {r["student"] for r in csv.DictReader(open(out / "reports" / DAY / "grades.csv"))}


class _Unmarked(zipfile.ZipInfo):
    """A member whose name is written in bytes of the maker's code page, without the UTF-8 mark."""

    raw = b""

    def _encodeFilenameFlags(self):  # noqa: N802 - zipfile's own hook
        return self.raw, self.flag_bits & ~0x800


# A class download zipped again by the teacher: Windows' "Send to compressed folder" writes the OEM code page
# (GBK on a Simplified-Chinese Windows, cp437 on a Western one), macOS's Archive Utility UTF-8, neither marked.
REZIPPED = [
    ("gbk", ["张伟_123457", "王芳_123458"]),
    ("gbk", ["李娜_123459"]),
    ("utf-8", ["José Müller_123460", "张伟_123457"]),
    ("cp437", ["Hélène Dupré_123461", "Loïc Bénard_123462"]),  # every byte pair is GBK too: 'H俵妌e Dupr俖123461'
    ("cp437", ["José Müller_123460"]),
]


@pytest.mark.parametrize("encoding, folders", REZIPPED)
def test_a_download_zipped_again_without_utf8_names_keeps_the_students_names(tmp_path, encoding, folders):
    """Each student's folder name comes out as the teacher's machine wrote it, never as mojibake."""
    archive = tmp_path / "rezipped.zip"
    nb = nbformat.writes(untouched(DAY, "00_environment"))
    with zipfile.ZipFile(archive, "w") as z:
        for folder in folders:
            member = _Unmarked(f"{folder}_assignsubmission_file_/00_environment.ipynb")
            member.raw = member.filename.encode(encoding)
            z.writestr(member, nb)
    from grader.intake import downloads

    downloads.unpack(archive, 10**6, into=tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(f"{f}_assignsubmission_file_" for f in folders)
    found = {s.student for s in submissions.discover(tmp_path / "out", DAY, masters())}
    assert found == {f.replace(" ", "_") for f in folders}  # the grader's ids: a space becomes "_"


# -- rosters ------------------------------------------------------------------------------------
@pytest.mark.parametrize("sep", [",", ";", "\t"])
def test_roster_separator_is_detected(tmp_path, sep):
    """Canvas may export with ';' and Moodle lets you choose: the same roster, whatever the separator."""
    original = rows(DATA / "canvas-gradebook-export.csv")
    path = tmp_path / "roster.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, delimiter=sep).writerows(original)
    found = roster.load(path)
    assert found.kind is roster.RosterKind.CANVAS and found.delimiter == sep
    assert [r["ID"] for r in found.rows] == ["10001", "10002", "10003"]


def test_unknown_roster_is_refused_in_plain_words(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("name|mail\nalice|a@x\n")
    with pytest.raises(roster.RosterError, match="not a gradebook exported from Canvas"):
        roster.load(path)


def test_canvas_ids_from_the_download_match_the_roster():
    """The user id in Canvas's file names is its roster's ID: matched even though 'smithalice' is no login."""
    canvas = roster.load(DATA / "canvas-gradebook-export.csv")
    ids = {"smithalice_10001": registry.parse("smithalice_10001_1_x.ipynb"),
           "zedzed_10099": registry.parse("zedzed_10099_1_x.ipynb")}
    got = roster.match(["smithalice_10001", "zedzed_10099"], canvas, ids)
    assert got.found["smithalice_10001"]["Student"] == "Smith, Alice"
    assert [(u.student, u.reason) for u in got.unmatched] == [("zedzed_10099", "not_on_roster")]
    assert sorted(r["ID"] for r in got.missing) == ["10002", "10003"]


def test_two_students_on_one_roster_row_are_both_unmatched():
    canvas = roster.load(DATA / "canvas-gradebook-export.csv")
    got = roster.match(["alice", "Alice_Smith"], canvas)
    assert not got.found and {u.reason for u in got.unmatched} == {"shared_row"}


# -- imports ------------------------------------------------------------------------------------
GRADES = [lms_files.Grade("alice", 47, 47), lms_files.Grade("bob", 37.6, 47, 9.4), lms_files.Grade("dave", 0, 47)]


@pytest.mark.parametrize("missing_as_zero", [False, True])
def test_moodle_import_only_has_roster_rows(tmp_path, missing_as_zero):
    """dave is not on the roster: in moodle-unmatched.csv, never a ',,,dave,0' row; carol (no hand-in): empty or 0."""
    loaded = roster.load(DATA / "moodle-grades-export.csv")
    result = registry.write("moodle", tmp_path, GRADES, COLUMN, loaded, {}, missing_as_zero)
    got = rows(result.path)
    emails = {r["Email address"] for r in loaded.rows}
    assert got[0] == [*lms_files.MOODLE_IDENTITY, f"Manual item: {COLUMN} (Real)"] or got[0][:4] == lms_files.MOODLE_IDENTITY
    assert all(r[3] in emails and r[0] and r[1] for r in got[1:]), got
    assert [r[-1] for r in got[1:]] == ["47", "37.6", "0" if missing_as_zero else ""]
    assert [u.student for u in result.unmatched] == ["dave"] and result.missing == ("Carol Lee",)
    assert rows(result.unmatched_path) == [["student", "points", "max_points", "reason"],
                                           ["dave", "0", "47", "not_on_roster"]]


def test_canvas_import_only_has_roster_rows(tmp_path):
    loaded = roster.load(DATA / "canvas-gradebook-export.csv")
    result = registry.write("canvas", tmp_path, GRADES, COLUMN, loaded, {})
    got = rows(result.path)
    assert got[0][-1] == f"{COLUMN} (4711)" and got[1][0].strip() == "Points Possible"
    assert [r[1] for r in got[2:]] == ["10001", "10002", "10003"] and [r[-1] for r in got[2:]] == ["47", "37.6", ""]
    assert [u.student for u in result.unmatched] == ["dave"]


def _with_maximum(tmp_path: Path, source: str, old: str, new: str) -> Path:
    path = tmp_path / source
    path.write_text((DATA / source).read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize("source, old, new, maximum", [
    ("canvas-gradebook-export.csv", "47.00", "100.00", 100.0),  # Canvas reads the points out of its own maximum
    ("moodle-grading-worksheet.csv", "47.00", "10,00", 10.0),  # Moodle drops a grade above it; a decimal comma
])
def test_grades_are_put_on_the_platforms_maximum_and_it_is_said(tmp_path, source, old, new, maximum):
    """Where the class list says the assignment's maximum and it is not the course's, the import file's grades
    are scaled to it (never a grade the platform drops or reads on another scale), and the run says so."""
    loaded = roster.load(_with_maximum(tmp_path, source, old, new))
    kind = "canvas" if source.startswith("canvas") else "moodle"
    ids = {"alice": platforms.Handin(Platform.CANVAS, "10001", "smithalice", "x.ipynb"),
           "bob": platforms.Handin(Platform.CANVAS, "10002", "jonesbob", "x.ipynb")} if kind == "canvas" else {
        "alice": platforms.Handin(Platform.MOODLE, "123456", "Alice Smith", "x.ipynb"),
        "bob": platforms.Handin(Platform.MOODLE, "123457", "Bob Jones", "x.ipynb")}
    grades = [lms_files.Grade("alice", 47, 47), lms_files.Grade("bob", 37.6, 47)]
    result = registry.write(kind, tmp_path / "out", grades, COLUMN, loaded, ids)
    assert result.scaled == (47, maximum)
    got = rows(result.path)
    column = got[0].index(f"{COLUMN} (4711)") if kind == "canvas" else got[0].index("Grade")
    first = 2 if kind == "canvas" else 1
    assert [float(r[column]) for r in got[first:first + 2]] == [maximum, round(37.6 * maximum / 47, 2)]
    if kind == "canvas":
        assert got[1][column] == f"{maximum:g}"
    view = roster_report.export_view(result, "en")
    assert f"maximum in {loaded.path.name} is {maximum:g} points, the course's 47" in view.scaled
    assert "grades.csv keeps the course's points" in view.scaled


def test_an_anonymous_download_never_zeroes_the_roster(tmp_path):
    """Canvas's anonymous grading: the hand-ins claim no roster row, so nobody can be told to have handed nothing
    in; --missing-as-zero writes no 0 and no row is listed as missing, and the run says why."""
    ids = {s: platforms.Handin(Platform.CANVAS, s, "", "x.ipynb", anonymous=True) for s in ("anon_Xy3Kq", "anon_Pq7Zt")}
    grades = [lms_files.Grade(s, 40, 47) for s in ids]
    result = registry.write("canvas", tmp_path, grades, COLUMN, roster.load(DATA / "canvas-gradebook-export.csv"),
                            ids, missing_as_zero=True)
    assert [r[-1] for r in rows(result.path)[2:]] == ["", "", ""]
    assert result.anonymous == 2 and not result.missing and not result.missing_as_zero
    assert {u.student for u in result.unmatched} == set(ids)
    view = roster_report.export_view(result, "en")
    assert "2 graded hand-in(s) are known by an anonymous id only" in view.anonymous and not view.fine


def test_the_same_maximum_is_left_alone(tmp_path):
    result = registry.write("canvas", tmp_path, GRADES, COLUMN, roster.load(DATA / "canvas-gradebook-export.csv"), {})
    assert result.scaled is None and not roster_report.export_view(result, "en").scaled


def test_canvas_manual_posting_row_and_split_names_are_read_as_canvas_writes_them(tmp_path):
    """gradebook_exporter.rb: a "Manual Posting" row under the header (no student's), and with
    show_student_first_last_name the columns LastName, FirstName instead of Student."""
    text = (DATA / "canvas-gradebook-export.csv").read_text(encoding="utf-8")
    header, rest = text.split("\n", 1)
    posting = ",,,,,Manual Posting,,,,\n"
    (tmp_path / "posting.csv").write_text(header + "\n" + posting + rest, encoding="utf-8")
    loaded = roster.load(tmp_path / "posting.csv")
    assert [r["ID"] for r in loaded.rows] == ["10001", "10002", "10003"]
    split = "LastName,FirstName" + header[len("Student"):] + "\n" + re.sub(r'^"(\w+), (\w+)"', r"\1,\2", rest, flags=re.M)
    (tmp_path / "split.csv").write_text(split, encoding="utf-8")
    loaded = roster.load(tmp_path / "split.csv")
    assert loaded.kind is roster.RosterKind.CANVAS
    assert [(r["Student"], r["ID"]) for r in loaded.rows] == [("Smith, Alice", "10001"), ("Jones, Bob", "10002"),
                                                            ("Lee, Carol", "10003")]
    result = registry.write("canvas", tmp_path / "out", GRADES, COLUMN, loaded, {})
    assert [r[:2] for r in rows(result.path)[2:]] == [["Smith, Alice", "10001"], ["Jones, Bob", "10002"],
                                                    ["Lee, Carol", "10003"]]


def test_moodle_worksheet_is_filled_by_participant_id(tmp_path):
    """Moodle's download ids are participant ids: matched to the grading worksheet's Identifier."""
    loaded = roster.load(DATA / "moodle-grading-worksheet.csv")
    ids = {"Bob_Jones_123457": registry.parse("Bob Jones_123457_assignsubmission_file_/x.ipynb"),
           "Ann_Other_999": registry.parse("Ann Other_999_assignsubmission_file_/x.ipynb")}
    grades = [lms_files.Grade("Bob_Jones_123457", 30, 47), lms_files.Grade("Ann_Other_999", 10, 47)]
    result = registry.write("moodle", tmp_path, grades, COLUMN, loaded, ids, missing_as_zero=True)
    got = {r["Identifier"]: r for r in csv.DictReader(open(result.path, encoding="utf-8"))}
    assert list(got) == ["Participant 123456", "Participant 123457", "Participant 123458"]
    assert got["Participant 123457"]["Grade"] == "30" and got["Participant 123456"]["Grade"] == "0"
    assert [u.student for u in result.unmatched] == ["Ann_Other_999"]


def test_moodle_without_roster_never_guesses_a_user(tmp_path):
    ids = {"Bob_Jones_123457": registry.parse("Bob Jones_123457_assignsubmission_file_/x.ipynb")}
    result = registry.write("moodle", tmp_path, [lms_files.Grade("Bob_Jones_123457", 30, 47)], COLUMN, None, ids)
    assert rows(result.path) == [["Username", COLUMN]]
    assert [u.reason for u in result.unmatched] == ["no_user_field"]


# -- due dates and the report -------------------------------------------------------------------
def test_due_dates_need_a_zone_and_a_date_alone_ends_the_day():
    assert late.parse_due("2027-01-15 23:59 UTC").isoformat() == "2027-01-15T23:59:00"
    assert late.parse_due("15/01/2027 UTC").isoformat() == "2027-01-15T23:59:59"
    assert late.parse_due("2027-01-15 Europe/Berlin").isoformat() == "2027-01-15T22:59:59"
    assert late.parse_due("2027-01-15 23:59 Europe/Berlin").isoformat() == "2027-01-15T22:59:00"
    assert late.parse_due("2027-02-01 12:00 +01:00").isoformat() == "2027-02-01T11:00:00"
    for text, words in (("15/01/2027", "no time zone"), ("2027-01-15 23:59", "no time zone"),
                        ("01/02/2027 UTC", "day-first or month-first")):
        with pytest.raises(ValueError, match=words):
            late.parse_due(text)


def test_cli_refuses_a_date_alone_before_grading(tmp_path, capsys):
    from grader.run import cli

    (tmp_path / "subs").mkdir()
    code = cli.main(["grade", DAY, "--submissions", str(tmp_path / "subs"), "--due", "15/01/2027",
                     "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--out", str(tmp_path)])
    assert code == 2 and "no time zone" in capsys.readouterr().err


def test_cli_refuses_a_broken_zip_before_grading(tmp_path, capsys):
    from grader.run import cli

    (tmp_path / "submissions.zip").write_bytes(b"PK\x03\x04 cut short")
    code = cli.main(["grade", DAY, "--submissions", str(tmp_path / "submissions.zip"),
                     "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--out", str(tmp_path)])
    assert code == 2 and "not a readable zip file" in capsys.readouterr().err


def test_cli_refuses_an_unknown_roster_before_grading(tmp_path, capsys):
    from grader.run import cli

    (tmp_path / "subs").mkdir()
    (tmp_path / "r.csv").write_text("a;b\n1;2\n")
    code = cli.main(["grade", DAY, "--submissions", str(tmp_path / "subs"), "--lms-roster", str(tmp_path / "r.csv"),
                     "--export", "canvas", "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--out", str(tmp_path)])
    assert code == 2 and "not a gradebook exported from Canvas" in capsys.readouterr().err


def record(student, score, attributed=True, late=0.0):
    return NotebookRecord(student=student, notebook="00_environment", status="graded" if attributed else "unreadable",
                          score=score, max_score=10.0, attributed=attributed, late_penalty=late)


def test_report_uses_final_scores_and_shows_both():
    records = [record("alice", 10.0), record("bob", 10.0, late=2.0), record("stray.ipynb", 0.0, attributed=False)]
    result = lms_files.ExportResult("canvas", Path("canvas.csv"), (roster.Unmatched("zed", "not_on_roster"),),
                                    Path("canvas-unmatched.csv"), ("Lee, Carol",), Path("r.csv"))
    page = report.class_report_html(DAY, records, [], report.ClassFacts(
        max_total=10, exports=(result,), platform_late={"bob": "canvas"}))
    assert "mean 9.0, median 9.0 of 10 points" in page  # (10 + 8) / 2, not 10
    assert "<td>bob</td><td>10</td><td>−2</td><td>8</td>" in page
    assert "2 students" in page and "(no student: needs a human)" in page
    assert "Canvas marked these hand-ins LATE: bob" in page
    assert "canvas-unmatched.csv" in page and "Lee, Carol" in page and "not on the roster" in page


def test_identities_the_intake_saves_give_canvas_ids(tmp_path):
    """exports.export reads the identities the intake saved: Canvas ids without a roster."""
    platforms.save_identities(tmp_path / platforms.IDENTITIES,
                              {"smithalice_10001": registry.parse("smithalice_10001_1_x.ipynb")})
    ids = platforms.load_identities(tmp_path / platforms.IDENTITIES)
    assert ids["smithalice_10001"].platform is Platform.CANVAS
    rows_, _ = lms_files.canvas_rows([lms_files.Grade("smithalice_10001", 5, 10)], None, ids, False)
    assert rows_ == [["smithalice", "10001", "", "", "", "5"]]
    assert exports.read_roster(DATA / "canvas-gradebook-export.csv")[0][:2] == ["Student", "ID"]


# -- a download graded end to end, the jobs scored by tests/harness/fakes.py (no kernel) -----------------
# What is tested here is intake, matching and export: the scores of a solved and an untouched notebook
# are the real grader's elsewhere (tests/test_roundtrip.py, tests/test_grader.py).
def grade(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """``python -m grader grade day1 --workers 2 --quiet ARGS`` in this process, a solved notebook scoring
    full marks and an untouched one nothing; (exit status, stdout, stderr)."""
    from grader.run import cli

    fakes.install(monkeypatch, fakes.keyed({"solved": (solved(DAY, "00_environment"), 1.0),
                                            "untouched": (untouched(DAY, "00_environment"), 0.0)}))
    code = cli.main(["grade", DAY, "--workers", "2", "--quiet", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_canvas_download_is_graded_into_roster_students(tmp_path, monkeypatch, capsys):
    """A zipped Canvas download: Alice (two notebooks) and a late Bob graded and exported on their roster rows;
    a stray file is a "needs a human" entry, never a student; Carol (no hand-in) is reported missing."""
    folder = tmp_path / "canvas"
    write(folder, "smithalice_10001_5551_00_environment.ipynb", solved(DAY, "00_environment"))
    write(folder, "smithalice_10001_5551_00_environment-1.ipynb", solved(DAY, "00_environment"))
    write(folder, "jonesbob_LATE_10002_5552_00_environment.ipynb", solved(DAY, "00_environment"))
    write(folder, "mystery.ipynb", solved(DAY, "00_environment"))
    archive = zipped(folder, tmp_path / "submissions.zip")
    out, db = tmp_path / "out", tmp_path / "gradebook.db"
    code, stdout, stderr = grade(monkeypatch, capsys, "--submissions", str(archive),
                                 "--out", str(out), "--gradebook", f"sqlite:///{db}", "--export", "canvas",
                                 "--lms-roster", str(DATA / "canvas-gradebook-export.csv"), "--missing-as-zero")
    assert code == 1, stdout + stderr  # the rest graded; mystery.ipynb needs a human
    assert "needs a human: 1 hand-in(s)" in stderr and "mystery.ipynb" in stderr
    reports = out / "reports" / DAY
    got = {r[1]: r for r in rows(reports / "canvas.csv")[2:]}
    assert set(got) == {"10001", "10002", "10003"}, got
    assert float(got["10001"][-1]) > 0 and float(got["10002"][-1]) == float(got["10001"][-1])
    assert got["10003"][-1] == "0"
    graded = {r["student"] for r in csv.DictReader(open(reports / "grades.csv"))}
    assert graded == {"smithalice_10001", "jonesbob_10002"}, graded
    page = (reports / "report.html").read_text()
    assert "mystery.ipynb" in page and "(no student: needs a human)" in page and "Lee, Carol" in page
    assert "not graded: no student could be told from it" in page
    assert "Canvas marked these hand-ins LATE: jonesbob_10002" in page
    assert not (reports / "canvas-unmatched.csv").exists()
    shutil.rmtree(out, ignore_errors=True)


def test_moodle_download_is_graded_into_the_grading_worksheet(tmp_path, monkeypatch, capsys):
    """Moodle 4.1+'s folders per student (no trailing '_'): graded, the worksheet filled by participant id, Dave
    (not in it) kept out of the upload file and listed; Carol (no submission) left empty."""
    folder = tmp_path / "moodle"
    write(folder, "Alice Smith_123456_assignsubmission_file/00_environment.ipynb", solved(DAY, "00_environment"))
    write(folder, "Bob Jones_123457_assignsubmission_file/my copy.ipynb", untouched(DAY, "00_environment"))
    write(folder, "Dave Extra_999999_assignsubmission_file/00_environment.ipynb", solved(DAY, "00_environment"))
    out, db = tmp_path / "out", tmp_path / "gradebook.db"
    code, stdout, stderr = grade(monkeypatch, capsys, "--submissions", str(folder),
                                 "--out", str(out), "--gradebook", f"sqlite:///{db}", "--export", "moodle",
                                 "--lms-roster", str(DATA / "moodle-grading-worksheet.csv"))
    assert code == 1, stdout + stderr  # Dave's grade is not in the upload file: the instructor enters it by hand
    reports = out / "reports" / DAY
    sheet = {r["Identifier"]: r for r in csv.DictReader(open(reports / "moodle.csv", encoding="utf-8"))}
    assert list(sheet) == ["Participant 123456", "Participant 123457", "Participant 123458"]
    assert float(sheet["Participant 123456"]["Grade"]) > 0 and sheet["Participant 123457"]["Grade"] == "0"
    assert sheet["Participant 123458"]["Grade"] == ""
    assert rows(reports / "moodle-unmatched.csv")[1][0] == "Dave_Extra_999999"
    assert "Dave_Extra_999999 (not_on_roster)" in stderr and "Carol Lee" in stdout


def test_moodle_download_matches_the_grades_export_by_full_name():
    """Moodle's grades export has no participant id: the download's full name decides, when one row has it."""
    grades_export = roster.load(DATA / "moodle-grades-export.csv")
    ids = {"Bob_Jones_123457": registry.parse("Bob Jones_123457_assignsubmission_file_/x.ipynb"),
           "Bo_Jones_123459": registry.parse("Bo Jones_123459_assignsubmission_file_/x.ipynb")}
    got = roster.match(list(ids), grades_export, ids)
    assert got.found["Bob_Jones_123457"]["Email address"] == "bob@example.edu"
    assert [u.student for u in got.unmatched] == ["Bo_Jones_123459"]
