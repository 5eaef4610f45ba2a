alias entropic-bound-migration-2026-12-rules +hUxbEymTuRNO/BzDy7a48XtRVt9Ac08ZqLTRKfcNM3yUG4QsZ9+dzRLS7jMTEa58v0eUYfgr7A1++c2wZ0XDA==
