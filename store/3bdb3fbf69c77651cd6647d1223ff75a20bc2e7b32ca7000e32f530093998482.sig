alias entropic-bound-2026-12-07-session lakJHdwD8KdJvjlURSmVqFyH/axIgOzBZxFU3yd+XX/EognQWcO6uBTP/X05wPrF9WFiM+vqzYXoI65Th5kEBQ==
