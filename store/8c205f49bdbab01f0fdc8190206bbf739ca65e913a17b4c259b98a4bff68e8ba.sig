alias entropic-bound-paper-2026-12 qQ/kGdpkBVd8Wb3tkPLl+Rj1hhJO0h6D0jaxTB0Ho8AKMV+DKTn3U/ZtEyt0PQjAxvCni3JjnTgjt2YvNET0Dg==
