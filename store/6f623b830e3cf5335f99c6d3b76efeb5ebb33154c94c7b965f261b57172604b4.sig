alias entropic-bound-migration-2026-12-rules 8T+tXEW/dMYug4LM5UBTKIswQ9/qYr+8ydQAjPYxd3vho6YHyp+tkUkKZMXpr7b7+uqjbUolS1ohpQMAfllvDw==
