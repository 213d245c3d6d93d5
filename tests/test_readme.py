"""The README's Python examples run as written."""
import pathlib
import re

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
