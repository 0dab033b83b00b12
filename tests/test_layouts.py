"""Every download layout, written the way each platform's own code writes it, read back and exported.

``canvas_name`` transcribes Canvas's ``lib/content_zipper.rb`` (``get_filename``,
``sanitize_file_name``, ``sanitize_user_name``, ``add_upload_submission``) and
``Attachment.make_unique_filename``; ``moodle_path`` transcribes Moodle's
``mod/assign/classes/downloader.php`` (4.1+) and ``mod/assign/locallib.php``
``download_submissions`` (3.1-4.0). The files are built from those, never from the grader's own
patterns, then read with :func:`grader.intake.submissions.discover` and exported with
:mod:`grader.lms.lms_files`: each grade must land on its own roster row. Nothing here runs a notebook.
"""

from __future__ import annotations

import csv
import re
import unicodedata
import zipfile
from pathlib import Path

import nbformat
import pytest

from grader.intake import submissions
from grader.lms import groups, lms_files, registry, roster
from tools.classroom import untouched
from tools.notebooks import ROOT

DATA = ROOT / "tests" / "data"
DAY = "day1"
NB = "00_environment"
COLUMN = "Day 1: PyTorch's building blocks"


def masters():
    from grader.run.engine import masters_of

    return masters_of(ROOT / "solutions" / DAY)[0]


# -- the platforms' naming, transcribed ----------------------------------------------------------
def ruby_words(text: str) -> str:
    """Ruby's ``gsub(/[^[[:word:]]]/, "")``: letters, combining marks, digits and "_" kept (Python's \\w has no marks)."""
    return "".join(c for c in text if c.isalnum() or c == "_" or unicodedata.category(c).startswith("M"))


def canvas_name(sortable: str, uid: int, file_id: int, display: str, late: bool = False,
                anon: str | None = None, old: bool = False) -> str:
    """content_zipper.rb: [users_name, "LATE", id].compact.join("_"), [[:word:]] kept, then _<file id>_<name>."""
    users_name = None if anon else re.sub(r"_(\d+)_", r"\1", sortable).lower()
    ident = f"anon_{anon}" if anon else str(uid)
    prefix = ruby_words("_".join(p for p in (users_name, "LATE" if late else None, ident) if p))
    prefix = prefix.lower() if old else prefix  # Canvas before 2019 lower-cased the whole prefix
    return f"{prefix}_{file_id}_{re.sub(r'[/:*?<>|]+', '_', display)}"


def canvas_unique(display: str, taken: set[str]) -> str:
    """Attachment.make_unique_filename: name-1.ext ... name-7.ext for a name already taken."""
    if display not in taken:
        return display
    stem, ext = display.rsplit(".", 1)
    return next(f"{stem}-{n}.{ext}" for n in range(1, 8) if f"{stem}-{n}.{ext}" not in taken)


def moodle_clean(text: str) -> str:
    """moodlelib.php clean_param PARAM_FILE: [[:cntrl:]] and & < > " ` | ' : \\ / removed."""
    return re.sub(r"[\x00-\x1f\x7f&<>\"`|':\\/]", "", text)


def moodle_path(full_name: str, pid: int | None, file: str, version: str = "4.1", folders: bool = True,
                team: str | None = None, group_id: int | None = None, blind: bool = False) -> str:
    """downloader.php get_student_prefix / locallib.php download_submissions, then the plugin's part."""
    who = "Participant" if blind else full_name
    if version == "4.1" and team is not None:  # format_string escapes a bare "&"; clean_filename (PARAM_FILE)
        escaped = re.sub(r"&(?![a-zA-Z0-9#]{1,8};)", "&amp;", team)
        prefix = moodle_clean(escaped.replace("_", " ") + (f"_{group_id}" if group_id else ""))
    else:
        prefix = (f"{team}-" if team else "") + who
        prefix = moodle_clean(prefix.replace("_", " ") + f"_{pid}")
    plugin = f"{prefix}_assignsubmission_file"
    if not folders:
        return f"{plugin}_{file}"
    return f"{plugin}/{file}" if version == "4.1" else f"{plugin}_/{file}"


def write(folder: Path, relative: str, nb=None) -> Path:
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb if nb is not None else untouched(DAY, NB), str(path))
    return path


def students(subs) -> dict[str, list[submissions.Submission]]:
    out: dict[str, list[submissions.Submission]] = {}
    for s in subs:
        out.setdefault(s.student, []).append(s)
    return out


