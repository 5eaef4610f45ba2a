alias entropic-bound-migration-2026-12-rules Dg2+pA9TZoBdZ/33W/B8SUsyYw1pZTthNBs2/TbHkTYGooipjYpmflRQcQHKKNcJgXy/fiHLPdGcy5PvS1lKAw==
