alias entropic-bound-2026-12-07-session v2+8U0iIiKMUQyul+q+f2gxq1HW04sDlxZn7O9T/8zWrVKYhZ7QqixIHETPWNXa3NPuRt9QHfmdAECVkzLOfCA==
