alias entropic-bound-paper-2026-12 R+xaMUnc7imO3+qii8uKXuth3imy0wPcIgkATg5yKm8bLZm/1PGZrVAhxlQXc/kaDcqKPkbChc3GN/YmoPbQDw==
