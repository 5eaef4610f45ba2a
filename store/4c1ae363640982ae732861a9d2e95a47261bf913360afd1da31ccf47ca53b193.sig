alias entropic-bound-migration-2026-12-rules ByKsWtez56NIWobymtRPdVVegJfV+1Px7h+9XcvfDAcupac+/C2vDCnyEIWybCQGCvgmQ7zeif2SO+v3trBCAw==
