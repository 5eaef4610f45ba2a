entry entropic-bound-paper-2026-12 5NDFf309BR9vMxSpqPG+UVyw2rljgRgIkhLfhSqjIfdpLC+br+Yy7wVZpyHFwl5w/qZMPqn0dmxuUVmjeZg5Aw==
