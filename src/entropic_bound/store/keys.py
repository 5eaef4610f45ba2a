"""The store key of a job: what can change its result, and nothing else (early cutoff).

A stored job's key is the sha256 of, in this order (``SCHEME`` first, so that a change of this
definition can never meet an old key):

* the rule's shell command as written (before formatting: paths, threads and resources are not
  in it);
* each param, by name, as sorted JSON (Snakemake's own serialisation of params);
* an empty field where a conda run's software once entered (kept, so no key moved): no
  software enters a key, on any path; a job's record names the versions it ran, and a conda
  run installs the same lock, so it shares a plain run's keys and entries;
* the digest of each input, as ``<input name>:<digest>`` lines, sorted:
  a ``.py`` input (the code the job executes, its import closure) by :func:`python_digest`,
  the digest of its syntax tree without docstrings, so comments, docstrings, blank lines and
  formatting change no key; every other input by the sha256 of its bytes, including the
  outputs of upstream jobs. An upstream job whose rebuilt output is byte-identical therefore
  leaves every key below it as it was: the *early cutoff* of build systems (Shake, Bazel, Nix's
  content-addressed derivations), where Snakemake's own provenance hash chains through every
  upstream job's hash instead. One exception: the output of a rule *keyed by job* (the teacher
  arrays, whose bytes depend on the CPU's BLAS kernels) enters as ``key:`` and the key of the
  job that made it (:func:`job_key`, from its job's manifest), so the keys below it are the
  same on every machine.

Why this is sound: the job's result is a function of the command it runs (shell text and
params), the code it imports (whose behaviour the syntax tree fixes: a docstring is an
expression statement that evaluates to a constant, and no code here reads ``__doc__``), and the
bytes it reads. Reading upstream outputs by content needs them to exist: a plan predicts
them (:mod:`entropic_bound.store.plan`), a job computes its key only once they exist
(:mod:`entropic_bound.store.job`).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping

from entropic_bound.plumbing.digests import sha256_file


class UnknownInput(Exception):
    """An input whose digest cannot be known yet (a plan, before its upstream job runs)."""

SCHEME = "entropic-bound store key 1"


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return body[1:] or [ast.Pass()]
    return body


def _strip_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            node.body = _without_docstring(node.body)
    return tree


def _canonical(node: object) -> object:
    """A syntax tree as nested lists: each node's class name and its non-empty fields by name;
    each constant as ``<type>:<repr>`` (so ``...``, ``"Ellipsis"``, ``1`` and ``True`` differ).
    No positions (line and column numbers are attributes, not fields), and empty fields are left
    out, so Python versions that add always-empty fields (3.12's ``type_params``) agree."""
    if isinstance(node, ast.AST):
        fields = [[name, _canonical(value)] for name, value in ast.iter_fields(node)
                  if value is not None and value != []]
        return [type(node).__name__, fields]
    if isinstance(node, list):
        return [_canonical(item) for item in node]
    return f"{type(node).__name__}:{node!r}"


def python_digest(source: str) -> str:
    """sha256 of a module's syntax tree without docstrings, positions or comments."""
    tree = _strip_docstrings(ast.parse(source))
    text = json.dumps(_canonical(tree), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def file_digest(path: str | os.PathLike[str]) -> str:
    """The digest an input enters a key with: :func:`python_digest` for ``.py`` sources, the
    sha256 of the bytes for every other file."""
    if os.fspath(path).endswith(".py"):
        with open(path, encoding="utf-8") as fh:
            return "py:" + python_digest(fh.read())
    return sha256_file(path)


def store_key(shellcmd: str, params: Mapping[str, object],
              inputs: Iterable[tuple[str, str]]) -> str:
    """The key of a job from its shell command as written, its params and its ``(input name,
    digest)`` pairs. No software: a job's record names the versions it ran, and a conda run
    (``--sdm conda``, which installs the same lock) shares a plain run's keys."""
    h = hashlib.sha256()
    h.update(f"{SCHEME}\0{shellcmd}\0".encode())
    for name, value in sorted(params.items()):
        h.update(f"{name}\0{json.dumps(value, sort_keys=True)}\0".encode())
    h.update(b"\0")  # where a conda run's software once entered: kept, so no key moved
    for line in sorted(f"{name}:{digest}" for name, digest in inputs):
        h.update(f"{line}\n".encode())
    return h.hexdigest()


def job_key(manifest: Mapping, digest: Callable[[str], str]) -> str:
    """The key of the job a manifest describes (:mod:`entropic_bound.store.manifest`): its
    command as written, its params, and each input's digest, ``digest(path)`` (the file's, or
    a prediction), except an input keyed by job, which enters as ``key:`` and the key of the
    job that made it. ``digest`` may raise :class:`UnknownInput`."""
    keyed = manifest.get("keyed") or {}
    inputs = []
    for name, paths in manifest["inputs"].items():
        for path in paths:
            if name in keyed:
                inputs.append((name, "key:" + job_key(keyed[name], digest)))
            else:
                inputs.append((name, digest(path)))
    return store_key(manifest["command"], manifest["params"], inputs)
