alias entropic-bound-paper-2026-12 3JHpcV1/f0UZeJeAr3xhku/ygWYei+yzKHcb3L8YVUs9ZLrvmYcn/FKfzA7KjoQgEKS5lEEW/jPHm+ZIJHeJDg==
