"""tools/restage.py: the flat grader/*.py moved into stage packages, every reference rewritten, and nothing
of the flat layout left (a branch written against it, once merged, fails here until the script is re-run)."""

from __future__ import annotations

from tools import restage

IDS = {"grader.report.title", "grader.repair.reordered"}


def test_from_import_is_split_per_package():
    text = "    from grader import settings, jobs, report as r  # noqa: E402\n"
    assert restage.rewrite(text, IDS) == ("    from grader import settings  # noqa: E402\n"
                                          "    from grader.run import jobs  # noqa: E402\n"
                                          "    from grader.results import report as r  # noqa: E402\n")


def test_a_parenthesised_import_is_split_too():
    text = "from grader import (\n    gradebook,\n    records,\n    sandbox,\n)\nx = 1\n"
    assert restage.rewrite(text, IDS) == ("from grader.grades import gradebook\nfrom grader import records\n"
                                          "from grader.jail import sandbox\nx = 1\n")


def test_dotted_names_paths_and_commands_are_rewritten():
    text = ('import grader.jobs\nmock.patch("grader.jobs.run_spec")\n`python -m grader.gradescope build`\n'
            'see grader/zygote.py and grader.cluster.\n(ROOT / "grader" / "cluster.py")\n'
            'for p in (ROOT / "grader").glob("*.py"):\n')
    assert restage.rewrite(text, IDS) == (
        'import grader.run.jobs\nmock.patch("grader.run.jobs.run_spec")\n`python -m grader.run.gradescope build`\n'
        'see grader/jail/zygote.py and grader.run.cluster.\n(ROOT / "grader" / "run" / "cluster.py")\n'
        'for p in (ROOT / "grader").rglob("*.py"):\n')


def test_message_ids_are_left_alone():
    text = ('msg("grader.report.title")\nmsg_in(lang, f"grader.report.{key}")\n'
            'msg(f"grader.report.unmatched_{reason}")\nids = [i for i in x if i.startswith("grader.report.")]\n'
            '"grader.repair.reordered": "...",\nfrom grader.settings import X\n')
    assert restage.rewrite(text, IDS) == text


def test_rewriting_twice_changes_nothing_more():
    text = "from grader import jobs, gradebook\nimport grader.gradebook\n`grader/late.py`\n"
    once = restage.rewrite(text, IDS)
    assert once != text and restage.rewrite(once, IDS) == once


def test_every_module_is_in_its_package_and_no_flat_reference_is_left(capsys):
    assert restage.check() == 0, capsys.readouterr().out
    assert not restage.unplaced()
    assert all((restage.GRADER / package / f"{module}.py").is_file() for module, package in restage.MOVES.items())


def test_the_catalogues_ids_are_known():
    assert "grader.report.title" in restage.catalogue_ids()
