entry entropic-bound-2026-12-07-session EVru+QGaaVZ/fbpLKAEiyGX6DsFzLHVsSb2vsixMl+e9to2HJHMGm3iY54SP8Lu14UQ7+ByJ651a4mEXQGcDBQ==
