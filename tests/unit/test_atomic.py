"""Atomic outputs: a failure mid-write leaves neither a partial file nor a temporary."""

import os
import stat

import pytest

from entropic_bound.plumbing.atomic import atomic_path, write_json


def test_failed_write_leaves_nothing(tmp_path):
    target = tmp_path / "sub" / "out.json"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_successful_write_replaces_the_target(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old")
    write_json(target, {"b": 1, "a": 2})
    assert target.read_text() == '{\n "a": 2,\n "b": 1\n}'


def test_outputs_get_the_mode_of_a_plain_open(tmp_path):
    """0666 less the umask (0644 under the usual 022), not mkstemp's private 0600."""
    old = os.umask(0o022)
    try:
        write_json(tmp_path / "new" / "out.json", {"a": 1})
        with open(tmp_path / "plain.json", "w") as fh:
            fh.write("{}")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "new" / "out.json").stat().st_mode)
    assert mode == 0o644 == stat.S_IMODE((tmp_path / "plain.json").stat().st_mode)
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o755
