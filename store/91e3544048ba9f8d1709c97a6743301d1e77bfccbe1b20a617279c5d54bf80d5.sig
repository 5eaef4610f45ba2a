alias entropic-bound-paper-2026-12 IYjzAA7RtPBz8YlfArepzbO783eGtcUdagfbNpEOEGqYKtwxRXXK6bp7OxwV/sJkxnN+4p8KX/x6T1fx/jMyDw==
