entry entropic-bound-paper-2026-12 NxqmRO1X6yR/EO73ZlFfguZxPVdQJrBag8FUnbOIG2PU+Q8a8p0hAzfxR9IOzdC8wThrTAxnewfg/B/A+aV/BQ==
