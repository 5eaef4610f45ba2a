alias entropic-bound-2026-12-07-session ZW3/unYxz41Kr3OXM4gS+dzG5Vq1uJhbi3/fvOIZ7QRZ4YEo+LmprAPz9VcL5SWn7oK6vmkwUWUlECFyru/hBQ==
