alias entropic-bound-2026-12-07-session hj+pGoMAxA9PnoGGYBH8Df0fX/QhIoHs8aBRlEYzBHZXz8QO0JPJYJPEZF5Icj1Xjo5+dYEPq/MV9O8ldVNiCg==
