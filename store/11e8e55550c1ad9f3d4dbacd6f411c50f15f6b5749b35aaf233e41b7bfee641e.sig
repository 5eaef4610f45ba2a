alias entropic-bound-2026-12-07-session WzT8vghjXtLiZ70i/3Jm3pZrUs449biujmY8L+GrJN8Wip7vIjPT6537jAVr/1g4ug0ZJZMs1irBVF/00ujuBg==
