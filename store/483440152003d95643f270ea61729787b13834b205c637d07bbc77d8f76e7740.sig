alias entropic-bound-migration-2026-12-rules L+EWoL7RhefJ8ubbBmEiL9vT/gSIZzxT08qHKKr3mdSxxn7/oTG3JKDM9yulyusXX5CWqt+AbKKHGOs8JvzBDA==
