"""Atomic outputs: a failure mid-write leaves neither a partial file nor a temporary."""

import pytest

from entropic_bound.atomic import atomic_path, write_json


def test_failed_write_leaves_nothing(tmp_path):
    target = tmp_path / "sub" / "out.json"
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise RuntimeError("killed")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_successful_write_replaces_the_target(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old")
    write_json(target, {"b": 1, "a": 2})
    assert target.read_text() == '{\n "a": 2,\n "b": 1\n}'