def exported(tmp_path: Path, kind: str, subs, roster_file: Path) -> tuple[dict[str, str], lms_files.ExportResult]:
    """Each attributed student graded 10, 11, 12 ... in order; the export's grade by roster id."""
    graded = sorted({s.student for s in subs if s.attributed and s.notebook})
    grades = [lms_files.Grade(student, 10 + i, 47) for i, student in enumerate(graded)]
    ids = {s.student: s.origin for s in subs if s.origin is not None}
    result = registry.write(kind, tmp_path, grades, COLUMN, roster.load(roster_file), ids)
    with open(result.path, encoding="utf-8") as f:
        lines = list(csv.reader(f))
    key = 1 if kind == "canvas" else 0
    start = 2 if kind == "canvas" else 1
    return {r[key]: r[lines[0].index(COLUMN + " (4711)") if kind == "canvas" else lines[0].index("Grade")]
            for r in lines[start:]}, result


def points_of(subs, student: str) -> str:
    graded = sorted({s.student for s in subs if s.attributed and s.notebook})
    return str(10 + graded.index(student))


# -- Canvas -------------------------------------------------------------------------------------
def test_canvas_layouts_late_anonymous_and_resubmissions(tmp_path):
    """Normal, LATE, the old lower-case late, anonymous (with LATE), a name with '_' and one in Chinese; Alice's
    three uploads of one name: the newest (highest attachment id) is graded; lab-2023.ipynb is no version."""
    taken: set[str] = set()
    for file_id in (5551, 5560, 5570):
        write(tmp_path, canvas_name("Smith, Alice", 10001, file_id, canvas_unique(f"{NB}.ipynb", taken)))
        taken.add(canvas_unique(f"{NB}.ipynb", taken))
    write(tmp_path, canvas_name("Jones, Bob", 10002, 5552, f"{NB}.ipynb", late=True))
    write(tmp_path, canvas_name("Lee, Carol", 10003, 5553, "lab-2023.ipynb", late=True, old=True))
    write(tmp_path, canvas_name("O_Brien, Sean", 10004, 5554, f"{NB}.ipynb"))
    write(tmp_path, canvas_name("王, 小明", 10005, 5555, f"{NB}.ipynb"))
    write(tmp_path, canvas_name("", 0, 5556, f"{NB}.ipynb", anon="Xy3Kq"))
    write(tmp_path, canvas_name("", 0, 5557, f"{NB}.ipynb", late=True, anon="Pq7Zt"))
    subs = submissions.discover(tmp_path, DAY, masters())
    by = students(subs)
    assert {h.origin.platform_id for s in by.values() for h in s} == {
        "10001", "10002", "10003", "10004", "10005", "anon_Xy3Kq", "anon_Pq7Zt"}, by.keys()
    (alice,) = by["smithalice_10001"]
    assert alice.path.name.startswith("smithalice_10001_5570_") and alice.path.name.endswith("-2.ipynb")
    assert any("-1.ipynb" in n and "_5551_" in n for n in alice.notes)
    (carol,) = [s for s in subs if s.origin.platform_id == "10003"]
    assert carol.origin.late and carol.origin.original == "lab-2023.ipynb" and carol.origin.version == 0
    assert carol.notebook == NB  # recognised by its cells, not by a misread name
    anon = {s.student: s.origin for s in subs if s.origin.anonymous}
    assert set(anon) == {"anon_Xy3Kq", "anon_Pq7Zt"} and anon["anon_Pq7Zt"].late
    assert all(s.intake_problem is None for s in subs)
    grades, result = exported(tmp_path / "out", "canvas", subs, DATA / "canvas-gradebook-export.csv")
    assert grades == {"10001": points_of(subs, "smithalice_10001"), "10002": points_of(subs, "jonesbob_10002"),
                      "10003": points_of(subs, carol.student)}
    assert {u.student for u in result.unmatched} >= {"anon_Xy3Kq", "anon_Pq7Zt"}  # never a guessed row


