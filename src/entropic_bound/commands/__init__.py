"""One module per ``entropic-bound <command>``: ``train_grid`` is ``entropic-bound train-grid``.

Each module has ``add_arguments(parser)`` and ``run(args)`` and imports the library inside
``run``. A command's code is its own module, so the import closure of one workflow rule (its
code inputs, and so the store key of its jobs) changes only with the code that rule executes
(the store's ``command_sources``). Modules whose names start with ``_`` are helpers.
Nothing is imported here.
"""
