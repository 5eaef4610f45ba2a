alias entropic-bound-migration-2026-12-rules cZKrDF/J81FS7Zizj+dizWQd0pXy88Ea39YW5dEsagZG+yg95ToTORz/lsMymb0M9/8lXoHsAAz+sa2wg4KmAA==
