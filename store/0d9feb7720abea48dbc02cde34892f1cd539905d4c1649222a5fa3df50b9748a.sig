alias entropic-bound-paper-2026-12 uyHZKuKr7KKhb31CjkU/M8Hhjo0PIq+Tmwm97dL+BJznXioXXJD+4WqJNEuJr0OizF9rT/9e4YJHjD3jbNl9CQ==
