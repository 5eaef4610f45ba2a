alias entropic-bound-2026-12-07-session uzLf0GeCE5CbEnHil+8StyedUIwOeMFxHGlQqcHK4eVXEZogXVj8Ne+I/5/a0QqZyAS4dtEF3uYKgO974C+UBw==
