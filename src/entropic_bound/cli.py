"""The entropic-bound command: one subcommand per workflow rule, the user's own and housekeeping.

``entropic-bound <command> ...``: the workflow's rules, the user's own (``estimate-rank``,
``inspect``) and the run's housekeeping (``verify``, ``store``, ``audit``, ``costs``).

Each command is a module of :mod:`entropic_bound.commands` (``train-grid`` is
``commands/train_grid.py``), found by listing the package and imported only when it runs, so a
job loads, and its rule depends on, its own command's code and not the others'. Its docstring's
first paragraph is its summary in ``--help``. The options the workflow's commands share are
given only to the commands that name them in their ``OPTIONS``: structured settings as one
JSON object (``--params``, rendered by Snakemake from the validated config), torch's threads
(``--threads``), and a stored job's own cost record (``--record``; plumbing.job_record).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from importlib import import_module
from pkgutil import iter_modules

PACKAGE = "entropic_bound.commands"


def command_names() -> dict[str, str]:
    """Command -> module name of every module of :mod:`entropic_bound.commands`."""
    package = import_module(PACKAGE)
    return {m.name.replace("_", "-"): m.name for m in iter_modules(package.__path__)
            if not m.name.startswith("_")}


def json_object(text: str) -> dict:
    """An argparse type: a JSON object (settings rendered by Snakemake from the config)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise argparse.ArgumentTypeError(f"not valid JSON: {err}") from err
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object")
    return value


# the shared options, by the name a command's OPTIONS gives them
SHARED = {
    "params": {"type": json_object, "default": {}, "help": "settings as a JSON object"},
    "threads": {"type": int, "default": None, "help": "torch intra-op threads"},
    "record": {"default": None,
               "help": "write the job's record (cost, machine, commit) here as JSON"},
}


def summary(module: object) -> str:
    """A command's summary: the first paragraph of its module's docstring, on one line."""
    return " ".join((getattr(module, "__doc__", None) or "").strip().split("\n\n")[0].split())


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; every command's own arguments where ``command`` is None (``--help``), else
    only that one's (the others are not imported)."""
    p = argparse.ArgumentParser(prog="entropic-bound", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name, module_name in sorted(command_names().items()):
        if command not in (None, name):
            sub.add_parser(name)
            continue
        module = import_module(f"{PACKAGE}.{module_name}")
        sp = sub.add_parser(name, help=summary(module), description=summary(module))
        sp.set_defaults(func=module.run)
        for option in getattr(module, "OPTIONS", ()):
            sp.add_argument(f"--{option}", **SHARED[option])
        module.add_arguments(sp)
    return p


def _setup(threads: int | None = None) -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if threads:
        import torch

        torch.set_num_threads(threads)


def main(argv: list[str] | None = None) -> None:
    from entropic_bound.plumbing.atomic import CorruptCacheError, DiskFull

    argv = sys.argv[1:] if argv is None else list(argv)
    # after "--": arguments the command hands on to another program (store unused: snakemake's)
    cut = argv.index("--") if "--" in argv else len(argv)
    names = command_names()
    command = next((arg for arg in argv[:cut] if not arg.startswith("-")), None)
    args = build_parser(command if command in names else None).parse_args(argv[:cut])
    args.passthrough = argv[cut + 1:]
    _setup(getattr(args, "threads", None))
    try:
        args.func(args)
        if getattr(args, "record", None):
            from entropic_bound.plumbing.job_record import write_job_record

            write_job_record(args.record, ["entropic-bound", *argv])
    except CorruptCacheError as err:  # one clear line: which file, and the command that fixes it
        logging.getLogger("entropic_bound").error("%s", err)
        sys.exit(3)
    except DiskFull as err:  # one line naming the output, not a chain of tracebacks
        logging.getLogger("entropic_bound").error("%s", err.strerror)
        sys.exit(4)


if __name__ == "__main__":
    main()
