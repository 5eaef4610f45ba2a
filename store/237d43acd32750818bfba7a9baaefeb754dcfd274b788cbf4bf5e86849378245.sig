entry entropic-bound-paper-2026-12 RXMtQvsD2TgqJFRXSXQ3+KOg07iXR/lxGZs/cNRbOyBhnMqfzFdOZxQ6N1/JcaMXVN0SLXmK8CY4m1SK7eHEBw==
