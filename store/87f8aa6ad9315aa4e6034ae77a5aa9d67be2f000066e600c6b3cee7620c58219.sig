entry entropic-bound-paper-2026-12 xy9It+NYcUvPS+28enzS+DlAmnPggGh/i/KekYuA1RYFHldDXzskMx6KIcvvf681C5i3vIvut8ZSjbEWXoP1Bw==
