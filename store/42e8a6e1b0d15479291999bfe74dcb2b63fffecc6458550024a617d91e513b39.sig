entry entropic-bound-paper-2026-12 DSsd2rwakCE0F/auzTLhwHa0Gz2fvo+IKIaWOO0XLc1WO+72HmHnnHxzm/MG6h3FrXzstvTo3EN+wUOO43s8CQ==
