alias entropic-bound-migration-2026-12-rules /RkrP/Oc4ChGbE3IdfzNaGA14BduCFzGpCAkdoJVKUwU3PRDia/In/auC+FCxR6IF3ZoFVlLiLqlqynXokAGAQ==
