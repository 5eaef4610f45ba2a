"""The environment is reproducible: requirements.lock pins every dependency of the package
exactly, the conda env file installs that same file, and this interpreter runs those versions."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import PackageNotFoundError, version

import yaml
from conftest import ROOT
from packaging.requirements import Requirement
from packaging.version import Version


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins() -> dict[str, str]:
    """Canonical package name -> pinned version."""
    text = (ROOT / "requirements.lock").read_text()
    return {canonical(m.group(1)): m.group(2)
            for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+)", text, re.MULTILINE)}


def declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = project["dependencies"] + [r for extra in project["optional-dependencies"].values()
                                       for r in extra]
    return [Requirement(r) for r in names]


def test_the_lock_pins_every_declared_dependency_inside_its_range():
    pins = lock_pins()
    assert len(pins) > 50  # the whole set, transitive dependencies included
    for req in declared():
        pinned = pins.get(canonical(req.name))
        assert pinned, f"{req.name} is declared in pyproject.toml but not pinned in the lock"
        assert Version(pinned) in req.specifier, f"lock pins {req.name}=={pinned}, outside {req}"


def test_the_conda_env_installs_the_lock():
    env = yaml.safe_load((ROOT / "envs/entropic-bound.yaml").read_text())
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-r ../requirements.lock" in pip


def test_this_interpreter_runs_the_locked_versions():
    """Fails where the environment drifted from the lock (install with the README's command)."""
    drift, pins = {}, lock_pins()
    for req in declared():
        try:
            installed = version(req.name)
        except PackageNotFoundError:
            continue  # an extra this environment did not install (slurm)
        pinned = pins[canonical(req.name)]
        # torch's CPU wheel calls itself 2.13.0+cpu: the local label names the build, not the
        # version.
        if Version(installed).base_version != Version(pinned).base_version:
            drift[req.name] = (installed, pinned)
    assert drift == {}, f"installed vs locked: {drift}"


def test_the_declared_snakemake_range_is_what_the_workflow_asks_for():
    """pyproject admits every Snakemake from the oldest 9.x with logger plugins (the store's
    plans use one) to the next major release, and the Snakefile's min_version is that floor:
    an install that pip accepts is never refused by the workflow."""
    import re

    req = next(r for r in declared() if canonical(r.name) == "snakemake")
    for inside in ("9.0.0", "9.27.1", "10.0.0", "10.9.9"):
        assert Version(inside) in req.specifier, (inside, str(req.specifier))
    for outside in ("8.30.0", "11.0.0"):
        assert Version(outside) not in req.specifier, (outside, str(req.specifier))
    floor = re.search(r'min_version\("([\d.]+)"\)', (ROOT / "Snakefile").read_text()).group(1)
    assert Version(floor) in req.specifier and Version(floor) == Version("9.0")
