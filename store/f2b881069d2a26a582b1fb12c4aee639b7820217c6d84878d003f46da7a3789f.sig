alias entropic-bound-2026-12-07-session x9OA1FtAY/INEzXBarHiLT6DBBNzthIQ3Om9ZR+yx2z5+k4JrpJej0ma4rKBuMmwpGZlI+BsAXwIV1zJD1ChAg==
