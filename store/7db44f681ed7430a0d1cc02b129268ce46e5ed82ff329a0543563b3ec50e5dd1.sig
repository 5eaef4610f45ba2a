alias entropic-bound-2026-12-07-session b2RYEAx/sXBA//pB8m8LV+udN3lcLat7QwIAq9cCm3PSYaEnnVTJQBQvPzbNMuVQ76jQ/tTgmXl+JmaisHzyCA==
