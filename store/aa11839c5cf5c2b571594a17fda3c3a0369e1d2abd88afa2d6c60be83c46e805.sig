alias entropic-bound-migration-2026-12-rules r7TF0DWL+yQZFOXJCl545IRmOW0zxPWmvt1vI4o4V5/CXbRZ2M9x7lHo/v9y2yJvMBr9XT3dMVJYvBD+KJxEBQ==
