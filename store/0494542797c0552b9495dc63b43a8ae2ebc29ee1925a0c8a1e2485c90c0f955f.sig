alias entropic-bound-migration-2026-12-e6 7j/UzucdDlyNtHP4OpBAl46IVVBE+IiJvrBWhRdAcy9iugZCVxNuCJ/OjNjgZNejhkJAPg+5t67VEORPoYclCg==
