entry entropic-bound-paper-2026-12 0KDL+E0ysVka/9KrHzI1FMzqi/7TT3OeA2dMJLWV+bTqgdKCMjL7Er790igqKmrMLxi0XuEVm5aSC2qbaDfuCg==
