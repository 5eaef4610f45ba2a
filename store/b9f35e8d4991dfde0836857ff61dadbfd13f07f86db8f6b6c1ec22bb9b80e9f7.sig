alias entropic-bound-migration-2026-12-rules zU0qBH8xfrCxilvuxN+e91FL807tpOI/aZWopkduXwNX7//QtNQfsJ4O4oovJag3gyhpBJHMqPYe0oa/I9pUCQ==
