alias entropic-bound-migration-2026-12-rules bLvg/0z1HOzslpUDau85qrqm9rK/VcQv8S+3NEZ0een0qgpGh9QzfC68X8J6V3+qxKAJ9IiMAWzs8r6nzLJeBQ==
