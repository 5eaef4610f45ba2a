alias entropic-bound-migration-2026-12-rules qxf1VxhecoWPAD2igErI6jDzV+keFEjG/MCQPpjj9Kb+zaVjUmNN1+95RGwjB0bk6uLyE2kwYi0MWGZhhrxYDw==
