entry entropic-bound-paper-2026-12 J7VTB6w+HjshAdKwq2TTfB5RD0tRm/7Fic+ENdRM57kAOJ1Zi5pl4ifoQfD6EW/jeMaKN3RbJ8NlXisssl8vCQ==
