alias entropic-bound-paper-2026-12 C/IYKvZBDvuCexG7gC26nTrT96oLLZcF/Mgxn3+b/NIvBpZqdyuP1e8M29RFKZ2DHsfbImlB2hrkN9UjYzOYCg==
