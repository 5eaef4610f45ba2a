entry entropic-bound-paper-2026-12 xA+osPy2efFz7mnqcDAnJd0sfhfkHZa4bOMaZMXBKr1lDmo60pX6+d0rLWVf6ZC9+dzyUAQu9mSkVl+9GkzvDQ==
