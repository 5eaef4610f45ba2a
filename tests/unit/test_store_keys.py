"""The store key (entropic_bound.store.keys): what changes it and what does not."""

from __future__ import annotations

import pytest

from entropic_bound.store.keys import file_digest, python_digest, store_key

MODULE = '''"""A module."""

import numpy as np  # why


def scale(x, k=2.0):
    """Multiply."""
    return np.asarray(x) * k
'''


@pytest.mark.parametrize("edited", [
    MODULE.replace('"""A module."""', '"""A module, now described at length."""'),
    MODULE.replace("# why", "# another reason"),
    MODULE.replace('    """Multiply."""\n', ""),
    MODULE.replace("return np.asarray(x) * k", "return (np.asarray(x)\n            * k)"),
    MODULE + "\n\n# trailing comment\n",
])
def test_docstrings_comments_and_layout_leave_the_digest(edited):
    assert python_digest(edited) == python_digest(MODULE)


@pytest.mark.parametrize("edited", [
    MODULE.replace("k=2.0", "k=2"),  # 2 and 2.0 are other constants
    MODULE.replace("* k", "/ k"),
    MODULE.replace("return np.asarray(x) * k", "return ..."),
    MODULE.replace("return np.asarray(x) * k", "return 'Ellipsis'"),
    MODULE + "\nDEBUG = True\n",
])
def test_any_code_change_changes_the_digest(edited):
    assert python_digest(edited) != python_digest(MODULE)


def test_the_key_reads_command_params_and_inputs(tmp_path):
    (tmp_path / "m.py").write_text(MODULE)
    (tmp_path / "d.npz").write_bytes(b"data")
    inputs = [("code", file_digest(tmp_path / "m.py")), ("data", file_digest(tmp_path / "d.npz"))]
    base = store_key("cmd {params.a}", {"a": 1, "b": [1, 2]}, inputs)
    assert base == store_key("cmd {params.a}", {"b": [1, 2], "a": 1}, inputs[::-1])
    assert file_digest(tmp_path / "m.py").startswith("py:")
    others = [store_key("cmd  {params.a}", {"a": 1, "b": [1, 2]}, inputs),
              store_key("cmd {params.a}", {"a": 2, "b": [1, 2]}, inputs),
              store_key("cmd {params.a}", {"a": 1, "b": [2, 1]}, inputs),
              store_key("cmd {params.a}", {"a": 1, "b": [1, 2]}, inputs[:1]),
              store_key("cmd {params.a}", {"a": 1, "b": [1, 2]},
                        [("code", inputs[0][1]), ("data", "0" * 64)])]
    assert len({base, *others}) == 1 + len(others)
