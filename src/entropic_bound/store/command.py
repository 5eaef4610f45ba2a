"""A stored job's command line, rendered from its manifest (:mod:`.manifest`): the rule's
command as written, with ``{params.NAME}``, ``{input.NAME}``, ``{output.NAME}`` and
``{threads}`` replaced as Snakemake's shell formatting would, then split into words as the
shell would split them. So the command is written once, in its rule (``stored(...)`` in
``workflow/rules/common.smk``), and the key and the wrapper read the same text.

* ``{params.NAME:q}``: the value as one word (Snakemake's ``:q`` quotes it for the shell,
  which then hands it over whole);
* ``{params.NAME}``, ``{threads}``: the value's text, split at white space;
* ``{input.NAME}``: each path a word (a list of paths is joined by spaces in Snakemake);
  ``{output.NAME}``: its path.

Nothing else is allowed in a stored command (a field it does not know is refused in one
line), so what runs is exactly what the manifest says.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from entropic_bound.store.files import Refused

FIELD = re.compile(r"\{([^{}]*)\}")
# what a field unquoted may hold: the shell would read anything else (quotes, $, globs)
PLAIN = re.compile(r"[\w./:=+,@%-]+")


def _words(value: Any, field: str) -> list[str]:
    """The words of an unquoted field's value, as the shell splits them."""
    words = [w for v in (value if isinstance(value, list) else [value]) for w in str(v).split()]
    for word in words:
        if not PLAIN.fullmatch(word):
            raise Refused(f"stored command: {{{field}}} holds {word[:60]!r}: the shell would "
                          "read it; quote the field ({...:q}) or use plain words")
    return words


def argv(command: str, manifest: Mapping[str, Any]) -> list[str]:
    """The words of ``command`` with its fields replaced from ``manifest`` (the module's doc)."""
    values = {**manifest.get("given", {}), **manifest["params"]}
    words: list[str] = []
    for token in command.split():
        fields = FIELD.findall(token)
        if not fields:
            words.append(token)
            continue
        if not FIELD.fullmatch(token):
            raise Refused(f"stored command: {token!r}: a field is a word of its own")
        name, _, spec = fields[0].partition(":")
        kind, _, key = name.partition(".")
        if kind == "threads" and not key and not spec and "threads" in values:
            words += _words(values["threads"], name)
        elif kind == "params" and key in values and spec in ("", "q"):
            words += [str(values[key])] if spec == "q" else _words(values[key], name)
        elif kind == "input" and key in manifest["inputs"] and not spec:
            words += _words(manifest["inputs"][key], name)
        elif kind == "output" and key in manifest["outputs"] and not spec:
            words += _words(manifest["outputs"][key], name)
        else:
            raise Refused(f"stored command: {{{fields[0]}}} is not a field of the job "
                          "(params.NAME[:q], input.NAME, output.NAME, threads)")
    return words


def rule_of_log(log: str) -> str:
    """The rule a stored job's log names: every rule logs to ``logs/<rule>/...`` (the wrapper
    is handed the log, which Snakemake's linter admits in a shell command, where ``{rule}``
    it does not)."""
    parts = PurePosixPath(log).parts
    if len(parts) < 3 or parts[0] != "logs":
        raise Refused(f"stored job's log {log[:80]!r}: expected logs/<rule>/...")
    return parts[1]
