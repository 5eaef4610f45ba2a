alias entropic-bound-paper-2026-12 zVfHcAhnqiT+vYfvdL0vKcU1Ek/r7TAIgAVyKZ07sE+uOgdrtOGl1e8eutMiTAoWCAcl+6P/rf0aYs+8mVEXCQ==
