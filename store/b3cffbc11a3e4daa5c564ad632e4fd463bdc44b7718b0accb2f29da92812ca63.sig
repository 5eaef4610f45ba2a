alias entropic-bound-migration-2026-12-rules mtSWnGUX17SST2ObVAdQpqSf/npX/3EO1RTnTWLZ5GUDLLZda/jK1uXXJO2rPdxCEgYqtXEk7Nk+OliYE9PxAQ==
