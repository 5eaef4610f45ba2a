alias entropic-bound-2026-12-07-session M8z5FJ3m4BfdhFXFUhsY7rLl2iHh+ssK/0ewSfQb4YiAbUALhfFBHGyRlqS99xCc+qHizWA/HDWgJwt02Sy/Aw==
