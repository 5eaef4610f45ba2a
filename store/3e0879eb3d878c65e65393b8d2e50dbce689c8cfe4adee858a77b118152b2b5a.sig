alias entropic-bound-migration-2026-12-e6 W8mb9ff89fwEFRRI0nL/HJTjV12IwVU+BnyiBOHcQaiJ2wn6Hym3XRDkkzq7AQguJOw5y8ZfbG7/89xBWSH+Bg==
