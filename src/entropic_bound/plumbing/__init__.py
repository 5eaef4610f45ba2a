"""What keeps the workflow honest but holds no science: atomic writes and verified reads,
typed and checked config, each rule's derived code, the configuration reference and a
finished run's prompt exit."""
