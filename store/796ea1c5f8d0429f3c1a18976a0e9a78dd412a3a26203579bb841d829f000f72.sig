alias entropic-bound-paper-2026-12 RjimoPbH3xDHF+8TNGJrJLJGdkNjIVHy0hWmMCrO6dkCxsz20ztKCX7x4AjeboQfGXRNY/C+JiuZT/YFcNY5CQ==
