alias entropic-bound-2026-12-07-session 3n0uOkzjSDQ110ppNuX3IOerR027Xlbtvbj/PWf/wZweqysFI6LWeEk/YmFpqaaJ0/P5urjHYHGByyxz9BwDAA==
