alias entropic-bound-migration-2026-12-rules 5W+UvSeV0Ojb8ojdBVd//oqWQhD5JxjfTM2OA/PXddWVZ/yS70rL/Jr6x3MBi8P2qoNOX50ErPuDvo9WyuWkBA==
