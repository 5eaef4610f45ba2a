alias entropic-bound-2026-12-07-session 5FV83V+A+YXKVRpD+BmnijkQ9Zftj1sfiUK22M7MaXl0GhOcOTZpEvuHC13xattTHs13/QE0eHyTOxd8bz+5Cg==
