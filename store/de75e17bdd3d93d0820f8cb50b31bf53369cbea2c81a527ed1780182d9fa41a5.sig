alias entropic-bound-migration-2026-12-rules BGGW6BJSowDXmoLhdG5A4+N+acSqkLawqNoN4eO+IgPOkeCw5w210nnG+UADvSC4zHMww0liCl6zMmFvDhHPBw==
