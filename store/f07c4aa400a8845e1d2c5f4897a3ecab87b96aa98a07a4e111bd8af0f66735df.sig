alias entropic-bound-paper-2026-12 soOEdimu2HOVznD+soKw5mWallvK/WJ9G/UadyKQ97cWBYJXMWEetfxUAw00IR/GOmC6bq2qU67YRwCqtH86Bg==
