alias entropic-bound-migration-2026-12-rules +aAfrlQ/5715YUgWWujlPxM7U193TWmbrqEHD3KehI0rmplOBayO7Lrmwrts+07uY8W4IKjoIR+90bkskj76AA==
