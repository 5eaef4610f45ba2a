alias entropic-bound-2026-12-07-session xfxECdVK2Hw7RUJVFgBcvoKK4NwDYJ1tha5bIrIlMr+/S+XrW8gpfCKFVFf2QVYYPXFzdtbG/fx9wU0IAPXnBQ==
