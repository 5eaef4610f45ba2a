alias entropic-bound-migration-2026-12-rules pVDorqW7UhYlDgD4/6dZy5pY83ZIZdA/W2V7bh61vJNl9z/K/gDEHXPx6ienDVwNDMtFeP5EhJLJ48x8h0MxDA==
