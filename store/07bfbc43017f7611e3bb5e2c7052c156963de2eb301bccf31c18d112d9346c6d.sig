entry entropic-bound-paper-2026-12 VP/JS3dwCd4WWjTUqT22bc0GfO/w7bGFO2koqSXioldPXBs+ZaJkKmvjCtJaEY+H8EYyDV0dv5DRsJ6MebteCg==