def test_canvas_names_with_combining_marks_name_their_student(tmp_path):
    """Canvas keeps Ruby's [[:word:]], combining marks included: a Hindi or Tamil name, and a Vietnamese one
    stored decomposed, name their student like any other."""
    names = {"शर्मा, अमित": 10011, "தமிழ், செல்வி": 10012, unicodedata.normalize("NFD", "Nguyễn, Văn"): 10013}
    for name, uid in names.items():
        write(tmp_path, canvas_name(name, uid, uid + 100, f"{NB}.ipynb"))
    subs = submissions.discover(tmp_path, DAY, masters())
    assert all(s.attributed and s.notebook == NB for s in subs), [(s.student, s.error) for s in subs]
    assert sorted(s.origin.platform_id for s in subs) == ["10011", "10012", "10013"]
    assert "शर्माअमित_10011" in {s.student for s in subs}


def test_canvas_text_entries_and_urls_are_their_students_files(tmp_path):
    """A text entry (``<name>_<id>_text.html``) or a URL (``_link.html``, LATE and anonymous too) is a file of its
    student, listed and not graded; never a file that names nobody."""
    for name in ("smithalice_10001_text.html", "jonesbob_LATE_10002_link.html", "anon_Xy3Kq_text.html",
                 "LATE_anon_Pq7Zt_link.html"):
        (tmp_path / name).write_text("<html><body>my answer</body></html>")
    write(tmp_path, canvas_name("Lee, Carol", 10003, 5553, f"{NB}.ipynb"))
    by = students(submissions.discover(tmp_path, DAY, masters()))
    assert sorted(by) == ["anon_Pq7Zt", "anon_Xy3Kq", "jonesbob_10002", "leecarol_10003", "smithalice_10001"], by
    (alice,) = by["smithalice_10001"]
    assert alice.attributed and "'text.html' is not a notebook" in alice.error and not alice.intake_problem
    assert by["jonesbob_10002"][0].origin.late and by["anon_Pq7Zt"][0].origin.anonymous


def test_a_notebook_uploaded_without_its_extension_is_graded(tmp_path):
    """Canvas keeps the name a file was uploaded with: ``00_environment`` or ``lab.ipynb.txt`` holding a course
    notebook is graded as that notebook, never a silent "not a notebook"; a real text file is still listed."""
    write(tmp_path, canvas_name("Lee, Carol", 10003, 5553, NB))
    write(tmp_path, canvas_name("Wu, Dan", 10004, 5554, f"{NB}.ipynb.txt"))
    (tmp_path / canvas_name("Kim, Eve", 10005, 5555, "notes.txt")).write_text("my notes")
    by = students(submissions.discover(tmp_path, DAY, masters()))
    assert by["leecarol_10003"][0].notebook == NB and not by["leecarol_10003"][0].error
    (dan,) = by["wudan_10004"]
    assert dan.notebook == NB and not dan.error and any("recognised by its cells" in n for n in dan.notes)
    assert "is not a notebook" in by["kimeve_10005"][0].error


@pytest.mark.parametrize("display, original, version", [
    ("lab-2023.ipynb", "lab-2023.ipynb", 0), ("01_tensors-2.ipynb", "01_tensors.ipynb", 2),
    ("week-10.ipynb", "week-10.ipynb", 0), ("a-b.ipynb", "a-b.ipynb", 0),
    ("nb-0f8fad5b-d9cb-469f-a165-70867728950e.ipynb", "nb.ipynb", 8),
])
def test_canvas_version_suffixes_are_only_canvas_own(display, original, version):
    """Attachment.make_unique_filename writes -1 ... -7, then a uuid: nothing else is a version."""
    h = registry.parse(canvas_name("Smith, Alice", 10001, 1, display))
    assert (h.original, h.version) == (original, version)


def test_moodle_renamed_duplicate_is_a_version():
    """file_storage::get_unused_filename: 'nb (1).ipynb'; Canvas's '-1' means nothing on Moodle."""
    h = registry.parse(moodle_path("Bob Jones", 123457, "00_environment (1).ipynb"))
    assert (h.original, h.version) == ("00_environment.ipynb", 1)
    assert registry.parse(moodle_path("Bob Jones", 123457, "lab-2.ipynb")).original == "lab-2.ipynb"


# -- Moodle -------------------------------------------------------------------------------------
MOODLE_CASES = [(v, f, b) for v in ("3", "4.1") for f in (True, False) for b in (False, True)]


