"""Where training runs: the config's ``device`` resolved once, for the rules and the CLI alike.

``auto`` becomes ``cuda`` where torch sees a GPU and ``cpu`` otherwise. The workflow resolves it
when it loads (workflow/rules/common.smk), so a job's params, its store key and the ``gpu``
resource the rules claim all name the device the job will use; a library user who passes
``auto`` to a command gets the same answer.
"""

from __future__ import annotations


def resolve_device(name: str) -> str:
    """``auto`` -> ``cuda`` or ``cpu`` (torch is imported only then); other names as given."""
    if name != "auto":
        return name
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"
