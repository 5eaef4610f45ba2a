alias entropic-bound-2026-12-07-session 8Ky2Uj+NMFaLZhXf9+w/C79sMFsEcI3f34Z7TAA6TYDxg4eSJLcyxbHPhx8XVRkD61AAZ+rsz3h846zMfePCDg==
