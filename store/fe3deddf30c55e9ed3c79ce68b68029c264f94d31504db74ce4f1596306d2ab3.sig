alias entropic-bound-migration-2026-12-e6 FsSTqwQKna5Nlh+MvwWrm+W/2PurHNN6DoFDof5AAL4Hq7ixfwkIhORgVYIJi/r0zUl/OBcTH3wRvpo0Ia5VAg==
