alias entropic-bound-paper-2026-12 1ypaqOE/96TqNX8mffdEdKgGExU0ry3R6WfM7mm3pruNBJPbicv8o+ZJ9B8mzL7GbZ9ai5yTTSaJSe/fH2+GAQ==
