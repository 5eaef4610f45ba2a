entry entropic-bound-paper-2026-12 4bKwBS/0AxmzClWK+Y0o9LpCMkQej3FhTPvyms8OzXlqiFbqcAew3lORw/30M9cpQi4FB+htoEq5j184TAOFCA==