@pytest.mark.parametrize("version, folders, blind", MOODLE_CASES)
def test_moodle_layouts_land_on_their_worksheet_rows(tmp_path, version, folders, blind):
    """Moodle 3.x and 4.1+, in folders or not, blind marking or not: graded by participant id."""
    for name, pid in (("Alice Smith", 123456), ("Bob Jones", 123457)):
        write(tmp_path / "dl", moodle_path(name, pid, f"{NB}.ipynb", version, folders, blind=blind))
    subs = submissions.discover(tmp_path / "dl", DAY, masters())
    assert sorted(s.origin.platform_id for s in subs) == ["123456", "123457"]
    assert all(s.notebook == NB and s.origin.anonymous == blind for s in subs)
    grades, result = exported(tmp_path, "moodle", subs, DATA / "moodle-grading-worksheet.csv")
    by_pid = {s.origin.platform_id: s.student for s in subs}
    assert grades == {"Participant 123456": points_of(subs, by_pid["123456"]),
                      "Participant 123457": points_of(subs, by_pid["123457"]), "Participant 123458": ""}
    assert not result.unmatched


def team_worksheet(tmp_path: Path) -> Path:
    """Moodle's grading worksheet of a team assignment: gradingtable.php adds the Group column."""
    path = tmp_path / "worksheet.csv"
    path.write_text(
        'Identifier,"Full name","Email address",Status,Group,Grade,"Maximum Grade"\n'
        '"Participant 123456","Alice Smith",alice@example.edu,"Submitted for grading","Team A",,47.00\n'
        '"Participant 123457","Bob Jones",bob@example.edu,"Submitted for grading","Team A",,47.00\n'
        '"Participant 123458","Carol Lee",carol.lee@example.edu,"No submission","Default group",,47.00\n'
        '"Participant 123459","Dan Wu",dan@example.edu,"Submitted for grading","Team_B",,47.00\n', encoding="utf-8")
    return path


def test_moodle_41_team_folder_grades_every_member(tmp_path):
    """Moodle 4.1+ writes one folder per group, '<group>_<group id>': each member graded, with a note; Carol (in
    no group, no file) is a no hand-in; the "Default group" folder says no student and needs a human."""
    sheet = team_worksheet(tmp_path)
    write(tmp_path / "dl", moodle_path("", None, f"{NB}.ipynb", team="Team A", group_id=42))
    write(tmp_path / "dl", moodle_path("", None, f"{NB}.ipynb", team="Team_B", group_id=43))
    write(tmp_path / "dl", moodle_path("", None, "x.ipynb", team="Default group"))
    subs = submissions.discover(tmp_path / "dl", DAY, masters(), groups=groups.gather(None, sheet))
    by = students(subs)
    assert {"Alice_Smith_123456", "Bob_Jones_123457", "Dan_Wu_123459"} <= set(by), by.keys()
    for student in ("Alice_Smith_123456", "Bob_Jones_123457"):
        (sub,) = by[student]
        assert sub.notebook == NB and any("group 'Team A'" in n for n in sub.notes)
    default = [s for s in subs if not s.attributed]
    assert len(default) == 1 and "Default group" in default[0].error and default[0].intake_problem
    grades, result = exported(tmp_path, "moodle", subs, sheet)
    assert grades["Participant 123456"] and grades["Participant 123457"] and grades["Participant 123459"]
    assert grades["Participant 123458"] == "" and not result.unmatched


def test_moodle_team_names_with_quotes_and_ampersands_are_read_as_moodle_writes_them(tmp_path):
    """``Bob's team`` is written ``Bobs team_42``, ``R&D`` ``Ramp;D_43`` (format_string, then clean_filename):
    each still names its group, and its members are graded on their own rows, never a participant 42 or 43."""
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(
        'Identifier,"Full name","Email address",Status,Group,Grade,"Maximum Grade"\n'
        '"Participant 41","Alice Smith",alice@example.edu,"Submitted for grading","Bob\'s team",,48.00\n'
        '"Participant 42","Eve Stone",eve@example.edu,"No submission","Other team",,48.00\n'
        '"Participant 44","Dan Wu",dan@example.edu,"Submitted for grading","R&D",,48.00\n', encoding="utf-8")
    write(tmp_path / "dl", moodle_path("", None, f"{NB}.ipynb", team="Bob's team", group_id=42))
    write(tmp_path / "dl", moodle_path("", None, f"{NB}.ipynb", team="R&D", group_id=43))
    assert sorted(p.name for p in (tmp_path / "dl").iterdir()) == [
        "Bobs team_42_assignsubmission_file", "Ramp;D_43_assignsubmission_file"]
    subs = submissions.discover(tmp_path / "dl", DAY, masters(), groups=groups.gather(None, sheet))
    assert sorted(s.student for s in subs) == ["Alice_Smith_41", "Dan_Wu_44"], [s.student for s in subs]
    grades, result = exported(tmp_path, "moodle", subs, sheet)
    assert grades["Participant 41"] and grades["Participant 44"] and not grades["Participant 42"], grades
    assert not result.unmatched


