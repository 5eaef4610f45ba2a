entry entropic-bound-paper-2026-12 GqUgBdGsI3/62Uf5d1dO96fWP3dAy+fcpKQU5zy8zO/jPhkSJh6Px7oTK83KtAuMFFw+z6JAs/HIU1t4taUjCw==
