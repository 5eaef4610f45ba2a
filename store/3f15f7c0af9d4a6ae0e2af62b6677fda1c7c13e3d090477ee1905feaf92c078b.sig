entry entropic-bound-paper-2026-12 qRgc5gEoOYRqHJfmRtmZYx8pOGxHnXINZ3OKgfVXU7xvpey1O/sIuJwX0gf/Vau/QW/4/Fkk3b9ZIFjD6ck8CQ==
