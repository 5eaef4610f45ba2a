alias entropic-bound-migration-2026-12-rules WUPzE/83PsrhQUE/jpk93nra7dzdJJnqL9c+u/mFikQMqYn4W3+RsuhlmZqq+C4zQyy9qiYy7auA3UNriNadBw==