def test_a_folder_read_as_a_participant_never_takes_another_persons_row(tmp_path):
    """A team's folder whose group is not known (no group file) reads as "participant 42": the worksheet's
    participant 42 is Eve, whose name it is not, so the grade is not hers: unmatched, said, for a human."""
    sheet = tmp_path / "worksheet.csv"
    sheet.write_text(
        'Identifier,"Full name","Email address",Status,Grade,"Maximum Grade"\n'
        '"Participant 42","Eve Stone",eve@example.edu,"No submission",,47.00\n'
        '"Participant 43","Ann Lee",ann@example.edu,"Submitted for grading",,47.00\n', encoding="utf-8")
    write(tmp_path / "dl", moodle_path("", None, f"{NB}.ipynb", team="Bob's team", group_id=42))
    write(tmp_path / "dl", moodle_path("Ann Lee", 43, f"{NB}.ipynb"))
    subs = submissions.discover(tmp_path / "dl", DAY, masters())
    grades, result = exported(tmp_path, "moodle", subs, sheet)
    assert grades.get("Participant 42", "") == "" and grades["Participant 43"] != "", grades
    assert [(u.student, u.reason) for u in result.unmatched] == [("Bobs_team_42", "other_name")]


def test_moodle_3_team_member_folders_split_off_the_group(tmp_path):
    """Moodle 3.x writes one folder per member, '<group>-<full name>_<participant id>': graded as the member."""
    sheet = team_worksheet(tmp_path)
    write(tmp_path / "dl", moodle_path("Alice Smith", 123456, f"{NB}.ipynb", "3", team="Team A"))
    write(tmp_path / "dl", moodle_path("Bob Jones", 123457, f"{NB}.ipynb", "3", team="Team A", blind=True))
    subs = submissions.discover(tmp_path / "dl", DAY, masters(), groups=groups.gather(None, sheet))
    assert {(s.student, s.origin.group) for s in subs} == {("Alice_Smith_123456", "Team A"),
                                                            ("Participant_123457", "Team A")}
    grades, _ = exported(tmp_path, "moodle", subs, sheet)
    assert grades["Participant 123456"] and grades["Participant 123457"]


# -- Canvas groups ------------------------------------------------------------------------------
def test_canvas_group_submission_grades_every_member_of_the_group_file(tmp_path):
    """Canvas downloads a group assignment as one submission per group, under the group's name and one member's
    id (assignment.rb representatives: the representative's sortable_name is the group's name); a student in no
    group is a group of one under their display name. With the group set export every member is graded on their
    own roster row, with a note; Carol (no group, no file) is a no hand-in."""
    (tmp_path / "groups.csv").write_text(
        "name,canvas_user_id,user_id,login_id,sections,group_name,canvas_group_id,group_id\n"
        '"Smith, Alice",10001,S2027-001,alice,PyTorch,Group 1,501,\n'
        '"Jones, Bob",10002,S2027-002,bob,PyTorch,Group 1,501,\n'
        '"Lee, Carol",10003,S2027-003,carol.lee,PyTorch,,,\n', encoding="utf-8")
    write(tmp_path / "dl", canvas_name("Group 1", 10001, 9001, f"{NB}.ipynb", late=True))
    write(tmp_path / "dl", canvas_name("Zed Zed", 10099, 9002, f"{NB}.ipynb"))
    subs = submissions.discover(tmp_path / "dl", DAY, masters(), groups=groups.load(tmp_path / "groups.csv"))
    by = students(subs)
    assert set(by) == {"smithalice_10001", "jonesbob_10002", "zedzed_10099"}, by.keys()
    for student in ("smithalice_10001", "jonesbob_10002"):
        (sub,) = by[student]
        assert sub.notebook == NB and sub.origin.late and sub.origin.group == "Group 1"
        assert "Graded from the group's submission by Smith, Alice (group 'Group 1')." in sub.notes
    grades, result = exported(tmp_path, "canvas", subs, DATA / "canvas-gradebook-export.csv")
    assert grades == {"10001": points_of(subs, "smithalice_10001"), "10002": points_of(subs, "jonesbob_10002"),
                      "10003": ""}
    assert result.missing == ("Lee, Carol",)


