alias entropic-bound-2026-12-07-session dnqLt+GeLyd4u66GD6rA4+pDTrey8z9NmY/+0WOFi1mvxH9AtAUAn/xTsAiUJVVs2orK8X58JcaEHRQ+/YWzDw==
