"""A job's manifest: what the workflow tells the store about one job, as one JSON object.

The workflow (``stored(...)`` in ``workflow/rules/common.smk``) renders it from the rule's
definition into the job's ``job`` param, and the job's shell command hands it to
``entropic-bound-store MANIFEST LOG`` (:mod:`entropic_bound.store.job`), which runs the
command it renders (:mod:`entropic_bound.store.command`). It is the workflow's own text, read
at each job, never anything from the store. Its fields:

* ``rule``: the rule's name (null in the param: the wrapper reads it off the job's log,
  ``logs/<rule>/...``); ``keep``: what the store keeps of the job (:data:`KEEPS`);
* ``store``: the store folder;
* ``command``: the rule's command as written (before formatting), ``params``: the job's
  params by name (``threads`` among them where the command reads ``{threads}``),
  ``inputs``: input name -> its paths, ``outputs``: output name -> path; the key reads the
  first four (:func:`entropic_bound.store.keys.job_key`);
* ``given``: values the command is given that a keyed input already fixes (a dataset's spec,
  written into the teacher array whose job keys it): rendered, not keyed, so a key holds
  each value once;
* ``code``: the digest of the code the command runs, for Snakemake's params trigger (the key
  reads the code files themselves, listed in ``inputs``);
* ``keyed``: input name -> the manifest (``command``, ``params``, ``inputs``) of the job that
  made it, for inputs that enter the key by their job's key (the teacher arrays);
* ``expect``: output name -> the sha256 the workflow pins for it (a corpus text, pinned in
  ``corpora.lock.json``): a fetched entry whose output differs is set aside. Not in the key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from entropic_bound.store.files import Refused

# entry: fetched when stored, else computed and stored; realisation: computed, its outputs'
# digests kept for plans; note: computed, only noted for the audit's verdict check
KEEPS = ("entry", "realisation", "note")


def _is_paths(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(p, str) for p in value)


def _check_job(job: Any, where: str) -> None:
    if not (isinstance(job, dict) and isinstance(job.get("command"), str)
            and isinstance(job.get("params"), dict) and isinstance(job.get("inputs"), dict)
            and all(_is_paths(v) for v in job["inputs"].values())):
        raise Refused(f"{where}: expected command (text), params (object), inputs (name -> "
                      "paths)")


def parse(text: str) -> dict[str, Any]:
    """The manifest in ``text``, checked field by field (one line naming what is wrong)."""
    try:
        manifest = json.loads(text)
    except ValueError as err:
        raise Refused(f"the job's manifest is not JSON: {err}") from None
    _check_job(manifest, "the job's manifest")
    if manifest.get("keep") not in KEEPS:
        raise Refused(f"the job's manifest: keep must be one of {', '.join(KEEPS)}")
    outputs = manifest.get("outputs")
    if not (isinstance(outputs, dict) and outputs
            and all(isinstance(p, str) for p in outputs.values())):
        raise Refused("the job's manifest: outputs must name each output (name -> path)")
    for name, job in (manifest.get("keyed") or {}).items():
        if name not in manifest["inputs"]:
            raise Refused(f"the job's manifest: keyed input {name} is not an input")
        _check_job(job, f"the job's manifest, keyed input {name}")
    expect = manifest.get("expect") or {}
    if not (isinstance(expect, dict) and set(expect) <= set(outputs)
            and all(isinstance(v, str) for v in expect.values())):
        raise Refused("the job's manifest: expect must map outputs to sha256")
    if not isinstance(manifest.get("store"), str) or not isinstance(manifest.get("rule"),
                                                                    str | None):
        raise Refused("the job's manifest: store must be text, rule text or null")
    if not isinstance(manifest.get("given", {}), dict):
        raise Refused("the job's manifest: given must map names to values")
    return manifest


def render(rule: str | None, keep: str, store: str, command: str, params: Mapping[str, Any],
           inputs: Mapping[str, list[str]], outputs: Mapping[str, str],
           keyed: Mapping[str, Mapping[str, Any]] | None = None,
           expect: Mapping[str, str] | None = None, given: Mapping[str, Any] | None = None,
           code: str | None = None) -> str:
    """The manifest of one job as JSON text (keys sorted: the same job renders the same)."""
    return json.dumps({"rule": rule, "keep": keep, "store": store, "command": command,
                       "params": dict(params), "inputs": {k: list(v) for k, v in inputs.items()},
                       "outputs": dict(outputs), "keyed": dict(keyed or {}),
                       "expect": dict(expect or {}), "given": dict(given or {}), "code": code},
                      sort_keys=True)