def test_canvas_group_submission_without_groups_lands_on_its_member_row_only(tmp_path):
    """With no group file the group's one submission is the representative's alone: on their row, never another."""
    write(tmp_path / "dl", canvas_name("Group 1", 10001, 9001, f"{NB}.ipynb"))
    subs = submissions.discover(tmp_path / "dl", DAY, masters())
    assert [s.student for s in subs] == ["group1_10001"]
    grades, result = exported(tmp_path, "canvas", subs, DATA / "canvas-gradebook-export.csv")
    assert grades == {"10001": "10", "10002": "", "10003": ""} and not result.unmatched


def test_a_member_own_file_beats_the_group_copy(tmp_path):
    (tmp_path / "g.csv").write_text("group,member\nG,10001\nG,10002\n", encoding="utf-8")
    write(tmp_path / "dl", canvas_name("Smith, Alice", 10001, 1, f"{NB}.ipynb"))
    write(tmp_path / "dl", canvas_name("Jones, Bob", 10002, 2, f"{NB}.ipynb"))
    subs = submissions.discover(tmp_path / "dl", DAY, masters(), groups=groups.load(tmp_path / "g.csv"))
    bob = [s for s in subs if s.origin.platform_id == "10002"]
    assert len(bob) == 1 and bob[0].path.name.startswith("jonesbob_10002_2_")
    assert bob[0].intake_problem  # two files for one notebook: a human decides


@pytest.mark.parametrize("text, words", [
    ("team,who\nA,1\n", "needs a group column"), ("group,member\nA,\n", "line 2"),
])
def test_bad_group_file_is_refused_in_plain_words(tmp_path, text, words):
    (tmp_path / "g.csv").write_text(text, encoding="utf-8")
    with pytest.raises(groups.GroupsError, match=words):
        groups.load(tmp_path / "g.csv")


# -- archives, clashes and empty classes ---------------------------------------------------------
def test_uploaded_zip_is_opened_and_a_bad_one_affects_its_student_only(tmp_path):
    inner = tmp_path / "inner"
    write(inner, f"work/{NB}.ipynb")
    write(inner, f"work/.ipynb_checkpoints/{NB}-checkpoint.ipynb")
    dl = tmp_path / "dl"
    dl.mkdir()
    with zipfile.ZipFile(dl / canvas_name("Smith, Alice", 10001, 1, "my work.zip"), "w") as z:
        for path in sorted(inner.rglob("*.ipynb")):
            z.write(path, path.relative_to(inner).as_posix())
    (dl / canvas_name("Jones, Bob", 10002, 2, "lab.zip")).write_bytes(b"PK\x03\x04 not really a zip")
    with zipfile.ZipFile(dl / canvas_name("Lee, Carol", 10003, 3, "notes.zip"), "w") as z:
        z.writestr("notes.txt", "no notebook here")
    write(dl, canvas_name("Zed, Zed", 10099, 4, f"{NB}.ipynb"))
    by = students(submissions.discover(dl, DAY, masters()))
    (alice,) = by["smithalice_10001"]
    assert alice.notebook == NB and alice.error is None and alice.intake_problem is None
    (bob,) = by["jonesbob_10002"]
    assert "could not be opened" in bob.error and bob.intake_problem == bob.error
    (carol,) = by["leecarol_10003"]
    assert "no notebook" in carol.error and carol.intake_problem
    assert by["zedzed_10099"][0].notebook == NB


@pytest.mark.parametrize("files", [[], ["notes.txt", "slides/a.pdf"], ["mystery.ipynb"],
                                   ["Alice Smith_assignsubmission_file/x.ipynb"]])
def test_a_download_naming_no_student_stops_with_what_it_saw(tmp_path, files):
    """No layout, or no file that names a student: a plain error naming what was there, never an empty class."""
    folder = tmp_path / "dl"
    folder.mkdir()
    for name in files:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
    if files == ["mystery.ipynb"]:  # a flat folder's file is its own student: graded as "mystery"
        assert [s.student for s in submissions.discover(folder, DAY, masters())] == ["mystery"]
        return
    with pytest.raises(submissions.LayoutError) as caught:
        submissions.discover(folder, DAY, masters())
    text = str(caught.value)
    assert "nothing to grade" in text and "Moodle's" in text and "Canvas's" in text
    for name in files:
        assert repr(name.split("/")[0]) in text


