alias entropic-bound-2026-12-07-session rIbni3kr2Jzjy/F/dj6j7QTi9pWPsTOaB02mJlMxJ+2i45ekhke2JklTowCAMmIUsHiHCC5Rhzqm+PCDFsZdAA==
