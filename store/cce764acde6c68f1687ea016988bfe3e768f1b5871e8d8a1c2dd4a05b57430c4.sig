alias entropic-bound-paper-2026-12 dLg+iQC6WOy0Dm+HK8VaEVKkOOXWP+DgOqgegAh+aL5CWb/U8cflwF+f/Q8uljzdBS3zArVr+s7S4AbApkxkAQ==
