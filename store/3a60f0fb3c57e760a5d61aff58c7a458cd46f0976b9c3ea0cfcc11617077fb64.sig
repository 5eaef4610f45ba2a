entry entropic-bound-paper-2026-12 +t0pL/AXKY4fLrhnqJanW6c+EyTp38h55JgfHmZdTva0Kg+fPqzWPsDj6t/+VDS30tyvhhLJHqTTWuV5WS+5DA==
