alias entropic-bound-paper-2026-12 mySeRVeY7E8W2tmHXOw+Y/M64PTeFesE2CMSFuYI8/c5hZt1dL4eqJVdnUIf5eSTLSfOhnvaJv5vJ+ujnE1wCg==
