alias entropic-bound-migration-2026-12-rules 263t78LszgX6vk0+yhXqksk3v4WnTdksoHOD7j5VA9nn3ypROst2/itRJ+OKgChBkSX/9NxHQ54VKU3a4wOJCw==
