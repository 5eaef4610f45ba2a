realisation entropic-bound-2026-12-07-session v70NXv1/CBaeeQ2L/NVHXRz11x/zHoPjoIZXthVIi0UWnULivjG35/sZASCfEpsSa/SV08yOWfLA0sLx2s5SAw==
