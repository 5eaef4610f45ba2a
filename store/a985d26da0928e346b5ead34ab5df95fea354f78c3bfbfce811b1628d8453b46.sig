alias entropic-bound-migration-2026-12-rules Jd+O69ouBWdkQ3Ap4xTnnvYa3H1/OhN2KXoUP8fZVen4l70ZgDCHZWqpyvrDM+At/+xh163yEoWx3LrF+O1ACw==
