entry entropic-bound-paper-2026-12 L/CtnhSQSTcVD4/vqcRXFQUjycnwlHx2v81nFmbD/W64dRHOW6YC44B6nbx0dWHD+5CJDvlzAQBoxgk3kY6/BQ==
