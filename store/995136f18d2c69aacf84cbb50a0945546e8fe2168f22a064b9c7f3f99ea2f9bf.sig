alias entropic-bound-migration-2026-12-rules dFxD4Px/eN2r/ChybUHWzAo5WciN+aPeesWB9Z1N96gZWu+5nnntUtFrQlTcxNk18hZD7ravFPGUxzCYICmWAA==
