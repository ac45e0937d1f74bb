"""offwake_example.txt ends with the tool's -h output; it must be the current one."""
from conftest import EXAMPLE, run_tool

MARKER = "# ./offwake.py -h\n"


def test_example_help_is_current():
    with open(EXAMPLE) as f:
        text = f.read()
    assert MARKER in text, "offwake_example.txt has no '# ./offwake.py -h' section"
    documented = text.split(MARKER, 1)[1]
    result = run_tool("-h")
    assert result.returncode == 0
    # To regenerate: COLUMNS=80 ./offwake.py -h, pasted after the marker line.
    assert documented == result.stdout
