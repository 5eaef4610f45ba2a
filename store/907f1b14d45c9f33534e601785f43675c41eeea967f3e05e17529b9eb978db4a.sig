alias entropic-bound-migration-2026-12-rules J+2EhQQ+HboLQN5pVg+535E2o5iYJFCeZgQtWssGY1naY++W77lYBqUE12F8mNR4lRA/c0XArd4EjEr0p1WSBA==
