alias entropic-bound-paper-2026-12 AhQBS+LC42Sw8nx9VkwI9jD7hJSXmMO+CBObKL2LVMJQ/3kOnbxg0WahROm0PTt/3+GOkIRSZIdlARiw1lu7DA==
