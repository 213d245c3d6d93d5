"""The README as written: its Python examples run, its two set-up commands are the ones CI
runs, and the main one works on a fresh copy of the sources (slow)."""
import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_examples_run(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    namespace: dict = {}
    for block in blocks:  # later blocks build on earlier ones, as a reader would run them
        exec(compile(block, str(README), "exec"), namespace)
    out = capsys.readouterr().out
    assert "['Aco', '2co', '7sw>7cu']" in out
    assert namespace["state"].to_dict()["piles"][0] == ["7cu", "7sw"]


def _commands() -> tuple[str, str]:
    """The README's two set-up commands: the main job's and the test suite's."""
    text = README.read_text(encoding="utf-8")
    main = re.search(r"Set up and run the main job.*?```bash\n(.*?)\n```", text, re.S)
    tests = re.search(r"Set up and run the whole test suite.*?```bash\n(.*?)\n```", text, re.S)
    assert main and tests, "the README lost one of its two set-up commands"
    return main.group(1).strip(), tests.group(1).strip()


def test_readme_commands_are_the_ones_ci_runs():
    """The test command is what ``.ci/run`` runs after installing the test extras, and the main
    command installs the package and runs ``cardsim demo``."""
    main, tests = _commands()
    assert main == ("python3 -m venv .venv && .venv/bin/pip install -q . && "
                    ".venv/bin/cardsim demo")
    assert tests == ('python3 -m venv .venv && .venv/bin/pip install -q ".[test]" && '
                     ".venv/bin/python -m pytest")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert 'python -m pip install --quiet ".[test]"' in ci
    assert ci.rstrip().endswith("python -m pytest")


@pytest.mark.slow
def test_readme_main_command_runs_as_written(tmp_path):
    """The main command, exactly as written, in a fresh copy of the sources with an empty
    compile cache: a new virtual environment, the install, ``cardsim demo`` to its report."""
    import os
    import shutil
    import subprocess
    root = README.parent
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=root,
                            capture_output=True, text=True, check=True).stdout.split()
    copy = tmp_path / "cardsim"
    for name in listed:
        if (root / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / name, copy / name)
    main, _ = _commands()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    run = subprocess.run(["bash", "-c", main], cwd=copy, env=env, capture_output=True,
                         text=True, timeout=1800)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert (copy / "runs" / "demo" / "report" / "report.html").is_file()
    assert "report:" in run.stdout
