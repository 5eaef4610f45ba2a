alias entropic-bound-migration-2026-12-e6 0KaqTURuAAelK/lKU392um8WBQgTUwX+4Jg3+yVnOKCYyXzx6Q//QY+4tNXjIZsXHIkMs0wfIUJmJjnql/WZDw==
