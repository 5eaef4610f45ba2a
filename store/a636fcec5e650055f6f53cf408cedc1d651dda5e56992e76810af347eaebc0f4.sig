alias entropic-bound-2026-12-07-session o3r4Vq1bPyy/VIXL2sz+HgIkyvqmuGnUJnHr/4bwF3QSe52CZDlHfIgscyugaTrz+0kMmmM23ZKnQD9HYan5CA==
