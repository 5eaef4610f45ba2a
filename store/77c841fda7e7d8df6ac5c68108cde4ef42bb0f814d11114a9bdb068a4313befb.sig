entry entropic-bound-paper-2026-12 PJC4z4M/uZPpsLmlvvyyal8GhIr1e4wicVeVoy+wKbD8ZvyREf0hBFYDfqxC83Dhr5xpU/f6X6A4jIqKwt/GAg==
