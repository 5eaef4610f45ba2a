alias entropic-bound-migration-2026-12-rules i/+QNGTDIWgbXY6+DDpPM/w75V+eQKZ12XWpExQNzTZSRsEFr5/+v+qpDIAIh4rBYBYYMZ/L726PpgdMxGTNCg==
