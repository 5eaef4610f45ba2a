realisation entropic-bound-paper-2026-12 lpzpiVfrr8uadjrQnMuc8vTFlFlYsn9+gPlGQl+JSsq17XVrvj0E3D+SL5+5uK9bNaN3FTBF4aGPd6w9H+0oAA==
