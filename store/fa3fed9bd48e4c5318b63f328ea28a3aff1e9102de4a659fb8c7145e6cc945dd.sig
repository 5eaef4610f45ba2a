alias entropic-bound-2026-12-07-session gGV1uvuF33cWlqSm7/UvOVs59HO/15/bVRRT4a8KJD4rpKW4U5zStq9Yxglw8CsN+uVKf8iS6pcEE7dDrOTeCA==