def test_cli_stops_on_a_download_naming_no_student(tmp_path, capsys):
    from grader.run.cli import main

    folder = tmp_path / "dl"
    folder.mkdir()
    (folder / "readme.txt").write_text("hi")
    rc = main(["grade", DAY, "--submissions", str(folder), "--out", str(tmp_path / "out"),
               "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}", "--quiet", "--no-sandbox"])
    err = capsys.readouterr().err
    assert rc == 2 and "nothing to grade" in err and "'readme.txt'" in err


def test_cli_refuses_a_bad_group_file_before_grading(tmp_path, capsys):
    from grader.run.cli import main

    (tmp_path / "g.csv").write_text("who,what\n", encoding="utf-8")
    rc = main(["grade", DAY, "--submissions", str(tmp_path), "--groups", str(tmp_path / "g.csv"),
               "--due", "2027-01-15 23:59 UTC", "--gradebook", f"sqlite:///{tmp_path / 'gb.db'}"])
    assert rc == 2 and "--groups" in capsys.readouterr().err


def test_encrypted_upload_and_a_broken_class_zip_stay_notes(tmp_path, monkeypatch):
    """An encrypted member (zipfile raises RuntimeError: password required) and a broken zip beside the
    download: notes on their rows, never the end of the run."""
    from grader.intake import downloads

    copy = downloads._copy

    def locked(source, target, limit):
        if "locked" in str(source.name) or target.name == "secret.ipynb":
            raise RuntimeError("File <ZipInfo> is encrypted, password required for extraction")
        return copy(source, target, limit)

    monkeypatch.setattr(downloads, "_copy", locked)
    dl = tmp_path / "dl"
    write(dl, canvas_name("Zed, Zed", 10099, 4, f"{NB}.ipynb"))
    with zipfile.ZipFile(dl / canvas_name("Smith, Alice", 10001, 1, "locked.zip"), "w") as z:
        z.writestr("secret.ipynb", "{}")
    (dl / "more-submissions.zip").write_bytes(b"not a zip")
    by = students(submissions.discover(dl, DAY, masters()))
    (locked,) = by["smithalice_10001"]  # the notebook in it is named, with why, and needs the instructor
    assert "'secret.ipynb' in 'locked.zip'" in locked.error and "encrypted" in locked.error and locked.intake_problem
    (bad,) = by["more-submissions.zip"]
    assert not bad.attributed and "could not be opened" in bad.error and bad.intake_problem
    assert by["zedzed_10099"][0].notebook == NB


def test_a_class_where_nothing_ran_is_no_success():
    """Every file unreadable or of another day: the CLI says nothing was graded and exits non-zero."""
    from grader.records import NotebookRecord, Status
    from grader.run.cli import ran_any
    from grader.run.engine import RunSummary

    unread = NotebookRecord(student="a", notebook="x.ipynb", status=Status.UNREADABLE)
    ran = NotebookRecord(student="b", notebook=NB, status=Status.TIMEOUT)
    assert not ran_any(RunSummary(records=[unread])) and not ran_any(RunSummary())
    assert ran_any(RunSummary(records=[unread, ran])) and ran_any(RunSummary(skipped=1))


def test_ids_that_differ_only_in_letter_case_are_kept_apart(tmp_path):
    """A flat folder with Alice.ipynb and alice.ipynb: two students, two ids that stay apart on a
    case-insensitive disk (macOS, Windows), and a note for the renamed one; one student's several
    notebooks keep one id."""
    from pathlib import Path

    from grader.intake import submissions

    subs = [submissions.Submission("Alice", "00_environment", Path("Alice.ipynb")),
            submissions.Submission("alice", "00_environment", Path("alice.ipynb")),
            submissions.Submission("alice", "01_tensors", Path("alice-01.ipynb")),
            submissions.Submission("ALICE", "00_environment", Path("ALICE.ipynb"))]
    kept = submissions.dedupe(subs)
    ids = [s.student for s in kept]
    assert len(kept) == 4 and len({i.casefold() for i in set(ids)}) == 3, ids
    assert ids[1] == ids[2] == "alice_2" and ids[3] == "ALICE_3" and ids[0] == "Alice"
    assert "differs from yours only in letter case" in kept[1].notes[0] and "'Alice'" in kept[1].notes[0]
    assert not kept[0].notes
