"""The students: query-key factor models (E3-E5), the interpolation ladder B0-B3 (E2) and
the char Transformer of App. B (E6)."""
