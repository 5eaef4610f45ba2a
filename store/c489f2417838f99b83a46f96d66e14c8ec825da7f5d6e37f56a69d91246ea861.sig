alias entropic-bound-migration-2026-12-rules YvoJwfP/+Qkp+gRdxZ8nqbFyHrBZ2wf1bWVLNobamxKQZfsdiLvIYugl2Oi/apZ2MA1fD4hQwL7/hlOzQ794Cw==
